//! One source must never stop an ingest: a page that once aborted the process among a
//! thousand good ones, pages in legacy encodings, and odd files (a FIFO, links, names
//! that are not UTF-8 or hold a newline and an escape sequence), through the real binary.

mod common;

use std::path::Path;
use std::time::{Duration, Instant};

use common::{cairn, json, stats, stderr};

/// A gallery page with one caption of its own.
fn page(i: usize) -> String {
    format!(
        "<html><body><figure><img src=\"{i}.jpg\"><figcaption>Workers repair road number {i} \
         in Mosul, Iraq, on March {d}, 2017. (Photo by Ana Ruiz/AFP)</figcaption></figure>\
         </body></html>",
        d = i % 28 + 1
    )
}

/// The page that overflowed the tokenizer's stack: one tag of 8,000 quoted attributes.
fn poison() -> String {
    let mut s = String::from("<html><body><p");
    for i in 0..8000 {
        s.push_str(&format!(" a{i}=\"v\""));
    }
    s.push_str("><figcaption>Never read.</figcaption></p></body></html>");
    s
}

#[test]
fn a_poison_page_among_a_thousand_is_named_skipped_and_remembered() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path().join("pages");
    std::fs::create_dir_all(&dir).unwrap();
    for i in 0..999 {
        std::fs::write(dir.join(format!("p{i:04}.html")), page(i)).unwrap();
    }
    std::fs::write(dir.join("p0500-poison.html"), poison()).unwrap();
    let data = d.path().join("archive");

    let out = cairn(&data).arg("ingest").arg(&dir).output().unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(
        err.lines()
            .any(|l| l.starts_with("error:") && l.contains("p0500-poison.html")),
        "{err}"
    );
    assert!(err.contains("attributes"), "{err}");
    assert_eq!(stats(&data)["sources"], 999);

    // A re-run skips it with a warning saying why, and stores nothing twice.
    let again = cairn(&data).arg("ingest").arg(&dir).output().unwrap();
    let err = stderr(&again);
    assert_eq!(again.status.code(), Some(0), "{err}");
    assert!(!err.contains("error:"), "{err}");
    assert!(
        err.contains("p0500-poison.html") && err.contains("rejected by an earlier run"),
        "{err}"
    );
    assert_eq!(stats(&data)["sources"], 999);

    // Asked to retry, it is read again, and rejected again.
    let retry = cairn(&data)
        .args(["ingest", "--retry-rejected"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(retry.status.code(), Some(3), "{}", stderr(&retry));
    let check = cairn(&data).arg("check").output().unwrap();
    assert!(check.status.success(), "{}", stderr(&check));
}

#[test]
fn legacy_encodings_are_decoded_and_searchable() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path().join("pages");
    std::fs::create_dir_all(&dir).unwrap();
    let declared = b"<html><head><meta charset=\"windows-1252\"></head><body><figcaption>\
        Jos\xe9 Mu\xf1oz walks past a flooded street in Valencia, Spain, on October 30, 2024. \
        (Photo by Ana Ruiz/AFP)</figcaption></body></html>";
    std::fs::write(dir.join("declared.html"), declared).unwrap();
    // No declaration at all: the bytes are not UTF-8, and look like Latin-1.
    let undeclared = b"Des b\xe9n\xe9voles distribuent de l'eau \xe0 Tarn\xf3w, en Pologne, \
        le 3 ao\xfbt 2023, apr\xe8s les orages de la nuit. (Photo de Ewa Kowalczyk/AFP)\n";
    std::fs::write(dir.join("undeclared.txt"), undeclared).unwrap();
    let data = d.path().join("archive");
    let out = cairn(&data).arg("ingest").arg(&dir).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));

    let r = json(cairn(&data).args(["search", "Muñoz", "--json"]));
    assert_eq!(r["total"], 1, "{r}");
    let r = json(cairn(&data).args(["search", "bénévoles", "--json"]));
    assert_eq!(r["total"], 1, "{r}");
    // The original bytes are kept as they were.
    let check = cairn(&data).arg("check").output().unwrap();
    assert!(check.status.success(), "{}", stderr(&check));
    let r = json(cairn(&data).args(["search", "Muñoz", "--json"]));
    let sha = r["hits"][0]["sources"][0]["sha256"].as_str().unwrap();
    assert_eq!(sha, cairn_ingest::sha256_hex(declared));
}

