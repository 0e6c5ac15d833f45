//! How mentions bear on their neighbours: `X, Country` (what follows qualifies), `Y's X`
//! and `X in Y` (what holds), `X, south of Y` (what gives the surroundings), and chains
//! through places the gazetteer lacks.

use cairn_gazetteer::Gazetteer;
use cairn_model::{PlaceKind, Span};

use super::lexicon::{is_settlement_word, kind_hint};
use super::mention::Mention;
use super::relative::is_relative_gap;
use super::role::Role;
use super::sites::{is_describing, is_site_word};

/// Links mentions to their neighbours: `X, Country` (what follows), `Y's X` and `X in Y`
/// (what holds them). A possessive that holds no mention right after it is dropped.
pub(super) fn link(g: &Gazetteer, text: &str, mentions: &mut Vec<Mention>) {
    mentions.retain({
        // A possessive holds the next mention only when that is a place of its own
        // ("Saudi Arabia's Salem al-Dawsari" holds a person).
        let spans: Vec<Option<Span>> = mentions
            .iter()
            .map(|m| (!m.partial).then_some(m.span))
            .collect();
        let mut idx = 0;
        move |m| {
            let i = idx;
            idx += 1;
            !m.container
                || spans.get(i + 1).copied().flatten().is_some_and(|n| {
                    matches!(text[m.span.end..n.start].trim(), "'s" | "’s" | "'" | "’")
                })
                || holds_unknown_settlement(&text[m.span.end..])
        }
    });
    for m in 0..mentions.len().saturating_sub(1) {
        let gap = &text[mentions[m].span.end..mentions[m + 1].span.start];
        let g_trim = gap.trim();
        // "in the villages of Lardos and Gennadi", "who fled Homs and Hama": the second
        // shares the first's role (a name's own role is not shared).
        let shared = mentions[m].role >= Role::Near
            || matches!(mentions[m].role, Role::Origin | Role::Border | Role::Team);
        if g_trim == "and" && shared && mentions[m + 1].role == Role::Weak {
            mentions[m + 1].role = mentions[m].role;
        }
        // "the Netherlands take on Senegal", "Spain v Italy": both names are sides.
        if super::roles::is_fixture_gap(gap) && !mentions[m].container {
            mentions[m].role = Role::Team;
            mentions[m + 1].role = Role::Team;
        }
        if is_qualifying_gap(g_trim) {
            let big: Vec<_> = mentions[m + 1]
                .candidates
                .iter()
                .copied()
                .filter(|&c| {
                    matches!(
                        g.entry(c).kind,
                        PlaceKind::Country | PlaceKind::Admin1 | PlaceKind::Region
                    )
                })
                .collect();
            // `Lábrea, no Amazonas`: of the units of that name, the one that holds a
            // place the first name may be.
            let holding = big
                .iter()
                .copied()
                .find(|&b| mentions[m].candidates.iter().any(|&c| g.contains(b, c)));
            mentions[m].followed_by = holding.or(big.first().copied());
        }
        let possessive = matches!(g_trim, "'s" | "’s" | "'" | "’");
        if mentions[m].container && possessive {
            mentions[m + 1].within = Some(m);
            // "in Pakistan's Jaffarabad district": the held place takes the role, read
            // from the words before the possessive.
            {
                mentions[m + 1].role = mentions[m].role;
                mentions[m + 1].cue_start = mentions[m].cue_start;
            }
        } else if mentions[m].role.is_scene() && is_relative_gap(gap) {
            // "Qayyarah, south of Mosul": Mosul gives the surroundings.
            mentions[m].within = Some(m + 1);
            mentions[m].relative = true;
            mentions[m].bearing = super::relative::bearing(gap);
        } else if (is_holding_gap(g_trim)
            || super::relative::is_chain_gap(gap)
            || on_island(g_trim, &text[mentions[m + 1].span.end..]))
            && mentions[m].role.is_scene()
        {
            mentions[m].within = Some(m + 1);
        } else if is_holding_gap(g_trim)
            && mentions[m].role == Role::Origin
            && mentions[m + 1].role.is_scene()
            && (!names_country(g, &mentions[m]) || names_country(g, &mentions[m + 1]))
        {
            // "arrived from Sukhodilsk in Ukraine's Luhansk region": the place that holds
            // an origin is part of it.
            mentions[m + 1].role = Role::Origin;
        }
    }
}

/// Whether a mention's own name is a country's. "crossing from Congo in Gisenyi": no
/// town holds a country, so the place after `in` is where they crossed to, not part of
/// where they came from.
fn names_country(g: &Gazetteer, m: &Mention) -> bool {
    m.candidates[..m.fuzzy_from.min(m.candidates.len())]
        .iter()
        .any(|&c| g.entry(c).kind == PlaceKind::Country)
}

/// What may stand between a place and the larger one that qualifies it: a comma, with
/// perhaps an article and a direction (`Khan Younis, southern Gaza Strip`).
pub(super) fn is_qualifying_gap(gap: &str) -> bool {
    // `Rafah border crossing, Egypt`, `Mentao refugee camp, Burkina Faso`: the place's
    // kind may stand before the comma.
    let gap = match gap.find([',', '،']) {
        Some(at) if at > 0 && names_a_kind(&gap[..at]) => &gap[at..],
        _ => gap,
    };
    let Some(rest) = gap.strip_prefix(',').or_else(|| gap.strip_prefix('،')) else {
        return gap.is_empty();
    };
    let english = rest.split_whitespace().count() <= 3
        && rest.split_whitespace().all(|w| {
            matches!(
                w,
                "the"
                    | "northern"
                    | "southern"
                    | "eastern"
                    | "western"
                    | "central"
                    | "northeastern"
                    | "northwestern"
                    | "southeastern"
                    | "southwestern"
                    | "occupied"
                    | "in"
            )
        });
    english || is_romance_qualifier(rest)
}

