//! What a source is, from its first bytes (never from its name alone).

/// A format recognised by content.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// gzip-compressed (decompressed, then detected again).
    Gzip,
    /// zstd-compressed.
    Zstd,
    /// A WARC file (ISO 28500).
    Warc,
    /// An ARC file (the Internet Archive's format before WARC): its first record is the
    /// `filedesc://` version block.
    Arc,
    /// An HTML page.
    Html,
    /// JSON Lines: one object per line.
    Jsonl,
    /// A JPEG image.
    Jpeg,
    /// A PNG image.
    Png,
    /// A TIFF image.
    Tiff,
    /// A WebP image.
    Webp,
    /// Plain text.
    Text,
}

impl Format {
    /// Whether the format is an image cairn reads embedded metadata from.
    pub fn is_image(self) -> bool {
        matches!(
            self,
            Format::Jpeg | Format::Png | Format::Tiff | Format::Webp
        )
    }
}

const HTML_MARKS: [&str; 11] = [
    "<!doctype html",
    "<html",
    "<head",
    "<body",
    "<meta",
    "<title",
    "<figure",
    "<div",
    "<p>",
    "<img",
    "<!--",
];

/// Detects the format of a source from its first bytes (a kilobyte or more is best).
pub fn detect(head: &[u8]) -> Format {
    if head.starts_with(&[0x1f, 0x8b]) {
        return Format::Gzip;
    }
    if head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
        return Format::Zstd;
    }
    if head.starts_with(&[0xff, 0xd8, 0xff]) {
        return Format::Jpeg;
    }
    if head.starts_with(b"\x89PNG\r\n\x1a\n") {
        return Format::Png;
    }
    if head.starts_with(b"II*\0") || head.starts_with(b"MM\0*") {
        return Format::Tiff;
    }
    if head.len() >= 12 && head.starts_with(b"RIFF") && &head[8..12] == b"WEBP" {
        return Format::Webp;
    }
    if head.starts_with(b"WARC/") {
        return Format::Warc;
    }
    if head.starts_with(b"filedesc://") {
        return Format::Arc;
    }
    let body = head.strip_prefix(b"\xef\xbb\xbf").unwrap_or(head);
    let start = body
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(body.len());
    let body = &body[start..];
    if body.first() == Some(&b'<') {
        let lower: String = String::from_utf8_lossy(&body[..body.len().min(2048)]).to_lowercase();
        if HTML_MARKS.iter().any(|m| lower.contains(m)) {
            return Format::Html;
        }
    }
    if body.first() == Some(&b'{') {
        let line = body.split(|&b| b == b'\n').next().unwrap_or(body);
        let complete = body.contains(&b'\n') || body.len() < head.len().max(1);
        if !complete
            || serde_json::from_slice::<serde_json::Value>(line)
                .map(|v| v.is_object())
                .unwrap_or(false)
        {
            return Format::Jsonl;
        }
    }
    Format::Text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_by_content() {
        assert_eq!(detect(&[0x1f, 0x8b, 8, 0]), Format::Gzip);
        assert_eq!(detect(b"WARC/1.1\r\nWARC-Type: response"), Format::Warc);
        assert_eq!(
            detect(b"filedesc://crawl.arc 0.0.0.0 20140216050221 text/plain 70\n1 0 Ex\n"),
            Format::Arc
        );
        assert_eq!(detect(b"filedesc is a word"), Format::Text);
        assert_eq!(detect(b"  <!DOCTYPE html><html>"), Format::Html);
        assert_eq!(detect(b"<figure><img src=a></figure>"), Format::Html);
        assert_eq!(
            detect(b"{\"caption\": \"x\"}\n{\"caption\": \"y\"}\n"),
            Format::Jsonl
        );
        assert_eq!(detect(b"{not json at all}\n"), Format::Text);
        assert_eq!(detect(b"A man walks in Homs.\n\nAnother."), Format::Text);
        assert_eq!(detect(b"<3 this photo"), Format::Text);
        assert_eq!(detect(&[0xff, 0xd8, 0xff, 0xe0]), Format::Jpeg);
        assert_eq!(detect(b"II*\0\x08\0\0\0"), Format::Tiff);
    }
}
