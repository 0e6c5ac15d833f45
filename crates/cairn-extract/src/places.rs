//! Places: candidate mentions (runs of capitalised words), resolution against the
//! gazetteer with the caption's own context, and the choice of the scene's location.

use std::borrow::Cow;
use std::sync::LazyLock;

use cairn_gazetteer::{Gazetteer, PlaceId, fold};
use cairn_model::{Place, PlaceKind, Span};
use regex::Regex;
use rustc_hash::{FxHashMap, FxHashSet};

use crate::text::{Mask, lowered};

/// A letter, mark or decimal digit: what begins a token (a run of these, apostrophes and
/// hyphens). Asked only of characters past ASCII ([`tokens`] decides those itself).
static WORD_CHAR: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^[\p{L}\p{M}\d]$").unwrap());

/// Lower-case words that may stand inside a place name.
const PARTICLES: &[&str] = &[
    "al", "el", "an", "ad", "as", "ash", "ar", "at", "az", "al-", "el-", "an-", "ad-", "as-",
    "ash-", "ar-", "at-", "az-", "bin", "ibn", "de", "del", "la", "le", "du", "da", "di", "of",
    "sur", "en",
];

/// Words before a mention that say "a place follows".
const CUES: &[&str] = &[
    "in",
    "of",
    "near",
    "at",
    "outside",
    "from",
    "to",
    "into",
    "across",
    "around",
    "toward",
    "towards",
    "between",
    "inside",
    "through",
    "on",
    "over",
    "within",
    "via",
    "capital",
    "and",
    "past",
    "beyond",
    "north",
    "south",
    "east",
    "west",
    "northeast",
    "northwest",
    "southeast",
    "southwest",
    "northern",
    "southern",
    "eastern",
    "western",
    "central",
];

/// Words after a run of capitals that make it a settlement's name ("Tal Samin village").
fn is_settlement_word(word: &str) -> bool {
    // As `word.to_lowercase()` would compare, without making it: the only non-ASCII
    // letter that lower-cases to an ASCII one is the Kelvin sign, and none of these words
    // has a k.
    [
        "village",
        "town",
        "hamlet",
        "neighbourhood",
        "neighborhood",
        "district",
        "camp",
    ]
    .iter()
    .any(|w| word.eq_ignore_ascii_case(w))
}

/// Words after a mention that say what kind of place it is.
fn kind_hint(word: &str) -> Option<PlaceKind> {
    Some(match &*lowered(word) {
        "province" | "governorate" | "countryside" | "state" | "region" | "provinces" => {
            PlaceKind::Admin1
        }
        "city" | "town" | "village" | "suburbs" | "suburb" | "camp" | "outskirts" => {
            PlaceKind::Town
        }
        "neighbourhood" | "neighborhood" | "district" | "quarter" => PlaceKind::Neighbourhood,
        "square" | "street" | "road" | "mosque" | "hospital" | "bridge" => PlaceKind::Point,
        _ => return None,
    })
}

