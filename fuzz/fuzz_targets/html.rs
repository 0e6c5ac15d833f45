//! The HTML caption reader never panics or overflows its stack, every caption's span
//! slices the text it renders to exactly, and the one-pass reader gives the tree walk's
//! captions (`render` and `render_by_tree` agree on every page under the bounds of the
//! work per page). Inputs may stand for long pages (see `expand.rs`).
#![no_main]

use libfuzzer_sys::fuzz_target;

mod expand;

fuzz_target!(|data: &[u8]| {
    let page = expand::expand(data);
    let page = String::from_utf8_lossy(&page);
    let Ok((text, segments)) = cairn_ingest::html::try_render(&page) else {
        // Over a bound: `render` gives nothing, and the tree walk is not asked.
        assert!(cairn_ingest::html::render(&page).1.is_empty());
        return;
    };
    for s in &segments {
        assert_eq!(&text[s.span.start..s.span.end], s.text);
    }
    let by_tree = cairn_ingest::html::render_by_tree(&page);
    assert_eq!((text, segments), by_tree, "{page:?}");
});
