//! `Massapequa, Long Island`, `Bentiu, Unity state`: two names a comma joins speak for
//! each other when the gazetteer has a place of each name and one lies in or near the
//! other. Neither may be taken on its own (a small town, in a caption that names no
//! country), but a namesake pair that lies together is no coincidence.

use cairn_gazetteer::{Gazetteer, PlaceId};
use cairn_model::PlaceKind;

use super::mention::Mention;

/// How far (km) apart two places may lie and still be read as one lying by the other.
const TOGETHER_KM: f64 = 60.0;

/// Takes, for a place the words before set as the scene and left unresolved, the
/// namesake pair the comma after it makes: its own name and the name after, one holding
/// or lying near the other. The name after takes its part of the pair.
pub(super) fn pair_up(g: &Gazetteer, text: &str, mentions: &mut [Mention]) {
    for m in 0..mentions.len().saturating_sub(1) {
        let (a, b) = (&mentions[m], &mentions[m + 1]);
        let joined = matches!(text[a.span.end..b.span.start].trim(), "," | "،");
        if a.chosen.is_some() || !a.cue || !a.role.is_scene() || a.partial || b.partial || !joined {
            continue;
        }
        if let Some((c, d)) = best_pair(g, a, b) {
            mentions[m].chosen = Some(c);
            mentions[m + 1].chosen = Some(d);
        }
    }
}

/// The exact namesakes of `a` and `b` that lie together, the most populous pair first.
fn best_pair(g: &Gazetteer, a: &Mention, b: &Mention) -> Option<(PlaceId, PlaceId)> {
    let exact = |m: &Mention| m.candidates[..m.fuzzy_from.min(m.candidates.len())].to_vec();
    let (xs, ys) = (exact(a), exact(b));
    let mut best: Option<(f64, PlaceId, PlaceId)> = None;
    for &c in &xs {
        if g.entry(c).kind == PlaceKind::Country {
            continue;
        }
        for &d in &ys {
            if c == d || !together(g, c, d) {
                continue;
            }
            let weight = ((g.entry(c).population + 1) as f64).ln()
                + ((g.entry(d).population + 1) as f64).ln();
            if best.is_none_or(|(w, _, _)| weight > w) {
                best = Some((weight, c, d));
            }
        }
    }
    best.map(|(_, c, d)| (c, d))
}

/// Whether `d` holds `c`, or both are places of a town's size or smaller lying close.
fn together(g: &Gazetteer, c: PlaceId, d: PlaceId) -> bool {
    if g.entry(d).kind == PlaceKind::Country {
        return false;
    }
    g.contains(d, c) || g.distance_km(c, d) < TOGETHER_KM
}
