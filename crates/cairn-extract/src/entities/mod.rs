//! Organisations, people, sources of claims, event types and casualty counts.

mod casualties;
mod events;
mod name_ends;
mod sources;

pub use casualties::casualties;
pub use events::{event_type_names, event_types};
pub use sources::sources;

use std::sync::LazyLock;

use aho_corasick::{AhoCorasick, MatchKind};
use cairn_model::Span;
use regex::Regex;

use crate::text::Mask;

/// Named organisations captions mention: armed groups, agencies, NGOs. Matched as written
/// (case-sensitive), longest first.
const ORGANIZATIONS: &[&str] = &[
    "Syrian Observatory for Human Rights",
    "Syrian Network for Human Rights",
    "White Helmets",
    "Syria Civil Defence",
    "Syrian Civil Defence",
    "Free Syrian Army",
    "Syrian Democratic Forces",
    "Syrian Arab Army",
    "Syrian Arab Red Crescent",
    "Islamic State",
    "ISIS",
    "ISIL",
    "Daesh",
    "Hezbollah",
    "Hamas",
    "Islamic Jihad",
    "Taliban",
    "al-Qaeda",
    "Al-Qaeda",
    "al Qaeda",
    "Al Qaeda",
    "Nusra Front",
    "al-Nusra Front",
    "Jabhat al-Nusra",
    "Jabhat Fateh al-Sham",
    "Hayat Tahrir al-Sham",
    "Jaish al-Islam",
    "Jaish al-Fatah",
    "Ahrar al-Sham",
    "Ahrar al-Sham Islamic Movement",
    "Faylaq al-Rahman",
    "Nour al-Din al-Zenki",
    "YPG",
    "YPJ",
    "PKK",
    "People's Protection Units",
    "Peshmerga",
    "Houthis",
    "Houthi",
    "Popular Mobilization Forces",
    "Hashed al-Shaabi",
    "Wagner Group",
    "Al-Shabaab",
    "al-Shabaab",
    "Boko Haram",
    "United Nations",
    "UNICEF",
    "UNHCR",
    "UNRWA",
    "World Food Programme",
    "World Food Program",
    "World Health Organization",
    "International Committee of the Red Cross",
    "ICRC",
    "Red Cross",
    "Red Crescent",
    "Doctors Without Borders",
    "Medecins Sans Frontieres",
    "Médecins Sans Frontières",
    "MSF",
    "Amnesty International",
    "Human Rights Watch",
    "NATO",
    "European Union",
    "Israel Defense Forces",
    "Israeli Defense Forces",
    "IDF",
    "Union of Medical Care and Relief Organizations",
    "Civil Defence",
];

static ORG_AC: LazyLock<AhoCorasick> = LazyLock::new(|| {
    AhoCorasick::builder()
        .match_kind(MatchKind::LeftmostLongest)
        .build(ORGANIZATIONS)
        .unwrap()
});

static ORG_PATTERN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b((?:(?:al|el)-)?[A-Z][\w'’-]+(?:\s+(?:(?:al|el)-[\w'’-]+|of|for|the|and|[A-Z][\w'’-]+))*)\s+(Brigades?|Battalions?|Front|Movement|Army|Forces|Party|Council|Committee|Organi[sz]ation|Union|Agency|Ministry|Observatory|Network|Corps|Division|Militia|Guards?)\b").unwrap()
});
static LOWER_BRIGADE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b((?:al|el)-[A-Z][\w'’-]*|[A-Z][\w'’-]+)\s+(brigades?|battalions?)\b").unwrap()
});
static AIR_FORCE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\b([A-Z][a-z]+)\s+(air force|navy|coast guard)\b").unwrap());

