//! Credit lines in the common wire styles, wherever they stand in the caption.

use std::sync::LazyLock;

use cairn_model::{Credit, Span};
use regex::Regex;

use crate::date;
use crate::text::{lowered, sentences};

/// A credit found in a caption, with the span of a publication date inside it.
#[derive(Debug, Clone)]
pub struct Found {
    pub credit: Credit,
    pub warnings: Vec<String>,
}

/// Canonical agency names, by the lowercase forms captions use.
fn canonical_agency(s: &str) -> Option<&'static str> {
    let l = lowered(s.trim().trim_end_matches('.'));
    let l = l
        .strip_suffix(" photos")
        .or_else(|| l.strip_suffix(" photo"))
        .unwrap_or(&l)
        .trim();
    Some(match l {
        "afp" | "agence france-presse" | "agence france presse" | "afp photo" => "AFP",
        "reuters" | "thomson reuters" | "reuters pictures" => "Reuters",
        "ap" | "associated press" | "the associated press" => "AP",
        "epa" | "epa-efe" | "efe-epa" | "european pressphoto agency" => "EPA",
        "getty images" | "getty" => "Getty Images",
        "sample wire" => "Sample Wire",
        _ => return None,
    })
}

const ORG_WORDS: &[&str] = &[
    "times",
    "post",
    "news",
    "press",
    "agency",
    "images",
    "register",
    "herald",
    "journal",
    "tribune",
    "globe",
    "gazette",
    "daily",
    "media",
    "network",
    "service",
    "pictures",
    "wire",
    "bureau",
    "star",
    "ledger",
    "dispatch",
    "chronicle",
    "examiner",
    "inquirer",
    "bee",
    "magazine",
    "television",
    "tv",
    "photo",
    "photos",
    "newspaper",
    "reuters",
    "pool",
    "ministry",
    "army",
    "office",
    "group",
    "foundation",
    "institute",
    "center",
    "centre",
];

const ROLES: &[&str] = &[
    "stringer", "handout", "pool", "file", "staff", "str", "ho", "courtesy",
];

fn is_role(s: &str) -> bool {
    ROLES.contains(&&*lowered(s.trim().trim_end_matches('.')))
}

fn is_all_caps(s: &str) -> bool {
    let mut letters = 0;
    for c in s.chars().filter(|c| c.is_alphabetic()) {
        if !c.is_uppercase() {
            return false;
        }
        letters += 1;
    }
    letters >= 2
}

fn org_like(s: &str) -> bool {
    let t = s.trim();
    if canonical_agency(t).is_some() || t.starts_with("The ") {
        return true;
    }
    if is_all_caps(t) && !t.contains(' ') {
        return true;
    }
    t.split(|c: char| c.is_whitespace() || c == '-')
        .any(|w| ORG_WORDS.contains(&&*lowered(w.trim_matches(|c: char| !c.is_alphanumeric()))))
}

/// Whether a string looks like one person's name: 1 to 5 capitalised words, initials or
/// name particles, no digits.
pub(crate) fn person_like(s: &str) -> bool {
    let t = s.trim();
    if t.is_empty() || t.len() > 60 || t.chars().any(|c| c.is_ascii_digit()) {
        return false;
    }
    let words: Vec<&str> = t.split_whitespace().collect();
    if words.is_empty() || words.len() > 5 {
        return false;
    }
    const PARTICLES: &[&str] = &[
        "de", "da", "del", "della", "di", "van", "von", "der", "den", "la", "le", "du", "dos",
        "bin", "ibn", "al", "el",
    ];
    let caps = words
        .iter()
        .filter(|w| {
            let w = w.trim_start_matches(['(', '"']);
            w.chars().next().is_some_and(|c| c.is_uppercase())
        })
        .count();
    let ok_words = words.iter().all(|w| {
        let l = lowered(w);
        w.chars().next().is_some_and(|c| c.is_uppercase())
            || PARTICLES.contains(&&*l)
            || l.starts_with("al-")
            || l.starts_with("el-")
            || l.starts_with("d'")
    });
    ok_words && caps >= 1 && !is_all_caps(t)
}

fn split_people(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    for part in s
        .split(" and ")
        .flat_map(|p| p.split(" & "))
        .flat_map(|p| p.split(", "))
    {
        let p = part.trim().trim_end_matches('.').trim();
        if !p.is_empty() {
            out.push(p.to_string());
        }
    }
    out
}

