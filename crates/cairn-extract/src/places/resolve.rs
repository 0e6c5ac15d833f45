//! Resolution: each mention's candidates scored with the caption's own context
//! (countries named or implied, `X, Country`, the places around it), and the evidence a
//! choice needs before it is taken.

use cairn_gazetteer::{Gazetteer, PlaceId};
use cairn_model::PlaceKind;
use rustc_hash::FxHashMap;

use super::candidates::Mention;
use super::roles::Role;

/// The caption's countries, weighted by how they are named.
pub(super) type Context<'a> = FxHashMap<&'a str, u32>;

/// How far (km) a place named `X in Y` may lie from `Y` when the gazetteer does not
/// say that `Y` holds it.
const INSIDE_KM: f64 = 60.0;

pub(super) struct Resolution<'a> {
    pub(super) g: &'a Gazetteer,
    pub(super) text: &'a str,
    pub(super) context: &'a Context<'a>,
}

impl Resolution<'_> {
    /// Chooses a place for each mention that has enough evidence: countries first, then
    /// the rest in text order, each with proximity to what is already resolved; then
    /// `X in Y` checked against `Y`.
    pub(super) fn resolve(&self, mentions: &mut [Mention]) {
        let mut resolved: Vec<PlaceId> = Vec::new();
        for pass in 0..2 {
            for mi in 0..mentions.len() {
                if mentions[mi].chosen.is_some() {
                    continue;
                }
                let qualifies = self.qualifier(mentions, mi);
                let holder = mentions[mi].within.and_then(|w| mentions[w].chosen);
                let Some(c) = self.best(&mentions[mi], qualifies, holder, &resolved) else {
                    continue;
                };
                let is_country = self.g.entry(c).kind == PlaceKind::Country;
                if pass == 0 && !is_country {
                    continue;
                }
                if self.accept(&mentions[mi], c, qualifies, holder) {
                    mentions[mi].chosen = Some(c);
                    resolved.push(c);
                }
            }
        }
        self.check_inside(mentions);
        share_choices(mentions);
    }

    /// "Chester, Pa.": the place just before, separated by a comma, lies inside this one.
    fn qualifier(&self, mentions: &[Mention], mi: usize) -> Option<PlaceId> {
        mi.checked_sub(1)
            .filter(|&p| {
                let gap = self.text[mentions[p].span.end..mentions[mi].span.start].trim();
                gap == "," || gap == "،"
            })
            .and_then(|p| mentions[p].chosen)
    }

    /// The best-scoring candidate of a mention.
    fn best(
        &self,
        m: &Mention,
        qualifies: Option<PlaceId>,
        holder: Option<PlaceId>,
        resolved: &[PlaceId],
    ) -> Option<PlaceId> {
        m.candidates
            .iter()
            .copied()
            .map(|c| {
                let mut sc = self.score(c, m, resolved);
                if qualifies.is_some_and(|q| q != c && self.g.contains(c, q)) {
                    sc += 100.0;
                }
                if let Some(h) = holder {
                    if h != c && (self.g.contains(h, c) || self.g.distance_km(h, c) < INSIDE_KM) {
                        sc += 100.0;
                    }
                }
                (c, sc)
            })
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(c, _)| c)
    }

    /// Whether the evidence for `c` is enough to take it.
    fn accept(
        &self,
        m: &Mention,
        c: PlaceId,
        qualifies: Option<PlaceId>,
        holder: Option<PlaceId>,
    ) -> bool {
        let e = self.g.entry(c);
        let is_country = e.kind == PlaceKind::Country;
        // "Mohammed Homs", "Lady Reading Hospital": part of a name that is no place.
        if m.partial && !is_country {
            return false;
        }
        let context = self.context;
        let in_context = context.is_empty() || context.contains_key(e.country.as_str());
        let primary = e.folded == m.folded;
        let qualified = qualifies.is_some_and(|q| q != c && self.g.contains(c, q))
            || holder.is_some_and(|h| h != c && self.g.contains(h, c));
        let strong = is_country
            || (matches!(e.kind, PlaceKind::Admin1) && primary)
            || (primary && e.population >= 100_000)
            || qualified;
        // Two- and three-letter alternate names ("Pa" for Chongqing) count only for
        // admin units and countries, or when they qualify a place before them.
        let short_alias = m.folded.len() <= 3
            && !primary
            && !matches!(e.kind, PlaceKind::Country | PlaceKind::Admin1)
            && !qualified;
        if short_alias {
            return false;
        }
        let located = m.role >= Role::Near || m.hint.is_some();
        if m.exact_at(c) {
            (m.cue || strong || m.hint.is_some() || m.followed_by.is_some())
                && (in_context
                    || (primary && e.population >= 500_000)
                    || (primary && located && e.population >= 100_000)
                    || (located && e.population >= 200_000)
                    || (primary
                        && located
                        && matches!(e.kind, PlaceKind::Region | PlaceKind::Admin1))
                    || is_country
                    || qualified)
        } else {
            (m.cue || m.hint.is_some() || m.followed_by.is_some())
                && !context.is_empty()
                && context.contains_key(e.country.as_str())
        }
    }

    /// `X in Y`: a place `X` that lies far from the `Y` named as holding it is another
    /// place of that name; the candidate near `Y` is taken instead, or none.
    fn check_inside(&self, mentions: &mut [Mention]) {
        for mi in 0..mentions.len() {
            let (Some(w), Some(c)) = (mentions[mi].within, mentions[mi].chosen) else {
                continue;
            };
            let Some(h) = mentions[w].chosen else {
                continue;
            };
            let near = |c: PlaceId| {
                c != h && (self.g.contains(h, c) || self.g.distance_km(h, c) < INSIDE_KM)
            };
            if c == h || near(c) || self.g.entry(c).kind == PlaceKind::Country {
                continue;
            }
            mentions[mi].chosen = mentions[mi].candidates.iter().copied().find(|&x| near(x));
        }
    }

    fn score(&self, c: PlaceId, m: &Mention, resolved: &[PlaceId]) -> f64 {
        let e = self.g.entry(c);
        let mut s = f64::from(
            self.context
                .get(e.country.as_str())
                .copied()
                .unwrap_or(0)
                .min(200),
        );
        if let Some(h) = m.hint {
            if h == e.kind {
                s += 50.0;
            } else if h == PlaceKind::Admin1 && e.kind != PlaceKind::Admin1 {
                s -= 30.0;
            }
        }
        if let Some(f) = m.followed_by {
            if self.g.contains(f, c) {
                s += 80.0;
            }
        }
        let primary = e.folded == m.folded;
        if primary {
            s += 5.0;
        }
        s += ((e.population + 1) as f64).log10() * 3.0;
        if e.kind == PlaceKind::Country && (primary || !self.names_a_big_place(m)) {
            s += 40.0;
        }
        if e.id.starts_with("cairn:") {
            s += 8.0;
        }
        if m.candidates.len() == 1 {
            return s;
        }
        s + self.proximity(c, resolved)
    }

    /// Whether another candidate bears the mention as its own name and is a city or a
    /// region: `Gaza` is Gaza City, not the country that also answers to it.
    fn names_a_big_place(&self, m: &Mention) -> bool {
        m.candidates.iter().any(|&o| {
            let e = self.g.entry(o);
            e.folded == m.folded
                && e.kind != PlaceKind::Country
                && (e.population >= 100_000 || e.kind == PlaceKind::Region)
        })
    }

    /// Closeness to the places already resolved: near ones count for, far ones against
    /// (a same-sounding town hundreds of kilometres from the rest is another place).
    fn proximity(&self, c: PlaceId, resolved: &[PlaceId]) -> f64 {
        let mut s = 0.0;
        let mut nearest = f64::INFINITY;
        for &r in resolved {
            if r != c && self.g.entry(r).kind != PlaceKind::Country {
                let d = self.g.distance_km(r, c);
                nearest = nearest.min(d);
                if d < 60.0 {
                    s += 30.0;
                }
                if self.g.contains(r, c) {
                    s += 20.0;
                }
            }
        }
        if nearest.is_finite() && nearest > 500.0 {
            s -= 15.0;
        }
        s
    }
}

/// A name the caption places by what holds it (`Metochi village, near Epidaurus`) is the
/// same place wherever else the caption names it (`Metochi (Greece), 23/07/2023`).
fn share_choices(mentions: &mut [Mention]) {
    for i in 0..mentions.len() {
        let (Some(_), Some(c)) = (mentions[i].within, mentions[i].chosen) else {
            continue;
        };
        for j in 0..mentions.len() {
            if j != i
                && mentions[j].within.is_none()
                && mentions[j].folded == mentions[i].folded
                && mentions[j].candidates.contains(&c)
            {
                mentions[j].chosen = Some(c);
            }
        }
    }
}
