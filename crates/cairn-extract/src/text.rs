//! Small text utilities: sentences, tokens, number words, masks of spans already used.

use std::borrow::Cow;

use cairn_model::Span;

pub use cairn_model::sentences;

/// `s.to_lowercase()`, made only when `s` has an upper-case letter or is not ASCII.
pub fn lowered(s: &str) -> Cow<'_, str> {
    if !s.is_ascii() {
        Cow::Owned(s.to_lowercase())
    } else if s.bytes().any(|b| b.is_ascii_uppercase()) {
        Cow::Owned(s.to_ascii_lowercase())
    } else {
        Cow::Borrowed(s)
    }
}

/// Calls `f` with `s` lowered as [`lowered`] does; a short ASCII word is lowered into a
/// buffer on the stack, sparing the allocation that capitalised words would cost in
/// the loops that compare words with word lists.
pub fn with_lowered<R>(s: &str, f: impl FnOnce(&str) -> R) -> R {
    let mut buf = [0u8; 32];
    if s.is_ascii() && s.len() <= buf.len() {
        let b = &mut buf[..s.len()];
        b.copy_from_slice(s.as_bytes());
        b.make_ascii_lowercase();
        if let Ok(l) = std::str::from_utf8(b) {
            return f(l);
        }
    }
    f(&lowered(s))
}

/// Parses a count: digits (with thousands separators) or an English number word.
/// Returns the low value and whether the word is open-ended ("dozens" → 24, open).
pub fn parse_number(word: &str) -> Option<(u32, bool)> {
    let w = lowered(word.trim());
    if let Ok(n) = w.replace(',', "").parse::<u32>() {
        return Some((n, false));
    }
    let small = [
        "zero",
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "eleven",
        "twelve",
        "thirteen",
        "fourteen",
        "fifteen",
        "sixteen",
        "seventeen",
        "eighteen",
        "nineteen",
        "twenty",
    ];
    if let Some(n) = small.iter().position(|s| *s == w) {
        return Some((n as u32, false));
    }
    let tens = [
        ("twenty", 20),
        ("thirty", 30),
        ("forty", 40),
        ("fifty", 50),
        ("sixty", 60),
        ("seventy", 70),
        ("eighty", 80),
        ("ninety", 90),
        ("a dozen", 12),
        ("dozen", 12),
        ("a hundred", 100),
        ("hundred", 100),
    ];
    for (s, n) in tens {
        if w == s {
            return Some((n, false));
        }
    }
    if let Some((a, b)) = w.split_once('-') {
        let ta = tens.iter().find(|(s, _)| *s == a).map(|(_, n)| *n)?;
        let ub = small.iter().position(|s| *s == b).filter(|&n| n < 10)? as u32;
        return Some((ta + ub, false));
    }
    match &*w {
        "dozens" | "dozens of" => Some((24, true)),
        "scores" => Some((40, true)),
        "hundreds" => Some((200, true)),
        "thousands" => Some((2000, true)),
        "several" => Some((3, true)),
        _ => None,
    }
}

/// A set of byte ranges already claimed by some field.
#[derive(Debug, Default, Clone)]
pub struct Mask(Vec<Span>);

impl Mask {
    /// Claims a range.
    pub fn add(&mut self, s: Span) {
        self.0.push(s);
    }
    /// Whether `s` overlaps a claimed range.
    pub fn overlaps(&self, s: Span) -> bool {
        self.0.iter().any(|m| s.start < m.end && m.start < s.end)
    }
}

/// Spans of text inside quotation marks (“…”, "…").
pub fn quoted(text: &str) -> Vec<Span> {
    let mut out = Vec::new();
    let mut open: Option<usize> = None;
    for (i, c) in text.char_indices() {
        match c {
            '“' => open = Some(i),
            '”' => {
                if let Some(s) = open.take() {
                    out.push(Span::new(s, i + c.len_utf8()));
                }
            }
            '"' => match open.take() {
                Some(s) => out.push(Span::new(s, i + 1)),
                None => open = Some(i),
            },
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers() {
        assert_eq!(parse_number("four"), Some((4, false)));
        assert_eq!(parse_number("280,000"), Some((280_000, false)));
        assert_eq!(parse_number("dozens"), Some((24, true)));
        assert_eq!(parse_number("twenty-one"), Some((21, false)));
        assert_eq!(parse_number("many"), None);
    }

    #[test]
    fn lowered_on_the_stack_as_on_the_heap() {
        let long = "A".repeat(40);
        for w in [
            "Reuters",
            "AFP",
            "already",
            "",
            "Zerstörung",
            "\u{212A}ill",
            &long,
        ] {
            assert_eq!(
                with_lowered(w, str::to_string),
                lowered(w).into_owned(),
                "{w}"
            );
        }
    }
}
