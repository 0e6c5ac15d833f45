//! Dates as English-language desks write them: month names, numeric forms, datelines
//! whose year stands later in the text, and bare years.

use std::ops::Range;
use std::sync::LazyLock;

use cairn_model::Precision;
use regex::Regex;

use super::years;
use super::{Found, day_value};

/// Month names as written in running text and in the capitals of datelines.
const MONTH: &str = r"(January|February|March|April|May|June|July|August|September|October|November|December|Jan\.?|Feb\.?|Mar\.?|Apr\.?|Jun\.?|Jul\.?|Aug\.?|Sept\.?|Sep\.?|Oct\.?|Nov\.?|Dec\.?|JANUARY|FEBRUARY|MARCH|APRIL|MAY|JUNE|JULY|AUGUST|SEPTEMBER|OCTOBER|NOVEMBER|DECEMBER|JAN\.?|FEB\.?|MAR\.?|APR\.?|JUN\.?|JUL\.?|AUG\.?|SEPT\.?|SEP\.?|OCT\.?|NOV\.?|DEC\.?)";

/// "November 6, 2016", "Nov.15, 2016", "Oct, 20, 2016", "March, 4, 2016", "April 19.
/// 1995", "May 15,2013".
static MDY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"(?-u:\b){MONTH},?\s*([0-9]{{1,2}})(?:st|nd|rd|th)?(?:[,.]\s*|\s+)([0-9]{{4}})(?-u:\b)"
    ))
    .unwrap()
});
/// "6 November 2016", "the 3rd of January, 2024", "15-Mar-2012".
static DMY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"(?-u:\b)([0-9]{{1,2}})(?:(?:st|nd|rd|th)?\s+(?:of\s+)?{MONTH},?\s+|-{MONTH}-)([0-9]{{4}})(?-u:\b)"
    ))
    .unwrap()
});
/// "2016-11-06", "2016/11/06".
static ISO: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?-u:\b)([0-9]{4})[-/.]([0-9]{1,2})[-/.]([0-9]{1,2})(?-u:\b)").unwrap()
});
/// "12/02/2021", "07.03.2019", "06.13.2018", "7-3-2019".
static NUMERIC: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?-u:\b)([0-9]{1,2})([./-])([0-9]{1,2})([./-])([0-9]{4})(?-u:\b)").unwrap()
});
static MY: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(&format!(r"(?-u:\b){MONTH},?\s+([0-9]{{4}})(?-u:\b)")).unwrap());
/// A year after "in"/"during", a dash, or at the start.
static YEAR: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:(?-u:\b)(?:in|during)\s+|\s-\s*|^)((?:19|20)[0-9]{2})(?-u:\b)").unwrap()
});
/// A year standing alone after a word, as a heading or a closing note ("Yemen, 2015:
/// ...", "... Djibouti. 2015."); not after a number ("February 30, 2016" is no date).
static YEAR_ALONE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\p{L}{2}[,.]\s+((?:19|20)[0-9]{2})\s*(?:[.:]|$)").unwrap());
/// A Getty-style dateline: "MARIUPOL, UKRAINE - APRIL 2: ...", the year later in the text.
static DATELINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\s[-–—]\s+(JANUARY|FEBRUARY|MARCH|APRIL|MAY|JUNE|JULY|AUGUST|SEPTEMBER|OCTOBER|NOVEMBER|DECEMBER|JAN\.?|FEB\.?|MAR\.?|APR\.?|JUN\.?|JUL\.?|AUG\.?|SEPT?\.?|OCT\.?|NOV\.?|DEC\.?)\s+([0-9]{1,2})\s*:")
        .unwrap()
});
static ANY_YEAR: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(©\s*|(?i:copyright)\s*)?(?-u:\b)((?:19|20)[0-9]{2})(?-u:\b)").unwrap()
});

/// How far into the caption a dateline may end.
const DATELINE_REACH: usize = 120;

