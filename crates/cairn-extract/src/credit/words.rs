//! What one piece of a credit is: a person's name, a role word, an organisation, or
//! neither; and how far a name reaches into the caption when nothing bounds it.

use crate::text::{lowered, with_lowered};

use super::orgs::{self, Kind, Org};

/// Words that say how a picture was obtained, not who made it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Stringer,
    Handout,
    File,
    Pool,
    /// Carries no information (`Staff`, `Uncredited`, `-`, a lone `Photo`).
    Empty,
}

pub fn role(s: &str) -> Option<Role> {
    with_lowered(
        s.trim().trim_matches(|c: char| c == '.' || c == '('),
        role_of,
    )
}

fn role_of(l: &str) -> Option<Role> {
    Some(match l {
        "stringer" | "str" | "strs" => Role::Stringer,
        "handout"
        | "ho"
        | "handout photo"
        | "handout picture"
        | "courtesy"
        | "special arrangement" => Role::Handout,
        "file" | "file photo" | "archivbild" | "archivfoto" | "archive" | "archivo"
        | "archives" | "photo d'archives" | "photo d'archive" | "foto de archivo"
        | "foto archivo" => Role::File,
        "pool" | "pool photo" => Role::Pool,
        "staff" | "uncredited" | "-" | "photo" | "photos" | "foto" | "fotos" | "bild" | "image"
        | "picture" | "photo credit" | "credit" | "" => Role::Empty,
        // Placeholders a desk or a page leaves where a name should stand: never a person.
        "none" | "unknown" | "n/a" | "n.a" | "not known" | "anonymous" | "unidentified"
        | "no credit" | "screenshot" | "screen grab" | "screengrab" | "screen capture"
        | "agency" | "agencies" | "released" | "supplied" | "undated" | "inconnu"
        | "desconocido" | "unbekannt" => Role::Empty,
        _ => return None,
    })
}

/// Words that mark an unknown organisation (`Kyiv City Council`, `The Daily Item`).
const ORG_WORDS: &[&str] = &[
    "times",
    "post",
    "news",
    "press",
    "agency",
    "images",
    "register",
    "herald",
    "journal",
    "tribune",
    "globe",
    "gazette",
    "daily",
    "media",
    "network",
    "service",
    "pictures",
    "wire",
    "bureau",
    "ledger",
    "dispatch",
    "chronicle",
    "examiner",
    "inquirer",
    "magazine",
    "television",
    "tv",
    "newspaper",
    "ministry",
    "army",
    "office",
    "group",
    "foundation",
    "institute",
    "center",
    "centre",
    "department",
    "police",
    "forces",
    "council",
    "corp",
    "command",
    "government",
    "presidency",
    "committee",
    "organization",
    "organisation",
    "defense",
    "defence",
    "authority",
    "municipality",
    "university",
    "museum",
    "team",
    "feuerwehr",
    "polizei",
    "ministerium",
    "bundeswehr",
    "armee",
    "regierung",
    "ministère",
    "armée",
    "gouvernement",
    "préfecture",
    "ministerio",
    "ejército",
    "policía",
    "gobierno",
    "presidencia",
    "bomberos",
    "prensa",
    "mail",
    "star",
    "shimbun",
    "radio",
    "worldwide",
    "quarters",
    "headquarters",
    "international",
    "watch",
    "crescent",
    "unit",
    "relief",
    "mission",
    "monitor",
    "telegraph",
    "express",
    "weekly",
    "guardian",
    "independent",
    "photography",
    "collective",
    "archive",
    "archives",
    "library",
    "association",
    "society",
    "federation",
    "navy",
    "coalition",
    "alliance",
    "project",
    "initiative",
    "programme",
    "inc",
    "ltd",
    "llc",
    "gmbh",
    "studios",
];

