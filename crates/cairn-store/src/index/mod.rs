//! The tantivy index: one document per caption, rebuilt from SQLite at will.
//!
//! Each commit carries a payload `v{SCHEMA}:{seq}` naming the last database batch it
//! reflects, so a writer that opens the archive after a crash indexes exactly the
//! captions changed since. `schema` says what a caption's document holds, `analyzers`
//! (with `arabic`) how its words are read, `build` how a search becomes a query.

mod analyzers;
mod arabic;
mod build;
mod cyrillic;
mod english;
mod named;
mod schema;
mod spellings;

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use cairn_gazetteer::Gazetteer;
use cairn_model::Record;
use tantivy::collector::{Count, FacetCollector, TopDocs};
use tantivy::columnar::Column;
use tantivy::query::Query;
use tantivy::schema::Facet;
use tantivy::tokenizer::TextAnalyzer;
use tantivy::{Index, IndexReader, IndexWriter, Order, ReloadPolicy, TantivyDocument, Term};

pub(crate) use build::Built;
pub(crate) use schema::{Fields, date_extent};
use schema::{LANGS, SCHEMA_VERSION, schema};

use crate::aggregate::{cell_degrees, most_frequent_first};
use crate::directory::IndexDirectory;
use crate::stop::{Stop, Stoppable};
use crate::table::{Tables, Tally};
use crate::views::{FacetCount, Facets, GeoGrid, Histogram, SearchRequest, Sort};
use crate::{Error, Result};

/// The children of `parent` with their counts, most frequent first, then by value.
fn facet_counts(counts: &tantivy::collector::FacetCounts, parent: Facet) -> Vec<FacetCount> {
    most_frequent_first(
        counts
            .get(parent)
            .map(|(f, n)| FacetCount {
                value: f
                    .to_path()
                    .last()
                    .map(|s| s.to_string())
                    .unwrap_or_default(),
                count: n,
            })
            .collect(),
    )
}

pub(crate) struct SearchIndex {
    path: PathBuf,
    index: Index,
    /// Reloads by itself shortly after each commit (tantivy watches the index), so
    /// searches do not check for new commits themselves.
    reader: IndexReader,
    pub fields: Fields,
    /// Counting tables of the segments searched lately.
    tables: Arc<Tables>,
    /// The text's analyzer (for the words of a query's exact phrases).
    analyzer: TextAnalyzer,
    /// The gazetteer whose names of places a query's words may be, loaded by the
    /// first search that has words.
    places: OnceLock<Arc<Gazetteer>>,
}

impl std::fmt::Debug for SearchIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SearchIndex")
            .field("path", &self.path)
            .finish()
    }
}

pub(crate) enum WriterError {
    Busy,
    Other(Error),
}

/// One caption as the index sees it.
pub(crate) struct IndexDoc<'a> {
    pub id: u64,
    /// The texts of all its variants, one per line.
    pub text: std::borrow::Cow<'a, str>,
    /// Its canonical record.
    pub record: Option<std::borrow::Cow<'a, Record>>,
    /// Its review marks (`crate::review::marks`).
    pub marks: Vec<&'static str>,
}

/// The caption id of a matching document, from the segments' id columns.
fn caption_id(columns: &[Column<u64>], addr: tantivy::DocAddress) -> Option<u64> {
    columns
        .get(addr.segment_ord as usize)
        .and_then(|c| c.first(addr.doc_id))
}

/// One search's matches.
pub(crate) struct Matches {
    pub hits: Vec<(u64, f32)>,
    pub total: usize,
    pub facets: Option<Facets>,
    pub histogram: Option<Histogram>,
    pub geo: Option<GeoGrid>,
}

/// Segments of more documents than this are left out of the merges the index writer
/// makes in the background (compaction, at the end of an ingest, merges them all).
pub(crate) const BACKGROUND_MERGE_MAX_DOCS: usize = 65_536;

