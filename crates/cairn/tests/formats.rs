//! Ingesting what users have, through the real binary: an HTML gallery with repeated
//! and cut-short captions, a WARC.gz with a damaged record, JSON Lines, and JPEG and
//! TIFF files whose IPTC/XMP ExifTool wrote. Every fixture is written by the test.

mod common;

use std::io::Write;
use std::path::Path;
use std::process::Command as Std;

use common::{cairn, json, stats, stderr};

fn search(d: &Path, q: &str) -> serde_json::Value {
    json(cairn(d).args(["search", q, "--json", "--limit", "50"]))
}

const GALLERY: &str = r##"<!DOCTYPE html>
<html><head><title>Week in pictures</title>
<meta property="og:description" content="The week in pictures">
</head><body>
<nav><ul><li><a href="/">Home</a></li><li class="caption">Galleries and more links for the whole site</li></ul></nav>
<div class="gallery">
 <figure><img src="1.jpg" alt="photo">
  <figcaption>A boy walks past a damaged building in Aleppo, Syria, on November 6, 2016. <em>REUTERS/Abdalrhman Ismail</em></figcaption></figure>
 <figure><img src="2.jpg" alt="photo">
  <figcaption>Rescuers search the rubble after an airstrike in Harasta, Syria, on November 6, 2016. At least four people were killed,&nbsp;according to&nbsp;civil defence.<br>(Photo by Sameer Al-Doumy/AFP)</figcaption></figure>
 <div class="thumbs">
  <p class="caption-short">Rescuers search the rubble after an airstrike in Harasta, Syria, on November 6… more</p>
 </div>
 <div class="lightbox" data-caption="Rescuers search the rubble after an airstrike in Harasta, Syria, on November 6, 2016. At least four people were killed, according to civil defence. (Photo by Sameer Al-Doumy/AFP)"></div>
</div>
<footer><p class="caption">© Example News 2016. All rights reserved. Terms of use and privacy.</p></footer>
</body></html>
"##;

#[test]
fn html_gallery_gives_its_captions_with_repeats_as_occurrences() {
    let d = tempfile::tempdir().unwrap();
    let page = d.path().join("gallery.page"); // no .html: detected by content
    std::fs::write(&page, GALLERY).unwrap();
    let data = d.path().join("a");
    let out = cairn(&data)
        .args(["ingest", "--json"])
        .arg(&page)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let s = stats(&data);
    assert_eq!(s["sources"], 1);
    assert_eq!(
        s["occurrences"], 4,
        "two figcaptions, the cut-short copy, the lightbox"
    );
    assert_eq!(
        s["captions"], 2,
        "the Harasta caption shown three times is one caption"
    );
    let r = search(&data, "Harasta");
    assert_eq!(r["total"], 1);
    let hit = &r["hits"][0];
    assert_eq!(hit["occurrences"], 3);
    assert_eq!(hit["record"]["credit"]["agency"], "AFP");
    assert_eq!(hit["record"]["casualties"]["killed"]["low"], 4);
    assert!(
        hit["text"]
            .as_str()
            .unwrap()
            .contains("according to civil defence"),
        "entities decoded, <br> folded: {}",
        hit["text"]
    );
    let r = search(&data, "Aleppo");
    assert_eq!(
        r["hits"][0]["record"]["credit"]["photographers"][0],
        "Abdalrhman Ismail"
    );
    assert_eq!(
        search(&data, "rights reserved")["total"],
        0,
        "footer ignored"
    );
    assert_eq!(search(&data, "Galleries")["total"], 0, "navigation ignored");
    let src = json(cairn(&data).args(["show", "1", "--json"]));
    assert!(
        src["sources"][0]["uri"]
            .as_str()
            .unwrap()
            .starts_with("file://")
    );
}

fn warc_record(uri: &str, http: &[u8]) -> Vec<u8> {
    let mut r = format!(
        "WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:{}>\r\nWARC-Target-URI: {uri}\r\nWARC-Date: 2016-11-07T10:00:00Z\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n",
        uri.len(),
        http.len()
    )
    .into_bytes();
    r.extend_from_slice(http);
    r.extend_from_slice(b"\r\n\r\n");
    r
}

