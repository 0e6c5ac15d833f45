//! Extraction never panics, and every span slices to its text, on any input.
#![no_main]

use std::sync::LazyLock;

use cairn_extract::Extractor;
use libfuzzer_sys::fuzz_target;

static EX: LazyLock<Extractor> = LazyLock::new(Extractor::bundled);

fuzz_target!(
    // The bundled gazetteer takes seconds to load in an instrumented build: load it
    // before the first input, so that its time is not counted against that input's
    // timeout.
    init: {
        LazyLock::force(&EX);
    },
    |data: &[u8]| {
        let text = String::from_utf8_lossy(data);
        let r = EX.extract(&text);
        if let Some(c) = &r.credit {
            assert_eq!(c.span.slice(&r.text), Some(c.raw.as_str()));
        }
        if let Some(d) = &r.date {
            assert_eq!(d.span.slice(&r.text), Some(d.text.as_str()));
        }
        for p in &r.places {
            assert_eq!(p.span.slice(&r.text), Some(p.text.as_str()));
        }
    }
);
