//! Credit lines as news desks write them, wherever they stand in the caption: candidates
//! are gathered (`find`), read piece by piece (`parse`, `words`) against the table of news
//! organisations (`orgs`); credits standing side by side are merged and the best is kept.

mod find;
mod loose;
mod markers;
mod named;
mod orgs;
mod parse;
mod pieces;
mod words;

use cairn_model::{Credit, CreditFlag, Span};

use parse::Cand;

/// A credit found in a caption, with the warnings it gives.
#[derive(Debug, Clone)]
pub struct Found {
    pub credit: Credit,
    pub warnings: Vec<String>,
}

/// Whether only punctuation and spaces stand between two credits.
fn adjacent(text: &str, a: Span, b: Span) -> bool {
    b.start >= a.end
        && text[a.end..b.start].chars().all(|c| {
            c.is_whitespace()
                || matches!(
                    c,
                    '-' | '\u{2013}' | '\u{2014}' | '.' | ',' | ';' | ':' | '|'
                )
        })
}

/// Adds a credit standing next to another (`AFP PHOTO/NAME (Photo credit should read
/// NAME/AFP/Getty Images)`): one photograph, its names once, the fuller roles.
fn merge(into: &mut Cand, c: Cand) {
    into.span = Span::new(
        into.span.start.min(c.span.start),
        into.span.end.max(c.span.end),
    );
    let p = &mut into.parsed;
    for name in c.parsed.people {
        if !p
            .people
            .iter()
            .any(|q| q.to_lowercase() == name.to_lowercase())
        {
            p.people.push(name);
        }
    }
    if p.agency.is_none() {
        p.agency = c.parsed.agency.clone();
    }
    if p.distributor.is_none() && c.parsed.distributor != p.agency {
        p.distributor = c.parsed.distributor;
    }
    for f in c.parsed.flags {
        if !p.flags.contains(&f) {
            p.flags.push(f);
        }
    }
    p.known |= c.parsed.known;
    into.marker |= c.marker;
}

fn score(c: &Cand) -> u8 {
    2 * u8::from(c.parsed.known) + u8::from(c.marker) + u8::from(!c.parsed.people.is_empty())
}

/// Finds the credit line of a caption.
pub fn find(text: &str) -> Option<Found> {
    let mut cands = find::candidates(text);
    // A longer reading of the same words wins (a marker inside brackets, a tail inside
    // a marker's reach).
    cands.sort_by_key(|c| (c.span.start, std::cmp::Reverse(c.span.end)));
    let mut kept: Vec<Cand> = Vec::new();
    for c in cands {
        match kept.last_mut() {
            Some(k) if c.span.start < k.span.end => {
                // The reading that holds the other wins (a marker inside brackets);
                // of two that cross, the better one.
                let len = |x: &Cand| x.span.end - x.span.start;
                let holds = c.span.start <= k.span.start && c.span.end >= k.span.end;
                let held = k.span.start <= c.span.start && k.span.end >= c.span.end;
                if holds || (!held && (score(&c), len(&c)) > (score(k), len(k))) {
                    *k = c;
                }
            }
            _ => kept.push(c),
        }
    }
    let mut groups: Vec<Cand> = Vec::new();
    for c in kept {
        match groups.last_mut() {
            Some(g) if adjacent(text, g.span, c.span) => merge(g, c),
            _ => groups.push(c),
        }
    }
    let best = groups.into_iter().max_by_key(score)?;
    let mut p = best.parsed;
    // `Credit: None`, `(AP Photo/Unknown)`: a form's empty field, not a person.
    p.people.retain(|n| !placeholder_name(n));
    let mut warnings = Vec::new();
    if p.people.is_empty() && !p.flags.is_empty() {
        let names: Vec<&str> = p.flags.iter().map(CreditFlag::as_str).collect();
        warnings.push(format!(
            "credit names no photographer ({})",
            names.join(", ")
        ));
    }
    Some(Found {
        credit: Credit {
            raw: text[best.span.start..best.span.end].to_string(),
            photographers: p.people,
            agency: p.agency,
            distributor: p.distributor,
            span: best.span,
            flags: p.flags,
        },
        warnings,
    })
}

/// A word a credit form writes where it has no name.
fn placeholder_name(name: &str) -> bool {
    const PLACEHOLDERS: [&str; 9] = [
        "none",
        "unknown",
        "n/a",
        "na",
        "null",
        "nil",
        "not available",
        "unnamed",
        "-",
    ];
    let n = name.trim().trim_end_matches('.');
    PLACEHOLDERS.iter().any(|p| n.eq_ignore_ascii_case(p))
}

#[cfg(test)]
mod grammar_tests;
#[cfg(test)]
mod shape_tests;
#[cfg(test)]
mod tests;
