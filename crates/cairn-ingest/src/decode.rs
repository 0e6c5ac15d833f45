//! Decoding bytes to text, and telling text from binary.

/// Decoded text with the encoding used and what went wrong on the way.
#[derive(Debug)]
pub struct Decoded {
    /// The text spans refer to.
    pub text: String,
    /// `utf-8`, `utf-16le` or `utf-16be`.
    pub encoding: &'static str,
    /// Problems that did not stop decoding.
    pub warnings: Vec<String>,
}

/// Decodes a page: UTF-16 when it starts with a UTF-16 byte-order mark, UTF-8 otherwise
/// (a UTF-8 BOM is dropped). Invalid sequences become U+FFFD with a warning saying where
/// the first one is.
pub fn decode_text(bytes: &[u8]) -> Decoded {
    let mut warnings = Vec::new();
    if let Some((enc, bom_len)) = encoding_rs::Encoding::for_bom(bytes) {
        if enc != encoding_rs::UTF_8 {
            let (text, had_errors) = enc.decode_without_bom_handling(&bytes[bom_len..]);
            if had_errors {
                warnings.push(format!("invalid {} sequences replaced", enc.name()));
            }
            let encoding = if enc == encoding_rs::UTF_16BE {
                "utf-16be"
            } else {
                "utf-16le"
            };
            return Decoded {
                text: text.into_owned(),
                encoding,
                warnings,
            };
        }
    }
    let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let text = match std::str::from_utf8(body) {
        Ok(s) => s.to_owned(),
        Err(e) => {
            warnings.push(format!(
                "invalid UTF-8 at byte {}; decoded with replacement characters (U+FFFD)",
                e.valid_up_to() + (bytes.len() - body.len())
            ));
            String::from_utf8_lossy(body).into_owned()
        }
    };
    Decoded {
        text,
        encoding: "utf-8",
        warnings,
    }
}

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
    let head = &bytes[..bytes.len().min(8192)];
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
