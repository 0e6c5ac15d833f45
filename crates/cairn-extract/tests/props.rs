//! Invariants of segmentation and extraction, on arbitrary and caption-like input.

use cairn_extract::{Extractor, segment};
use cairn_model::{Record, Span};
use proptest::prelude::*;
use std::sync::LazyLock;

static EX: LazyLock<Extractor> = LazyLock::new(Extractor::bundled);

fn slices(text: &str, span: Span, want: &str) {
    assert_eq!(span.slice(text), Some(want), "span {span:?} of {text:?}");
}

fn check_spans(r: &Record) {
    let t = &r.text;
    if let Some(c) = &r.credit {
        slices(t, c.span, &c.raw);
    }
    if let Some(d) = &r.date {
        slices(t, d.span, &d.text);
    }
    for p in r.places.iter().chain(r.location.iter()) {
        slices(t, p.span, &p.text);
    }
    for c in r
        .casualties
        .killed
        .iter()
        .chain(r.casualties.injured.iter())
    {
        slices(t, c.span, &c.text);
    }
}

/// Caption-shaped text from real-looking pieces, so the interesting code paths run.
fn caption_like() -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        "A man walks in ",
        "Harasta",
        "Douma",
        "Aleppo",
        ", Syria",
        " on ",
        "November 6, 2016",
        "Nov. 6",
        "2016-11-06",
        ". ",
        "At least four people were killed",
        " and 19 injured",
        " according to the Syrian Observatory for Human Rights",
        "(Photo by Sameer Al-Doumy/AFP Photo)",
        "REUTERS/Khalil Ashawi",
        " via AP",
        "(AP Photo/Ivan Valencia)",
        "“",
        "”",
        "é",
        "ḩ",
        "🙂",
        "\u{0301}",
        " ",
        "al-",
        "Bab al- Nairab",
        "province",
        " of ",
        "dozens",
        "airstrikes",
        "(",
        ")",
        "/",
    ]);
    prop::collection::vec(pieces, 0..40).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn extraction_never_panics_and_spans_slice_on_arbitrary_text(s in "\\PC{0,300}") {
        let r = EX.extract(&s);
        check_spans(&r);
    }

    #[test]
    fn spans_slice_on_caption_like_text(s in caption_like()) {
        let r = EX.extract(&s);
        check_spans(&r);
        // Extraction is a function of the text.
        prop_assert_eq!(&EX.extract(&s), &r);
    }

    #[test]
    fn segments_slice_to_their_text(s in "[a-zA-Zé “”\\n\\t\\r]{0,200}") {
        for seg in segment(&s) {
            let raw = seg.span.slice(&s).unwrap();
            prop_assert_eq!(cairn_model::fold_whitespace(raw), seg.text.clone());
            prop_assert!(!seg.text.is_empty());
        }
    }

    #[test]
    fn folding_is_idempotent(s in "\\PC{0,60}") {
        let f = cairn_gazetteer::fold(&s);
        prop_assert_eq!(cairn_gazetteer::fold(&f), f);
    }
}
