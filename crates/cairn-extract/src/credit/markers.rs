//! The words that introduce a credit (`Photo:`, `Credit:`, `©`, `تصوير:`, `Фото:`, `Foto di`,
//! `FOTOĞRAFLAR:`), found anywhere
//! or stripped where a piece begins.

use std::sync::LazyLock;

use aho_corasick::AhoCorasick;
use regex::Regex;

/// Words that introduce a credit.
const MARKERS: &str = r"(?i)(?:(?-u:\b)(?:image|photo|pool photo)\s*credits?(?:\s*should read|\s*:)?|(?-u:\b)credits?\s*(?::|-|…|\.\.\.)|(?-u:\b)source\s*:|(?-u:\b)image\s+source\s*,|(?-u:\b)photo(?:graph)?s?\s*(?::|\|)|(?-i:Photograph\s*:)|(?-u:\b)pictures?\s*:|(?-u:\b)images?\s*(?:by\s*)?:|(?-u:\b)fotos?\s*:|(?-u:\b)courtesy\s*:|(?-u:\b)cr[ée]dit(?:s|o|os)?(?:\s+(?:photos?|fotos?))?\s*:|(?-u:\b)fotograf[íi]as?\s*:|(?-u:\b)imagen(?:es)?\s*:|(?-u:\b)photographer\s*:|(?-u:\b)credit\s*,|صدر الصورة\s*،?|(?-u:\b)quelle\s*:|(?:ال)?صورة\s*:|(?-u:\b)bild\s*:|©|\(c\)|تصوير\s*:?|المصدر\s*:|(?-u:\b)foto\s+(?:di|de|by)\s|(?-u:\b)fotoğraf(?:lar)?\s*:|фото(?:графия)?\s*(?::|\||–|—)|(?:автор(?:ка)?\s+)?фото\s*(?:,|–|—|-)|автор(?:ка)?\s+фото\s|источник\s*:|джерело\s*:|копірайт\s+зображення|(?:^|[\s(/])фото\s|📷)\s*";

pub static MARKER: LazyLock<Regex> = LazyLock::new(|| Regex::new(MARKERS).unwrap());

/// A word every marker holds: most captions have none, and skip the marker scan.
pub static MARKER_WORDS: LazyLock<AhoCorasick> = LazyLock::new(|| {
    AhoCorasick::builder()
        .ascii_case_insensitive(true)
        .build([
            "photo",
            "credit",
            "source",
            "picture",
            "image",
            "foto",
            "bild",
            "courtesy",
            "crédit",
            "fotograf",
            "quelle",
            "صورة",
            "©",
            "(c)",
            "تصوير",
            "المصدر",
            "фото",
            "Фото",
            "ФОТО",
            "автор",
            "Автор",
            "источник",
            "Источник",
            "джерело",
            "Джерело",
            "Копірайт",
            "📷",
        ])
        .unwrap()
});

/// The same, only where the text starts (no scan of a whole piece).
static MARKER_AT_START: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(&format!("^{MARKERS}")).unwrap());

/// Strips markers at the start of `s`; returns how many bytes they took.
pub fn strip_markers(s: &str) -> usize {
    // Every marker opens on one of these ASCII letters (in either case) or outside ASCII:
    // text opening on another ASCII byte holds no marker at its start, and is spared
    // the scan for marker words below.
    if s.as_bytes().first().is_none_or(|&b| {
        b.is_ascii()
            && !matches!(
                b.to_ascii_lowercase(),
                b'i' | b'p' | b'c' | b's' | b'f' | b'q' | b'b' | b'('
            )
    }) {
        return 0;
    }
    if !MARKER_WORDS.is_match(s) {
        return 0;
    }
    let mut off = 0;
    while let Some(m) = MARKER_AT_START.find(&s[off..]) {
        if m.end() == 0 {
            break;
        }
        off += m.end();
    }
    off
}
