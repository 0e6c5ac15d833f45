//! Resolution: each mention's candidates scored with the caption's own context
//! (countries named or implied, `X, Country`, the places around it), and the evidence a
//! choice needs before it is taken.

use std::cell::OnceCell;

use cairn_gazetteer::{Gazetteer, PlaceId, skeleton};
use cairn_model::{PlaceKind, Span};

use super::mention::Mention;
use super::role::Role;

pub(super) use super::mention::Context;

/// How far (km) a place named `X in Y` may lie from `Y` when the gazetteer does not
/// say that `Y` holds it.
const INSIDE_KM: f64 = 60.0;

/// How far (km) a place named `X, south of Y` may lie from `Y`.
const RELATIVE_KM: f64 = 250.0;

/// A mention's qualifier and holder, and the best candidate they gave.
type Scored = (Option<PlaceId>, Option<PlaceId>, Option<PlaceId>);

/// How far (km) a place named `X, southwest of Y` may lie from `Y` when it lies on
/// that bearing (`Kandahar, southwest of Kabul` is 450 km away).
const ON_BEARING_KM: f64 = 1_000.0;

/// How far a mention may lie from the place in its `within`.
fn radius(m: &Mention) -> f64 {
    if m.relative && m.bearing.is_some() {
        RELATIVE_KM
    } else {
        INSIDE_KM
    }
}

/// Whether `c` lies where mention `m` places it from its holder `h`: inside it, within
/// the mention's radius, or, named by a bearing, on that bearing within a country's
/// reach.
pub(super) fn placed(g: &Gazetteer, m: &Mention, h: PlaceId, c: PlaceId) -> bool {
    if h == c {
        return false;
    }
    let d = g.distance_km(h, c);
    if g.contains(h, c) || d < radius(m) {
        return true;
    }
    let Some((north, east)) = m.bearing.filter(|_| m.relative) else {
        return false;
    };
    if d >= ON_BEARING_KM {
        return false;
    }
    let (a, b) = (g.entry(h), g.entry(c));
    let dn = b.lat - a.lat;
    let de = (b.lon - a.lon) * ((a.lat + b.lat) / 2.0).to_radians().cos();
    let (pn, pe) = (f64::from(north), f64::from(east));
    // Within about 60 degrees of the named point: `southwest` holds the south-southwest.
    let cos = (dn * pn + de * pe) / ((dn * dn + de * de).sqrt() * (pn * pn + pe * pe).sqrt());
    cos >= 0.5
}

pub(super) struct Resolution<'a> {
    pub(super) g: &'a Gazetteer,
    pub(super) text: &'a str,
    pub(super) context: &'a Context<'a>,
    /// Whether the caption names a country as such, not only through a demonym.
    pub(super) countries_named: bool,
    /// Countries of the places the caption names unambiguously, with the mention that
    /// names each (see [`anchors`]).
    pub(super) anchors: Vec<(Span, &'a str)>,
}

