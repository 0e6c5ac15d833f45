//! The archive end to end through the real binary: seeds, idempotence, search, show,
//! bad inputs, generate.

mod common;

use common::{cairn, json, seeded_archive, shared, stats, stderr};

#[test]
fn seeds_ingest_to_3_sources_24_occurrences_17_captions_and_again_changes_nothing() {
    let Some(shared) = shared() else { return };
    let d = seeded_archive(&shared);
    let s = stats(d.path());
    assert_eq!(
        (
            s["sources"].as_u64(),
            s["occurrences"].as_u64(),
            s["captions"].as_u64()
        ),
        (Some(3), Some(24), Some(17))
    );
    cairn(d.path())
        .arg("ingest")
        .arg(shared.join("seeds"))
        .assert()
        .success();
    let again = stats(d.path());
    for k in ["sources", "occurrences", "captions", "variants", "blobs"] {
        assert_eq!(s[k], again[k], "{k} changed on re-ingest");
    }
    let check = cairn(d.path()).arg("check").output().unwrap();
    assert!(check.status.success(), "{}", stderr(&check));
}

#[test]
fn harasta_is_one_hit_listing_all_three_pages() {
    let Some(shared) = shared() else { return };
    let d = seeded_archive(&shared);
    let r = json(cairn(d.path()).args(["search", "Harasta", "--json"]));
    assert_eq!(r["total"], 1);
    let hits = r["hits"].as_array().unwrap();
    assert_eq!(hits.len(), 1);
    let uris: Vec<&str> = hits[0]["sources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["uri"].as_str().unwrap())
        .collect();
    assert_eq!(uris.len(), 3);
    for page in [
        "000_9a073c031d9d8403.txt",
        "001_eceae5fe24c004c7.txt",
        "003_2ed9b36a74b38267.txt",
    ] {
        assert!(
            uris.iter().any(|u| u.ends_with(page)),
            "{page} missing from {uris:?}"
        );
    }
    for s in hits[0]["sources"].as_array().unwrap() {
        assert_eq!(s["sha256"].as_str().unwrap().len(), 64);
    }
    // `show` lists the three occurrences with spans that slice to the caption.
    let id = hits[0]["id"].as_i64().unwrap();
    let c = json(cairn(d.path()).args(["show", &id.to_string(), "--json"]));
    let occ = c["variants"][0]["occurrences"].as_array().unwrap();
    assert_eq!(occ.len(), 3);
    for o in occ {
        let uri = o["source"]["uri"].as_str().unwrap();
        let bytes = std::fs::read(uri.strip_prefix("file://").unwrap()).unwrap();
        let (a, b) = (
            o["span"][0].as_u64().unwrap() as usize,
            o["span"][1].as_u64().unwrap() as usize,
        );
        let text = std::str::from_utf8(&bytes[a..b]).unwrap();
        assert!(
            text.starts_with("A picture shows the blood stained floor")
                && text.ends_with("AFP Photo)")
        );
    }
}

#[test]
fn quotes_and_whitespace_variants_are_one_caption_with_two_occurrences() {
    let d = tempfile::tempdir().unwrap();
    let src = tempfile::tempdir().unwrap();
    std::fs::write(
        src.path().join("a.txt"),
        "A “quoted”   caption.\n\nOther caption.\n",
    )
    .unwrap();
    std::fs::write(src.path().join("b.txt"), "A \"quoted\"\ncaption.\n").unwrap();
    cairn(d.path())
        .arg("ingest")
        .arg(src.path())
        .assert()
        .success();
    let s = stats(d.path());
    assert_eq!(
        (
            s["sources"].as_u64(),
            s["occurrences"].as_u64(),
            s["captions"].as_u64()
        ),
        (Some(2), Some(3), Some(2))
    );
}

#[test]
fn stdin_is_a_source() {
    let d = tempfile::tempdir().unwrap();
    cairn(d.path())
        .args(["ingest", "-"])
        .write_stdin("One caption.\n\nTwo caption.\n")
        .assert()
        .success();
    let s = stats(d.path());
    assert_eq!(s["occurrences"], 2);
    let r = json(cairn(d.path()).args(["search", "caption", "--json"]));
    assert_eq!(r["hits"][0]["sources"][0]["uri"], "stdin:");
}

#[test]
fn bad_inputs_are_named_and_leave_the_archive_unchanged() {
    let d = tempfile::tempdir().unwrap();
    let src = tempfile::tempdir().unwrap();
    let good = src.path().join("good.txt");
    std::fs::write(
        &good,
        "A man walks past a wall in Homs, Syria, May 1, 2015.\n",
    )
    .unwrap();
    cairn(d.path()).arg("ingest").arg(&good).assert().success();
    let before = stats(d.path());

    let empty = src.path().join("empty.txt");
    std::fs::write(&empty, b"").unwrap();
    let o = cairn(d.path()).arg("ingest").arg(&empty).output().unwrap();
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("empty.txt") && stderr(&o).contains("empty"),
        "{}",
        stderr(&o)
    );

    let bin = src.path().join("photo.bin");
    std::fs::write(&bin, b"\xFF\xD8\xFF\xE0\x00\x10JFIF\x00\x01\x00\x00junk").unwrap();
    let o = cairn(d.path()).arg("ingest").arg(&bin).output().unwrap();
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("photo.bin") && stderr(&o).contains("JPEG"),
        "{}",
        stderr(&o)
    );
    assert_eq!(
        stats(d.path()),
        before,
        "rejected inputs changed the archive"
    );

    // Invalid UTF-8 is stored with a warning naming the file; earlier data is untouched.
    let bad = src.path().join("latin1.txt");
    std::fs::write(&bad, b"Caf\xe9 in Aleppo, Syria.\n").unwrap();
    let o = cairn(d.path()).arg("ingest").arg(&bad).output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("latin1.txt") && stderr(&o).contains("invalid UTF-8"),
        "{}",
        stderr(&o)
    );
    let after = stats(d.path());
    assert_eq!(after["sources"], before["sources"].as_u64().unwrap() + 1);

    // A mix of good and bad inputs is a partial success (exit 3), and names the bad one.
    let o = cairn(d.path())
        .arg("ingest")
        .arg(&good)
        .arg(&empty)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let missing = src.path().join("missing.txt");
    let o = cairn(d.path())
        .arg("ingest")
        .arg(&missing)
        .output()
        .unwrap();
    assert!(!o.status.success() && stderr(&o).contains("missing.txt"));
    assert!(
        cairn(d.path())
            .arg("check")
            .output()
            .unwrap()
            .status
            .success()
    );
}