fn gz(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

#[test]
fn warc_gz_ingests_every_good_record_and_names_the_damaged_one() {
    let d = tempfile::tempdir().unwrap();
    let html = "<html><body><figure><figcaption>Children play in the snow in a camp for displaced people near Idlib, Syria, on January 9, 2017. (Photo by Omar Haj Kadour/AFP)</figcaption></figure></body></html>";
    let r1 = warc_record(
        "https://news.example/gallery/1",
        format!("HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {}\r\n\r\n{html}", html.len()).as_bytes(),
    );
    // A gzip-encoded, chunked body.
    let text = b"A man walks through rubble in Douma, Syria, on October 24, 2016. REUTERS/Bassam Khabieh\n";
    let body = gz(text);
    let mut chunked = format!("{:x}\r\n", body.len()).into_bytes();
    chunked.extend_from_slice(&body);
    chunked.extend_from_slice(b"\r\n0\r\n\r\n");
    let mut http2 = b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n".to_vec();
    http2.extend_from_slice(&chunked);
    let r2 = warc_record("https://news.example/gallery/2", &http2);
    let request = b"WARC/1.1\r\nWARC-Type: request\r\nWARC-Target-URI: https://news.example/gallery/1\r\nContent-Length: 4\r\n\r\nGET \r\n\r\n".to_vec();
    let r4 = warc_record(
        "https://news.example/gallery/4",
        b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nFighters rest in Jobar, on the eastern outskirts of Damascus, Syria, on March 14, 2016. (Photo by Amer Almohibany/AFP)\n",
    );
    let mut file = Vec::new();
    file.extend(gz(&r1));
    file.extend(gz(&request));
    // A damaged member: its compressed bytes cut in half.
    let damaged = gz(&warc_record(
        "https://news.example/gallery/3",
        b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nThis record is damaged and never arrives whole.\n",
    ));
    let damaged_at = file.len();
    file.extend_from_slice(&damaged[..damaged.len() / 2]);
    file.extend(gz(&r2));
    file.extend(gz(&r4));
    let path = d.path().join("crawl.warc.gz");
    std::fs::write(&path, &file).unwrap();

    let data = d.path().join("a");
    let out = cairn(&data).arg("ingest").arg(&path).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(3),
        "partial success: {}",
        stderr(&out)
    );
    let err = stderr(&out);
    assert!(
        err.contains(&format!("record at offset {damaged_at}")),
        "the damaged record is named by its offset: {err}"
    );
    let s = stats(&data);
    assert_eq!(
        s["sources"], 3,
        "three good responses; the request is not a page"
    );
    assert_eq!(s["captions"], 3);
    let r = search(&data, "Idlib");
    assert_eq!(
        r["hits"][0]["sources"][0]["uri"],
        "https://news.example/gallery/1"
    );
    let r = search(&data, "Douma");
    assert_eq!(r["total"], 1, "gzip content encoding and chunking undone");
    assert_eq!(
        r["hits"][0]["record"]["credit"]["photographers"][0],
        "Bassam Khabieh"
    );
    // Provenance: the WARC file, the record offset and date.
    let id = r["hits"][0]["sources"][0]["id"].as_i64().unwrap();
    let page = json(cairn(&data).args(["show", &r["hits"][0]["id"].to_string(), "--json"]));
    assert_eq!(page["sources"][0]["id"], id);
    // Re-running changes nothing (every good record is already stored).
    let before = stats(&data);
    let out = cairn(&data).arg("ingest").arg(&path).output().unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert_eq!(stats(&data)["sources"], before["sources"]);
    assert_eq!(stats(&data)["batches"], before["batches"]);
}

