//! Caption text as the page shows it: the record's evidence marked, the words of the
//! search marked inside it, and a variant's words set against the canonical text.

use cairn_model::{Record, Span};
use maud::{Markup, html};

/// The words of a query worth marking in results: operators, exclusions, field names
/// and punctuation left out, lowercased.
pub(crate) fn query_terms(q: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for raw in q.split_whitespace() {
        if raw.starts_with('-') || matches!(raw, "AND" | "OR" | "NOT") {
            continue;
        }
        let raw = raw.rsplit(':').next().unwrap_or(raw);
        for w in raw.split(|c: char| !c.is_alphanumeric()) {
            let w = w.to_lowercase();
            if w.chars().count() >= 2 && !out.contains(&w) {
                out.push(w);
            }
        }
    }
    out
}

/// `text` with each word that starts with one of `terms` wrapped in `mark.term`.
fn with_terms(text: &str, terms: &[String]) -> Markup {
    if terms.is_empty() {
        return html! { (text) };
    }
    let mut pieces: Vec<(&str, bool)> = Vec::new();
    let mut start = 0;
    let mut word_start: Option<usize> = None;
    let hit = |w: &str| {
        let lw = w.to_lowercase();
        terms.iter().any(|t| lw.starts_with(t.as_str()))
    };
    for (i, c) in text.char_indices() {
        match (c.is_alphanumeric(), word_start) {
            (true, None) => {
                if start < i {
                    pieces.push((&text[start..i], false));
                }
                word_start = Some(i);
            }
            (false, Some(ws)) => {
                pieces.push((&text[ws..i], hit(&text[ws..i])));
                word_start = None;
                start = i;
            }
            _ => {}
        }
    }
    match word_start {
        Some(ws) => pieces.push((&text[ws..], hit(&text[ws..]))),
        None if start < text.len() => pieces.push((&text[start..], false)),
        None => {}
    }
    html! {
        @for (p, hit) in pieces {
            @if hit { mark.term { (p) } } @else { (p) }
        }
    }
}

/// Marks the evidence spans of a record in its text (credit, date, location,
/// casualties) and the search's words. Spans that overlap an earlier one or fall off
/// character boundaries are left unmarked.
pub(crate) fn highlighted(text: &str, record: Option<&Record>, terms: &[String]) -> Markup {
    let mut marks: Vec<(Span, &'static str, String)> = Vec::new();
    if let Some(r) = record {
        if let Some(c) = &r.credit {
            marks.push((c.span, "credit", "credit".into()));
        }
        if let Some(d) = &r.date {
            marks.push((d.span, "date", format!("date: {}", d.value)));
        }
        if let Some(l) = &r.location {
            marks.push((l.span, "place", format!("location: {}", l.name)));
        }
        if let Some(k) = &r.casualties.killed {
            marks.push((k.span, "killed", format!("killed: {}", k.low)));
        }
        if let Some(k) = &r.casualties.injured {
            marks.push((k.span, "injured", format!("injured: {}", k.low)));
        }
    }
    marks.sort_by_key(|(s, _, _)| (s.start, s.end));
    let mut at = 0;
    let mut parts: Vec<(&str, Option<(&'static str, String)>)> = Vec::new();
    for (span, class, title) in marks {
        let ok = span.start >= at
            && span.end <= text.len()
            && span.start < span.end
            && text.is_char_boundary(span.start)
            && text.is_char_boundary(span.end);
        if !ok {
            continue;
        }
        parts.push((&text[at..span.start], None));
        parts.push((&text[span.start..span.end], Some((class, title))));
        at = span.end;
    }
    parts.push((&text[at..], None));
    html! {
        @for (t, m) in parts {
            @match m {
                Some((class, title)) => mark class=(format!("ev ev-{class}")) title=(title) { (with_terms(t, terms)) },
                None => (with_terms(t, terms)),
            }
        }
    }
}

/// The colours of the marks, explained once above the results.
pub(crate) fn legend() -> Markup {
    html! {
        p.legend aria-label="What the colours mark" {
            mark.term { "search words" } " "
            mark.ev.ev-credit { "credit" } " "
            mark.ev.ev-date { "date" } " "
            mark.ev.ev-place { "location" } " "
            mark.ev.ev-killed { "killed" } " "
            mark.ev.ev-injured { "injured" }
        }
    }
}

/// Longest texts (in words) diffed; longer variants are shown whole.
const DIFF_WORDS: usize = 600;

/// A variant's text with the words it lacks from the canonical text struck (`del`) and
/// the words it adds marked (`ins`), by a longest common subsequence of words.
pub(crate) fn word_diff(canonical: &str, variant: &str) -> Markup {
    let a: Vec<&str> = canonical.split_whitespace().collect();
    let b: Vec<&str> = variant.split_whitespace().collect();
    if a.len() > DIFF_WORDS || b.len() > DIFF_WORDS {
        return html! { (variant) };
    }
    // lcs[i][j]: the common words of a[i..] and b[j..].
    let mut lcs = vec![vec![0u16; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            lcs[i][j] = if a[i] == b[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let mut ops: Vec<(char, &str)> = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            ops.push(('=', a[i]));
            i += 1;
            j += 1;
        } else if j < b.len() && (i == a.len() || lcs[i][j + 1] >= lcs[i + 1][j]) {
            ops.push(('+', b[j]));
            j += 1;
        } else {
            ops.push(('-', a[i]));
            i += 1;
        }
    }
    html! {
        @for (n, (op, w)) in ops.iter().enumerate() {
            @if n > 0 { " " }
            @match op {
                '+' => ins title="only in this variant" { (w) },
                '-' => del title="only in the canonical text" { (w) },
                _ => (w),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_terms_leave_out_operators_and_exclusions() {
        assert_eq!(
            query_terms("Ma'arrat AND -Homs place:Aleppo \"air strike\""),
            vec!["ma", "arrat", "aleppo", "air", "strike"]
        );
    }

    #[test]
    fn search_words_are_marked_inside_evidence() {
        let m = highlighted("Smoke over Aleppo's old city", None, &["aleppo".into()]);
        assert_eq!(
            m.into_string(),
            "Smoke over <mark class=\"term\">Aleppo</mark>'s old city"
        );
    }

    #[test]
    fn caption_markup_is_escaped() {
        let text = "<script>alert(1)</script> \" onmouseover=x in Aleppo";
        let m = highlighted(text, None, &["script".into()]).into_string();
        assert!(!m.contains("<script>"), "{m}");
        assert!(
            m.contains("&lt;<mark class=\"term\">script</mark>&gt;"),
            "{m}"
        );
        assert!(m.contains("&quot; onmouseover=x"));
    }

    #[test]
    fn a_variant_shows_its_added_and_missing_words() {
        let m = word_diff(
            "Men carry a child in Douma",
            "Men carry an injured child in Duma",
        )
        .into_string();
        assert_eq!(
            m,
            "Men carry <ins title=\"only in this variant\">an</ins> \
             <ins title=\"only in this variant\">injured</ins> \
             <del title=\"only in the canonical text\">a</del> child in \
             <ins title=\"only in this variant\">Duma</ins> \
             <del title=\"only in the canonical text\">Douma</del>"
        );
    }
}
