//! Tokens of a caption (runs of letters, marks and digits with inner apostrophes and
//! hyphens) and their lower case, made once per caption.

use std::borrow::Cow;
use std::sync::LazyLock;

use cairn_model::Span;
use regex::Regex;

use crate::text::lowered;

/// A letter, mark or decimal digit: what begins a token (a run of these, apostrophes and
/// hyphens). Asked only of characters past ASCII ([`tokens`] decides those itself).
static WORD_CHAR: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^[\p{L}\p{M}\d]$").unwrap());

/// The tokens of a text in lower case.
pub(super) enum Lower<'t> {
    /// ASCII text lowered whole: a token's lower case is at its own span.
    Ascii(String),
    /// Each token lowered on its own (lowering other text can change lengths).
    Tokens(Vec<Cow<'t, str>>),
}

impl<'t> Lower<'t> {
    pub(super) fn new(text: &'t str, toks: &[Tok]) -> Self {
        if text.is_ascii() {
            Lower::Ascii(text.to_ascii_lowercase())
        } else {
            Lower::Tokens(
                toks.iter()
                    .map(|t| lowered(&text[t.span.start..t.span.end]))
                    .collect(),
            )
        }
    }

    pub(super) fn at<'a>(&'a self, toks: &[Tok], i: usize) -> &'a str {
        match self {
            Lower::Ascii(s) => &s[toks[i].span.start..toks[i].span.end],
            Lower::Tokens(v) => &v[i],
        }
    }
}

#[derive(Debug, Clone, Copy)]
pub(super) struct Tok {
    pub(super) span: Span,
    pub(super) cap: bool,
}

/// The tokens of `text`: each maximal run that begins with a letter, mark or digit and
/// goes on with those, apostrophes (`'’‘` and the backtick) and hyphens.
pub(super) fn tokens(text: &str) -> Vec<Tok> {
    if text.is_ascii() {
        return ascii_tokens(text.as_bytes());
    }
    let word = |c: char| {
        if c.is_ascii() {
            c.is_ascii_alphanumeric()
        } else {
            WORD_CHAR.is_match(c.encode_utf8(&mut [0; 4]))
        }
    };
    let inner = |c: char| word(c) || matches!(c, '\'' | '’' | '‘' | '`' | '-');
    // About one token in five or six bytes of caption text: room for them at once.
    let mut out = Vec::with_capacity(text.len() / 4 + 1);
    let mut chars = text.char_indices().peekable();
    while let Some((start, c)) = chars.next() {
        if !word(c) {
            continue;
        }
        let mut end = start + c.len_utf8();
        while let Some(&(at, d)) = chars.peek() {
            if !inner(d) {
                break;
            }
            end = at + d.len_utf8();
            chars.next();
        }
        out.push(Tok {
            span: Span::new(start, end),
            cap: c.is_uppercase(),
        });
    }
    out
}

/// [`tokens`] of ASCII text: letters and digits begin a token, which goes on with them,
/// `'`, the backtick and `-`.
pub(super) fn ascii_tokens(text: &[u8]) -> Vec<Tok> {
    let inner = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'\'' | b'`' | b'-');
    let mut out = Vec::with_capacity(text.len() / 4 + 1);
    let mut i = 0;
    while i < text.len() {
        if !text[i].is_ascii_alphanumeric() {
            i += 1;
            continue;
        }
        let start = i;
        i += 1;
        while i < text.len() && inner(text[i]) {
            i += 1;
        }
        out.push(Tok {
            span: Span::new(start, i),
            cap: text[start].is_ascii_uppercase(),
        });
    }
    out
}

/// Tokens opening on an Arabic article written in lower case before a capital (`al-Bab`,
/// `el-Arish`, `ash-Shaykh`) are capitalised names: the article is part of them.
pub(super) fn lower_articles(text: &str, mut toks: Vec<Tok>) -> Vec<Tok> {
    for t in &mut toks {
        let w = &text[t.span.start..t.span.end];
        if t.cap || !w.starts_with(['a', 'e']) {
            continue;
        }
        let after = [
            "al-", "el-", "ad-", "as-", "ash-", "an-", "ar-", "at-", "az-",
        ]
        .iter()
        .find_map(|p| w.strip_prefix(p));
        if after.is_some_and(|r| r.starts_with(char::is_uppercase)) {
            t.cap = true;
        }
    }
    toks
}

/// Tokens with a French elided article or preposition before a name (`d’Alep`,
/// `l’Ukraine`) begin at the name, capitalised: the elision is a word of its own.
pub(super) fn split_elisions(text: &str, mut toks: Vec<Tok>) -> Vec<Tok> {
    if !text.contains(['\'', '’']) {
        return toks;
    }
    for t in &mut toks {
        let w = &text[t.span.start..t.span.end];
        for p in ["d'", "d’", "l'", "l’", "qu'", "qu’", "j'", "j’"] {
            if let Some(rest) = w.strip_prefix(p) {
                if rest.starts_with(char::is_uppercase) {
                    t.span = Span::new(t.span.start + p.len(), t.span.end);
                    t.cap = true;
                }
                break;
            }
        }
    }
    toks
}

pub(super) fn strip_possessive(s: &str) -> (&str, bool) {
    for suf in ["'s", "’s", "s'", "s’"] {
        if let Some(x) = s.strip_suffix(suf) {
            return (
                if suf.starts_with('s') {
                    &s[..x.len() + 1]
                } else {
                    x
                },
                true,
            );
        }
    }
    (s, false)
}
