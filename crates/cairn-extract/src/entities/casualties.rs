//! Killed and injured counts of the event a caption shows, in English, French, Spanish,
//! German, Arabic, Russian, Ukrainian, Turkish, Italian and Portuguese; tolls of another event or of a whole war are left out.

mod desks;
mod numbers;
mod patterns;

use std::sync::LazyLock;

use cairn_model::{Count, Span};
use regex::Regex;

use crate::text::Mask;
use numbers::parse_count;
use patterns::{BACKGROUND, COMPARED, DEAD_LIST, ELSEWHERE, Kind, PERFECT, Pattern, SUM};

/// Every phrasing, English first and the later desks' last; a slot keeps the first
/// count that fills it.
static PATTERNS: LazyLock<Vec<Pattern>> = LazyLock::new(|| {
    let mut all = patterns::phrasings();
    all.extend(desks::patterns());
    all
});

/// What every pattern needs one of.
static COUNT_NEEDS: LazyLock<Regex> = LazyLock::new(|| patterns::count_needs(&[desks::NEEDS]));

/// A count read from `span`: the number, and its hedge ("at least", "up to").
fn count(hedge: Option<&str>, num: &str, text: &str, span: Span) -> Option<Count> {
    let (n, open) = parse_count(num)?;
    let hedge = hedge.map(|h| {
        h.split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase()
    });
    let (low, high) = match hedge.as_deref() {
        Some(h) if numbers::is_upper_bound(h) => return None,
        Some(_) => (n, None),
        _ if open => (n, None),
        _ => (n, Some(n)),
    };
    Some(Count {
        low,
        high,
        text: text[span.start..span.end].to_string(),
        span,
    })
}

/// The sentence holding `span`.
fn sentence_of(text: &str, sentences: &[Span], span: Span) -> Span {
    sentences
        .iter()
        .find(|s| span.start >= s.start && span.start < s.end)
        .copied()
        .unwrap_or(Span::new(0, text.len()))
}

/// Whether a count belongs to the background: another event ("Elsewhere, ..."), or a
/// war's or a country's running total.
fn is_background(text: &str, sentences: &[Span], c: &Count) -> bool {
    let span = c.span;
    let sent = sentence_of(text, sentences, span);
    if ELSEWHERE.is_match(&text[sent.start..span.start])
        || COMPARED.is_match(&text[sent.start..span.start])
    {
        return true;
    }
    let clause_start = text[sent.start..span.start]
        .rfind([';', ':'])
        .map(|p| sent.start + p)
        .unwrap_or(sent.start);
    let end = span.end.min(sent.end).max(span.end);
    // After the toll, "the deadliest attack since 2019" compares the scene's own event.
    let after = &text[span.end..sent.end.max(span.end)];
    if BACKGROUND.is_match(&text[clause_start..end])
        || (BACKGROUND.is_match(after) && !COMPARED.is_match(after))
    {
        return true;
    }
    // "More than 41,900 Palestinians have been killed", "the fighting has killed 2,000":
    // a running total, told in the perfect, of a size no single event in a photograph
    // reaches but a war's does.
    c.low >= 1000 && PERFECT.is_match(&text[clause_start..sent.end.max(span.end)])
}

/// Killed and injured counts of the event shown; background statistics are skipped.
pub fn casualties(
    text: &str,
    sentences: &[Span],
    mask: &Mask,
) -> (Option<Count>, Option<Count>, Vec<String>) {
    let mut killed: Option<Count> = None;
    let mut injured: Option<Count> = None;
    let mut warnings = Vec::new();
    if !COUNT_NEEDS.is_match(text) {
        return (killed, injured, warnings);
    }
    let mut consider = |kind: Kind, c: Count| {
        if mask.overlaps(c.span) {
            return;
        }
        if is_background(text, sentences, &c) {
            warnings.push(format!(
                "count {:?} is a background statistic; not a casualty of the scene",
                c.text
            ));
            return;
        }
        let slot = match kind {
            Kind::Killed => &mut killed,
            Kind::Injured => &mut injured,
        };
        if slot.is_none() {
            *slot = Some(c);
        }
    };
    for (kind, c) in sums(text) {
        consider(kind, c);
    }
    // The patterns of one language share their literals: each set is tested once.
    let mut needs_seen: Vec<(&str, bool)> = Vec::new();
    for p in PATTERNS.iter() {
        let needs = p.needs.as_str();
        let met = match needs_seen.iter().find(|(n, _)| *n == needs) {
            Some(&(_, met)) => met,
            None => {
                let met = p.needs.is_match(text);
                needs_seen.push((needs, met));
                met
            }
        };
        if !met {
            continue;
        }
        for c in p.re().captures_iter(text) {
            let num = c.name("n").unwrap();
            // "12 people and wounded 30": a conjunction ends the noun phrase of the count.
            if let Some(filler) = c.name("f") {
                if filler
                    .as_str()
                    .split_whitespace()
                    .any(numbers::ends_noun_phrase)
                {
                    continue;
                }
            }
            let span = group_span(&c);
            let kind = p.kind.unwrap_or_else(|| Kind::of(&c["k"]));
            if let Some(cnt) = count(c.name("h").map(|m| m.as_str()), num.as_str(), text, span) {
                consider(kind, cnt);
            }
        }
    }
    (killed, injured, warnings)
}

/// From the first to the last named part of a match: the words of the toll, without
/// the neighbours a pattern consumes to find the edges of words.
fn group_span(c: &regex::Captures<'_>) -> Span {
    let parts = ["h", "n", "f", "k"].map(|n| c.name(n));
    let start = parts.iter().flatten().map(|m| m.start()).min().unwrap_or(0);
    let end = parts.iter().flatten().map(|m| m.end()).max().unwrap_or(0);
    Span::new(start, end)
}

/// "two men and four children were killed", "the dead include two men and a boy": a
/// list of counted people, summed.
fn sums(text: &str) -> Vec<(Kind, Count)> {
    let mut out = Vec::new();
    for c in SUM.captures_iter(text).chain(DEAD_LIST.captures_iter(text)) {
        let g = c.get(0).unwrap();
        let list = c.name("list").unwrap().as_str();
        let mut total = 0u32;
        let mut parts = 0;
        let mut ok = true;
        for part in list.split([',']).flat_map(|p| p.split(" and ")) {
            let part = part.trim();
            let part = part.strip_prefix("and ").unwrap_or(part);
            if part.is_empty() {
                continue;
            }
            let first = part.split_whitespace().next().unwrap_or("");
            match first.to_ascii_lowercase().as_str() {
                "a" | "an" => total += 1,
                w => match parse_count(w) {
                    Some((n, false)) => total += n,
                    _ => ok = false,
                },
            }
            parts += 1;
        }
        if ok && parts >= 2 {
            out.push((
                Kind::of(&c["k"]),
                Count {
                    low: total,
                    high: Some(total),
                    text: g.as_str().to_string(),
                    span: Span::new(g.start(), g.end()),
                },
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests;
