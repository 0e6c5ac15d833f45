//! Dates as English-language desks write them: month names, numeric forms, datelines
//! whose year stands later in the text, and bare years.

use std::sync::LazyLock;

use cairn_model::Precision;
use regex::Regex;

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

/// Every English form of a day in `text`.
pub fn scan_days(text: &str, out: &mut Vec<Found>) {
    for c in MDY.captures_iter(text) {
        let (m, d, y) = (&c[1], &c[2], &c[3]);
        if let (Some(mn), Ok(d), Ok(y)) = (month_number(m), d.parse::<u8>(), y.parse::<i32>()) {
            Found::push(out, c.get(0).unwrap(), day_value(y, mn, d), Precision::Day);
        }
    }
    for c in DMY.captures_iter(text) {
        let m = c.get(2).or(c.get(3)).unwrap().as_str();
        if let (Some(mn), Ok(d), Ok(y)) = (month_number(m), c[1].parse::<u8>(), c[4].parse()) {
            Found::push(out, c.get(0).unwrap(), day_value(y, mn, d), Precision::Day);
        }
    }
    for c in ISO.captures_iter(text) {
        if let (Ok(y), Ok(m), Ok(d)) = (c[1].parse::<i32>(), c[2].parse::<u8>(), c[3].parse::<u8>())
        {
            Found::push(out, c.get(0).unwrap(), day_value(y, m, d), Precision::Day);
        }
    }
    for c in NUMERIC.captures_iter(text) {
        if c[2] != c[4] {
            continue;
        }
        if let (Ok(a), Ok(b), Ok(y)) = (c[1].parse::<u8>(), c[3].parse::<u8>(), c[5].parse()) {
            Found::push(out, c.get(0).unwrap(), numeric(a, b, y), Precision::Day);
        }
    }
    dateline(text, out);
}

/// Every English form of a month, then of a year, in `text`.
pub fn scan_months_years(text: &str, out: &mut Vec<Found>) {
    for c in MY.captures_iter(text) {
        if let (Some(mn), Ok(y)) = (month_number(&c[1]), c[2].parse::<i32>()) {
            let v = Some(format!("{y:04}-{mn:02}"));
            Found::push(out, c.get(0).unwrap(), v, Precision::Month);
        }
    }
    for re in [&*YEAR, &*YEAR_ALONE] {
        for c in re.captures_iter(text) {
            let g = c.get(1).unwrap();
            Found::push(out, g, Some(g.as_str().to_string()), Precision::Year);
        }
    }
}

/// "CITY, COUNTRY - APRIL 2: ...": the day and month of the dateline, the year the
/// first one written after it that is not a copyright's.
fn dateline(text: &str, out: &mut Vec<Found>) {
    let Some(c) = DATELINE.captures(text.get(..DATELINE_REACH.min(text.len())).unwrap_or(text))
    else {
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
