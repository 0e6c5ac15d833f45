//! The clause before a mention: its words, nearest first, and where the words that give
//! the mention its role begin (for the location's reason).

use std::borrow::Cow;

use super::roles::{Role, modifiers_before};
use crate::text::lowered;

/// The start of the clause before a mention, and its words in lower case, nearest first
/// (at most eight; the elided French `d’`, `l’` read as `de`, `le`).
pub(super) fn words_before(before: &str) -> (usize, Vec<Cow<'_, str>>) {
    // Eight words lie well within the last few hundred bytes: the clause's start is
    // looked for there, not back to the caption's start.
    let mut from = before.len().saturating_sub(240);
    while !before.is_char_boundary(from) {
        from -= 1;
    }
    // The clause starts after its mark, which may be more than a byte long (`؛`). ASCII
    // marks are looked for byte by byte: no byte of a longer character is ASCII.
    let window = &before[from..];
    let ascii = window
        .bytes()
        .rposition(|b| matches!(b, b'.' | b';' | b':' | b'|' | b'(' | b'\n'))
        .map(|p| p + 1);
    let arabic = window.rfind('؛').map(|p| p + '؛'.len_utf8());
    let clause_start = from + ascii.max(arabic).unwrap_or(0);
    let words = before[clause_start..]
        .split_whitespace()
        .rev()
        .take(8)
        .map(
            |w| match lowered(w.trim_matches(|c: char| !c.is_alphanumeric())) {
                Cow::Borrowed("d") => Cow::Borrowed("de"),
                Cow::Borrowed("l") => Cow::Borrowed("le"),
                w => w,
            },
        )
        .take_while(|w| !w.is_empty())
        .collect();
    (clause_start, words)
}

/// Where the words that gave a mention its role begin: the preposition (with `north of`,
/// `city of`, two words) and the articles after it; none for a bare name.
pub(super) fn cue_start(
    before: &str,
    clause_start: usize,
    words: &[&str],
    role: Role,
) -> Option<usize> {
    if role <= Role::Bare || words.is_empty() {
        return None;
    }
    let skipped = modifiers_before(words);
    let of = words
        .get(skipped)
        .is_some_and(|w| matches!(*w, "of" | "de" | "del" | "du" | "von"));
    let take = (skipped + 1 + usize::from(of && words.len() > skipped + 1)).min(words.len());
    Some(
        before
            .trim_end()
            .rmatch_indices(char::is_whitespace)
            .nth(take - 1)
            .map_or(clause_start, |(p, _)| p + 1)
            .max(clause_start),
    )
}
