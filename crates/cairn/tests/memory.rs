//! A run's memory is bounded whatever its inputs: a hostile corpus (a page of nested
//! unclosed tables, a JSON Lines line of tens of megabytes, several zstd bombs in one
//! folder) is ingested by the real binary with its peak resident memory under the
//! stated budget, each source over a bound named with the bound it passed.

mod common;

use common::run_measuring;

use std::io::Write;
use std::path::Path;

/// The budget the README states for a run's peak resident memory.
const BUDGET_BYTES: u64 = 1 << 30;

/// A zstd frame of `size` bytes of caption text (a few kilobytes on disk).
fn bomb(path: &Path, size: usize) {
    let f = std::fs::File::create(path).unwrap();
    let mut z = zstd::stream::write::Encoder::new(f, 3).unwrap();
    let block = "Smoke rises over the port of Odesa, Ukraine, on July 21, 2023.\n\n".repeat(16_384);
    let mut written = 0;
    while written < size {
        z.write_all(block.as_bytes()).unwrap();
        written += block.len();
    }
    z.finish().unwrap();
}

#[test]
fn a_hostile_corpus_stays_under_the_memory_budget() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path().join("hostile");
    std::fs::create_dir_all(dir.join("bombs")).unwrap();
    // Nested unclosed tables: over the tree builder's bound of elements.
    let limit = cairn_ingest::html::MAX_TREE_ELEMENTS;
    let tables = format!("<html><body>{}", "<table>".repeat(limit + limit / 2));
    std::fs::write(dir.join("tables.html"), tables).unwrap();
    // A JSON Lines line over the bound, between two good lines.
    {
        let mut f = std::io::BufWriter::new(std::fs::File::create(dir.join("long.jsonl")).unwrap());
        let good = |n: u32| {
            format!(
                "{{\"caption\":\"A ferry leaves the harbour of Split, Croatia, on June {n}, 2021. (Photo by Ivo Horvat/AFP)\"}}\n"
            )
        };
        f.write_all(good(1).as_bytes()).unwrap();
        f.write_all(b"{\"caption\":\"").unwrap();
        let chunk = "word ".repeat(1 << 16);
        let over = cairn_ingest::MAX_LINE_BYTES as usize * 5 / 2;
        let mut n = 0;
        while n < over {
            f.write_all(chunk.as_bytes()).unwrap();
            n += chunk.len();
        }
        f.write_all(b"\"}\n").unwrap();
        f.write_all(good(2).as_bytes()).unwrap();
    }
    // Bombs in one folder, each decompressing to more than a source may hold.
    let over = cairn_ingest::MAX_SOURCE_BYTES as usize + (16 << 20);
    for i in 0..4 {
        bomb(&dir.join(format!("bombs/b{i}.txt.zst")), over);
    }
    let data = d.path().join("archive");
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("cairn"));
    cmd.arg("--data").arg(&data).arg("ingest").arg(&dir);
    let (out, peak) = run_measuring(&mut cmd);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    eprintln!("peak resident memory: {} MiB\n{err}", peak >> 20);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(
        err.contains("tables.html") && err.contains("elements"),
        "{err}"
    );
    assert!(
        err.contains("long.jsonl line 2") && err.contains("bound"),
        "{err}"
    );
    for i in 0..4 {
        assert!(err.contains(&format!("b{i}.txt.zst")), "{err}");
    }
    assert!(err.contains("over the limit"), "{err}");
    assert!(
        peak < BUDGET_BYTES,
        "peak resident memory {} MiB is over the budget of {} MiB",
        peak >> 20,
        BUDGET_BYTES >> 20
    );
    let s = common::stats(&data);
    assert_eq!(s["sources"], 2, "{s}");
}
