//! Counts as written: digits of any system with thousands separators, and number words
//! of the five languages. Vague words ("scores", "hundreds", "des centaines") are no
//! figure.

use crate::text::{lowered, parse_number};

/// Number words of French, Spanish, German and Arabic, with their low value and whether
/// they are open-ended ("dozens" is at least 24).
const WORDS: &[(&str, u32, bool)] = &[
    // French
    ("deux", 2, false),
    ("trois", 3, false),
    ("quatre", 4, false),
    ("cinq", 5, false),
    ("six", 6, false),
    ("sept", 7, false),
    ("huit", 8, false),
    ("neuf", 9, false),
    ("dix", 10, false),
    ("onze", 11, false),
    ("douze", 12, false),
    ("treize", 13, false),
    ("quatorze", 14, false),
    ("quinze", 15, false),
    ("seize", 16, false),
    ("vingt", 20, false),
    ("trente", 30, false),
    ("quarante", 40, false),
    ("cinquante", 50, false),
    ("soixante", 60, false),
    ("cent", 100, false),
    ("une douzaine", 12, false),
    ("une dizaine", 10, true),
    ("une vingtaine", 20, true),
    ("une centaine", 100, true),
    ("des dizaines", 24, true),
    // Spanish
    ("dos", 2, false),
    ("tres", 3, false),
    ("cuatro", 4, false),
    ("cinco", 5, false),
    ("seis", 6, false),
    ("siete", 7, false),
    ("ocho", 8, false),
    ("nueve", 9, false),
    ("diez", 10, false),
    ("once", 11, false),
    ("doce", 12, false),
    ("trece", 13, false),
    ("catorce", 14, false),
    ("quince", 15, false),
    ("veinte", 20, false),
    ("treinta", 30, false),
    ("cuarenta", 40, false),
    ("cincuenta", 50, false),
    ("cien", 100, false),
    ("una docena", 12, false),
    ("una decena", 10, true),
    ("decenas", 24, true),
    // German
    ("zwei", 2, false),
    ("drei", 3, false),
    ("vier", 4, false),
    ("fünf", 5, false),
    ("sechs", 6, false),
    ("sieben", 7, false),
    ("acht", 8, false),
    ("neun", 9, false),
    ("zehn", 10, false),
    ("elf", 11, false),
    ("zwölf", 12, false),
    ("zwanzig", 20, false),
    ("dreißig", 30, false),
    ("vierzig", 40, false),
    ("fünfzig", 50, false),
    ("hundert", 100, false),
    ("ein dutzend", 12, false),
    ("dutzende", 24, true),
    // Arabic
    ("اثنين", 2, false),
    ("اثنان", 2, false),
    ("ثلاثة", 3, false),
    ("ثلاث", 3, false),
    ("أربعة", 4, false),
    ("أربع", 4, false),
    ("خمسة", 5, false),
    ("خمس", 5, false),
    ("ستة", 6, false),
    ("ست", 6, false),
    ("سبعة", 7, false),
    ("سبع", 7, false),
    ("ثمانية", 8, false),
    ("ثماني", 8, false),
    ("تسعة", 9, false),
    ("تسع", 9, false),
    ("عشرة", 10, false),
    ("عشر", 10, false),
    ("العشرات", 24, true),
    ("عشرات", 24, true),
];

/// The value of a digit of any of the three systems captions use.
fn digit(c: char) -> Option<u32> {
    match c {
        '0'..='9' => Some(c as u32 - '0' as u32),
        '\u{660}'..='\u{669}' => Some(c as u32 - 0x660),
        '\u{6f0}'..='\u{6f9}' => Some(c as u32 - 0x6f0),
        _ => None,
    }
}

/// Digits with thousands separators ("2,000", "2.000", "1 400", "١٬٢٠٠").
fn digits(s: &str) -> Option<u32> {
    let mut n: u32 = 0;
    let mut any = false;
    for c in s.chars() {
        if let Some(d) = digit(c) {
            n = n.checked_mul(10)?.checked_add(d)?;
            any = true;
        } else if !matches!(c, ',' | '.' | ' ' | '\u{a0}' | '\u{202f}' | '\u{66c}') {
            return None;
        }
    }
    any.then_some(n)
}

/// Parses a count: its low value and whether it is open-ended.
pub fn parse_count(num: &str) -> Option<(u32, bool)> {
    let folded = num.split_whitespace().collect::<Vec<_>>().join(" ");
    if let Some(n) = digits(&folded) {
        return Some((n, false));
    }
    let lower = lowered(&folded);
    if let Some(&(_, n, open)) = WORDS.iter().find(|(w, _, _)| *w == lower) {
        return Some((n, open));
    }
    if let Some(&(_, n, open)) = super::desks::WORDS.iter().find(|(w, _, _)| *w == lower) {
        return Some((n, open));
    }
    if let Some(n) = super::desks::thousands(&folded) {
        return Some((n, false));
    }
    if matches!(&*lower, "scores" | "hundreds" | "thousands" | "several") {
        return None;
    }
    parse_number(&folded)
}

/// Words that end the noun phrase of a count: conjunctions ("12 people and wounded
/// 30"), relative pronouns ("73 years who died") and units of time; and superlatives,
/// which pick one among others rather than count them ("one of the most seriously
/// injured").
pub fn ends_noun_phrase(w: &str) -> bool {
    matches!(
        &*lowered(w),
        "most"
            | "and"
            | "or"
            | "but"
            | "while"
            | "where"
            | "who"
            | "which"
            | "that"
            | "whose"
            | "when"
            | "years"
            | "year"
            | "days"
            | "months"
            | "weeks"
            | "hours"
            | "et"
            | "ou"
            | "mais"
            | "qui"
            | "ans"
            | "y"
            | "o"
            | "pero"
            | "que"
            | "quien"
            | "años"
            | "und"
            | "oder"
            | "aber"
            | "die"
            | "der"
            | "jahre"
            | "jahren"
    )
}

/// Hedges that give only an upper bound ("nearly 200"): such a count has no low value
/// and is not reported.
pub fn is_upper_bound(hedge: &str) -> bool {
    matches!(
        hedge,
        "nearly"
            | "almost"
            | "up to"
            | "as many as"
            | "près de"
            | "jusqu'à"
            | "casi"
            | "cerca de"
            | "hasta"
            | "fast"
            | "knapp"
            | "bis zu"
    )
}
