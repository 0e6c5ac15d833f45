//! Candidate mentions: runs of capitalised words (or, in Arabic script, words after a
//! locative preposition), each looked up in the gazetteer, with the words around them
//! that say what role the place plays in the sentence.

use cairn_gazetteer::{Gazetteer, PlaceId, fold};
use cairn_model::{PlaceKind, Span};
use rustc_hash::FxHashMap;

use super::clause::{cue_start, words_before};
use super::lexicon::{
    PARTICLES, demonym_country, is_named_after_word, is_settlement_word, is_stop, kind_hint,
};
pub(super) use super::mention::Mention;
use super::role::Role;
use super::roles::role_of;
use super::runs::{MONTHS, RUN_PREPOSITIONS, WEEKDAYS, is_date_heading, is_facility_word};
use super::scan_words::{
    admin_kind, is_arabic, is_arabic_cue, is_copula, is_place_part, is_team_noun,
    opens_with_arabic_head, spelled_in_latin,
};
use super::sites::{is_describing, is_site_word};
use super::tokens::{Lower, Tok, strip_possessive};
use crate::text::Mask;

/// One caption's scan for mentions.
pub(super) struct Scan<'a> {
    pub(super) g: &'a Gazetteer,
    pub(super) text: &'a str,
    pub(super) toks: &'a [Tok],
    pub(super) lower: &'a Lower<'a>,
    pub(super) mask: &'a Mask,
    pub(super) context: &'a FxHashMap<&'a str, u32>,
}

