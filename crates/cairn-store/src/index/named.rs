//! Which words of a query name a place: the place a name means (the gazetteer's choice
//! for a filter, in any script it reads), kept only where the word is written as a
//! name, so that common words that happen to name a village are searched as words.

use cairn_gazetteer::{Gazetteer, PlaceId};
use cairn_model::PlaceKind;

/// The fewest people a place named by a word written in lower case must hold for the
/// word to be taken as its name (`aleppo`, `gaza`), where `police` or `split` are
/// the words, not the Polish or Croatian towns.
const LOWERCASE_POPULATION: u64 = 100_000;

/// The place a query's word or run of words names, if it is written as a name: with a
/// capital or in a script without letter case (`Gaza`, `غزة`, `Харків`), any place of
/// the gazetteer; all in lower case, only a country or a place of
/// [`LOWERCASE_POPULATION`] people.
pub(crate) fn place_of(g: &Gazetteer, name: &str) -> Option<PlaceId> {
    // Digits and one-letter words name no place worth a search.
    if name.chars().filter(|c| c.is_alphabetic()).count() < 2 {
        return None;
    }
    let id = g.named(name)?;
    let first = name.chars().find(|c| c.is_alphabetic())?;
    let as_name = first.is_uppercase() || !first.is_lowercase();
    let e = g.entry(id);
    (as_name || e.kind == PlaceKind::Country || e.population >= LOWERCASE_POPULATION).then_some(id)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(name: &str) -> Option<String> {
        let g = Gazetteer::bundled();
        place_of(&g, name).map(|p| g.entry(p).id.clone())
    }

    #[test]
    fn a_name_in_any_script_or_case_is_one_place() {
        for names in [
            ["Gaza", "gaza", "غزة", "Газа"],
            ["Aleppo", "alep", "حلب", "Алеппо"],
            ["Kharkiv", "kharkov", "Харків", "харьков"],
        ] {
            let want = id(names[0]);
            assert!(want.is_some(), "{names:?}");
            for n in names {
                assert_eq!(id(n), want, "{n}");
            }
        }
    }

    #[test]
    fn a_common_word_in_lower_case_names_no_town() {
        // Towns of a few tens of thousands named by an English word.
        assert!(id("Police").is_some());
        assert_eq!(id("police"), None);
        assert_eq!(id("a"), None);
        assert_eq!(id("42"), None);
        // A country is its name however written.
        assert_eq!(id("syria"), Some("iso3166:SY".into()));
    }
}
