//! Text that stands where a caption should be but says nothing about a photograph:
//! a null word a CMS filled in (`N/A`, `None`, `null`), a dash, a lone date or a lone
//! credit. Such a paragraph is not a caption: extracted, `N/A` would read as a credit
//! (photographer `N`, agency `A`), and every copy of it would merge unrelated
//! photographs under one text.

use crate::{credit, date};

/// Why a paragraph is not a caption.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placeholder {
    /// No letters at all: a dash, dots, a number.
    NoWords,
    /// A word that says there is no value.
    NullWord,
    /// A date and nothing else.
    LoneDate,
    /// A credit line (perhaps with a date) and nothing else.
    LoneCredit,
}

impl Placeholder {
    /// How a warning names it.
    pub fn describe(self) -> &'static str {
        match self {
            Placeholder::NoWords => "no words",
            Placeholder::NullWord => "a word for no value",
            Placeholder::LoneDate => "a date alone",
            Placeholder::LoneCredit => "a credit alone",
        }
    }
}

/// Longer text is never taken for a placeholder (and is not looked at further).
const MAX_PLACEHOLDER_BYTES: usize = 160;

/// Words CMSs and exports write where there is no caption, compared lower-case with
/// the punctuation around them gone.
const NULL_WORDS: &[&str] = &[
    "n/a",
    "n.a",
    "na",
    "none",
    "null",
    "nil",
    "nan",
    "undefined",
    "unknown",
    "untitled",
    "no caption",
    "no description",
    "no title",
    "not available",
    "caption",
    "description",
    "tbd",
    "tba",
    "placeholder",
    "sans titre",
    "sin título",
    "ohne titel",
];

/// Words that may stand beside a lone date or credit without making it a caption.
const FILLER: &[&str] = &[
    "photo",
    "photos",
    "photograph",
    "picture",
    "image",
    "file",
    "credit",
    "by",
    "on",
    "taken",
    "dated",
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
];

/// Whether `text` (a paragraph, whitespace folded) is a placeholder rather than a
/// caption, and which kind.
pub fn placeholder(text: &str) -> Option<Placeholder> {
    if text.len() > MAX_PLACEHOLDER_BYTES {
        return None;
    }
    if !text.chars().any(char::is_alphabetic) {
        return Some(Placeholder::NoWords);
    }
    let bare = text
        .trim_matches(|c: char| !c.is_alphanumeric())
        .to_lowercase();
    if NULL_WORDS.contains(&bare.as_str()) {
        return Some(Placeholder::NullWord);
    }
    let dates: Vec<_> = date::find_all(text).into_iter().map(|d| d.span).collect();
    if !dates.is_empty() && only_filler(text, &dates) {
        return Some(Placeholder::LoneDate);
    }
    let found = credit::find(text)?;
    let mut spans = dates;
    spans.push(found.credit.span);
    only_filler(text, &spans).then_some(Placeholder::LoneCredit)
}

/// Whether every word of `text` outside `spans` is a filler word (or has no letters).
fn only_filler(text: &str, spans: &[cairn_model::Span]) -> bool {
    let mut rest = String::with_capacity(text.len());
    for (i, c) in text.char_indices() {
        let inside = spans.iter().any(|s| s.start <= i && i < s.end);
        rest.push(if inside { ' ' } else { c });
    }
    rest.split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().any(char::is_alphabetic))
        .all(|w| FILLER.contains(&w.to_lowercase().as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn null_words_and_marks_are_placeholders() {
        for t in [
            "N/A",
            "n/a",
            "None",
            "null",
            "NULL.",
            "(none)",
            "Untitled",
            "No caption",
        ] {
            assert_eq!(placeholder(t), Some(Placeholder::NullWord), "{t}");
        }
        for t in ["-", "—", "...", "*", "2016", "12/03/2017", "2016-11-24"] {
            assert_eq!(placeholder(t), Some(Placeholder::NoWords), "{t}");
        }
    }

    #[test]
    fn a_date_alone_is_a_placeholder() {
        for t in [
            "November 24, 2016",
            "Thursday, Nov. 24, 2016",
            "24 novembre 2016",
            "Photo taken on March 3, 2017.",
        ] {
            assert_eq!(placeholder(t), Some(Placeholder::LoneDate), "{t}");
        }
    }

    #[test]
    fn a_credit_alone_is_a_placeholder() {
        for t in [
            "AFP",
            "Photo: Reuters",
            "REUTERS/Nour Kassem",
            "(Photo by Lina Saleh/AFP via Getty Images)",
            "AFP PHOTO / KARIM NASSER",
            "Reuters, March 3, 2017",
        ] {
            assert_eq!(placeholder(t), Some(Placeholder::LoneCredit), "{t}");
        }
    }

    #[test]
    fn short_captions_are_captions() {
        for t in [
            "A man walks.",
            "Smoke rises over Aleppo.",
            "Nadia, 7, waits for bread in Idlib.",
            "Protesters march in Lyon on May 1, 2024. AFP",
            "Rescue workers in Douma, Syria. REUTERS/Omar Aziz",
            "Nothing left: a shop in Homs after the shelling.",
            "None of the houses on this street in Mosul still stands.",
        ] {
            assert_eq!(placeholder(t), None, "{t}");
        }
    }
}
