//! Arabic place grammar: the kind words written before a name (`حي`, `مخيم`, `بمدينة`),
//! the letters written onto words (`ب`, `ل`, `و`, `ف`, `ك`), the roles prepositions give,
//! and the words that end a name; `held`: names after a kind word that the gazetteer
//! lacks, placed at what holds them, and homonyms abroad undone.

use cairn_gazetteer::{Gazetteer, PlaceId, fold};
use cairn_model::PlaceKind;

use super::mention::Mention;
use super::role::Role;

mod held;

pub(super) use held::{drop_far_homonyms, same_name_same_place, unknown_places};

/// Kind words, folded (taa marbuta as `ه`, alef maqsura as `ي`), and the kind they name.
const KIND_WORDS: &[(&str, PlaceKind)] = &[
    ("حي", PlaceKind::Neighbourhood),
    ("احياء", PlaceKind::Neighbourhood),
    ("مخيم", PlaceKind::Town),
    ("قريه", PlaceKind::Town),
    ("بلده", PlaceKind::Town),
    ("بلدات", PlaceKind::Town),
    ("مدينه", PlaceKind::Town),
    ("مدن", PlaceKind::Town),
    ("ضاحيه", PlaceKind::Neighbourhood),
    ("محافظه", PlaceKind::Admin1),
    ("ولايه", PlaceKind::Admin1),
    ("منطقه", PlaceKind::Town),
    ("ريف", PlaceKind::Admin1),
    ("مستشفي", PlaceKind::Point),
];

/// Kind words that name a place smaller than a town: a name after one that the gazetteer
/// lacks is placed at the town or area that holds it.
fn is_small_kind(k: PlaceKind) -> bool {
    matches!(
        k,
        PlaceKind::Neighbourhood | PlaceKind::Town | PlaceKind::Point
    )
}

/// Prepositions (folded) and the role they give the name they govern.
const PREPOSITIONS: &[(&str, Role)] = &[
    ("في", Role::In),
    ("داخل", Role::In),
    ("وسط", Role::In),
    ("عند", Role::At),
    ("امام", Role::At),
    ("قرب", Role::Near),
    ("بالقرب", Role::Near),
    ("نحو", Role::Near),
    ("شمال", Role::Near),
    ("جنوب", Role::Near),
    ("شرق", Role::Near),
    ("غرب", Role::Near),
    ("شمالي", Role::Near),
    ("جنوبي", Role::Near),
    ("شرقي", Role::Near),
    ("غربي", Role::Near),
    ("علي", Role::Weak),
    ("الي", Role::Weak),
    ("من", Role::Origin),
];

/// Words of flight: `من` after one of them is where people came from.
const FLIGHT: &[&str] = &[
    "فروا",
    "فر",
    "فرت",
    "فرار",
    "الفرار",
    "النازحين",
    "هربا",
    "هربوا",
    "نزحوا",
    "نزح",
    "نازحين",
    "خرجوا",
    "غادروا",
    "فارين",
    "الفارين",
    "فارون",
    "الفارون",
    "هاربين",
    "الهاربين",
    "نازحون",
    "النازحون",
    "لاجئون",
    "اللاجئون",
    "لاجئين",
    "اللاجئين",
];

/// Verbs of arrival (folded): `إلى` after one of them is where people now are
/// (`وصلوا إلى بلدة كلس`, "they arrived in the town of Kilis").
const ARRIVAL: &[&str] = &[
    "وصل",
    "وصلوا",
    "وصلت",
    "يصلون",
    "تصل",
    "يصل",
    "وصول",
    "لجئوا",
    "لجا",
    "لجات",
];

/// Words that begin compound names (`باب الحديد`, `تل رفعت`, `دير الزور`): without the
/// article, alone, they are no place's name.
const CONSTRUCT_HEADS: &[&str] = &[
    "باب", "تل", "دير", "عين", "بيت", "كفر", "جسر", "راس", "خان", "بئر", "سوق", "جبل", "وادي",
    "ام", "ابو", "بني", "مرج", "قصر", "برج", "حاره", "شارع", "ساحه", "دوار",
];

/// The letters a word list is compared under, made without the gazetteer's full fold
/// (every Arabic word of a caption is asked about): harakat and tatweel dropped, hamza
/// forms of alef as alef, taa marbuta as `ه`, alef maqsura as `ي`.
fn light_fold(word: &str) -> String {
    word.chars()
        .filter_map(|c| match c {
            '\u{064B}'..='\u{065F}' | '\u{0670}' | 'ـ' => None,
            'أ' | 'إ' | 'آ' | 'ٱ' => Some('ا'),
            'ة' => Some('ه'),
            'ى' => Some('ي'),
            c => Some(c),
        })
        .collect()
}

