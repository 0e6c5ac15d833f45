//! Near-duplicate captions through the real binary: `cairn dedup` on hand-written cases
//! and the archive joining edited copies of the seed captions to the right captions.

mod common;

use common::{cairn, json, seeded_archive, shared, stats};

fn run_dedup(input: &str) -> Vec<(u64, bool)> {
    let out = cairn(std::path::Path::new("/nonexistent"))
        .arg("dedup")
        .write_stdin(input)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            (
                v["cluster"].as_u64().unwrap(),
                v["canonical"].as_bool().unwrap(),
            )
        })
        .collect()
}

const BACKGROUND: &str = "The conflict, which began with protests in 2011, has killed more than 400,000 people and displaced more than half of the country's pre-war population, according to monitors, while aid agencies say millions of people inside the country depend on deliveries of food, water and medicine that reach besieged areas only rarely and after long negotiations between the warring sides and the United Nations.";

#[test]
fn hand_written_edits_join_and_shared_background_does_not() {
    let full = "Children queue for bread outside a bakery in the rebel-held town of Douma, Syria, July 12, 2016. Bread prices have tripled since the siege began. (Photo by Rami Haddad/AFP Photo)";
    let captions = [
        full,
        // cut short with "...more"
        "Children queue for bread outside a bakery in the rebel-held town of Douma, Syria, July 12, 2016. Bread prices have...more",
        // re-credited
        "Children queue for bread outside a bakery in the rebel-held town of Douma, Syria, July 12, 2016. Bread prices have tripled since the siege began. Rami Haddad/AFP/Getty Images",
        // typo fixed the other way round
        "Children queue for bread outside a bakrey in the rebel-held town of Douma, Syria, July 12, 2016. Bread prices have tripled since the siege began. (Photo by Rami Haddad/AFP Photo)",
        // background appended, HTML entity left in
        &format!(
            "Children queue for bread outside a bakery in the rebel&#8209;held town of Douma, Syria, July 12, 2016. {BACKGROUND} (Photo by Rami Haddad/AFP Photo)"
        ),
        // two different photographs sharing the same 60-word background paragraph
        &format!(
            "A woman carries water through a flooded street in Idlib, Syria, August 2, 2016. {BACKGROUND} (Photo by Lina Saleh/AFP Photo)"
        ),
        &format!(
            "Rescue workers search the rubble of a school in Aleppo, Syria, September 9, 2016. {BACKGROUND} (Photo by Omar Aziz/AFP Photo)"
        ),
    ];
    let out = run_dedup(&captions.join("\n\n"));
    assert_eq!(out.len(), 7);
    let c0 = out[0].0;
    for (i, (c, _)) in out.iter().enumerate().take(5) {
        assert_eq!(*c, c0, "caption {i} should join the first");
    }
    assert_ne!(out[5].0, c0);
    assert_ne!(out[6].0, c0);
    assert_ne!(
        out[5].0, out[6].0,
        "a shared background paragraph does not make one photograph"
    );
    // The canonical text is the most complete untruncated variant with a credit.
    let canon: Vec<usize> = out
        .iter()
        .enumerate()
        .filter(|(_, (c, k))| *c == c0 && *k)
        .map(|(i, _)| i)
        .collect();
    assert_eq!(canon, vec![4], "the longest credited untruncated variant");
}

