//! What a search counts over all its matches (facets, the date histogram, the map
//! grid), merged from the segments' counts (see `table.rs` for the counting).

use rustc_hash::FxHashMap;

use crate::busiest::Busiest;
use crate::days::epoch_date;
use crate::views::{Bucket, FacetCount, Facets, GeoCell, GeoGrid, Histogram};

/// The most cells one answer carries (the busiest ones).
const MAX_CELLS: usize = 10_000;
/// A histogram spanning at most this many days counts days.
const MAX_DAY_SPAN: i64 = 62;
/// A histogram spanning at most this many days counts months (else years).
const MAX_MONTH_SPAN: i64 = 6 * 366;
/// Zoom levels beyond this are treated as this one.
pub(crate) const MAX_ZOOM: u8 = 20;

/// The cell size in degrees at a zoom level: 16 cells across the world at zoom 0,
/// twice as many at each level.
pub(crate) fn cell_degrees(zoom: u8) -> f64 {
    360.0 / (16.0 * f64::from(1u32 << zoom.min(MAX_ZOOM)))
}

#[derive(Debug, Clone, Copy)]
pub(crate) struct CellAcc {
    n: u64,
    lat: f64,
    lon: f64,
    west: f64,
    south: f64,
    east: f64,
    north: f64,
    /// The places most of the cell's matches stand at (see `Busiest`).
    busiest: Busiest,
}

impl CellAcc {
    fn new() -> Self {
        CellAcc {
            n: 0,
            lat: 0.0,
            lon: 0.0,
            west: f64::INFINITY,
            south: f64::INFINITY,
            east: f64::NEG_INFINITY,
            north: f64::NEG_INFINITY,
            busiest: Busiest::default(),
        }
    }

    fn add(&mut self, lat: f64, lon: f64) {
        self.busiest.add((lat, lon), 1);
        self.n += 1;
        self.lat += lat;
        self.lon += lon;
        self.west = self.west.min(lon);
        self.east = self.east.max(lon);
        self.south = self.south.min(lat);
        self.north = self.north.max(lat);
    }

    fn merge(&mut self, o: &CellAcc) {
        self.busiest.merge(&o.busiest);
        self.n += o.n;
        self.lat += o.lat;
        self.lon += o.lon;
        self.west = self.west.min(o.west);
        self.east = self.east.max(o.east);
        self.south = self.south.min(o.south);
        self.north = self.north.max(o.north);
    }
}

/// Counts from one or more segments.
#[derive(Debug, Default)]
pub(crate) struct Counts {
    /// Per facet field (in `table::FACET_FIELDS` order), matches per value.
    pub facets: Option<Vec<FxHashMap<String, u64>>>,
    pub days: FxHashMap<i64, u64>,
    pub undated: u64,
    cells: FxHashMap<(i32, i32), CellAcc>,
    pub unlocated: u64,
}

/// The values of one facet with their counts, most frequent first, then by value.
fn facet_list(counts: Option<&FxHashMap<String, u64>>) -> Vec<FacetCount> {
    most_frequent_first(
        counts
            .into_iter()
            .flatten()
            .map(|(value, &count)| FacetCount {
                value: value.clone(),
                count,
            })
            .collect(),
    )
}

/// Facet values in the order every facet list is shown: most frequent first, then by
/// value.
pub(crate) fn most_frequent_first(mut v: Vec<FacetCount>) -> Vec<FacetCount> {
    v.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.value.cmp(&b.value)));
    v
}

impl Counts {
    /// Counts a located match in its map cell of `cell` degrees.
    #[inline]
    pub fn add_position(&mut self, lat: f64, lon: f64, cell: f64) {
        let key = (
            ((lon + 180.0) / cell).floor() as i32,
            ((lat + 90.0) / cell).floor() as i32,
        );
        self.cells
            .entry(key)
            .or_insert_with(CellAcc::new)
            .add(lat, lon);
    }

    pub fn merge(&mut self, o: Counts) {
        if let Some(of) = o.facets {
            let mine = self
                .facets
                .get_or_insert_with(|| vec![FxHashMap::default(); of.len()]);
            for (m, f) in mine.iter_mut().zip(of) {
                for (value, n) in f {
                    *m.entry(value).or_default() += n;
                }
            }
        }
        for (d, n) in o.days {
            *self.days.entry(d).or_default() += n;
        }
        self.undated += o.undated;
        for (k, c) in o.cells {
            self.cells.entry(k).or_insert_with(CellAcc::new).merge(&c);
        }
        self.unlocated += o.unlocated;
    }

    /// The facet counts, if they were counted.
    pub fn facets(&self) -> Option<Facets> {
        let f = self.facets.as_ref()?;
        let list = |i: usize| facet_list(f.get(i));
        let mut year = list(4);
        year.sort_by(|a, b| a.value.cmp(&b.value));
        Some(Facets {
            agency: list(0),
            photographer: list(1),
            country: list(2),
            event_type: list(3),
            year,
            place: list(5),
            lang: list(6),
            review: list(7),
        })
    }

