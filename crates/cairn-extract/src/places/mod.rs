//! Places: candidate mentions (runs of capitalised words, or words after a locative
//! preposition), resolution against the gazetteer with the caption's own context, and the
//! choice of the scene's location by the role each place plays in its sentence.

mod arabic;
mod candidates;
mod clause;
mod coherence;
#[cfg(test)]
mod coherence_tests;
mod demonyms;
mod desks;
mod evidence;
mod intl;
#[cfg(test)]
mod intl_tests;
mod kind_phrase;
mod lexicon;
mod links;
mod mention;
mod nearby;
mod pairs;
mod relative;
mod resolve;
mod role;
mod roles;
mod runs;
mod scan_words;
mod scene;
#[cfg(test)]
mod scene_tests;
mod sites;
mod spot;
#[cfg(test)]
mod tests;
mod tokens;
mod turkish;

use cairn_gazetteer::{Gazetteer, PlaceId, fold};
use cairn_model::{Place, PlaceKind, Span};

use crate::text::Mask;
use candidates::{Mention, Scan};
use lexicon::{demonym_country, is_settlement_word, is_stop};
use resolve::{Context, Resolution};
use roles::Role;
use scene::Spot;
use sites::is_site_word;
use tokens::{Lower, Tok, strip_possessive, tokens};

/// Whether a name read as a person's (`Abu Dhabi` by the `Abu X` pattern) is a city of
/// 100,000 or more under its own name: then it is the city.
pub(crate) fn names_big_place(g: &Gazetteer, name: &str) -> bool {
    let folded = fold(name);
    g.exact_folded(&folded).iter().any(|&c| {
        let e = g.entry(c);
        e.folded == folded && e.population >= 100_000
    })
}

/// Whether the organisation found at `span` (`Magwe Division`) is an administrative
/// unit: a name and the kind word `Division`, the name a province's (or a town's whose
/// province bears its name) in a country the caption names. A military division is
/// named so too (`Gaza Division`), so the country must be in the caption.
pub(crate) fn names_admin_unit(g: &Gazetteer, text: &str, span: Span) -> bool {
    let Some(name) = text[span.start..span.end].strip_suffix(" Division") else {
        return false;
    };
    if name.split(' ').count() > 3 {
        return false;
    }
    g.exact_folded(&fold(name)).iter().any(|&c| {
        let e = g.entry(c);
        let unit = match e.kind {
            PlaceKind::Admin1 => true,
            PlaceKind::Town => g
                .admin1_of(c)
                .is_some_and(|a| g.entry(a).folded == e.folded),
            _ => false,
        };
        unit && g
            .country(&e.country)
            .is_some_and(|cc| text.contains(g.entry(cc).name.as_str()))
    })
}

/// A capitalised run that names a place the gazetteer lacks.
struct Unknown {
    /// The index of the first mention after it.
    next: usize,
    span: Span,
    name: String,
    /// Placed by a relative-position phrase before the mention at `next`.
    relative: bool,
    /// Where it lies when no mention after it holds it (a city the caption names
    /// elsewhere), and its role.
    elsewhere: Option<(PlaceId, Role)>,
}

/// The context each country named gives: 100 a mention, and none for a mention in a
/// list of three or more countries (`teams from Russia, Spain, Italy, Tunisia and
/// Algeria`), which says who, not where.
fn country_weights<'t>(text: &str, countries: &[(&'t str, Span)]) -> Vec<(&'t str, u32)> {
    let listed = |a: Span, b: Span| {
        let gap = text.get(a.end..b.start).unwrap_or("").trim();
        matches!(
            gap,
            "," | "and" | ", and" | "or" | "، و" | "و" | "et" | "y" | "und"
        )
    };
    let mut out = Vec::with_capacity(countries.len());
    let mut start = 0;
    while start < countries.len() {
        let mut end = start + 1;
        while end < countries.len() && listed(countries[end - 1].1, countries[end].1) {
            end += 1;
        }
        let weight = if end - start >= 3 { 0 } else { 100 };
        out.extend(countries[start..end].iter().map(|&(cc, _)| (cc, weight)));
        start = end;
    }
    out
}

