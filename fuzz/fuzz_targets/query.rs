//! The search query parser and filters never panic: any query string gives results or
//! a query error.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;

fn archive() -> &'static cairn_store::Archive {
    static A: OnceLock<(tempfile::TempDir, std::sync::Arc<cairn_store::Archive>)> = OnceLock::new();
    &A.get_or_init(|| {
        let d = tempfile::tempdir().expect("temporary directory");
        let a = cairn_store::Archive::open_writer(d.path())
            .expect("archive")
            .reader();
        (d, a)
    })
    .1
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut parts = text.splitn(2, '\u{0}');
    let query = parts.next().unwrap_or("").to_string();
    let date = parts.next().unwrap_or("").to_string();
    let req = cairn_store::SearchRequest {
        query,
        filters: cairn_store::Filters {
            from: (!date.is_empty()).then(|| date.clone()),
            to: (!date.is_empty()).then_some(date),
            ..Default::default()
        },
        limit: 5,
        facets: true,
        histogram: true,
        geo_zoom: Some(3),
        ..Default::default()
    };
    match archive().search(&req) {
        Ok(_) | Err(cairn_store::Error::Query(_)) => {}
        Err(e) => panic!("not a query error: {e}"),
    }
});