#[test]
fn edited_seed_copies_join_their_captions() {
    let Some(shared) = shared() else { return };
    let d = seeded_archive(&shared);
    let before = stats(d.path());
    assert_eq!(before["captions"], 17);
    let seeds = std::fs::read_to_string(shared.join("seeds/000_9a073c031d9d8403.txt")).unwrap();
    let first: Vec<&str> = seeds
        .split("\n\n")
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    // Our own edits of three seed captions: cut short, re-credited, a typo.
    let harasta = first[0];
    let cut = format!("{}...more", &harasta[..150]);
    let homs = first[2].replace(
        "(Photo by Joseph Eid/AFP Photo)",
        "Joseph Eid/AFP/Getty Images",
    );
    let douma = first[1].replace("graveyard", "graveyrad");
    let page = d.path().join("edited.txt");
    std::fs::write(&page, format!("{cut}\n\n{homs}\n\n{douma}\n")).unwrap();
    cairn(d.path()).arg("ingest").arg(&page).assert().success();
    let after = stats(d.path());
    assert_eq!(
        after["captions"], 17,
        "edited copies join existing captions"
    );
    assert_eq!(
        after["variants"].as_u64().unwrap(),
        before["variants"].as_u64().unwrap() + 3
    );
    assert_eq!(
        after["occurrences"].as_u64().unwrap(),
        before["occurrences"].as_u64().unwrap() + 3
    );
    let r = json(cairn(d.path()).args(["search", "Harasta", "--json"]));
    assert_eq!(r["total"], 1);
    assert_eq!(r["hits"][0]["sources"].as_array().unwrap().len(), 4);
    assert!(
        r["hits"][0]["text"]
            .as_str()
            .unwrap()
            .ends_with("(Photo by Sameer Al-Doumy/AFP Photo)"),
        "canonical stays the full credited text"
    );
    let id = r["hits"][0]["id"].as_i64().unwrap();
    let c = json(cairn(d.path()).args(["show", &id.to_string(), "--json"]));
    assert_eq!(c["variants"].as_array().unwrap().len(), 2);
    // Exact-only ingest keeps them apart.
    let e = tempfile::tempdir().unwrap();
    cairn(e.path())
        .arg("ingest")
        .arg("--exact-only")
        .arg(shared.join("seeds"))
        .arg(&page)
        .assert()
        .success();
    assert_eq!(stats(e.path())["captions"], 20);
}

/// An archive's export (captions, records, variants, sources) as sorted lines.
fn export_lines(data: &std::path::Path) -> Vec<String> {
    let out = cairn(data).args(["export", ""]).output().unwrap();
    assert!(out.status.success());
    let mut lines: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            v.to_string()
        })
        .collect();
    lines.sort();
    lines
}

#[test]
fn a_long_file_stored_in_parts_is_the_archive_of_it_stored_whole() {
    let work = tempfile::tempdir().unwrap();
    let corpus = work.path().join("nd");
    cairn(work.path())
        .args(["generate", "--near-dup", "--photos", "300"])
        .arg(&corpus)
        .assert()
        .success();
    let file = corpus.join("captions.txt");
    let ingest = |name: &str, part: &str| {
        let data = work.path().join(name);
        let report = json(
            cairn(&data)
                .args(["ingest", "--json", "--part-captions", part])
                .arg(&file),
        );
        (data, report)
    };
    let (whole, whole_report) = ingest("whole", "100000");
    // 824 captions: 16 parts of 50 and one of 24, in one transaction.
    let (parts, parts_report) = ingest("parts", "50");
    assert_eq!(parts_report, whole_report);
    assert_eq!(parts_report["occurrences_added"], 824);
    assert!(parts_report["variants_joined"].as_u64().unwrap() > 100);
    assert_eq!(stats(&parts), stats(&whole));
    assert_eq!(export_lines(&parts), export_lines(&whole));
    // One batch: the source is in one transaction.
    let batches = |data: &std::path::Path| {
        let c = rusqlite::Connection::open(data.join("archive.sqlite")).unwrap();
        c.query_row("SELECT count(*) FROM batch", [], |r| r.get::<_, i64>(0))
            .unwrap()
    };
    assert_eq!(batches(&parts), 1);
    // Each occurrence in its place: ordinal, span, text and caption.
    let occurrences = |data: &std::path::Path| {
        let c = rusqlite::Connection::open(data.join("archive.sqlite")).unwrap();
        let mut stmt = c
            .prepare(
                "SELECT o.ordinal, o.start, o.end, v.text, v.caption_id FROM occurrence o
                 JOIN variant v ON v.id = o.variant_id ORDER BY o.ordinal",
            )
            .unwrap();
        stmt.query_map([], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, i64>(1)?,
                r.get::<_, i64>(2)?,
                r.get::<_, String>(3)?,
                r.get::<_, i64>(4)?,
            ))
        })
        .unwrap()
        .collect::<rusqlite::Result<Vec<_>>>()
        .unwrap()
    };
    let got = occurrences(&parts);
    assert_eq!(got.len(), 824);
    assert!(got.iter().enumerate().all(|(i, o)| o.0 == i as i64));
    assert_eq!(got, occurrences(&whole));
    cairn(&parts).arg("check").assert().success();
}