fn is_arabic(word: &str) -> bool {
    word.chars()
        .next()
        .is_some_and(|c| ('\u{0600}'..='\u{06FF}').contains(&c))
}

/// The word without the conjunction (`و`, `ف`) and the preposition (`ب`, `ل`, `ك`)
/// written onto it, shortest last: `وبمدينة` → `وبمدينة`, `بمدينة`, `مدينة`.
fn unglued(word: &str) -> impl Iterator<Item = &str> {
    let conj = word
        .strip_prefix(['و', 'ف'])
        .filter(|r| r.chars().count() >= 2);
    [Some(word), conj, prep(word), conj.and_then(prep)]
        .into_iter()
        .flatten()
}

fn prep(w: &str) -> Option<&str> {
    w.strip_prefix(['ب', 'ل', 'ك'])
        .filter(|r| r.chars().count() >= 2)
}

/// The kind a word names when it is a kind word written before a name, with or without
/// letters glued to it (`بمدينة`, `لحي`), never with the article (`المدينة` is
/// "the city", spoken of, not a name's kind).
pub(super) fn kind_word(word: &str) -> Option<(PlaceKind, bool)> {
    if !is_arabic(word) {
        return None;
    }
    unglued(word).find_map(|w| {
        if w.starts_with("ال") {
            return None;
        }
        let f = light_fold(w);
        KIND_WORDS
            .iter()
            .find(|(k, _)| *k == f)
            .map(|&(_, kind)| (kind, w.len() < word.len()))
    })
}

/// Whether a word says a place name follows: a kind word, a preposition that places,
/// or `العاصمة` ("the capital", before the capital's name).
pub(super) fn is_cue(word: &str) -> bool {
    kind_word(word).is_some() || preposition(word).is_some() || is_capital(word)
}

/// `العاصمة`, "the capital", with a preposition glued on or not: what follows it, after
/// a demonym perhaps (`العاصمة اليمنية صنعاء`), is the capital's name.
fn is_capital(word: &str) -> bool {
    is_arabic(word) && unglued(word).any(|w| light_fold(w) == "العاصمه")
}

fn preposition(word: &str) -> Option<Role> {
    if !is_arabic(word) {
        return None;
    }
    let f = light_fold(word);
    PREPOSITIONS.iter().find(|(p, _)| *p == f).map(|&(_, r)| r)
}

/// The role the Arabic words before a name (lower case, nearest first) give it, if they
/// are Arabic: kind words are passed over to the preposition before them; a kind word with
/// `ب` or `ل` on it, or with nothing before it, places the name in the scene.
pub(super) fn role(before: &[&str]) -> Option<Role> {
    let first = *before.first()?;
    if !is_arabic(first) {
        return None;
    }
    let mut i = 0;
    let mut glued = false;
    // `في العاصمة اليمنية صنعاء`: the capital and its demonym are passed over as kind
    // words are.
    while i < 2 && before.get(i).is_some_and(|w| is_epithet(w)) {
        i += 1;
    }
    while let Some((_, g)) = before.get(i).and_then(|w| kind_word(w)) {
        glued |= g;
        i += 1;
    }
    if i > 0 && glued {
        return Some(Role::In);
    }
    let Some(r) = before.get(i).and_then(|w| preposition(w)) else {
        // `في الضاحية الجنوبية لبيروت`: a name that ends a phrase after `في` is where
        // that phrase is, though weakly.
        let inside = before
            .iter()
            .take(3)
            .any(|w| preposition(w) == Some(Role::In));
        return (i > 0).then_some(Role::In).or(inside.then_some(Role::Weak));
    };
    if r == Role::In && fled_before(&before[i + 1..]) {
        return Some(Role::Origin);
    }
    let arrived = before
        .get(i + 1)
        .is_some_and(|w| ARRIVAL.contains(&light_fold(w).as_str()));
    if r == Role::Weak && light_fold(before[i]) == "الي" && arrived {
        return Some(Role::In);
    }
    if r != Role::Origin {
        return Some(r);
    }
    // `من`: where people came from after a word of flight; else `of`, the part of a
    // place (`الأحياء الشرقية من مدينة حلب`).
    // The verb often opens the clause, its subject between it and `من`.
    let fled = before[i + 1..]
        .iter()
        .any(|w| FLIGHT.contains(&light_fold(w).as_str()));
    Some(if fled {
        Role::Origin
    } else if i > 0 {
        Role::In
    } else {
        Role::Weak
    })
}

