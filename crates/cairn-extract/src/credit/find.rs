//! Where credits stand: in brackets anywhere, after a marker (`Photo:`, `Credit:`, `©`,
//! `تصوير:`), glued after the caption's last sentence, or before the caption's first.

use std::sync::LazyLock;

use cairn_model::{CreditFlag, Span};
use regex::Regex;

use super::markers::{MARKER, MARKER_WORDS, strip_markers};
use super::named;
use super::parse::{self, Cand, Mode, Parsed};
use super::words;

static BRACKET: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"[(\[]([^()\[\]]{1,240})[)\]]").unwrap());
/// The notes wire desks put after a credit, for editors rather than readers, and the
/// picture numbers some print there.
static DESK_NOTE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"(?-u:\b)(?:TPX IMAGES OF THE DAY|ATTENTION EDITORS|ATTENTION: This Image|",
        r"THIS IMAGE HAS BEEN SUPPLIED BY A THIRD PARTY|SEARCH \x22|NO RESALES|NO ARCHIVES|",
        r"MANDATORY CREDIT|BEST QUALITY AVAILABLE|EDITORIAL USE ONLY|NO SALES|",
        r"NO MARKETING|NO ADVERTISING|RESTRICTED TO EDITORIAL|epa[0-9]{6,}(?-u:\b))",
    ))
    .unwrap()
});
static UNCLOSED: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"[(\[]([^()\[\]]{1,120})$").unwrap());

/// Whether the full stop at byte `i` ends a sentence (not an initial, an abbreviation or
/// a dot inside a name such as `ABACAPRESS.COM`).
fn ends_sentence(text: &str, i: usize) -> bool {
    let next = text[i + 1..].chars().next();
    let before = &text[..i];
    let word = before
        .rsplit(|c: char| c.is_whitespace())
        .next()
        .unwrap_or("");
    let glued = next.is_some_and(|c| c.is_uppercase());
    if !(next.is_none_or(|c| c == ' ') || glued) {
        return false;
    }
    if glued
        && !before.chars().last().is_some_and(|c| {
            c.is_lowercase() || c.is_ascii_digit() || matches!(c, ')' | '"' | '”' | '»')
        })
    {
        return false;
    }
    let w = word.trim_start_matches(['(', '"']);
    let abbrev = [
        "Jan", "Feb", "Mar", "Apr", "Aug", "Sep", "Sept", "Oct", "Nov", "Dec", "St", "Mr", "Mrs",
        "Ms", "Dr", "Jr", "No", "Gen", "Col", "Lt", "Sgt", "Capt", "Rep", "Sen", "Gov", "U.S",
        "U.N", "Pres", "Prof", "Rev",
    ];
    let initial = w.chars().count() == 1 && w.chars().all(char::is_uppercase);
    !initial && !abbrev.contains(&w)
}

/// Byte offset just after the last sentence end before `end`, or 0.
pub fn last_boundary(text: &str, end: usize) -> usize {
    let b = text.as_bytes();
    let mut i = end;
    while i > 0 {
        i -= 1;
        if matches!(b[i], b'.' | b'!' | b'?') && i + 1 < end && ends_sentence(text, i) {
            return i + 1;
        }
    }
    0
}

fn first_boundary(text: &str) -> usize {
    text.char_indices()
        .find(|&(i, c)| matches!(c, '.' | '!' | '?') && ends_sentence(text, i))
        .map_or(text.len(), |(i, _)| i)
}

fn has_person(p: &Parsed) -> bool {
    !p.people.is_empty()
}

fn has_org(p: &Parsed) -> bool {
    p.agency.is_some() || p.distributor.is_some()
}

/// Every credit the caption holds, at most one per place.
pub fn candidates(text: &str) -> Vec<Cand> {
    let mut out = Vec::new();
    brackets(text, &mut out);
    markers(text, &mut out);
    tail(text, &mut out);
    lead(text, &mut out);
    if out.is_empty() {
        super::loose::candidates(text, &mut out);
    }
    out
}