pub fn org_like(s: &str) -> bool {
    let t = s.trim();
    if !title_run(t) {
        return false;
    }
    if t.starts_with("The ") || t.contains(".com") {
        return true;
    }
    t.split(|c: char| c.is_whitespace() || c == '-')
        .any(|w| is_org_word(w.trim_matches(|c: char| !c.is_alphanumeric())))
}

/// Whether a word is one of [`ORG_WORDS`] in any case; an ASCII word is compared without
/// lowering it into a new string.
fn is_org_word(w: &str) -> bool {
    if w.is_ascii() {
        ORG_WORDS.iter().any(|o| o.eq_ignore_ascii_case(w))
    } else {
        ORG_WORDS.contains(&&*lowered(w))
    }
}

/// Up to six words, each capitalised, uncased or a short connector: how a body's name is
/// written, unlike a sentence.
pub fn title_run(t: &str) -> bool {
    let words: Vec<&str> = t.split_whitespace().collect();
    !words.is_empty()
        && words.len() <= 6
        && words.iter().all(|w| {
            let c = w.chars().next().unwrap_or(' ');
            !c.is_lowercase() || with_lowered(w, |l| CONNECTORS.contains(&l))
        })
}

/// Short words that join the words of a body's name.
const CONNECTORS: &[&str] = &[
    "of", "and", "for", "the", "de", "du", "des", "la", "al", "el", "y", "et", "und",
];

const PARTICLES: &[&str] = &[
    "de", "da", "del", "della", "di", "van", "von", "der", "den", "la", "le", "du", "dos", "bin",
    "ibn", "al", "el", "abu", "bint", "y", "ter", "ten", "zu",
];

fn is_particle(w: &str) -> bool {
    with_lowered(w, |l| {
        PARTICLES.contains(&l) || ["al", "el", "ben", "bin", "abu", "abdel", "abd"].contains(&l)
    })
}

/// Capitalised words that open a caption rather than continue a name.
const OPENERS: &[&str] = &[
    "a",
    "an",
    "the",
    "in",
    "at",
    "on",
    "this",
    "these",
    "people",
    "men",
    "women",
    "children",
    "un",
    "une",
    "des",
    "les",
    "le",
    "la",
    "el",
    "los",
    "las",
    "der",
    "die",
    "das",
    "ein",
    "eine",
    "members",
    "residents",
    "palestinians",
    "syrians",
    "ukrainians",
    "as",
    "after",
];

fn cased_letters(w: &str) -> (usize, usize) {
    let mut up = 0;
    let mut low = 0;
    for c in w.chars() {
        if c.is_uppercase() {
            up += 1;
        } else if c.is_lowercase() {
            low += 1;
        }
    }
    (up, low)
}

/// A name written in a script without case (Arabic): nothing but a marker or a separator
/// tells it from caption words.
pub fn uncased(s: &str) -> bool {
    !s.chars().any(|c| c.is_uppercase() || c.is_lowercase())
}

/// A word written all in capitals (two letters at least).
pub fn all_caps(w: &str) -> bool {
    let (up, low) = cased_letters(w);
    up >= 2 && low == 0
}

/// A word that can stand in a person's name.
fn name_word(w: &str) -> bool {
    let w = w.trim_start_matches(['(', '"', '“']);
    if w.is_empty()
        || w.chars()
            .any(|c| c.is_ascii_digit() || matches!(c, ':' | '(' | ')' | '[' | ']' | '/'))
    {
        return false;
    }
    with_lowered(w, |l| name_word_of(w, l))
}

/// [`name_word`] of a trimmed word `w` whose lower case is `l`.
fn name_word_of(w: &str, l: &str) -> bool {
    let first = w.chars().next().unwrap_or(' ');
    if first == '@' {
        return w.len() > 1;
    }
    // `U.S.-backed`, `Kurdish-led`: an adjective before a body's name, not a name.
    if [
        "-backed", "-led", "-run", "-based", "-allied", "-aligned", "-linked", "-owned",
    ]
    .iter()
    .any(|x| l.ends_with(x))
    {
        return false;
    }
    if !first.is_alphabetic() {
        return false;
    }
    first.is_uppercase()
        || !first.is_lowercase() // scripts without case
        || PARTICLES.contains(&l)
        || camel_particle(w)
        || ["al-", "el-", "d'", "ad-", "as-", "ash-", "an-", "ar-", "at-", "az-"]
            .iter()
            .any(|p| l.starts_with(p))
}

