//! Credits that no bracket, marker or sentence end bounds, read only when nothing better
//! was found: a wire's name opening the caption (`24 février 2022 AFP Helena, ...`,
//! `Reuters انتشرت ...`, `EFEUna niña ...`), a `by Name` opening (`Created by Name 02 Aug
//! 2014 ...`), and `Agency/Name` standing inside the text (`... in Aleppo Reuters/Name Die
//! Aufnahme ...`).

use cairn_model::Span;

use super::orgs::{self, Kind};
use super::parse::{self, Cand, Mode};
use super::words;

/// The loose credits of `text`.
pub fn candidates(text: &str, out: &mut Vec<Cand>) {
    if let Some(c) = opening_agency(text).or_else(|| opening_by(text)) {
        out.push(c);
        return;
    }
    if let Some(c) = inner_slash(text) {
        out.push(c);
    }
}

/// Where the caption's words begin after a date that opens it.
fn after_opening_date(text: &str) -> usize {
    let dates = crate::date::find_all(text);
    let skip = dates
        .first()
        .filter(|d| d.span.start == 0)
        .map_or(0, |d| d.span.end);
    skip + (text[skip..].len() - text[skip..].trim_start().len())
}

/// A wire agency's name written as the trade writes it, as the first word (`AFP`,
/// `Reuters`), or glued in capitals to the caption's first word (`EFEUna`); returns the
/// name's length.
fn opening_wire(rest: &str) -> Option<usize> {
    let word_end = rest.find(char::is_whitespace).unwrap_or(rest.len());
    let word = rest[..word_end].trim_end_matches([',', ':']);
    let is_wire = |w: &str| {
        orgs::lookup(w).is_some_and(|o| {
            o.kind == Kind::Wire && (words::all_caps(w) || w == o.name) && !w.contains(' ')
        })
    };
    if is_wire(word) {
        let next = rest[word_end..].trim_start().chars().next()?;
        let opens = next.is_uppercase() || (next.is_alphabetic() && !next.is_lowercase());
        return opens.then_some(word.len());
    }
    // `EFEUna`: capitals, then the caption's first word with its own capital.
    let caps = word.chars().take_while(|c| c.is_ascii_uppercase()).count();
    let glued = caps >= 3
        && word[caps..].starts_with(|c: char| c.is_lowercase())
        && is_wire(&word[..caps - 1]);
    glued.then(|| caps - 1)
}

fn opening_agency(text: &str) -> Option<Cand> {
    let start = after_opening_date(text);
    let len = opening_wire(&text[start..])?;
    let span = Span::new(start, start + len);
    let parsed = parse::parse(&text[span.start..span.end], Mode::Exact)?;
    Some(Cand {
        span,
        parsed,
        marker: false,
    })
}

/// `by Name`, `Created by Name`, `Photo by Name` opening the caption, the name ended by
/// case or by a date.
fn opening_by(text: &str) -> Option<Cand> {
    let intro = ["created by ", "photos by ", "photo by ", "by "]
        .into_iter()
        .find(|i| {
            text.len() > i.len()
                && text
                    .get(..i.len())
                    .is_some_and(|h| h.eq_ignore_ascii_case(i))
        })?;
    let rest = &text[intro.len()..];
    let spans = words::word_spans(rest);
    let w: Vec<&str> = spans.iter().map(|&(a, e)| &rest[a..e]).collect();
    let j = words::name_starting_at(&w, 0)?;
    let name = &rest[..spans[j - 1].1];
    if words::org_like(name) || j > 4 {
        return None;
    }
    let end = intro.len() + spans[j - 1].1;
    let parsed = parse::parse(name, Mode::Exact)?;
    (!parsed.people.is_empty()).then_some(Cand {
        span: Span::new(0, end),
        parsed,
        marker: true,
    })
}

/// `Reuters/Name Name` inside the text: a known agency, a slash, a full name.
fn inner_slash(text: &str) -> Option<Cand> {
    text.match_indices('/').find_map(|(i, _)| {
        let left = &text[..i];
        let spans = words::word_spans(left);
        let (k, o) = words::org_ending_at(left, &spans, spans.len())?;
        if !matches!(o.kind, Kind::Wire | Kind::Photo) {
            return None;
        }
        let right = &text[i + 1..];
        let rs = words::word_spans(right);
        let w: Vec<&str> = rs.iter().map(|&(a, e)| &right[a..e]).collect();
        let j = words::name_starting_at(&w, 0)?;
        let span = Span::new(spans[k].0, i + 1 + rs[j - 1].1);
        let parsed = parse::parse(&text[span.start..span.end], Mode::Exact)?;
        (parsed.known && !parsed.people.is_empty()).then_some(Cand {
            span,
            parsed,
            marker: false,
        })
    })
}
