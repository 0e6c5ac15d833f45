//! The years' digits of a caption, and what each English date form needs around them:
//! a caption whose years stand nowhere a form could hold them is not searched for it.
//!
//! Every English form holds its year as a run of exactly four ASCII digits (a digit
//! neither before nor after it), and says what may stand right before it; each check
//! below reads only what its form requires there, so it never turns a match away.

use std::ops::Range;

/// Each run of ASCII digits in `text` (no digit before or after it), in text order.
pub fn digit_runs(text: &str) -> Vec<Range<usize>> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if !b[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        out.push(start..i);
    }
    out
}

/// The runs of exactly four digits among `runs`: the years the English forms read.
fn years(runs: &[Range<usize>]) -> impl Iterator<Item = &Range<usize>> {
    runs.iter().filter(|r| r.len() == 4)
}

/// `text` before `at`, without the spaces that end it, and whether there were any.
fn before_spaces(text: &str, at: usize) -> (&str, bool) {
    let head = &text[..at];
    let trimmed = head.trim_end();
    (trimmed, trimmed.len() < head.len())
}

/// Whether the year is one of the centuries the bare-year forms read.
fn modern(text: &str, y: &Range<usize>) -> bool {
    matches!(&text[y.start..y.start + 2], "19" | "20")
}

/// "2016-11-06": a year followed by `-`, `/` or `.` and a digit.
pub fn iso_possible(text: &str, runs: &[Range<usize>]) -> bool {
    let b = text.as_bytes();
    years(runs).any(|y| {
        matches!(b.get(y.end), Some(b'-' | b'/' | b'.'))
            && b.get(y.end + 1).is_some_and(u8::is_ascii_digit)
    })
}

/// "12/02/2021": a year after a digit and `.`, `/` or `-`.
pub fn numeric_possible(text: &str, runs: &[Range<usize>]) -> bool {
    let b = text.as_bytes();
    years(runs).any(|y| {
        y.start >= 2
            && matches!(b[y.start - 1], b'-' | b'/' | b'.')
            && b[y.start - 2].is_ascii_digit()
    })
}

/// "November 6, 2016": a year after spaces or `,`/`.`, a day's digit and its suffix.
pub fn month_day_possible(text: &str, runs: &[Range<usize>]) -> bool {
    years(runs).any(|y| {
        let (head, spaced) = before_spaces(text, y.start);
        let head = match head.strip_suffix([',', '.']) {
            Some(h) => h,
            None if spaced => head,
            None => return false,
        };
        let head = ["st", "nd", "rd", "th"]
            .iter()
            .find_map(|s| head.strip_suffix(s))
            .unwrap_or(head);
        head.ends_with(|c: char| c.is_ascii_digit())
    })
}

/// "6 November 2016", "15-Mar-2012": a year after spaces or `-`, and somewhere a day's
/// one or two digits followed by a space or `-` (a suffix between).
pub fn day_month_possible(text: &str, runs: &[Range<usize>]) -> bool {
    let year_ok =
        years(runs).any(|y| text[..y.start].ends_with(|c: char| c.is_whitespace() || c == '-'));
    year_ok
        && runs.iter().filter(|r| r.len() <= 2).any(|r| {
            let rest = &text[r.end..];
            let rest = ["st", "nd", "rd", "th"]
                .iter()
                .find_map(|s| {
                    rest.strip_prefix(s)
                        .filter(|r| r.starts_with(char::is_whitespace))
                })
                .unwrap_or(rest);
            rest.starts_with(|c: char| c.is_whitespace() || c == '-')
        })
}

/// "November 2016": a year after spaces, and before them a letter or `.` (and maybe `,`).
pub fn month_year_possible(text: &str, runs: &[Range<usize>]) -> bool {
    years(runs).any(|y| {
        let (head, spaced) = before_spaces(text, y.start);
        let head = head.strip_suffix(',').unwrap_or(head);
        spaced && head.ends_with(|c: char| c.is_ascii_alphabetic() || c == '.')
    })
}

/// "in 2015", "- 2015", a year opening the text: a modern year at the start, after
/// spaces and `in` or `during`, or after a space, `-` and maybe spaces.
pub fn year_possible(text: &str, runs: &[Range<usize>]) -> bool {
    years(runs).filter(|y| modern(text, y)).any(|y| {
        let (head, spaced) = before_spaces(text, y.start);
        y.start == 0
            || (spaced && (head.ends_with("in") || head.ends_with("during")))
            || head
                .strip_suffix('-')
                .is_some_and(|h| h.ends_with(char::is_whitespace))
    })
}

/// "Yemen, 2015: ...", "... Djibouti. 2015.": a modern year after two letters, `,` or `.`
/// and spaces, followed by spaces and `.`, `:` or the end.
pub fn year_alone_possible(text: &str, runs: &[Range<usize>]) -> bool {
    years(runs).filter(|y| modern(text, y)).any(|y| {
        let after = text[y.end..].trim_start();
        let (head, spaced) = before_spaces(text, y.start);
        let letters = head.strip_suffix([',', '.']).map(|h| {
            h.chars()
                .rev()
                .take(2)
                .filter(|c| c.is_alphabetic())
                .count()
        });
        spaced && letters == Some(2) && (after.is_empty() || after.starts_with(['.', ':']))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn years_are_runs_of_exactly_four_digits() {
        let runs = digit_runs("in 2014, 12345, 201, 1999-01-02 x2020");
        assert_eq!(runs.len(), 7);
        let y: Vec<_> = years(&runs).cloned().collect();
        assert_eq!(y, vec![3..7, 21..25, 33..37]);
    }
}
