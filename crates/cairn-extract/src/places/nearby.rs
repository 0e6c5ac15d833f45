//! Namesakes chosen by their neighbours: when several gazetteer places share a mention's
//! name, the one near the other places the caption names (or held by one) is meant,
//! whatever their order in the text; a place qualified by its province (`X, Calif.`) is
//! the namesake inside it or none.

use cairn_gazetteer::{Gazetteer, PlaceId};
use cairn_model::PlaceKind;

use super::links::is_qualifying_gap;
use super::mention::Mention;
use super::role::Role;

/// How far (km) a neighbour may lie from a namesake and still speak for it.
const NEAR_KM: f64 = 60.0;

/// Re-chooses among each resolved mention's namesakes the one the most other resolved
/// places lie near or hold, when that is more than lie near the one chosen. A mention
/// placed by what holds it (`X in Y`, `X, south of Y`) was chosen for that and is left.
pub(super) fn prefer_near_namesakes(g: &Gazetteer, mentions: &mut [Mention]) {
    for mi in 0..mentions.len() {
        let m = &mentions[mi];
        let Some(chosen) = m.chosen else { continue };
        if m.within.is_some() || m.partial || g.entry(chosen).kind == PlaceKind::Country {
            continue;
        }
        let neighbours: Vec<PlaceId> = mentions
            .iter()
            .enumerate()
            .filter(|&(i, n)| i != mi && !n.partial && n.folded != m.folded && n.role != Role::Name)
            .filter_map(|(_, n)| n.chosen.map(|c| (n, c)))
            // A town's name read bare (`George` of a person's name) speaks for nothing;
            // a province's or a region's does (`the Peloponnese`).
            .filter(|&(n, c)| {
                let kind = g.entry(c).kind;
                n.cue
                    || n.hint.is_some()
                    || matches!(
                        kind,
                        PlaceKind::Admin1 | PlaceKind::Admin2 | PlaceKind::Region
                    )
            })
            .map(|(_, c)| c)
            .filter(|&c| g.entry(c).kind != PlaceKind::Country)
            .collect();
        if neighbours.is_empty() {
            continue;
        }
        let support = |c: PlaceId| -> usize {
            neighbours
                .iter()
                .filter(|&&n| n != c)
                .map(|&n| nearness(g, c, n))
                .sum()
        };
        // Only namesakes of the chosen one's kind matched as it was (exact or by
        // transliteration), and inside what follows it when that holds the chosen
        // (`X, Country`).
        let exact = m.exact_at(chosen);
        let kind = g.entry(chosen).kind;
        let followed = m.followed_by.filter(|&f| g.contains(f, chosen));
        let best = m
            .candidates
            .iter()
            .copied()
            .filter(|&c| c != chosen && m.exact_at(c) == exact)
            .filter(|&c| g.entry(c).kind == kind)
            .filter(|&c| followed.is_none_or(|f| g.contains(f, c)))
            .map(|c| (c, support(c)))
            .max_by_key(|&(_, s)| s);
        if let Some((c, s)) = best {
            if s > support(chosen) {
                mentions[mi].chosen = Some(c);
            }
        }
    }
}

/// How much `b` speaks for `a`: more when one holds the other than when they only lie
/// near each other (the Rafah inside the Gaza Strip, not the one across the border).
fn nearness(g: &Gazetteer, a: PlaceId, b: PlaceId) -> usize {
    if g.contains(a, b) || g.contains(b, a) {
        2
    } else {
        usize::from(g.distance_km(a, b) < NEAR_KM)
    }
}

/// `X, Calif.`, `X, Idlib province`: the province that qualifies a place holds it. The
/// province's namesake that holds the place is meant (`Lábrea, no Amazonas`); else a
/// namesake of the place elsewhere (a German `Ettersburg` for `Ettersburg, Calif.`)
/// gives way to the one inside, or to none, so that the place the gazetteer lacks falls
/// back to the province. Only provinces: a country after a comma may not hold the place in the
/// gazetteer's terms (`Hong Kong, China`), nor a region drawn by hand. A city under its
/// own name is surer than the province read after it (`Goma, Zaire` is no province of
/// Angola's).
pub(super) fn keep_inside_province(g: &Gazetteer, text: &str, mentions: &mut [Mention]) {
    for mi in 0..mentions.len().saturating_sub(1) {
        let (Some(c), Some(p)) = (mentions[mi].chosen, mentions[mi + 1].chosen) else {
            continue;
        };
        let gap = text[mentions[mi].span.end..mentions[mi + 1].span.start].trim();
        let province = g.entry(p).kind == PlaceKind::Admin1;
        if !province || !is_qualifying_gap(gap) || c == p || g.contains(p, c) {
            continue;
        }
        // `Lábrea, no Amazonas`: the province read is a namesake of the one that holds
        // the place (Venezuela's Amazonas for Brazil's).
        let holding = mentions[mi + 1]
            .candidates
            .iter()
            .copied()
            .find(|&x| g.entry(x).kind == PlaceKind::Admin1 && g.contains(x, c));
        if let Some(x) = holding {
            mentions[mi + 1].chosen = Some(x);
            continue;
        }
        let e = g.entry(c);
        let city = e.population >= 100_000 && e.folded == mentions[mi].folded;
        if e.kind == PlaceKind::Country || city {
            continue;
        }
        let m = &mentions[mi];
        mentions[mi].chosen = m
            .candidates
            .iter()
            .copied()
            .filter(|&x| x != p && g.contains(p, x))
            .max_by_key(|&x| (m.exact_at(x), g.entry(x).population));
    }
}