/// Words for the areas of a place that people flee (`مناطق`, `أحياء`), folded.
const AREAS: &[&str] = &[
    "مناطق",
    "المناطق",
    "منطقه",
    "المنطقه",
    "احياء",
    "الاحياء",
    "جبهات",
    "خطوط",
];

/// Words between a kind word or a preposition and the name that say what the place is:
/// `العاصمة` and demonyms (`العاصمة اليمنية`).
fn is_epithet(word: &str) -> bool {
    is_capital(word) || super::lexicon::demonym_country(word).is_some()
}

/// `فارين من مناطق القتال في X` ("fleeing the areas of fighting in X"): the words
/// before `في` (nearest first) are a flight from the areas of X, before any other
/// preposition that would set a place of its own. (`النازحين من الموصل في مخيم X`
/// is not: there `في` says where the displaced are.)
fn fled_before(before: &[&str]) -> bool {
    for (k, w) in before.iter().enumerate().take(4) {
        match preposition(w) {
            Some(Role::Origin) => {
                let areas = before[..k]
                    .iter()
                    .any(|w| AREAS.contains(&light_fold(w).as_str()));
                return areas
                    && before[k + 1..]
                        .iter()
                        .take(3)
                        .any(|w| FLIGHT.contains(&light_fold(w).as_str()));
            }
            Some(_) => return false,
            None => {}
        }
    }
    false
}

/// Words (folded) that no place's name holds: prepositions of time and cause, relative
/// pronouns, days (`سيمفيروبول بعد الانفجار`, "Simferopol after the blast").
const NAME_ENDERS: &[&str] = &[
    "بعد",
    "قبل",
    "خلال",
    "منذ",
    "حيث",
    "التي",
    "الذي",
    "الذين",
    "اثناء",
    "عقب",
    "جراء",
    "بسبب",
    "عندما",
    "حين",
    "اليوم",
    "امس",
    "مع",
    "ضد",
    "لدي",
    "بين",
    "تحت",
    "فوق",
    "حول",
];

/// Whether a word ends a name rather than going on with it: `للنازحين` ("for the
/// displaced") after a camp's name, a word with `لل` ("for the") on it, or a word of
/// [`NAME_ENDERS`].
pub(super) fn ends_name(word: &str) -> bool {
    is_arabic(word)
        && (word.starts_with("لل") && word.chars().count() >= 4
            || NAME_ENDERS.contains(&light_fold(word).as_str()))
}

/// Whether a word opens a new clause with the conjunction glued on: `و` before the
/// article (`والأطفال`) or before a verb in the present tense (`وتحول`, `ويقول`).
fn opens_clause(word: &str) -> bool {
    let Some(rest) = word.strip_prefix('و') else {
        return false;
    };
    rest.starts_with("ال") || rest.starts_with(['ت', 'ي', 'ن']) && rest.chars().count() >= 3
}

/// Whether a transliteration match (`سيمفيروبول` for the gazetteer's `سيمفروبول`) may be
/// taken outside the caption's countries: an Arabic name of six letters or more after a
/// word that places it, matching a well-known place. Arabic writes foreign names with
/// long vowels and hamza put in or left out; a common word is rarely that long and
/// rarely shares its consonants with a city.
/// The name must stand after a word that places it (`في`, `قرب`, `مدينة`), not after
/// `إلى` or `على` only (`إلى ديارهم`, "to their homes", shares its consonants with
/// Durham), and not after the kind word of a camp, village or neighbourhood: those are
/// named after villages, not after cities abroad.
pub(super) fn long_name_matches(g: &Gazetteer, text: &str, m: &Mention, c: PlaceId) -> bool {
    let letters = m.folded.chars().filter(|c| !c.is_whitespace()).count();
    let small = kind_before(text, m.span.start)
        .is_some_and(|(k, w)| is_small_kind(k) && !matches!(w.as_str(), "مدينه" | "مدن"));
    is_arabic(&m.text)
        && m.cue
        && (m.role >= Role::Near || m.hint.is_some())
        && !small
        && !m.partial
        && letters >= 6
        && cairn_gazetteer::skeleton(&m.folded).chars().count() >= 4
        && well_known(g, c)
}

