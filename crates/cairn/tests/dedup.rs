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
        .map(str::to_string)
        .collect();
    lines.sort();
    lines
}

/// A labelled near-duplicate corpus of 300 photographs: one text file of 824 captions.
fn near_dup_file(work: &std::path::Path) -> std::path::PathBuf {
    let corpus = work.join("nd");
    cairn(work)
        .args(["generate", "--near-dup", "--photos", "300"])
        .arg(&corpus)
        .assert()
        .success();
    corpus.join("captions.txt")
}

/// Batches (transactions) an archive has committed.
fn batches(data: &std::path::Path) -> i64 {
    let c = rusqlite::Connection::open(data.join("archive.sqlite")).unwrap();
    c.query_row("SELECT count(*) FROM batch", [], |r| r.get(0))
        .unwrap()
}

/// `cairn ingest --json --part-captions PART paths` into `data`: its report.
fn ingest_parts(data: &std::path::Path, part: &str, paths: &std::path::Path) -> serde_json::Value {
    json(
        cairn(data)
            .args(["ingest", "--json", "--part-captions", part])
            .arg(paths),
    )
}

#[test]
fn a_long_file_stored_in_parts_is_the_archive_of_it_stored_whole() {
    let work = tempfile::tempdir().unwrap();
    let file = near_dup_file(work.path());
    let (whole, parts) = (work.path().join("whole"), work.path().join("parts"));
    let whole_report = ingest_parts(&whole, "100000", &file);
    // 824 captions: 16 parts of 50 and one of 24, in one transaction.
    let parts_report = ingest_parts(&parts, "50", &file);
    assert_eq!(parts_report, whole_report);
    assert_eq!(parts_report["occurrences_added"], 824);
    assert!(parts_report["variants_joined"].as_u64().unwrap() > 100);
    assert_eq!(stats(&parts), stats(&whole));
    assert_eq!(export_lines(&parts), export_lines(&whole));
    // One batch: the source is in one transaction.
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

#[test]
fn a_batch_of_many_captions_is_cut_into_batches_of_a_part() {
    let work = tempfile::tempdir().unwrap();
    let file = near_dup_file(work.path());
    // The 824 captions as 28 files of 30 (the last of 14).
    let dir = work.path().join("split");
    std::fs::create_dir(&dir).unwrap();
    let text = std::fs::read_to_string(&file).unwrap();
    let captions: Vec<&str> = text
        .split("\n\n")
        .filter(|c| !c.trim().is_empty())
        .collect();
    assert_eq!(captions.len(), 824);
    for (i, chunk) in captions.chunks(30).enumerate() {
        std::fs::write(dir.join(format!("{i:02}.txt")), chunk.join("\n\n")).unwrap();
    }
    let (one, cut) = (work.path().join("one"), work.path().join("cut"));
    let one_report = ingest_parts(&one, "100000", &dir);
    // Two files of 30 would pass 50 captions: each is a batch of its own, but the last
    // one (14) joins the one before it.
    let cut_report = ingest_parts(&cut, "50", &dir);
    assert_eq!(cut_report, one_report);
    assert_eq!(cut_report["sources_added"], 28);
    assert_eq!((batches(&one), batches(&cut)), (1, 27));
    assert_eq!(export_lines(&cut), export_lines(&one));
}
