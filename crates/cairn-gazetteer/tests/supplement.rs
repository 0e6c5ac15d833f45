//! The curated supplement is written by hand: these checks catch the slips hand-written
//! rows make (a swapped latitude and longitude, a wrong country code, a name the bundled
//! data already has, a row without its source) before they become confident wrong points.

use std::collections::{HashMap, HashSet};

use cairn_gazetteer::{Gazetteer, fold, haversine_km};
use cairn_model::PlaceKind;

const SUPPLEMENT: &str = include_str!("../data/supplement.tsv");

/// How far (km) a hand-placed point may lie from the nearest bundled town of its country.
/// Camps and crossings stand in empty land, but not this far from every village.
const NEAR_TOWN_KM: f64 = 80.0;

/// Where bundled towns are few (South Sudan, the Sahara), how far a point may lie from
/// the nearest, if it stays inside the box of the country's bundled places.
const SPARSE_TOWN_KM: f64 = 250.0;

/// The margin (degrees) around a country's box of bundled places.
const BOX_MARGIN: f64 = 2.5;

/// How near (km) a row's place may lie to a bundled town of the same name before the row
/// is that town a second time.
const SAME_PLACE_KM: f64 = 15.0;

const SOURCES: &[&str] = &["cairn-curated", "cairn-knowledge"];

fn place_lines() -> Vec<(usize, Vec<&'static str>)> {
    SUPPLEMENT
        .lines()
        .enumerate()
        .filter(|(_, l)| l.starts_with("P\t"))
        .map(|(n, l)| (n + 1, l.split('\t').collect()))
        .collect()
}

#[test]
fn every_place_line_is_whole_and_names_its_source() {
    let mut slugs = HashSet::new();
    for (n, f) in place_lines() {
        assert_eq!(f.len(), 11, "line {n}: {} columns, want 11", f.len());
        assert!(slugs.insert(f[1]), "line {n}: slug {} twice", f[1]);
        assert!(PlaceKind::parse(f[3]).is_some(), "line {n}: kind {}", f[3]);
        let lat: f64 = f[4].parse().unwrap_or(f64::NAN);
        let lon: f64 = f[5].parse().unwrap_or(f64::NAN);
        assert!((-90.0..=90.0).contains(&lat), "line {n}: latitude {}", f[4]);
        assert!(
            (-180.0..=180.0).contains(&lon),
            "line {n}: longitude {}",
            f[5]
        );
        assert!(SOURCES.contains(&f[10]), "line {n}: source {:?}", f[10]);
        for name in std::iter::once(f[2]).chain(f[9].split('|')) {
            assert!(
                name.trim() == name,
                "line {n}: name {name:?} has spaces around it"
            );
        }
    }
}

/// Each bundled GeoNames place's position (towns and admin units), by country.
fn towns_by_country(g: &Gazetteer) -> HashMap<&str, Vec<(f64, f64)>> {
    let mut by: HashMap<&str, Vec<(f64, f64)>> = HashMap::new();
    for (_, e) in g.entries() {
        if !e.id.starts_with("cairn:") && e.kind != PlaceKind::Country {
            by.entry(e.country.as_str())
                .or_default()
                .push((e.lat, e.lon));
        }
    }
    by
}

#[test]
fn every_place_lies_in_its_country() {
    let g = Gazetteer::bundled();
    let towns = towns_by_country(&g);
    let mut far = Vec::new();
    for (n, f) in place_lines() {
        if f[3] == "region" {
            continue; // a region's point is its middle, which may be far from any town
        }
        let (lat, lon): (f64, f64) = (f[4].parse().unwrap(), f[5].parse().unwrap());
        let own = towns.get(f[6]).map(Vec::as_slice).unwrap_or_default();
        let nearest = own
            .iter()
            .map(|&(a, b)| haversine_km(lat, lon, a, b))
            .fold(f64::INFINITY, f64::min);
        let in_box = own.iter().any(|&(a, _)| a <= lat + BOX_MARGIN)
            && own.iter().any(|&(a, _)| a >= lat - BOX_MARGIN)
            && own.iter().any(|&(_, b)| b <= lon + BOX_MARGIN)
            && own.iter().any(|&(_, b)| b >= lon - BOX_MARGIN);
        if nearest > NEAR_TOWN_KM && !(in_box && nearest <= SPARSE_TOWN_KM) {
            far.push(format!("line {n} {} ({}): {nearest:.0} km", f[2], f[6]));
        }
    }
    assert!(
        far.is_empty(),
        "points far from every town of their country:\n{}",
        far.join("\n")
    );
}

#[test]
fn no_place_repeats_a_bundled_name_of_its_country() {
    let g = Gazetteer::bundled();
    let mut repeats = Vec::new();
    // Only towns and neighbourhoods placed by their admin unit alone: a row with a parent
    // places a known town inside a curated region on purpose, and a region or a landmark
    // may share a town's name (`Rio Grande`).
    for (n, f) in place_lines() {
        if !f[8].is_empty() || !matches!(f[3], "town" | "neighbourhood") {
            continue;
        }
        let (lat, lon): (f64, f64) = (f[4].parse().unwrap(), f[5].parse().unwrap());
        let clash = g.exact(f[2]).iter().any(|&i| {
            let e = g.entry(i);
            e.id.starts_with("geonames:")
                && e.country == f[6]
                && e.kind == PlaceKind::Town
                && fold(&e.name) == fold(f[2])
                && haversine_km(lat, lon, e.lat, e.lon) < SAME_PLACE_KM
        });
        if clash {
            repeats.push(format!("line {n} {} ({})", f[2], f[6]));
        }
    }
    assert!(
        repeats.is_empty(),
        "places the bundled data already has under that name:\n{}",
        repeats.join("\n")
    );
}

/// Words that name a kind of place, not one place: as a row's name they would place
/// every caption that says "the old city" or "the port".
const GENERIC: &[&str] = &[
    "old city",
    "the old city",
    "old town",
    "downtown",
    "city centre",
    "city center",
    "port",
    "harbour",
    "airport",
    "market",
    "camp",
    "square",
    "hospital",
    "university",
    "border",
    "crossing",
    "medina",
    "vieille ville",
    "centre-ville",
    "ciudad vieja",
    "casco antiguo",
    "altstadt",
    "innenstadt",
    "المدينة القديمة",
    "البلدة القديمة",
    "الميناء",
    "المطار",
    "السوق",
    "المخيم",
    "المستشفى",
    "وسط المدينة",
    "الحدود",
    "المعبر",
];

#[test]
fn no_place_is_named_by_a_kind_word() {
    let generic: HashSet<String> = GENERIC.iter().map(|g| fold(g)).collect();
    let mut found = Vec::new();
    for (n, f) in place_lines() {
        for name in std::iter::once(f[2]).chain(f[9].split('|')) {
            if generic.contains(&fold(name)) {
                found.push(format!("line {n} {}: {name:?}", f[1]));
            }
        }
    }
    assert!(found.is_empty(), "generic names:\n{}", found.join("\n"));
}
