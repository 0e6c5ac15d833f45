//! The plain-text reader never panics on any bytes: it gives a document or an error.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(doc) = cairn_ingest::document_from_bytes("fuzz:".into(), "fuzz", data.to_vec()) {
        assert_eq!(doc.sha256.len(), 64);
        let _ = cairn_extract::segment(&doc.text);
    }
});
