//! Candidate pairs from a date bucket and a geographic cell, never from all pairs: a
//! caption meets only those of its day (or month) in its cell and the eight around it,
//! and a coarse location (a province, a country) meets its country's captions of the day.

use std::collections::{BTreeMap, BTreeSet};

use cairn_model::{PlaceKind, Precision, Record};

/// Cell size in degrees: wide enough that the largest reach of a place kind stays within
/// a cell's neighbours at any latitude where captions are set.
const CELL_DEG: f64 = 0.5;

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Area {
    Cell(i32, i32),
    Country(String),
}

fn date_keys(r: &Record) -> Option<(String, Option<String>)> {
    let d = r.date.as_ref()?;
    match d.precision {
        Precision::Day => Some((d.value.clone(), d.value.get(..7).map(str::to_owned))),
        Precision::Month => Some((d.value.clone(), None)),
        Precision::Year => None,
    }
}

fn cell(lat: f64, lon: f64) -> (i32, i32) {
    (
        (lat / CELL_DEG).floor() as i32,
        (lon / CELL_DEG).floor() as i32,
    )
}

/// Where a record is filed, and where it looks.
fn areas(r: &Record) -> Option<(Area, Vec<Area>)> {
    let p = r.location.as_ref()?;
    let country = p.country.clone().map(Area::Country);
    let coarse = p.kind.specificity_rank() > PlaceKind::Admin2.specificity_rank();
    let (y, x) = cell(p.lat, p.lon);
    let mut look: Vec<Area> = (-1..=1)
        .flat_map(|dy| (-1..=1).map(move |dx| Area::Cell(y + dy, x + dx)))
        .collect();
    look.extend(country.clone());
    let home = match (coarse, country) {
        (true, Some(c)) => c,
        _ => Area::Cell(y, x),
    };
    Some((home, look))
}

/// Pairs `(i, j)`, `i < j`, of records that may be one incident, sorted.
pub fn candidates(records: &[&Record]) -> Vec<(usize, usize)> {
    let mut filed: BTreeMap<(String, Area), Vec<usize>> = BTreeMap::new();
    let mut looks = Vec::with_capacity(records.len());
    for (i, r) in records.iter().enumerate() {
        let (Some(dates), Some((home, look))) = (date_keys(r), areas(r)) else {
            looks.push(None);
            continue;
        };
        filed.entry((dates.0.clone(), home)).or_default().push(i);
        looks.push(Some((dates, look)));
    }
    let mut pairs = BTreeSet::new();
    for (i, l) in looks.iter().enumerate() {
        let Some(((day, month), look)) = l else {
            continue;
        };
        for key in std::iter::once(day).chain(month.as_ref()) {
            for area in look {
                let Some(others) = filed.get(&(key.clone(), area.clone())) else {
                    continue;
                };
                pairs.extend(
                    others
                        .iter()
                        .filter(|&&j| j != i)
                        .map(|&j| (i.min(j), i.max(j))),
                );
            }
        }
    }
    pairs.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use cairn_model::{DateValue, Place, Span};

    fn at(day: &str, precision: Precision, kind: PlaceKind, lat: f64, lon: f64) -> Record {
        Record {
            date: Some(DateValue {
                value: day.into(),
                precision,
                text: String::new(),
                span: Span::new(0, 0),
            }),
            location: Some(Place {
                name: String::new(),
                text: String::new(),
                lat,
                lon,
                kind,
                admin1: None,
                country: Some("SY".into()),
                gazetteer_id: None,
                span: Span::new(0, 0),
                within: vec![],
                confidence: None,
                reason: None,
            }),
            ..Record::default()
        }
    }

    #[test]
    fn only_the_same_day_and_nearby_cells_meet() {
        let day = Precision::Day;
        let rs = [
            at("2018-02-20", day, PlaceKind::Town, 33.57, 36.40),
            at("2018-02-20", day, PlaceKind::Town, 33.56, 36.36),
            at("2018-02-21", day, PlaceKind::Town, 33.57, 36.40),
            at("2018-02-20", day, PlaceKind::Town, 36.20, 37.15),
            at("2018-02", Precision::Month, PlaceKind::Town, 33.57, 36.41),
            at("2018-02-20", day, PlaceKind::Country, 35.0, 38.0),
            at("2018", Precision::Year, PlaceKind::Town, 33.57, 36.40),
        ];
        let refs: Vec<&Record> = rs.iter().collect();
        let got = candidates(&refs);
        // 0-1: same day, next cell; 0-4, 1-4, 2-4: a month meets its days; the
        // country-wide record meets the day's records of its country; the year none.
        assert_eq!(
            got,
            vec![(0, 1), (0, 4), (0, 5), (1, 4), (1, 5), (2, 4), (3, 5)]
        );
    }
}
