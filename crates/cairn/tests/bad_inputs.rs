//! Hostile and broken inputs through `cairn ingest` and `cairn extract`: each gets a
//! message naming the file and the problem, an exit code that tells success (0),
//! partial success (3) or failure (1), bounded time, and an archive left unchanged or
//! consistently extended (`cairn check` passes after each).

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::{cairn, stats, stderr};

struct Case {
    name: &'static str,
    file: PathBuf,
    /// Exit code of `cairn ingest FILE`.
    ingest_code: i32,
    /// Exit code of `cairn extract FILE`.
    extract_code: i32,
    /// What stderr must say (besides the file name).
    says: &'static str,
    /// Captions the archive gains.
    gains: u64,
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

fn gz(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

#[test]
fn bad_inputs_get_clear_errors_and_leave_the_archive_consistent() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path().join("inputs");
    std::fs::create_dir_all(&dir).unwrap();
    let caption = "A man walks in Homs, Syria, on May 1, 2015. REUTERS/Jane Roe";

    let utf16: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain(caption.encode_utf16().flat_map(|u| u.to_le_bytes()))
        .collect();
    let mut deep = String::from("<html><body>");
    for _ in 0..10_000 {
        deep.push_str("<div>");
    }
    deep.push_str("<figcaption>Smoke rises over Aleppo, Syria, on November 20, 2016. (Photo by Karam Al-Masri/AFP)</figcaption>");
    let truncated_gz = {
        let full = gz(format!("{caption}\n").repeat(200).as_bytes());
        full[..full.len() / 2].to_vec()
    };
    let lying_warc = {
        let http = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nFighters rest in Jobar, Damascus, Syria, on March 14, 2016. (Photo by Amer Almohibany/AFP)\n";
        let good = format!(
            "WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: https://a.example/1\r\nContent-Length: {}\r\n\r\n{http}\r\n\r\n",
            http.len()
        );
        let lie = format!(
            "WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: https://a.example/2\r\nContent-Length: {}\r\n\r\n{http}\r\n\r\n",
            http.len() + 5000
        );
        format!("{good}{lie}{good}").replace(
            "a.example/1\r\nContent-Length",
            "a.example/1\r\nContent-Length",
        )
    };
    // A JPEG whose Photoshop/IPTC block claims more bytes than it has.
    let corrupt_iptc = {
        let mut j = vec![0xFF, 0xD8];
        let mut app13 = b"Photoshop 3.0\08BIM\x04\x04\0\0\0\0\x00\x40".to_vec();
        app13.extend_from_slice(&[0x1c, 2, 120, 0x7f, 0xff]);
        app13.extend_from_slice(b"short");
        j.extend_from_slice(&[0xFF, 0xED]);
        j.extend_from_slice(&((app13.len() + 2) as u16).to_be_bytes());
        j.extend_from_slice(&app13);
        j.extend_from_slice(&[0xFF, 0xDA, 0x00, 0x02, 0x00, 0xFF, 0xD9]);
        j
    };
    // 100 MB on one line: refused as a caption, quickly.
    let long_line = dir.join("long-line.txt");
    {
        let mut f = std::io::BufWriter::new(std::fs::File::create(&long_line).unwrap());
        let chunk = "word ".repeat(20_000);
        for _ in 0..1000 {
            f.write_all(chunk.as_bytes()).unwrap();
        }
        f.write_all(b"\n\n").unwrap();
        f.write_all(caption.as_bytes()).unwrap();
        f.flush().unwrap();
    }
    // 1 GB of repeated captions: over the per-source limit, refused before reading.
    let huge = dir.join("huge.txt");
    {
        let mut f =
            std::io::BufWriter::with_capacity(1 << 20, std::fs::File::create(&huge).unwrap());
        let block = format!("{caption}\n\n").repeat(16_000);
        let mut written = 0u64;
        while written < 1_000_000_000 {
            f.write_all(block.as_bytes()).unwrap();
            written += block.len() as u64;
        }
        f.flush().unwrap();
    }

    let cases = vec![
        Case {
            name: "empty file",
            file: write(&dir, "empty.txt", b""),
            ingest_code: 1,
            extract_code: 1,
            says: "empty",
            gains: 0,
        },
        Case {
            name: "binary junk",
            file: write(
                &dir,
                "junk.bin",
                &[0u8, 1, 2, 3, 0, 0, 7, 8, 0, 255, 0, 3].repeat(100),
            ),
            ingest_code: 1,
            extract_code: 1,
            says: "not a text page",
            gains: 0,
        },
        Case {
            name: "invalid UTF-8",
            file: write(
                &dir,
                "latin1.txt",
                b"A man walks in Homs, Syria, on May 2, 2015. Caf\xe9 REUTERS/Jane Roe\n",
            ),
            ingest_code: 0,
            extract_code: 0,
            says: "invalid UTF-8",
            gains: 1,
        },
        Case {
            name: "UTF-16 with BOM",
            file: write(&dir, "utf16.txt", &utf16),
            ingest_code: 0,
            extract_code: 0,
            says: "",
            gains: 1,
        },
        Case {
            name: "100 MB single line",
            file: long_line,
            ingest_code: 0,
            extract_code: 0,
            says: "too long to be a caption",
            gains: 0,
        },
        Case {
            name: "10,000-deep nested HTML",
            file: write(&dir, "deep.html", deep.as_bytes()),
            ingest_code: 0,
            extract_code: 0,
            says: "",
            gains: 1,
        },
        Case {
            name: "truncated gzip",
            file: write(&dir, "cut.txt.gz", &truncated_gz),
            ingest_code: 1,
            extract_code: 1,
            says: "cannot read",
            gains: 0,
        },
        Case {
            name: "WARC with a lying Content-Length",
            file: write(&dir, "lying.warc", lying_warc.as_bytes()),
            ingest_code: 3,
            extract_code: 3,
            says: "Content-Length",
            gains: 1,
        },
        Case {
            name: "JPEG with a corrupt IPTC block",
            file: write(&dir, "corrupt.jpg", &corrupt_iptc),
            ingest_code: 1,
            extract_code: 1,
            says: "no IPTC or XMP caption",
            gains: 0,
        },
        Case {
            name: "1 GB file of repeated captions",
            file: huge,
            ingest_code: 1,
            extract_code: 1,
            says: "over the limit",
            gains: 0,
        },
    ];

    let data = d.path().join("archive");
    cairn(&data)
        .args(["ingest", "-"])
        .write_stdin(
            "Children play in Idlib, Syria, on January 9, 2017. (Photo by Omar Haj Kadour/AFP)\n",
        )
        .assert()
        .success();
    let mut passed = 0;
    for c in &cases {
        let before = stats(&data)["captions"].as_u64().unwrap();
        let file_name = c.file.file_name().unwrap().to_string_lossy().into_owned();
        let t = Instant::now();
        let out = cairn(&data).arg("ingest").arg(&c.file).output().unwrap();
        let took = t.elapsed();
        let err = stderr(&out);
        assert_eq!(
            out.status.code(),
            Some(c.ingest_code),
            "{}: ingest: {err}",
            c.name
        );
        if c.ingest_code != 0 || !c.says.is_empty() {
            assert!(
                err.contains(&file_name) || err.contains("https://a.example"),
                "{}: the message names the file: {err}",
                c.name
            );
        }
        assert!(err.contains(c.says), "{}: {err}", c.name);
        assert!(took < Duration::from_secs(60), "{}: took {took:?}", c.name);
        let after = stats(&data)["captions"].as_u64().unwrap();
        assert_eq!(after, before + c.gains, "{}: captions", c.name);
        let check = cairn(&data).arg("check").output().unwrap();
        assert!(
            check.status.success(),
            "{}: check: {}",
            c.name,
            stderr(&check)
        );

        let out = cairn(&data).arg("extract").arg(&c.file).output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(c.extract_code),
            "{}: extract: {}",
            c.name,
            stderr(&out)
        );
        passed += 1;
    }
    println!("bad inputs: {passed} of {} passed", cases.len());
}