/// Capitalised words that are not place names however many villages bear them.
const STOP: &[&str] = &[
    "a",
    "an",
    "the",
    "this",
    "that",
    "these",
    "those",
    "in",
    "on",
    "at",
    "of",
    "he",
    "she",
    "it",
    "they",
    "we",
    "his",
    "her",
    "their",
    "its",
    "photo",
    "picture",
    "image",
    "file",
    "members",
    "member",
    "people",
    "man",
    "woman",
    "men",
    "women",
    "boy",
    "girl",
    "children",
    "child",
    "police",
    "army",
    "forces",
    "president",
    "minister",
    "prime",
    "king",
    "queen",
    "pope",
    "general",
    "officer",
    "soldier",
    "soldiers",
    "rebel",
    "rebels",
    "fighter",
    "fighters",
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
    "islamic",
    "muslim",
    "muslims",
    "christian",
    "christians",
    "jewish",
    "government",
    "state",
    "opposition",
    "regime",
    "democratic",
    "free",
    "national",
    "new",
    "old",
    "north",
    "south",
    "east",
    "west",
    "central",
    "day",
    "night",
    "world",
    "war",
    "street",
    "square",
    "road",
    "city",
    "town",
    "village",
    "province",
    "district",
    "area",
    "camp",
    "river",
    "mount",
    "lake",
    "sea",
    "gulf",
    "bay",
    "island",
    "islands",
    "valley",
    "red",
    "white",
    "black",
    "green",
    "blue",
    "house",
    "church",
    "mosque",
    "school",
    "hospital",
    "university",
    "market",
    "eid",
    "ramadan",
    "christmas",
    "easter",
    "olympic",
    "olympics",
    "games",
    "marathon",
    "love",
    "after",
    "before",
    "during",
    "while",
    "as",
    "when",
    "where",
    "there",
    "here",
    "some",
    "many",
    "more",
    "most",
    "other",
    "others",
    "one",
    "two",
    "three",
    "security",
    "civil",
    "defence",
    "defense",
    "health",
    "ministry",
    "council",
    "court",
    "party",
    "movement",
    "front",
    "brigade",
    "union",
    "nations",
    "united",
    "international",
    "human",
    "rights",
    "observatory",
    "helmets",
    "doctors",
    "mr",
    "mrs",
    "ms",
    "dr",
    "st",
    "sgt",
    "lt",
    "capt",
    "col",
    "gen",
    "republic",
    "kingdom",
    "federal",
    "sheikh",
    "imam",
    "saint",
    "santa",
    "san",
    "god",
    "allah",
    "jesus",
    "sham",
    "liberty",
    "victory",
    "independence",
    "freedom",
    "hope",
    "peace",
    "justice",
];

/// Demonyms whose country gives context to place names.
const DEMONYMS: &[(&str, &str)] = &[
    ("syrian", "SY"),
    ("syrians", "SY"),
    ("iraqi", "IQ"),
    ("iraqis", "IQ"),
    ("lebanese", "LB"),
    ("palestinian", "PS"),
    ("palestinians", "PS"),
    ("israeli", "IL"),
    ("israelis", "IL"),
    ("yemeni", "YE"),
    ("libyan", "LY"),
    ("sudanese", "SD"),
    ("afghan", "AF"),
    ("ukrainian", "UA"),
    ("ukrainians", "UA"),
    ("turkish", "TR"),
    ("iranian", "IR"),
    ("egyptian", "EG"),
    ("jordanian", "JO"),
    ("somali", "SO"),
    ("malian", "ML"),
    ("nigerian", "NG"),
    ("pakistani", "PK"),
    ("indian", "IN"),
    ("bangladeshi", "BD"),
    ("mexican", "MX"),
    ("haitian", "HT"),
    ("venezuelan", "VE"),
    ("colombian", "CO"),
    ("brazilian", "BR"),
    ("american", "US"),
    ("russian", "RU"),
    ("chinese", "CN"),
    ("french", "FR"),
    ("british", "GB"),
    ("german", "DE"),
];

/// [`STOP`] as a set: every run of capitals tried as a name has its words looked up.
static STOP_SET: LazyLock<FxHashSet<&'static str>> =
    LazyLock::new(|| STOP.iter().copied().collect());

fn is_stop(word: &str) -> bool {
    STOP_SET.contains(word)
}

/// [`DEMONYMS`] by demonym: every token of a caption is looked up.
static DEMONYM_COUNTRY: LazyLock<FxHashMap<&'static str, &'static str>> =
    LazyLock::new(|| DEMONYMS.iter().copied().collect());

fn demonym_country(word: &str) -> Option<&'static str> {
    DEMONYM_COUNTRY.get(word).copied()
}

/// The tokens of a text in lower case.
enum Lower<'t> {
    /// ASCII text lowered whole: a token's lower case is at its own span.
    Ascii(String),
    /// Each token lowered on its own (lowering other text can change lengths).
    Tokens(Vec<Cow<'t, str>>),
}

impl<'t> Lower<'t> {
    fn new(text: &'t str, toks: &[Tok]) -> Self {
        if text.is_ascii() {
            Lower::Ascii(text.to_ascii_lowercase())
        } else {
            Lower::Tokens(
                toks.iter()
                    .map(|t| lowered(&text[t.span.start..t.span.end]))
                    .collect(),
            )
        }
    }