/// What [`ORG_PATTERN`], [`LOWER_BRIGADE`] and [`AIR_FORCE`] need: one of their head
/// words, case-sensitive as they are. Text without any is not searched with them (each
/// search is a pass over the caption; most captions name no armed group). Literals
/// only, so the search is the regex engine's literal search.
static ORG_NEEDS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        "Brigade|Battalion|Front|Movement|Army|Forces|Party|Council|Committee|Organisation|\
         Organization|Union|Agency|Ministry|Observatory|Network|Corps|Division|Militia|Guard|\
         brigade|battalion|air force|navy|coast guard",
    )
    .unwrap()
});

/// Head words that do not make an organisation on their own ("Syrian Government forces").
const WEAK_HEAD_OWNERS: &[&str] = &[
    "Syrian",
    "Government",
    "The",
    "A",
    "An",
    "Iraqi",
    "Russian",
    "Israeli",
    "Turkish",
    "Lebanese",
];

/// Organisations named in `text` outside `mask`, in text order, with their spans.
pub fn organizations(text: &str, mask: &Mask) -> Vec<(String, Span)> {
    let mut out: Vec<(String, Span)> = Vec::new();
    let push = |out: &mut Vec<(String, Span)>, s: Span| {
        if mask.overlaps(s) || out.iter().any(|(_, o)| o.start < s.end && s.start < o.end) {
            return;
        }
        out.push((text[s.start..s.end].to_string(), s));
    };
    for m in ORG_AC.find_iter(text) {
        let s = Span::new(m.start(), m.end());
        let before_ok =
            m.start() == 0 || !text[..m.start()].ends_with(|c: char| c.is_alphanumeric());
        let after_ok = !text[m.end()..].starts_with(|c: char| c.is_alphanumeric());
        if before_ok && after_ok {
            push(&mut out, s);
        }
    }
    if ORG_NEEDS.is_match(text) {
        for c in ORG_PATTERN.captures_iter(text) {
            let whole = c.get(0).unwrap();
            let owner = c.get(1).unwrap().as_str();
            let first = owner.split_whitespace().next().unwrap_or("");
            if owner.split_whitespace().count() == 1 && WEAK_HEAD_OWNERS.contains(&first) {
                continue;
            }
            let mut start = whole.start();
            // "A Free Syrian Army fighter": drop a leading article.
            for art in ["The ", "A ", "An "] {
                if text[start..].starts_with(art) {
                    start += art.len();
                }
            }
            push(&mut out, Span::new(start, whole.end()));
        }
        for c in LOWER_BRIGADE.captures_iter(text) {
            let whole = c.get(0).unwrap();
            push(&mut out, Span::new(whole.start(), whole.end()));
        }
        for c in AIR_FORCE.captures_iter(text) {
            let whole = c.get(0).unwrap();
            push(&mut out, Span::new(whole.start(), whole.end()));
        }
    }
    out.sort_by_key(|(_, s)| s.start);
    // "Jaish al-Islam (Islam Army)", "Syrian Democratic Forces (SDF)": a parenthesis right
    // after an organisation is its other name, not another organisation.
    let spans: Vec<Span> = out.iter().map(|(_, s)| *s).collect();
    out.retain(|(_, s)| {
        !spans.iter().any(|o| {
            o.end < s.start && text[o.end..s.start] == *" (" && text[s.end..].starts_with(')')
        })
    });
    out
}

const NAME: &str = r"[A-Z][\w'’-]*(?:\s+(?:(?:al|el|bin|ibn|de|van|von|da|di|le|la)(?:-|\s+))?[A-Z][\w'’-]*){0,3}|[A-Z][\w'’-]*\s+(?:al|el)-[\w'’-]+";