fn clean_org(s: &str) -> String {
    let t = s.trim().trim_end_matches('.').trim();
    if let Some(c) = canonical_agency(t) {
        return c.to_string();
    }
    let t = t
        .strip_suffix(" Photos")
        .or_else(|| t.strip_suffix(" Photo"))
        .unwrap_or(t);
    let t = t.strip_suffix(" PHOTO").unwrap_or(t);
    t.trim().to_string()
}

static PREFIX: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^(?:photos?|photographs?|pictures?|images?|video)\s*(?:by\s+|:\s*|credit:\s*)|^(?:credit|photo credit)\s*:\s*").unwrap()
});

/// Parses the inside of a credit ("Photo by X/AFP Photo", "AP Photo/X", "X, Associated
/// Press - October 3, 2012"...). `rel` is the offset of `inner` in the caption.
/// The parts of a credit.
struct Parsed {
    people: Vec<String>,
    agency: Option<String>,
    distributor: Option<String>,
    warnings: Vec<String>,
}

fn parse_inner(inner: &str, rel: usize, strong: bool) -> Option<Parsed> {
    let mut warnings = Vec::new();
    let trimmed = inner.trim();
    let lead = inner.len() - inner.trim_start().len();
    // ("Published ...": ASCII letters, so comparing bytes without case finds what
    // lower-casing the text would.)
    let published = trimmed
        .get(..9)
        .is_some_and(|p| p.eq_ignore_ascii_case("published"));
    if trimmed.is_empty() || published {
        return None;
    }
    // A date alone is not a credit.
    if date::find_all(trimmed)
        .iter()
        .any(|d| d.span.start == 0 && d.span.end >= trimmed.trim_end_matches('.').len())
    {
        return None;
    }
    let mut body = trimmed.trim_end_matches('.');
    let mut prefixed = false;
    let mut body_off = rel + lead;
    if let Some(m) = PREFIX.find(body) {
        prefixed = true;
        body_off += m.end();
        body = &body[m.end()..];
    }
    // A trailing date belongs to publication: "X/The New York Times - October 3, 2012".
    let mut date_span = None;
    if let Some(d) = date::find_all(body)
        .into_iter()
        .rfind(|d| d.span.end + 2 >= body.len())
    {
        let before = body[..d.span.start].trim_end();
        let sep_ok = before.ends_with('-')
            || before.ends_with('/')
            || before.ends_with(',')
            || before.ends_with('–');
        if sep_ok {
            date_span = Some(d.span.shift(body_off));
            body = before.trim_end_matches(['-', '/', ',', '–']).trim_end();
        }
    }
    if body.is_empty() {
        return None;
    }
    let has_via = body.contains(" via ");
    let (left, via) = match body.split_once(" via ") {
        Some((l, r)) => (l.trim(), Some(clean_org(r))),
        None => (body, None),
    };
    let mut parts: Vec<String> = left
        .split('/')
        .map(|p| p.trim().to_string())
        .filter(|p| !p.is_empty())
        .collect();
    if parts.len() == 1 {
        // "Name, Associated Press" or "Name for The New York Times".
        let p = parts[0].clone();
        if let Some((a, b)) = p.rsplit_once(", ").or_else(|| p.rsplit_once(" for ")) {
            if org_like(b) || canonical_agency(b).is_some() {
                parts = vec![a.trim().to_string(), b.trim().to_string()];
            }
        }
    }
    let mut people = Vec::new();
    let mut orgs: Vec<String> = Vec::new();
    let mut unknown: Vec<String> = Vec::new();
    let mut roles = Vec::new();
    for p in &parts {
        if is_role(p) {
            roles.push(p.to_lowercase());
        } else if org_like(p) {
            orgs.push(clean_org(p));
        } else if person_like(p) || p.contains(" and ") || p.contains(" & ") {
            unknown.push(p.clone());
        } else {
            return None;
        }
    }
    // "Photographer/Organisation": with no recognised organisation, the last of several
    // name-like parts is the organisation.
    if orgs.is_empty() && unknown.len() >= 2 {
        orgs.push(clean_org(&unknown.pop().unwrap_or_default()));
    }
    for u in unknown {
        people.extend(split_people(&u));
    }
    if !roles.is_empty() && people.is_empty() {
        warnings.push(format!(
            "credit names no photographer ({})",
            roles.join(", ")
        ));
    }
    let mut agency = orgs.first().cloned();
    let mut distributor = via.or_else(|| orgs.get(1).cloned());
    if agency.is_none() && distributor.is_some() && roles.is_empty() && people.is_empty() {
        agency = distributor.take();
    }
    let recognised =
        orgs.iter().any(|o| canonical_agency(o).is_some()) || via_is_agency(&distributor);
    let multi = parts.len() >= 2 || has_via;
    let plausible = prefixed || recognised || multi || (strong && !people.is_empty());
    if !plausible || (people.is_empty() && agency.is_none() && distributor.is_none()) {
        return None;
    }
    let _ = date_span;
    Some(Parsed {
        people,
        agency,
        distributor,
        warnings,
    })
}

