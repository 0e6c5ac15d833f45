//! People's corrections through the real binary: users and tokens, a correction made
//! and audited, kept across re-ingest of the same and of new pages, `reindex` and
//! `reextract`, exported with the `verified` column, and the history's chain checked.

mod common;

use std::path::Path;

use common::{cairn, json, stderr};

const PAGE_ONE: &str = "Fishermen mend their nets on the quay in Tyre, Lebanon, on March 3, 2021. \
(Photo by Rami Haddad/AFP)

Volunteers clear rubble from a school yard in Aleppo, Syria, on May 9, 2019. \
(Photo by Omar Saleh/Reuters)
";

/// The first page's first caption again, a copy of it with another credit, and a new one.
const PAGE_TWO: &str = "Fishermen mend their nets on the quay in Tyre, Lebanon, on March 3, 2021. \
(Photo by Rami Haddad/AFP)

Fishermen mend their nets on the quay in Tyre, Lebanon, on March 3, 2021. \
(Photo by Rami Haddad/AFP via Getty Images)

A shepherd walks his flock past olive groves near Hebron on April 2, 2020. \
(Photo by Lina Awad/AP)
";

fn ingest(data: &Path, file: &Path) {
    let out = cairn(data).arg("ingest").arg(file).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
}

/// Runs with `input` on standard input; the output.
fn with_stdin(cmd: &mut assert_cmd::Command, input: &str) -> std::process::Output {
    cmd.write_stdin(input.as_bytes().to_vec()).output().unwrap()
}

fn nets_caption(data: &Path) -> serde_json::Value {
    let r = json(cairn(data).args(["search", "nets", "--json"]));
    assert_eq!(r["total"], 1, "{r}");
    let id = r["hits"][0]["id"].as_i64().unwrap();
    json(cairn(data).args(["show", &id.to_string(), "--json"]))
}

fn agency_total(data: &Path, agency: &str) -> u64 {
    json(cairn(data).args(["search", "", "--agency", agency, "--json"]))["total"]
        .as_u64()
        .unwrap()
}

/// The corrected caption is as corrected: persons, agency, verified.
fn assert_corrected(data: &Path, when: &str) {
    let c = nets_caption(data);
    assert_eq!(c["record"]["persons"][0], "Nadia Karam", "{when}: {c}");
    assert_eq!(c["record"]["credit"]["agency"], "Quay Press", "{when}");
    assert_eq!(c["review"]["verified"], true, "{when}");
    assert_eq!(agency_total(data, "Quay Press"), 1, "{when}");
}

