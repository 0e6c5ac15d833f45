//! Turkish place names: the case suffix an apostrophe joins to a name (`Hatay'da`,
//! `Gazze'nin`, `Moskova’daki`) and what it says of the place, and the Turkish names of
//! places the gazetteer holds under another name (`Gazze`, `Halep`, `Suriye`).

use cairn_gazetteer::{Gazetteer, PlaceId, fold};
use cairn_model::PlaceKind;

use super::role::Role;

/// The name and the suffix of a Turkish name with a case suffix after an apostrophe.
fn split(word: &str) -> Option<(&str, &str)> {
    let (stem, suffix) = word.split_once(['\'', '’'])?;
    let suffix_ok = (1..=8).contains(&suffix.chars().count())
        && suffix.chars().all(char::is_lowercase)
        && !suffix.starts_with('s');
    (suffix_ok && stem.chars().count() >= 3).then_some((stem, suffix))
}

/// Whether a word carries a Turkish case suffix (`Yakası'nda`): it ends the name it is
/// the last word of, and a capitalised word after it starts another.
pub(super) fn has_case_suffix(word: &str) -> bool {
    split(word).is_some()
}

/// The places of a Turkish name: its stem before a case suffix, or the Latin name of a
/// place Turkish names otherwise. The folded form looked up comes with them.
pub(super) fn inflected(g: &Gazetteer, word: &str) -> Option<(String, Vec<PlaceId>)> {
    let stem = split(word).map_or(word, |(stem, _)| stem);
    let name = exonym(&stem.to_lowercase().replace("i\u{307}", "i")).unwrap_or(stem);
    if name == word {
        return None;
    }
    let f = fold(name);
    let c = g.exact_folded(&f);
    (!c.is_empty()).then(|| (f, c.to_vec()))
}

/// The role a case suffix gives the place: the locative (`-da`, `-deki`) sets the scene,
/// the ablative (`-dan`) names an origin, the genitive and the dative (`-nın`, `-a`) only
/// name it.
pub(super) fn suffix_role(word: &str) -> Option<Role> {
    let (_, suffix) = split(word)?;
    let s = suffix.trim_end_matches("ki");
    let locative = ["da", "de", "ta", "te"];
    let ablative = ["dan", "den", "tan", "ten"];
    Some(if locative.contains(&s) {
        Role::In
    } else if ablative.contains(&s) {
        Role::Origin
    } else {
        Role::Weak
    })
}

/// The role the kind word after a name gives it, by its case suffix: `Eyüpsultan
/// ilçesinde` (in the district of), `Refah kentine` (to the city of), `Gazze kentinin`
/// (of the city of).
pub(super) fn kind_role(after: &str) -> Option<Role> {
    let word = after.split_whitespace().next()?;
    let word = word.trim_end_matches(|c: char| !c.is_alphabetic());
    const KINDS: &[&str] = &[
        "ilçe", "kent", "il", "köy", "mahalle", "belde", "şehr", "kasaba",
    ];
    let kind = KINDS.iter().find(|k| word.starts_with(*k))?;
    let rest = &word[kind.len()..];
    // The possessive (`-si`, `-i`, `-ni`) and then the case: `ilçe-si-nde`, `kent-i-ne`.
    let case = ["sin", "si", "in", "i", "ün", "ü", "nin", "n"]
        .iter()
        .find_map(|p| rest.strip_prefix(p))?;
    Some(match case.trim_end_matches("ki") {
        "de" | "da" | "nde" | "nda" => Role::In,
        "e" | "a" | "ne" | "na" => Role::In,
        "den" | "dan" | "nden" | "ndan" => Role::Origin,
        _ => Role::Weak,
    })
}

