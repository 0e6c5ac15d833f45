//! The tantivy index: one document per caption, rebuilt from SQLite at will.
//!
//! Each commit carries a payload `v{SCHEMA}:{seq}` naming the last database batch it
//! reflects, so a writer that opens the archive after a crash indexes exactly the
//! captions changed since.

use std::ops::Bound;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use cairn_model::{Precision, Record};
use tantivy::collector::{Count, FacetCollector, TopDocs};
use tantivy::columnar::Column;
use tantivy::query::{
    AllQuery, BooleanQuery, Occur, PhraseQuery, Query, QueryParser, RangeQuery, TermQuery,
    TermSetQuery,
};
use tantivy::schema::{
    FAST, Facet, FacetOptions, Field, INDEXED, IndexRecordOption, STORED, STRING, Schema,
    TextFieldIndexing, TextOptions,
};
use tantivy::tokenizer::{
    AsciiFoldingFilter, LowerCaser, RemoveLongFilter, SimpleTokenizer, TextAnalyzer,
};
use tantivy::{Index, IndexReader, IndexWriter, Order, ReloadPolicy, TantivyDocument, Term};

use crate::aggregate::{cell_degrees, most_frequent_first};
use crate::days::epoch_days;
use crate::directory::IndexDirectory;
use crate::read::{FacetCount, Facets, Filters, GeoGrid, Histogram, SearchRequest, Sort};
use crate::stop::{Stop, Stoppable};
use crate::table::{Tables, Tally};
use crate::{Error, Result};

/// Bumped when the index schema changes; an index of another version is rebuilt.
const SCHEMA_VERSION: u32 = 6;
const TOKENIZER: &str = "cairn";
/// The `pairs` field's tokenizer ([`PairTokenizer`]).
const PAIR_TOKENIZER: &str = "cairn_pairs";

#[derive(Debug, Clone, Copy)]
pub(crate) struct Fields {
    pub id: Field,
    pub text: Field,
    /// Each pair of neighbouring words of the text as one term (`car bomb`), so an
    /// exact phrase is a term lookup instead of a walk through word positions.
    pub pairs: Field,
    // Lowercase exact values, for filters.
    pub k_agency: Field,
    pub k_photographer: Field,
    pub k_country: Field,
    pub k_event: Field,
    // Display values, for facet counts.
    pub f_agency: Field,
    pub f_photographer: Field,
    pub f_country: Field,
    pub f_event: Field,
    pub f_year: Field,
    pub f_place: Field,
    pub date_start: Field,
    pub date_end: Field,
    pub killed: Field,
    pub lat: Field,
    pub lon: Field,
}

fn schema() -> (Schema, Fields) {
    let mut b = Schema::builder();
    let id = b.add_u64_field("id", INDEXED | STORED | FAST);
    let text_opts = TextOptions::default().set_indexing_options(
        TextFieldIndexing::default()
            .set_tokenizer(TOKENIZER)
            .set_index_option(IndexRecordOption::WithFreqsAndPositions),
    );
    let text = b.add_text_field("text", text_opts);
    let pairs = b.add_text_field(
        "pairs",
        TextOptions::default().set_indexing_options(
            TextFieldIndexing::default()
                .set_tokenizer(PAIR_TOKENIZER)
                .set_index_option(IndexRecordOption::WithFreqs),
        ),
    );
    let facet = || FacetOptions::default();
    let f = Fields {
        id,
        text,
        pairs,
        k_agency: b.add_text_field("agency", STRING),
        k_photographer: b.add_text_field("photographer", STRING),
        k_country: b.add_text_field("country", STRING),
        k_event: b.add_text_field("event", STRING),
        f_agency: b.add_facet_field("f_agency", facet()),
        f_photographer: b.add_facet_field("f_photographer", facet()),
        f_country: b.add_facet_field("f_country", facet()),
        f_event: b.add_facet_field("f_event", facet()),
        f_year: b.add_facet_field("f_year", facet()),
        f_place: b.add_facet_field("f_place", facet()),
        date_start: b.add_i64_field("date_start", INDEXED | FAST),
        date_end: b.add_i64_field("date_end", INDEXED | FAST),
        killed: b.add_i64_field("killed", INDEXED | FAST),
        lat: b.add_f64_field("lat", INDEXED | FAST),
        lon: b.add_f64_field("lon", INDEXED | FAST),
    };
    (b.build(), f)
}

