//! Dates: every written form wire captions use, and the choice of the scene's date.

use std::sync::LazyLock;

use cairn_model::{DateValue, Precision, Span};
use regex::Regex;

const MONTH: &str = r"(January|February|March|April|May|June|July|August|September|October|November|December|Jan\.?|Feb\.?|Mar\.?|Apr\.?|Jun\.?|Jul\.?|Aug\.?|Sept\.?|Sep\.?|Oct\.?|Nov\.?|Dec\.?)";

static MDY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"\b{MONTH}\s+([0-9]{{1,2}})(?:st|nd|rd|th)?,?\s+([0-9]{{4}})\b"
    ))
    .unwrap()
});
static DMY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"\b([0-9]{{1,2}})(?:st|nd|rd|th)?\s+{MONTH},?\s+([0-9]{{4}})\b"
    ))
    .unwrap()
});
static ISO: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\b([0-9]{4})-([0-9]{2})-([0-9]{2})\b").unwrap());
static NUMERIC: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\b([0-9]{1,2})/([0-9]{1,2})/([0-9]{4})\b").unwrap());
static MY: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(&format!(r"\b{MONTH},?\s+([0-9]{{4}})\b")).unwrap());
static YEAR: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?:\b(?:in|during)\s+|\s-\s*|^)((?:19|20)[0-9]{2})\b").unwrap());

fn month_number(m: &str) -> Option<u8> {
    let m = crate::text::lowered(m.trim_end_matches('.'));
    let n = match &m[..m.len().min(3)] {
        "jan" => 1,
        "feb" => 2,
        "mar" => 3,
        "apr" => 4,
        "may" => 5,
        "jun" => 6,
        "jul" => 7,
        "aug" => 8,
        "sep" => 9,
        "oct" => 10,
        "nov" => 11,
        "dec" => 12,
        _ => return None,
    };
    Some(n)
}

fn day_value(y: i32, m: u8, d: u8) -> Option<String> {
    let date = jiff::civil::Date::new(
        i16::try_from(y).ok()?,
        i8::try_from(m).ok()?,
        i8::try_from(d).ok()?,
    )
    .ok()?;
    Some(date.to_string())
}

/// Whether `text` has four ASCII digits in a row: every form [`find_all`] reads holds a
/// year written so (the patterns take ASCII digits only: a year in other digits would
/// not parse), so text without such a run has no date and the six searches are skipped.
fn has_year_digits(text: &str) -> bool {
    let mut run = 0;
    for b in text.bytes() {
        if b.is_ascii_digit() {
            run += 1;
            if run == 4 {
                return true;
            }
        } else {
            run = 0;
        }
    }
    false
}

/// Every date written in `text`, in text order, without overlaps (the most precise
/// reading of a stretch of text wins).
pub fn find_all(text: &str) -> Vec<DateValue> {
    if !has_year_digits(text) {
        return Vec::new();
    }
    scan(text)
}

/// [`find_all`] without the check for a year's digits.
fn scan(text: &str) -> Vec<DateValue> {
    let mut out: Vec<DateValue> = Vec::new();
    let push = |out: &mut Vec<DateValue>, span: Span, value: String, precision: Precision| {
        if out
            .iter()
            .any(|d| span.start < d.span.end && d.span.start < span.end)
        {
            return;
        }
        out.push(DateValue {
            value,
            precision,
            text: text[span.start..span.end].to_string(),
            span,
        });
    };
    for c in MDY.captures_iter(text) {
        let (m, d, y) = (&c[1], &c[2], &c[3]);
        if let (Some(mn), Ok(d), Ok(y)) = (month_number(m), d.parse::<u8>(), y.parse::<i32>()) {
            if let Some(v) = day_value(y, mn, d) {
                let g = c.get(0).unwrap();
                push(&mut out, Span::new(g.start(), g.end()), v, Precision::Day);
            }
        }
    }
    for c in DMY.captures_iter(text) {
        let (d, m, y) = (&c[1], &c[2], &c[3]);
        if let (Some(mn), Ok(d), Ok(y)) = (month_number(m), d.parse::<u8>(), y.parse::<i32>()) {
            if let Some(v) = day_value(y, mn, d) {
                let g = c.get(0).unwrap();
                push(&mut out, Span::new(g.start(), g.end()), v, Precision::Day);
            }
        }
    }
    for c in ISO.captures_iter(text) {
        if let (Ok(y), Ok(m), Ok(d)) = (c[1].parse::<i32>(), c[2].parse::<u8>(), c[3].parse::<u8>())
        {
            if let Some(v) = day_value(y, m, d) {
                let g = c.get(0).unwrap();
                push(&mut out, Span::new(g.start(), g.end()), v, Precision::Day);
            }
        }
    }
    for c in NUMERIC.captures_iter(text) {
        if let (Ok(m), Ok(d), Ok(y)) = (c[1].parse::<u8>(), c[2].parse::<u8>(), c[3].parse::<i32>())
        {
            if let Some(v) = day_value(y, m, d) {
                let g = c.get(0).unwrap();
                push(&mut out, Span::new(g.start(), g.end()), v, Precision::Day);
            }
        }
    }
    for c in MY.captures_iter(text) {
        if let (Some(mn), Ok(y)) = (month_number(&c[1]), c[2].parse::<i32>()) {
            let g = c.get(0).unwrap();
            push(
                &mut out,
                Span::new(g.start(), g.end()),
                format!("{y:04}-{mn:02}"),
                Precision::Month,
            );
        }
    }
    for c in YEAR.captures_iter(text) {
        let g = c.get(1).unwrap();
        push(
            &mut out,
            Span::new(g.start(), g.end()),
            g.as_str().to_string(),
            Precision::Year,
        );
    }
    out.sort_by_key(|d| d.span.start);
    out
}

