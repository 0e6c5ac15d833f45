//! The HTML caption reader never panics, every caption's span slices the text it renders
//! to exactly, and the one-pass reader gives the tree walk's captions (`render` and
//! `render_by_tree` agree on every page).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let page = String::from_utf8_lossy(data);
    let (text, segments) = cairn_ingest::html::render(&page);
    for s in &segments {
        assert_eq!(&text[s.span.start..s.span.end], s.text);
    }
    let by_tree = cairn_ingest::html::render_by_tree(&page);
    assert_eq!((text, segments), by_tree, "{page:?}");
});