/// Registers the text's analyzer and the pairs' tokenizer made from it on the index, and
/// returns the analyzer.
fn register_tokenizer(index: &Index) -> TextAnalyzer {
    let analyzer = TextAnalyzer::builder(SimpleTokenizer::default())
        .filter(RemoveLongFilter::limit(60))
        .filter(LowerCaser)
        .filter(AsciiFoldingFilter)
        .build();
    index.tokenizers().register(TOKENIZER, analyzer.clone());
    index.tokenizers().register(
        PAIR_TOKENIZER,
        TextAnalyzer::from(PairTokenizer(analyzer.clone())),
    );
    analyzer
}

/// The `pairs` field's tokens: `first second` for each two words of the text analyzer
/// that are neighbours (a word it drops, such as an over-long one, leaves no pair
/// across it). The field is given the caption's text once; before, each pair was made
/// as a string of its own and given as a value of its own.
#[derive(Clone)]
struct PairTokenizer(TextAnalyzer);

struct PairStream<'a> {
    words: tantivy::tokenizer::BoxTokenStream<'a>,
    /// The last word read: its position and where it starts (its text in `last_text`).
    last: Option<(usize, usize)>,
    last_text: String,
    /// Pairs made so far (each pair's position).
    pairs: usize,
    token: tantivy::tokenizer::Token,
}

impl tantivy::tokenizer::Tokenizer for PairTokenizer {
    type TokenStream<'a> = PairStream<'a>;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> PairStream<'a> {
        PairStream {
            words: self.0.token_stream(text),
            last: None,
            last_text: String::new(),
            pairs: 0,
            token: tantivy::tokenizer::Token::default(),
        }
    }
}

impl tantivy::tokenizer::TokenStream for PairStream<'_> {
    fn advance(&mut self) -> bool {
        while self.words.advance() {
            let word = self.words.token();
            let pair = matches!(self.last, Some((at, _)) if word.position == at + 1);
            if pair {
                let t = &mut self.token;
                t.text.clear();
                t.text.push_str(&self.last_text);
                t.text.push(' ');
                t.text.push_str(&word.text);
                t.offset_from = self.last.map_or(0, |(_, from)| from);
                t.offset_to = word.offset_to;
                t.position = self.pairs;
                self.pairs += 1;
            }
            self.last = Some((word.position, word.offset_from));
            self.last_text.clear();
            self.last_text.push_str(&word.text);
            if pair {
                return true;
            }
        }
        false
    }

    fn token(&self) -> &tantivy::tokenizer::Token {
        &self.token
    }

    fn token_mut(&mut self) -> &mut tantivy::tokenizer::Token {
        &mut self.token
    }
}

/// The first and last day a record's date covers (a month covers all its days).
pub(crate) fn date_extent(value: &str, precision: Precision) -> Option<(i64, i64)> {
    let parts: Vec<&str> = value.split('-').collect();
    let y: i16 = parts.first()?.parse().ok()?;
    let (start, end) = match precision {
        Precision::Day => {
            let d: jiff::civil::Date = value.parse().ok()?;
            (d, d)
        }
        Precision::Month => {
            let m: i8 = parts.get(1)?.parse().ok()?;
            let s = jiff::civil::Date::new(y, m, 1).ok()?;
            (s, s.last_of_month())
        }
        Precision::Year => (
            jiff::civil::Date::new(y, 1, 1).ok()?,
            jiff::civil::Date::new(y, 12, 31).ok()?,
        ),
    };
    Some((epoch_days(start), epoch_days(end)))
}