/// How the index writer merges segments as it goes: tantivy's log merge policy (eight
/// segments of about the same size at a time), but only of segments of at most
/// [`BACKGROUND_MERGE_MAX_DOCS`] documents. A merge maps its segments' files and reads
/// them through, so they count in the process's resident memory while it runs: with no
/// bound, a merge late in a large ingest maps its biggest segments on top of the
/// batches' memory (and merges the same documents again, for a segment that the
/// compaction at the end merges once more anyway).
pub(crate) fn background_merge_policy() -> tantivy::indexer::LogMergePolicy {
    let mut p = tantivy::indexer::LogMergePolicy::default();
    p.set_max_docs_before_merge(BACKGROUND_MERGE_MAX_DOCS);
    p
}

/// A merge of the index's segments under way ([`SearchIndex::start_compaction`]).
pub(crate) struct Merging(tantivy::FutureResult<Option<tantivy::index::SegmentMeta>>);

impl SearchIndex {
    /// A search failure: about the query (a field that does not exist...) or the index.
    fn search_err(&self, e: tantivy::TantivyError) -> Error {
        match e {
            tantivy::TantivyError::FieldNotFound(f) => Error::Query(format!(
                "captions have no field {f:?} (search the text, or use the filters)"
            )),
            tantivy::TantivyError::InvalidArgument(m) => Error::Query(m),
            // `text:*` (a field exists) asks a field kind the query cannot use.
            tantivy::TantivyError::SchemaError(m) => Error::Query(format!(
                "{m} (field:* is not supported; search words instead)"
            )),
            other => self.err(other),
        }
    }

    fn err(&self, e: impl std::fmt::Display) -> Error {
        Error::Index {
            path: self.path.clone(),
            message: e.to_string(),
        }
    }

    /// Opens the index in `path`, creating it (or re-creating it, when its schema is
    /// stale or it is unreadable) as an empty index that the next sync fills.
    #[cfg(test)]
    pub fn open_or_create(path: &Path) -> Result<Self> {
        if let Some(index) = Self::open_for_writer(path)? {
            return Ok(index);
        }
        let io = |source| Error::Io {
            path: path.to_path_buf(),
            source,
        };
        std::fs::remove_dir_all(path).map_err(io)?;
        Self::create(path)
    }

    /// Creates an empty index in `path` (a directory that must not hold one).
    pub fn create(path: &Path) -> Result<Self> {
        let (schema, fields) = schema();
        let err = |e: &dyn std::fmt::Display| Error::Index {
            path: path.to_path_buf(),
            message: e.to_string(),
        };
        std::fs::create_dir_all(path).map_err(|source| Error::Io {
            path: path.to_path_buf(),
            source,
        })?;
        let dir = IndexDirectory::open(path).map_err(|e| err(&e))?;
        let index =
            Index::create(dir, schema, tantivy::IndexSettings::default()).map_err(|e| err(&e))?;
        Self::finish(path, index, fields)
    }

    /// Opens the index in `path` for a writer: creates it when there is none, and gives
    /// `None` when the one there cannot serve (unreadable, another schema, or committed
    /// by another version of cairn), to be rebuilt beside it while readers keep it.
    pub fn open_for_writer(path: &Path) -> Result<Option<Self>> {
        if !path.join("meta.json").exists() {
            return Self::create(path).map(Some);
        }
        let Ok(index) = Self::open_existing(path) else {
            return Ok(None);
        };
        let metas = index.index.load_metas().map_err(|e| index.err(e))?;
        let current = match metas.payload.as_deref() {
            None => true,
            Some(p) => p
                .split_once(':')
                .is_some_and(|(v, _)| v == format!("v{SCHEMA_VERSION}")),
        };
        Ok(current.then_some(index))
    }

    /// Opens an index that must exist (readers never create one). A reader that opens
    /// it while a rebuilt index is being swapped in may find files of both: it tries
    /// again.
    pub fn open_existing(path: &Path) -> Result<Self> {
        let mut tries = 0;
        loop {
            match Self::open_existing_once(path) {
                Err(Error::Index { .. }) if tries < 3 && path.join("meta.json").exists() => {
                    tries += 1;
                    std::thread::sleep(std::time::Duration::from_millis(50));
                }
                other => return other,
            }
        }
    }