/// Finds and resolves the places of a caption.
pub struct Resolver<'g> {
    g: &'g Gazetteer,
}

/// What place extraction found.
#[derive(Debug, Default)]
pub struct Found {
    pub places: Vec<Place>,
    pub location: Option<Place>,
    /// What the confidence model read of the location (see `crate::confidence`).
    pub evidence: Option<Vec<f64>>,
    pub warnings: Vec<String>,
}

/// Countries whose captions name each other's places so often that naming one gives
/// context to the other (`Israeli troops raid Jenin`).
const NEIGHBOUR_CONTEXT: &[(&str, &str)] = &[("IL", "PS"), ("PS", "IL")];

impl<'g> Resolver<'g> {
    pub fn new(g: &'g Gazetteer) -> Self {
        Resolver { g }
    }

    fn to_place(&self, id: PlaceId, text: &str, span: Span) -> Place {
        let e = self.g.entry(id);
        let admin1 = self.g.admin1_of(id).map(|a| self.g.entry(a).name.clone());
        let path = self.g.path(id);
        let within = path[..path.len() - 1]
            .iter()
            .map(|&p| self.g.entry(p).id.clone())
            .collect();
        Place {
            name: e.name.clone(),
            text: text.to_string(),
            lat: e.lat,
            lon: e.lon,
            kind: e.kind,
            admin1,
            country: (!e.country.is_empty()).then(|| e.country.clone()),
            gazetteer_id: Some(e.id.clone()),
            span,
            within,
            confidence: None,
            reason: None,
        }
    }

    /// Finds the places in `text`; `mask` covers what other fields already own (credit,
    /// organisations, people, quotations); `scene` is the span of the scene sentence.
    pub fn find(&self, text: &str, mask: &Mask, scene: Span) -> Found {
        let toks = tokens::lower_articles(text, tokens::split_elisions(text, tokens(text)));
        // Each token in lower case, made once: the steps below read them several times.
        let lower = Lower::new(text, &toks);
        let (context, countries_named) = self.context(text, &toks, &lower, mask);
        let scan = Scan {
            g: self.g,
            text,
            toks: &toks,
            lower: &lower,
            mask,
            context: &context,
        };
        let mut mentions = scan.mentions();
        links::link(self.g, text, &mut mentions);
        arabic::link_within(text, &mut mentions);
        Resolution {
            g: self.g,
            text,
            context: &context,
            countries_named,
            anchors: resolve::anchors(self.g, &mentions),
        }
        .resolve(&mut mentions);
        pairs::pair_up(self.g, text, &mut mentions);
        nearby::keep_inside_province(self.g, text, &mut mentions);
        nearby::prefer_near_namesakes(self.g, &mut mentions);
        relative::relative_positions(text, &mut mentions);
        arabic::same_name_same_place(self.g, &mut mentions);
        arabic::drop_far_homonyms(self.g, text, &toks, &lower, &context, &mut mentions);
        coherence::drop_incoherent(self.g, text, &context, &mut mentions);
        let mut unknown = self.unknown_places(text, &toks, mask, &mentions);
        unknown.extend(
            arabic::unknown_places(self.g, &context, text, &toks, &lower, &mentions)
                .into_iter()
                .map(|h| Unknown {
                    next: h.next,
                    span: h.span,
                    name: h.name,
                    relative: false,
                    elsewhere: h.elsewhere,
                }),
        );
        let mut warnings = Vec::new();
        let spots = self.spots(text, &mentions, unknown, &context, &mut warnings);
        let (location, evidence) = match scene::choose(text, &spots, scene, &mut warnings) {
            Some((place, x)) => (Some(place), Some(x)),
            None => (self.origin_country(text, &spots, &mut warnings), None),
        };
        let mut places: Vec<Place> = Vec::new();
        let mut seen: Vec<String> = Vec::new();
        for s in spots {
            let key = fold(&s.place.text);
            if !seen.contains(&key) {
                seen.push(key);
                places.push(s.place);
            }
        }
        Found {
            places,
            location,
            evidence,
            warnings,
        }
    }

