//! Counting tables: what a search's facets, histogram and map count for each
//! document, decoded from the index once per segment and kept in memory as plain
//! arrays, so that counting a search's matches is an array read and an increment per
//! document instead of a decode of tantivy's compressed columns on every search.
//!
//! A segment never changes once written, so its table never goes stale; tables of
//! segments the current searcher no longer has are dropped at the next search. Each
//! part (facets, dates, positions) is built the first time a search needs it.
//! Memory per document: 1 byte per facet value (2 past 254 distinct values in a
//! segment, 4 past 65,534), 4
//! for the date, 16 for the position.

use std::sync::{Arc, Mutex};

use rustc_hash::FxHashMap;
use tantivy::collector::{Collector, SegmentCollector};
use tantivy::fastfield::FacetReader;
use tantivy::index::SegmentId;
use tantivy::{DocId, Score, SegmentOrdinal, SegmentReader};

use crate::aggregate::Counts;

/// The facet fields counted by a search, in the order of [`crate::views::Facets`]:
/// agency, photographer, country, event type, year, the top level of places, and
/// language, and review marks.
pub(crate) const FACET_FIELDS: [&str; 8] = [
    "f_agency",
    "f_photographer",
    "f_country",
    "f_event",
    "f_year",
    "f_place",
    "f_lang",
    "f_review",
];
/// Index in [`FACET_FIELDS`] of the hierarchical place facet, counted by its first
/// level (the other facets have one level).
const PLACE: usize = 5;
/// "No value" in a single-valued column.
const NONE: u32 = u32::MAX;
/// No date.
const NO_DAY: i32 = i32::MIN;
/// Segments whose dates span at most this many days count days in an array.
const MAX_DENSE_DAYS: i64 = 100_000;

/// The facet values of every document of a segment, row by row: each value of
/// each facet has a number (`names` says which facet and value it is) and a
/// document's row lists the numbers of its values, so that counting a document's
/// facets reads one short row (one cache line) rather than one column per facet.
struct FacetRows {
    /// Facet (index in [`FACET_FIELDS`]) and value of each number.
    names: Vec<(u8, String)>,
    /// `width` numbers per document, unused places `NONE`.
    rows: Rows,
    width: usize,
    /// The values of the few documents with more than `width` of them, beyond those.
    overflow: FxHashMap<DocId, Vec<u32>>,
}

enum Rows {
    /// Fewer than 255 distinct values: one byte each.
    Byte(Vec<u8>),
    /// Fewer than 65,535: two bytes each.
    Narrow(Vec<u16>),
    Wide(Vec<u32>),
}

/// Rows hold one byte per value below this many distinct values in a segment, two
/// below the next limit, else four (lower in unit tests, to try all three). The
/// greatest value of each width means "none".
const BYTE_VALUES: usize = if cfg!(test) { 8 } else { u8::MAX as usize };
const NARROW_VALUES: usize = if cfg!(test) { 16 } else { u16::MAX as usize };

/// Counts the numbers in a row but "none" (the greatest value of the width, which
/// `as` makes of `NONE`).
#[inline]
fn count_row<T: Copy + Into<u32>>(row: Option<&[T]>, counts: &mut [u64]) {
    for &n in row.unwrap_or_default() {
        let n: u32 = n.into();
        if let Some(c) = counts.get_mut(n as usize) {
            *c += 1;
        }
    }
}

/// A row is as wide as all but this fraction (1 / n) of the documents need (a
/// quarter in unit tests, so that their small segments overflow too).
const OVERFLOW_SHARE: usize = if cfg!(test) { 4 } else { 100 };

