//! Record heads: a WARC record's named fields, or an ARC record's one-line header
//! (`URL IP-address Archive-date Content-type [...] Archive-length`, after the Internet
//! Archive's ARC file format document of 1996 and its version 2) given the same names.

use std::io::{BufRead, Read};

/// Largest WARC header block.
const MAX_HEADER_BYTES: usize = 64 * 1024;
/// Largest ARC header line (a long URL).
const MAX_ARC_LINE: usize = 16 * 1024;

/// Which of the two container formats a file is, from its first record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Flavour {
    /// Not known yet.
    Unknown,
    /// WARC (ISO 28500).
    Warc,
    /// ARC, the format before WARC.
    Arc,
}

/// A parsed record head.
#[derive(Debug)]
pub(super) struct Head {
    fields: Vec<(String, String)>,
    /// The length of the record's block.
    pub length: u64,
}

impl Head {
    /// A field's value, by name in any case.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The record type (`WARC-Type`; `filedesc` or `ARC` for ARC records).
    pub fn kind(&self) -> &str {
        self.get("WARC-Type").unwrap_or("")
    }

    /// The target URI, without the angle brackets WARC 1.0 put around it.
    pub fn uri(&self) -> &str {
        self.get("WARC-Target-URI")
            .unwrap_or("")
            .trim_matches(['<', '>'])
    }
}

pub(super) fn read_line_limited<R: BufRead>(
    r: &mut R,
    max: usize,
) -> std::io::Result<Option<Vec<u8>>> {
    let mut line = Vec::new();
    let n = r.by_ref().take(max as u64).read_until(b'\n', &mut line)?;
    if n == 0 {
        return Ok(None);
    }
    Ok(Some(line))
}

/// Reads a record head; `Ok(None)` at a clean end of input. The first record decides
/// the flavour of the file.
pub(super) fn read_head<R: BufRead>(
    r: &mut R,
    flavour: &mut Flavour,
) -> Result<Option<Head>, String> {
    // Skip blank lines between records.
    let first = loop {
        match read_line_limited(r, MAX_ARC_LINE).map_err(|e| e.to_string())? {
            None => return Ok(None),
            Some(l) if l.iter().all(|b| b.is_ascii_whitespace()) => continue,
            Some(l) => break l,
        }
    };
    if *flavour == Flavour::Unknown {
        *flavour = if first.starts_with(b"filedesc://") {
            Flavour::Arc
        } else {
            Flavour::Warc
        };
    }
    if *flavour == Flavour::Arc {
        return arc_head(&first).map(Some);
    }
    if !first.starts_with(b"WARC/") {
        return Err("no WARC/ version line where a record should start".into());
    }
    warc_fields(r).map(Some)
}

fn warc_fields<R: BufRead>(r: &mut R) -> Result<Head, String> {
    let mut fields = Vec::new();
    let mut total = 0;
    loop {
        let line = read_line_limited(r, MAX_HEADER_BYTES)
            .map_err(|e| e.to_string())?
            .ok_or("the record ends inside its header")?;
        total += line.len();
        if total > MAX_HEADER_BYTES {
            return Err("the record header is over 64 KiB".into());
        }
        let line = String::from_utf8_lossy(&line);
        let line = line.trim_end_matches(['\r', '\n']);
        if line.is_empty() {
            break;
        }
        if let Some((k, v)) = line.split_once(':') {
            fields.push((k.trim().to_string(), v.trim().to_string()));
        }
    }
    let mut head = Head { fields, length: 0 };
    head.length = head
        .get("Content-Length")
        .and_then(|v| v.parse().ok())
        .ok_or("the record has no valid Content-Length")?;
    Ok(head)
}

/// Whether `line` is an ARC record's header line (used to find the next record after
/// a damaged one).
pub(super) fn is_arc_line(line: &[u8]) -> bool {
    arc_head(line).is_ok()
}

/// An ARC header line: the URL first, the length last; version 1 has five fields,
/// version 2 ten (result code, checksum, location, offset and file name inserted
/// before the length). A URL holding spaces leaves the last four fields of version 1.
fn arc_head(line: &[u8]) -> Result<Head, String> {
    let bad = || "not an ARC record header line (URL, IP address, date, type, length)".to_string();
    let line = std::str::from_utf8(line).map_err(|_| bad())?;
    let f: Vec<&str> = line.trim_end_matches(['\r', '\n']).split(' ').collect();
    if f.len() < 5 {
        return Err(bad());
    }
    let n = f.len();
    let (url, date, ctype) = if n == 10 && is_date(f[2]) {
        (f[0].to_string(), f[2], f[3])
    } else {
        (f[..n - 4].join(" "), f[n - 3], f[n - 2])
    };
    let length: u64 = f[n - 1].parse().map_err(|_| bad())?;
    if url.is_empty() || !is_date(date) {
        return Err(bad());
    }
    let kind = if url.starts_with("filedesc://") {
        "filedesc"
    } else {
        "ARC"
    };
    let fields = vec![
        ("WARC-Type".into(), kind.into()),
        ("WARC-Target-URI".into(), url),
        ("WARC-Date".into(), iso_date(date)),
        ("Content-Type".into(), ctype.to_string()),
    ];
    Ok(Head { fields, length })
}

/// ARC dates are digits, `YYYYMMDDhhmmss` (some writers cut them shorter).
fn is_date(s: &str) -> bool {
    (8..=17).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_digit())
}

/// `20140216050221` as `2014-02-16T05:02:21Z`, the form WARC dates take; a date of
/// another length is kept as it is.
fn iso_date(d: &str) -> String {
    if d.len() != 14 {
        return d.to_string();
    }
    format!(
        "{}-{}-{}T{}:{}:{}Z",
        &d[..4],
        &d[4..6],
        &d[6..8],
        &d[8..10],
        &d[10..12],
        &d[12..14]
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arc_lines_of_both_versions() {
        let h = arc_head(b"http://news.example/a.html 192.0.2.7 20140216050221 text/html 120\n")
            .unwrap();
        assert_eq!(h.uri(), "http://news.example/a.html");
        assert_eq!(h.get("WARC-Date"), Some("2014-02-16T05:02:21Z"));
        assert_eq!(h.get("Content-Type"), Some("text/html"));
        assert_eq!((h.length, h.kind()), (120, "ARC"));
        let h = arc_head(
            b"http://news.example/b 192.0.2.7 20010102030405 text/html 200 XYZ - 0 f.arc 77\n",
        )
        .unwrap();
        assert_eq!((h.uri(), h.length), ("http://news.example/b", 77));
        assert_eq!(h.get("Content-Type"), Some("text/html"));
        let h = arc_head(b"filedesc://x.arc 0.0.0.0 19960923142103 text/plain 76\n").unwrap();
        assert_eq!(h.kind(), "filedesc");
        for bad in [
            &b"A man walks past a damaged building in Aleppo.\n"[..],
            b"http://a 1.2.3.4 notadate text/html 5\n",
            b"http://a 1.2.3.4 20140216050221 text/html many\n",
        ] {
            assert!(arc_head(bad).is_err(), "{}", String::from_utf8_lossy(bad));
        }
    }
}
