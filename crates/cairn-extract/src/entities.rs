//! Organisations, people, sources of claims, event types and casualty counts.

use std::sync::LazyLock;

use aho_corasick::{AhoCorasick, MatchKind};
use cairn_model::{Count, Span};
use regex::{Regex, RegexSet};

use crate::text::{Mask, lowered, parse_number};

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
/// with a comma or a parenthesis, and a caption without them is not searched for the
/// whole.
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
    // (pattern, whether one word is a name, what the text must hold for it to match)
    let strong: [(&Regex, bool, Option<&Regex>); 6] = [
        (&TITLED, true, None),
        (&AGED, false, Some(&AGED_END)),
        (&BY, true, None),
        (&ABU, true, None),
        (&POSITION, false, Some(&POSITION_END)),
        (&NAMED, true, None),
    ];
    for (re, single_ok, needs) in strong {
        if needs.is_some_and(|n| !n.is_match(text)) {
            continue;
        }
        for c in re.captures_iter(text) {
            let g = c.get(1).unwrap();
            let name = trim_name(g.as_str());
            let span = Span::new(g.start(), g.start() + name.len());
            if name.is_empty() || mask.overlaps(span) {
                continue;
            }
            if !single_ok && !name.contains(' ') {
                continue;
            }
            if exclude.iter().any(|e| e == name) || out.iter().any(|(n, _)| n == name) {
                continue;
            }
            out.push((name.to_string(), span));
        }
    }
    // A name seen once with strong evidence is a person wherever else it stands.
    out.sort_by_key(|(_, s)| s.start);
    out
}

static ACCORDING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\baccording to\s+(?:the\s+)?([^,.;:()]+?)(?:\s+(?:that|who|which)\b|[,.;:()]|$)",
    )
    .unwrap()
});
static WHAT_SAID: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\bwhat\s+((?:local\s+)?(?:activists|residents|witnesses|rebels|medics|officials|rescuers|monitors|doctors|the military|the army|state media|opposition activists|[A-Z][\w -]+?))\s+(?:said|say|says|described as|called)\b").unwrap()
});
static SUBJ_SAID: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b((?:local\s+)?(?:activists|residents|witnesses|medics|officials|rescuers|rescue workers|monitors|doctors|state media|state television|the monitor))\s+(?:said|say|says|reported|claimed)\b").unwrap()
});

/// To whom the caption attributes its claims.
pub fn sources(text: &str, orgs: &[(String, Span)]) -> Vec<(String, Span)> {
    let mut out: Vec<(String, Span)> = Vec::new();
    let mut push = |name: &str, span: Span| {
        let name = name.trim();
        let lower = lowered(name);
        if name.is_empty()
            || [
                "they",
                "he",
                "she",
                "we",
                "it",
                "him",
                "them",
                "officials said",
            ]
            .contains(&&*lower)
        {
            return;
        }
        if !out.iter().any(|(n, _)| n.eq_ignore_ascii_case(name)) {
            out.push((name.to_string(), span));
        }
    };
    for c in ACCORDING.captures_iter(text) {
        let g = c.get(1).unwrap();
        push(g.as_str(), Span::new(g.start(), g.end()));
    }
    for re in [&*WHAT_SAID, &*SUBJ_SAID] {
        for c in re.captures_iter(text) {
            let g = c.get(1).unwrap();
            push(g.as_str(), Span::new(g.start(), g.end()));
        }
    }
    // "the Syrian Observatory said": a named organisation speaking.
    for (name, span) in orgs {
        let after = &text[span.end..];
        if after.starts_with(" said")
            || after.starts_with(" says")
            || after.starts_with(" reported")
        {
            push(name, *span);
        }
    }
    out.sort_by_key(|(_, s)| s.start);
    out
}

