//! Invariants of the normalised text that exact deduplication compares.

use cairn_dedup::{normalize, normalize_by_definition};
use proptest::prelude::*;

/// Text with what normalisation folds: typographic quotes and dashes, odd spaces,
/// invisible characters, combining marks, backticks, ASCII whitespace of every kind.
fn caption_chars() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            6 => proptest::char::range('a', 'z'),
            1 => Just(' '),
            1 => prop::sample::select(vec![
                '\t', '\n', '\r', '\u{0B}', '\u{0C}', '`', '\u{00A0}', '\u{2009}', '\u{3000}',
                '\u{201C}', '\u{201D}', '\u{2019}', '\u{2014}', '\u{2026}', '\u{200B}',
                '\u{00AD}', '\u{0301}', '\u{0308}', 'é', 'Å', '\u{212B}', '\u{FB01}',
                '\u{1E9B}', '\u{2002}', '\u{FEFF}', 'ı',
            ]),
        ],
        0..60,
    )
    .prop_map(|cs| cs.into_iter().collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn normalising_twice_changes_nothing(s in caption_chars()) {
        let once = normalize(&s);
        prop_assert_eq!(normalize(&once), once);
    }

    #[test]
    fn shortcuts_agree_with_the_definition(s in caption_chars()) {
        prop_assert_eq!(normalize(&s), normalize_by_definition(&s));
    }

    #[test]
    fn any_text_agrees_with_the_definition(s in "\\PC{0,80}") {
        prop_assert_eq!(normalize(&s), normalize_by_definition(&s));
        let once = normalize(&s);
        prop_assert_eq!(normalize(&once), once);
    }
}

#[test]
fn ascii_whitespace_and_backticks_fold() {
    assert_eq!(
        normalize("  A `quote`\u{0B}and\ttabs \r\n"),
        "A 'quote' and tabs"
    );
    assert_eq!(normalize(""), "");
}
