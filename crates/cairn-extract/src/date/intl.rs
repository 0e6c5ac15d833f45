//! Dates as French, Spanish, German and Arabic desks write them: each language's month
//! names (Arabic with both the Gregorian and the Syriac names, often side by side as
//! `تموز/يوليو`) and Arabic-Indic or Persian digits. Tried on every caption whatever its
//! language: the forms do not overlap the English ones.

use std::sync::LazyLock;

use aho_corasick::AhoCorasick;
use cairn_model::Precision;
use regex::Regex;

use super::{Found, day_value};

/// A digit of any of the three digit systems captions use.
const D: &str = "[0-9\u{660}-\u{669}\u{6f0}-\u{6f9}]";

const FR_MONTH: &str = "janvier|février|fevrier|mars|avril|mai|juin|juillet|août|aout|septembre|octobre|novembre|décembre|decembre|janv\\.|févr\\.|avr\\.|juil\\.|sept\\.|oct\\.|nov\\.|déc\\.";
const ES_MONTH: &str = "enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|setiembre|octubre|noviembre|diciembre";
const DE_MONTH: &str = "Januar|Jänner|Februar|Feber|März|Maerz|April|Mai|Juni|Juli|August|September|Oktober|November|Dezember|Jan\\.|Feb\\.|Aug\\.|Sept\\.|Okt\\.|Nov\\.|Dez\\.";
/// Gregorian (Egypt, the Gulf), Syriac (the Levant, Iraq) and Maghreb names, with the
/// hamza spellings captions use.
const AR_MONTH: &str = "يناير|فبراير|مارس|أبريل|ابريل|إبريل|مايو|يونيو|يونيه|يوليو|يوليه|أغسطس|اغسطس|سبتمبر|أكتوبر|اكتوبر|نوفمبر|ديسمبر|كانون الثاني|شباط|آذار|اذار|نيسان|أيار|ايار|حزيران|تموز|آب|أيلول|ايلول|تشرين الأول|تشرين الاول|تشرين الثاني|كانون الأول|كانون الاول|جانفي|فيفري|أفريل|افريل|ماي|جوان|جويلية|أوت|نونبر|دجنبر";

/// "le 24 novembre 2016", "1er mai 2019".
static FR_DAY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"(?i)(?-u:\b)(1er|[0-9]{{1,2}})\s+({FR_MONTH})\s+([0-9]{{4}})(?-u:\b)"
    ))
    .unwrap()
});
/// "en mars 2019", "début novembre 2023".
static FR_MONTH_YEAR: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"(?i)(?-u:\b)(?:en|début|fin|mi-)\s*({FR_MONTH})\s+([0-9]{{4}})(?-u:\b)"
    ))
    .unwrap()
});
/// "el 18 de noviembre de 2016", "1º de mayo del 2019".
static ES_DAY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"(?i)(?-u:\b)([0-9]{{1,2}})[º°o]?\s+de\s+({ES_MONTH})(?:\s+del?\s+|,?\s+)([0-9]{{4}})(?-u:\b)"
    ))
    .unwrap()
});
/// "en marzo de 2019".
static ES_MONTH_YEAR: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"(?i)(?-u:\b)({ES_MONTH})\s+del?\s+([0-9]{{4}})(?-u:\b)"
    ))
    .unwrap()
});
/// "am 4. März 2022", "24. November 2016".
static DE_DAY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"(?-u:\b)([0-9]{{1,2}})\.\s*({DE_MONTH})\s+([0-9]{{4}})(?-u:\b)"
    ))
    .unwrap()
});
/// "im März 2022".
static DE_MONTH_YEAR: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"(?-u:\b)(?:im|Im|seit|Seit|Anfang|Ende|Mitte)\s+({DE_MONTH})\s+([0-9]{{4}})(?-u:\b)"
    ))
    .unwrap()
});
/// "24 أبريل 2016", "21 تموز/يوليو 2022", "٢٤ نيسان (أبريل) ٢٠١٦".
static AR_DAY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"(?:^|[^0-9\u{{660}}-\u{{669}}\u{{6f0}}-\u{{6f9}}])({D}{{1,2}})\s*(?:من\s+)?({AR_MONTH})(?:\s*[/(-]\s*(?:{AR_MONTH})\)?)?\s*(?:(?:عام|سنة)\s+)?({D}{{4}})(?:$|[^0-9\u{{660}}-\u{{669}}\u{{6f0}}-\u{{6f9}}])"
    ))
    .unwrap()
});
/// "في نوفمبر 2016", "في شهر آذار/مارس 2019".
static AR_MONTH_YEAR: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"(?:في|خلال|منذ)\s+(?:شهر\s+)?({AR_MONTH})(?:\s*[/(-]\s*(?:{AR_MONTH})\)?)?\s+({D}{{4}})"
    ))
    .unwrap()
});