/// `, nella regione di`, `, nell'est dell'`, `, in`, `, na`, `, dans le nord de`, `, en
/// la provincia de`: the words of Romance languages that say the name after them holds
/// the one before, as `, in eastern` does in English.
fn is_romance_qualifier(rest: &str) -> bool {
    let words: Vec<&str> = rest
        .split(|c: char| c.is_whitespace() || matches!(c, '\'' | '’'))
        .filter(|w| !w.is_empty())
        .collect();
    let opens = words.first().is_some_and(|w| {
        matches!(
            *w,
            "in" | "nella" | "nel" | "nell" | "na" | "no" | "em" | "dans" | "en" | "au"
        )
    });
    opens
        && words.len() <= 4
        && words[1..].iter().all(|w| {
            matches!(
                *w,
                "regione"
                    | "provincia"
                    | "província"
                    | "região"
                    | "région"
                    | "región"
                    | "province"
                    | "di"
                    | "del"
                    | "della"
                    | "dell"
                    | "de"
                    | "do"
                    | "da"
                    | "la"
                    | "le"
                    | "l"
                    | "du"
                    | "el"
                    | "nord"
                    | "sud"
                    | "est"
                    | "ovest"
                    | "ouest"
                    | "norte"
                    | "sul"
                    | "leste"
                    | "oeste"
                    | "este"
                    | "centro"
                    | "centre"
            )
        })
}

/// Whether the words are a place's kind, perhaps described (`refugee camp`, `border
/// crossing`, `village`).
fn names_a_kind(words: &str) -> bool {
    let words: Vec<&str> = words.split_whitespace().collect();
    let Some((kind, before)) = words.split_last() else {
        return false;
    };
    before.len() <= 1
        && before.iter().all(|w| is_describing(w))
        && (is_settlement_word(kind) || is_site_word(kind))
}

/// `X village, on Y island`: the island holds the place before it. Only before the
/// word `island` (`Kyiv, on the Dnipro` names a river, not a town holding Kyiv).
fn on_island(gap: &str, after_next: &str) -> bool {
    let after = after_next.trim_start();
    // The word `island` first: it is rarely there, and the gap's words need a list.
    if !(after.starts_with("island") || after.starts_with("Island")) {
        return false;
    }
    let words: Vec<&str> = gap
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
        .collect();
    let Some(on) = words.iter().rposition(|w| *w == "on") else {
        return false;
    };
    words[on + 1..].iter().all(|w| *w == "the")
        && words[..on].len() <= 1
        && words[..on].iter().all(|w| is_settlement_word(w))
}

/// What may stand between a place and the one that holds it or lies near it: `X in Y`,
/// `X, in Y`, `X camp in Y`, `X village, near Y`.
fn is_holding_gap(gap: &str) -> bool {
    let words = gap
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty());
    // At most two kind words, the preposition and a German kind noun: a longer gap,
    // as most are, is known without a list of its words.
    if words.clone().nth(4).is_some() {
        return false;
    }
    let words: Vec<&str> = words.collect();
    // "Sudscha im Gebiet Kursk": a German kind noun after the preposition.
    let words = match words.split_last() {
        Some((kind, rest)) if super::kind_phrase::is_german_kind(&kind.to_lowercase()) => rest,
        _ => &words[..],
    };
    let Some((last, kinds)) = words.split_last() else {
        return false;
    };
    matches!(*last, "in" | "im" | "à" | "en" | "في" | "near" | "outside")
        && kinds.len() <= 2
        && kinds.iter().all(|w| {
            is_settlement_word(w)
                || kind_hint(w).is_some()
                || matches!(
                    *w,
                    "refugee"
                        | "displacement"
                        | "idp"
                        | "shopping"
                        | "area"
                        | "front"
                        | "line"
                        | "market"
                        | "industrial"
                        | "residential"
                        | "old"
                )
        })
}

/// Whether the text after a possessive is a run of capitalised words and a settlement
/// or site word (`'s Qaryat Zzyx district`, `'s Zzyx Square`): a place the gazetteer
/// lacks, held by the possessive.
fn holds_unknown_settlement(after: &str) -> bool {
    let mut last = "";
    let mut n = 0;
    let mut words = after.split_whitespace().skip(1);
    while let Some(w) = words.next() {
        let bare = w.trim_end_matches(|c: char| !c.is_alphanumeric());
        if w.starts_with(char::is_uppercase) && n < 4 {
            n += 1;
            last = bare;
            if bare.len() < w.len() {
                // A comma or a stop ends the name.
                break;
            }
            continue;
        }
        if n > 0 && is_describing(bare) {
            // `Yerevan's Yerablur military cemetery`: a word describing the site may
            // stand before its kind.
            if let Some(next) = words.next() {
                let next = next.trim_end_matches(|c: char| !c.is_alphanumeric());
                return is_settlement_word(next) || is_site_word(next);
            }
        }
        return n > 0 && (is_settlement_word(bare) || is_site_word(bare) || is_site_word(last));
    }
    n > 0 && is_site_word(last)
}
