//! Lookups by name as a user gives them (the command line's `places` and `--place`,
//! the API's `/api/places` and `place=`): a name's candidates described, and names
//! turned into the id paths the store filters on.

use serde::Serialize;

use crate::Gazetteer;

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
    let best = g.best_match(name);
    g.matches(name)
        .iter()
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

/// Turns place names into gazetteer paths (ids, outermost first).
pub fn place_paths(gazetteer: &Gazetteer, names: &[String]) -> Result<Vec<Vec<String>>, String> {
    names
        .iter()
        .map(|n| {
            let id = gazetteer
                .best_match(n)
                .ok_or_else(|| format!("unknown place {n:?}"))?;
            Ok(gazetteer
                .path(id)
                .into_iter()
                .map(|p| gazetteer.entry(p).id.clone())
                .collect())
        })
        .collect()
}