fn via_is_agency(d: &Option<String>) -> bool {
    d.as_deref().is_some_and(|d| canonical_agency(d).is_some())
}

static PAREN: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\(([^()]{2,200})\)").unwrap());
static CAPS_SLASH: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b(?:[A-Z][A-Z&.-]+(?: [A-Z][A-Z&.-]+)*)(?: PHOTO)?/[A-Z][^()\n]*?(?:\.\s|\.$|$)")
        .unwrap()
});
static TRAIL_SLASH: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:^|[.!?]\s+|\s)((?:Photo(?:graph)?s?(?: by|:)\s+)?[A-Z][\w'’.-]*(?:\s+(?:[A-Z][\w'’.-]*|and|de|van|al-\w+))*(?:/[A-Z][\w'’&. -]*)+(?:\s+via\s+[A-Z][\w .&-]*)?)\.?\s*$").unwrap()
});
static VIA: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:^|[.!?]\s+)([A-Z][\w'’.-]*(?:\s+[A-Z][\w'’.-]*)*\s+via\s+(?:AP|Reuters|REUTERS|AFP|Getty Images|EPA)(?: Photo)?)\.?\s*$").unwrap()
});
static PHOTO_BY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:^|[.!?]\s+)((?:Photo|Photograph|Picture)s?(?: by|:)\s+[^()\n]+?)\.?\s*$")
        .unwrap()
});