    /// The histogram: days, months or years from the first to the last dated match.
    pub fn histogram(&self) -> Histogram {
        let (Some(&min), Some(&max)) = (self.days.keys().min(), self.days.keys().max()) else {
            return Histogram {
                interval: "day".into(),
                buckets: Vec::new(),
                undated: self.undated,
            };
        };
        let span = max - min;
        let interval = if span <= MAX_DAY_SPAN {
            Interval::Day
        } else if span <= MAX_MONTH_SPAN {
            Interval::Month
        } else {
            Interval::Year
        };
        let mut buckets: Vec<Bucket> = Vec::new();
        let mut day = epoch_date(min);
        let last = epoch_date(max);
        while day <= last {
            let (from, to) = interval.period(day);
            buckets.push(Bucket {
                key: interval.key(from),
                from: from.to_string(),
                to: to.to_string(),
                count: 0,
            });
            match to.tomorrow() {
                Ok(next) => day = next,
                Err(_) => break,
            }
        }
        // Bucket starts in order, to place each day by binary search.
        let starts: Vec<jiff::civil::Date> = buckets
            .iter()
            .map(|b| b.from.parse().unwrap_or(jiff::civil::Date::MIN))
            .collect();
        for (&d, &n) in &self.days {
            let date = epoch_date(d);
            let i = starts.partition_point(|s| *s <= date).saturating_sub(1);
            if let Some(b) = buckets.get_mut(i) {
                b.count += n;
            }
        }
        Histogram {
            interval: interval.name().into(),
            buckets,
            undated: self.undated,
        }
    }

    /// The map grid at a zoom level.
    pub fn grid(&self, zoom: u8) -> GeoGrid {
        let mut cells: Vec<GeoCell> = self
            .cells
            .values()
            .map(|c| {
                let (lat, lon) = (c.lat / c.n as f64, c.lon / c.n as f64);
                GeoCell {
                    lat,
                    lon,
                    count: c.n,
                    bbox: [c.west, c.south, c.east, c.north],
                    at: c.busiest.top().map_or([lat, lon], |(a, b)| [a, b]),
                }
            })
            .collect();
        cells.sort_by(|a, b| {
            b.count
                .cmp(&a.count)
                .then(a.lat.total_cmp(&b.lat))
                .then(a.lon.total_cmp(&b.lon))
        });
        cells.truncate(MAX_CELLS);
        GeoGrid {
            zoom: zoom.min(MAX_ZOOM),
            cell_degrees: cell_degrees(zoom),
            cells,
            unlocated: self.unlocated,
        }
    }
}

#[derive(Clone, Copy)]
enum Interval {
    Day,
    Month,
    Year,
}

impl Interval {
    fn name(self) -> &'static str {
        match self {
            Interval::Day => "day",
            Interval::Month => "month",
            Interval::Year => "year",
        }
    }

    fn period(self, d: jiff::civil::Date) -> (jiff::civil::Date, jiff::civil::Date) {
        match self {
            Interval::Day => (d, d),
            Interval::Month => (d.first_of_month(), d.last_of_month()),
            Interval::Year => (d.first_of_year(), d.last_of_year()),
        }
    }

    fn key(self, from: jiff::civil::Date) -> String {
        match self {
            Interval::Day => from.to_string(),
            Interval::Month => format!("{:04}-{:02}", from.year(), from.month()),
            Interval::Year => format!("{:04}", from.year()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::days::epoch_days;

    fn counts(days: &[(&str, u64)]) -> Counts {
        let mut c = Counts::default();
        for (d, n) in days {
            c.days.insert(epoch_days(d.parse().unwrap()), *n);
        }
        c
    }

    #[test]
    fn short_spans_count_days_with_empty_days_between() {
        let h = counts(&[("2016-11-06", 2), ("2016-11-09", 1)]).histogram();
        assert_eq!(h.interval, "day");
        let keys: Vec<_> = h
            .buckets
            .iter()
            .map(|b| (b.key.as_str(), b.count))
            .collect();
        assert_eq!(
            keys,
            [
                ("2016-11-06", 2),
                ("2016-11-07", 0),
                ("2016-11-08", 0),
                ("2016-11-09", 1)
            ]
        );
    }

    #[test]
    fn longer_spans_count_months_then_years() {
        let h = counts(&[("2016-01-31", 1), ("2016-03-01", 2), ("2016-12-31", 4)]).histogram();
        assert_eq!(h.interval, "month");
        assert_eq!(h.buckets.len(), 12);
        assert_eq!(h.buckets[0].from, "2016-01-01");
        assert_eq!(h.buckets[0].to, "2016-01-31");
        assert_eq!(h.buckets[2].count, 2);
        assert_eq!(h.buckets[11].count, 4);
        assert_eq!(h.buckets.iter().map(|b| b.count).sum::<u64>(), 7);
        let h = counts(&[("1999-05-01", 1), ("2016-03-01", 2)]).histogram();
        assert_eq!(h.interval, "year");
        assert_eq!(h.buckets.len(), 18);
        assert_eq!(h.buckets[17].key, "2016");
    }

    #[test]
    fn cells_halve_with_each_zoom() {
        assert_eq!(cell_degrees(0), 22.5);
        assert_eq!(cell_degrees(1), 11.25);
        assert_eq!(cell_degrees(200), cell_degrees(MAX_ZOOM));
    }
}