    fn at<'a>(&'a self, toks: &[Tok], i: usize) -> &'a str {
        match self {
            Lower::Ascii(s) => &s[toks[i].span.start..toks[i].span.end],
            Lower::Tokens(v) => &v[i],
        }
    }
}

#[derive(Debug, Clone, Copy)]
struct Tok {
    span: Span,
    cap: bool,
}

/// A mention: a stretch of text that names (or seems to name) a place.
#[derive(Debug, Clone)]
struct Mention {
    span: Span,
    text: String,
    candidates: Vec<PlaceId>,
    folded: String,
    exact: bool,
    cue: bool,
    hint: Option<PlaceKind>,
    /// `X, Country`: the country that follows.
    followed_by: Option<PlaceId>,
    chosen: Option<PlaceId>,
}

/// The tokens of `text`: each maximal run that begins with a letter, mark or digit and
/// goes on with those, apostrophes (`'’‘` and the backtick) and hyphens.
fn tokens(text: &str) -> Vec<Tok> {
    if text.is_ascii() {
        return ascii_tokens(text.as_bytes());
    }
    let word = |c: char| {
        if c.is_ascii() {
            c.is_ascii_alphanumeric()
        } else {
            WORD_CHAR.is_match(c.encode_utf8(&mut [0; 4]))
        }
    };
    let inner = |c: char| word(c) || matches!(c, '\'' | '’' | '‘' | '`' | '-');
    // About one token in five or six bytes of caption text: room for them at once.
    let mut out = Vec::with_capacity(text.len() / 4 + 1);
    let mut chars = text.char_indices().peekable();
    while let Some((start, c)) = chars.next() {
        if !word(c) {
            continue;
        }
        let mut end = start + c.len_utf8();
        while let Some(&(at, d)) = chars.peek() {
            if !inner(d) {
                break;
            }
            end = at + d.len_utf8();
            chars.next();
        }
        out.push(Tok {
            span: Span::new(start, end),
            cap: c.is_uppercase(),
        });
    }
    out
}

/// [`tokens`] of ASCII text: letters and digits begin a token, which goes on with them,
/// `'`, the backtick and `-`.
fn ascii_tokens(text: &[u8]) -> Vec<Tok> {
    let inner = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'\'' | b'`' | b'-');
    let mut out = Vec::with_capacity(text.len() / 4 + 1);
    let mut i = 0;
    while i < text.len() {
        if !text[i].is_ascii_alphanumeric() {
            i += 1;
            continue;
        }
        let start = i;
        i += 1;
        while i < text.len() && inner(text[i]) {
            i += 1;
        }
        out.push(Tok {
            span: Span::new(start, i),
            cap: text[start].is_ascii_uppercase(),
        });
    }
    out
}