    fn open_existing_once(path: &Path) -> Result<Self> {
        let (schema, fields) = schema();
        let dir = IndexDirectory::open(path).map_err(|e| Error::Index {
            path: path.to_path_buf(),
            message: format!("{e} (`cairn check --repair` rebuilds it)"),
        })?;
        let index = Index::open(dir).map_err(|e| Error::Index {
            path: path.to_path_buf(),
            message: format!("{e} (`cairn check --repair` rebuilds it)"),
        })?;
        if index.schema() != schema {
            return Err(Error::Index {
                path: path.to_path_buf(),
                message:
                    "the index was built by another version of cairn; `cairn reindex` rebuilds it"
                        .into(),
            });
        }
        Self::finish(path, index, fields)
    }

    fn finish(path: &Path, index: Index, fields: Fields) -> Result<Self> {
        let analyzer = analyzers::register(&index);
        let reader = index
            .reader_builder()
            .reload_policy(ReloadPolicy::OnCommitWithDelay)
            .try_into()
            .map_err(|e: tantivy::TantivyError| Error::Index {
                path: path.to_path_buf(),
                message: e.to_string(),
            })?;
        Ok(SearchIndex {
            path: path.to_path_buf(),
            index,
            reader,
            fields,
            tables: Arc::default(),
            analyzer,
            places: OnceLock::new(),
        })
    }

    /// The gazetteer of the archive the index belongs to (with the places it imported,
    /// if any), else the bundled one.
    fn places(&self) -> &Gazetteer {
        self.places.get_or_init(|| {
            self.path
                .parent()
                .and_then(|dir| Gazetteer::for_archive(dir).ok())
                .unwrap_or_else(Gazetteer::bundled)
        })
    }

    pub fn writer(&self) -> Result<IndexWriter, WriterError> {
        match self
            .index
            .writer_with_num_threads::<TantivyDocument>(1, 64 * 1024 * 1024)
        {
            Ok(w) => {
                w.set_merge_policy(Box::new(background_merge_policy()));
                Ok(w)
            }
            Err(tantivy::TantivyError::LockFailure(..)) => Err(WriterError::Busy),
            Err(e) => Err(WriterError::Other(self.err(e))),
        }
    }

    /// The database batch the last commit reflects, or `None` when the index must be
    /// rebuilt from scratch (new, or written by another schema version).
    pub fn indexed_seq(&self) -> Result<Option<i64>> {
        let metas = self.index.load_metas().map_err(|e| self.err(e))?;
        let Some(payload) = metas.payload else {
            return Ok(None);
        };
        let Some((v, seq)) = payload.split_once(':') else {
            return Ok(None);
        };
        if v != format!("v{SCHEMA_VERSION}") {
            return Ok(None);
        }
        Ok(seq.parse().ok())
    }

    /// Gives the writer a caption's entry; `replaces` when the index may hold an older
    /// entry of it (deleted first).
    pub fn add(&self, w: &IndexWriter, doc: IndexDoc<'_>, replaces: bool) -> Result<()> {
        let f = &self.fields;
        if replaces {
            w.delete_term(Term::from_field_u64(f.id, doc.id));
        }
        let mut d = TantivyDocument::default();
        d.add_u64(f.id, doc.id);
        d.add_text(f.text, &doc.text);
        d.add_text(f.pairs, &doc.text);
        if let Some(r) = &doc.record {
            add_record(f, &mut d, r, &doc.text);
        }
        for m in &doc.marks {
            d.add_text(f.k_review, m);
            d.add_facet(f.f_review, Facet::from_path([m]));
        }
        w.add_document(d).map_err(|e| self.err(e))?;
        Ok(())
    }

    /// Removes a caption's entry (at the next commit).
    pub fn remove(&self, w: &IndexWriter, id: u64) {
        w.delete_term(Term::from_field_u64(self.fields.id, id));
    }

    pub fn commit(&self, w: &mut IndexWriter, seq: i64) -> Result<()> {
        let mut prepared = w.prepare_commit().map_err(|e| self.err(e))?;
        prepared.set_payload(&format!("v{SCHEMA_VERSION}:{seq}"));
        prepared.commit().map_err(|e| self.err(e))?;
        self.reader.reload().map_err(|e| self.err(e))?;
        Ok(())
    }

