//! Where an Arabic name after a small-place kind word lies: at a place the gazetteer
//! knows, at what holds it, or at a city the caption names elsewhere; and the homonyms
//! abroad that such names, and common words, were read as.

use cairn_gazetteer::{Gazetteer, PlaceId, fold};
use cairn_model::{PlaceKind, Span};

use super::super::mention::Context;
use super::super::mention::Mention;
use super::super::role::Role;
use super::super::tokens::{Lower, Tok};
use super::{
    ends_name, is_arabic, is_cue, is_quote, is_small_kind, kind_before, kind_word, opens_clause,
    role, unglued, well_known,
};

/// A name after a small-place kind word that the gazetteer lacks, for the caller to
/// place at what holds it.
pub(in super::super) struct Held {
    /// The index of the first mention after it.
    pub(in super::super) next: usize,
    pub(in super::super) span: Span,
    pub(in super::super) name: String,
    /// A city the caption names elsewhere, and the role the words before the name give
    /// it: where the name lies when no mention after it holds it.
    pub(in super::super) elsewhere: Option<(PlaceId, Role)>,
}

/// Names after a small-place kind word (`حي حارة حريك`) that no resolved mention covers.
pub(in super::super) fn unknown_places(
    g: &Gazetteer,
    context: &Context<'_>,
    text: &str,
    toks: &[Tok],
    lower: &Lower<'_>,
    mentions: &[Mention],
) -> Vec<Held> {
    let mut out = Vec::new();
    // Looked for once, and only when a name is held.
    let named = || cities_named(g, toks, lower, context);
    let mut cities = None;
    for i in 0..toks.len() {
        let Some((kind, _)) = kind_word(lower.at(toks, i)) else {
            continue;
        };
        if !is_small_kind(kind) {
            continue;
        }
        let mut j = i;
        while j + 1 < toks.len() && j < i + 3 {
            let gap = &text[toks[j].span.end..toks[j + 1].span.start];
            let w = lower.at(toks, j + 1);
            if !gap.chars().all(|c| c == ' ' || is_quote(c))
                || !is_arabic(w)
                || is_cue(w)
                || ends_name(w)
                || opens_clause(w)
            {
                break;
            }
            j += 1;
        }
        if j == i {
            continue;
        }
        let span = Span::new(toks[i + 1].span.start, toks[j].span.end);
        let name = &text[span.start..span.end];
        // `مخيم للنازحين`: "a camp for the displaced" names no place.
        if ["لل", "بال", "وال", "فال"]
            .iter()
            .any(|p| lower.at(toks, i + 1).starts_with(p))
        {
            continue;
        }
        let known = mentions
            .iter()
            .any(|m| m.chosen.is_some() && m.span.start < span.end && span.start < m.span.end);
        let common = super::super::lexicon::is_stop(&fold(name));
        if !known && !common {
            let next = mentions.partition_point(|m| m.span.start < span.start);
            let before: Vec<&str> = (i.saturating_sub(3)..=i)
                .rev()
                .map(|t| lower.at(toks, t))
                .collect();
            let role = role(&before).unwrap_or(Role::Bare);
            out.push(Held {
                next,
                span,
                name: name.to_string(),
                elsewhere: first_outside(cities.get_or_insert_with(named), span).map(|c| (c, role)),
            });
        }
    }
    out
}

/// Common words that are also the Arabic names of cities (`صور` "pictures" and Tyre,
/// `جده` "grandmother" and Jeddah, `حماه` "protectors" and Hama), folded: never read as
/// the city when nothing says a place follows.
const CITY_HOMOGRAPHS: &[&str] = &[
    "صور",
    "جده",
    "حماه",
    "رمادي",
    "منصوره",
    "خليل",
    "مدينه",
    "مدينه منوره",
];

/// The cities of at least 100,000 that the caption names in Arabic, with or
/// without a word that says a place follows (`مساجد حلب`, "Aleppo's mosques"): where a
/// neighbourhood or camp the gazetteer lacks lies when nothing else holds it, in text
/// order, with where each is named. Words are also people's names (`بشار`, Béchar) and the gazetteer's
/// Arabic names include rare spellings: the city must lie in a country the caption
/// names or, when it names none, have a million people.
fn cities_named(
    g: &Gazetteer,
    toks: &[Tok],
    lower: &Lower<'_>,
    context: &Context<'_>,
) -> Vec<(Span, PlaceId)> {
    (0..toks.len())
        .filter_map(|i| {
            let w = lower.at(toks, i);
            if !is_arabic(w) || is_cue(w) {
                return None;
            }
            let city = unglued(w).find_map(|u| {
                let f = fold(u);
                if CITY_HOMOGRAPHS.contains(&f.as_str()) {
                    return None;
                }
                g.exact_folded(&f).iter().copied().find(|&c| {
                    let e = g.entry(c);
                    let placed = if context.is_empty() {
                        e.population >= 1_000_000
                    } else {
                        context.contains_key(e.country.as_str())
                    };
                    e.kind == PlaceKind::Town && e.population >= 100_000 && placed
                })
            });
            city.map(|c| (toks[i].span, c))
        })
        .collect()
}