#[test]
fn reading_a_missing_archive_is_a_clear_error() {
    let d = tempfile::tempdir().unwrap();
    let o = cairn(&d.path().join("nope"))
        .args(["stats"])
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(stderr(&o).contains("no archive at"), "{}", stderr(&o));
}

#[test]
fn generate_is_deterministic_and_reindex_keeps_search() {
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    cairn(a.path())
        .args(["generate", "--pages", "30", "--seed", "4"])
        .arg(a.path().join("c"))
        .assert()
        .success();
    cairn(b.path())
        .args(["generate", "--pages", "30", "--seed", "4"])
        .arg(b.path().join("c"))
        .assert()
        .success();
    let page = "00000/page-00000017.txt";
    let pa = std::fs::read(a.path().join("c").join(page)).unwrap();
    assert_eq!(pa, std::fs::read(b.path().join("c").join(page)).unwrap());
    let d = a.path().join("archive");
    cairn(&d)
        .arg("ingest")
        .arg(a.path().join("c"))
        .assert()
        .success();
    let s = stats(&d);
    assert_eq!(s["sources"], 30);
    assert!(
        s["captions"].as_u64().unwrap() < s["occurrences"].as_u64().unwrap(),
        "pages share captions"
    );
    let before = json(cairn(&d).args(["search", "Wire", "--json", "--limit", "1"]));
    cairn(&d).arg("reindex").assert().success();
    let after = json(cairn(&d).args(["search", "Wire", "--json", "--limit", "1"]));
    assert_eq!(before["total"], after["total"]);
    assert_eq!(before["total"], s["captions"]);
}
