//! The HTML caption reader never panics, and every caption's span slices the text it
//! renders to exactly.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let page = String::from_utf8_lossy(data);
    let (text, segments) = cairn_ingest::html::render(&page);
    for s in segments {
        assert_eq!(&text[s.span.start..s.span.end], s.text);
    }
});
