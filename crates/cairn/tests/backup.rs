//! `cairn backup` of an archive in use and `cairn restore` of it elsewhere, through the
//! real binary: the restored archive answers the same searches, keeps the corrections
//! and their history, and checks clean.

mod common;

use std::path::Path;

use common::{cairn, json, stderr};

const PAGE: &str =
    "Divers search the harbour of Sfax, Tunisia, on June 14, 2022, after a boat capsized. \
(Photo by Hedi Ferchichi/AFP)

Pupils queue for water at a school in Gao, Mali, on February 2, 2021. \
(Photo by Awa Traore/Reuters)

Firefighters spray a burning warehouse in Odesa, Ukraine, on August 30, 2023. \
(Photo by Oleh Marchenko/AP)
";

fn ok(out: std::process::Output) -> std::process::Output {
    assert!(out.status.success(), "{}", stderr(&out));
    out
}

fn caption_id(data: &Path, query: &str) -> String {
    let r = json(cairn(data).args(["search", query, "--json"]));
    assert_eq!(r["total"], 1, "{r}");
    r["hits"][0]["id"].to_string()
}

/// What a user sees of an archive: searches, one caption, the audit.
fn seen(data: &Path, id: &str) -> Vec<serde_json::Value> {
    let mut all = Vec::new();
    for q in ["", "harbour", "water", "warehouse OR harbour"] {
        let mut r = json(cairn(data).args(["search", q, "--json", "--facets"]));
        // Relevance scores and the order of ties follow the index's segments and
        // deleted entries, which a rebuilt index does not share: the hits compared
        // are the same captions with the same records, and the facets.
        let hits = r["hits"].as_array_mut().unwrap();
        for hit in hits.iter_mut() {
            hit.as_object_mut().unwrap().remove("score");
        }
        hits.sort_by_key(|h| h["id"].as_i64());
        all.push(r);
    }
    all.push(
        json(cairn(data).args(["search", "", "--agency", "Harbour Desk", "--json"]))["total"]
            .clone(),
    );
    all.push(json(cairn(data).args(["show", id, "--json"])));
    let audit = ok(cairn(data).args(["audit", "--json"]).output().unwrap());
    all.push(serde_json::Value::String(
        String::from_utf8(audit.stdout).unwrap(),
    ));
    all
}

fn assert_same(got: &[serde_json::Value], want: &[serde_json::Value], when: &str) {
    assert_eq!(got.len(), want.len());
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(g == w, "{when}, view {i}:\n{g}\nwanted\n{w}");
    }
}

#[test]
fn a_backup_taken_while_the_archive_is_written_restores_whole_elsewhere() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("arch");
    let page = dir.path().join("page.txt");
    std::fs::write(&page, PAGE).unwrap();
    ok(cairn(&data).arg("ingest").arg(&page).output().unwrap());
    ok(cairn(&data)
        .args(["users", "add", "salma", "--role", "editor"])
        .write_stdin("tide tables at dawn\n")
        .output()
        .unwrap());
    let id = caption_id(&data, "harbour");
    ok(cairn(&data)
        .args(["correct", &id, "--as", "salma"])
        .args(["--set", r#"credit.agency="Harbour Desk""#])
        .args(["--note", "the desk's own archive"])
        .output()
        .unwrap());
    ok(cairn(&data)
        .args(["correct", &id, "--as", "salma", "--verified", "true"])
        .output()
        .unwrap());
    let before = seen(&data, &id);
    assert_eq!(before[4], 1, "the correction is searchable");

    // A writer at work: its transaction is open, uncommitted, through the backup.
    let mut writer = rusqlite::Connection::open(data.join("archive.sqlite")).unwrap();
    let tx = writer
        .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
        .unwrap();
    tx.execute(
        "INSERT INTO meta (key, value) VALUES ('unfinished', 'write')",
        [],
    )
    .unwrap();
    let backup = dir.path().join("backup");
    let out = ok(cairn(&data).arg("backup").arg(&backup).output().unwrap());
    assert!(stderr(&out).contains("backed up"), "{}", stderr(&out));
    tx.rollback().unwrap();
    drop(writer);

    // A backup directory is never written over.
    let out = cairn(&data).arg("backup").arg(&backup).output().unwrap();
    assert!(!out.status.success());
    assert!(stderr(&out).contains("not empty"), "{}", stderr(&out));

    let restored = dir.path().join("restored");
    let out = ok(cairn(&data)
        .arg("restore")
        .arg(&backup)
        .arg(&restored)
        .output()
        .unwrap());
    assert!(
        stderr(&out).contains("3 captions indexed"),
        "{}",
        stderr(&out)
    );
    assert_same(&seen(&restored, &id), &before, "restored elsewhere");
    let out = ok(cairn(&restored).arg("check").output().unwrap());
    assert!(stderr(&out).contains("2 revisions"), "{}", stderr(&out));
    let db = rusqlite::Connection::open(restored.join("archive.sqlite")).unwrap();
    let unfinished: i64 = db
        .query_row(
            "SELECT count(*) FROM meta WHERE key = 'unfinished'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(unfinished, 0, "an uncommitted write is not in the backup");
    let accounts: i64 = db
        .query_row(
            "SELECT count(*) FROM account WHERE name = 'salma'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(accounts, 1);
    drop(db);

    // Over an archive that holds something only when forced; the old one is kept.
    let out = cairn(&data)
        .arg("restore")
        .arg(&backup)
        .arg(&restored)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(stderr(&out).contains("--force"), "{}", stderr(&out));
    ok(cairn(&data)
        .args(["correct", &id, "--as", "salma", "--disputed", "true"])
        .output()
        .unwrap());
    ok(cairn(&data)
        .arg("restore")
        .arg(&backup)
        .arg(&data)
        .arg("--force")
        .output()
        .unwrap());
    assert_same(&seen(&data, &id), &before, "restored over the archive");
    let aside = dir.path().join("arch.replaced-1");
    let kept = json(cairn(&aside).args(["show", &id, "--json"]));
    assert_eq!(kept["review"]["disputed"], true, "{kept}");
}
