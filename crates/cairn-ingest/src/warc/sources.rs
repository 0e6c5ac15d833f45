//! A WARC or ARC file's records as sources: pages with their provenance (file, offset,
//! date, record type; warnings met reading them), damaged records as errors naming the
//! file and offset, and the records that hold no page summed up in one line per file
//! with their offsets, so nothing a crawl holds goes without a word.

use std::io::{Read, Seek};

use cairn_model::SourceKind;

use std::path::Path;

use super::{Crawl, Skip, WarcItem, WarcResponse, read_warc_in};
use crate::{Error, RawSource, sha256_hex};

/// Offsets listed per kind of skipped record before the rest are only counted.
const OFFSETS_SHOWN: usize = 5;

/// Kinds of skipped record told apart in a file's summary (a hostile file could make
/// up a new record type per record); the rest are counted together.
const KINDS_SHOWN: usize = 32;

/// The records of a file that held no page, by label in order of first sight: how
/// many, and the first offsets (a crawl holds a request per page: only a few are kept).
#[derive(Default)]
struct Tally {
    kinds: Vec<(String, usize, Vec<u64>)>,
}

impl Tally {
    fn add(&mut self, label: String, offset: u64) {
        let i = match self.kinds.iter().position(|(l, _, _)| *l == label) {
            Some(i) => i,
            None if self.kinds.len() < KINDS_SHOWN => {
                self.kinds.push((label, 0, Vec::new()));
                self.kinds.len() - 1
            }
            None => match self.kinds.iter().position(|(l, _, _)| l == "other") {
                Some(i) => i,
                None => {
                    self.kinds.push(("other".into(), 0, Vec::new()));
                    self.kinds.len() - 1
                }
            },
        };
        let (_, n, offsets) = &mut self.kinds[i];
        *n += 1;
        if offsets.len() < OFFSETS_SHOWN {
            offsets.push(offset);
        }
    }

    /// One line for all of them, or nothing.
    fn summary(&self) -> Option<String> {
        if self.kinds.is_empty() {
            return None;
        }
        let total: usize = self.kinds.iter().map(|(_, n, _)| n).sum();
        let parts: Vec<String> = self
            .kinds
            .iter()
            .map(|(label, n, offsets)| {
                let shown: Vec<String> = offsets.iter().map(u64::to_string).collect();
                let more = n - offsets.len();
                let more = if more > 0 {
                    format!(" and {more} more")
                } else {
                    String::new()
                };
                let at = if *n == 1 { "offset" } else { "offsets" };
                format!("{label}: {n} (at {at} {}{more})", shown.join(", "))
            })
            .collect();
        Some(format!(
            "{total} record{} with no page to read, skipped: {}",
            if total == 1 { "" } else { "s" },
            parts.join("; ")
        ))
    }
}

/// The source a page becomes.
fn source(file: &str, p: WarcResponse) -> RawSource {
    let sha256 = sha256_hex(&p.body);
    let warnings: Vec<String> = p
        .warnings
        .iter()
        .map(|w| format!("{file}, record at offset {}: {w}", p.offset))
        .collect();
    let mut origin = serde_json::json!({
        "warc": file, "offset": p.offset, "date": p.date,
        "content_type": p.content_type, "record_type": p.record_type,
    });
    if let Some(at) = p.revisit_of {
        origin["revisit_of"] = at.into();
    }
    if let Some(other) = p.revisit_in {
        origin["revisit_in"] = other.into();
    }
    if !warnings.is_empty() {
        origin["warnings"] = warnings.into();
    }
    RawSource {
        uri: if p.target_uri.is_empty() {
            format!("{file}#offset={}", p.offset)
        } else {
            p.target_uri
        },
        name: format!("{file} (record at offset {})", p.offset),
        kind: SourceKind::Warc,
        bytes: p.body,
        sha256,
        origin: Some(origin.to_string()),
    }
}