/// Numbers the values of facet `i` (appending new ones to `names`) and returns the
/// number of each term ordinal.
fn number_facet_values(
    reader: &FacetReader,
    i: usize,
    names: &mut Vec<(u8, String)>,
) -> tantivy::Result<Vec<u32>> {
    // Term ordinal -> number. Facets are sorted, so the facets sharing a
    // first level (places) are neighbours.
    let first = names.len();
    let mut number_of: Vec<u32> = Vec::with_capacity(reader.num_facets());
    let mut stream = reader.facet_dict().stream()?;
    while stream.advance() {
        // An encoded facet's levels are separated by a zero byte.
        let mut levels = stream.key().split(|&b| b == 0);
        let level = if i == PLACE {
            levels.next()
        } else {
            levels.next_back()
        };
        let name = String::from_utf8_lossy(level.unwrap_or_default());
        let same = i == PLACE
            && names.len() > first
            && names
                .last()
                .is_some_and(|(_, n)| n.as_str() == name.as_ref());
        if !same {
            names.push((i as u8, name.into_owned()));
        }
        number_of.push((names.len() - 1) as u32);
    }
    Ok(number_of)
}

/// Offsets and numbers of each document's values of one facet, distinct.
fn doc_numbers(reader: &FacetReader, number_of: &[u32], max_doc: usize) -> (Vec<u32>, Vec<u32>) {
    let mut offsets = Vec::with_capacity(max_doc + 1);
    let mut values = Vec::new();
    let mut doc_values: Vec<u32> = Vec::new();
    offsets.push(0u32);
    for doc in 0..max_doc as DocId {
        doc_values.clear();
        doc_values.extend(
            reader
                .facet_ords(doc)
                .filter_map(|o| number_of.get(o as usize).copied()),
        );
        doc_values.sort_unstable();
        doc_values.dedup();
        values.extend_from_slice(&doc_values);
        offsets.push(values.len() as u32);
    }
    (offsets, values)
}

/// The narrowest row that holds all values of all but 1% of the documents.
fn row_width(per_field: &[(Vec<u32>, Vec<u32>)], max_doc: usize) -> usize {
    let len = |doc: usize| -> usize {
        per_field
            .iter()
            .map(|(o, _)| (o[doc + 1] - o[doc]) as usize)
            .sum()
    };
    let mut by_len: Vec<usize> = Vec::new();
    for doc in 0..max_doc {
        let n = len(doc);
        if by_len.len() <= n {
            by_len.resize(n + 1, 0);
        }
        by_len[n] += 1;
    }
    let mut width = by_len.len().saturating_sub(1);
    let mut over = 0;
    while width > 0 && (over + by_len[width]) * OVERFLOW_SHARE <= max_doc {
        over += by_len[width];
        width -= 1;
    }
    width
}

/// Lays each document's numbers out in rows of `width`, the rest in the overflow.
fn fill_rows(
    per_field: &[(Vec<u32>, Vec<u32>)],
    max_doc: usize,
    width: usize,
) -> (Vec<u32>, FxHashMap<DocId, Vec<u32>>) {
    let mut wide = vec![NONE; max_doc * width];
    let mut overflow: FxHashMap<DocId, Vec<u32>> = FxHashMap::default();
    for doc in 0..max_doc {
        let mut k = 0;
        for (o, v) in per_field {
            for &n in &v[o[doc] as usize..o[doc + 1] as usize] {
                if k < width {
                    wide[doc * width + k] = n;
                    k += 1;
                } else {
                    overflow.entry(doc as DocId).or_default().push(n);
                }
            }
        }
    }
    (wide, overflow)
}

impl FacetRows {
    fn build(seg: &SegmentReader) -> tantivy::Result<Self> {
        let max_doc = seg.max_doc() as usize;
        let mut names: Vec<(u8, String)> = Vec::new();
        // Per facet: offsets and numbers of each document's values, distinct.
        let mut per_field: Vec<(Vec<u32>, Vec<u32>)> = Vec::with_capacity(FACET_FIELDS.len());
        for (i, field) in FACET_FIELDS.iter().enumerate() {
            let reader = seg.facet_reader(field)?;
            let number_of = number_facet_values(&reader, i, &mut names)?;
            per_field.push(doc_numbers(&reader, &number_of, max_doc));
        }
        let width = row_width(&per_field, max_doc);
        let (wide, overflow) = fill_rows(&per_field, max_doc, width);
        let rows = if names.len() < BYTE_VALUES {
            Rows::Byte(wide.iter().map(|&n| n as u8).collect())
        } else if names.len() < NARROW_VALUES {
            Rows::Narrow(wide.iter().map(|&n| n as u16).collect())
        } else {
            Rows::Wide(wide)
        };
        Ok(FacetRows {
            names,
            rows,
            width,
            overflow,
        })
    }