    /// Caption ids of the best matches, the number of all matches, and the facet
    /// counts, histogram and map grid the request asks for, in one pass.
    /// Raising `stop` ends the walk early with [`Error::Stopped`].
    pub fn search(&self, query: &dyn Query, req: &SearchRequest, stop: &Stop) -> Result<Matches> {
        let query = &Stoppable {
            inner: query.box_clone(),
            stop: stop.clone(),
        };
        let searcher = self.reader.searcher();
        let live: Vec<_> = searcher
            .segment_readers()
            .iter()
            .map(|s| s.segment_id())
            .collect();
        self.tables.retain(&live);
        let limit = req.limit.max(1);
        let tally = (req.facets || req.histogram || req.geo_zoom.is_some()).then(|| Tally {
            tables: self.tables.clone(),
            facets: req.facets,
            histogram: req.histogram,
            cell: req.geo_zoom.map(cell_degrees),
        });
        let rest = (Count, tally);
        let (docs, (total, counts)): (Vec<(f32, tantivy::DocAddress)>, _) = match req.sort {
            Sort::Relevance => {
                let top = TopDocs::with_limit(limit)
                    .and_offset(req.offset)
                    .order_by_score();
                searcher
                    .search(query, &(top, rest))
                    .map_err(|e| self.search_err(e))?
            }
            Sort::DateAsc | Sort::DateDesc => {
                let order = if req.sort == Sort::DateAsc {
                    Order::Asc
                } else {
                    Order::Desc
                };
                let top = TopDocs::with_limit(limit)
                    .and_offset(req.offset)
                    .order_by_fast_field::<i64>("date_start", order);
                let (docs, rest) = searcher
                    .search(query, &(top, rest))
                    .map_err(|e| self.search_err(e))?;
                (docs.into_iter().map(|(_, a)| (0.0, a)).collect(), rest)
            }
        };
        if stop.is_stopped() {
            return Err(Error::Stopped);
        }
        let columns = self.id_columns(&searcher)?;
        let mut hits = Vec::with_capacity(docs.len());
        for (score, addr) in docs {
            if let Some(id) = caption_id(&columns, addr) {
                hits.push((id, score));
            }
        }
        let facets = counts.as_ref().and_then(|c| c.facets());
        let histogram = match (&counts, req.histogram) {
            (Some(c), true) => Some(c.histogram()),
            _ => None,
        };
        let geo = match (&counts, req.geo_zoom) {
            (Some(c), Some(z)) => Some(c.grid(z)),
            _ => None,
        };
        Ok(Matches {
            hits,
            total,
            facets,
            histogram,
            geo,
        })
    }

    /// Each segment's caption id column: ids are read from this fast field, not from
    /// the document store (which decompresses a block per document), and each column
    /// is opened once per search, not once per hit.
    fn id_columns(&self, searcher: &tantivy::Searcher) -> Result<Vec<Column<u64>>> {
        searcher
            .segment_readers()
            .iter()
            .map(|seg| seg.fast_fields().u64("id").map_err(|e| self.err(e)))
            .collect()
    }

    /// Ids of every match, in id order (for exports); raising `stop` ends the walk
    /// early with [`Error::Stopped`].
    pub fn all_matches(&self, query: &dyn Query, stop: &Stop) -> Result<Vec<u64>> {
        let query = Stoppable {
            inner: query.box_clone(),
            stop: stop.clone(),
        };
        let searcher = self.reader.searcher();
        let docs = searcher
            .search(&query, &tantivy::collector::DocSetCollector)
            .map_err(|e| self.search_err(e))?;
        if stop.is_stopped() {
            return Err(Error::Stopped);
        }
        let columns = self.id_columns(&searcher)?;
        let mut ids: Vec<u64> = docs
            .into_iter()
            .filter_map(|addr| caption_id(&columns, addr))
            .collect();
        ids.sort_unstable();
        Ok(ids)
    }

