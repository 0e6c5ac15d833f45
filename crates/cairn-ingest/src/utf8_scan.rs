//! What a byte string's UTF-8 looks like: where it is invalid, and how much of it is
//! valid beyond ASCII. This is the evidence that tells damaged UTF-8 from a legacy
//! encoding.

/// How many invalid offsets a scan keeps to name in a warning.
const NAMED: usize = 8;

/// The invalid sequences and valid multi-byte characters of a byte string.
#[derive(Debug, Default)]
pub(crate) struct Utf8Scan {
    /// The offsets of the first invalid sequences (up to [`NAMED`]).
    first_invalid: Vec<usize>,
    /// How many invalid sequences there are; each becomes one U+FFFD when decoded.
    pub(crate) invalid: usize,
    /// How many valid characters of two to four bytes there are.
    pub(crate) multi_byte: usize,
}

impl Utf8Scan {
    /// Scans `bytes` once.
    pub(crate) fn of(bytes: &[u8]) -> Self {
        let mut scan = Self::default();
        let mut at = 0;
        while at < bytes.len() {
            let rest = &bytes[at..];
            let (valid, skip) = match std::str::from_utf8(rest) {
                Ok(_) => (rest.len(), 0),
                Err(e) => (
                    e.valid_up_to(),
                    e.error_len().unwrap_or(rest.len() - e.valid_up_to()),
                ),
            };
            // In valid UTF-8 every byte from 0xC0 up leads a multi-byte character.
            scan.multi_byte += rest[..valid].iter().filter(|&&b| b >= 0xC0).count();
            if skip > 0 {
                if scan.first_invalid.len() < NAMED {
                    scan.first_invalid.push(at + valid);
                }
                scan.invalid += 1;
            }
            at += valid + skip;
        }
        scan
    }

    /// Whether the bytes are UTF-8 with damage rather than text in another encoding:
    /// they hold multi-byte UTF-8 characters, and no fewer than invalid sequences.
    /// Text in a legacy encoding almost never forms a valid multi-byte sequence, so a
    /// stray byte in a page of accents or Arabic letters cannot tip it; a page with no
    /// multi-byte character at all gives no sign of UTF-8.
    pub(crate) fn says_utf8(&self) -> bool {
        self.multi_byte > 0 && self.invalid <= self.multi_byte
    }

    /// The invalid offsets as a warning names them (`byte 12`, `bytes 12, 40 and 3
    /// more`).
    pub(crate) fn offsets(&self) -> String {
        self.offsets_from(0)
    }

    /// [`Self::offsets`] of bytes that stood `skipped` bytes into the source.
    pub(crate) fn offsets_from(&self, skipped: usize) -> String {
        let named: Vec<String> = self
            .first_invalid
            .iter()
            .map(|o| (o + skipped).to_string())
            .collect();
        let more = self.invalid - named.len();
        match (named.len(), more) {
            (1, 0) => format!("byte {}", named[0]),
            (_, 0) => format!("bytes {}", named.join(", ")),
            _ => format!("bytes {} and {more} more", named.join(", ")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_invalid_sequences_and_multi_byte_characters() {
        let s = Utf8Scan::of("é\u{627}a".as_bytes());
        assert_eq!((s.invalid, s.multi_byte), (0, 2));
        let s = Utf8Scan::of(b"ab\xffcd\xc3\xa9\xe9");
        assert_eq!((s.invalid, s.multi_byte), (2, 1));
        assert_eq!(s.offsets(), "bytes 2, 7");
        assert_eq!(s.offsets_from(3), "bytes 5, 10");
        // A truncated sequence at the end is one invalid sequence.
        let s = Utf8Scan::of(b"abc\xe2\x80");
        assert_eq!((s.invalid, s.offsets()), (1, "byte 3".to_string()));
    }

    #[test]
    fn names_only_the_first_offsets() {
        let s = Utf8Scan::of(&[0xFF; 11]);
        assert_eq!(s.invalid, 11);
        assert_eq!(s.offsets(), "bytes 0, 1, 2, 3, 4, 5, 6, 7 and 3 more");
        assert!(!s.says_utf8());
    }
}