    #[inline]
    fn count(&self, doc: DocId, counts: &mut [u64]) {
        let (a, b) = (doc as usize * self.width, (doc as usize + 1) * self.width);
        match &self.rows {
            Rows::Byte(r) => count_row(r.get(a..b), counts),
            Rows::Narrow(r) => count_row(r.get(a..b), counts),
            Rows::Wide(r) => count_row(r.get(a..b), counts),
        }
        if !self.overflow.is_empty() {
            if let Some(more) = self.overflow.get(&doc) {
                for &n in more {
                    counts[n as usize] += 1;
                }
            }
        }
    }
}

/// First days (since 1970-01-01) of every document of a segment.
struct DayColumn {
    days: Vec<i32>,
    min: i64,
    max: i64,
}

impl DayColumn {
    fn build(seg: &SegmentReader) -> tantivy::Result<Self> {
        let col = seg.fast_fields().i64("date_start")?;
        let mut days = Vec::with_capacity(seg.max_doc() as usize);
        let (mut min, mut max) = (i64::MAX, i64::MIN);
        for doc in 0..seg.max_doc() {
            match col.first(doc) {
                Some(d) => {
                    let d = d.clamp(i64::from(NO_DAY) + 1, i64::from(i32::MAX));
                    min = min.min(d);
                    max = max.max(d);
                    days.push(d as i32);
                }
                None => days.push(NO_DAY),
            }
        }
        Ok(DayColumn { days, min, max })
    }
}

/// Positions of every document of a segment (NaN for none).
struct GeoColumn {
    lat: Vec<f64>,
    lon: Vec<f64>,
}

impl GeoColumn {
    fn build(seg: &SegmentReader) -> tantivy::Result<Self> {
        let ff = seg.fast_fields();
        let (lat_col, lon_col) = (ff.f64("lat")?, ff.f64("lon")?);
        let n = seg.max_doc() as usize;
        let (mut lat, mut lon) = (Vec::with_capacity(n), Vec::with_capacity(n));
        for doc in 0..seg.max_doc() {
            match (lat_col.first(doc), lon_col.first(doc)) {
                (Some(a), Some(o)) => {
                    lat.push(a);
                    lon.push(o);
                }
                _ => {
                    lat.push(f64::NAN);
                    lon.push(f64::NAN);
                }
            }
        }
        Ok(GeoColumn { lat, lon })
    }
}

/// One segment's table; each part is built when first needed.
#[derive(Default)]
struct SegmentTable {
    facets: Mutex<Option<Arc<FacetRows>>>,
    days: Mutex<Option<Arc<DayColumn>>>,
    geo: Mutex<Option<Arc<GeoColumn>>>,
}

/// Builds a part under its lock (concurrent searches wait for one build).
fn part<T>(
    slot: &Mutex<Option<Arc<T>>>,
    build: impl FnOnce() -> tantivy::Result<T>,
) -> tantivy::Result<Arc<T>> {
    let mut g = crate::poison::lock(slot);
    if let Some(t) = g.as_ref() {
        return Ok(t.clone());
    }
    let t = Arc::new(build()?);
    *g = Some(t.clone());
    Ok(t)
}

impl SegmentTable {
    fn facets(&self, seg: &SegmentReader) -> tantivy::Result<Arc<FacetRows>> {
        part(&self.facets, || FacetRows::build(seg))
    }

    fn days(&self, seg: &SegmentReader) -> tantivy::Result<Arc<DayColumn>> {
        part(&self.days, || DayColumn::build(seg))
    }

