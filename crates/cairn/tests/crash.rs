//! Killing `cairn ingest` part-way leaves an archive that opens, checks clean, holds
//! whole batches only (and whole sources: one long file is written in parts), and a re-run reaches the numbers of an uninterrupted run; 50
//! kills at moments spread over a whole run, every other one of a bulk write. Readers keep
//! answering during an ingest (a bulk one, its indexes dropped).

mod common;

use std::time::Instant;

use common::{cairn, stats, stderr};

/// Runs killed mid-ingest; the README's reliability figure.
const RUNS: u64 = 50;

fn counts(v: &serde_json::Value) -> (u64, u64, u64) {
    (
        v["sources"].as_u64().unwrap(),
        v["occurrences"].as_u64().unwrap(),
        v["captions"].as_u64().unwrap(),
    )
}

/// An ingest of `corpus`; `bulk` makes it a bulk write (indexes dropped, built at the
/// end), which an input this small is not by default.
fn spawn_ingest(
    data: &std::path::Path,
    corpus: &std::path::Path,
    bulk: bool,
) -> std::process::Child {
    let bulk_min = if bulk { "0" } else { "16" };
    std::process::Command::new(assert_cmd::cargo::cargo_bin("cairn"))
        .arg("--data")
        .arg(data)
        .args([
            "ingest",
            "--batch-sources",
            "16",
            "--bulk-min-mib",
            bulk_min,
            "--part-captions",
            "64",
        ])
        .arg(corpus)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap()
}

/// A small deterministic generator (xorshift) for the kill moments.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

#[test]
fn fifty_sigkills_mid_ingest_then_reruns_reach_the_uninterrupted_numbers() {
    let work = tempfile::tempdir().unwrap();
    let corpus = work.path().join("corpus");
    cairn(work.path())
        .args(["generate", "--pages", "600", "--seed", "11"])
        .arg(&corpus)
        .assert()
        .success();
    // And one long text file (824 captions), stored 64 captions at a time in one
    // transaction: a kill in the middle of it leaves none of it.
    let long = work.path().join("long");
    cairn(work.path())
        .args(["generate", "--near-dup", "--photos", "300"])
        .arg(&long)
        .assert()
        .success();
    std::fs::rename(long.join("captions.txt"), corpus.join("long.txt")).unwrap();

    // An uninterrupted run: the numbers to reach, and how long a run takes.
    let reference = work.path().join("reference");
    let t = Instant::now();
    let mut child = spawn_ingest(&reference, &corpus, false);
    assert!(child.wait().unwrap().success());
    let full = t.elapsed();
    let want = counts(&stats(&reference));

    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut killed, mut finished_first) = (0, 0);
    let mut round = 0;
    while killed < RUNS && round < RUNS * 3 {
        round += 1;
        let d = work.path().join(format!("killed-{round}"));
        // Every other run is a bulk write: killed with its indexes dropped.
        let mut child = spawn_ingest(&d, &corpus, round % 2 == 0);
        // A moment anywhere from the start to the end of a typical run.
        let at = full.mul_f64(0.02 + 0.88 * rng.next());
        std::thread::sleep(at);
        child.kill().unwrap(); // SIGKILL on Unix
        if child.wait().unwrap().success() {
            finished_first += 1;
            continue;
        }
        killed += 1;
        if !d.join("archive.sqlite").exists() {
            // Killed before it created anything: nothing to check but the re-run.
            cairn(&d).arg("ingest").arg(&corpus).assert().success();
            assert_eq!(counts(&stats(&d)), want, "round {round}");
            continue;
        }
        // The archive opens; it holds at most a full run; every batch committed is whole
        // (check verifies spans, hashes and that each source has its occurrences).
        let partial = stats(&d);
        let (s, o, c) = counts(&partial);
        assert!(
            s <= want.0 && o <= want.1 && c <= want.2,
            "round {round}: more than a full run: {partial}"
        );
        let check = cairn(&d).arg("check").output().unwrap();
        let msg = stderr(&check);
        // An index behind the database is reported, not a failure.
        assert!(
            check.status.success(),
            "round {round} (killed at {at:?}): {msg}"
        );
        // The re-run completes to exactly the uninterrupted numbers, nothing committed
        // earlier is lost (the counts only grow), and the archive checks clean.
        cairn(&d).arg("ingest").arg(&corpus).assert().success();
        let after = counts(&stats(&d));
        assert_eq!(after, want, "round {round}");
        assert!(after.0 >= s && after.1 >= o && after.2 >= c);
        let check = cairn(&d).arg("check").output().unwrap();
        assert!(check.status.success(), "round {round}: {}", stderr(&check));
        std::fs::remove_dir_all(&d).unwrap();
    }
    println!(
        "crash harness: {killed} runs killed mid-ingest, all recovered ({finished_first} more finished before their kill)"
    );
    assert_eq!(killed, RUNS, "too few runs were killed before finishing");
}

#[test]
fn readers_keep_answering_during_an_ingest() {
    let work = tempfile::tempdir().unwrap();
    let corpus = work.path().join("corpus");
    cairn(work.path())
        .args(["generate", "--pages", "1500", "--seed", "5"])
        .arg(&corpus)
        .assert()
        .success();
    let d = work.path().join("a");
    // A first batch, so readers have an archive to open.
    cairn(&d)
        .arg("ingest")
        .arg(corpus.join("00000"))
        .assert()
        .success();
    let mut child = spawn_ingest(&d, &corpus, true);
    let mut answers = 0;
    let mut last = 0;
    while child.try_wait().unwrap().is_none() {
        let out = cairn(&d)
            .args(["search", "", "--json", "--limit", "1"])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "a reader failed during ingest: {}",
            stderr(&out)
        );
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let total = v["total"].as_u64().unwrap();
        assert!(total >= last, "the total went back from {last} to {total}");
        last = total;
        answers += 1;
    }
    assert!(answers >= 2, "the ingest ended before readers could ask");
    println!("{answers} searches answered during the ingest");
}