    /// Counts of the children of a place facet path.
    pub fn place_children(&self, query: &dyn Query, path: &[String]) -> Result<Vec<FacetCount>> {
        let searcher = self.reader.searcher();
        let facet = Facet::from_path(path.iter().map(String::as_str));
        let mut c = FacetCollector::for_field("f_place");
        c.add_facet(facet.clone());
        let counts = searcher.search(query, &c).map_err(|e| self.search_err(e))?;
        Ok(facet_counts(&counts, facet))
    }

    /// Merges every segment into one (dropping deleted documents) when there are more
    /// than `max_segments` or deleted documents are over a fifth of the index: facet
    /// counting costs per segment, and re-indexed captions leave deleted copies behind.
    /// Returns whether it merged.
    pub fn compact(&self, w: &mut IndexWriter, max_segments: usize) -> Result<bool> {
        let started = self.start_compaction(w, max_segments)?;
        self.finish_compaction(w, started, max_segments)
    }

    /// Starts the merge [`SearchIndex::compact`] would make, if one is needed, on the
    /// index writer's merge thread: the caller can work on meanwhile, then calls
    /// [`SearchIndex::finish_compaction`].
    pub(crate) fn start_compaction(
        &self,
        w: &mut IndexWriter,
        max_segments: usize,
    ) -> Result<Option<Merging>> {
        let metas = self
            .index
            .searchable_segment_metas()
            .map_err(|e| self.err(e))?;
        let docs: u64 = metas.iter().map(|m| u64::from(m.max_doc())).sum();
        let deleted: u64 = metas.iter().map(|m| u64::from(m.num_deleted_docs())).sum();
        if metas.len() <= 1 || (metas.len() <= max_segments && deleted * 5 <= docs) {
            return Ok(None);
        }
        let ids: Vec<_> = metas.iter().map(|m| m.id()).collect();
        Ok(Some(Merging(w.merge(&ids))))
    }

    /// Waits for a merge [`SearchIndex::start_compaction`] started and lets go of the
    /// merged segments; returns whether the index was compacted.
    pub(crate) fn finish_compaction(
        &self,
        w: &mut IndexWriter,
        mut started: Option<Merging>,
        max_segments: usize,
    ) -> Result<bool> {
        // A segment in a background merge cannot join this one: read the list again
        // after a pause (compaction is only an optimisation; if merges keep running it
        // is left for the next run).
        for _ in 0..10 {
            let Some(Merging(merge)) = started.take() else {
                return Ok(false);
            };
            match merge.wait() {
                Ok(_) => {
                    // Let go of the old segments before removing their files.
                    self.reader.reload().map_err(|e| self.err(e))?;
                    let _ = w.garbage_collect_files().wait();
                    return Ok(true);
                }
                Err(tantivy::TantivyError::InvalidArgument(_)) => {
                    std::thread::sleep(std::time::Duration::from_millis(300));
                    started = self.start_compaction(w, max_segments)?;
                }
                Err(e) => return Err(self.err(e)),
            }
        }
        Ok(false)
    }

    #[cfg(test)]
    pub(crate) fn reader_for_tests(&self) -> &IndexReader {
        &self.reader
    }

    /// Number of live documents.
    pub fn num_docs(&self) -> Result<u64> {
        self.reader.reload().map_err(|e| self.err(e))?;
        Ok(self.reader.searcher().num_docs())
    }

    /// Every indexed caption id (for checks).
    pub fn all_ids(&self) -> Result<Vec<u64>> {
        self.reader.reload().map_err(|e| self.err(e))?;
        let searcher = self.reader.searcher();
        let mut ids = Vec::new();
        for seg in searcher.segment_readers() {
            let col = seg.fast_fields().u64("id").map_err(|e| self.err(e))?;
            for doc in seg.doc_ids_alive() {
                if let Some(v) = col.first(doc) {
                    ids.push(v);
                }
            }
        }
        ids.sort_unstable();
        Ok(ids)
    }
}