    fn geo(&self, seg: &SegmentReader) -> tantivy::Result<Arc<GeoColumn>> {
        part(&self.geo, || GeoColumn::build(seg))
    }
}

/// The tables of the segments searched lately.
#[derive(Default)]
pub(crate) struct Tables {
    segments: Mutex<FxHashMap<SegmentId, Arc<SegmentTable>>>,
}

impl Tables {
    fn get(&self, id: SegmentId) -> Arc<SegmentTable> {
        let mut m = crate::poison::lock(&self.segments);
        m.entry(id).or_default().clone()
    }

    /// Drops the tables of segments not in `live`.
    pub fn retain(&self, live: &[SegmentId]) {
        let mut m = crate::poison::lock(&self.segments);
        m.retain(|id, _| live.contains(id));
    }
}

/// What to count over a search's matches.
pub(crate) struct Tally {
    pub tables: Arc<Tables>,
    pub facets: bool,
    pub histogram: bool,
    /// Map cell size in degrees, when the map grid is asked for.
    pub cell: Option<f64>,
}

pub(crate) struct SegmentTally {
    facets: Option<(Arc<FacetRows>, Vec<u64>)>,
    days: Option<(Arc<DayColumn>, DayCounts)>,
    geo: Option<(Arc<GeoColumn>, f64)>,
    counts: Counts,
}

/// Day counts of one segment: an array over the segment's span of days, or a map
/// when the span is too wide for one.
enum DayCounts {
    Dense(Vec<u64>),
    Sparse(FxHashMap<i64, u64>),
}

impl SegmentCollector for SegmentTally {
    type Fruit = Counts;

    fn collect(&mut self, doc: DocId, _score: Score) {
        if let Some((rows, counts)) = &mut self.facets {
            rows.count(doc, counts);
        }
        if let Some((col, counts)) = &mut self.days {
            match col.days.get(doc as usize) {
                Some(&d) if d != NO_DAY => match counts {
                    DayCounts::Dense(v) => v[(i64::from(d) - col.min) as usize] += 1,
                    DayCounts::Sparse(m) => *m.entry(i64::from(d)).or_default() += 1,
                },
                _ => self.counts.undated += 1,
            }
        }
        if let Some((col, cell)) = &self.geo {
            let d = doc as usize;
            match (col.lat.get(d), col.lon.get(d)) {
                (Some(&lat), Some(&lon)) if !lat.is_nan() && !lon.is_nan() => {
                    self.counts.add_position(lat, lon, *cell)
                }
                _ => self.counts.unlocated += 1,
            }
        }
    }

    fn harvest(mut self) -> Counts {
        if let Some((rows, counts)) = self.facets {
            let mut all: Vec<FxHashMap<String, u64>> =
                vec![FxHashMap::default(); FACET_FIELDS.len()];
            for ((field, name), n) in rows.names.iter().zip(counts) {
                if n > 0 {
                    all[usize::from(*field)].insert(name.clone(), n);
                }
            }
            self.counts.facets = Some(all);
        }
        if let Some((col, counts)) = self.days {
            match counts {
                DayCounts::Dense(v) => {
                    for (i, n) in v.into_iter().enumerate() {
                        if n > 0 {
                            *self.counts.days.entry(col.min + i as i64).or_default() += n;
                        }
                    }
                }
                DayCounts::Sparse(m) => {
                    for (d, n) in m {
                        *self.counts.days.entry(d).or_default() += n;
                    }
                }
            }
        }
        self.counts
    }
}

impl Collector for Tally {
    type Fruit = Counts;
    type Child = SegmentTally;

    fn for_segment(
        &self,
        _segment_local_id: SegmentOrdinal,
        segment: &SegmentReader,
    ) -> tantivy::Result<SegmentTally> {
        let table = self.tables.get(segment.segment_id());
        let facets = if self.facets {
            let rows = table.facets(segment)?;
            let counts = vec![0; rows.names.len()];
            Some((rows, counts))
        } else {
            None
        };
        let days = if self.histogram {
            let col = table.days(segment)?;
            let counts = if col.max >= col.min && col.max - col.min < MAX_DENSE_DAYS {
                DayCounts::Dense(vec![0; (col.max - col.min + 1) as usize])
            } else {
                DayCounts::Sparse(FxHashMap::default())
            };
            Some((col, counts))
        } else {
            None
        };
        let geo = match self.cell {
            Some(cell) => Some((table.geo(segment)?, cell)),
            None => None,
        };
        Ok(SegmentTally {
            facets,
            days,
            geo,
            counts: Counts::default(),
        })
    }

