//! Killing `cairn ingest` part-way leaves an archive that opens, checks clean, holds
//! whole batches only, and a re-run reaches the numbers of an uninterrupted run.

mod common;

use std::time::{Duration, Instant};

use common::{cairn, stats, stderr};

fn counts(v: &serde_json::Value) -> (u64, u64, u64) {
    (
        v["sources"].as_u64().unwrap(),
        v["occurrences"].as_u64().unwrap(),
        v["captions"].as_u64().unwrap(),
    )
}

#[test]
fn sigkill_mid_ingest_then_rerun_reaches_the_uninterrupted_numbers() {
    let work = tempfile::tempdir().unwrap();
    let corpus = work.path().join("corpus");
    cairn(work.path())
        .args(["generate", "--pages", "1500", "--seed", "11"])
        .arg(&corpus)
        .assert()
        .success();

    let reference = work.path().join("reference");
    cairn(&reference)
        .arg("ingest")
        .arg(&corpus)
        .assert()
        .success();
    let want = counts(&stats(&reference));

    let mut killed_mid_run = 0;
    for round in 0..3u64 {
        let d = work.path().join(format!("killed-{round}"));
        let bin = assert_cmd::cargo::cargo_bin("cairn");
        let mut child = std::process::Command::new(bin)
            .arg("--data")
            .arg(&d)
            .args(["ingest", "--batch-sources", "20"])
            .arg(&corpus)
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        // Wait until some batches are committed, then kill at a round-dependent moment.
        let start = Instant::now();
        let db = d.join("archive.sqlite");
        while !db.exists() && start.elapsed() < Duration::from_secs(30) {
            std::thread::sleep(Duration::from_millis(5));
        }
        std::thread::sleep(Duration::from_millis(150 + 120 * round));
        child.kill().unwrap(); // SIGKILL on Unix
        let status = child.wait().unwrap();
        if status.success() {
            continue; // finished before the kill: nothing to learn this round
        }
        killed_mid_run += 1;
        // The archive opens and checks clean (check may find the index behind: repair it
        // the way a writer would, by opening it).
        let partial = stats(&d);
        let (s, o, c) = counts(&partial);
        assert!(
            s <= want.0 && o <= want.1 && c <= want.2,
            "more than a full run: {partial}"
        );
        // Whole batches only: every stored source has all its captions.
        let check = cairn(&d).arg("check").output().unwrap();
        let msg = stderr(&check);
        assert!(
            check.status.success() || msg.contains("search index out of step"),
            "{msg}"
        );
        // Re-run completes to the uninterrupted numbers.
        cairn(&d).arg("ingest").arg(&corpus).assert().success();
        assert_eq!(counts(&stats(&d)), want);
        let check = cairn(&d).arg("check").output().unwrap();
        assert!(check.status.success(), "{}", stderr(&check));
    }
    assert!(
        killed_mid_run > 0,
        "no run was killed before it finished; make the corpus larger"
    );
}