/// The warnings a WARC source's origin carries (see [`source`]).
pub(crate) fn origin_warnings(origin: Option<&str>) -> Vec<String> {
    let Some(o) = origin.and_then(|o| serde_json::from_str::<serde_json::Value>(o).ok()) else {
        return Vec::new();
    };
    o["warnings"]
        .as_array()
        .map(|ws| {
            ws.iter()
                .filter_map(|w| w.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// Reads the WARC or ARC file `name` from `r`, giving `emit` its sources and problems;
/// `crawl`: the run it is read in, and its path, when it is a file.
pub(crate) fn read_sources<R: Read + Seek>(
    r: R,
    gz: bool,
    name: &str,
    crawl: Option<(&Crawl, &Path)>,
    emit: &mut dyn FnMut(crate::Result<RawSource>) -> bool,
) {
    let mut tally = Tally::default();
    let mut go_on = true;
    read_warc_in(r, gz, crawl, &mut |item| {
        go_on = match item {
            WarcItem::Response(p) => emit(Ok(source(name, p))),
            WarcItem::Skipped {
                offset,
                reason,
                skip: Skip::NotAPage,
            } => {
                tally.add(reason, offset);
                true
            }
            WarcItem::Skipped {
                offset,
                reason,
                skip: Skip::Unresolved,
            } => emit(Err(Error::Notice {
                path: format!("{name} (record at offset {offset})"),
                message: reason,
            })),
            WarcItem::Skipped {
                offset,
                reason,
                skip: Skip::Damaged,
            } => emit(Err(Error::Bad {
                path: format!("{name} (record at offset {offset})"),
                message: format!("{reason}; skipped"),
            })),
        };
        go_on
    });
    if go_on && let Some(message) = tally.summary() {
        emit(Err(Error::Notice {
            path: name.to_string(),
            message,
        }));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skipped_records_are_summed_up_by_kind_with_offsets() {
        let mut t = Tally::default();
        assert_eq!(t.summary(), None);
        for (label, at) in [("request record", 0), ("warcinfo record", 9)] {
            t.add(label.into(), at);
        }
        for at in 1..=7 {
            t.add("request record".into(), at * 100);
        }
        let s = t.summary().unwrap();
        assert!(s.starts_with("9 records with no page"), "{s}");
        assert!(
            s.contains("request record: 8 (at offsets 0, 100, 200, 300, 400 and 3 more)"),
            "{s}"
        );
        assert!(s.contains("warcinfo record: 1 (at offset 9)"), "{s}");
        let mut many = Tally::default();
        for i in 0..40 {
            many.add(format!("made-up-{i} record"), i);
        }
        let s = many.summary().unwrap();
        assert!(
            s.contains("other: 8 (at offsets 32, 33, 34, 35, 36 and 3 more)"),
            "{s}"
        );
    }
}

#[cfg(test)]
mod read_input_tests {
    use std::io::Write;

    use crate::{Input, ReadOptions, read_input, render};

    fn gz(data: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    fn read(path: &std::path::Path) -> Vec<crate::Result<crate::RawSource>> {
        let mut out = Vec::new();
        read_input(
            &Input::File(path.to_path_buf()),
            &ReadOptions::default(),
            &mut |r| {
                out.push(r);
                true
            },
        );
        out
    }

    /// An ARC.gz is known by what its first member holds, whatever its name.
    #[test]
    fn an_arc_gz_is_read_by_content_and_its_other_records_summed_up() {
        let d = tempfile::tempdir().unwrap();
        let desc = b"filedesc://x.arc 0.0.0.0 20140216050221 text/plain 9\n1 0 Wire\n\n";
        let page = b"HTTP/1.0 200 OK\r\n\r\nA ferry leaves the port at dusk.\n";
        let mut rec = format!(
            "http://wire.example/a 192.0.2.1 20140216050222 text/plain {}\n",
            page.len()
        )
        .into_bytes();
        rec.extend_from_slice(page);
        rec.push(b'\n');
        let path = d.path().join("crawl.bin");
        std::fs::write(&path, [gz(desc), gz(&rec)].concat()).unwrap();
        let got = read(&path);
        assert_eq!(got.len(), 2, "{got:?}");
        let src = got[0].as_ref().unwrap();
        assert_eq!(src.uri, "http://wire.example/a");
        assert!(
            src.origin
                .as_deref()
                .unwrap()
                .contains("2014-02-16T05:02:22Z")
        );
        let e = got[1].as_ref().unwrap_err();
        assert!(e.is_notice());
        let msg = e.to_string();
        assert!(
            msg.contains("crawl.bin") && msg.contains("filedesc record: 1 (at offset 0)"),
            "{msg}"
        );
    }

    /// The warning a record's reading gave is the rendered document's.
    #[test]
    fn a_records_warnings_reach_its_document() {
        let d = tempfile::tempdir().unwrap();
        let http =
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nA lorry crosses the border.\n";
        let mut file = format!(
            "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: https://wire.example/b\r\nContent-Length: {}\r\n\r\n",
            http.len()
        )
        .into_bytes();
        file.extend_from_slice(http);
        file.extend_from_slice(b"\r\n\r\n");
        let path = d.path().join("one.warc");
        std::fs::write(&path, &file).unwrap();
        let mut got = read(&path);
        assert_eq!(got.len(), 1, "{got:?}");
        let doc = render(got.remove(0).unwrap()).unwrap();
        assert_eq!(doc.text, "A lorry crosses the border.\n");
        assert_eq!(doc.warnings.len(), 1, "{:?}", doc.warnings);
        let w = &doc.warnings[0];
        assert!(
            w.contains("one.warc, record at offset 0") && w.contains("chunked"),
            "{w}"
        );
    }
}