    fn requires_scoring(&self) -> bool {
        false
    }

    fn merge_fruits(&self, fruits: Vec<Counts>) -> tantivy::Result<Counts> {
        let mut all = Counts::default();
        for f in fruits {
            all.merge(f);
        }
        Ok(all)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, BTreeSet};

    use cairn_model::{Credit, DateValue, Place, PlaceKind, Precision, Record, Span};
    use proptest::prelude::*;
    use tantivy::collector::FacetCollector;
    use tantivy::query::AllQuery;
    use tantivy::schema::Facet;

    use crate::index::{IndexDoc, SearchIndex};
    use crate::views::{FacetCount, Filters, SearchRequest, Sort};

    const AGENCIES: [&str; 4] = ["AFP", "Reuters", "AP", "Getty Images"];
    const PEOPLE: [&str; 3] = ["Omar Sanadiki", "Lina Sabbagh", "Ann Lee"];
    const PLACES: [(&str, &str, f64, f64); 4] = [
        ("SY", "SY-Aleppo", 36.2, 37.15),
        ("SY", "SY-Damascus", 33.5, 36.3),
        ("UA", "UA-Kyiv", 50.45, 30.52),
        ("FR", "", 46.0, 2.0),
    ];
    const EVENTS: [&str; 3] = ["protest", "air strike", "funeral"];

    /// A record drawn from small value sets: agencies, photographers, a place, events
    /// and a date, each possibly missing, several agencies or events possible.
    fn record() -> impl Strategy<Value = Record> {
        (
            proptest::option::of((0..4usize, proptest::option::of(0..4usize))),
            proptest::collection::vec(0..3usize, 0..3),
            proptest::option::of(0..4usize),
            proptest::collection::vec(0..3usize, 0..3),
            proptest::option::of((1990i16..2026, 1i8..13, 1i8..29)),
        )
            .prop_map(|(credit, people, place, events, date)| {
                let mut r = Record {
                    text: "a caption".into(),
                    ..Record::default()
                };
                r.credit = credit.map(|(a, d)| Credit {
                    raw: String::new(),
                    photographers: people.iter().map(|&p| PEOPLE[p].to_string()).collect(),
                    agency: Some(AGENCIES[a].to_string()),
                    distributor: d.map(|d| AGENCIES[d].to_string()),
                    span: Span::new(0, 0),
                    flags: Vec::new(),
                });
                r.location = place.map(|p| {
                    let (cc, id, lat, lon) = PLACES[p];
                    Place {
                        name: id.to_string(),
                        text: id.to_string(),
                        lat,
                        lon,
                        kind: PlaceKind::Town,
                        admin1: None,
                        country: Some(cc.to_string()),
                        gazetteer_id: (!id.is_empty()).then(|| id.to_string()),
                        span: Span::new(0, 0),
                        within: vec![cc.to_string()],
                        confidence: None,
                        reason: None,
                    }
                });
                r.event_types = events.iter().map(|&e| EVENTS[e].to_string()).collect();
                r.date = date.map(|(y, m, d)| DateValue {
                    value: format!("{y:04}-{m:02}-{d:02}"),
                    precision: Precision::Day,
                    text: String::new(),
                    span: Span::new(0, 0),
                });
                r
            })
    }

    fn sorted(mut v: Vec<FacetCount>) -> Vec<(String, u64)> {
        v.sort_by(|a, b| a.value.cmp(&b.value));
        v.into_iter().map(|c| (c.value, c.count)).collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]

