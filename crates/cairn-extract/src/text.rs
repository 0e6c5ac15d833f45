//! Small text utilities: sentences, tokens, number words, masks of spans already used.

use cairn_model::Span;

/// Abbreviations after which a period does not end a sentence.
const ABBREVIATIONS: &[&str] = &[
    "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec", "mr",
    "mrs", "ms", "dr", "st", "gen", "lt", "col", "sgt", "capt", "maj", "rep", "sen", "gov", "pres",
    "prof", "jr", "sr", "no", "vs", "etc", "inc", "co", "corp", "mt", "ft", "ave", "rev", "u.s",
    "u.n", "u.k", "a.m", "p.m", "d.c", "n.y", "l.a", "e.u",
];

/// Sentence spans of `text`: a sentence ends at `.`, `!` or `?` followed by a space and an
/// upper-case letter, a digit, a quote or an opening parenthesis, unless the period closes
/// an abbreviation or an initial.
pub fn sentences(text: &str) -> Vec<Span> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if matches!(c, b'.' | b'!' | b'?') && i + 2 < b.len() && b[i + 1] == b' ' {
            let next = text[i + 2..].chars().next().unwrap_or(' ');
            let starts_new = next.is_uppercase()
                || next.is_ascii_digit()
                || matches!(next, '"' | '“' | '(' | '\'' | '‘');
            let word_start = text[..i]
                .rfind(|ch: char| ch.is_whitespace() || ch == '(')
                .map(|p| p + 1)
                .unwrap_or(0);
            let word = text[word_start..i].to_ascii_lowercase();
            let abbrev = c == b'.'
                && (ABBREVIATIONS.contains(&word.as_str())
                    || (word.chars().count() == 1 && word.chars().all(char::is_alphabetic)));
            if starts_new && !abbrev {
                out.push(Span::new(start, i + 1));
                start = i + 2;
                i += 2;
                continue;
            }
        }
        i += 1;
    }
    if start < text.len() {
        out.push(Span::new(start, text.len()));
    }
    out
}

/// Parses a count: digits (with thousands separators) or an English number word.
/// Returns the low value and whether the word is open-ended ("dozens" → 24, open).
pub fn parse_number(word: &str) -> Option<(u32, bool)> {
    let w = word.trim().to_lowercase();
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
    match w.as_str() {
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
    fn sentence_split_respects_abbreviations() {
        let t = "A man in Nov. 6, 2016 walks. He runs past J. Smith. (Photo by X/AFP)";
        let s: Vec<&str> = sentences(t).iter().map(|s| &t[s.start..s.end]).collect();
        assert_eq!(
            s,
            vec![
                "A man in Nov. 6, 2016 walks.",
                "He runs past J. Smith.",
                "(Photo by X/AFP)"
            ]
        );
    }

    #[test]
    fn numbers() {
        assert_eq!(parse_number("four"), Some((4, false)));
        assert_eq!(parse_number("280,000"), Some((280_000, false)));
        assert_eq!(parse_number("dozens"), Some((24, true)));
        assert_eq!(parse_number("twenty-one"), Some((21, false)));
        assert_eq!(parse_number("many"), None);
    }
}