/// Whether a one-word Arabic match is only the head of a longer name the run goes on
/// with (`باب` of `باب الحديد`).
pub(super) fn is_bare_head(raw: &str, run_goes_on: bool) -> bool {
    run_goes_on && is_arabic(raw) && CONSTRUCT_HEADS.contains(&light_fold(raw).as_str())
}

/// Places of a name with letters glued to it (`لبيروت`, `وحلب`): looked up without
/// them, and only places well known enough that such a reading is safe.
pub(super) fn unglued_places<'g>(g: &'g Gazetteer, word: &str) -> Option<(String, &'g [PlaceId])> {
    if !is_arabic(word) || word.contains(' ') {
        return None;
    }
    unglued(word).skip(1).find_map(|w| {
        let f = fold(w);
        // `والتي` is "and which": the article's `ال` left a stem too short to be a name.
        if f.chars().count() < 3 {
            return None;
        }
        let c = g.exact_folded(&f);
        c.iter().any(|&id| well_known(g, id)).then_some((f, c))
    })
}

/// A name's first words matched where the whole name was wanted: only a well-known
/// place is read so (`مخيم الزعتري يوم الاثنين`), not a village of that name abroad.
pub(super) fn keep_well_known(
    g: &Gazetteer,
    candidates: &mut Vec<PlaceId>,
    fuzzy_from: &mut usize,
) {
    *fuzzy_from = candidates[..*fuzzy_from]
        .iter()
        .filter(|&&c| well_known(g, c))
        .count();
    candidates.retain(|&c| well_known(g, c));
}

pub(super) fn well_known(g: &Gazetteer, id: PlaceId) -> bool {
    let e = g.entry(id);
    e.population >= 50_000
        || matches!(
            e.kind,
            PlaceKind::Country | PlaceKind::Admin1 | PlaceKind::Region
        )
}

/// `حي X بمدينة Y`, `مخيم X في Y`: a place after a small-place kind word is held by the
/// mention that follows when only a preposition or a kind word stands between them.
pub(super) fn link_within(text: &str, mentions: &mut [Mention]) {
    for m in 0..mentions.len().saturating_sub(1) {
        if mentions[m].within.is_some() || !after_small_kind(text, mentions[m].span.start) {
            continue;
        }
        let gap = &text[mentions[m].span.end..mentions[m + 1].span.start];
        let words: Vec<&str> = gap
            .split(|c: char| c.is_whitespace() || matches!(c, '،' | ','))
            .filter(|w| !w.is_empty())
            .collect();
        let holds = !words.is_empty()
            && words.len() <= 2
            && words
                .iter()
                .all(|w| kind_word(w).is_some() || preposition(w) == Some(Role::In));
        if holds {
            mentions[m].within = Some(m + 1);
        }
    }
}

/// Whether the word before `start` is a kind word of a place smaller than a town.
fn after_small_kind(text: &str, start: usize) -> bool {
    kind_before(text, start).is_some_and(|(k, _)| is_small_kind(k))
}

/// The kind word right before `start` (quotation marks passed over), folded without
/// the letters glued to it, and its kind.
fn kind_before(text: &str, start: usize) -> Option<(PlaceKind, String)> {
    let before = text[..start].trim_end_matches(|c: char| c.is_whitespace() || is_quote(c));
    let w = before.rsplit(char::is_whitespace).next()?;
    let (k, _) = kind_word(w)?;
    Some((k, unglued(w).map(light_fold).last().unwrap_or_default()))
}

/// Whether a match at `start` must be a well-known place: `part` when it covers only
/// the first words of the run. After the kind word of a neighbourhood, camp, village or
/// building the name is read whole (`حي باب الجديد`, `مخيم الخازر للنازحين`): a match on
/// its first words is another place (after `مدينة` the words after the name are most
/// often its epithet, `مدينة الموصل القديمة`). After `على` and `إلى` ("on", "to") many
/// common words follow that are also some village's name (`على جبين`, "on the brow").
pub(super) fn only_well_known(text: &str, start: usize, part: bool) -> bool {
    let small = || {
        kind_before(text, start)
            .is_some_and(|(k, w)| is_small_kind(k) && !matches!(w.as_str(), "مدينه" | "مدن"))
    };
    let weak = || {
        text[..start]
            .trim_end()
            .rsplit(char::is_whitespace)
            .next()
            .is_some_and(|w| preposition(w) == Some(Role::Weak))
    };
    part && small() || weak()
}

fn is_quote(c: char) -> bool {
    matches!(c, '«' | '»' | '"' | '“' | '”' | '\'')
}