fn brackets(text: &str, out: &mut Vec<Cand>) {
    let end = trim_end_len(text);
    let closed = BRACKET.captures_iter(text).map(|m| {
        let (whole, inner) = (m.get(0).unwrap(), m.get(1).unwrap());
        (Span::new(whole.start(), whole.end()), inner.as_str())
    });
    // A bracket the page left open at the caption's end (`(Name - December 29, 2010`).
    let left_open = text[..end].rfind(['(', '[']) > text[..end].rfind([')', ']']);
    let open = left_open
        .then(|| UNCLOSED.captures(&text[..end]))
        .flatten()
        .map(|m| {
            let (whole, inner) = (m.get(0).unwrap(), m.get(1).unwrap());
            (Span::new(whole.start(), whole.end()), inner.as_str())
        });
    for (whole, inner) in closed.chain(open) {
        // A wire's subject tags (`(AFGHANISTAN - Tags: SPORT SOCIETY)`) are no credit.
        if inner.contains("Tags:") {
            continue;
        }
        let skip = strip_markers(inner);
        let body = &inner[skip..];
        let Some(mut p) = parse::parse(body, Mode::Exact) else {
            continue;
        };
        let at_end = whole.end >= end;
        let bare_name = at_end
            && p.people.len() == 1
            && !has_org(&p)
            && p.people[0].starts_with(char::is_uppercase)
            && p.people[0].split_whitespace().count() >= 2;
        let mut start = whole.start;
        if p.people.is_empty() && p.known && p.flags.is_empty() {
            if let Some((s, name)) = name_before(text, whole.start) {
                start = s;
                p.people.push(name);
            }
        }
        // An organisation alone in brackets mid-sentence is the story's (`the state news
        // agency (SANA) said`); as a credit it stands at an end, between sentences or
        // after the photographer's name.
        let alone = at_end
            || start == 0
            || start < whole.start
            || text[..start].trim_end().ends_with(['.', '!', '?', ':']);
        let ok = (p.known && (alone || p.pieces >= 2 || has_person(&p)))
            || skip > 0
            || (p.pieces >= 2 && has_person(&p) && has_org(&p))
            || bare_name;
        if !ok {
            continue;
        }
        out.push(Cand {
            span: Span::new(start, whole.end),
            parsed: p,
            marker: skip > 0,
        });
    }
}

/// A name standing just before a bracketed agency (`…de Gaza.Khalil Hamra (AP)`).
fn name_before(text: &str, open: usize) -> Option<(usize, String)> {
    let before = text[..open].trim_end();
    let b = last_boundary(before, before.len());
    let seg = before[b..].trim_start();
    let seg_start = before.len() - seg.len();
    let n = seg.split_whitespace().count();
    if (2..=4).contains(&n)
        && seg.chars().next().is_some_and(char::is_uppercase)
        && words::person_like(seg)
        && !words::org_like(seg)
    {
        return Some((seg_start, seg.to_string()));
    }
    let spans = words::word_spans(before);
    let w: Vec<&str> = spans.iter().map(|&(a, e)| &before[a..e]).collect();
    let k = words::name_ending_at(&w, w.len(), false)?;
    (w.len() - k >= 2 && w[k..].iter().all(|x| words::all_caps(x)))
        .then(|| (spans[k].0, before[spans[k].0..].to_string()))
}

fn markers(text: &str, out: &mut Vec<Cand>) {
    if !MARKER_WORDS.is_match(text) {
        return;
    }
    for m in MARKER.find_iter(text) {
        let rest = &text[m.end()..];
        let skip = strip_markers(rest);
        let rest_start = m.end() + skip;
        let rest = &text[rest_start..];
        let stop = rest
            .find(['(', ')', '[', ']'])
            .unwrap_or(rest.len())
            .min(MARKER.find(rest).map_or(rest.len(), |n| n.start()))
            .min(caption_label(rest).unwrap_or(rest.len()));
        let sentence = first_boundary(&rest[..stop]);
        let exact = &rest[..sentence];
        let found = parse::parse(exact, Mode::Exact)
            .or_else(|| parse::parse(&rest[..stop], Mode::Lead).filter(|p| p.known));
        if let Some(p) = found {
            if p.start > 2 {
                continue;
            }
            out.push(Cand {
                span: Span::new(m.start(), rest_start + p.end),
                parsed: p,
                marker: true,
            });
        }
    }
}

/// Where a page's label for the caption stands (`Image caption,`, `التعليق على الصورة،`):
/// the credit before it ends there.
fn caption_label(s: &str) -> Option<usize> {
    ["Image caption", "Photo caption", "التعليق على الصورة"]
        .iter()
        .filter_map(|l| s.find(l))
        .min()
}

fn trim_end_len(s: &str) -> usize {
    s.trim_end_matches(|c: char| c.is_whitespace() || c == '.')
        .len()
}

