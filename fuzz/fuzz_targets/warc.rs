//! The WARC and ARC reader never panics or loops on any bytes, plain or gzip, and gives
//! each record offset at most once, in increasing order.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for gz in [false, true] {
        let mut last: Option<u64> = None;
        cairn_ingest::warc::read_warc(std::io::Cursor::new(data), gz, &mut |item| {
            let offset = match &item {
                cairn_ingest::warc::WarcItem::Response(r) => r.offset,
                cairn_ingest::warc::WarcItem::Skipped { offset, .. } => *offset,
            };
            assert!(offset <= data.len() as u64);
            if let Some(l) = last {
                assert!(offset > l, "offset {offset} after {l}");
            }
            last = Some(offset);
            true
        });
    }
});