#[test]
fn json_lines_with_chosen_fields() {
    let d = tempfile::tempdir().unwrap();
    let path = d.path().join("export.jsonl");
    std::fs::write(
        &path,
        concat!(
            r#"{"url": "https://x.example/1", "text": "A woman carries water in Douma, Syria. REUTERS/Bassam Khabieh", "taken": "2016-10-24"}"#,
            "\n\n",
            r#"{"url": "https://x.example/2", "text": "Smoke rises over Aleppo, Syria, on November 20, 2016. (Photo by Karam Al-Masri/AFP)"}"#,
            "\n",
            r#"{"url": "https://x.example/3", "other": "no text here"}"#,
            "\n",
            "not json\n",
        ),
    )
    .unwrap();
    let data = d.path().join("a");
    let out = cairn(&data)
        .args([
            "ingest",
            "--text-field",
            "text",
            "--uri-field",
            "url",
            "--date-field",
            "taken",
        ])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    let err = stderr(&out);
    // Physical line numbers (line 2 is blank).
    assert!(err.contains("line 4") && err.contains("\"text\""), "{err}");
    assert!(
        err.contains("line 5") && err.contains("not a JSON object"),
        "{err}"
    );
    assert_eq!(stats(&data)["sources"], 2);
    let r = search(&data, "Douma");
    assert_eq!(r["hits"][0]["sources"][0]["uri"], "https://x.example/1");
    assert_eq!(
        r["hits"][0]["record"]["date"]["value"], "2016-10-24",
        "the date field fills what the text lacks"
    );
}

/// A tiny JPEG: valid markers around a placeholder scan, enough for ExifTool and
/// container readers (no decoder looks at the pixels here).
fn tiny_jpeg() -> Vec<u8> {
    let mut j = vec![0xFF, 0xD8];
    // DQT: one 8-bit table of ones.
    j.extend_from_slice(&[0xFF, 0xDB, 0x00, 0x43, 0x00]);
    j.extend_from_slice(&[1u8; 64]);
    // SOF0: 8-bit, 1x1, one component.
    j.extend_from_slice(&[
        0xFF, 0xC0, 0x00, 0x0B, 0x08, 0x00, 0x01, 0x00, 0x01, 0x01, 0x01, 0x11, 0x00,
    ]);
    // DHT: a DC table with one code.
    j.extend_from_slice(&[0xFF, 0xC4, 0x00, 0x14, 0x00, 0x01]);
    j.extend_from_slice(&[0u8; 15]);
    j.push(0x00);
    // SOS, a byte of scan data, EOI.
    j.extend_from_slice(&[
        0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3F, 0x00, 0x00, 0xFF, 0xD9,
    ]);
    j
}

/// A 1x1 8-bit grey TIFF.
fn tiny_tiff() -> Vec<u8> {
    let mut t = b"II*\0".to_vec();
    t.extend_from_slice(&8u32.to_le_bytes());
    let entries: [(u16, u16, u32, u32); 8] = [
        (256, 3, 1, 1), // width
        (257, 3, 1, 1), // height
        (258, 3, 1, 8), // bits per sample
        (259, 3, 1, 1), // no compression
        (262, 3, 1, 1), // black is zero
        (273, 4, 1, 0), // strip offset, set below
        (278, 3, 1, 1), // rows per strip
        (279, 4, 1, 1), // strip byte count
    ];
    let data_at = 8 + 2 + entries.len() * 12 + 4;
    t.extend_from_slice(&(entries.len() as u16).to_le_bytes());
    for (tag, typ, count, value) in entries {
        let value = if tag == 273 { data_at as u32 } else { value };
        t.extend_from_slice(&tag.to_le_bytes());
        t.extend_from_slice(&typ.to_le_bytes());
        t.extend_from_slice(&count.to_le_bytes());
        t.extend_from_slice(&value.to_le_bytes());
    }
    t.extend_from_slice(&0u32.to_le_bytes());
    t.push(0x80);
    t
}

fn exiftool_present() -> bool {
    if Std::new("exiftool").arg("-ver").output().is_ok() {
        return true;
    }
    if std::env::var("CI").as_deref() == Ok("true") {
        panic!("exiftool not found (Debian: libimage-exiftool-perl)");
    }
    eprintln!("skipping: exiftool not found");
    false
}

