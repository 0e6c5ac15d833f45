//! The plain-text reader never panics on any bytes: it gives a document or an error.
//! Decoding is a function of the bytes: decoded again in the encoding it chose, as a
//! stored source is, the same bytes give the same text.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let d = cairn_ingest::decode_text(data);
    assert_eq!(cairn_ingest::decode_as(data, d.encoding).text, d.text);
    if let Ok(doc) = cairn_ingest::document_from_bytes("fuzz:".into(), "fuzz", data.to_vec()) {
        assert_eq!(doc.sha256.len(), 64);
        let _ = cairn_extract::segment(&doc.text);
    }
});
