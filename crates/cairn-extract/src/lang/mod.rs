//! The language a caption is written in, so that search, facets and later stages can treat
//! French, Spanish, Arabic or German captions as what they are.

mod cyrillic;

use std::sync::LazyLock;

use rustc_hash::FxHashMap;
use whatlang::{Detector, Lang};

/// The languages news desks file captions in. Limiting the choice to them keeps a caption
/// full of foreign names from being taken for a language no desk writes in.
const DESK_LANGUAGES: &[(Lang, &str)] = &[
    (Lang::Eng, "en"),
    (Lang::Fra, "fr"),
    (Lang::Spa, "es"),
    (Lang::Deu, "de"),
    (Lang::Ara, "ar"),
    (Lang::Por, "pt"),
    (Lang::Ita, "it"),
    (Lang::Nld, "nl"),
    (Lang::Tur, "tr"),
    (Lang::Rus, "ru"),
    (Lang::Ukr, "uk"),
    (Lang::Pol, "pl"),
    (Lang::Pes, "fa"),
    (Lang::Urd, "ur"),
    (Lang::Heb, "he"),
    (Lang::Cmn, "zh"),
    (Lang::Jpn, "ja"),
    (Lang::Kor, "ko"),
];

static DETECTOR: LazyLock<Detector> =
    LazyLock::new(|| Detector::with_allowlist(DESK_LANGUAGES.iter().map(|&(l, _)| l).collect()));

/// Fewer letters than this say too little to tell a language by.
const MIN_LETTERS: usize = 12;

/// The most frequent short words of the Latin-script languages wires write in. A caption is
/// mostly names and numbers, which letter statistics read as any language; its function
/// words are what tell English from French or German.
const FUNCTION_WORDS: &[(&str, &[&str])] = &[
    (
        "en",
        &[
            "the", "of", "and", "in", "on", "at", "a", "an", "is", "are", "was", "were", "to",
            "with", "after", "during", "near", "from", "by", "as", "their", "his", "her", "who",
            "for", "its", "into", "outside", "inside",
        ],
    ),
    (
        "fr",
        &[
            "le", "la", "les", "des", "du", "de", "dans", "et", "à", "au", "aux", "un", "une",
            "sur", "pour", "par", "est", "sont", "lors", "près", "après", "qui", "d", "l", "ont",
            "avec",
        ],
    ),
    (
        "es",
        &[
            "el", "los", "las", "del", "de", "en", "y", "un", "una", "por", "para", "con", "tras",
            "durante", "cerca", "que", "se", "al", "sus", "este",
        ],
    ),
    (
        "de",
        &[
            "der", "die", "das", "den", "dem", "des", "und", "im", "in", "ein", "eine", "einer",
            "mit", "von", "vor", "nach", "bei", "auf", "ist", "sind", "am", "zum", "zur", "nicht",
            "sich", "wird",
        ],
    ),
    (
        "it",
        &[
            "il", "lo", "gli", "della", "del", "nel", "nella", "e", "un", "una", "per", "con",
            "dopo", "durante", "vicino", "di", "che", "sono", "dei", "degli", "delle", "alla",
            "dal", "dalla", "sul", "sulla", "nei", "ha", "è", "tra", "ad",
        ],
    ),
    (
        "pt",
        &[
            "o", "os", "as", "do", "da", "dos", "das", "no", "na", "em", "e", "um", "uma", "com",
            "para", "após", "perto", "que", "ao", "pelo", "pela", "nos", "nas", "foi", "são",
            "durante", "mais",
        ],
    ),
    (
        "tr",
        &[
            "ve",
            "bir",
            "ile",
            "bu",
            "için",
            "olan",
            "sonra",
            "ise",
            "gibi",
            "kadar",
            "daha",
            "olarak",
            "çok",
            "de",
            "da",
            "den",
            "yılında",
            "tarafından",
            "sırasında",
        ],
    ),
    (
        "nl",
        &[
            "de", "het", "een", "van", "in", "en", "op", "met", "na", "bij", "tijdens", "zijn",
            "wordt",
        ],
    ),
];

/// Each function word with the set of languages (bits, in [`FUNCTION_WORDS`] order) it is
/// common in.
static WORD_LANGS: LazyLock<FxHashMap<&'static str, u8>> = LazyLock::new(|| {
    let mut m = FxHashMap::default();
    for (i, (_, words)) in FUNCTION_WORDS.iter().enumerate() {
        for w in *words {
            *m.entry(*w).or_insert(0u8) |= 1 << i;
        }
    }
    m
});

/// Only the opening words are counted: a caption that goes on in a second language (a
/// bilingual agency caption) is of the language it opens in.
const WORDS_COUNTED: usize = 30;