/// The value of a run of digits of any system.
pub fn digits(s: &str) -> Option<u32> {
    let mut n: u32 = 0;
    for c in s.chars() {
        let d = match c {
            '0'..='9' => c as u32 - '0' as u32,
            '\u{660}'..='\u{669}' => c as u32 - 0x660,
            '\u{6f0}'..='\u{6f9}' => c as u32 - 0x6f0,
            _ => return None,
        };
        n = n.checked_mul(10)?.checked_add(d)?;
    }
    Some(n)
}

fn month_of(name: &str) -> Option<u8> {
    let lower = crate::text::lowered(name.trim_end_matches('.'));
    let n = match &*lower {
        "janvier" | "janv" | "enero" | "januar" | "jänner" | "jan" => 1,
        "février" | "fevrier" | "févr" | "febrero" | "februar" | "feber" | "feb" => 2,
        "mars" | "marzo" | "märz" | "maerz" => 3,
        "avril" | "avr" | "abril" | "april" => 4,
        "mai" | "mayo" => 5,
        "juin" | "junio" | "juni" => 6,
        "juillet" | "juil" | "julio" | "juli" => 7,
        "août" | "aout" | "agosto" | "august" | "aug" => 8,
        "septembre" | "sept" | "septiembre" | "setiembre" | "september" => 9,
        "octobre" | "oct" | "octubre" | "oktober" | "okt" => 10,
        "novembre" | "nov" | "noviembre" | "november" => 11,
        "décembre" | "decembre" | "déc" | "diciembre" | "dezember" | "dez" => 12,
        _ => return arabic_month(name),
    };
    Some(n)
}

fn arabic_month(name: &str) -> Option<u8> {
    let n = match name {
        "يناير" | "كانون الثاني" | "جانفي" => 1,
        "فبراير" | "شباط" | "فيفري" => 2,
        "مارس" | "آذار" | "اذار" => 3,
        "أبريل" | "ابريل" | "إبريل" | "نيسان" | "أفريل" | "افريل" => {
            4
        }
        "مايو" | "أيار" | "ايار" | "ماي" => 5,
        "يونيو" | "يونيه" | "حزيران" | "جوان" => 6,
        "يوليو" | "يوليه" | "تموز" | "جويلية" => 7,
        "أغسطس" | "اغسطس" | "آب" | "أوت" => 8,
        "سبتمبر" | "أيلول" | "ايلول" => 9,
        "أكتوبر" | "اكتوبر" | "تشرين الأول" | "تشرين الاول" => 10,
        "نوفمبر" | "تشرين الثاني" | "نونبر" => 11,
        "ديسمبر" | "كانون الأول" | "كانون الاول" | "دجنبر" => 12,
        _ => return None,
    };
    Some(n)
}

/// The languages, in the order of the patterns' lists below.
const FR: u8 = 1;
const ES: u8 = 2;
const DE: u8 = 4;
const AR: u8 = 8;

/// Month names of each language (German ones that English shares are left out: a
/// German day needs a digit and a full stop before them, checked apart).
const MONTH_WORDS: &[(&str, u8)] = &[
    ("janvier", FR),
    ("février", FR),
    ("fevrier", FR),
    ("mars", FR),
    ("avril", FR),
    ("mai", FR | DE),
    ("juin", FR),
    ("juillet", FR),
    ("août", FR),
    ("aout", FR),
    ("septembre", FR),
    ("octobre", FR),
    ("novembre", FR),
    ("décembre", FR),
    ("decembre", FR),
    ("janv.", FR),
    ("févr.", FR),
    ("avr.", FR),
    ("juil.", FR),
    ("sept.", FR),
    ("oct.", FR),
    ("nov.", FR),
    ("déc.", FR),
    ("enero", ES),
    ("febrero", ES),
    ("marzo", ES),
    ("abril", ES),
    ("mayo", ES),
    ("junio", ES),
    ("julio", ES),
    ("agosto", ES),
    ("septiembre", ES),
    ("setiembre", ES),
    ("octubre", ES),
    ("noviembre", ES),
    ("diciembre", ES),
    ("januar", DE),
    ("jänner", DE),
    ("februar", DE),
    ("feber", DE),
    ("märz", DE),
    ("maerz", DE),
    ("juni", DE),
    ("juli", DE),
    ("oktober", DE),
    ("dezember", DE),
    // Capitals the ASCII case folding of the scan does not reach.
    ("FÉVRIER", FR),
    ("AOÛT", FR),
    ("DÉCEMBRE", FR),
    ("FÉVR.", FR),
    ("DÉC.", FR),
    ("MÄRZ", DE),
    ("JÄNNER", DE),
    ("okt.", DE),
    ("dez.", DE),
];