/// The countries of places named so that there is no doubt which they are: a city of
/// at least 100,000 or a province, under its own name, all of whose namesakes of that
/// standing lie in one country (`Mosul`, `Kandahar province`), after a word that says a
/// place follows. They say in which country a misspelt name is looked for (`Makhmour
/// area, southeast of Mosul`).
pub(super) fn anchors<'a>(g: &'a Gazetteer, mentions: &[Mention]) -> Vec<(Span, &'a str)> {
    let mut out: Vec<(Span, &'a str)> = Vec::new();
    for m in mentions {
        if m.partial || !m.cue || !m.role.is_scene() {
            continue;
        }
        let mut country: Option<&'a str> = None;
        let mut single = true;
        for &c in &m.candidates[..m.fuzzy_from] {
            let e = g.entry(c);
            let standing = e.population >= 100_000 || e.kind == PlaceKind::Admin1;
            if e.folded != m.folded || !standing || e.kind == PlaceKind::Country {
                continue;
            }
            match country {
                None => country = Some(e.country.as_str()),
                Some(cc) if cc != e.country => single = false,
                Some(_) => {}
            }
        }
        if let (Some(cc), true) = (country, single) {
            out.push((m.span, cc));
        }
    }
    out
}

impl Resolution<'_> {
    /// Chooses a place for each mention that has enough evidence: countries first, then
    /// the rest in text order, each with proximity to what is already resolved; then
    /// `X in Y` checked against `Y`.
    pub(super) fn resolve(&self, mentions: &mut [Mention]) {
        let mut resolved: Vec<PlaceId> = Vec::new();
        // "Sudscha im Gebiet Kursk": a place that holds another is resolved before it,
        // so that the held name is read inside it.
        let holders: Vec<usize> = mentions.iter().filter_map(|m| m.within).collect();
        let mut order: Vec<usize> = (0..mentions.len()).collect();
        order.sort_by_key(|i| !holders.contains(i));
        // The first pass's best candidate per mention, with the qualifier and holder it
        // was scored with. Resolved countries add nothing to proximity, so until the
        // second pass resolves a place that is no country, a mention with the same
        // qualifier and holder would score alike: its choice is taken again.
        let mut first: Vec<Option<Scored>> = vec![None; mentions.len()];
        let mut places_resolved = false;
        for pass in 0..2 {
            for &mi in &order {
                if mentions[mi].chosen.is_some() {
                    continue;
                }
                let qualifies = self.qualifier(mentions, mi);
                let holder = mentions[mi].within.and_then(|w| mentions[w].chosen);
                if self.hopeless(&mentions[mi], qualifies, holder) {
                    // The shortcut reads `accept`'s conditions: the tests hold it to them.
                    debug_assert!(
                        mentions[mi].candidates.iter().all(|&c| !self.accept(
                            &mentions[mi],
                            c,
                            qualifies,
                            holder
                        )),
                        "{}",
                        mentions[mi].text
                    );
                    continue;
                }
                let best = match first[mi] {
                    Some((q, h, c)) if !places_resolved && (q, h) == (qualifies, holder) => c,
                    _ => self.best(&mentions[mi], qualifies, holder, &resolved),
                };
                first[mi] = Some((qualifies, holder, best));
                let Some(c) = best else {
                    continue;
                };
                let is_country = self.g.entry(c).kind == PlaceKind::Country;
                if pass == 0 && !is_country {
                    continue;
                }
                if self.joined_to_no_place(mentions, mi) {
                    continue;
                }
                if self.accept(&mentions[mi], c, qualifies, holder) {
                    mentions[mi].chosen = Some(c);
                    resolved.push(c);
                    places_resolved |= !is_country;
                }
            }
        }
        self.check_inside(mentions);
        share_choices(mentions);
        self.regions_by_part(mentions);
    }

    /// `southern Gaza`, `across Gaza`: a town named by a part of it, or as a whole area,
    /// means the region that bears its name and a kind word (`Gaza Strip`), when that
    /// region holds it.
    fn regions_by_part(&self, mentions: &mut [Mention]) {
        for m in mentions.iter_mut() {
            let Some(c) = m.chosen else { continue };
            if self.g.entry(c).kind != PlaceKind::Town {
                continue;
            }
            let before = self.text[..m.span.start].trim_end();
            let word = before
                .rsplit(char::is_whitespace)
                .next()
                .unwrap_or_default()
                .to_lowercase();
            let part = word
                .strip_suffix("ern")
                .is_some_and(super::relative::is_direction)
                || matches!(word.as_str(), "across" | "throughout");
            if !part {
                continue;
            }
            let prefix = format!("{} ", m.folded);
            let path = self.g.path(c);
            let region = path.iter().rev().copied().find(|&p| {
                let e = self.g.entry(p);
                matches!(e.kind, PlaceKind::Admin1 | PlaceKind::Region)
                    && e.folded.starts_with(&prefix)
            });
            if let Some(r) = region {
                m.chosen = Some(r);
            }
        }
    }

    /// Whether another mention than `m` anchors the caption in country `cc`.
    fn anchored(&self, m: &Mention, cc: &str) -> bool {
        self.anchors.iter().any(|&(s, a)| a == cc && s != m.span)
    }

    /// "Muna and Sakina": a name joined by `and` to a name that is no place is no place
    /// either (the conjunction was its only cue). After a place word (`the villages of
    /// X and Y`) both are places, known or not.
    fn joined_to_no_place(&self, mentions: &[Mention], mi: usize) -> bool {
        let m = &mentions[mi];
        m.role == Role::Weak
            && mi > 0
            && mentions[mi - 1].chosen.is_none()
            && !mentions[mi - 1].cue
            && self.text[mentions[mi - 1].span.end..m.span.start].trim() == "and"
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
        // The mention's skeleton, made once for all its candidates.
        let m_skeleton = OnceCell::new();
        // "search for bodies in Derna": a city of standing that answers to the name
        // exactly is meant, not a spelling match in a country the caption names.
        let exact = &m.candidates[..m.fuzzy_from.min(m.candidates.len())];
        let standing = m.role >= Role::Near
            && exact.iter().any(|&c| {
                let e = self.g.entry(c);
                e.kind == PlaceKind::Town && e.population >= 100_000
            });
        let pool = if standing { exact } else { &m.candidates[..] };
        pool.iter()
            .copied()
            .map(|c| {
                let mut sc = self.score(c, m, &m_skeleton, resolved);
                if qualifies.is_some_and(|q| q != c && self.g.contains(c, q)) {
                    sc += 100.0;
                }
                if holder.is_some_and(|h| placed(self.g, m, h, c)) {
                    sc += 100.0;
                }
                (c, sc)
            })
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(c, _)| c)
    }

    /// Whether no candidate of `m` could be taken whichever scores best (see
    /// [`Resolution::accept`]): then none is scored. A name that is part of a person's or
    /// an institution's is taken only as a country; a mention with no cue, kind word,
    /// qualifier or holder only as an exact match that is a country, a province or a
    /// city of 100,000 (`strong`).
    fn hopeless(&self, m: &Mention, qualifies: Option<PlaceId>, holder: Option<PlaceId>) -> bool {
        let plain = !m.cue
            && m.hint.is_none()
            && m.followed_by.is_none()
            && qualifies.is_none()
            && holder.is_none();
        if !plain && !m.partial {
            return false;
        }
        let pool = if plain {
            &m.candidates[..m.fuzzy_from.min(m.candidates.len())]
        } else {
            &m.candidates[..]
        };
        !pool.iter().any(|&c| {
            let e = self.g.entry(c);
            e.kind == PlaceKind::Country
                || !m.partial && (e.kind == PlaceKind::Admin1 || e.population >= 100_000)
        })
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
        let in_context =
            context.is_empty() || context.contains_key(e.country.as_str()) || self.whose_only(m, c);
        let primary = e.folded == m.folded;
        // "Eagle Pass, Texas" in a caption that names Mexico: a place its own state or
        // country follows is placed by it, whatever else the caption names.
        let qualified = qualifies.is_some_and(|q| q != c && self.g.contains(c, q))
            || holder.is_some_and(|h| h != c && self.g.contains(h, c))
            || m.followed_by
                .is_some_and(|f| f != c && self.g.contains(f, c));
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
        // "Prince" is another name of a small town in Haiti: a name unrelated to the
        // place's own, for a small place, needs the caption's country or a qualifier.
        if !primary
            && m.exact_at(c)
            && !e.id.starts_with("cairn:")
            && !e.folded.contains(m.folded.as_str())
            && !is_country
            && e.kind != PlaceKind::Admin1
            && e.population < 100_000
            && !qualified
            && !context.contains_key(e.country.as_str())
            && m.text.is_ascii()
            && !spelt_alike(&m.folded, &e.folded)
        {
            return false;
        }
        if m.exact_at(c) {
            (m.cue || strong || m.hint.is_some() || m.followed_by.is_some())
                && (in_context
                    || (primary && e.population >= 500_000)
                    || (located && e.population >= 100_000)
                    || (primary
                        && located
                        && matches!(e.kind, PlaceKind::Region | PlaceKind::Admin1))
                    || is_country
                    || qualified)
        } else {
            (m.cue || m.hint.is_some() || m.followed_by.is_some())
                && (context.contains_key(e.country.as_str())
                    || self.anchored(m, e.country.as_str())
                    || super::arabic::long_name_matches(self.g, self.text, m, c))
        }
    }

    /// `Syrian refugees in Akcakale`, `Russian soldiers in Bucha`: a demonym says whose
    /// people they are, not where they stand, so a town named exactly (or in its
    /// spelling's skeleton) after a word that places it is read wherever it is, when the
    /// caption names no country itself; not a facility's name (`Al-Salam hospital`) nor a
    /// landmark. The cheap tests first: this is asked of every candidate.
    fn whose_only(&self, m: &Mention, c: PlaceId) -> bool {
        let e = self.g.entry(c);
        if self.countries_named || m.role < Role::Near || e.kind != PlaceKind::Town {
            return false;
        }
        let own_name = e.folded == m.folded || skeleton(&e.folded) == skeleton(&m.folded);
        own_name
            && !self.text[m.span.end..]
                .split_whitespace()
                .next()
                .is_some_and(|w| {
                    super::sites::is_site_word(w.trim_end_matches(|c: char| !c.is_alphanumeric()))
                })
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
            let inside = |c: PlaceId| {
                c != h && (self.g.contains(h, c) || self.g.distance_km(h, c) < INSIDE_KM)
            };
            let m = &mentions[mi];
            // "Baghlan, north of Kabul": a place named by its bearing may lie far off.
            let by_bearing = m.relative && placed(self.g, m, h, c);
            if c == h || inside(c) || by_bearing || self.g.entry(c).kind == PlaceKind::Country {
                continue;
            }
            // Else the namesake nearest `Y`, if one lies within reach of it.
            mentions[mi].chosen = m
                .candidates
                .iter()
                .copied()
                .filter(|&x| placed(self.g, m, h, x))
                .min_by(|&a, &b| {
                    self.g
                        .distance_km(h, a)
                        .total_cmp(&self.g.distance_km(h, b))
                });
        }
    }

    /// How well `c` fits mention `m`; `m_skeleton` holds [`skeleton`] of `m.folded`
    /// once it is needed.
    fn score(
        &self,
        c: PlaceId,
        m: &Mention,
        m_skeleton: &OnceCell<String>,
        resolved: &[PlaceId],
    ) -> f64 {
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
        // An alternate name that only transliterates the place's own (`Jenin` for
        // `Janīn`) counts as its own: population, not spelling, then decides.
        let primary = e.folded == m.folded
            || (c_is_exact(m, c)
                && skeleton(&e.folded) == *m_skeleton.get_or_init(|| skeleton(&m.folded)));
        if primary {
            s += 5.0;
        }
        if !self.context.contains_key(e.country.as_str()) && self.anchored(m, &e.country) {
            s += 40.0;
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

fn c_is_exact(m: &Mention, c: PlaceId) -> bool {
    m.fuzzy_from > 0 && m.exact_at(c)
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

/// Whether two folded names are spellings of one name: the same transliteration
/// skeleton, or skeletons of four letters or more one letter apart (`Bachmut` of
/// `Bakhmut`, `Charkiw` of `Kharkiv` are spelt so in other languages).
fn spelt_alike(a: &str, b: &str) -> bool {
    let (sa, sb) = (skeleton(a), skeleton(b));
    sa == sb || (sa.chars().count() >= 4 && super::candidates::within_one_edit(&sa, &sb))
}
