//! Web archives as crawlers write them, through the real binary: an ARC file (plain and
//! gzip per record), and a WARC holding a `resource` page, a response whose chunked
//! header lies, revisits found and not found, and records that hold no page. Every
//! fixture is written here; no caption is a real one.

mod common;

use std::io::Write;
use std::path::Path;

use common::{cairn, json, stats, stderr};

fn search(d: &Path, q: &str) -> serde_json::Value {
    json(cairn(d).args(["search", q, "--json", "--limit", "50"]))
}

fn gz(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

fn page(caption: &str) -> String {
    format!(
        "<html><body><figure><img src=a.jpg><figcaption>{caption}</figcaption></figure></body></html>"
    )
}

/// An ARC v1 record: header line, block, newline.
fn arc(url: &str, date: &str, ctype: &str, block: &[u8]) -> Vec<u8> {
    let mut r = format!("{url} 192.0.2.20 {date} {ctype} {}\n", block.len()).into_bytes();
    r.extend_from_slice(block);
    r.push(b'\n');
    r
}

fn http(ctype: &str, body: &str) -> Vec<u8> {
    format!("HTTP/1.0 200 OK\r\nContent-Type: {ctype}\r\n\r\n{body}").into_bytes()
}

fn arc_records() -> Vec<Vec<u8>> {
    vec![
        arc(
            "filedesc://harbour-2001.arc",
            "20010305120000",
            "text/plain",
            b"1 0 Sample Wire\nURL IP-address Archive-date Content-type Archive-length\n",
        ),
        arc(
            "http://wire.example/2001/harbour.html",
            "20010305120101",
            "text/html",
            &http(
                "text/html",
                &page(
                    "Fishing boats return to the harbour of Latakia, Syria, on March 4, 2001. (Photo by Nour Kassem/Sample Wire)",
                ),
            ),
        ),
        arc(
            "http://wire.example/2001/boat.gif",
            "20010305120102",
            "image/gif",
            b"HTTP/1.0 200 OK\r\nContent-Type: image/gif\r\n\r\nGIF89a",
        ),
        arc(
            "http://wire.example/2001/market.html",
            "20010305120203",
            "text/html",
            &http(
                "text/html",
                &page(
                    "Traders sell oranges at a market in Tartus, Syria, on March 5, 2001. (Photo by Nour Kassem/Sample Wire)",
                ),
            ),
        ),
    ]
}

/// The stored sources: uri, origin (JSON), warnings (JSON), by id.
fn sources(data: &Path) -> Vec<(String, serde_json::Value, String)> {
    let c = rusqlite::Connection::open(data.join("archive.sqlite")).unwrap();
    let mut st = c
        .prepare("SELECT uri, origin, warnings FROM source ORDER BY id")
        .unwrap();
    st.query_map([], |r| {
        let origin: Option<String> = r.get(1)?;
        Ok((
            r.get::<_, String>(0)?,
            origin
                .and_then(|o| serde_json::from_str(&o).ok())
                .unwrap_or_default(),
            r.get::<_, Option<String>>(2)?.unwrap_or_default(),
        ))
    })
    .unwrap()
    .collect::<rusqlite::Result<_>>()
    .unwrap()
}

#[test]
fn arc_files_give_their_pages_with_urls_and_dates_never_header_lines() {
    let records = arc_records();
    for (name, bytes) in [
        ("harbour.arc", records.concat()),
        (
            "harbour.arc.gz",
            records.iter().flat_map(|r| gz(r)).collect::<Vec<u8>>(),
        ),
    ] {
        let d = tempfile::tempdir().unwrap();
        let path = d.path().join(name);
        std::fs::write(&path, &bytes).unwrap();
        let data = d.path().join("a");
        let out = cairn(&data).arg("ingest").arg(&path).output().unwrap();
        let err = stderr(&out);
        assert!(out.status.success(), "{name}: {err}");
        let s = stats(&data);
        assert_eq!(s["sources"], 2, "{name}: the two pages: {err}");
        assert_eq!(s["captions"], 2, "{name}: no header line is a caption");
        assert_eq!(search(&data, "filedesc")["total"], 0, "{name}");
        assert_eq!(search(&data, "Archive")["total"], 0, "{name}");
        let r = search(&data, "Latakia");
        assert_eq!(r["total"], 1, "{name}");
        assert_eq!(
            r["hits"][0]["sources"][0]["uri"],
            "http://wire.example/2001/harbour.html"
        );
        let src = sources(&data);
        assert_eq!(src[1].0, "http://wire.example/2001/market.html");
        assert_eq!(src[0].1["date"], "2001-03-05T12:01:01Z", "{name}");
        assert_eq!(src[1].1["date"], "2001-03-05T12:02:03Z", "{name}");
        // The version block and the image are named, with their offsets.
        let gif_at: usize = if name.ends_with(".gz") {
            records[..2].iter().map(|r| gz(r).len()).sum()
        } else {
            records[..2].concat().len()
        };
        assert!(
            err.contains(&path.display().to_string())
                && err.contains("filedesc record: 1 (at offset 0)")
                && err.contains(&format!("ARC image/gif: 1 (at offset {gif_at})")),
            "{name}: {err}"
        );
    }
}

fn warc(kind: &str, uri: &str, extra: &str, block: &[u8]) -> Vec<u8> {
    let mut r = format!(
        "WARC/1.1\r\nWARC-Type: {kind}\r\nWARC-Target-URI: {uri}\r\nWARC-Date: 2018-06-01T09:15:00Z\r\n{extra}Content-Length: {}\r\n\r\n",
        block.len()
    )
    .into_bytes();
    r.extend_from_slice(block);
    r.extend_from_slice(b"\r\n\r\n");
    r
}

#[test]
fn warc_resources_lying_chunks_and_revisits_all_accounted_for() {
    let d = tempfile::tempdir().unwrap();
    let revisited = page(
        "Volunteers plant olive trees on a hillside near Afrin, Syria, on May 30, 2018. (Photo by Lina Haddad/Sample Wire)",
    );
    let digest = "WARC-Payload-Digest: sha1:OLIVETREESDIGEST\r\n";
    let parts = [
        warc("warcinfo", "", "", b"software: a crawler of our own\r\n"),
        warc(
            "resource",
            "https://wire.example/2018/bridge.html",
            "Content-Type: text/html\r\n",
            page("Workers repair a bridge over the Orontes in Hama, Syria, on May 29, 2018. (Photo by Lina Haddad/Sample Wire)").as_bytes(),
        ),
        warc(
            "response",
            "https://wire.example/2018/bakery.html",
            "",
            format!(
                "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n{}",
                page("A baker stacks bread at dawn in Idlib, Syria, on May 31, 2018. (Photo by Lina Haddad/Sample Wire)")
            )
            .as_bytes(),
        ),
        warc(
            "response",
            "https://wire.example/2018/olives.html",
            &format!("WARC-Record-ID: <urn:uuid:olives>\r\n{digest}"),
            &http("text/html", &revisited),
        ),
        warc(
            "request",
            "https://wire.example/2018/olives.html",
            "",
            b"GET /2018/olives.html HTTP/1.1\r\n\r\n",
        ),
        warc(
            "revisit",
            "https://wire.example/2018/olives-print.html",
            digest,
            b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n",
        ),
        warc(
            "revisit",
            "https://wire.example/2018/elsewhere.html",
            "WARC-Payload-Digest: sha1:NOTINTHISFILE\r\n",
            b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n",
        ),
    ];
    let at = |i: usize| -> usize { parts[..i].iter().map(Vec::len).sum() };
    let path = d.path().join("wire.warc");
    std::fs::write(&path, parts.concat()).unwrap();
    let data = d.path().join("a");
    let out = cairn(&data).arg("ingest").arg(&path).output().unwrap();
    let err = stderr(&out);
    assert!(out.status.success(), "warnings, no rejection: {err}");
    let file = path.display().to_string();
    let src = sources(&data);
    let uris: Vec<&str> = src.iter().map(|s| s.0.as_str()).collect();
    assert_eq!(
        uris,
        [
            "https://wire.example/2018/bridge.html",
            "https://wire.example/2018/bakery.html",
            "https://wire.example/2018/olives.html",
            "https://wire.example/2018/olives-print.html",
        ],
        "{err}"
    );
    // The resource record is read as a page.
    assert_eq!(search(&data, "Orontes")["total"], 1);
    assert_eq!(src[0].1["record_type"], "resource");
    // The body a chunked header lied about is kept, with a warning naming where.
    assert_eq!(search(&data, "baker")["total"], 1);
    let chunk_warning = format!("{file}, record at offset {}", at(2));
    assert!(
        src[1].2.contains(&chunk_warning) && src[1].2.contains("chunked"),
        "{:?}",
        src[1].2
    );
    assert!(err.contains(&chunk_warning), "{err}");
    // The revisit found in the file is the earlier page at its new address and date.
    let r = search(&data, "olive trees");
    assert_eq!(r["total"], 1, "one caption");
    assert_eq!(r["hits"][0]["occurrences"], 2, "two addresses");
    assert_eq!(src[3].1["revisit_of"], at(3));
    assert_eq!(src[3].1["date"], "2018-06-01T09:15:00Z");
    // The one whose payload is elsewhere, and the records that hold no page, are named.
    assert!(
        err.contains(&format!("{file} (record at offset {})", at(6)))
            && err.contains("sha1:notinthisfile"),
        "{err}"
    );
    assert!(
        err.contains("warcinfo record: 1 (at offset 0)")
            && err.contains(&format!("request record: 1 (at offset {})", at(4))),
        "{err}"
    );
}

/// A crawl split into files: a revisit in the second file whose record is in the first
/// (gzip per record) is the page of that record, whether the files are named one by one
/// or as their folder; alone, the second file names what it cannot find.
#[test]
fn a_revisit_finds_its_record_in_an_earlier_file_of_the_crawl() {
    let d = tempfile::tempdir().unwrap();
    let crawl = d.path().join("crawl");
    std::fs::create_dir(&crawl).unwrap();
    let first = [
        warc("warcinfo", "", "", b"software: a crawler of our own\r\n"),
        warc(
            "response",
            "https://wire.example/2018/ferry.html",
            "WARC-Record-ID: <urn:uuid:ferry-1>\r\nWARC-Payload-Digest: sha1:FERRYDIGEST\r\n",
            &http(
                "text/html",
                &page(
                    "A ferry leaves the port of Tartus, Syria, on June 2, 2018. (Photo by Lina Haddad/Sample Wire)",
                ),
            ),
        ),
    ];
    let first_path = crawl.join("crawl-00000.warc.gz");
    std::fs::write(
        &first_path,
        first.iter().flat_map(|r| gz(r)).collect::<Vec<u8>>(),
    )
    .unwrap();
    let second_path = crawl.join("crawl-00001.warc");
    let second = [
        warc(
            "revisit",
            "https://wire.example/2018/ferry-amp.html",
            "WARC-Refers-To: <urn:uuid:ferry-1>\r\nWARC-Payload-Digest: sha1:FERRYDIGEST\r\n",
            b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n",
        ),
        warc(
            "revisit",
            "https://wire.example/2018/lost.html",
            "WARC-Payload-Digest: sha1:INNOFILE\r\n",
            b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n",
        ),
    ];
    std::fs::write(&second_path, second.concat()).unwrap();
    let first_name = first_path.display().to_string();
    for (run, args) in [
        ("folder", vec![crawl.clone()]),
        ("files", vec![first_path.clone(), second_path.clone()]),
    ] {
        let data = d.path().join(run);
        let out = cairn(&data).arg("ingest").args(&args).output().unwrap();
        let err = stderr(&out);
        assert!(out.status.success(), "{run}: {err}");
        let src = sources(&data);
        let uris: Vec<&str> = src.iter().map(|s| s.0.as_str()).collect();
        assert_eq!(
            uris,
            [
                "https://wire.example/2018/ferry.html",
                "https://wire.example/2018/ferry-amp.html"
            ],
            "{run}: {err}"
        );
        assert_eq!(src[1].1["record_type"], "revisit", "{run}");
        assert_eq!(src[1].1["revisit_in"], first_name.as_str(), "{run}");
        assert_eq!(src[1].1["offset"], 0, "{run}: the revisit's own place");
        let r = search(&data, "ferry");
        assert_eq!(
            r["hits"][0]["occurrences"], 2,
            "{run}: one caption at two addresses"
        );
        assert!(
            err.contains("sha1:innofile") && err.contains("nor in one read before it"),
            "{run}: {err}"
        );
    }
    // The second file alone: its revisit's record is nowhere to be read.
    let data = d.path().join("alone");
    let out = cairn(&data)
        .arg("ingest")
        .arg(&second_path)
        .output()
        .unwrap();
    let err = stderr(&out);
    assert!(sources(&data).is_empty(), "{err}");
    assert!(
        err.contains("urn:uuid:ferry-1") || err.contains("sha1:ferrydigest"),
        "{err}"
    );
}

/// The `warc` fuzz target's seeds hold every shape above, so that fuzzing starts from
/// inputs that reach the ARC, resource, chunk and revisit code.
#[test]
fn the_fuzz_seeds_reach_every_record_shape() {
    use cairn_ingest::warc::{Skip, WarcItem, read_warc};
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/regressions/warc");
    // seed: (pages, of which revisits, pages with warnings, unresolved, no page)
    let want = [
        ("seed-arc-v1", (3, 0, 0, 0, 2)),
        ("seed-arc-v1-gz", (3, 0, 0, 0, 2)),
        ("seed-arc-v2", (1, 0, 0, 0, 1)),
        ("seed-warc-shapes", (5, 2, 1, 1, 4)),
        ("seed-warc-shapes-gz", (5, 2, 1, 1, 4)),
    ];
    for (name, expected) in want {
        let data = std::fs::read(dir.join(name)).unwrap();
        let mut got = (0, 0, 0, 0, 0);
        read_warc(
            std::io::Cursor::new(&data),
            name.ends_with("-gz"),
            &mut |i| {
                match i {
                    WarcItem::Response(p) => {
                        got.0 += 1;
                        got.1 += usize::from(p.revisit_of.is_some());
                        got.2 += usize::from(!p.warnings.is_empty());
                    }
                    WarcItem::Skipped { skip, reason, .. } => match skip {
                        Skip::Unresolved => got.3 += 1,
                        Skip::NotAPage => got.4 += 1,
                        Skip::Damaged => panic!("{name}: {reason}"),
                    },
                }
                true
            },
        );
        assert_eq!(got, expected, "{name}");
    }
}