static TITLED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(r"\b(?:President|Prime Minister|Minister|King|Queen|Prince|Princess|Pope|Gen\.|General|Col\.|Colonel|Dr\.|Sheikh|Imam|Mr\.|Mrs\.|Ms\.|Senator|Sen\.|Rep\.|Gov\.|Governor|Mayor|Chancellor|Emir|Sultan|Ayatollah|Commander|Cardinal|Archbishop|Bishop|Rabbi|Father)\s+((?:{NAME}))")).unwrap()
});
static AGED: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(&format!(r"\b({NAME}),\s+(?:aged\s+)?\d{{1,3}},")).unwrap());
static BY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(r"\b(?:directed|written|led|organi[sz]ed|painted|founded|owned|run|made|played|sung|performed|hosted|presented)\s+by\s+({NAME})")).unwrap()
});
static ABU: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\b((?:Abu|Umm|Um|Abou)\s+[A-Z][\w-]+)").unwrap());
static POSITION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(r"\b({NAME})\s+\((?:\d(?:st|nd|rd|th)\s+)?(?:L|R|C|left|right|center|centre|front|back|top|bottom)\)")).unwrap()
});
/// The ends of [`AGED`] and [`POSITION`], which begin with a name: a name pattern has no
/// literal to look for, so it is tried at every capital of the caption; these ends start
/// with a comma or a parenthesis, and the whole is searched only in the stretch of name
/// before each (`name_ends`).
static AGED_END: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r",\s+(?:aged\s+)?\d{1,3},").unwrap());
static POSITION_END: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"\((?:\d(?:st|nd|rd|th)\s+)?(?:L|R|C|left|right|center|centre|front|back|top|bottom)\)",
    )
    .unwrap()
});
static NAMED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(r"\b(?:named|identified as|known as)\s+({NAME})")).unwrap()
});

fn trim_name(n: &str) -> &str {
    let n = n.trim().trim_end_matches(['\'', '’']);
    n.strip_suffix("'s")
        .or_else(|| n.strip_suffix("’s"))
        .unwrap_or(n)
}

/// People named in `text` outside `mask`, in text order.
pub fn persons(text: &str, mask: &Mask, exclude: &[String]) -> Vec<(String, Span)> {
    let mut out: Vec<(String, Span)> = Vec::new();
    // (pattern, whether one word is a name, the end it closes with after its name)
    let strong: [(&Regex, bool, Option<&Regex>); 6] = [
        (&TITLED, true, None),
        (&AGED, false, Some(&AGED_END)),
        (&BY, true, None),
        (&ABU, true, None),
        (&POSITION, false, Some(&POSITION_END)),
        (&NAMED, true, None),
    ];
    for (re, single_ok, end) in strong {
        let mut take = |c: regex::Captures<'_>| {
            let g = c.get(1).unwrap();
            let name = trim_name(g.as_str());
            let span = Span::new(g.start(), g.start() + name.len());
            if name.is_empty() || mask.overlaps(span) {
                return;
            }
            if !single_ok && !name.contains(' ') {
                return;
            }
            if exclude.iter().any(|e| e == name) || out.iter().any(|(n, _)| n == name) {
                return;
            }
            out.push((name.to_string(), span));
        };
        match end {
            Some(end) => name_ends::for_each(re, end, text, take),
            None => re.captures_iter(text).for_each(&mut take),
        }
    }
    // A name seen once with strong evidence is a person wherever else it stands.
    out.sort_by_key(|(_, s)| s.start);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orgs_and_people() {
        let t = "A Free Syrian Army fighter walks past a flag of al-Furqan brigade near Syrian Government forces.";
        let o: Vec<String> = organizations(t, &Mask::default())
            .into_iter()
            .map(|x| x.0)
            .collect();
        assert_eq!(o, vec!["Free Syrian Army", "al-Furqan brigade"]);
        let t = "Newly-wed Syrian couple Nada Merhi, 18, and Hassan Youssef, 27, pose; forces loyal to Syria's President Bashar al-Assad.";
        let p: Vec<String> = persons(t, &Mask::default(), &[])
            .into_iter()
            .map(|x| x.0)
            .collect();
        assert_eq!(p, vec!["Nada Merhi", "Hassan Youssef", "Bashar al-Assad"]);
    }
}