/// The language the function words of the caption's opening point to, when they point to
/// one clearly (its count at least 2, and half as much again as the next one's).
fn by_function_words(text: &str) -> Option<&'static str> {
    let mut counts = [0u32; FUNCTION_WORDS.len()];
    let words = text
        .split(|c: char| !c.is_alphabetic())
        .filter(|w| !w.is_empty())
        .take(WORDS_COUNTED);
    for w in words {
        let bits = if w.bytes().all(|b| b.is_ascii_lowercase()) {
            WORD_LANGS.get(w)
        } else if w.is_ascii() {
            crate::text::with_lowered(w, |l| WORD_LANGS.get(l))
        } else {
            WORD_LANGS.get(w.to_lowercase().as_str())
        };
        if let Some(&bits) = bits {
            for (i, c) in counts.iter_mut().enumerate() {
                *c += u32::from(bits >> i & 1);
            }
        }
    }
    let mut order: Vec<usize> = (0..counts.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(counts[i]));
    let (top, next) = (counts[order[0]], counts[order[1]]);
    (top >= 2 && 2 * top >= 3 * next).then(|| FUNCTION_WORDS[order[0]].0)
}

/// Whether the text is mostly written in Arabic script (an Arabic caption often carries a
/// credit in Latin letters).
fn mostly_arabic_script(text: &str) -> bool {
    // Each Arabic letter takes two bytes outside ASCII: a text with too few such bytes
    // cannot reach the count, and most captions are spared the walk over their letters.
    if text.bytes().filter(|b| !b.is_ascii()).count() < 2 * MIN_LETTERS {
        return false;
    }
    let (mut arabic, mut letters) = (0usize, 0usize);
    for c in text.chars().filter(|c| c.is_alphabetic()) {
        letters += 1;
        arabic += usize::from(is_arabic(c));
    }
    arabic >= MIN_LETTERS && 5 * arabic >= 2 * letters
}

fn is_arabic(c: char) -> bool {
    matches!(c, '\u{0600}'..='\u{06FF}' | '\u{0750}'..='\u{077F}' | '\u{08A0}'..='\u{08FF}')
}

static ARABIC_SCRIPT: LazyLock<Detector> =
    LazyLock::new(|| Detector::with_allowlist(vec![Lang::Ara, Lang::Pes, Lang::Urd]));

/// The ISO 639-1 code of the caption's language, or `None` when the text is too short or
/// in no language of [`DESK_LANGUAGES`].
pub fn detect(text: &str) -> Option<&'static str> {
    if text
        .chars()
        .filter(|c| c.is_alphabetic())
        .take(MIN_LETTERS)
        .count()
        < MIN_LETTERS
    {
        return None;
    }
    if let Some(code) = cyrillic::language(text) {
        return Some(code);
    }
    let lang = if mostly_arabic_script(text) {
        // Only the Arabic letters: the detector would read a Latin credit's script as the
        // caption's.
        let arabic: String = text.chars().filter(|&c| is_arabic(c) || c == ' ').collect();
        ARABIC_SCRIPT.detect_lang(&arabic).unwrap_or(Lang::Ara)
    } else if let Some(code) = by_function_words(text) {
        return Some(code);
    } else {
        // Without function words to go by, letter statistics alone are right only when
        // they are clear: a short caption of names is left without a language.
        DETECTOR.detect(text).filter(|i| i.is_reliable())?.lang()
    };
    DESK_LANGUAGES
        .iter()
        .find(|&&(l, _)| l == lang)
        .map(|&(_, code)| code)
}

#[cfg(test)]
mod tests {
    use super::detect;

    #[test]
    fn wire_languages() {
        let cases = [
            (
                "Residents inspect a house destroyed by shelling in the northern town, on Tuesday. REUTERS/Jane Roe",
                "en",
            ),
            (
                "Des habitants inspectent une maison détruite par les bombardements dans le nord de la ville, mardi. AFP PHOTO / JEAN DUPONT",
                "fr",
            ),
            (
                "Varios vecinos observan una vivienda destruida por los bombardeos en el norte de la ciudad, el martes. EFE/Juan Pérez",
                "es",
            ),
            (
                "Anwohner begutachten ein durch Beschuss zerstörtes Haus im Norden der Stadt am Dienstag. Foto: Hans Meier/dpa",
                "de",
            ),
            (
                "سكان يتفقدون منزلا دمره القصف في شمال المدينة يوم الثلاثاء (أ ف ب)",
                "ar",
            ),
        ];
        for (text, want) in cases {
            assert_eq!(detect(text), Some(want), "{text}");
        }
    }

    #[test]
    fn too_short_to_tell() {
        assert_eq!(detect("N/A"), None);
        assert_eq!(detect(""), None);
    }
}