/// The kind a Turkish kind word after a name says the place is, whatever its suffixes
/// (`Bayraklı ilçesindeki`, a district; `Refah kentine`, a town; `Şucaiyye
/// Mahallesi'nde`, a neighbourhood): of namesakes, the one of that kind is meant.
pub(super) fn kind_hint(word: &str) -> Option<PlaceKind> {
    let lower = word.to_lowercase();
    let kinds: &[(&str, PlaceKind)] = &[
        ("ilçe", PlaceKind::Admin2),
        ("kent", PlaceKind::Town),
        ("şehr", PlaceKind::Town),
        ("köy", PlaceKind::Town),
        ("belde", PlaceKind::Town),
        ("kasaba", PlaceKind::Town),
        ("mahalle", PlaceKind::Neighbourhood),
    ];
    // A lower-case word, or the capitalised one a neighbourhood's name takes; `Kent` the
    // county is no kind word of Turkish.
    let turkish = lower.chars().count() > 4 || lower.starts_with("ilçe");
    kinds
        .iter()
        .find(|(k, _)| lower.starts_with(k) && turkish)
        .map(|&(_, kind)| kind)
}

/// Turkish names of places and countries the gazetteer holds under their English name.
fn exonym(lower: &str) -> Option<&'static str> {
    Some(match lower {
        "gazze" => "Gaza",
        "refah" => "Rafah",
        "han yunus" => "Khan Yunis",
        "cenin" => "Jenin",
        "halep" => "Aleppo",
        "şam" => "Damascus",
        "humus" => "Homs",
        "kudüs" => "Jerusalem",
        "beyrut" => "Beirut",
        "kahire" => "Cairo",
        "bağdat" => "Baghdad",
        "musul" => "Mosul",
        "moskova" => "Moscow",
        "harkov" => "Kharkiv",
        "batı şeria" => "West Bank",
        "suriye" => "Syria",
        "irak" => "Iraq",
        "israil" => "Israel",
        "filistin" => "Palestine",
        "lübnan" => "Lebanon",
        "mısır" => "Egypt",
        "ürdün" => "Jordan",
        "ukrayna" => "Ukraine",
        "rusya" => "Russia",
        "yunanistan" => "Greece",
        "almanya" => "Germany",
        "fransa" => "France",
        "ingiltere" => "United Kingdom",
        "italya" => "Italy",
        "ispanya" => "Spain",
        "afganistan" => "Afghanistan",
        "hindistan" => "India",
        "çin" => "China",
        "japonya" => "Japan",
        "azerbaycan" => "Azerbaijan",
        "gürcistan" => "Georgia",
        "ermenistan" => "Armenia",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn case_suffixes() {
        assert_eq!(split("Hatay'da"), Some(("Hatay", "da")));
        assert_eq!(split("Moskova’daki"), Some(("Moskova", "daki")));
        assert_eq!(split("Hatay"), None);
        assert_eq!(split("O'Reilly"), None);
        assert_eq!(suffix_role("Manavgat'ta"), Some(Role::In));
        assert_eq!(suffix_role("İzmir'deki"), Some(Role::In));
        assert_eq!(suffix_role("Gazze'den"), Some(Role::Origin));
        assert_eq!(suffix_role("Gazze'nin"), Some(Role::Weak));
        assert_eq!(suffix_role("Gaza"), None);
    }

    #[test]
    fn kind_words_after_a_name() {
        assert_eq!(kind_role(" ilçesinde kar yağışı"), Some(Role::In));
        assert_eq!(kind_role(" ilçesindeki Rıza Bey"), Some(Role::In));
        assert_eq!(kind_role(" kentine sığınan"), Some(Role::In));
        assert_eq!(kind_role(" kentinin Şucaiyye"), Some(Role::Weak));
        assert_eq!(kind_role(" kentinden gelen"), Some(Role::Origin));
        assert_eq!(kind_role(" yağışı"), None);
    }

    #[test]
    fn kind_words_hint_the_kind() {
        assert_eq!(kind_hint("ilçesindeki"), Some(PlaceKind::Admin2));
        assert_eq!(kind_hint("kentine"), Some(PlaceKind::Town));
        assert_eq!(kind_hint("Mahallesi'ndeki"), Some(PlaceKind::Neighbourhood));
        assert_eq!(kind_hint("Kent"), None);
        assert_eq!(kind_hint("yağışı"), None);
    }

    #[test]
    fn turkish_names() {
        assert_eq!(exonym("gazze"), Some("Gaza"));
        assert_eq!(exonym("suriye"), Some("Syria"));
        assert_eq!(exonym("antakya"), None);
    }
}