#[test]
fn photographs_with_iptc_and_xmp_written_by_exiftool() {
    if !exiftool_present() {
        return;
    }
    let d = tempfile::tempdir().unwrap();
    let photos = d.path().join("photos");
    std::fs::create_dir_all(&photos).unwrap();
    let jpeg = photos.join("a.jpg");
    std::fs::write(&jpeg, tiny_jpeg()).unwrap();
    let tiff = photos.join("b.tif");
    std::fs::write(&tiff, tiny_tiff()).unwrap();
    let run = |args: &[&str], file: &Path| {
        let o = Std::new("exiftool")
            .args(["-q", "-overwrite_original", "-charset", "iptc=UTF8"])
            .args(args)
            .arg(file)
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "exiftool: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    };
    // IPTC-IIM in the JPEG; the text names another photographer than the By-line.
    run(
        &[
            "-IPTC:Caption-Abstract=A boy walks past a damaged building in Aleppo, Syria, on November 5, 2016. REUTERS/Someone Else",
            "-IPTC:By-line=Abdalrhman Ismail",
            "-IPTC:Credit=Reuters",
            "-IPTC:Source=Reuters",
            "-IPTC:DateCreated=2016:11:06",
            "-IPTC:City=Aleppo",
            "-IPTC:Country-PrimaryLocationName=Syria",
        ],
        &jpeg,
    );
    // XMP in the TIFF.
    run(
        &[
            "-XMP-dc:Description=Rescuers search the rubble in Harasta on the outskirts of Damascus.",
            "-XMP-dc:Creator=Sameer Al-Doumy",
            "-XMP-photoshop:Credit=AFP",
            "-XMP-photoshop:DateCreated=2016:11:06",
            "-XMP-photoshop:City=Harasta",
            "-XMP-photoshop:Country=Syria",
        ],
        &tiff,
    );
    let data = d.path().join("a");
    let out = cairn(&data).arg("ingest").arg(&photos).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stats(&data)["captions"], 2);

    let r = search(&data, "Aleppo");
    let rec = &r["hits"][0]["record"];
    assert_eq!(
        rec["credit"]["photographers"][0], "Abdalrhman Ismail",
        "By-line wins"
    );
    assert_eq!(rec["credit"]["agency"], "Reuters");
    assert_eq!(
        rec["date"]["value"], "2016-11-06",
        "Date Created wins over the text's"
    );
    assert_eq!(rec["location"]["name"], "Aleppo");
    let warnings = rec["warnings"].to_string();
    assert!(
        warnings.contains("Someone Else"),
        "the text's credit is kept in a warning: {warnings}"
    );
    assert!(warnings.contains("2016-11-05"), "{warnings}");

    let r = search(&data, "Harasta");
    let rec = &r["hits"][0]["record"];
    assert_eq!(rec["credit"]["photographers"][0], "Sameer Al-Doumy");
    assert_eq!(rec["credit"]["agency"], "AFP");
    assert_eq!(rec["date"]["value"], "2016-11-06");
    assert_eq!(rec["location"]["country"], "SY");

    // An image with no caption metadata is refused by name; a corrupt IPTC block
    // does not crash the reader.
    let bare = d.path().join("bare.jpg");
    std::fs::write(&bare, tiny_jpeg()).unwrap();
    let out = cairn(&data).arg("ingest").arg(&bare).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("bare.jpg") && stderr(&out).contains("no IPTC or XMP caption"));
}

#[test]
fn compressed_inputs_and_a_gzip_bomb() {
    let d = tempfile::tempdir().unwrap();
    let text = b"A man walks in Homs, Syria, on May 1, 2015. REUTERS/Jane Roe\n";
    std::fs::write(d.path().join("a.txt.gz"), gz(text)).unwrap();
    std::fs::write(
        d.path().join("b.txt.zst"),
        zstd::encode_all(&b"Smoke rises over Aleppo, Syria, on November 20, 2016. (Photo by Karam Al-Masri/AFP)\n"[..], 3).unwrap(),
    )
    .unwrap();
    let data = d.path().join("a");
    let out = cairn(&data)
        .arg("ingest")
        .arg(d.path().join("a.txt.gz"))
        .arg(d.path().join("b.txt.zst"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stats(&data)["captions"], 2);
    // 600 MB of zeros compress to about 600 KB: the reader stops at its limit.
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    let zeros = vec![b'a'; 1 << 20];
    for _ in 0..600 {
        e.write_all(&zeros).unwrap();
    }
    let bomb = d.path().join("bomb.gz");
    std::fs::write(&bomb, e.finish().unwrap()).unwrap();
    let out = cairn(&data).arg("ingest").arg(&bomb).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("bomb.gz") && stderr(&out).contains("over the limit"),
        "{}",
        stderr(&out)
    );
    assert_eq!(stats(&data)["captions"], 2, "the archive is unchanged");
}
