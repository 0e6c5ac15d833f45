//! What one piece of a credit looks like on its own: a short alias as the trade
//! writes it, a wire's acronym written as a word, a body's mixed capitals, a library's
//! picture number, a date.

use super::{orgs, words};

/// A short alias counts only as written by the trade (`PA`, `AP`, `dpa`), not as the
/// word or abbreviation it also is (`Pa.` for Pennsylvania).
pub(super) fn short_ok(p: &str) -> bool {
    let letters = p.chars().filter(|c| c.is_alphabetic()).count();
    letters > 3 || p == "dpa" || !p.chars().any(char::is_lowercase)
}

/// A wire's acronym written as a word (`Afp`, `Ap/Ansa`), as Italian desks write them.
/// Of two letters only `Ap`: `Pa` is Pennsylvania's abbreviation (`Scranton, Pa.`).
pub(super) fn title_wire(p: &str, kind: orgs::Kind) -> bool {
    let mut chars = p.chars();
    kind == orgs::Kind::Wire
        && chars.next().is_some_and(char::is_uppercase)
        && chars.all(char::is_lowercase)
        && (p.chars().count() >= 3 || p == "Ap")
}

/// Several capitalised words mixing an acronym with words (`PRO Defense Kochi`): a body.
pub(super) fn mixed_caps(p: &str) -> bool {
    let w: Vec<&str> = p.split_whitespace().collect();
    // (Initials, `J.B. Forbes`, are a person's.)
    w.len() >= 2
        && words::all_caps(w[0])
        && w[0].chars().all(char::is_alphabetic)
        && w[0].chars().count() <= 4
        && w.iter().any(|x| !words::all_caps(x))
        && words::title_run(p)
}

/// A library's picture number (`UN0597251`, `X90061`): one word of capitals and digits,
/// the digits most of it.
pub(super) fn picture_id(p: &str) -> bool {
    let digits = p.bytes().filter(u8::is_ascii_digit).count();
    !p.contains(' ')
        && digits >= 4
        && digits * 2 > p.len()
        && p.bytes()
            .all(|b| b.is_ascii_digit() || b.is_ascii_uppercase() || b == b'-')
}

/// Whether a piece is a date and nothing else.
pub(super) fn is_date(p: &str) -> bool {
    let t = p.trim();
    crate::date::find_all(t)
        .iter()
        .any(|d| d.span.start == 0 && d.span.end + 1 >= t.len())
}
