//! The IPTC-IIM and XMP readers and the image containers never panic on any bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = cairn_ingest::image::parse_iim(data);
    let _ = cairn_ingest::image::parse_xmp(data);
    for f in [
        cairn_ingest::Format::Jpeg,
        cairn_ingest::Format::Png,
        cairn_ingest::Format::Tiff,
        cairn_ingest::Format::Webp,
    ] {
        let _ = cairn_ingest::image::read_image(f, data);
    }
});