/// The event types' names and, at the same positions, their patterns as one set: a
/// scene sentence is read once for all of them.
static EVENTS: LazyLock<(Vec<&'static str>, RegexSet)> = LazyLock::new(|| {
    let rules: &[(&str, &str)] = &[
        (
            "Suicide bomb",
            r"(?i)\bsuicide\s+(?:car\s+)?(?:bomb|bomber|bombers|bombing|bombings|attack|attacks|blast)\b",
        ),
        (
            "Chemical weapon",
            r"(?i)\b(?:chemical\s+(?:attack|weapons?|gas)|sarin|chlorine\s+(?:gas|attack))\b",
        ),
        (
            "Air/drone strike",
            r"(?i)\b(?:air\s?strikes?|air\s+raids?|barrel[\s-]bombs?|drone\s+(?:strikes?|attacks?)|warplanes?|bombing\s+raids?|aerial\s+(?:bombardment|bombing|attack)s?|vacuum\s+bombs?|helicopter\s+gunships?)\b",
        ),
        (
            "Shelling/artillery/missile attack",
            r"(?i)\b(?:shelling|shelled|artillery|mortars?|mortar\s+(?:fire|rounds?)|rocket\s+(?:fire|attacks?)|rockets?\s+(?:fired|hit|struck|landed)|missile\s+(?:strikes?|attacks?)|shells?\s+(?:fell|hit|landed|struck))\b",
        ),
        (
            "Remote explosive/landmine/IED",
            r"(?i)\b(?:car\s+bomb(?:ing)?s?|roadside\s+bombs?|IEDs?|improvised\s+explosive|land\s?mines?|booby[\s-]trap(?:ped)?|explosive\s+devices?|bomb\s+(?:blast|explosion|exploded))\b",
        ),
        ("Grenade", r"(?i)\bgrenade\s+attacks?\b"),
        (
            "Armed clash",
            r"(?i)\b(?:clash(?:es|ed)?|fighting|firefights?|gun\s?battles?|offensive|exchange\s+of\s+fire|street\s+battles?)\b",
        ),
        (
            "Abduction/forced disappearance",
            r"(?i)\b(?:kidnapp(?:ed|ing)|abduct(?:ed|ion))\b",
        ),
        (
            "Attack",
            r"(?i)\b(?:gunmen|militants?)\s+(?:attacked|opened\s+fire)|\bshot\s+dead\b|\bmassacre\b|\bstabb(?:ed|ing)\b|\bambush(?:ed)?\b",
        ),
        (
            "Looting/property destruction",
            r"(?i)\b(?:loot(?:ed|ing|ers)|torched|arson)\b",
        ),
        (
            "Violent demonstration",
            r"(?i)\b(?:riots?|rioters|rioting)\b",
        ),
        (
            "Protest with intervention",
            r"(?i)\b(?:protest|demonstrat)\w*\b.*\b(?:tear\s?gas|rubber\s+bullets|water\s+cannon|dispersed)\b",
        ),
        (
            "Peaceful protest",
            r"(?i:\b(?:protest(?:s|ers|ed|ing)?|demonstrat(?:ion|ions|ors|e|ed)|rall(?:y|ies)|sit-ins?)\b)|\bmarch(?:es|ed|ing)?\b",
        ),
    ];
    let names = rules.iter().map(|(n, _)| *n).collect();
    let set = RegexSet::new(rules.iter().map(|(_, r)| *r)).unwrap();
    (names, set)
});

/// Every ACLED sub-event type the extractor can report.
pub fn event_type_names() -> impl Iterator<Item = &'static str> {
    EVENTS.0.iter().copied()
}

/// ACLED sub-event types of the scene sentence.
pub fn event_types(scene: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let (names, set) = &*EVENTS;
    let found = set.matches(scene);
    for (i, name) in names.iter().enumerate() {
        if *name == "Peaceful protest"
            && (out
                .iter()
                .any(|o| o == "Protest with intervention" || o == "Violent demonstration"))
        {
            continue;
        }
        if *name == "Remote explosive/landmine/IED" && out.iter().any(|o| o == "Suicide bomb") {
            continue;
        }
        if found.matched(i) {
            out.push((*name).to_string());
        }
    }
    out
}

const NUM: &str = r"\d[\d,]*|a\s+dozen|dozens|scores|hundreds|thousands|several|(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:-(?:one|two|three|four|five|six|seven|eight|nine))?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen";
const HEDGE: &str = r"at\s+least|more\s+than|over|nearly|almost|about|around|some|up\s+to|as\s+many\s+as|roughly|approximately";

static COUNT_BEFORE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(r"(?i)\b(?:({HEDGE})\s+)?({NUM})\s+(?:of\s+)?(?:[a-z]+\s+){{0,3}}?(?:(?:were|was|have\s+been|had\s+been|are|been|reportedly|later)\s+)*(killed|dead|died|injured|wounded|hurt)\b")).unwrap()
});
static COUNT_AFTER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(r"(?i)\b(killing|kills|killed|wounding|wounded|injuring|injured)\s+(?:({HEDGE})\s+)?({NUM})\b")).unwrap()
});
static COUNT_LEFT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(r"(?i)\b(?:leaving|left)\s+(?:({HEDGE})\s+)?({NUM})\s+(?:[a-z]+\s+){{0,2}}?(dead|injured|wounded)\b")).unwrap()
});
static TOLL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"(?i)\bdeath\s+toll\s+(?:\w+\s+){{0,3}}?(?:to|of|at|reached)\s+(?:({HEDGE})\s+)?({NUM})\b"
    ))
    .unwrap()
});
static BACKGROUND: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:war|conflict|uprising|revolution)\s+(?:that|which)\s+(?:has|have|had)\b|\bnationwide\b|\bsince\s+(?:the\s+(?:start|beginning|war|conflict)|20\d\d|19\d\d)\b|\bso\s+far\s+this\s+year\b|\bin\s+total\b|\bsince\s+it\s+began\b").unwrap()
});

/// What the count patterns need: [`COUNT_BEFORE`], [`COUNT_AFTER`] and [`COUNT_LEFT`] end
/// or start with a casualty word, [`TOLL`] holds "toll"; case-insensitive as they are
/// (the same `(?i)`, so the same Unicode case folding). Most captions count no dead or
/// injured: their text is not searched with the four patterns.
static COUNT_NEEDS: LazyLock<Regex> =
    LazyLock::new(|| Regex::new("(?i)kill|dead|died|injur|wound|hurt|toll").unwrap());

