//! Helpers shared by the integration tests: the real binary, temporary archives, and
//! the shared seed data (skipped with a message outside CI when it is absent).
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Output;

use assert_cmd::Command;

pub mod py;

/// The `cairn` binary built by cargo for these tests.
pub fn cairn(data: &Path) -> Command {
    let mut c = Command::cargo_bin("cairn").expect("cairn binary");
    c.arg("--data").arg(data).env_remove("CAIRN_DATA");
    c
}

/// The `../shared` directory beside the repository, or `None` (with a message) when it
/// is absent outside CI. Under `CI=true` its absence fails the test.
pub fn shared() -> Option<PathBuf> {
    let dir = std::env::var_os("CAIRN_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared"));
    if dir.join("seeds").is_dir() {
        return Some(dir);
    }
    if std::env::var("CI").as_deref() == Ok("true") {
        panic!(
            "shared data not found at {} (set CAIRN_SHARED)",
            dir.display()
        );
    }
    eprintln!("skipping: shared data not found at {}", dir.display());
    None
}

/// Runs and parses stdout as JSON, asserting success.
pub fn json(cmd: &mut Command) -> serde_json::Value {
    let out = cmd.output().expect("run cairn");
    assert!(
        out.status.success(),
        "cairn failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON on stdout")
}

/// `stats --json` of an archive.
pub fn stats(data: &Path) -> serde_json::Value {
    json(cairn(data).args(["stats", "--json"]))
}

/// stderr as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A new archive holding the three seed pages (the temporary directory lives as long as
/// the value).
pub fn seeded_archive(shared: &Path) -> tempfile::TempDir {
    let d = tempfile::tempdir().expect("temporary directory");
    cairn(d.path())
        .arg("ingest")
        .arg(shared.join("seeds"))
        .assert()
        .success();
    d
}

/// The peak resident memory of a child process, from the kernel's high-water mark
/// (`VmHWM`), read until it exits (the mark only grows, so the last reading is the
/// peak but for the run's last moments).
pub fn run_measuring(cmd: &mut std::process::Command) -> (std::process::Output, u64) {
    let child = cmd
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let status = format!("/proc/{}/status", child.id());
    let peak = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let watcher = {
        let (peak, stop) = (peak.clone(), stop.clone());
        std::thread::spawn(move || {
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let hwm = std::fs::read_to_string(&status).ok().and_then(|s| {
                    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
                    line.split_whitespace().nth(1)?.parse::<u64>().ok()
                });
                if let Some(kib) = hwm {
                    peak.fetch_max(kib * 1024, std::sync::atomic::Ordering::Relaxed);
                }
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
        })
    };
    let out = child.wait_with_output().unwrap();
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    watcher.join().unwrap();
    (out, peak.load(std::sync::atomic::Ordering::Relaxed))
}
