//! The reader on records of every shape, written here byte by byte.

use super::*;

fn record(uri: &str, http: &str) -> Vec<u8> {
    format!(
        "WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: {uri}\r\nWARC-Date: 2016-11-07T10:00:00Z\r\nContent-Length: {}\r\n\r\n{http}\r\n\r\n",
        http.len()
    )
    .into_bytes()
}

/// Hands out one byte per read, as a decompressor may at a block boundary.
struct OneByte(std::io::Cursor<Vec<u8>>);

impl Read for OneByte {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = buf.len().min(1);
        self.0.read(&mut buf[..n])
    }
}

impl Seek for OneByte {
    fn seek(&mut self, pos: SeekFrom) -> std::io::Result<u64> {
        self.0.seek(pos)
    }
}

#[test]
fn records_read_whole_however_the_bytes_arrive() {
    let mut file = record("https://a.example/1", "HTTP/1.1 200 OK\r\n\r\none");
    file.extend(record("https://a.example/2", "HTTP/1.1 200 OK\r\n\r\ntwo"));
    let mut bodies = Vec::new();
    read_warc(OneByte(std::io::Cursor::new(file)), false, &mut |i| {
        match i {
            WarcItem::Response(r) => bodies.push(r.body),
            other => panic!("{other:?}"),
        }
        true
    });
    assert_eq!(bodies, [b"one".to_vec(), b"two".to_vec()]);
}

#[test]
fn chunked_bodies_and_damaged_records() {
    let ok = record(
        "https://a.example/1",
        "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n<p>hi\r\n4\r\n</p>\r\n0\r\n\r\n",
    );
    let mut lying = record("https://a.example/2", "HTTP/1.1 200 OK\r\n\r\nbody");
    // A Content-Length that claims more than is there.
    let text = String::from_utf8(lying.clone())
        .unwrap()
        .replace("Content-Length: 23", "Content-Length: 99999");
    lying = text.into_bytes();
    let mut file = ok.clone();
    file.extend_from_slice(&lying);
    let mut items = Vec::new();
    read_warc(std::io::Cursor::new(&file[..]), false, &mut |i| {
        items.push(i);
        true
    });
    match &items[0] {
        WarcItem::Response(r) => {
            assert_eq!(r.body, b"<p>hi</p>");
            assert_eq!(r.target_uri, "https://a.example/1");
        }
        other => panic!("{other:?}"),
    }
    assert!(
        matches!(&items[1], WarcItem::Skipped { offset, reason, .. } if *offset == ok.len() as u64 && reason.contains("Content-Length")),
        "{:?}",
        &items[1..]
    );
    assert_eq!(items.len(), 2);
}

/// A WARC record of any type with extra header lines (each ending in CRLF).
fn warc(kind: &str, uri: &str, extra: &str, block: &[u8]) -> Vec<u8> {
    let mut r = format!(
        "WARC/1.0\r\nWARC-Type: {kind}\r\nWARC-Target-URI: {uri}\r\nWARC-Date: 2017-03-14T08:30:00Z\r\n{extra}Content-Length: {}\r\n\r\n",
        block.len()
    )
    .into_bytes();
    r.extend_from_slice(block);
    r.extend_from_slice(b"\r\n\r\n");
    r
}

/// An ARC v1 record: its header line, its block, the newline after it.
fn arc(url: &str, date: &str, ctype: &str, block: &[u8]) -> Vec<u8> {
    let mut r = format!("{url} 192.0.2.10 {date} {ctype} {}\n", block.len()).into_bytes();
    r.extend_from_slice(block);
    r.push(b'\n');
    r
}

fn arc_version_block() -> Vec<u8> {
    arc(
        "filedesc://wire-2014.arc",
        "20140216050221",
        "text/plain",
        b"1 0 Sample Wire\nURL IP-address Archive-date Content-type Archive-length\n",
    )
}