fn count(hedge: Option<&str>, num: &str, text: &str, span: Span) -> Option<Count> {
    let (n, open) = parse_number(&num.split_whitespace().collect::<Vec<_>>().join(" "))?;
    let hedge = hedge.map(|h| {
        h.split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase()
    });
    let (low, high) = match hedge.as_deref() {
        Some("at least") | Some("more than") | Some("over") => (n, None),
        Some("up to") | Some("as many as") => (0, Some(n)),
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
    let is_background = |span: Span| {
        let sent = sentences
            .iter()
            .find(|s| span.start >= s.start && span.start < s.end)
            .copied()
            .unwrap_or(Span::new(0, text.len()));
        let clause_start = text[sent.start..span.start]
            .rfind([';', ':'])
            .map(|p| sent.start + p)
            .unwrap_or(sent.start);
        BACKGROUND.is_match(&text[clause_start..span.end.min(sent.end).max(span.end)])
            || BACKGROUND.is_match(&text[span.end..sent.end.max(span.end)])
    };
    let mut consider = |kind: &str, c: Count| {
        if mask.overlaps(c.span) {
            return;
        }
        if is_background(c.span) {
            warnings.push(format!(
                "count {:?} is a background statistic; not a casualty of the scene",
                c.text
            ));
            return;
        }
        let slot = if kind == "killed" {
            &mut killed
        } else {
            &mut injured
        };
        if slot.is_none() {
            *slot = Some(c);
        }
    };
    let kind_of = |w: &str| match &*lowered(w) {
        "killed" | "dead" | "died" | "killing" | "kills" => "killed",
        _ => "injured",
    };
    for c in COUNT_BEFORE.captures_iter(text) {
        let g = c.get(0).unwrap();
        let span = Span::new(g.start(), g.end());
        // "12 people and wounded 30": a conjunction ends the noun phrase of the count.
        let filler = &text[c.get(2).unwrap().end()..c.get(3).unwrap().start()];
        if filler
            .split_whitespace()
            .any(|w| matches!(&*lowered(w), "and" | "or" | "but" | "while"))
        {
            continue;
        }
        if let Some(cnt) = count(c.get(1).map(|m| m.as_str()), &c[2], text, span) {
            consider(kind_of(&c[3]), cnt);
        }
    }
    for c in COUNT_AFTER.captures_iter(text) {
        let g = c.get(0).unwrap();
        let span = Span::new(g.start(), g.end());
        if let Some(cnt) = count(c.get(2).map(|m| m.as_str()), &c[3], text, span) {
            consider(kind_of(&c[1]), cnt);
        }
    }
    for c in COUNT_LEFT.captures_iter(text) {
        let g = c.get(0).unwrap();
        let span = Span::new(g.start(), g.end());
        if let Some(cnt) = count(c.get(1).map(|m| m.as_str()), &c[2], text, span) {
            consider(kind_of(&c[3]), cnt);
        }
    }
    for c in TOLL.captures_iter(text) {
        let g = c.get(0).unwrap();
        let span = Span::new(g.start(), g.end());
        if let Some(cnt) = count(c.get(1).map(|m| m.as_str()), &c[2], text, span) {
            consider("killed", cnt);
        }
    }
    (killed, injured, warnings)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::sentences;

    type LowHigh = Option<(u32, Option<u32>)>;

    fn cas(t: &str) -> (LowHigh, LowHigh) {
        let (k, i, _) = casualties(t, &sentences(t), &Mask::default());
        (k.map(|c| (c.low, c.high)), i.map(|c| (c.low, c.high)))
    }

    #[test]
    fn casualty_counts() {
        assert_eq!(
            cas("At least four children were killed and 19 people injured in the strike."),
            (Some((4, None)), Some((19, Some(19))))
        );
        assert_eq!(
            cas("At least 70 people died in the raid."),
            (Some((70, None)), None)
        );
        assert_eq!(
            cas("Dozens of people were killed."),
            (Some((24, None)), None)
        );
        assert_eq!(
            cas("A blast killed 12 people and wounded 30."),
            (Some((12, Some(12))), Some((30, Some(30))))
        );
        assert_eq!(
            cas(
                "The city has suffered in the war that has killed more than 280,000 people nationwide."
            ),
            (None, None)
        );
        assert_eq!(cas("A man carries an injured woman."), (None, None));
    }

    #[test]
    fn events() {
        assert_eq!(
            event_types("after a reported barrel bomb attack on Aleppo"),
            vec!["Air/drone strike"]
        );
        assert_eq!(
            event_types("following reported shelling in Harasta"),
            vec!["Shelling/artillery/missile attack"]
        );
        assert_eq!(
            event_types("during an offensive to take Idlib March 24, 2015"),
            vec!["Armed clash"]
        );
        assert!(event_types("during the I Love Damascus marathon").is_empty());
        assert_eq!(
            event_types("Protesters march in Cairo"),
            vec!["Peaceful protest"]
        );
    }

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
