//! Segmentation never panics; segments slice to text whose folded form is theirs;
//! normalisation is idempotent.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for seg in cairn_extract::segment(&text) {
        let raw = seg.span.slice(&text).expect("span on char boundaries");
        assert_eq!(cairn_dedup::fold_whitespace(raw), seg.text);
        let n = cairn_dedup::normalize(&seg.text);
        assert_eq!(cairn_dedup::normalize(&n), n);
    }
});