fn strip_possessive(s: &str) -> (&str, bool) {
    for suf in ["'s", "’s", "s'", "s’"] {
        if let Some(x) = s.strip_suffix(suf) {
            return (
                if suf.starts_with('s') {
                    &s[..x.len() + 1]
                } else {
                    x
                },
                true,
            );
        }
    }
    (s, false)
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
    pub warnings: Vec<String>,
}

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
        let toks = tokens(text);
        // Each token in lower case, made once: the loops below read them several times.
        let lower = Lower::new(text, &toks);
        let lower_at = |i: usize| -> &str { lower.at(&toks, i) };
        // Context: countries named, and demonyms.
        let mut context: FxHashMap<&str, u32> = FxHashMap::default();
        for (i, t) in toks.iter().enumerate() {
            if let Some(cc) = demonym_country(lower_at(i)) {
                *context.entry(cc).or_default() += 60;
            }
            if t.cap && !mask.overlaps(t.span) {
                let (word, _) = strip_possessive(&text[t.span.start..t.span.end]);
                let folded = fold(word);
                for &id in self.g.exact_folded(&folded) {
                    let e = self.g.entry(id);
                    // `e.folded` is the fold of the entry's preferred name.
                    if e.kind == PlaceKind::Country && e.folded == folded {
                        *context.entry(&e.country).or_default() += 100;
                    }
                }
            }
        }

        // Runs of capitalised tokens (with particles inside), as candidate mentions.
        let mut mentions: Vec<Mention> = Vec::new();
        let mut i = 0;
        while i < toks.len() {
            if !toks[i].cap || mask.overlaps(toks[i].span) {
                i += 1;
                continue;
            }
            let mut j = i;
            let gap_ok = |a: usize, b: usize| {
                let gap = &text[toks[a].span.end..toks[b].span.start];
                gap == " " || gap.is_empty() || gap == "- "
            };
            let glued = |w: &str| {
                [
                    "al-", "el-", "an-", "ad-", "as-", "ash-", "ar-", "at-", "az-",
                ]
                .iter()
                .any(|p| w.starts_with(p) && w.len() > p.len())
            };
            while j + 1 < toks.len() && gap_ok(j, j + 1) && !mask.overlaps(toks[j + 1].span) {
                let w = lower_at(j + 1);
                if toks[j + 1].cap || glued(w) {
                    j += 1;
                } else if PARTICLES.contains(&w)
                    && j + 2 < toks.len()
                    && gap_ok(j + 1, j + 2)
                    && toks[j + 2].cap
                    && !mask.overlaps(toks[j + 2].span)
                {
                    j += 2;
                } else {
                    break;
                }
            }
            // A run followed by a settlement word ("Qaryat Zzyx village") names one
            // place: a match on part of it would be a different place.
            let settlement_after = toks
                .get(j + 1)
                .is_some_and(|t| is_settlement_word(&text[t.span.start..t.span.end]));
            // Try sub-runs, longest first, left to right.
            let mut k = i;
            while k <= j {
                let mut matched = false;
                // Place names are short: try sub-runs of at most six words.
                for end in (k..=j.min(k + 5)).rev() {
                    if !toks[end].cap && !lower_at(end).contains('-') {
                        continue;
                    }
                    let mut start_byte = toks[k].span.start;
                    // "eastern Ghouta": take a direction word before the run into the name.
                    if k > 0 {
                        let prev = lower_at(k - 1);
                        if [
                            "eastern", "western", "northern", "southern", "east", "west", "old",
                        ]
                        .contains(&prev)
                            && text[toks[k - 1].span.end..toks[k].span.start] == *" "
                        {
                            let with = &text[toks[k - 1].span.start..toks[end].span.end];
                            if !self.g.exact(with).is_empty() {
                                start_byte = toks[k - 1].span.start;
                            }
                        }
                    }
                    let raw = &text[start_byte..toks[end].span.end];
                    let (name, possessive) = strip_possessive(raw);
                    if possessive {
                        continue; // "Syria's President": an actor, not a place
                    }
                    let folded = fold(name);
                    if folded.is_empty()
                        || (end == k && start_byte == toks[k].span.start && is_stop(&folded))
                    {
                        continue;
                    }
                    if folded
                        .split(' ')
                        .all(|w| is_stop(w) || w.len() < 2 || demonym_country(w).is_some())
                    {
                        continue;
                    }
                    let whole_run = k == i && end == j;
                    if settlement_after && !whole_run {
                        continue;
                    }
                    let (cands, exact) = {
                        let e = self.g.exact_folded(&folded);
                        if !e.is_empty() {
                            (e.to_vec(), true)
                        } else if folded.len() >= 4 && whole_run {
                            // Transliteration matches only for a whole run of capitals.
                            (self.g.fuzzy_folded(&folded).to_vec(), false)
                        } else {
                            (Vec::new(), false)
                        }
                    };
                    if cands.is_empty() {
                        continue;
                    }
                    let span = Span::new(start_byte, start_byte + name.len());
                    let before = if start_byte > 0 {
                        &text[..start_byte]
                    } else {
                        ""
                    };
                    // The two words before, in lower case.
                    let prev_words: Vec<Cow<'_, str>> = before
                        .split_whitespace()
                        .rev()
                        .take(2)
                        .map(|w| lowered(w.trim_matches(|c: char| !c.is_alphanumeric())))
                        .collect();
                    let cue = prev_words.first().is_some_and(|w| CUES.contains(&&**w))
                        || prev_words
                            .get(1)
                            .is_some_and(|w| w == "of" || w == "in" || w == "capital")
                        || before.trim_end().ends_with(',');
                    let after = &text[span.end..];
                    let next_word = after
                        .split_whitespace()
                        .next()
                        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()))
                        .unwrap_or_default();
                    let hint = kind_hint(next_word).or_else(|| {
                        prev_words
                            .get(1)
                            .filter(|_| prev_words.first().is_some_and(|w| w == "of"))
                            .and_then(|w| kind_hint(w))
                    });
                    mentions.push(Mention {
                        span,
                        text: name.to_string(),
                        candidates: cands,
                        folded: folded.clone(),
                        exact,
                        cue,
                        hint,
                        followed_by: None,
                        chosen: None,
                    });
                    k = end + 1;
                    matched = true;
                    break;
                }
                if !matched {
                    k += 1;
                }
            }
            i = j + 1;
        }

        // "X, Country" / "X, Province": what follows a mention.
        for m in 0..mentions.len() {
            if m + 1 < mentions.len() {
                let gap = &text[mentions[m].span.end..mentions[m + 1].span.start];
                if gap.trim() == "," || gap.trim().is_empty() {
                    let next = &mentions[m + 1];
                    let big = next.candidates.iter().copied().find(|&c| {
                        matches!(self.g.entry(c).kind, PlaceKind::Country | PlaceKind::Admin1)
                    });
                    mentions[m].followed_by = big;
                }
            }
        }

        let mut warnings = Vec::new();
        // Resolve countries first, then the rest with proximity to what is resolved.
        let mut resolved: Vec<PlaceId> = Vec::new();
        for pass in 0..2 {
            for mi in 0..mentions.len() {
                if mentions[mi].chosen.is_some() {
                    continue;
                }
                // "Chester, Pa.": the place just before, separated by a comma, lies
                // inside this one.
                let qualifies = mi
                    .checked_sub(1)
                    .filter(|&p| text[mentions[p].span.end..mentions[mi].span.start].trim() == ",")
                    .and_then(|p| mentions[p].chosen);
                let m = &mentions[mi];
                let best = m
                    .candidates
                    .iter()
                    .copied()
                    .map(|c| {
                        let mut sc = self.score(c, m, &context, &resolved);
                        if qualifies.is_some_and(|q| q != c && self.g.contains(c, q)) {
                            sc += 100.0;
                        }
                        (c, sc)
                    })
                    .max_by(|a, b| a.1.partial_cmp(&b.1).unwrap_or(std::cmp::Ordering::Equal));
                let Some((c, _)) = best else { continue };
                let e = self.g.entry(c);
                let is_country = e.kind == PlaceKind::Country;
                if pass == 0 && !is_country {
                    continue;
                }
                let in_context = context.is_empty() || context.contains_key(e.country.as_str());
                let primary = e.folded == m.folded;
                let qualified = qualifies.is_some_and(|q| q != c && self.g.contains(c, q));
                let strong = is_country
                    || (matches!(e.kind, PlaceKind::Admin1) && primary)
                    || (primary && e.population >= 100_000)
                    || qualified;
                // Two- and three-letter alternate names ("Pa" for Chongqing) count only
                // for admin units and countries, or when they qualify a place before them.
                let short_alias = m.folded.len() <= 3
                    && !primary
                    && !matches!(e.kind, PlaceKind::Country | PlaceKind::Admin1)
                    && !qualified;
                let accept = !short_alias
                    && if m.exact {
                        (m.cue || strong || m.hint.is_some() || m.followed_by.is_some())
                            && (in_context
                                || (primary && e.population >= 500_000)
                                || is_country
                                || qualified)
                    } else {
                        (m.cue || m.hint.is_some() || m.followed_by.is_some())
                            && !context.is_empty()
                            && context.contains_key(e.country.as_str())
                    };
                if accept {
                    mentions[mi].chosen = Some(c);
                    resolved.push(c);
                }
            }
        }

        // Unknown places named with a settlement word ("Tal Samin village") fall back to
        // the nearest enclosing place the caption names after them.
        let unknown = self.unknown_places(text, &toks, mask, &mentions);

        let mut all: Vec<(Span, String, Option<PlaceId>)> = mentions
            .iter()
            .filter_map(|m| m.chosen.map(|c| (m.span, m.text.clone(), Some(c))))
            .collect();
        for (span, name) in unknown {
            all.push((span, name, None));
        }
        all.sort_by_key(|(s, _, _)| s.start);

        let mut places: Vec<Place> = Vec::new();
        let mut seen: Vec<String> = Vec::new();
        let mut location: Option<(u8, Place)> = None;
        for (idx, (span, mention, id)) in all.iter().enumerate() {
            let (id, fallback) = match id {
                Some(id) => (*id, false),
                None => {
                    let enclosing = all[idx + 1..].iter().find_map(|(_, _, i)| *i);
                    match enclosing {
                        Some(e) => {
                            warnings.push(format!(
                                "place {mention:?} is not in the gazetteer; located at the enclosing {}",
                                self.g.entry(e).name
                            ));
                            (e, true)
                        }
                        None => {
                            warnings.push(format!("place {mention:?} is not in the gazetteer"));
                            continue;
                        }
                    }
                }
            };
            let place = self.to_place(id, mention, *span);
            let rank = if fallback {
                PlaceKind::Town.specificity_rank()
            } else {
                place.kind.specificity_rank()
            };
            if span.start >= scene.start
                && span.end <= scene.end
                && location.as_ref().is_none_or(|(r, _)| rank < *r)
            {
                location = Some((rank, place.clone()));
            }
            let key = fold(mention);
            if !seen.contains(&key) {
                seen.push(key);
                places.push(place);
            }
        }
        let location = location.map(|(_, p)| p).or_else(|| {
            places
                .iter()
                .min_by_key(|p| p.kind.specificity_rank())
                .cloned()
        });
        Found {
            places,
            location,
            warnings,
        }
    }

    fn score(
        &self,
        c: PlaceId,
        m: &Mention,
        context: &FxHashMap<&str, u32>,
        resolved: &[PlaceId],
    ) -> f64 {
        let e = self.g.entry(c);
        let mut s = 0.0;
        s += f64::from(
            context
                .get(e.country.as_str())
                .copied()
                .unwrap_or(0)
                .min(200),
        );
        if let Some(h) = m.hint {
            if h == e.kind || (h == PlaceKind::Town && e.kind == PlaceKind::Town) {
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
        if e.folded == m.folded {
            s += 5.0;
        }
        s += ((e.population + 1) as f64).log10() * 3.0;
        if e.kind == PlaceKind::Country {
            s += 40.0;
        }
        if e.id.starts_with("cairn:") {
            s += 8.0;
        }
        if m.candidates.len() == 1 {
            return s;
        }
        for &r in resolved {
            if r != c && self.g.entry(r).kind != PlaceKind::Country {
                let d = self.g.distance_km(r, c);
                if d < 60.0 {
                    s += 30.0;
                }
                if self.g.contains(r, c) {
                    s += 20.0;
                }
            }
        }
        s
    }

    /// Capitalised runs with a settlement word after them ("Tal Samin village") that
    /// resolved to nothing.
    fn unknown_places(
        &self,
        text: &str,
        toks: &[Tok],
        mask: &Mask,
        mentions: &[Mention],
    ) -> Vec<(Span, String)> {
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
            let span = Span::new(toks[i].span.start, toks[j].span.end);
            let settlement = toks
                .get(j + 1)
                .is_some_and(|t| is_settlement_word(&text[t.span.start..t.span.end]));
            let covered = mentions
                .iter()
                .any(|m| m.chosen.is_some() && m.span.start < span.end && span.start < m.span.end);
            if settlement
                && !covered
                && !is_stop(&text[span.start..span.end].to_lowercase())
                && j - i < 4
            {
                out.push((span, text[span.start..span.end].to_string()));
            }
            i = j + 1;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

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
