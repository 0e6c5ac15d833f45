//! What the store's tests share: a source of one caption.

use cairn_model::{Record, SourceKind, Span};
use cairn_store::{NewOccurrence, NewSource};

/// A text source `test:N` of one caption with its record, its exact key `[n; 16]` and
/// the SHA-256 of its text (the same text is the same source).
pub fn one_caption(n: u8, text: &str, record: Record) -> NewSource {
    let bytes = text.as_bytes().to_vec();
    NewSource {
        uri: format!("test:{n}"),
        kind: SourceKind::Text,
        sha256: hex::encode(<sha2::Sha256 as sha2::Digest>::digest(&bytes)),
        encoding: "utf-8".into(),
        text_len: bytes.len(),
        bytes,
        packed: None,
        warnings: vec![],
        origin: None,
        occurrences: vec![NewOccurrence {
            span: Span::new(0, text.len()),
            text: text.into(),
            key: [n; 16],
            record: Some(record),
            packed: None,
        }],
    }
}