/// Runs `cmd` with a time limit: a FIFO with no writer must not make it wait forever.
fn output_within(cmd: &mut assert_cmd::Command, limit: Duration) -> std::process::Output {
    cmd.timeout(limit);
    let t = Instant::now();
    let out = cmd.output().unwrap();
    assert!(t.elapsed() < limit, "still running after {limit:?}");
    out
}

fn mkfifo(p: &Path) {
    let ok = std::process::Command::new("mkfifo")
        .arg(p)
        .status()
        .unwrap()
        .success();
    assert!(ok, "mkfifo {}", p.display());
}

#[test]
fn fifos_links_and_odd_names_are_reported_safely() {
    use std::os::unix::ffi::OsStrExt;
    let d = tempfile::tempdir().unwrap();
    let dir = d.path().join("in");
    std::fs::create_dir_all(&dir).unwrap();
    let caption = |n: u32| {
        format!(
            "Children play in a park in Gdansk, Poland, on May {n}, 2022. (Photo by Ewa Nowak/AFP)\n"
        )
    };
    std::fs::write(dir.join("good.txt"), caption(1)).unwrap();
    mkfifo(&dir.join("pipe"));
    let outside = d.path().join("outside.txt");
    std::fs::write(&outside, caption(2)).unwrap();
    std::os::unix::fs::symlink(&outside, dir.join("link.txt")).unwrap();
    let bad_name = std::ffi::OsStr::from_bytes(b"bad\xff\xfeutf8.txt");
    std::fs::write(dir.join(bad_name), caption(3)).unwrap();
    let forged = "x\nerror: forged\u{1b}[2K.bin";
    std::fs::write(dir.join(forged), [0u8, 1, 2, 3, 0, 0, 7].repeat(50)).unwrap();
    let data = d.path().join("archive");

    let out = output_within(
        cairn(&data)
            .arg("ingest")
            .arg(&dir)
            .arg(d.path().join("in/pipe")),
        Duration::from_secs(60),
    );
    let err = stderr(&out);
    // The junk file is refused, the rest stored: partial success.
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(err.contains("pipe") && err.contains("FIFO"), "{err}");
    assert!(
        err.contains("link.txt") && err.contains("--follow"),
        "{err}"
    );
    // The escape sequence and the newline are escaped: no forged line, no raw ESC.
    assert!(!err.contains('\u{1b}'), "{err:?}");
    assert!(
        !err.lines().any(|l| l.starts_with("error: forged")),
        "{err}"
    );
    assert!(err.contains("\\nerror: forged\\u{1b}[2K.bin"), "{err}");
    assert_eq!(stats(&data)["sources"], 2, "{err}");

    // The name that is not UTF-8 is kept in the URI, byte for byte.
    let r = json(cairn(&data).args(["search", "May 3", "--json"]));
    let uri = r["hits"][0]["sources"][0]["uri"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(uri.ends_with("/bad%FF%FEutf8.txt"), "{uri}");

    // With --follow the link is read.
    let out = output_within(
        cairn(&data).args(["ingest", "--follow"]).arg(&dir),
        Duration::from_secs(60),
    );
    assert!(!stderr(&out).contains("link.txt"), "{}", stderr(&out));
    assert_eq!(stats(&data)["sources"], 3, "{}", stderr(&out));
}

/// A page of `n` nested elements, each opened with a few words, closed at the end (the
/// shape whose tree once cost the HTML parser time growing with the square of `n`).
fn nested_page(n: usize) -> String {
    let mut s = String::from("<html><body><figcaption>");
    for i in 0..n {
        s.push_str(if i % 2 == 0 {
            "<div class=wide>some words "
        } else {
            "<span>more words here "
        });
    }
    s.push_str("Smoke rises over the port after the strike.</figcaption></body></html>");
    s
}

/// A folder of twenty good pages and `extra`, ingested; the run's output and how long it
/// took.
fn ingest_folder_with(
    d: &Path,
    extra: (&str, &[u8]),
    args: &[&str],
) -> (std::process::Output, Duration) {
    let dir = d.join("pages");
    std::fs::create_dir_all(&dir).unwrap();
    for i in 0..20 {
        std::fs::write(dir.join(format!("p{i:02}.html")), page(i)).unwrap();
    }
    std::fs::write(dir.join(extra.0), extra.1).unwrap();
    let t = Instant::now();
    let out = cairn(&d.join("archive"))
        .arg("ingest")
        .args(args)
        .arg(&dir)
        .output()
        .unwrap();
    (out, t.elapsed())
}

#[test]
fn a_four_megabyte_nested_page_is_refused_at_once_and_the_folder_ingests() {
    let d = tempfile::tempdir().unwrap();
    // Under the bound of elements a page may have, so that only its nesting refuses it.
    let deep = nested_page(190_000);
    assert!(deep.len() > 4_000_000);
    let (out, took) = ingest_folder_with(d.path(), ("deep.html", deep.as_bytes()), &[]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(
        err.lines()
            .any(|l| l.contains("deep.html") && l.contains("nested")),
        "{err}"
    );
    // Far inside the time a source is given, which the parser alone would have passed
    // many times over.
    assert!(took < Duration::from_secs(25), "{took:?}");
    let data = d.path().join("archive");
    assert_eq!(stats(&data)["sources"], 20);
    let again = cairn(&data)
        .arg("ingest")
        .arg(d.path().join("pages"))
        .output()
        .unwrap();
    let err = stderr(&again);
    assert_eq!(again.status.code(), Some(0), "{err}");
    assert!(
        err.contains("deep.html") && err.contains("rejected by an earlier run"),
        "{err}"
    );
}

#[test]
fn a_page_over_its_time_is_rejected_remembered_and_the_folder_ingests() {
    let d = tempfile::tempdir().unwrap();
    // Under the bounds of nesting, but far more than a twentieth of a second of the
    // parser's work.
    let deep = nested_page(9_000);
    let args = ["--source-seconds", "0.05"];
    let (out, _) = ingest_folder_with(d.path(), ("slow.html", deep.as_bytes()), &args);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(
        err.lines()
            .any(|l| l.contains("slow.html") && l.contains("took longer than the 50ms")),
        "{err}"
    );
    let data = d.path().join("archive");
    assert_eq!(stats(&data)["sources"], 20);
    let again = cairn(&data)
        .arg("ingest")
        .args(args)
        .arg(d.path().join("pages"))
        .output();
    let err = stderr(&again.unwrap());
    assert!(
        err.contains("slow.html") && err.contains("rejected by an earlier run"),
        "{err}"
    );
    // Given its time, the page is read.
    let (out, _) = ingest_folder_with(
        d.path(),
        ("slow.html", deep.as_bytes()),
        &["--retry-rejected"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stats(&data)["sources"], 21);
}

/// A zstd frame of `size` bytes of page text, a few kilobytes on disk.
fn bomb(size: usize) -> Vec<u8> {
    let mut z = zstd::stream::write::Encoder::new(Vec::new(), 3).unwrap();
    let block = "<p>Smoke rises over the port of Odesa, Ukraine.</p>\n".repeat(16_384);
    let mut written = 0;
    while written < size {
        std::io::Write::write_all(&mut z, block.as_bytes()).unwrap();
        written += block.len();
    }
    z.finish().unwrap()
}

#[test]
fn a_bomb_is_remembered_and_not_decompressed_again() {
    let d = tempfile::tempdir().unwrap();
    let over = cairn_ingest::MAX_SOURCE_BYTES as usize + (1 << 20);
    let (out, _) = ingest_folder_with(d.path(), ("bomb.html.zst", &bomb(over)), &[]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(
        err.contains("bomb.html.zst") && err.contains("over the limit"),
        "{err}"
    );
    let data = d.path().join("archive");
    let again = cairn(&data)
        .arg("ingest")
        .arg(d.path().join("pages"))
        .output()
        .unwrap();
    let err = stderr(&again);
    assert_eq!(again.status.code(), Some(0), "{err}");
    assert!(
        err.contains("bomb.html.zst") && err.contains("rejected by an earlier run"),
        "{err}"
    );
    assert_eq!(stats(&data)["sources"], 20);
}