/// Where a credit after the caption may end, and the earliest byte it may start at;
/// `None` when the caption ends in a bracket (read as a bracket).
fn tail_end(text: &str) -> Option<(usize, usize)> {
    let mut end = trim_end_len(text);
    // Page debris after the credit (`…REUTERS/Name</p>`).
    while text[..end].ends_with('>') {
        match text[..end].rfind("</") {
            Some(i) => end = trim_end_len(&text[..i]),
            None => break,
        }
    }
    // A desk's notes to editors after the credit (`REUTERS/Name TPX IMAGES OF THE DAY`,
    // `... ATTENTION EDITORS - THIS IMAGE HAS BEEN SUPPLIED BY A THIRD PARTY.`).
    // (A picture number may also open the caption, `epaselect epa11648574 Relatives ...`:
    // that one is left.)
    let note = DESK_NOTE
        .find_iter(&text[..end])
        .find(|m| !(m.as_str().starts_with("epa") && text[..m.start()].len() < 40));
    if let Some(m) = note {
        end = trim_end_len(&text[..m.start()]);
    }
    // A wire's subject tags after the credit (`REUTERS/Name (COUNTRY - Tags: ...)`).
    if let Some(i) = text[..end].rfind(['(', '[']) {
        if text[i..end].contains("Tags:") {
            end = trim_end_len(&text[..i]);
        }
    }
    let mut floor = 0;
    if text[..end].ends_with([')', ']']) {
        let inner = &text[..end - 1];
        let open = inner.rfind(['(', '[']);
        let prev_close = inner.rfind([')', ']']);
        match open {
            // A closing bracket whose opening was lost (`Name, Outlet - 2009)`).
            None => {}
            Some(o) if prev_close.is_some_and(|c| c > o) => {}
            // A bracket that holds sentences, the credit last (`(Cover: ... 2022. /Reuters)`).
            Some(o) if last_boundary(text, end - 1) > o => floor = o + 1,
            Some(_) => return None,
        }
        end = trim_end_len(inner);
    }
    (end > 0).then_some((end, floor))
}

fn tail(text: &str, out: &mut Vec<Cand>) {
    let Some((end, floor)) = tail_end(text) else {
        return;
    };
    let close = text[..end].rfind([')', ']']).map_or(0, |i| i + 1);
    let b = last_boundary(text, end).max(close).max(floor);
    let Some((cand, whole)) = tail_at(text, b, end) else {
        return;
    };
    out.push(cand);
    // A credit sentence before it (`Photo by Name/Agency. Source: Agency/Distributor`).
    if whole && b > floor.max(close) {
        let end2 = trim_end_len(&text[..b]);
        let b2 = last_boundary(text, end2).max(close).max(floor);
        if let Some((c, true)) = tail_at(text, b2, end2).filter(|(c, _)| c.parsed.known) {
            out.push(c);
        }
    }
}

/// `s` without the dashes or bar that may set a credit off from the caption (`... Quetta.
/// — Photo by Name`, `... Kobe. | NAME`).
fn set_off(s: &str) -> &str {
    s.trim_start_matches(|c: char| c.is_whitespace() || "—–-|".contains(c))
}

/// The credit ending at `end` within the sentence starting at `b`, and whether it is the
/// whole sentence.
fn tail_at(text: &str, b: usize, end: usize) -> Option<(Cand, bool)> {
    let body = &text[b..end];
    let p = parse::parse(body, Mode::Tail)?;
    let whole_first = set_off(&body[..p.start]).is_empty();
    // (`Photo courtesy of Name`: a handout's one name.)
    let bare_name = b > 0
        && whole_first
        && p.people.len() == 1
        && !has_org(&p)
        && p.flags.iter().all(|f| *f == CreditFlag::Handout)
        && (2..=4).contains(&p.people[0].split_whitespace().count())
        && set_off(body).chars().next().is_some_and(char::is_uppercase);
    let ok = p.known || (p.pieces >= 2 && has_person(&p) && has_org(&p)) || bare_name;
    ok.then(|| {
        let cand = Cand {
            span: Span::new(b + p.start, b + p.end),
            parsed: p,
            marker: false,
        };
        (cand, whole_first)
    })
}

fn lead(text: &str, out: &mut Vec<Cand>) {
    let skip = strip_markers(text);
    let rest = &text[skip..];
    let stop = first_boundary(rest).min(rest.find(['(', '[']).unwrap_or(rest.len()));
    // `Name/AP - PHOTO: ...`: a marker ends the credit before it; `Heading | Photo: AP/Name`:
    // what stands before a marker is no credit (the marker's own reading takes the rest).
    let stop = match MARKER.find(&rest[..stop]).filter(|m| m.start() > 0) {
        Some(m) if rest[..m.start()].trim_end().ends_with(['-', '–', '—']) => m.start(),
        Some(_) => return,
        None => stop,
    };
    // A credit before the caption has a separator within its first piece's reach
    // (ten words at most): most captions have none there and are not parsed.
    let head = &rest[..stop.min(
        (0..=rest.len().min(160))
            .rev()
            .find(|&i| rest.is_char_boundary(i))
            .unwrap_or(0),
    )];
    let marked = skip > 0;
    if !marked && !head.contains(['/', '\\', '|', ',', '-', '–', '—']) && !head.contains(" via ")
    {
        return;
    }
    // Only a credit that names an organisation of the table is taken before the caption.
    if !named::may_name_one(&rest[..stop]) {
        return;
    }
    if let Some(p) = parse::parse(&rest[..stop], Mode::Lead) {
        // After a marker (`Bild: AFP Zerstörung, ...`) one piece is a credit too.
        if p.known && p.start == 0 && (p.pieces >= 2 || marked) {
            out.push(Cand {
                span: Span::new(0, skip + p.end),
                parsed: p,
                marker: skip > 0,
            });
        }
    }
}