/// A surname whose particle is glued to it in lower case (`deBree`, `van'tHof`,
/// `diMaggio`): a capital within the first four letters, after lower-case ones only.
fn camel_particle(w: &str) -> bool {
    let mut chars = w.chars();
    let lower = chars.by_ref().take_while(|c| c.is_lowercase()).count();
    (2..=3).contains(&lower)
        && w.chars().nth(lower).is_some_and(char::is_uppercase)
        && w.chars()
            .skip(lower + 1)
            .all(|c| c.is_alphabetic() || c == '\'' || c == '-')
}

/// Whether a string reads as one person's name: one to five name words, at least one
/// capitalised or uncased, no digits.
pub fn person_like(s: &str) -> bool {
    let t = s.trim();
    if t.is_empty() || t.len() > 60 {
        return false;
    }
    let words: Vec<&str> = t.split_whitespace().collect();
    if words.len() > 5 || !words.iter().all(|w| name_word(w)) {
        return false;
    }
    if t.starts_with('@') {
        return words.len() == 1;
    }
    if t.chars().filter(|c| c.is_alphabetic()).count() < 2 {
        return false;
    }
    // A single all-capitals word is an acronym, not a name.
    !(words.len() == 1 && all_caps(t) && t.chars().count() <= 5)
        && words.iter().any(|w| {
            let c = w.chars().next().unwrap_or(' ');
            c.is_uppercase() || !c.is_lowercase()
        })
}