        /// Counting from the tables gives what tantivy's own facet collector and a
        /// plain count over the live records give, across several segments with
        /// updated (deleted and re-added) documents, and again after a merge.
        #[test]
        fn tables_count_like_the_records(
            batches in proptest::collection::vec(
                proptest::collection::vec((0u64..40, record()), 1..25), 1..5),
        ) {
            let dir = tempfile::tempdir().unwrap();
            let index = SearchIndex::open_or_create(dir.path()).unwrap();
            let mut live: BTreeMap<u64, Record> = BTreeMap::new();
            let mut w = index.writer().ok().unwrap();
            for (seq, batch) in batches.iter().enumerate() {
                for (id, r) in batch {
                    index.add(&w, IndexDoc {
                        id: *id,
                        text: r.text.clone().into(),
                        record: Some(std::borrow::Cow::Owned(r.clone())),
                        marks: Vec::new(),
                    }, true).unwrap();
                    live.insert(*id, r.clone());
                }
                index.commit(&mut w, seq as i64).unwrap();
            }
            let req = SearchRequest {
                query: String::new(),
                filters: Filters::default(),
                limit: 10,
                offset: 0,
                sort: Sort::Relevance,
                facets: true,
                histogram: true,
                geo_zoom: Some(0),
            };
            for round in 0..2 {
                let m = index.search(&AllQuery, &req, &crate::Stop::new()).unwrap();
                prop_assert_eq!(m.total, live.len());
                let facets = m.facets.unwrap();
                // Tantivy's facet collector on the same searcher.
                let searcher = index.reader_for_tests().searcher();
                for (name, got) in [
                    ("f_agency", &facets.agency),
                    ("f_photographer", &facets.photographer),
                    ("f_country", &facets.country),
                    ("f_event", &facets.event_type),
                    ("f_year", &facets.year),
                    ("f_place", &facets.place),
                    ("f_lang", &facets.lang),
                    ("f_review", &facets.review),
                ] {
                    let mut c = FacetCollector::for_field(name);
                    c.add_facet("/");
                    let counts = searcher.search(&AllQuery, &c).unwrap();
                    let want: Vec<(String, u64)> = counts
                        .get(Facet::root())
                        .map(|(f, n)| (f.to_path().last().unwrap().to_string(), n))
                        .collect();
                    prop_assert_eq!(sorted(got.clone()), want, "{} in round {}", name, round);
                }
                // Agencies by hand: agency and distributor, once per caption.
                let mut agencies: BTreeMap<String, u64> = BTreeMap::new();
                for r in live.values() {
                    if let Some(c) = &r.credit {
                        let set: BTreeSet<&String> =
                            c.agency.iter().chain(c.distributor.iter()).collect();
                        for a in set {
                            *agencies.entry(a.clone()).or_default() += 1;
                        }
                    }
                }
                prop_assert_eq!(sorted(facets.agency.clone()), agencies.into_iter().collect::<Vec<_>>());
                // Days, undated, located and unlocated by hand.
                let h = m.histogram.unwrap();
                let dated = live.values().filter(|r| r.date.is_some()).count() as u64;
                prop_assert_eq!(h.undated, live.len() as u64 - dated);
                prop_assert_eq!(h.buckets.iter().map(|b| b.count).sum::<u64>(), dated);
                let geo = m.geo.unwrap();
                let located = live.values().filter(|r| r.location.is_some()).count() as u64;
                prop_assert_eq!(geo.unlocated, live.len() as u64 - located);
                prop_assert_eq!(geo.cells.iter().map(|c| c.count).sum::<u64>(), located);
                // Each year's bucket holds the captions of that year.
                if h.interval == "year" {
                    for b in &h.buckets {
                        let n = live.values().filter(|r| r.date.as_ref().is_some_and(|d| d.value.starts_with(&b.key))).count() as u64;
                        prop_assert_eq!(b.count, n, "year {}", &b.key);
                    }
                }
                // Round two: everything merged into one segment.
                index.compact(&mut w, 1).unwrap();
            }
        }
    }
}
