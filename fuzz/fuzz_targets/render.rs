//! Format detection and rendering never panic on any bytes, whatever kind a source is
//! said to be, and the spans of what they find stay inside the rendered text. Inputs
//! may stand for long pages (see `expand.rs`).
#![no_main]

use cairn_model::SourceKind;
use libfuzzer_sys::fuzz_target;

mod expand;

fuzz_target!(|data: &[u8]| {
    let page = expand::expand(data);
    let data = &page[..];
    let _ = cairn_ingest::detect(data);
    for kind in [
        SourceKind::Text,
        SourceKind::Html,
        SourceKind::Warc,
        SourceKind::Jsonl,
        SourceKind::Image,
    ] {
        let raw = cairn_ingest::RawSource {
            uri: "fuzz:".into(),
            name: "fuzz".into(),
            kind,
            bytes: data.to_vec(),
            sha256: String::new(),
            origin: Some(r#"{"text_field":"caption"}"#.into()),
        };
        if let Ok(doc) = cairn_ingest::render(raw) {
            for s in doc.segments.unwrap_or_default() {
                assert!(s.span.end <= doc.text.len());
            }
        }
    }
});