/// Byte ranges of the whitespace-separated words of `s`.
pub fn word_spans(s: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in s.char_indices() {
        if c.is_whitespace() {
            if let Some(st) = start.take() {
                out.push((st, i));
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(st) = start {
        out.push((st, s.len()));
    }
    out
}

/// The longest run of words ending at word `end` (exclusive) that the table knows.
pub fn org_ending_at(s: &str, w: &[(usize, usize)], end: usize) -> Option<(usize, &'static Org)> {
    // (A run opening on a number is a date's year before the name, `2023 Pulse Nigeria`,
    // not the name's own copyright year.)
    (end.saturating_sub(5)..end)
        .filter(|&i| !s[w[i].0..].starts_with(|c: char| c.is_ascii_digit()))
        .find_map(|i| {
            let text = &s[w[i].0..w[end - 1].1];
            exact_case_org(text).map(|o| (i, o))
        })
}

/// The longest run of words from word `start` that the table knows; returns its end.
pub fn org_starting_at(
    s: &str,
    w: &[(usize, usize)],
    start: usize,
) -> Option<(usize, &'static Org)> {
    (start + 1..=(start + 5).min(w.len()))
        .rev()
        .find_map(|j| exact_case_org(&s[w[start].0..w[j - 1].1]).map(|o| (j, o)))
}

/// An organisation named inside running words: only a capitalised or uncased form counts,
/// so `press` or `planet` in a sentence is no agency.
fn exact_case_org(text: &str) -> Option<&'static Org> {
    // (`for the Guardian`: the article may be lower case.)
    let core = text.strip_prefix("the ").unwrap_or(text);
    let first = core.chars().next()?;
    if first.is_lowercase() && !text.eq_ignore_ascii_case("dpa") {
        return None;
    }
    let o = orgs::lookup(text)?;
    // A one-word name in running text is an agency only when it is a wire or photo
    // agency or written in capitals (`Pool` is also a surname, `Planet` a word).
    let one_word = !text.contains(' ');
    let uncased = !first.is_uppercase() && !first.is_lowercase();
    (!one_word || uncased || all_caps(text) || matches!(o.kind, Kind::Wire | Kind::Photo))
        .then_some(o)
}

/// How many words before word `end` form a name when nothing but case bounds it on the
/// left: capitals (`BULENT KILIC`, or AFP's `Wakil KOHSAR`), or up to three capitalised
/// words when `mixed` is allowed. Returns the first word of the name.
pub fn name_ending_at(w: &[&str], end: usize, mixed: bool) -> Option<usize> {
    let mut i = end;
    while i > 0 && end - i < 4 && all_caps(w[i - 1]) && name_word(w[i - 1]) {
        i -= 1;
    }
    if end - i >= 2 {
        return Some(i);
    }
    if end - i == 1 && i > 0 && name_word(w[i - 1]) && !all_caps(w[i - 1]) {
        let c = w[i - 1].chars().next().unwrap_or(' ');
        if c.is_uppercase() && !with_lowered(w[i - 1], |l| OPENERS.contains(&l)) {
            return Some(i - 1);
        }
    }
    if end - i != 0 {
        return None;
    }
    // A name keeps to one script: `Харькова Roman Pilipey` is a caption's last word and
    // the photographer's name, bounded by the change of script even where case alone
    // would not do.
    let cyrillic = |x: &str| x.chars().any(|c| ('\u{400}'..='\u{4ff}').contains(&c));
    while i > 0
        && end - i < 3
        && name_word(w[i - 1])
        && w[i - 1].chars().next().is_some_and(char::is_uppercase)
        && (end == i || cyrillic(w[i - 1]) == cyrillic(w[end - 1]))
    {
        i -= 1;
    }
    // A Cyrillic name after a lower-case word or a year (`… 2024 года Татьяна Макеева /
    // AFP`): Cyrillic captions write no place of two capitalised words before a credit.
    let script_bound = i > 0
        && (cyrillic(w[i - 1]) != cyrillic(w[end - 1])
            || cyrillic(w[end - 1]) && !w[i - 1].starts_with(char::is_uppercase));
    (end - i >= 2 && (mixed || script_bound)).then_some(i)
}

/// How many words from word `start` form a name when nothing but case bounds it on the
/// right (a credit standing before the caption). Returns the end word.
pub fn name_starting_at(w: &[&str], start: usize) -> Option<usize> {
    let mut j = start;
    let caps = w.get(start).is_some_and(|x| all_caps(x));
    while j < w.len() && j - start < 4 && name_word(w[j]) {
        let opener = with_lowered(w[j], |l| OPENERS.contains(&l));
        if j > start && (opener || (caps != all_caps(w[j]) && j - start >= 2)) {
            break;
        }
        // Mixed case: a name is two words, more only after a particle (`Ismael Abu
        // Dayyah`), since the caption's first word follows with a capital too.
        if !caps && j - start >= 2 && !is_particle(w[j - 1]) {
            break;
        }
        j += 1;
    }
    (j - start >= 2).then_some(j)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_bounds() {
        assert!(person_like("Sameer Al-Doumy"));
        assert!(person_like("BULENT KILIC"));
        assert!(person_like("Wakil KOHSAR"));
        assert!(person_like("خالد عبد الله"));
        assert!(!person_like("SDF"));
        assert!(!person_like("was killed"));
        let w: Vec<&str> = "boys in Kabul BULENT KILIC".split(' ').collect();
        assert_eq!(name_ending_at(&w, 5, false), Some(3));
        let w: Vec<&str> = "a market in Kabul Wakil KOHSAR".split(' ').collect();
        assert_eq!(name_ending_at(&w, 6, false), Some(4));
        let w: Vec<&str> = "Jane Roe A man walks".split(' ').collect();
        assert_eq!(name_starting_at(&w, 0), Some(2));
        assert_eq!(role("STR"), Some(Role::Stringer));
        assert_eq!(role("File"), Some(Role::File));
    }
}
