//! Lookups by name as a user gives them (the command line's `places` and `--place`,
//! the API's `/api/places` and `place=`): a name's candidates described, and names
//! turned into the id paths the store filters on.

use serde::Serialize;

use crate::{Gazetteer, PlaceId};

/// A gazetteer entry as `cairn places` and `/api/places` show it.
#[derive(Debug, Clone, Serialize)]
pub struct PlaceMatch {
    /// Gazetteer id.
    pub id: String,
    /// Preferred name.
    pub name: String,
    /// Kind of place.
    pub kind: String,
    /// ISO country code.
    pub country: String,
    /// Latitude.
    pub lat: f64,
    /// Longitude.
    pub lon: f64,
    /// Population (0 when unknown).
    pub population: u64,
    /// Enclosing places, innermost first.
    pub within: Vec<String>,
    /// Whether a filter or a caption naming `name` alone would resolve to this one.
    pub best: bool,
}

/// What the gazetteer resolves a name to: up to `limit` entries, the one a filter
/// would use marked `best`.
pub fn place_matches(g: &Gazetteer, name: &str, limit: usize) -> Vec<PlaceMatch> {
    let best = g.named(name);
    let mut ids = g.matches(name);
    if ids.is_empty() {
        // A name the gazetteer holds only in another script (`Харків`).
        ids.extend(best);
    }
    ids.iter()
        .take(limit)
        .map(|&i| {
            let e = g.entry(i);
            PlaceMatch {
                id: e.id.clone(),
                name: e.name.clone(),
                kind: e.kind.as_str().to_string(),
                country: e.country.clone(),
                lat: e.lat,
                lon: e.lon,
                population: e.population,
                within: g
                    .path(i)
                    .iter()
                    .rev()
                    .skip(1)
                    .map(|&p| g.entry(p).name.clone())
                    .collect(),
                best: best == Some(i),
            }
        })
        .collect()
}

impl Gazetteer {
    /// The place a user means by a name in any script the gazetteer reads: its
    /// [`Gazetteer::best_match`], or for a name in Cyrillic letters, that of the Latin
    /// name Russian and Ukrainian give it (`Рим`, Rome) or of its romanisations
    /// (`Харків`, Kharkiv), which the gazetteer holds where it lacks the Cyrillic.
    pub fn named(&self, name: &str) -> Option<PlaceId> {
        if let Some(id) = self.best_match(name) {
            return Some(id);
        }
        if !name.chars().any(|c| ('\u{0400}'..='\u{04FF}').contains(&c)) {
            return None;
        }
        let lower = name.trim().to_lowercase();
        if let Some(latin) = crate::cyrillic::exonym(&lower) {
            return self.best_match(latin);
        }
        crate::cyrillic::spellings(&lower)
            .iter()
            .find_map(|latin| self.best_match(latin))
    }
}

/// Turns place names into gazetteer paths (ids, outermost first).
pub fn place_paths(gazetteer: &Gazetteer, names: &[String]) -> Result<Vec<Vec<String>>, String> {
    names
        .iter()
        .map(|n| {
            let id = gazetteer
                .named(n)
                .ok_or_else(|| format!("unknown place {n:?}"))?;
            Ok(gazetteer
                .path(id)
                .into_iter()
                .map(|p| gazetteer.entry(p).id.clone())
                .collect())
        })
        .collect()
}

/// The name a reader knows a located place by: the caption's own words when they spell
/// the place's name (`Harasta` for the gazetteer's `Ḩarastā`, `Douma` for `Dūmā`),
/// else the gazetteer's name. The caption's words may name a part or a neighbour of
/// the place (`southern Gaza`); those keep the gazetteer's name.
pub fn reader_name<'a>(name: &'a str, caption_words: &'a str) -> &'a str {
    let words = caption_words.trim();
    if words.is_empty() || words == name {
        return name;
    }
    let (a, b) = (crate::fold(words), crate::fold(name));
    // Only a Latin spelling stands for a name written in Latin letters.
    let latin = |s: &str| {
        s.chars()
            .all(|c| c.is_ascii() || !c.is_alphabetic() || c <= '\u{024F}')
    };
    if a == b || (latin(words) && latin(name) && crate::skeleton(&a) == crate::skeleton(&b)) {
        words
    } else {
        name
    }
}

#[cfg(test)]
mod tests {
    use super::reader_name;

    #[test]
    fn a_place_is_named_as_the_caption_spells_it() {
        assert_eq!(reader_name("Ḩarastā", "Harasta"), "Harasta");
        assert_eq!(reader_name("Dūmā", "Douma"), "Douma");
        assert_eq!(reader_name("Aleppo", "Alep"), "Alep");
        assert_eq!(reader_name("Gaza Strip", "southern Gaza"), "Gaza Strip");
        assert_eq!(reader_name("Aleppo", "حلب"), "Aleppo");
        assert_eq!(reader_name("Kyiv", ""), "Kyiv");
    }

    /// Every name of a place, in any script, means one place: the city when a city of
    /// that name exists, the province only when asked for by its id.
    #[test]
    fn a_place_is_named_in_any_script() {
        let g = crate::Gazetteer::bundled();
        let id = |n: &str| g.named(n).map(|p| g.entry(p).id.clone());
        for names in [
            ["Gaza", "غزة", "gaza", "Газа"],
            ["Aleppo", "Alep", "حلب", "Алеппо"],
            ["Kharkiv", "Kharkov", "Харків", "Харьков"],
            ["Kyiv", "Kiev", "Київ", "Киев"],
        ] {
            let first = id(names[0]);
            assert!(first.is_some(), "{names:?}");
            assert_eq!(
                g.entry(g.named(names[0]).unwrap()).kind,
                cairn_model::PlaceKind::Town
            );
            for n in &names[1..] {
                assert_eq!(id(n), first, "{n} beside {}", names[0]);
            }
        }
        assert_eq!(id("SY.09"), Some("geonames-admin1:SY.09".to_string()));
        assert_eq!(id("Шмыргвиль"), None);
    }
}
