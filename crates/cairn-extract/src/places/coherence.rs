//! What the rest of the caption says against a choice: a place in another country than
//! the one written after it (`Borota, Chad` is no town of Sudan), a namesake on another
//! continent than every country the caption names, a spelling match far from every place
//! the caption names exactly. Such a choice is another place of that name: better none
//! (the scene falls to what the caption does place) than a point on the wrong continent.

use cairn_gazetteer::{Gazetteer, PlaceId};
use cairn_model::PlaceKind;

use super::mention::{Context, Mention};

/// How far (km) from every country the caption names a place outside them may lie.
const FOREIGN_KM: f64 = 2500.0;

/// How far (km) a place may lie from the place written as holding it (`X in Y`), or
/// as its surroundings (`X, north of Y`).
const INSIDE_KM: f64 = 60.0;
const RELATIVE_KM: f64 = 250.0;

/// How far (km) from every place the caption names exactly a spelling match may lie.
const FUZZY_KM: f64 = 300.0;

/// Undoes the choices the caption's other clues contradict.
pub(super) fn drop_incoherent(
    g: &Gazetteer,
    text: &str,
    context: &Context<'_>,
    mentions: &mut [Mention],
) {
    let exact: Vec<PlaceId> = mentions
        .iter()
        .filter_map(|m| m.chosen.filter(|&c| m.exact_at(c)))
        .filter(|&c| g.entry(c).kind != PlaceKind::Country)
        .collect();
    // The countries the caption names as places: not a demonym (`Russian President`
    // says whose, not where), not a team or a name's part.
    let countries: Vec<PlaceId> = mentions
        .iter()
        .filter(|m| m.role.is_scene())
        .filter_map(|m| m.chosen)
        .filter(|&c| g.entry(c).kind == PlaceKind::Country)
        .collect();
    for mi in 0..mentions.len() {
        let Some(c) = mentions[mi].chosen else {
            continue;
        };
        let e = g.entry(c);
        if e.kind == PlaceKind::Country {
            continue;
        }
        // A large city or a province stands on its own.
        let small = e.population < 200_000 && e.kind == PlaceKind::Town;
        let wrong_country = country_after(g, text, mentions, mi).is_some_and(|cc| cc != e.country);
        let foreign = small
            && !countries.is_empty()
            && !context.contains_key(e.country.as_str())
            && mentions[mi].followed_by.is_none()
            && countries.iter().all(|&k| g.distance_km(k, c) > FOREIGN_KM);
        let loose = !mentions[mi].exact_at(c);
        let mut others = exact.iter().filter(|&&x| x != c).peekable();
        let far_spelling = loose
            && others.peek().is_some()
            && others.all(|&x| g.distance_km(x, c) > FUZZY_KM && !g.contains(x, c));
        // `X, north of Y`, `X in Y`: a namesake beyond reach of `Y` is another place
        // (a later pass may have taken it again after the holder's check).
        let outside_holder = mentions[mi]
            .within
            .and_then(|w| mentions[w].chosen)
            .is_some_and(|h| {
                let reach = if mentions[mi].relative {
                    RELATIVE_KM
                } else {
                    INSIDE_KM
                };
                h != c
                    && !g.contains(h, c)
                    && g.distance_km(h, c) > reach
                    && !super::resolve::placed(g, &mentions[mi], h, c)
            });
        if wrong_country || foreign || far_spelling || outside_holder {
            mentions[mi].chosen = None;
        }
    }
}

/// `X, Country`: the code of the country written just after mention `mi`, when chosen.
fn country_after<'g>(
    g: &'g Gazetteer,
    text: &str,
    mentions: &[Mention],
    mi: usize,
) -> Option<&'g str> {
    let next = mentions.get(mi + 1)?;
    let gap = text.get(mentions[mi].span.end..next.span.start)?.trim();
    if gap != "," && gap != "،" {
        return None;
    }
    let c = next.chosen?;
    let e = g.entry(c);
    (e.kind == PlaceKind::Country).then_some(e.country.as_str())
}