    /// People who came from a town to a destination the gazetteer lacks (`from Saada
    /// ... to the Zzyx settlement`) are most likely still in the town's country: that
    /// country, with low confidence, rather than the town they left.
    fn origin_country(
        &self,
        text: &str,
        spots: &[Spot],
        warnings: &mut Vec<String>,
    ) -> Option<Place> {
        let origin = spots
            .iter()
            .find(|s| s.role == Role::Origin && s.place.kind != PlaceKind::Country)?;
        if !roles::names_destination(text) {
            return None;
        }
        let cc = origin.place.country.as_deref()?;
        let id = self.g.country(cc)?;
        let mut place = self.to_place(id, &origin.place.text, origin.place.span);
        place.confidence = Some(cairn_model::Confidence::Low);
        let r = origin.reason;
        place.reason = text.get(r.start..r.end).map(str::to_string);
        warnings.push(format!(
            "location {:?} is uncertain: the destination is not in the gazetteer; the \
             country of the origin",
            place.name
        ));
        Some(place)
    }

    /// Context: the countries the caption names, and those its demonyms imply; and
    /// whether it names a country itself (a demonym says whose, not always where).
    fn context<'t>(
        &self,
        text: &str,
        toks: &[Tok],
        lower: &Lower<'_>,
        mask: &Mask,
    ) -> (Context<'t>, bool)
    where
        'g: 't,
    {
        let mut context: Context<'t> = Context::default();
        let mut countries: Vec<(&'t str, Span)> = Vec::new();
        for (i, t) in toks.iter().enumerate() {
            let two_words = i
                .checked_sub(1)
                .and_then(|p| demonyms::two_word_demonym(lower.at(toks, p), lower.at(toks, i)));
            if let Some(cc) = two_words.or_else(|| demonym_country(lower.at(toks, i))) {
                let near = |j: Option<usize>| {
                    j.is_some_and(|j| j < toks.len() && lexicon::is_border_word(lower.at(toks, j)))
                };
                if !near(i.checked_sub(1)) && !near(Some(i + 1)) {
                    *context.entry(cc).or_default() += 60;
                }
            }
            let word = &text[t.span.start..t.span.end];
            if (t.cap || !word.is_ascii()) && !mask.overlaps(t.span) {
                let (word, _) = strip_possessive(word);
                let folded = fold(word);
                // Most capitalised words name no country: a small set says so before the
                // name index and the entries are read.
                if !self.g.names_a_country(&folded) {
                    continue;
                }
                for &id in self.g.exact_folded(&folded) {
                    let e = self.g.entry(id);
                    // `e.folded` is the fold of the entry's preferred name; a country's
                    // other names are its names in other languages (`Tchad`, `سوريا`).
                    let named = e.folded == folded || !lexicon::is_country_homograph(&folded);
                    if e.kind == PlaceKind::Country && named {
                        countries.push((e.country.as_str(), t.span));
                    }
                }
            }
        }
        let mut named = false;
        for (cc, weight) in country_weights(text, &countries) {
            if weight > 0 {
                *context.entry(cc).or_default() += weight;
                named = true;
            }
        }
        for (a, b) in NEIGHBOUR_CONTEXT {
            if context.contains_key(a) && !context.contains_key(b) {
                context.insert(b, 1);
            }
        }
        (context, named)
    }

    /// Every place found, in text order, with what the scene choice reads of it: the
    /// resolved mentions, and unknown `X village`s at the place that encloses them.
    fn spots(
        &self,
        text: &str,
        mentions: &[Mention],
        unknown: Vec<Unknown>,
        context: &Context<'_>,
        warnings: &mut Vec<String>,
    ) -> Vec<Spot> {
        let mut out = Vec::new();
        // Places named only as the surroundings of a more precise one (`Mosul` in
        // `Qayyarah, south of Mosul`), by their mention's index.
        let mut surroundings: Vec<usize> = mentions
            .iter()
            .filter(|m| m.relative && m.chosen.is_some())
            .filter_map(|m| m.within)
            .collect();
        surroundings.extend(unknown.iter().filter(|u| u.relative).map(|u| u.next));
        for (mi, m) in mentions.iter().enumerate() {
            let Some(c) = m.chosen else { continue };
            let dateline = scene::is_dateline(text, mentions, mi);
            out.push(Spot {
                passing: !dateline && self.in_passing(mentions, m, c, context),
                population: self.g.entry(c).population,
                place: self.to_place(c, &m.text, m.span),
                role: m.role,
                dateline,
                qualified: m.followed_by.is_some()
                    || m.relative
                    || m.within.is_some_and(|w| mentions[w].container),
                surroundings: surroundings.contains(&mi),
                fallback: false,
                exact: m.exact_at(c),
                hinted: m.hint.is_some(),
                reason: scene::reason_span(text, mentions, mi),
            });
        }
        for Unknown {
            next,
            span,
            name,
            relative,
            elsewhere,
        } in unknown
        {
            // The enclosing place: the first resolved one after it, or the one whose
            // possessive holds it ("Homs's Khalidiya district").
            // (place, role, where the reason begins, whether a possessive holds it)
            let holder = mentions[..next]
                .last()
                .filter(|m| m.container && text[m.span.end..span.start].trim().len() <= 2)
                .and_then(|m| m.chosen.map(|c| (c, m.role, m.cue_start, true)))
                .or_else(|| {
                    // A place within a person's or an organisation's name encloses nothing.
                    mentions[next..]
                        .iter()
                        .filter(|m| !m.partial)
                        .find_map(|m| m.chosen.map(|c| (c, m.role, span.start, false)))
                })
                .or_else(|| elsewhere.map(|(c, role)| (c, role, span.start, false)));
            let Some((e, role, from, held)) = holder else {
                warnings.push(format!("place {name:?} is not in the gazetteer"));
                continue;
            };
            // "Naweran, near Mosul": the reason runs to the surroundings' name.
            let end = if relative {
                mentions[next].span.end
            } else {
                span.end
            };
            warnings.push(format!(
                "place {name:?} is not in the gazetteer; located at the enclosing {}",
                self.g.entry(e).name
            ));
            out.push(Spot {
                passing: false,
                population: self.g.entry(e).population,
                place: self.to_place(e, &name, span),
                role: role.max(Role::Bare),
                dateline: false,
                qualified: held,
                surroundings: false,
                fallback: true,
                exact: true,
                hinted: true,
                reason: Span::new(from.min(span.start), end),
            });
        }
        out.sort_by_key(|s| s.place.span.start);
        out
    }

    /// Whether mention `m`, resolved to `c`, is a small town named in passing by one
    /// word: after no word that places it (`in`, `near`, a kind word), qualified by
    /// nothing, outside every country the caption names or holds a city or province of.
    /// Such a name is a person's as often as a town's (`plays with Ann`, `Fisher
    /// arrives`): no scene.
    fn in_passing(
        &self,
        mentions: &[Mention],
        m: &Mention,
        c: PlaceId,
        context: &Context<'_>,
    ) -> bool {
        let e = self.g.entry(c);
        let named = |cc: &str| {
            context.contains_key(cc)
                || mentions
                    .iter()
                    .filter(|n| n.span != m.span)
                    .filter_map(|n| n.chosen)
                    .any(|o| {
                        let o = self.g.entry(o);
                        o.country == cc
                            && (o.population >= 100_000
                                || matches!(o.kind, PlaceKind::Admin1 | PlaceKind::Region))
                    })
        };
        m.role <= Role::Weak
            && !m.text.contains(' ')
            && m.hint.is_none()
            && m.followed_by.is_none()
            && m.within.is_none()
            && matches!(
                e.kind,
                PlaceKind::Town | PlaceKind::Neighbourhood | PlaceKind::Point
            )
            && e.population < 100_000
            && !named(&e.country)
            && !desks::in_its_own_script(self.g, &m.text, c)
    }

    /// Whether the run of capitals `span`, beginning at token `i`, follows a locative
    /// preposition and comes just before a country or province the caption resolved
    /// (`in Humera, Ethiopia`): a place the gazetteer lacks, inside that one.
    fn placed_before_larger(
        &self,
        text: &str,
        toks: &[Tok],
        i: usize,
        span: Span,
        mentions: &[Mention],
    ) -> bool {
        let locative = i > 0 && {
            let w = &text[toks[i - 1].span.start..toks[i - 1].span.end];
            ["in", "at", "near", "à", "en"]
                .iter()
                .any(|l| w.eq_ignore_ascii_case(l))
        };
        text[span.end..].starts_with(", ")
            && locative
            && mentions.iter().any(|m| {
                m.span.start == span.end + 2
                    && m.chosen.is_some_and(|c| {
                        matches!(
                            self.g.entry(c).kind,
                            PlaceKind::Country | PlaceKind::Admin1 | PlaceKind::Region
                        )
                    })
            })
    }

    /// Whether the run of capitals `span`, beginning at token `i`, follows a locative word
    /// and stands before a relative-position phrase and a resolved place (`in the town
    /// of Naweran, near Mosul`): a place the gazetteer lacks, near that one.
    fn placed_relative(
        &self,
        text: &str,
        toks: &[Tok],
        i: usize,
        span: Span,
        after: &[Mention],
    ) -> bool {
        let locative = i > 0 && {
            let w = text[toks[i - 1].span.start..toks[i - 1].span.end].to_lowercase();
            ["in", "at", "of", "near", "outside"].contains(&w.as_str())
        };
        locative
            && after.first().is_some_and(|m| {
                m.chosen.is_some()
                    && !m.partial
                    && m.span.start >= span.end
                    && relative::is_relative_gap(&text[span.end..m.span.start])
            })
    }

    /// Whether the run of capitals `span`, ending at token `j`, names a site by its kind
    /// word (`Zzyx Square`, `Zzyx market`, `Villa Zzyx`) and a resolved place holds it (`Cairo's Zzyx
    /// Square`) or follows it after a comma (`Zzyx market, Lagos`).
    fn site_in_place(
        &self,
        text: &str,
        toks: &[Tok],
        j: usize,
        span: Span,
        mentions: &[Mention],
    ) -> bool {
        let word = |t: &Tok| &text[t.span.start..t.span.end];
        // The kind word ends the name (`Zzyx Square`) or, in some names, opens it
        // (`Villa Zzyx`, `Plaza Zzyx`).
        let opens = toks
            .iter()
            .find(|t| t.span.start == span.start)
            .is_some_and(|t| is_site_word(word(t)) && t.span.end < span.end);
        let ends = is_site_word(word(&toks[j])) && toks[j].span.start > span.start;
        let (site, end) = if opens || ends {
            (true, span.end)
        } else {
            match toks.get(j + 1) {
                Some(t) if !t.cap && is_site_word(word(t)) => (true, t.span.end),
                _ => (false, span.end),
            }
        };
        let resolved = |m: &&Mention| m.chosen.is_some() && !m.partial;
        let held = mentions
            .iter()
            .filter(resolved)
            .any(|m| m.container && m.span.end < span.start && span.start - m.span.end <= 4);
        let followed = text[end..].starts_with(", ")
            && mentions
                .iter()
                .filter(resolved)
                .any(|m| m.span.start == end + 2);
        site && (held || followed)
    }

    /// Capitalised runs that resolved to nothing but name a place: with a settlement
    /// word after them ("Tal Samin village"), or placed in a larger one.
    fn unknown_places(
        &self,
        text: &str,
        toks: &[Tok],
        mask: &Mask,
        mentions: &[Mention],
    ) -> Vec<Unknown> {
        let mut out = Vec::new();
        let mut i = 0;
        while i < toks.len() {
            if !toks[i].cap || mask.overlaps(toks[i].span) {
                i += 1;
                continue;
            }
            let mut j = i;
            while j + 1 < toks.len()
                && toks[j + 1].cap
                && &text[toks[j].span.end..toks[j + 1].span.start] == " "
            {
                j += 1;
            }
            let mut span = Span::new(toks[i].span.start, toks[j].span.end);
            // "Homs's Zzyx district": the unknown name is what the possessive holds.
            if let Some(held) = mentions
                .iter()
                .find(|m| m.container && m.chosen.is_some() && m.span.start == span.start)
                .and_then(|m| toks[i..=j].iter().find(|t| t.span.start > m.span.end))
            {
                span = Span::new(held.span.start, span.end);
            }
            let settlement = toks
                .get(j + 1)
                .is_some_and(|t| is_settlement_word(&text[t.span.start..t.span.end]));
            let covered = mentions
                .iter()
                .any(|m| m.chosen.is_some() && m.span.start < span.end && span.start < m.span.end);
            let next = mentions.partition_point(|m| m.span.start < span.start);
            let relative = self.placed_relative(text, toks, i, span, &mentions[next..]);
            let site = self.site_in_place(text, toks, j, span, mentions);
            if (settlement
                || relative
                || site
                || self.placed_before_larger(text, toks, i, span, mentions))
                && !covered
                && !is_stop(&text[span.start..span.end].to_lowercase())
                && demonym_country(&text[span.start..span.end].to_lowercase()).is_none()
                && j - i < 4
            {
                out.push(Unknown {
                    next,
                    span,
                    name: text[span.start..span.end].to_string(),
                    relative,
                    elsewhere: None,
                });
            }
            i = j + 1;
        }
        out
    }
}

#[cfg(test)]
mod token_props {
    use super::demonyms::DEMONYMS;
    use super::lexicon::STOP;
    use super::*;
    use crate::text::lowered;
    use proptest::prelude::*;
    use regex::Regex;

    /// Text mixing what tokens are made of with what separates them, past ASCII too:
    /// accented and Arabic letters, a combining mark, Arabic-Indic and full-width
    /// digits, curly quotes, a Kelvin sign, a title-case letter, an emoji.
    fn caption_like() -> impl Strategy<Value = String> {
        let pieces = prop::sample::select(vec![
            "a", "Z", "q", "0", "7", "'", "’", "‘", "`", "-", " ", ",", ".", "(", "/", "\n", "é",
            "Ö", "ß", "ق", "\u{301}", "٣", "７", "“", "\u{212A}", "ǅ", "İ", "😀", "Village",
            "TOWN", "camp", "al-", "Syrian", "FRENCH",
        ]);
        let ascii = prop::sample::select(vec![
            "a", "Z", "q", "0", "7", "'", "`", "-", " ", ",", ".", "(", "/", "\n", "Village",
            "TOWN", "camp", "al-", "Syrian",
        ]);
        prop_oneof![
            prop::collection::vec(pieces, 0..40).prop_map(|v| v.concat()),
            prop::collection::vec(ascii, 0..40).prop_map(|v| v.concat()),
        ]
    }

    proptest! {
        /// The hand-written scanner finds the tokens the regex it replaced found.
        #[test]
        fn tokens_are_the_regex_runs(text in caption_like()) {
            let re = Regex::new(r"[\p{L}\p{M}\d][\p{L}\p{M}\d'’‘`\-]*").unwrap();
            let want: Vec<(usize, usize, bool)> = re
                .find_iter(&text)
                .map(|m| (m.start(), m.end(), m.as_str().chars().next().is_some_and(char::is_uppercase)))
                .collect();
            let got: Vec<(usize, usize, bool)> = tokens(&text)
                .iter()
                .map(|t| (t.span.start, t.span.end, t.cap))
                .collect();
            prop_assert_eq!(got, want);
        }

        /// Lower-casing without a copy when there is nothing to change gives what
        /// `to_lowercase` gives, and the word tests answer as on a lower-cased copy.
        #[test]
        fn lowered_words_are_lowercase_words(text in caption_like()) {
            let lower_text = text.to_lowercase();
            let got = lowered(&text);
            prop_assert_eq!(got.as_ref(), lower_text.as_str());
            for w in text.split(' ') {
                let settlement = matches!(
                    w.to_lowercase().as_str(),
                    "village" | "town" | "hamlet" | "neighbourhood" | "neighborhood" | "district" | "camp"
                );
                prop_assert_eq!(is_settlement_word(w), settlement, "{:?}", w);
                let lower = w.to_lowercase();
                prop_assert_eq!(is_stop(&lower), STOP.contains(&lower.as_str()));
                prop_assert_eq!(
                    demonym_country(&lower),
                    DEMONYMS.iter().find(|(d, _)| *d == lower).map(|(_, c)| *c)
                );
            }
        }
    }
}