/// Whether a lower-case word is a French, Spanish or German month's full name (or one
/// of its unaccented spellings), as place reading needs to tell a closing dateline.
pub fn is_month_word(word: &str) -> bool {
    MONTH_WORDS
        .iter()
        .any(|(w, _)| !w.ends_with('.') && *w == word)
}

static MONTH_SCAN: LazyLock<AhoCorasick> = LazyLock::new(|| {
    AhoCorasick::builder()
        .match_kind(aho_corasick::MatchKind::LeftmostLongest)
        .ascii_case_insensitive(true)
        .build(MONTH_WORDS.iter().map(|(w, _)| *w))
        .unwrap()
});

/// Which languages' month names `text` holds as words, so the patterns of the others
/// are not run (an English caption runs none of them, short of a word like "Mars").
pub fn languages(text: &str) -> u8 {
    let b = text.as_bytes();
    let mut found = 0;
    for m in MONTH_SCAN.find_iter(text) {
        let before_ok = m.start() == 0 || !b[m.start() - 1].is_ascii_alphabetic();
        let after_ok = b.get(m.end()).is_none_or(|c| !c.is_ascii_alphabetic());
        if before_ok && after_ok {
            found |= MONTH_WORDS[m.pattern().as_usize()].1;
        }
    }
    if !text.is_ascii() && text.chars().any(|c| ('\u{600}'..='\u{6ff}').contains(&c)) {
        found |= AR;
    }
    // "24. November 2016": German months English shares, after a day and a full stop.
    if DE_SHARED.is_match(text) {
        found |= DE;
    }
    found
}

static DE_SHARED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"[0-9]\.\s*(?:April|August|September|November|Jan\.|Feb\.|Aug\.|Sept\.|Nov\.)")
        .unwrap()
});

/// Every form of a day of the four languages in `text`.
pub fn scan_days(text: &str, langs: u8, out: &mut Vec<Found>) {
    for (lang, re) in [
        (FR, &*FR_DAY),
        (ES, &*ES_DAY),
        (DE, &*DE_DAY),
        (AR, &*AR_DAY),
    ] {
        if langs & lang == 0 {
            continue;
        }
        for c in re.captures_iter(text) {
            let (d, m, y) = (c.get(1).unwrap(), c.get(2).unwrap(), c.get(3).unwrap());
            let day = if d.as_str().eq_ignore_ascii_case("1er") {
                Some(1)
            } else {
                digits(d.as_str())
            };
            let v = match (day, month_of(m.as_str()), digits(y.as_str())) {
                (Some(d), Some(m), Some(y)) => day_value(y as i32, m, d as u8),
                _ => None,
            };
            Found::push_span(out, d.start(), y.end(), v, Precision::Day);
        }
    }
}

/// Every form of a month of the four languages in `text`.
pub fn scan_months(text: &str, langs: u8, out: &mut Vec<Found>) {
    for (lang, re) in [
        (FR, &*FR_MONTH_YEAR),
        (ES, &*ES_MONTH_YEAR),
        (DE, &*DE_MONTH_YEAR),
        (AR, &*AR_MONTH_YEAR),
    ] {
        if langs & lang == 0 {
            continue;
        }
        for c in re.captures_iter(text) {
            let (m, y) = (c.get(1).unwrap(), c.get(2).unwrap());
            let v = match (month_of(m.as_str()), digits(y.as_str())) {
                (Some(m), Some(y)) if (1000..3000).contains(&y) => Some(format!("{y:04}-{m:02}")),
                _ => None,
            };
            Found::push_span(out, m.start(), y.end(), v, Precision::Month);
        }
    }
}