/// A date filter bound: `2016`, `2016-11` or `2016-11-06`; `end` picks the last day.
pub(crate) fn parse_bound(s: &str, end: bool) -> Result<i64> {
    let bad = || {
        Error::Query(format!(
            "{s:?} is not a date (use YYYY, YYYY-MM or YYYY-MM-DD)"
        ))
    };
    let precision = match s.len() {
        4 => Precision::Year,
        7 => Precision::Month,
        10 => Precision::Day,
        _ => return Err(bad()),
    };
    let (a, b) = date_extent(s, precision).ok_or_else(bad)?;
    Ok(if end { b } else { a })
}

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
/// bound, a merge late in a million-page ingest mapped about 200 MB of segments on top of
/// the batches' memory (and merged the same documents again, for a segment that the
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
        let analyzer = register_tokenizer(&index);
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
        }
        w.add_document(d).map_err(|e| self.err(e))?;
        Ok(())
    }

    pub fn commit(&self, w: &mut IndexWriter, seq: i64) -> Result<()> {
        let mut prepared = w.prepare_commit().map_err(|e| self.err(e))?;
        prepared.set_payload(&format!("v{SCHEMA_VERSION}:{seq}"));
        prepared.commit().map_err(|e| self.err(e))?;
        self.reader.reload().map_err(|e| self.err(e))?;
        Ok(())
    }

    fn term_any(&self, field: Field, values: &[String]) -> Option<Box<dyn Query>> {
        if values.is_empty() {
            return None;
        }
        let subs: Vec<(Occur, Box<dyn Query>)> = values
            .iter()
            .map(|v| {
                let t = Term::from_field_text(field, &v.to_lowercase());
                (
                    Occur::Should,
                    Box::new(TermQuery::new(t, IndexRecordOption::Basic)) as Box<dyn Query>,
                )
            })
            .collect();
        Some(Box::new(BooleanQuery::new(subs)))
    }

    /// The words of a text as the index sees them, each with its position.
    fn words(&self, text: &str) -> Vec<(usize, String)> {
        let mut analyzer = self.analyzer.clone();
        let mut stream = analyzer.token_stream(text);
        let mut words = Vec::new();
        while stream.advance() {
            let t = stream.token();
            words.push((t.position, t.text.clone()));
        }
        words
    }

    /// The phrases of a query that must match exactly (no slop, no prefix, on the
    /// text) and whose words are all neighbours once analysed, as their words. Empty
    /// when any phrase of the query has a slop, so that a phrase written twice, once
    /// with a slop, is never narrowed.
    fn exact_phrases(&self, query: &str) -> Vec<Vec<String>> {
        use tantivy::query_grammar::{UserInputAst, UserInputLeaf, UserInputLiteral};
        fn literals<'a>(ast: &'a UserInputAst, out: &mut Vec<&'a UserInputLiteral>) {
            match ast {
                UserInputAst::Clause(cs) => cs.iter().for_each(|(_, c)| literals(c, out)),
                UserInputAst::Boost(inner, _) => literals(inner, out),
                UserInputAst::Leaf(leaf) => {
                    if let UserInputLeaf::Literal(l) = leaf.as_ref() {
                        out.push(l);
                    }
                }
            }
        }
        let Ok(ast) = tantivy::query_grammar::parse_query(query) else {
            return Vec::new();
        };
        let mut lits = Vec::new();
        literals(&ast, &mut lits);
        if lits.iter().any(|l| l.slop > 0) {
            return Vec::new();
        }
        lits.iter()
            .filter(|l| !l.prefix && l.field_name.as_deref().is_none_or(|f| f == "text"))
            .filter_map(|l| {
                let words = self.words(&l.phrase);
                let neighbours = words.windows(2).all(|w| w[1].0 == w[0].0 + 1);
                (words.len() >= 2 && neighbours)
                    .then(|| words.into_iter().map(|(_, w)| w).collect())
            })
            .collect()
    }

    /// The query with each phrase query of `exact` answered from the word pairs: a
    /// two-word phrase is its pair's term; a longer one keeps its phrase check but
    /// only on the captions holding all its pairs.
    fn with_pairs(&self, q: Box<dyn Query>, exact: &[Vec<String>]) -> Box<dyn Query> {
        if let Some(b) = q.downcast_ref::<BooleanQuery>() {
            let clauses = b
                .clauses()
                .iter()
                .map(|(o, c)| (*o, self.with_pairs(c.box_clone(), exact)))
                .collect();
            let mut rewritten = BooleanQuery::new(clauses);
            rewritten.set_minimum_number_should_match(b.get_minimum_number_should_match());
            return Box::new(rewritten);
        }
        if let Some(p) = q.downcast_ref::<PhraseQuery>() {
            let words: Vec<String> = p
                .phrase_terms()
                .iter()
                .filter_map(|t| t.value().as_str().map(str::to_string))
                .collect();
            if p.field() == self.fields.text && exact.contains(&words) {
                let mut parts: Vec<Box<dyn Query>> = words
                    .windows(2)
                    .map(|w| {
                        let t =
                            Term::from_field_text(self.fields.pairs, &format!("{} {}", w[0], w[1]));
                        Box::new(TermQuery::new(t, IndexRecordOption::WithFreqs)) as Box<dyn Query>
                    })
                    .collect();
                if parts.len() == 1 {
                    return parts.remove(0);
                }
                parts.push(q);
                return Box::new(BooleanQuery::intersection(parts));
            }
        }
        q
    }

    /// The query for a text and filters. The source filter is not the index's: the
    /// caller resolves it to the captions seen on those sources (`captions`).
    pub fn build(
        &self,
        query: &str,
        filters: &Filters,
        captions: Option<&[u64]>,
    ) -> Result<Box<dyn Query>> {
        let f = &self.fields;
        let mut must: Vec<(Occur, Box<dyn Query>)> = Vec::new();
        if !query.trim().is_empty() {
            let mut parser = QueryParser::for_index(&self.index, vec![f.text]);
            parser.set_conjunction_by_default();
            // The only regular expressions in a parsed query are the prefix matches
            // `crate::query` makes of trailing-`*` words; it refuses the users' own.
            parser.allow_regexes();
            let words = |s: &str| self.words(s).into_iter().map(|(_, w)| w).collect();
            let ast = crate::query::parse(query, "text", &words)?;
            let q = parser
                .build_query_from_user_input_ast(ast)
                .map_err(|e| Error::Query(format!("{query:?}: {e}")))?;
            let exact = self.exact_phrases(query);
            let q = if exact.is_empty() {
                q
            } else {
                self.with_pairs(q, &exact)
            };
            must.push((Occur::Must, q));
        }
        for (field, values) in [
            (f.k_agency, &filters.agency),
            (f.k_photographer, &filters.photographer),
            (f.k_country, &filters.country),
            (f.k_event, &filters.event),
        ] {
            if let Some(q) = self.term_any(field, values) {
                must.push((Occur::Must, q));
            }
        }
        if !filters.place.is_empty() {
            let subs: Vec<(Occur, Box<dyn Query>)> = filters
                .place
                .iter()
                .map(|path| {
                    let t = Term::from_facet(
                        f.f_place,
                        &Facet::from_path(path.iter().map(String::as_str)),
                    );
                    (
                        Occur::Should,
                        Box::new(TermQuery::new(t, IndexRecordOption::Basic)) as Box<dyn Query>,
                    )
                })
                .collect();
            must.push((Occur::Must, Box::new(BooleanQuery::new(subs))));
        }
        if let Some(from) = &filters.from {
            let d = parse_bound(from, false)?;
            let t = Term::from_field_i64(f.date_start, d);
            must.push((
                Occur::Must,
                Box::new(RangeQuery::new(Bound::Included(t), Bound::Unbounded)),
            ));
        }
        if let Some(to) = &filters.to {
            let d = parse_bound(to, true)?;
            let t = Term::from_field_i64(f.date_end, d);
            must.push((
                Occur::Must,
                Box::new(RangeQuery::new(Bound::Unbounded, Bound::Included(t))),
            ));
        }
        if let Some(ids) = captions {
            // The captions seen on the filter's sources (looked up in the database).
            let terms = ids.iter().map(|&id| Term::from_field_u64(f.id, id));
            must.push((Occur::Must, Box::new(TermSetQuery::new(terms))));
        }
        if let Some(k) = filters.killed_min {
            let t = Term::from_field_i64(f.killed, i64::from(k));
            must.push((
                Occur::Must,
                Box::new(RangeQuery::new(Bound::Included(t), Bound::Unbounded)),
            ));
        }
        if let Some(bbox @ [west, south, east, north]) = filters.bbox {
            crate::query::check_bbox(bbox)?;
            let lat = RangeQuery::new(
                Bound::Included(Term::from_field_f64(f.lat, south)),
                Bound::Included(Term::from_field_f64(f.lat, north)),
            );
            let lon = RangeQuery::new(
                Bound::Included(Term::from_field_f64(f.lon, west)),
                Bound::Included(Term::from_field_f64(f.lon, east)),
            );
            must.push((Occur::Must, Box::new(lat)));
            must.push((Occur::Must, Box::new(lon)));
        }
        if must.is_empty() {
            return Ok(Box::new(AllQuery));
        }
        if must.len() == 1 {
            return Ok(must
                .pop()
                .map(|(_, q)| q)
                .unwrap_or_else(|| Box::new(AllQuery)));
        }
        Ok(Box::new(BooleanQuery::new(must)))
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const WORDS: [&str; 5] = ["car", "bomb", "Car", "market", "blast"];

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

    /// A word of the vocabulary, or one too long for the analyzer (it is dropped and
    /// leaves a gap in the positions).
    fn word() -> impl Strategy<Value = String> {
        prop_oneof![
            8 => (0..WORDS.len()).prop_map(|i| WORDS[i].to_string()),
            1 => Just("x".repeat(70)),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// A phrase answered from the word pairs finds exactly the captions that
        /// tantivy's phrase query (word positions) finds, and the query is indeed
        /// rewritten when its words are neighbours.
        #[test]
        fn pairs_answer_phrases_like_positions(
            texts in proptest::collection::vec(proptest::collection::vec(word(), 0..8), 1..30),
            phrase in proptest::collection::vec(word(), 2..5),
            slop in prop_oneof![4 => Just(0u32), 1 => 1u32..3],
        ) {
            let dir = tempfile::tempdir().unwrap();
            let index = SearchIndex::open_or_create(dir.path()).unwrap();
            let mut w = index.writer().ok().unwrap();
            for (i, t) in texts.iter().enumerate() {
                index.add(&w, IndexDoc {
                    id: i as u64,
                    text: t.join(" ").into(),
                    record: None,
                }, true).unwrap();
            }
            index.commit(&mut w, 0).unwrap();
            let query = if slop == 0 {
                format!("\"{}\"", phrase.join(" "))
            } else {
                format!("\"{}\"~{slop}", phrase.join(" "))
            };
            let rewritten = index.build(&query, &Filters::default(), None).unwrap();
            let mut parser = QueryParser::for_index(&index.index, vec![index.fields.text]);
            parser.set_conjunction_by_default();
            let plain = parser.parse_query(&query).unwrap();
            prop_assert_eq!(
                index.all_matches(rewritten.as_ref(), &Stop::new()).unwrap(),
                index.all_matches(plain.as_ref(), &Stop::new()).unwrap(),
                "{}", &query
            );
            // Rewritten when there is no slop and the kept words (the over-long
            // ones are dropped) are at least two and neighbours.
            let kept: Vec<usize> = (0..phrase.len()).filter(|&i| phrase[i].len() <= 60).collect();
            let neighbours = kept.len() >= 2 && kept.windows(2).all(|k| k[1] == k[0] + 1);
            prop_assert_eq!(!index.exact_phrases(&query).is_empty(), slop == 0 && neighbours);
        }
    }

    /// The pairs of a text by their definition: the analyzer's words, each with the
    /// next when it is its neighbour.
    fn pairs_by_definition(index: &SearchIndex, text: &str) -> Vec<String> {
        index
            .words(text)
            .windows(2)
            .filter(|w| w[1].0 == w[0].0 + 1)
            .map(|w| format!("{} {}", w[0].1, w[1].1))
            .collect()
    }

    /// The terms the `pairs` field's tokenizer makes of a text.
    fn pair_tokens(index: &SearchIndex, text: &str) -> Vec<String> {
        let mut pairs = index.index.tokenizers().get(PAIR_TOKENIZER).unwrap();
        let mut stream = pairs.token_stream(text);
        let mut out = Vec::new();
        while stream.advance() {
            out.push(stream.token().text.clone());
        }
        out
    }

    #[test]
    fn pair_tokens_skip_dropped_words() {
        let dir = tempfile::tempdir().unwrap();
        let index = SearchIndex::open_or_create(dir.path()).unwrap();
        let long = "x".repeat(70);
        assert_eq!(
            pair_tokens(&index, &format!("Car bomb in {long} Aleppo's MARKET, Ünye")),
            ["car bomb", "bomb in", "aleppo s", "s market", "market unye"]
        );
        assert!(pair_tokens(&index, "one").is_empty());
        assert!(pair_tokens(&index, "").is_empty());
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// The tokenizer makes exactly the pairs of the definition, in order, from any
        /// text (punctuation, other scripts, over-long words).
        #[test]
        fn pair_tokens_are_the_neighbouring_words(
            parts in proptest::collection::vec(
                prop_oneof![
                    4 => (0..WORDS.len()).prop_map(|i| WORDS[i].to_string()),
                    1 => Just("x".repeat(70)),
                    3 => "\\PC{0,12}",
                ],
                0..12,
            ),
        ) {
            let dir = tempfile::tempdir().unwrap();
            let index = SearchIndex::open_or_create(dir.path()).unwrap();
            let text = parts.join(" ");
            prop_assert_eq!(pair_tokens(&index, &text), pairs_by_definition(&index, &text));
        }
    }

    #[test]
    fn month_covers_its_days() {
        let (a, b) = date_extent("2016-11", Precision::Month).unwrap();
        assert_eq!(a, parse_bound("2016-11-01", false).unwrap());
        assert_eq!(b, parse_bound("2016-11-30", true).unwrap());
        assert_eq!(b - a, 29);
        assert!(parse_bound("2016-13", false).is_err());
        assert!(parse_bound("yesterday", false).is_err());
    }
}