/// The first of [`cities_named`] outside `span`.
fn first_outside(cities: &[(Span, PlaceId)], span: Span) -> Option<PlaceId> {
    cities
        .iter()
        .find(|(s, _)| s.end <= span.start || s.start >= span.end)
        .map(|&(_, c)| c)
}

/// An Arabic name without a kind word read as a small town abroad when the caption is
/// about another country is another place, or a common word (`في صف`, "in a
/// classroom", is a town in Egypt): such a choice is undone when the town's country is
/// none the caption names and another place it names, a city or a province, lies in
/// another country, or a city it names elsewhere does. After a small-place kind word
/// (`حي بني زيد`, `مخيم الجنينة`) the name is held to more: it must lie near a place
/// named after it in its sentence; a neighbourhood or a camp, in the country of a city
/// named elsewhere; a neighbourhood, in a country the caption names. An undone name is
/// placed at what holds it, as one the gazetteer lacks.
pub(in super::super) fn drop_far_homonyms(
    g: &Gazetteer,
    text: &str,
    toks: &[Tok],
    lower: &Lower<'_>,
    context: &Context<'_>,
    mentions: &mut [Mention],
) {
    let big: Vec<PlaceId> = mentions
        .iter()
        .filter(|m| !m.partial)
        .filter_map(|m| m.chosen)
        .filter(|&o| well_known(g, o) && g.entry(o).kind != PlaceKind::Country)
        .collect();
    let named = || cities_named(g, toks, lower, context);
    let mut cities = None;
    for mi in 0..mentions.len() {
        let Some(c) = mentions[mi].chosen else {
            continue;
        };
        let e = g.entry(c);
        let held = mentions[mi]
            .within
            .is_some_and(|w| mentions[w].chosen.is_some());
        if !is_arabic(&mentions[mi].text) || e.kind != PlaceKind::Town || held {
            continue;
        }
        let elsewhere = first_outside(cities.get_or_insert_with(named), mentions[mi].span);
        let in_context = context.contains_key(e.country.as_str());
        let abroad = |o: &PlaceId| g.entry(*o).country != e.country;
        // A city of standing is meant wherever it is, unless a kind word says the
        // name is a camp's, a village's or a neighbourhood's; a name a kind word
        // calls a town (`إلى بلدة كلس`) is no common word, wherever it is.
        let standing = e.population >= 100_000;
        let kind = kind_before(text, mentions[mi].span.start).is_some();
        let far_off = big.iter().any(abroad) || elsewhere.iter().any(abroad);
        if !standing && !kind && !in_context && far_off {
            mentions[mi].chosen = None;
            continue;
        }
        let small = kind_before(text, mentions[mi].span.start)
            .filter(|(k, w)| is_small_kind(*k) && !matches!(w.as_str(), "مدينه" | "مدن"));
        let Some((kind, word)) = small else {
            continue;
        };
        // The places named after it in its sentence as where something is, in the
        // caption's countries (a common word read as a city abroad, `من الحصار` "from
        // the siege", places nothing).
        let from = mentions[mi].span.end;
        let end = text[from..]
            .find(['.', '!', '?', '؟'])
            .map_or(text.len(), |p| from + p);
        let after: Vec<PlaceId> = mentions[mi + 1..]
            .iter()
            .filter(|m| !m.partial && m.span.start < end && m.role >= Role::Near)
            .filter_map(|m| m.chosen)
            .filter(|&o| {
                let x = g.entry(o);
                x.kind != PlaceKind::Country
                    && (context.is_empty() || context.contains_key(x.country.as_str()))
            })
            .collect();
        let far = !after.is_empty()
            && !after
                .iter()
                .any(|&o| o == c || g.contains(o, c) || g.distance_km(o, c) < 60.0);
        let foreign = kind == PlaceKind::Neighbourhood && !in_context && !well_known(g, c);
        // A neighbourhood or a camp lies in or by the city the caption is about; a town
        // or a village may lie across a border from it (`من حلب إلى بلدة كلس`).
        let held_by_city = kind == PlaceKind::Neighbourhood || word == "مخيم";
        if far || held_by_city && elsewhere.iter().any(abroad) || foreign {
            mentions[mi].chosen = None;
        }
    }
}

/// `مدينة حلب ... في حلب`: a name the caption repeats is the same place. A bare Arabic
/// mention read as a province (`حلب` is Aleppo and its governorate) is the city of that
/// name inside it when another mention of the name chose the city; `محافظة حلب` keeps
/// the province.
pub(in super::super) fn same_name_same_place(g: &Gazetteer, mentions: &mut [Mention]) {
    for i in 0..mentions.len() {
        let Some(c) = mentions[i].chosen else {
            continue;
        };
        if g.entry(c).kind != PlaceKind::Admin1
            || mentions[i].hint.is_some()
            || !is_arabic(&mentions[i].text)
        {
            continue;
        }
        let town = mentions.iter().find_map(|o| {
            o.chosen.filter(|&t| {
                o.folded == mentions[i].folded
                    && g.entry(t).kind == PlaceKind::Town
                    && g.contains(c, t)
            })
        });
        if let Some(t) = town {
            mentions[i].chosen = Some(t);
        }
    }
}