pub fn month_number(m: &str) -> Option<u8> {
    let m = crate::text::lowered(m.trim_end_matches('.'));
    let n = match m.get(..m.len().min(3))? {
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

/// Day, month and year as written, with whichever of day-first and month-first the
/// calendar allows (day-first when both do).
fn numeric(a: u8, b: u8, y: i32) -> Option<String> {
    day_value(y, b, a).or_else(|| day_value(y, a, b))
}

/// The matches of `re` in `text`; none is searched for unless `possible`.
fn captures_if<'t>(
    re: &'static Regex,
    text: &'t str,
    possible: bool,
) -> impl Iterator<Item = regex::Captures<'t>> {
    possible
        .then(|| re.captures_iter(text))
        .into_iter()
        .flatten()
}

/// Every English form of a day in `text`, whose runs of digits are `runs`; a form whose
/// needs around a year no year meets is not searched for.
pub fn scan_days(text: &str, runs: &[Range<usize>], out: &mut Vec<Found>) {
    let mdy = years::month_day_possible(text, runs);
    for c in captures_if(&MDY, text, mdy) {
        let (m, d, y) = (&c[1], &c[2], &c[3]);
        if let (Some(mn), Ok(d), Ok(y)) = (month_number(m), d.parse::<u8>(), y.parse::<i32>()) {
            Found::push(out, c.get(0).unwrap(), day_value(y, mn, d), Precision::Day);
        }
    }
    let dmy = years::day_month_possible(text, runs);
    for c in captures_if(&DMY, text, dmy) {
        let m = c.get(2).or(c.get(3)).unwrap().as_str();
        if let (Some(mn), Ok(d), Ok(y)) = (month_number(m), c[1].parse::<u8>(), c[4].parse()) {
            Found::push(out, c.get(0).unwrap(), day_value(y, mn, d), Precision::Day);
        }
    }
    let iso = years::iso_possible(text, runs);
    for c in captures_if(&ISO, text, iso) {
        if let (Ok(y), Ok(m), Ok(d)) = (c[1].parse::<i32>(), c[2].parse::<u8>(), c[3].parse::<u8>())
        {
            Found::push(out, c.get(0).unwrap(), day_value(y, m, d), Precision::Day);
        }
    }
    let numbers = years::numeric_possible(text, runs);
    for c in captures_if(&NUMERIC, text, numbers) {
        if c[2] != c[4] {
            continue;
        }
        if let (Ok(a), Ok(b), Ok(y)) = (c[1].parse::<u8>(), c[3].parse::<u8>(), c[5].parse()) {
            Found::push(out, c.get(0).unwrap(), numeric(a, b, y), Precision::Day);
        }
    }
    dateline(text, out);
}

/// Every English form of a month, then of a year, in `text`, whose runs of digits are
/// `runs`.
pub fn scan_months_years(text: &str, runs: &[Range<usize>], out: &mut Vec<Found>) {
    let my = years::month_year_possible(text, runs);
    for c in captures_if(&MY, text, my) {
        if let (Some(mn), Ok(y)) = (month_number(&c[1]), c[2].parse::<i32>()) {
            let v = Some(format!("{y:04}-{mn:02}"));
            Found::push(out, c.get(0).unwrap(), v, Precision::Month);
        }
    }
    let year = years::year_possible(text, runs);
    let alone = years::year_alone_possible(text, runs);
    for (re, possible) in [(&*YEAR, year), (&*YEAR_ALONE, alone)] {
        for c in captures_if(re, text, possible) {
            let g = c.get(1).unwrap();
            Found::push(out, g, Some(g.as_str().to_string()), Precision::Year);
        }
    }
}