#[test]
fn a_correction_survives_reingest_reindex_and_reextract_and_is_exported() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("arch");
    let one = dir.path().join("one.txt");
    let two = dir.path().join("two.txt");
    std::fs::write(&one, PAGE_ONE).unwrap();
    std::fs::write(&two, PAGE_TWO).unwrap();
    ingest(&data, &one);

    let out = with_stdin(
        cairn(&data).args(["users", "add", "nadia", "--role", "editor"]),
        "harbour-lights-7\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let out = with_stdin(
        cairn(&data).args(["users", "add", "rita", "--role", "reader"]),
        "quiet reading room\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let list = cairn(&data).args(["users", "list"]).output().unwrap();
    let list = String::from_utf8(list.stdout).unwrap();
    assert!(
        list.contains("nadia\teditor") && list.contains("rita\treader"),
        "{list}"
    );

    let id = nets_caption(&data)["id"].as_i64().unwrap().to_string();
    // A reader may not correct.
    let out = cairn(&data)
        .args(["correct", &id, "--as", "rita", "--verified", "true"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(stderr(&out).contains("reader"), "{}", stderr(&out));

    let out = cairn(&data)
        .args(["correct", &id, "--as", "nadia"])
        .args(["--set", r#"persons=["Nadia Karam"]"#])
        .args(["--set", r#"credit.agency="Quay Press""#])
        .args([
            "--verified",
            "true",
            "--note",
            "the wire's own caption names her",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_corrected(&data, "after the correction");

    // A save against the version before it is refused and changes nothing.
    let out = cairn(&data)
        .args(["correct", &id, "--as", "nadia", "--version", "0"])
        .args(["--set", r#"persons=["Someone Else"]"#])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("changed since version 0"),
        "{}",
        stderr(&out)
    );

    ingest(&data, &one);
    assert_corrected(&data, "after ingesting the same page again");
    ingest(&data, &two);
    assert_corrected(&data, "after ingesting a new page with copies");
    assert_eq!(nets_caption(&data)["variants"].as_array().unwrap().len(), 2);

    let out = cairn(&data).arg("reindex").output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_corrected(&data, "after reindex");

    // An older extractor's records: reextract reads every caption again, reports what
    // changed per field, and keeps the correction over the new record.
    let db = rusqlite::Connection::open(data.join("archive.sqlite")).unwrap();
    let stale = serde_json::json!({
        "text": "", "credit": null, "date": null, "location": null, "places": [],
        "casualties": {"killed": null, "injured": null}, "persons": [],
        "organizations": [], "event_types": ["Old reading"], "sources": [], "warnings": []
    });
    let n = db
        .execute("UPDATE variant SET record = ?1", [stale.to_string()])
        .unwrap();
    assert_eq!(n, 4);
    drop(db);
    let out = cairn(&data).args(["reextract", "--json"]).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let rep: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(rep["records"], 4, "{rep}");
    assert_eq!(rep["changed"], 4, "{rep}");
    assert_eq!(rep["fields"]["event_types"], 4, "{rep}");
    assert_corrected(&data, "after reextract");
    let c = nets_caption(&data);
    assert!(
        c["record"]["location"]["name"].is_string(),
        "extracted again: {c}"
    );
    assert_eq!(c["record"]["event_types"], serde_json::json!([]), "{c}");

    // Exports carry the corrected values and the marks.
    let out = cairn(&data)
        .args(["export", "nets", "--format", "csv"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let mut rd = csv::Reader::from_reader(out.stdout.as_slice());
    let head = rd.headers().unwrap().clone();
    let row = rd.records().next().unwrap().unwrap();
    let col = |name: &str| &row[head.iter().position(|h| h == name).unwrap()];
    assert_eq!(col("verified"), "true");
    assert_eq!(col("persons"), "Nadia Karam");
    assert_eq!(col("agency"), "Quay Press");
    assert_eq!(col("corrected"), "credit.agency; persons");

    // The audit lists who changed what; the chain checks out.
    let out = cairn(&data)
        .args(["audit", "--user", "nadia"])
        .output()
        .unwrap();
    let audit = String::from_utf8(out.stdout).unwrap();
    assert_eq!(audit.lines().count(), 3, "{audit}");
    assert!(audit.contains("-> [\"Nadia Karam\"]"), "{audit}");
    assert!(audit.contains("the wire's own caption names her"));
    let out = cairn(&data)
        .args(["audit", "--since", "2999-01-01"])
        .output()
        .unwrap();
    assert!(out.stdout.is_empty());
    let out = cairn(&data)
        .args(["audit", "--since", "yesterday"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let out = cairn(&data).arg("check").output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("3 revisions"), "{}", stderr(&out));

    let db = rusqlite::Connection::open(data.join("archive.sqlite")).unwrap();
    db.execute("UPDATE revision SET user = 'rita' WHERE id = 1", [])
        .unwrap();
    let out = cairn(&data).arg("check").output().unwrap();
    assert!(!out.status.success());
    assert!(stderr(&out).contains("revision 1"), "{}", stderr(&out));
}

#[test]
fn a_token_is_printed_once_on_its_last_line_and_kept_only_hashed() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("arch");
    let out = with_stdin(
        cairn(&data).args(["users", "add", "omar", "--role", "admin"]),
        "a long enough secret\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let out = cairn(&data)
        .args(["tokens", "create", "--user", "omar"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let token = stdout.lines().last().unwrap().trim();
    assert!(
        token.starts_with("cairn_") && !token.contains(' '),
        "{stdout}"
    );
    let mut db_bytes = std::fs::read(data.join("archive.sqlite")).unwrap();
    if let Ok(wal) = std::fs::read(data.join("archive.sqlite-wal")) {
        db_bytes.extend(wal);
    }
    for secret in [token, "a long enough secret"] {
        assert!(
            !db_bytes
                .windows(secret.len())
                .any(|w| w == secret.as_bytes()),
            "{secret} stored in clear"
        );
    }
    let out = cairn(&data)
        .args(["tokens", "create", "--user", "nobody"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let out = with_stdin(cairn(&data).args(["users", "passwd", "omar"]), "short\n");
    assert!(!out.status.success());
    assert!(stderr(&out).contains("shorter than 8"), "{}", stderr(&out));
}
