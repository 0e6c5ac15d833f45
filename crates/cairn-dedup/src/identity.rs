//! The identity of a photograph in its caption: the first sentence (what, where, when),
//! with the credit, truncation marks and HTML character references taken off. Background
//! sentences and credits take no part, so two photographs that share a boilerplate
//! paragraph stay apart, and a re-credited or cut-short copy still finds its original.

const TRUNCATION_MARKS: &[&str] = &[
    "...more",
    "... more",
    "…more",
    "… more",
    "read more",
    "...",
    "…",
    "more",
];

/// Takes HTML character references out (`&amp;`, `&#39;`...), as a browser would show them.
/// Escaped twice (`&amp;nbsp;`) is common too: decode until nothing changes (at most 3 times).
pub(crate) fn decode_entities(s: &str) -> String {
    let mut out = s.to_string();
    for _ in 0..3 {
        if !out.contains('&') {
            break;
        }
        let next = html_escape::decode_html_entities(&out).into_owned();
        if next == out {
            break;
        }
        out = next;
    }
    out
}

/// Whether the text was cut short, and the text without the mark.
pub fn strip_truncation(text: &str) -> (&str, bool) {
    let t = text.trim_end();
    let lower = t.to_lowercase();
    for m in TRUNCATION_MARKS {
        if lower.ends_with(m) {
            // "more" alone counts only right after an ellipsis-less cut ("... more" handled).
            if *m == "more"
                && !lower
                    .trim_end_matches("more")
                    .trim_end()
                    .ends_with(['.', '…'])
            {
                continue;
            }
            return (t[..t.len() - m.len()].trim_end(), true);
        }
    }
    (t, false)
}

/// Whether a caption carries a credit line (a trailing parenthesis with a slash or
/// "Photo", or an `AGENCY/Name` form).
pub fn has_credit(text: &str) -> bool {
    let t = text.trim_end();
    if let Some(open) = t.rfind('(') {
        let inner = &t[open..];
        if inner.contains('/') || inner.to_lowercase().contains("photo") {
            return true;
        }
    }
    let mut from = t.len().saturating_sub(60);
    while !t.is_char_boundary(from) {
        from += 1;
    }
    let tail = &t[from..];
    let lower = tail.to_lowercase();
    if lower.contains("photo:") || lower.contains("photo by") || lower.contains(" via ") {
        return true;
    }
    // "REUTERS/Name", "Name/AFP": a slash between a letter and a capital.
    tail.as_bytes()
        .windows(3)
        .any(|w| w[0].is_ascii_alphabetic() && w[1] == b'/' && w[2].is_ascii_uppercase())
}

/// The identity sentence of a caption: the first sentence, without a credit in
/// parentheses, truncation marks or character references.
pub fn identity(text: &str) -> String {
    let decoded = decode_entities(text);
    identity_of_normalized(&crate::normalize(&decoded))
}

/// [`identity`] of text already decoded and [`crate::normalize`]d.
pub(crate) fn identity_of_normalized(folded: &str) -> String {
    // Text after a truncation mark inside the caption ("...more" glued to what follows on
    // the page) is not this caption's.
    let lower = folded.to_lowercase();
    let cut = ["...more", "... more", "…more", "… more"]
        .iter()
        .filter_map(|m| lower.find(m))
        .min()
        .filter(|&at| at < folded.len() && folded.is_char_boundary(at));
    let folded = cut.map_or(folded, |at| &folded[..at]);
    let (body, _) = strip_truncation(folded);
    let first = cairn_model::sentences(body)
        .first()
        .map(|s| &body[s.start..s.end])
        .unwrap_or(body);
    // A credit inside the first sentence ("... in Aleppo (Photo by X/AFP)").
    let mut id = first.to_string();
    if let Some(open) = id.rfind('(') {
        let inner = id[open..].to_lowercase();
        if inner.contains('/') || inner.contains("photo") {
            id.truncate(open);
        }
    }
    id
}

pub(crate) fn words(identity: &str) -> Vec<&str> {
    identity
        .split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .filter(|w| !w.is_empty())
        .collect()
}