/// "CITY, COUNTRY - APRIL 2: ...": the day and month of the dateline, the year the
/// first one written after it that is not a copyright's.
fn dateline(text: &str, out: &mut Vec<Found>) {
    let head = text.get(..DATELINE_REACH.min(text.len())).unwrap_or(text);
    // Every dateline ends with a colon: a head without one holds none, and is not searched.
    if !head.contains(':') {
        return;
    }
    let Some(c) = DATELINE.captures(head) else {
        return;
    };
    let (m, day) = (c.get(1).unwrap(), c.get(2).unwrap());
    let year = ANY_YEAR
        .captures_iter(&text[day.end()..])
        .find(|y| y.get(1).is_none())
        .and_then(|y| y[2].parse::<i32>().ok());
    if let (Some(mn), Ok(d), Some(y)) = (month_number(m.as_str()), day.as_str().parse(), year) {
        let end = c.get(2).unwrap().end();
        Found::push_span(out, m.start(), end, day_value(y, mn, d), Precision::Day);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type Gate = fn(&str, &[Range<usize>]) -> bool;

    /// Each form with the check that lets it be skipped.
    fn gated() -> [(&'static Regex, Gate); 7] {
        [
            (&MDY, years::month_day_possible),
            (&DMY, years::day_month_possible),
            (&ISO, years::iso_possible),
            (&NUMERIC, years::numeric_possible),
            (&MY, years::month_year_possible),
            (&YEAR, years::year_possible),
            (&YEAR_ALONE, years::year_alone_possible),
        ]
    }

    /// The forms a check would wrongly skip in `text`.
    fn skipped(text: &str) -> Vec<usize> {
        let runs = years::digit_runs(text);
        (0..7)
            .filter(|&i| {
                let (re, possible) = gated()[i];
                re.is_match(text) && !possible(text, &runs)
            })
            .collect()
    }

    #[test]
    fn each_form_passes_its_check() {
        // Each text holds one form, its year alone, so a check is not met by another's.
        let forms: [(usize, &[&str]); 7] = [
            (
                0,
                &[
                    "Seen on   September  \t 30th,\u{a0}  2016 in Homs",
                    "Nov.15, 2016",
                    "May 15,2013",
                    "April 19. 1995",
                    "Oct, 20  2022",
                ],
            ),
            (
                1,
                &[
                    "the 22nd   of   SEPTEMBER,    2016",
                    "3-Mar-2012",
                    "6 November\u{2003}2016",
                ],
            ),
            (2, &["Seen 1999-12-31 x", "2016/11/06", "2016.11.06"]),
            (3, &["31.12.1999", "12/02/2021", "7-3-2019"]),
            (
                4,
                &["in   November\u{2003}2016", "Sept.,  2016", "MAY 2016"],
            ),
            (
                5,
                &[
                    "2015: seen",
                    "seen in\t2016",
                    "x -2017",
                    "x -  2018",
                    "during 1999",
                ],
            ),
            (
                6,
                &[
                    "Syria,     2015    .",
                    "Yemen.\u{a0}2016:x",
                    "Sudan, 2021",
                    "Sudan. 2021  ",
                ],
            ),
        ];
        for (i, texts) in forms {
            for text in texts {
                let (re, _) = gated()[i];
                assert!(re.is_match(text), "form {i} matches {text:?}");
                assert_eq!(skipped(text), Vec::<usize>::new(), "{text:?}");
            }
        }
    }

    proptest::proptest! {
        /// A form is skipped only where it has no match.
        #[test]
        fn the_checks_skip_no_match(
            parts in proptest::collection::vec(proptest::sample::select(vec![
                "in ", "during ", " - ", "-", "June ", "Sept. ", "SEPTEMBER", "5", "12th ",
                "2014", "201", "1999", "20", "14", "/", ".", ",", ":", " ", "   ", "\u{a0}",
                "\t", "3/4/", "2020-01-02", "of ", "Homs", "x", "May", "Mar", "é", "ab", "th",
                "st", "0", "7", "\n", "Jan.", "ـ",
            ]), 0..16)
        ) {
            let text: String = parts.concat();
            proptest::prop_assert_eq!(skipped(&text), Vec::<usize>::new(), "{:?}", text);
        }
    }

    #[test]
    fn a_dateline_needs_its_colon() {
        let mut out = Vec::new();
        dateline("KYIV, UKRAINE - MAY 9 A man walks. 2022", &mut out);
        assert!(out.is_empty());
        dateline("KYIV, UKRAINE - MAY 9: A man walks. 2022", &mut out);
        assert_eq!(out.len(), 1);
    }
}