/// Finds the credit line of a caption.
pub fn find(text: &str) -> Option<Found> {
    let len = text.trim_end().len();
    let mut best: Option<Found> = None;
    let consider =
        |best: &mut Option<Found>, raw_span: Span, inner: &str, inner_off: usize, strong: bool| {
            if let Some(Parsed {
                people: photographers,
                agency,
                distributor,
                warnings,
            }) = parse_inner(inner, inner_off, strong)
            {
                let cand = Found {
                    credit: Credit {
                        raw: text[raw_span.start..raw_span.end].to_string(),
                        photographers,
                        agency,
                        distributor,
                        span: raw_span,
                        flags: Vec::new(),
                    },
                    warnings,
                };
                // The latest credit in the text wins (credits close captions).
                if best
                    .as_ref()
                    .is_none_or(|b| cand.credit.span.start > b.credit.span.start)
                {
                    *best = Some(cand);
                }
            }
        };
    for m in PAREN.captures_iter(text) {
        let whole = m.get(0).unwrap();
        let inner = m.get(1).unwrap();
        // A bare name in parentheses counts only when it closes the caption.
        let at_end = text[whole.end()..]
            .trim_matches(|c: char| c.is_whitespace() || c == '.')
            .is_empty();
        consider(
            &mut best,
            Span::new(whole.start(), whole.end()),
            inner.as_str(),
            inner.start(),
            at_end,
        );
    }
    for m in CAPS_SLASH.find_iter(text) {
        if text[..m.start()].ends_with('/') {
            continue; // the middle of "Name/AFP/Getty Images"
        }
        let s = m.as_str().trim_end().trim_end_matches('.');
        let span = Span::new(m.start(), m.start() + s.len());
        consider(&mut best, span, s, m.start(), true);
    }
    // Unparenthesised credits standing last: "X/Reuters", "Photo by X.", "X via AP".
    if best.is_none() {
        let last = sentences(text).last().copied().unwrap_or(Span::new(0, len));
        let tail = &text[last.start..];
        for re in [&*TRAIL_SLASH, &*VIA, &*PHOTO_BY] {
            if let Some(c) = re.captures(tail) {
                let g = c.get(1).unwrap();
                let s = g.as_str().trim_end().trim_end_matches('.');
                let start = last.start + g.start();
                consider(&mut best, Span::new(start, start + s.len()), s, start, true);
                if best.is_some() {
                    break;
                }
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(text: &str, photographers: &[&str], agency: Option<&str>, distributor: Option<&str>) {
        let f = find(text).unwrap_or_else(|| panic!("no credit in {text:?}"));
        let c = f.credit;
        assert_eq!(c.photographers, photographers, "{text}");
        assert_eq!(c.agency.as_deref(), agency, "{text}");
        assert_eq!(c.distributor.as_deref(), distributor, "{text}");
        assert_eq!(&text[c.span.start..c.span.end], c.raw);
    }

    #[test]
    fn wire_styles() {
        check(
            "A man walks. (Photo by Sameer Al-Doumy/AFP Photo)",
            &["Sameer Al-Doumy"],
            Some("AFP"),
            None,
        );
        check(
            "A man walks. REUTERS/Khalil Ashawi",
            &["Khalil Ashawi"],
            Some("Reuters"),
            None,
        );
        check(
            "A man walks. Khalil Ashawi/Reuters",
            &["Khalil Ashawi"],
            Some("Reuters"),
            None,
        );
        check(
            "A man walks, Tuesday, May 9, 2023. (AP Photo/Ivan Valencia)",
            &["Ivan Valencia"],
            Some("AP"),
            None,
        );
        check(
            "A man walks. (Ivan Valencia/AP)",
            &["Ivan Valencia"],
            Some("AP"),
            None,
        );
        check(
            "A man walks. Louai Beshara/AFP/Getty Images",
            &["Louai Beshara"],
            Some("AFP"),
            Some("Getty Images"),
        );
        check(
            "A man walks. Jane Doe via AP",
            &["Jane Doe"],
            None,
            Some("AP"),
        );
        check(
            "A man walks. Photo: Youssef Badawi/EPA",
            &["Youssef Badawi"],
            Some("EPA"),
            None,
        );
        check(
            "A man walks. (Manu Brabo, Associated Press - October 3, 2012)",
            &["Manu Brabo"],
            Some("AP"),
            None,
        );
        check(
            "A man walks. (Vincent Laforet/The New York Times - September 30, 2001)",
            &["Vincent Laforet"],
            Some("The New York Times"),
            None,
        );
        check(
            "A man walks. Photo by Ahmed Zakot.",
            &["Ahmed Zakot"],
            None,
            None,
        );
        check(
            "A man walks. (Photo by Ann Lee and Bo Kim/AFP)",
            &["Ann Lee", "Bo Kim"],
            Some("AFP"),
            None,
        );
        check("A man walks. REUTERS/Stringer", &[], Some("Reuters"), None);
        check(
            "A man walks. Handout via Reuters",
            &[],
            None,
            Some("Reuters"),
        );
        check(
            "A man walks. SANA/Handout via REUTERS",
            &[],
            Some("SANA"),
            Some("Reuters"),
        );
        check(
            "A fighter. (Photo by Alexander Kots/Komsomolskaya Pravda via AP Photo)",
            &["Alexander Kots"],
            Some("Komsomolskaya Pravda"),
            Some("AP"),
        );
        check(
            "A man walks in the rain. (Danish Siddiqui)",
            &["Danish Siddiqui"],
            None,
            None,
        );
        check(
            "A man walks. (Lucian Perkins/The Washington Post)",
            &["Lucian Perkins"],
            Some("The Washington Post"),
            None,
        );
        check(
            "A man walks. (Sample Wire Photo/Rami Haddad)",
            &["Rami Haddad"],
            Some("Sample Wire"),
            None,
        );
        check(
            "A man walks. SAMPLE WIRE/Rami Haddad",
            &["Rami Haddad"],
            Some("Sample Wire"),
            None,
        );
    }

    #[test]
    fn dates_and_asides_are_not_credits() {
        assert!(find("A man walks. (10/14/2016)").is_none());
        assert!(find("A man walks. (December 31, 2018)").is_none());
        assert!(find("A man walks. (Published on July 13, 2022.)").is_none());
        assert!(find("Fighters of Jaish al-Islam (Islam Army) run in Jobar, Syria.").is_none());
        assert!(find("Syrian Democratic Forces (SDF) fighters walk in Raqqa.").is_none());
    }
}