static TAKEN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(?:photo|picture|image|photograph)s?\s+(?:was\s+|were\s+)?(?:taken|made|shot)\b",
    )
    .unwrap()
});
static BACKGROUND_CUE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:who|which|since|ago|died|killed|born|anniversary|earlier|last|previous|before|after)\b").unwrap()
});

/// Chooses the scene's date: a "photo taken" date first, then the first date of the
/// opening sentence, then a later sentence's date when nothing marks it as another
/// event's; a date inside the credit (publication) only as a last resort.
pub fn choose(
    text: &str,
    sentences: &[Span],
    credit: Option<Span>,
    warnings: &mut Vec<String>,
) -> Option<DateValue> {
    let all = find_all(text);
    let in_credit =
        |d: &DateValue| credit.is_some_and(|c| d.span.start >= c.start && d.span.end <= c.end);
    let scene: Vec<&DateValue> = all.iter().filter(|d| !in_credit(d)).collect();
    let sentence_of = |d: &DateValue| {
        sentences
            .iter()
            .position(|s| d.span.start >= s.start && d.span.start < s.end)
    };
    // "Picture taken October 18, 2012", "In this photo taken on ...".
    for d in &scene {
        if let Some(si) = sentence_of(d) {
            let s = sentences[si];
            if TAKEN.is_match(&text[s.start..d.span.start]) {
                return Some((*d).clone());
            }
        }
    }
    let first = scene
        .iter()
        .filter(|d| sentence_of(d) == Some(0))
        .min_by_key(|d| d.precision);
    if let Some(b) = first {
        return Some((*b).clone());
    }
    for d in &scene {
        let Some(si) = sentence_of(d) else { continue };
        let s = sentences[si];
        if BACKGROUND_CUE.is_match(&text[s.start..d.span.start]) {
            warnings.push(format!(
                "date {:?} belongs to a background sentence; not used",
                d.text
            ));
            continue;
        }
        return Some((*d).clone());
    }
    if let Some(d) = all.iter().find(|d| in_credit(d)) {
        warnings.push(format!(
            "date {:?} is the credit's publication date; no scene date",
            d.text
        ));
        return Some(d.clone());
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::sentences;

    fn value(text: &str) -> Option<(String, Precision)> {
        let s = sentences(text);
        let credit = crate::credit::find(text).map(|c| c.credit.span);
        choose(text, &s, credit, &mut Vec::new()).map(|d| {
            assert_eq!(&text[d.span.start..d.span.end], d.text);
            (d.value, d.precision)
        })
    }

    fn day(v: &str) -> Option<(String, Precision)> {
        Some((v.to_string(), Precision::Day))
    }

    #[test]
    fn forms() {
        assert_eq!(
            value("Seen in Homs on November 6, 2016."),
            day("2016-11-06")
        );
        assert_eq!(value("Seen in Homs on Nov. 6, 2016."), day("2016-11-06"));
        assert_eq!(value("Seen Sept. 20, 2012 in Homs."), day("2012-09-20"));
        assert_eq!(value("Seen on 6 November 2016 in Homs."), day("2016-11-06"));
        assert_eq!(
            value("In this photo taken on Wednesday, February 17, 2016, a man."),
            day("2016-02-17")
        );
        assert_eq!(value("Seen 2016-11-06 in Homs."), day("2016-11-06"));
        assert_eq!(
            value("Seen in Homs in November 2016."),
            Some(("2016-11".into(), Precision::Month))
        );
        assert_eq!(
            value("NAIROBI, Kenya, Aug. 11, 1998 -- A man walks."),
            day("1998-08-11")
        );
        assert_eq!(
            value("A man walks. REUTERS/X. Photo taken October 18, 2012."),
            day("2012-10-18")
        );
        assert_eq!(value("A man walks on Wednesday in Homs."), None);
        assert_eq!(value("Seen on February 30, 2016."), None);
    }

    #[test]
    fn years_are_ascii_digits() {
        // Arabic-Indic digits: "in 20٢٣" was read as the year "20٢٣".
        assert_eq!(value("Seen in Homs in 20\u{662}\u{663}."), None);
        assert_eq!(value("Seen in Homs on June 5, 2\u{660}14."), None);
        assert_eq!(
            value("Seen in Homs in 2023."),
            Some(("2023".into(), Precision::Year))
        );
    }

    proptest::proptest! {
        /// Skipping text without four digits in a row loses no date.
        #[test]
        fn the_digit_check_loses_no_date(
            parts in proptest::collection::vec(proptest::sample::select(vec![
                "in ", "during ", " - ", "June ", "Sept. ", "5 ", "12th ", "2014", "201", "1999",
                "20", "14", "-", "/", "3/4/", "2020-01-02", ", ", "Homs ", "\u{663}", "x",
                "May", "7", "0", " ", ".",
            ]), 0..14)
        ) {
            let text: String = parts.concat();
            let all = find_all(&text);
            let scanned = scan(&text);
            proptest::prop_assert_eq!(all.len(), scanned.len());
            for (a, b) in all.iter().zip(&scanned) {
                proptest::prop_assert_eq!((&a.value, a.span), (&b.value, b.span));
            }
        }
    }

    #[test]
    fn scene_beats_publication_and_background() {
        assert_eq!(
            value(
                "A boy in Aleppo, Oct. 2, 2012. (Manu Brabo, Associated Press - October 3, 2012)"
            ),
            day("2012-10-02")
        );
        assert_eq!(
            value("A boy in Aleppo. (Manu Brabo, Associated Press - October 3, 2012)"),
            day("2012-10-03")
        );
        assert_eq!(
            value(
                "Mourners carry a coffin in Gaza. He was the brother of a man who died in combat on August 24, 2014."
            ),
            None
        );
    }
}