impl Scan<'_> {
    fn lower_at(&self, i: usize) -> &str {
        self.lower.at(self.toks, i)
    }

    fn word(&self, i: usize) -> &str {
        &self.text[self.toks[i].span.start..self.toks[i].span.end]
    }

    /// Whether a run of place words may begin at token `i`.
    fn starts_run(&self, i: usize) -> bool {
        let t = self.toks[i];
        if self.mask.overlaps(t.span) {
            return false;
        }
        if t.cap {
            return true;
        }
        if !is_arabic(self.word(i))
            || is_arabic_cue(self.lower_at(i))
            || super::arabic::ends_name(self.lower_at(i))
            || demonym_country(self.lower_at(i)).is_some()
        {
            return false;
        }
        // Capitals say nothing in Arabic: a locative word, a comma after a place, or a
        // country's name opens a mention.
        // A well-known place with a preposition glued on (`لبيروت`, `بحلب`) opens one too.
        let cue = i > 0 && is_arabic_cue(self.lower_at(i - 1))
            // `العاصمة اليمنية صنعاء`: a demonym between the cue and the name.
            || i > 1
                && demonym_country(self.lower_at(i - 1)).is_some()
                && is_arabic_cue(self.lower_at(i - 2))
            || super::arabic::unglued_places(self.g, self.word(i)).is_some();
        let comma = i > 0 && {
            let gap = &self.text[self.toks[i - 1].span.end..t.span.start];
            gap.contains('،') || gap.contains(',')
        };
        cue || (comma || i == 0) && {
            self.g
                .exact(self.word(i))
                .iter()
                .any(|&c| matches!(self.g.entry(c).kind, PlaceKind::Country | PlaceKind::Admin1))
        }
    }

    /// The last token of the run that begins at `i`.
    fn run_end(&self, i: usize) -> usize {
        let toks = self.toks;
        let gap_ok = |a: usize, b: usize| {
            let gap = &self.text[toks[a].span.end..toks[b].span.start];
            gap == " " || gap.is_empty() || gap == "- "
        };
        let mut j = i;
        if !toks[i].cap {
            // Arabic: up to three more words, stopping at the next preposition.
            while j + 1 < toks.len()
                && j < i + 3
                && gap_ok(j, j + 1)
                && is_arabic(self.word(j + 1))
                && !is_arabic_cue(self.lower_at(j + 1))
                && !super::arabic::ends_name(self.lower_at(j + 1))
                && super::arabic::unglued_places(self.g, self.word(j + 1)).is_none()
                && demonym_country(self.lower_at(j + 1)).is_none()
            {
                j += 1;
            }
            return j;
        }
        let glued = |w: &str| {
            [
                "al-", "el-", "an-", "ad-", "as-", "ash-", "ar-", "at-", "az-",
            ]
            .iter()
            .any(|p| w.starts_with(p) && w.len() > p.len())
        };
        while j + 1 < toks.len() && gap_ok(j, j + 1) && !self.mask.overlaps(toks[j + 1].span) {
            let w = self.lower_at(j + 1);
            // "in Sanaa July 5", "Ukraine Monday": a date ends the name; so does a
            // Turkish case suffix (`Avrupa Yakası'nda Eyüpsultan`).
            if self.is_date_word(j + 1) || super::turkish::has_case_suffix(self.word(j)) {
                break;
            }
            if toks[j + 1].cap || glued(w) {
                j += 1;
            } else if PARTICLES.contains(&w)
                && j + 2 < toks.len()
                && gap_ok(j + 1, j + 2)
                && toks[j + 2].cap
                && !self.mask.overlaps(toks[j + 2].span)
            {
                j += 2;
            } else {
                break;
            }
        }
        j
    }

    /// Whether token `t` is a weekday, or a month name before a day's number.
    fn is_date_word(&self, t: usize) -> bool {
        let w = self.lower_at(t);
        let day_after = self.toks.get(t + 1).is_some_and(|n| {
            self.text[n.span.start..n.span.end]
                .chars()
                .all(|c| c.is_ascii_digit())
        });
        WEEKDAYS.contains(&w) || (day_after && MONTHS.contains(&w))
    }

    /// Every mention of the caption, in text order.
    pub(super) fn mentions(&self) -> Vec<Mention> {
        let mut out = Vec::new();
        let mut i = 0;
        while i < self.toks.len() {
            if !self.starts_run(i) {
                i += 1;
                continue;
            }
            let j = self.run_end(i);
            // "In Qayyara, south of Mosul": a capitalised preposition opens the run but
            // is no part of the name.
            let first = if j > i
                && (RUN_PREPOSITIONS.contains(&self.lower_at(i))
                    || super::desks::opens_run(self.g, self.lower_at(i)))
            {
                i + 1
            } else {
                i
            };
            self.run(first, j, &mut out);
            i = j + 1;
        }
        out
    }

    /// The mentions of the run `i..=j`: sub-runs, longest first, left to right.
    fn run(&self, i: usize, j: usize, out: &mut Vec<Mention>) {
        let first = out.len();
        // "Galway Racecourse", "Kabul Hamid Karzai International Airport": the facility
        // word is no part of a place's name, and the run's first place is where it stands.
        let facility = j > i && self.toks[j].cap && is_facility_word(self.word(j));
        let j = if facility { j - 1 } else { j };
        // A run followed by a settlement word ("Qaryat Zzyx village") names one place: a
        // match on part of it would be a different place.
        let settlement_after = self
            .toks
            .get(j + 1)
            .is_some_and(|t| is_settlement_word(&self.text[t.span.start..t.span.end]));
        let arabic = !self.toks[i].cap;
        let mut covered = vec![false; j + 1 - i];
        let mut k = i;
        // Where the name being read begins: after a possessive that holds it
        // ("Homs's Khalidiya district"), the rest of the run is a name of its own.
        let mut start = i;
        while k <= j {
            // Place names are short: try sub-runs of at most six words.
            let found = (k..=j.min(k + 5)).rev().find_map(|end| {
                self.mention_at(start, j, k, end, settlement_after)
                    .map(|m| (end, m))
            });
            match found {
                Some((end, m)) => {
                    covered[k - i..=end - i].fill(true);
                    if m.container {
                        start = end + 1;
                    }
                    out.push(m);
                    k = end + 1;
                }
                None if arabic => break,
                None => k += 1,
            }
        }
        if arabic || out.len() == first {
            return;
        }
        if self.small_places_side_by_side(&out[first..]) {
            out[first..].iter_mut().for_each(as_a_name);
            return;
        }
        // Other capitalised words in the run that are no place, particle or common word
        // make it a person's or an institution's name.
        // A name in capitals after a name in title case is a credit's or a heading's,
        // not part of it ("in Kabul BULENT KILIC/AFP").
        let shouting = |t: usize| {
            let w = self.word(t);
            w.chars().filter(|c| c.is_alphabetic()).count() > 1
                && !w.chars().any(char::is_lowercase)
        };
        let title_case = out[first..]
            .iter()
            .any(|m| m.text.chars().any(char::is_lowercase));
        // What a possessive holds before a settlement word is a place the gazetteer
        // lacks ("Homs's Qaryat Zzyx district"), not a person's name.
        // So is a site a possessive holds ("Cairo's Zzyx Square").
        let word_at = |t: usize| {
            self.toks
                .get(t)
                .map(|t| &self.text[t.span.start..t.span.end])
        };
        let site_held = is_site_word(self.word(j))
            || word_at(j + 1).is_some_and(is_site_word)
            || word_at(j + 1).is_some_and(is_describing)
                && word_at(j + 2).is_some_and(|w| is_site_word(w) || is_settlement_word(w));
        let last = if (settlement_after || site_held) && start > i {
            start - 1
        } else {
            j
        };
        let stray = (i..=last).any(|t| {
            !(covered[t - i] || title_case && shouting(t)) && {
                let w = self.lower_at(t);
                let (w, _) = strip_possessive(w);
                !is_stop(w)
                    && !PARTICLES.contains(&w)
                    && demonym_country(w).is_none()
                    && kind_hint(w).is_none()
                    && admin_kind(w).is_none()
                    && !is_settlement_word(w)
                    && w.len() > 1
                    && !w.chars().all(|c| c.is_ascii_digit())
            }
        });
        // `l'hôpital Nasser de Khan Younès`: the run names a site and the place it is in.
        let site =
            || super::intl::site_of_place(self.text, self.toks, self.lower, (i, j), &out[first..]);
        if let Some((role, noun, de)) = stray.then(site).flatten() {
            for m in &mut out[first..] {
                if m.span.start > de {
                    (m.role, m.cue_start) = (role, noun);
                } else {
                    (m.partial, m.role) = (true, Role::Name);
                }
            }
            return;
        }
        if stray {
            // Only a place's own name opens a facility's (`Hamid` is an old name of a
            // Turkish town, not where Hamid Karzai International Airport stands).
            let at_facility = facility.then_some(self.toks[i].span.start);
            for m in &mut out[first..] {
                let own_name = |m: &Mention| {
                    m.candidates[..m.fuzzy_from]
                        .iter()
                        .any(|&c| self.g.entry(c).folded == m.folded)
                };
                if Some(m.span.start) == at_facility && own_name(m) {
                    m.hint = m.hint.or(Some(PlaceKind::Point));
                    continue;
                }
                m.partial = true;
                m.role = Role::Name;
            }
        }
    }

    /// "George Floyd": two names side by side in one run with nothing between them, the
    /// first no country or province, the second only a small place (no country,
    /// province or city of its own name), neither in a country the caption names, are a
    /// person's first and last names, not two places.
    fn small_places_side_by_side(&self, run: &[Mention]) -> bool {
        let any = |m: &Mention, f: &dyn Fn(&cairn_gazetteer::Entry) -> bool| {
            m.candidates[..m.fuzzy_from]
                .iter()
                .any(|&c| f(self.g.entry(c)))
        };
        let unit = |e: &cairn_gazetteer::Entry| {
            matches!(
                e.kind,
                PlaceKind::Country | PlaceKind::Admin1 | PlaceKind::Region
            ) || self.context.contains_key(e.country.as_str())
        };
        let small = |m: &Mention| {
            !any(m, &|e| {
                unit(e) || (e.population >= 100_000 && e.folded == m.folded)
            })
        };
        run.windows(2).any(|w| {
            self.text[w[0].span.end..w[1].span.start] == *" "
                && !w[0].container
                && !any(&w[0], &unit)
                && small(&w[1])
        })
    }

    /// The mention of tokens `k..=end` within the run `i..=j`, if they name a place.
    fn mention_at(
        &self,
        i: usize,
        j: usize,
        k: usize,
        end: usize,
        settlement_after: bool,
    ) -> Option<Mention> {
        let toks = self.toks;
        // A name begins with a capital (or a glued article, or in Arabic anywhere).
        if !toks[k].cap && !self.lower_at(k).contains('-') && !is_arabic(self.word(k)) {
            return None;
        }
        if !toks[end].cap && !self.lower_at(end).contains('-') && !is_arabic(self.word(end)) {
            return None;
        }
        let (start_byte, unit) = self.start_with_direction(k, end);
        let raw = &self.text[start_byte..toks[end].span.end];
        let (name, possessive) = strip_possessive(raw);
        // "Syria's President": an actor; "Homs's Khalidiya": the place holding the next.
        let container = possessive
            && end < j
            && toks[end + 1].cap
            && self.text[toks[end].span.end..toks[end + 1].span.start] == *" ";
        // "Kabul's old city", "Khartoum's airport": a part of the place, so the place.
        let part = possessive
            && !container
            && toks
                .get(end + 1)
                .is_some_and(|t| !t.cap && is_place_part(&self.text[t.span.start..t.span.end]));
        if possessive && !container && !part {
            return None;
        }
        let folded = unit.unwrap_or_else(|| fold(name));
        if folded.is_empty() || (end == k && start_byte == toks[k].span.start && is_stop(&folded)) {
            return None;
        }
        if end == k && super::arabic::is_bare_head(name, end < j) {
            return None;
        }
        if end == k && super::intl::heads_a_building(name, &self.text[toks[end].span.end..]) {
            return None;
        }
        if folded.split(' ').all(|w| {
            is_stop(w)
                || w.chars().count() < 2
                || demonym_country(w).is_some()
                || kind_hint(w).is_some()
                || admin_kind(w).is_some()
                || is_settlement_word(w)
        }) {
            // "Region", "Province": a kind of place, not its name.
            return None;
        }
        // "Stadt Sudscha": German kind nouns open the run; the name is the rest of it.
        let whole_run = end == j
            && (k == i || (i..k).all(|t| super::kind_phrase::is_german_kind(self.lower_at(t))));
        let kind_named = || super::intl::after_romance_kind(self.text, toks[i].span.start);
        if !whole_run && !container && (settlement_after || kind_named()) {
            return None;
        }
        // "Nasser Hospital", "Damascus Street", "the Smith Family": named after the place
        // or the person, not the place itself ("a Baghdad street" is in Baghdad).
        if !possessive
            && toks
                .get(end + 1)
                .is_some_and(|t| is_named_after_word(&self.text[t.span.start..t.span.end]))
        {
            return None;
        }
        let (mut candidates, mut fuzzy_from, same_sounding) = self.lookup(&folded, whole_run);
        let mut folded = folded;
        if fuzzy_from == 0 {
            let found = super::intl::inflected(self.g, name, &folded)
                .map(|(f, c)| (f, c.to_vec()))
                .or_else(|| {
                    let after = &self.text[toks[end].span.end..];
                    super::desks::inflected(self.g, name, after)
                });
            if let Some((f, c)) = found {
                fuzzy_from = c.len();
                (folded, candidates) = (f, c);
            }
        }
        self.read_unit_kind(end, &mut candidates, &mut fuzzy_from);
        if k == i && super::arabic::only_well_known(self.text, toks[k].span.start, end < j) {
            super::arabic::keep_well_known(self.g, &mut candidates, &mut fuzzy_from);
        }
        let span = Span::new(start_byte, start_byte + name.len());
        if candidates.is_empty() {
            if same_sounding.is_empty() {
                return None;
            }
            // "Brzegi" beside `Brzeg`, "Tora Bora" beside `Tora`: a name the gazetteer
            // lacks, held as one mention that names no place, so that no part of it is
            // read as one and a place the gazetteer lacks is looked for there.
            let m = self.surroundings(span, name, folded, same_sounding, 0, container);
            return (!m.candidates.is_empty()).then_some(Mention { partial: true, ..m });
        }
        Some(self.surroundings(span, name, folded, candidates, fuzzy_from, container))
    }

    /// "eastern Ghouta": a direction word before the run taken into the name when the
    /// gazetteer knows the name with it. "northern Kivu": the unit the gazetteer calls
    /// `North Kivu`, when there is one; its folded name comes with the start.
    fn start_with_direction(&self, k: usize, end: usize) -> (usize, Option<String>) {
        let toks = self.toks;
        let intl = super::intl::start_with_kind_noun;
        if let Some(start) = intl(self.g, self.text, toks, self.lower, k, end) {
            return (start, None);
        }
        if k > 0 {
            let prev = self.lower_at(k - 1);
            if [
                "eastern", "western", "northern", "southern", "east", "west", "old",
            ]
            .contains(&prev)
                && self.text[toks[k - 1].span.end..toks[k].span.start] == *" "
            {
                let with = &self.text[toks[k - 1].span.start..toks[end].span.end];
                if !self.g.exact(with).is_empty() {
                    return (toks[k - 1].span.start, None);
                }
                // A capitalised adjective may be a word of the run read before this
                // sub-run: taken in again, the mentions would overlap.
                let unit = (!toks[k - 1].cap)
                    .then(|| self.direction_unit(prev, k, end))
                    .flatten();
                if let Some(unit) = unit {
                    return (toks[k - 1].span.start, Some(unit));
                }
            }
        }
        (toks[k].span.start, None)
    }

    /// The folded name of a unit that bears the compass point of `adjective` and the
    /// name of tokens `k..=end` (`northern Kivu` → `north kivu`), if the gazetteer has
    /// one: a province, district or region, never a town called so.
    fn direction_unit(&self, adjective: &str, k: usize, end: usize) -> Option<String> {
        let point = adjective.strip_suffix("ern")?;
        let name = fold(&self.text[self.toks[k].span.start..self.toks[end].span.end]);
        // "northern Gaza Strip": the unit may be named without the whole's kind word
        // (`North Gaza`).
        let shorter = (end > k)
            .then(|| fold(&self.text[self.toks[k].span.start..self.toks[end - 1].span.end]));
        [Some(name), shorter]
            .into_iter()
            .flatten()
            .find_map(|name| {
                let folded = format!("{point} {name}");
                self.g
                    .exact_folded(&folded)
                    .iter()
                    .any(|&c| {
                        matches!(
                            self.g.entry(c).kind,
                            PlaceKind::Admin1 | PlaceKind::Admin2 | PlaceKind::Region
                        )
                    })
                    .then_some(folded)
            })
    }

    /// Whether the word after token `end` names an administrative unit's kind
    /// (`Magwe Division`, `Kherson Oblast`, `Bong County`), and whether it is one of
    /// [`admin_kind`]'s, which never end a town's name.
    fn unit_word_after(&self, end: usize) -> Option<bool> {
        let t = self.toks.get(end + 1)?;
        let w = &self.text[t.span.start..t.span.end];
        if admin_kind(w).is_some() {
            Some(true)
        } else {
            (kind_hint(w) == Some(PlaceKind::Admin1)).then_some(false)
        }
    }

    /// A kind word after token `end` (`Magwe Division`, `Bong County`): the province a
    /// town's name also names joins the candidates, and after the kind words of
    /// [`admin_kind`] only units remain (`Bong County` where the gazetteer lacks the
    /// county is not a town so called elsewhere).
    fn read_unit_kind(&self, end: usize, candidates: &mut Vec<PlaceId>, fuzzy_from: &mut usize) {
        if let Some(own) = self.unit_word_after(end) {
            self.add_units_named_as_towns(candidates, fuzzy_from);
            if own {
                self.keep_units(candidates, fuzzy_from);
            }
        }
    }

    /// Keeps only the administrative units and regions among the candidates.
    fn keep_units(&self, candidates: &mut Vec<PlaceId>, fuzzy_from: &mut usize) {
        let unit = |c: &PlaceId| {
            matches!(
                self.g.entry(*c).kind,
                PlaceKind::Admin1 | PlaceKind::Admin2 | PlaceKind::Region
            )
        };
        *fuzzy_from = candidates[..*fuzzy_from].iter().filter(|c| unit(c)).count();
        candidates.retain(unit);
    }

    /// "Magwe Division": a name the gazetteer knows only as a town's (an alternate
    /// spelling of `Magway`) also names the province of that town that bears the same
    /// name. Added as exact matches, after those already found.
    fn add_units_named_as_towns(&self, candidates: &mut Vec<PlaceId>, fuzzy_from: &mut usize) {
        let units: Vec<PlaceId> = candidates[..*fuzzy_from]
            .iter()
            .filter(|&&c| self.g.entry(c).kind == PlaceKind::Town)
            .filter_map(|&c| {
                let a = self.g.admin1_of(c)?;
                (self.g.entry(a).folded == self.g.entry(c).folded).then_some(a)
            })
            .collect();
        for a in units {
            if !candidates.contains(&a) {
                candidates.insert(*fuzzy_from, a);
                *fuzzy_from += 1;
            }
        }
    }

    /// Exact matches; else, for a whole run, transliteration matches. When no exact
    /// match lies in a country the caption names, transliteration matches that do are
    /// added after them (`Jenin` in a caption about the West Bank is `Janīn`).
    /// Also gives the same-sounding places of Latin-script countries left out (see
    /// [`spelled_in_latin`]).
    fn lookup(&self, folded: &str, whole_run: bool) -> (Vec<PlaceId>, usize, Vec<PlaceId>) {
        let exact = self.g.exact_folded(folded);
        if folded.len() < 4 || !whole_run {
            return (exact.to_vec(), exact.len(), Vec::new());
        }
        let in_context = |c: &PlaceId| self.context.contains_key(self.g.entry(*c).country.as_str());
        // A city or a region bearing the name as its own is meant, wherever it is.
        let known = |c: &PlaceId| {
            let e = self.g.entry(*c);
            e.folded == folded
                && (e.population >= 100_000
                    || matches!(e.kind, PlaceKind::Admin1 | PlaceKind::Region))
        };
        if !exact.is_empty()
            && (self.context.is_empty() || exact.iter().any(in_context) || exact.iter().any(known))
        {
            return (exact.to_vec(), exact.len(), Vec::new());
        }
        let mut v = exact.to_vec();
        let n = v.len();
        if n == 0 && self.opens_with_country(folded) {
            // "China Young children": a country's name and other words, not a
            // misspelt place.
            return (v, n, Vec::new());
        }
        // A name written in Latin letters is no transliteration of a place whose own
        // name is in Latin letters too: `Brzegi` is not a variant of `Brzeg`.
        let latin = folded.is_ascii();
        // "Gangwon Province" is no misspelling of `Gnagna`: a name that ends with a kind
        // word is another spelling of a place whose own name, without such a word, sounds
        // one letter from it without it (`Maiwand District`, `Maywand`); else the name
        // is read without the kind word.
        let bare = without_kind_word(folded);
        let kinded = folded != bare;
        let (fuzzy, same_sounding): (Vec<PlaceId>, Vec<PlaceId>) = self
            .g
            .fuzzy_folded(folded)
            .iter()
            .filter(|&&c| {
                !kinded || within_one_edit(without_kind_word(&self.g.entry(c).folded), bare)
            })
            .partition(|&&c| !(latin && spelled_in_latin(self.g.country_code(c))));
        if n == 0 {
            // "the town of Tel Tamr" is `Tall Tamr`: a name of several words opened by
            // an Arabic word for a hill, a monastery, a village or a spring, whose one
            // transliteration match is that place, counts as matched exactly (still
            // read in the caption's country when it names one).
            if fuzzy.len() == 1 && opens_with_arabic_head(folded) {
                return (fuzzy, 1, same_sounding);
            }
            v.extend(fuzzy);
        } else {
            v.extend(
                fuzzy
                    .into_iter()
                    .filter(|c| in_context(c) && !exact.contains(c)),
            );
        }
        (v, n, same_sounding)
    }

    /// Whether a run of several words begins with a country's own name.
    fn opens_with_country(&self, folded: &str) -> bool {
        folded.split_once(' ').is_some_and(|(first, _)| {
            self.g.exact_folded(first).iter().any(|&c| {
                let e = self.g.entry(c);
                e.kind == PlaceKind::Country && e.folded == first
            })
        })
    }

    /// Whether a mention stands where a dateline does: nothing but a date or numbers
    /// before it, a bracket, dash, bar or colon after (`Kiev (Ukraine), 29 décembre |`).
    fn opens_as_dateline(&self, before: &str, span: Span) -> bool {
        let after = &self.text[span.end..];
        is_date_heading(before)
            || !before.chars().any(char::is_alphabetic)
                && ([" (", " -", " –", " —", ":", " |", "("]
                    .iter()
                    .any(|p| after.starts_with(p))
                    // `Бахмут. Фото: …`: a name that is the whole first sentence.
                    || after == "."
                    || after.starts_with(". "))
    }

    /// The mention at `span` with the words around it: its cue, role and kind hint.
    fn surroundings(
        &self,
        span: Span,
        name: &str,
        folded: String,
        candidates: Vec<PlaceId>,
        fuzzy_from: usize,
        container: bool,
    ) -> Mention {
        // A name in quotation marks (`بلدة «دوما»`) is read after its opening mark.
        let before = self.text[..span.start].trim_end_matches(['«', '"', '“', '„']);
        let (clause_start, words) = words_before(before);
        let word_refs: Vec<&str> = words.iter().map(|w| &**w).collect();
        let after = &self.text[span.end..];
        let role =
            super::desks::adjusted_role(role_of(&word_refs), &word_refs, name, after, self.text);
        let cue = word_refs.first().is_some_and(|w| {
            super::lexicon::CUES.contains(w) || is_arabic_cue(w) || super::desks::is_cue(w)
        }) || word_refs
            .get(1)
            .is_some_and(|w| matches!(*w, "of" | "in" | "capital" | "de" | "von"))
            || before.trim_end().ends_with([',', '،'])
            || self.opens_as_dateline(before, span)
            || super::intl::is_closing_dateline(self.text, span)
            || role > Role::Bare;
        // "Jenin has been ...": a town that opens its sentence as the subject of a verb
        // of being is where the sentence is.
        let subject = word_refs.is_empty()
            && is_copula(next_word_of(self.text, span))
            && !candidates[..fuzzy_from].iter().any(|&c| {
                let e = self.g.entry(c);
                e.kind == PlaceKind::Country && e.folded == folded
            })
            // A person is named so too ("Scott is comforted", "Tori was"): only a city
            // by its own name, or a town in a country the caption names.
            && candidates.iter().any(|&c| {
                let e = self.g.entry(c);
                e.kind != PlaceKind::Country
                    && (e.population >= 100_000 && e.folded == folded
                        || self.context.contains_key(e.country.as_str()))
            });
        let next_word = self.text[span.end..]
            .split_whitespace()
            .next()
            .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()))
            .unwrap_or_default();
        let role = if subject {
            Role::In
        } else if role <= Role::Bare && is_team_noun(next_word) {
            // "Senegal fans", "Morocco players": a side, not where they are.
            Role::Team
        } else {
            role
        };
        let cue = cue || subject;
        let cue_start = cue_start(before, clause_start, &word_refs, role).unwrap_or(span.start);
        let hint = kind_hint(next_word)
            .or_else(|| admin_kind(next_word))
            .or_else(|| {
                word_refs
                    .get(1)
                    .filter(|_| word_refs.first().is_some_and(|w| *w == "of"))
                    .and_then(|w| kind_hint(w))
            })
            .or_else(|| super::intl::hint_before(&word_refs))
            .or_else(|| super::turkish::kind_hint(next_word))
            .or_else(|| is_facility_word(next_word).then_some(PlaceKind::Point));
        Mention {
            span,
            text: name.to_string(),
            candidates,
            fuzzy_from,
            folded,
            cue,
            hint,
            role,
            cue_start,
            partial: false,
            container,
            within: None,
            followed_by: None,
            relative: false,
            bearing: None,
            chosen: None,
        }
    }
}

/// Marks a mention as part of a name that is no place (a person's, an institution's).
fn as_a_name(m: &mut Mention) {
    m.partial = true;
    m.role = Role::Name;
}

/// The first word after `span`, without punctuation.
fn next_word_of(text: &str, span: Span) -> &str {
    text[span.end..]
        .split_whitespace()
        .next()
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()))
        .unwrap_or_default()
}

/// A name of several words without its last when that is a word for a kind of place
/// (`province`, `district`, `village`).
fn without_kind_word(folded: &str) -> &str {
    match folded.rsplit_once(' ') {
        Some((head, last))
            if kind_hint(last).is_some()
                || admin_kind(last).is_some()
                || is_settlement_word(last) =>
        {
            head
        }
        _ => folded,
    }
}

/// Whether two names are the same but for at most one letter left out, added or changed.
pub(super) fn within_one_edit(a: &str, b: &str) -> bool {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let pre = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let suf = a[pre..]
        .iter()
        .rev()
        .zip(b[pre..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    a.len() - pre - suf <= 1 && b.len() - pre - suf <= 1
}
