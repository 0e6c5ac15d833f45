//! A GeoNames table, as `cairn gazetteer import` reads one from a dump, never panics:
//! rows of the wrong shape are skipped and counted (the first few named by line), each
//! place is kept once however often its row repeats, and what is written is a zstd
//! stream of lines of the bundle's format (nine tab-separated fields).
#![no_main]

use libfuzzer_sys::fuzz_target;

mod expand;

fuzz_target!(|data: &[u8]| {
    let table = expand::expand(data);
    let mut out = Vec::new();
    let Ok(report) = cairn_gazetteer::import::convert_table(&table[..], &mut out) else {
        return;
    };
    assert!(report.kept + report.duplicates + report.skipped <= report.rows);
    assert!(report.first_skipped.len() as u64 <= report.skipped.min(5));
    let text = zstd::stream::decode_all(&out[..]).expect("a zstd stream");
    let text = String::from_utf8(text).expect("UTF-8 lines");
    assert_eq!(text.lines().count() as u64, report.kept);
    for line in text.lines() {
        assert_eq!(line.split('\t').count(), 9, "{line:?}");
    }
});