fn gz(data: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

fn items(file: &[u8], gz: bool) -> Vec<WarcItem> {
    let mut out = Vec::new();
    read_warc(std::io::Cursor::new(file), gz, &mut |i| {
        out.push(i);
        true
    });
    out
}

fn pages(items: &[WarcItem]) -> Vec<&WarcResponse> {
    items
        .iter()
        .filter_map(|i| match i {
            WarcItem::Response(r) => Some(r),
            _ => None,
        })
        .collect()
}

fn skipped(items: &[WarcItem], want: Skip) -> Vec<(u64, &str)> {
    items
        .iter()
        .filter_map(|i| match i {
            WarcItem::Skipped {
                offset,
                reason,
                skip,
            } if *skip == want => Some((*offset, reason.as_str())),
            _ => None,
        })
        .collect()
}

const PAGE: &[u8] = b"HTTP/1.0 200 OK\r\nContent-Type: text/html\r\n\r\n<html><body><figure><figcaption>Farmers bring in the harvest near Tartus.</figcaption></figure></body></html>";

/// An ARC file's records, in both its shapes: the version block and the DNS record
/// are named as holding no page, the image too; the pages keep their URL and date.
fn arc_records() -> Vec<Vec<u8>> {
    vec![
        arc_version_block(),
        arc(
            "dns:news.example",
            "20140216050222",
            "text/dns",
            b"20140216050222\nnews.example.\t300\tIN\tA\t192.0.2.10\n",
        ),
        arc(
            "http://news.example/gallery/1",
            "20140216050223",
            "text/html",
            PAGE,
        ),
        arc(
            "http://news.example/1.jpg",
            "20140216050224",
            "image/jpeg",
            b"HTTP/1.0 200 OK\r\nContent-Type: image/jpeg\r\n\r\n\xff\xd8\xff\xe0",
        ),
        arc(
            "http://news.example/notes.txt",
            "20140216050225",
            "text/plain",
            b"HTTP/1.0 200 OK\r\n\r\nA second page, as plain text.\n",
        ),
    ]
}

#[test]
fn arc_records_are_read_as_responses_plain_or_gzip() {
    for compressed in [false, true] {
        let records = arc_records();
        let file: Vec<u8> = if compressed {
            records.iter().flat_map(|r| gz(r)).collect()
        } else {
            records.concat()
        };
        let got = items(&file, compressed);
        let p = pages(&got);
        assert_eq!(p.len(), 2, "{got:?}");
        assert_eq!(p[0].target_uri, "http://news.example/gallery/1");
        assert_eq!(p[0].date, "2014-02-16T05:02:23Z");
        assert!(
            p[0].body.starts_with(b"<html>"),
            "the HTTP header is taken off"
        );
        assert_eq!(p[0].record_type, "ARC");
        assert_eq!(p[1].target_uri, "http://news.example/notes.txt");
        assert_eq!(p[1].body, b"A second page, as plain text.\n");
        let labels: Vec<&str> = skipped(&got, Skip::NotAPage)
            .into_iter()
            .map(|(_, l)| l)
            .collect();
        assert_eq!(
            labels,
            [
                "filedesc record",
                "ARC record of a dns: address",
                "ARC image/jpeg"
            ]
        );
        assert!(skipped(&got, Skip::Damaged).is_empty(), "{got:?}");
        // Nothing is lost: each record is either a page or named.
        assert_eq!(got.len(), records.len());
    }
}

#[test]
fn a_damaged_arc_record_is_named_and_the_next_one_read() {
    let mut records = arc_records();
    // The page's length says more than it has: its block runs into the next record.
    let bad = String::from_utf8_lossy(&records[2]).replace(
        &format!(" {}\n", PAGE.len()),
        &format!(" {}\n", PAGE.len() + 40),
    );
    records[2] = bad.into_bytes();
    let at = records[..2].concat().len() as u64;
    let file = records.concat();
    let got = items(&file, false);
    let damaged = skipped(&got, Skip::Damaged);
    assert_eq!(damaged.len(), 1, "{got:?}");
    assert_eq!(damaged[0].0, at);
    let p = pages(&got);
    assert_eq!(p.len(), 1, "{got:?}");
    assert_eq!(p[0].target_uri, "http://news.example/notes.txt");
}

#[test]
fn resource_records_are_pages_unless_a_crawler_wrote_them_about_itself() {
    let mut file = warc(
        "resource",
        "https://news.example/gallery/2",
        "Content-Type: text/html; charset=utf-8\r\n",
        b"<p>Shepherds move their flock across a dry riverbed.</p>",
    );
    file.extend(warc(
        "resource",
        "metadata://crawler.example/log.txt",
        "Content-Type: text/plain\r\n",
        b"fetched 2 pages\n",
    ));
    file.extend(warc(
        "resource",
        "urn:text:https://news.example/gallery/2",
        "Content-Type: text/plain\r\n",
        b"Shepherds move their flock across a dry riverbed.\n",
    ));
    file.extend(warc(
        "resource",
        "https://news.example/2.png",
        "Content-Type: image/png\r\n",
        b"\x89PNG\r\n\x1a\n",
    ));
    let got = items(&file, false);
    let p = pages(&got);
    assert_eq!(p.len(), 1, "{got:?}");
    assert_eq!(p[0].target_uri, "https://news.example/gallery/2");
    assert_eq!(p[0].date, "2017-03-14T08:30:00Z");
    assert_eq!(p[0].content_type, "text/html; charset=utf-8");
    assert_eq!(p[0].record_type, "resource");
    assert!(p[0].body.starts_with(b"<p>Shepherds"));
    let labels: Vec<&str> = skipped(&got, Skip::NotAPage)
        .into_iter()
        .map(|(_, l)| l)
        .collect();
    assert_eq!(
        labels,
        [
            "resource record of a metadata: address",
            "resource record of a urn: address",
            "resource image/png"
        ]
    );
}

#[test]
fn a_lying_chunked_header_keeps_the_raw_body_with_a_warning() {
    let file = warc(
        "response",
        "https://news.example/gallery/3",
        "",
        b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n<p>Boys fish from a pier at dawn.</p>",
    );
    let got = items(&file, false);
    let p = pages(&got);
    assert_eq!(p.len(), 1, "{got:?}");
    assert_eq!(p[0].body, b"<p>Boys fish from a pier at dawn.</p>");
    assert_eq!(p[0].warnings.len(), 1);
    assert!(p[0].warnings[0].contains("chunked"), "{:?}", p[0].warnings);
}

#[test]
fn records_that_hold_no_page_are_named_not_dropped() {
    let mut file = warc("warcinfo", "", "", b"software: a crawler\r\n");
    file.extend(warc(
        "request",
        "https://news.example/",
        "",
        b"GET / HTTP/1.1\r\n\r\n",
    ));
    file.extend(warc(
        "response",
        "https://news.example/old",
        "",
        b"HTTP/1.1 301 Moved Permanently\r\nLocation: /new\r\n\r\n",
    ));
    file.extend(warc(
        "response",
        "dns:news.example",
        "Content-Type: text/dns\r\n",
        b"20170314083000\nnews.example. 300 IN A 192.0.2.10\n",
    ));
    file.extend(warc(
        "metadata",
        "https://news.example/",
        "",
        b"outlinks: none\r\n",
    ));
    let got = items(&file, false);
    assert!(pages(&got).is_empty());
    let labels: Vec<&str> = skipped(&got, Skip::NotAPage)
        .into_iter()
        .map(|(_, l)| l)
        .collect();
    assert_eq!(
        labels,
        [
            "warcinfo record",
            "request record",
            "response with HTTP status 301",
            "response record of a dns: address",
            "metadata record"
        ]
    );
}

fn response_with(uri: &str, id: &str, digest: &str, http: &[u8]) -> Vec<u8> {
    warc(
        "response",
        uri,
        &format!("WARC-Record-ID: {id}\r\nWARC-Payload-Digest: {digest}\r\n"),
        http,
    )
}

fn revisit(uri: &str, refers_to: Option<&str>, digest: &str, http: &[u8]) -> Vec<u8> {
    let refers = refers_to
        .map(|r| format!("WARC-Refers-To: {r}\r\n"))
        .unwrap_or_default();
    warc(
        "revisit",
        uri,
        &format!(
            "WARC-Profile: http://netpreserve.org/warc/1.0/revisit/identical-payload-digest\r\n{refers}WARC-Payload-Digest: {digest}\r\n"
        ),
        http,
    )
}

#[test]
fn revisits_take_the_earlier_payload_from_the_same_file() {
    let first = response_with(
        "https://news.example/gallery/4",
        "<urn:uuid:first>",
        "sha1:AAAABBBBCCCCDDDD",
        PAGE,
    );
    let image = response_with(
        "https://news.example/4.jpg",
        "<urn:uuid:image>",
        "sha1:IMAGEDIGEST",
        b"HTTP/1.1 200 OK\r\nContent-Type: image/jpeg\r\n\r\n\xff\xd8\xff",
    );
    let head_only = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n";
    let parts = [
        first.clone(),
        image,
        // By digest alone (in another case), at a new URI.
        revisit(
            "https://news.example/mirror/4",
            None,
            "sha1:aaaabbbbccccdddd",
            head_only,
        ),
        // By record id.
        revisit(
            "https://news.example/gallery/4?page=1",
            Some("<urn:uuid:first>"),
            "sha1:AAAABBBBCCCCDDDD",
            b"",
        ),
        // Of an image: not a page either.
        revisit("https://news.example/4b.jpg", None, "sha1:IMAGEDIGEST", b""),
        // Of a payload this file does not hold.
        revisit(
            "https://news.example/gallery/5",
            None,
            "sha1:ELSEWHERE",
            head_only,
        ),
    ];
    for compressed in [false, true] {
        let file: Vec<u8> = if compressed {
            parts.iter().flat_map(|r| gz(r)).collect()
        } else {
            parts.concat()
        };
        let offset_of = |i: usize| -> u64 {
            if compressed {
                parts[..i].iter().map(|p| gz(p).len() as u64).sum()
            } else {
                parts[..i].iter().map(|p| p.len() as u64).sum()
            }
        };
        let got = items(&file, compressed);
        let p = pages(&got);
        assert_eq!(p.len(), 3, "{got:?}");
        assert_eq!(p[1].target_uri, "https://news.example/mirror/4");
        assert_eq!(p[1].record_type, "revisit");
        assert_eq!(p[1].body, p[0].body, "the earlier payload");
        assert_eq!(p[1].revisit_of, Some(0));
        assert_eq!(p[1].offset, offset_of(2));
        assert_eq!(p[2].target_uri, "https://news.example/gallery/4?page=1");
        assert_eq!(p[2].date, "2017-03-14T08:30:00Z");
        assert_eq!(
            skipped(&got, Skip::NotAPage),
            [
                (offset_of(1), "response image/jpeg"),
                (offset_of(4), "revisit of a response image/jpeg")
            ]
        );
        let missing = skipped(&got, Skip::Unresolved);
        assert_eq!(missing.len(), 1, "{got:?}");
        assert_eq!(missing[0].0, offset_of(5));
        assert!(
            missing[0].1.contains("sha1:elsewhere") && missing[0].1.contains("gallery/5"),
            "{}",
            missing[0].1
        );
    }
}
