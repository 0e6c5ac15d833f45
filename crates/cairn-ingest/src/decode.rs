//! Decoding bytes to text, and telling text from binary.

use encoding_rs::{Encoding, UTF_8, UTF_16BE, UTF_16LE};

use crate::utf8_scan::Utf8Scan;

/// Decoded text with the encoding used and what went wrong on the way.
#[derive(Debug)]
pub struct Decoded {
    /// The text spans refer to.
    pub text: String,
    /// `utf-8`, `utf-16le`, `utf-16be`, or the WHATWG name of a legacy encoding
    /// (`windows-1252`, `Shift_JIS`...).
    pub encoding: &'static str,
    /// Problems that did not stop decoding.
    pub warnings: Vec<String>,
}

/// The name an encoding is recorded under.
fn name_of(enc: &'static Encoding) -> &'static str {
    if enc == UTF_8 {
        "utf-8"
    } else if enc == UTF_16LE {
        "utf-16le"
    } else if enc == UTF_16BE {
        "utf-16be"
    } else {
        enc.name()
    }
}

/// Decodes a text page: by its byte-order mark (UTF-16 or UTF-8), else as UTF-8 when it
/// is, else in the legacy encoding its bytes look like ([`decode_source`] with nothing
/// declared).
pub fn decode_text(bytes: &[u8]) -> Decoded {
    decode_source(bytes, None, false)
}

/// Decodes a source's bytes in the encoding they are in, found as browsers find it: a
/// byte-order mark; else the charset its transport declared (`declared`: a WARC
/// record's HTTP `Content-Type`); else, for a page (`html`), the charset a `<meta>` of
/// its first 1024 bytes declares; else UTF-8 when the bytes are UTF-8, or UTF-8 with a
/// few invalid sequences among more valid multi-byte characters; else the legacy
/// encoding they look like (detected, with a warning saying so). Invalid sequences
/// become U+FFFD with a warning naming their offsets.
pub fn decode_source(bytes: &[u8], declared: Option<&str>, html: bool) -> Decoded {
    if let Some((enc, bom_len)) = Encoding::for_bom(bytes) {
        return decode_with(enc, &bytes[bom_len..], bom_len, Vec::new());
    }
    let declared = declared
        .and_then(|l| Encoding::for_label(l.trim().as_bytes()))
        .or_else(|| html.then(|| meta_charset(bytes)).flatten());
    if let Some(enc) = declared {
        // A page cannot declare UTF-16 in its own bytes (as browsers read it).
        let enc = if enc == UTF_16LE || enc == UTF_16BE {
            UTF_8
        } else {
            enc.output_encoding()
        };
        return decode_with(enc, bytes, 0, Vec::new());
    }
    if std::str::from_utf8(bytes).is_ok() {
        return decode_with(UTF_8, bytes, 0, Vec::new());
    }
    let scan = Utf8Scan::of(bytes);
    if scan.says_utf8() {
        // A few stray bytes in a page that is otherwise UTF-8 are damage, not a sign of
        // another encoding: reading the page in one would garble every other letter.
        let warning = format!(
            "invalid UTF-8 at {} and no encoding declared; decoded as UTF-8 with \
             replacement characters (U+FFFD), as its {} valid multi-byte sequences outweigh \
             the invalid ones",
            scan.offsets(),
            scan.multi_byte
        );
        return decode_with(UTF_8, bytes, 0, vec![warning]);
    }
    let mut detector = chardetng::EncodingDetector::new();
    detector.feed(bytes, true);
    let enc = detector.guess(None, false);
    let warning = format!(
        "invalid UTF-8 at {} and no encoding declared; decoded as {} (detected)",
        scan.offsets(),
        name_of(enc)
    );
    decode_with(enc, bytes, 0, vec![warning])
}

/// Decodes a source's bytes again as it was decoded when it was stored (`recorded`:
/// the encoding its source row names), so that the text spans count in is the same
/// whatever decoding later versions would choose.
pub fn decode_as(bytes: &[u8], recorded: &str) -> Decoded {
    let Some(enc) = Encoding::for_label(recorded.as_bytes()) else {
        return decode_text(bytes);
    };
    let bom = Encoding::for_bom(bytes)
        .filter(|(b, _)| *b == enc)
        .map_or(0, |(_, n)| n);
    decode_with(enc, &bytes[bom..], bom, Vec::new())
}

/// Decodes `body` (the bytes after a byte-order mark of `skipped` bytes) in `enc`.
fn decode_with(
    enc: &'static Encoding,
    body: &[u8],
    skipped: usize,
    mut warnings: Vec<String>,
) -> Decoded {
    let text = if enc == UTF_8 {
        match std::str::from_utf8(body) {
            Ok(s) => s.to_owned(),
            Err(_) => {
                // A warning already made names the offsets; the same bytes need no second.
                if warnings.is_empty() {
                    warnings.push(format!(
                        "invalid UTF-8 at {}; decoded with replacement characters (U+FFFD)",
                        Utf8Scan::of(body).offsets_from(skipped)
                    ));
                }
                String::from_utf8_lossy(body).into_owned()
            }
        }
    } else {
        let (text, had_errors) = enc.decode_without_bom_handling(body);
        if had_errors {
            warnings.push(format!("invalid {} sequences replaced", name_of(enc)));
        }
        text.into_owned()
    };
    Decoded {
        text,
        encoding: name_of(enc),
        warnings,
    }
}

/// The encoding a `<meta charset>` or `<meta http-equiv="Content-Type" content="...;
/// charset=...">` in the first 1024 bytes of a page declares, if one does.
fn meta_charset(bytes: &[u8]) -> Option<&'static Encoding> {
    let head = &bytes[..bytes.len().min(1024)];
    let lower: Vec<u8> = head.to_ascii_lowercase();
    let mut at = 0;
    while let Some(i) = find(&lower[at..], b"<meta") {
        let start = at + i + 5;
        let end = lower[start..]
            .iter()
            .position(|&b| b == b'>')
            .map_or(lower.len(), |e| start + e);
        let tag = &lower[start..end];
        if let Some(c) = find(tag, b"charset") {
            let rest = &tag[c + 7..];
            let rest = rest.trim_ascii_start();
            if let Some(rest) = rest.strip_prefix(b"=") {
                let rest = rest.trim_ascii_start();
                let rest = rest
                    .strip_prefix(b"\"")
                    .or_else(|| rest.strip_prefix(b"'"))
                    .unwrap_or(rest);
                let n = rest
                    .iter()
                    .position(|&b| {
                        matches!(b, b'"' | b'\'' | b';' | b'/' | b'>') || b.is_ascii_whitespace()
                    })
                    .unwrap_or(rest.len());
                if let Some(enc) = Encoding::for_label(&rest[..n]) {
                    return Some(enc);
                }
            }
        }
        at = end;
    }
    None
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// How many first bytes [`sniff_binary`] judges.
pub const SNIFF_BYTES: usize = 8192;

/// Says what a byte string looks like when it is not text, or `None` for text.
///
/// Text is recognised by the absence of NUL bytes and of most C0 control characters in
/// its first 8 KiB (a UTF-16 page with a byte-order mark counts as text).
pub fn sniff_binary(bytes: &[u8]) -> Option<String> {
    const MAGIC: &[(&[u8], &str)] = &[
        (b"\xFF\xD8\xFF", "a JPEG image"),
        (b"\x89PNG\r\n\x1a\n", "a PNG image"),
        (b"GIF8", "a GIF image"),
        (b"%PDF", "a PDF document"),
        (b"PK\x03\x04", "a ZIP archive"),
        (b"\x1f\x8b", "gzip-compressed data"),
        (b"\x28\xb5\x2f\xfd", "zstd-compressed data"),
        (b"\x7fELF", "an ELF executable"),
        (b"II*\x00", "a TIFF image"),
        (b"MM\x00*", "a TIFF image"),
        (b"SQLite format 3\x00", "an SQLite database"),
    ];
    for (magic, what) in MAGIC {
        if bytes.starts_with(magic) {
            return Some((*what).to_string());
        }
    }
    if encoding_rs::Encoding::for_bom(bytes).is_some() {
        return None;
    }
    let head = &bytes[..bytes.len().min(SNIFF_BYTES)];
    let controls = head
        .iter()
        .filter(|&&b| b == 0 || (b < 0x20 && !matches!(b, b'\n' | b'\r' | b'\t' | 0x0c)))
        .count();
    if head.contains(&0) || controls * 20 > head.len().max(1) {
        return Some(format!(
            "binary data: {controls} control bytes in the first {} bytes",
            head.len()
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_with_bom_decodes() {
        let mut b = vec![0xFF, 0xFE];
        for u in "Douma, Syria".encode_utf16() {
            b.extend_from_slice(&u.to_le_bytes());
        }
        assert_eq!(sniff_binary(&b), None);
        let d = decode_text(&b);
        assert_eq!(d.text, "Douma, Syria");
        assert_eq!(d.encoding, "utf-16le");
    }

    #[test]
    fn declared_and_detected_legacy_encodings_decode() {
        let page = b"<html><head><meta charset=\"windows-1252\"></head><p>Jos\xe9 Mu\xf1oz</p>";
        let d = decode_source(page, None, true);
        assert!(d.text.contains("Jos\u{e9} Mu\u{f1}oz"), "{}", d.text);
        assert_eq!((d.encoding, d.warnings.len()), ("windows-1252", 0));
        let equiv =
            b"<meta http-equiv=Content-Type content='text/html; charset=ISO-8859-1'>Mu\xf1oz";
        assert_eq!(decode_source(equiv, None, true).encoding, "windows-1252");
        // The transport's charset comes before the page's own.
        let koi = decode_source(b"<meta charset=utf-8>\xf0\xd2\xc9", Some("koi8-r"), true);
        assert_eq!(koi.encoding, "KOI8-R");
        let text = "Le pr\u{e9}sident fran\u{e7}ais a visit\u{e9} la r\u{e9}gion touch\u{e9}e \
                    par les inondations \u{e0} Nice, en France, le 3 octobre.";
        let (latin, _, _) = encoding_rs::WINDOWS_1252.encode(text);
        let d = decode_text(&latin);
        assert_eq!(d.text, text);
        assert_eq!(d.encoding, "windows-1252");
        assert!(d.warnings[0].contains("invalid UTF-8") && d.warnings[0].contains("detected"));
        // Recorded encodings decode the same bytes the same way again.
        assert_eq!(decode_as(&latin, "windows-1252").text, text);
        assert!(decode_as(&latin, "utf-8").text.contains('\u{FFFD}'));
    }

    /// A page of our own in French and Arabic, in UTF-8, with one byte of another
    /// encoding (a windows-1252 apostrophe) in its middle.
    fn utf8_with_a_stray_byte(html: bool) -> Vec<u8> {
        let (head, tail) = if html {
            ("<html><body><figcaption>", "</figcaption></body></html>")
        } else {
            ("", "\n")
        };
        let mut b = Vec::new();
        b.extend_from_slice(head.as_bytes());
        b.extend_from_slice("L\u{e9}cole du quartier a rouvert \u{e0} Tripoli".as_bytes());
        b.push(0x92);
        b.extend_from_slice(" \u{627}\u{644}\u{645}\u{62f}\u{631}\u{633}\u{629}.".as_bytes());
        b.extend_from_slice(tail.as_bytes());
        b
    }

    #[test]
    fn utf8_with_a_stray_byte_stays_utf8() {
        for html in [false, true] {
            let bytes = utf8_with_a_stray_byte(html);
            let at = bytes.iter().position(|&b| b == 0x92).unwrap();
            let d = decode_source(&bytes, None, html);
            assert_eq!(d.encoding, "utf-8", "html: {html}");
            assert!(d.text.contains("L\u{e9}cole"), "{}", d.text);
            assert!(
                d.text.contains("Tripoli\u{FFFD} \u{627}\u{644}\u{645}"),
                "{}",
                d.text
            );
            assert_eq!(d.warnings.len(), 1, "{:?}", d.warnings);
            assert!(
                d.warnings[0].contains(&format!("at byte {at} ")),
                "{:?}",
                d.warnings
            );
            // Stored and read again by its recorded encoding, it gives the same text.
            assert_eq!(decode_as(&bytes, d.encoding).text, d.text);
        }
    }

    #[test]
    fn many_invalid_sequences_are_read_as_a_legacy_encoding() {
        // One accidental valid sequence does not make a windows-1252 text UTF-8.
        let text = "Des \u{e9}l\u{e8}ves \u{e9}vacu\u{e9}s pr\u{e8}s de l\u{e9}glise, \
                    d\u{e9}j\u{e0} fran\u{e7}ais, \u{c3}\u{a9}";
        let (latin, _, _) = encoding_rs::WINDOWS_1252.encode(text);
        assert!(Utf8Scan::of(&latin).multi_byte == 1);
        let d = decode_text(&latin);
        assert_eq!((d.encoding, d.text.as_str()), ("windows-1252", text));
    }

    #[test]
    fn a_declared_utf8_page_names_every_invalid_offset() {
        let d = decode_source(b"<meta charset=utf-8>a\xffb\xfe", None, true);
        assert_eq!(d.encoding, "utf-8");
        assert!(d.warnings[0].contains("bytes 21, 23"), "{:?}", d.warnings);
    }

    #[test]
    fn utf8_bom_is_dropped() {
        assert_eq!(decode_text(b"\xEF\xBB\xBFabc").text, "abc");
    }

    #[test]
    fn text_is_not_binary() {
        assert_eq!(sniff_binary("A man, “quoted” — é\n\n".as_bytes()), None);
        assert!(
            sniff_binary(b"\xFF\xD8\xFF\xE0junk")
                .unwrap()
                .contains("JPEG")
        );
    }
}