/// A record's filter, facet and place values, and its text in its language's field.
fn add_record(f: &Fields, d: &mut TantivyDocument, r: &Record, text: &str) {
    if let Some(c) = &r.credit {
        for a in c.agency.iter().chain(c.distributor.iter()) {
            d.add_text(f.k_agency, a.to_lowercase());
            d.add_facet(f.f_agency, Facet::from_path([a.as_str()]));
        }
        for p in &c.photographers {
            d.add_text(f.k_photographer, p.to_lowercase());
            d.add_facet(f.f_photographer, Facet::from_path([p.as_str()]));
        }
    }
    for p in r.location.iter().chain(&r.places) {
        if let Some(id) = &p.gazetteer_id {
            d.add_text(f.k_named, id);
            if let Some(term) = spellings::term(id, &p.text) {
                d.add_text(f.k_spelled, term);
            }
        }
    }
    if let Some(loc) = &r.location {
        if let Some(cc) = &loc.country {
            d.add_text(f.k_country, cc.to_lowercase());
            d.add_facet(f.f_country, Facet::from_path([cc.as_str()]));
        }
        let mut path: Vec<&str> = loc.within.iter().map(String::as_str).collect();
        if let Some(id) = &loc.gazetteer_id {
            path.push(id);
        }
        if !path.is_empty() {
            d.add_facet(f.f_place, Facet::from_path(path));
        }
        d.add_f64(f.lat, loc.lat);
        d.add_f64(f.lon, loc.lon);
    }
    for e in &r.event_types {
        d.add_text(f.k_event, e.to_lowercase());
        d.add_facet(f.f_event, Facet::from_path([e.as_str()]));
    }
    if let Some(date) = &r.date {
        if let Some((a, b)) = date_extent(&date.value, date.precision) {
            d.add_i64(f.date_start, a);
            d.add_i64(f.date_end, b);
        }
        if let Some(y) = date.value.get(..4) {
            d.add_facet(f.f_year, Facet::from_path([y]));
        }
    }
    if let Some(k) = &r.casualties.killed {
        d.add_i64(f.killed, i64::from(k.low));
    }
    if let Some(lang) = &r.lang {
        d.add_text(f.k_lang, lang.to_lowercase());
        d.add_facet(f.f_lang, Facet::from_path([lang.as_str()]));
        if let Some(i) = LANGS.iter().position(|l| l.eq_ignore_ascii_case(lang)) {
            d.add_text(f.text_lang[i], text);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The writer's background merges take small segments, never large ones (which
    /// tantivy's default policy would merge); compaction still merges everything.
    #[test]
    fn background_merges_leave_large_segments_to_compaction() {
        use tantivy::index::SegmentId;
        use tantivy::indexer::MergePolicy;
        let dir = tempfile::tempdir().unwrap();
        let index = SearchIndex::open_or_create(dir.path()).unwrap();
        let metas = |docs: &[u32]| -> Vec<_> {
            docs.iter()
                .map(|&n| {
                    index
                        .index
                        .new_segment_meta(SegmentId::generate_random(), n)
                })
                .collect()
        };
        let policy = background_merge_policy();
        let large = (BACKGROUND_MERGE_MAX_DOCS + 1) as u32;
        // Eight segments of one commit's size: merged, as before.
        let small = metas(&[20_000; 8]);
        let candidates = policy.compute_merge_candidates(&small);
        assert_eq!(candidates.len(), 1);
        assert_eq!(candidates[0].0.len(), 8);
        // Eight large ones (and eight small ones beside them): only the small ones.
        let mixed = metas(&[[large; 8], [20_000; 8]].concat());
        let candidates = policy.compute_merge_candidates(&mixed);
        assert_eq!(candidates.len(), 1);
        for id in &candidates[0].0 {
            let m = mixed.iter().find(|m| m.id() == *id).unwrap();
            assert!(m.max_doc() < large, "a large segment in a background merge");
        }
        // tantivy's default would have merged the large ones too.
        let default = tantivy::indexer::LogMergePolicy::default();
        assert_eq!(default.compute_merge_candidates(&mixed).len(), 2);
        // And the writer uses this policy.
        let w = index.writer().ok().unwrap();
        assert_eq!(format!("{:?}", w.get_merge_policy()), format!("{policy:?}"));
    }
}
