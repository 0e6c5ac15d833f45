//! What a read asks and answers: the search request with its filters and sort, and the
//! counts, hits, facets, histograms, captions and sources a read gives back. Plain data,
//! so the index, the tables and the readers share it without depending on each other.

use cairn_model::{Record, Span};
use serde::Serialize;

/// Counts of what the archive holds.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Stats {
    /// Stored sources (a page fetched from two URIs counts twice).
    pub sources: u64,
    /// Caption occurrences across all sources.
    pub occurrences: u64,
    /// Captions (one per photograph, after deduplication).
    pub captions: u64,
    /// Distinct caption texts.
    pub variants: u64,
    /// Distinct source contents (by sha256).
    pub blobs: u64,
    /// Bytes of source content before compression.
    pub source_bytes: u64,
    /// Bytes of source content as stored (compressed).
    pub stored_bytes: u64,
    /// Ingest batches committed.
    pub batches: u64,
    /// Captions in the search index.
    pub indexed: u64,
}

/// Filters on record fields; values within one field are alternatives (OR), fields
/// combine (AND). Matching of names is case-insensitive.
#[derive(Debug, Clone, Default, Serialize, serde::Deserialize)]
pub struct Filters {
    /// Agency or distributor of the credit.
    #[serde(default)]
    pub agency: Vec<String>,
    /// Photographer.
    #[serde(default)]
    pub photographer: Vec<String>,
    /// Places, each as its gazetteer path (ids, outermost first): a caption matches
    /// when its location is the place or lies inside it.
    #[serde(default)]
    pub place: Vec<Vec<String>>,
    /// ISO 3166-1 alpha-2 country code of the location.
    #[serde(default)]
    pub country: Vec<String>,
    /// ACLED sub-event type.
    #[serde(default)]
    pub event: Vec<String>,
    /// Language of the caption (ISO 639-1).
    #[serde(default)]
    pub lang: Vec<String>,
    /// Review marks: `verified`, `disputed`, `corrected`, `needs_review` or one of its
    /// reasons ([`crate::REASONS`]).
    #[serde(default)]
    pub review: Vec<String>,
    /// Earliest date (`YYYY`, `YYYY-MM` or `YYYY-MM-DD`); the caption's whole date must
    /// lie on or after it.
    pub from: Option<String>,
    /// Latest date; the caption's whole date must lie on or before it.
    pub to: Option<String>,
    /// At least this many killed.
    pub killed_min: Option<u32>,
    /// Location inside `[west, south, east, north]` (degrees).
    pub bbox: Option<[f64; 4]>,
    /// Appeared in a source whose uri starts with one of these prefixes, or whose id
    /// one of them is.
    #[serde(default)]
    pub source: Vec<String>,
    /// In this incident (its id, as `cairn incidents` gives it).
    #[serde(default)]
    pub incident: Option<i64>,
}

/// Result order.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Sort {
    /// Best match first.
    #[default]
    Relevance,
    /// Oldest first.
    DateAsc,
    /// Newest first.
    DateDesc,
}

/// A search.
#[derive(Debug, Clone, Default)]
pub struct SearchRequest {
    /// Full-text query (tantivy syntax); empty matches everything.
    pub query: String,
    /// Record filters.
    pub filters: Filters,
    /// Hits per page.
    pub limit: usize,
    /// Hits to skip.
    pub offset: usize,
    /// Order.
    pub sort: Sort,
    /// Whether to count facets.
    pub facets: bool,
    /// Whether to count matches per day, month or year.
    pub histogram: bool,
    /// Map zoom level (0 = whole world) at which to cluster located matches, if wanted.
    pub geo_zoom: Option<u8>,
}

/// One bar of a date histogram.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Bucket {
    /// The bucket as a date filter value (`2016`, `2016-11` or `2016-11-06`).
    pub key: String,
    /// Its first day.
    pub from: String,
    /// Its last day.
    pub to: String,
    /// Matching captions whose date starts in it.
    pub count: u64,
}

/// Matches per period, over the dated matches of a search.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Histogram {
    /// `day`, `month` or `year`: the finest that keeps the bars few.
    pub interval: String,
    /// Every period from the first to the last dated match, empty ones included.
    pub buckets: Vec<Bucket>,
    /// Matches with no date.
    pub undated: u64,
}

/// Located matches grouped into one grid cell of the map.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GeoCell {
    /// Mean latitude of the matches in the cell.
    pub lat: f64,
    /// Mean longitude.
    pub lon: f64,
    /// Matching captions located in the cell.
    pub count: u64,
    /// The matches' extent `[west, south, east, north]`, usable as a bbox filter.
    pub bbox: [f64; 4],
    /// `[latitude, longitude]` of the place most of the cell's matches stand at: one of
    /// its matches' places, where a group is drawn (their mean may be no place).
    pub at: [f64; 2],
}

/// Located matches clustered on a grid.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GeoGrid {
    /// The zoom level asked for.
    pub zoom: u8,
    /// The grid's cell size in degrees.
    pub cell_degrees: f64,
    /// Cells with at least one match, most matches first.
    pub cells: Vec<GeoCell>,
    /// Matches with no coordinates.
    pub unlocated: u64,
}

/// A facet value with the number of matching captions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FacetCount {
    /// The value (a place facet's value is its gazetteer id).
    pub value: String,
    /// Matching captions.
    pub count: u64,
}

/// Facet counts over all matches of a search.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Facets {
    /// By agency or distributor.
    pub agency: Vec<FacetCount>,
    /// By photographer.
    pub photographer: Vec<FacetCount>,
    /// By country of the location.
    pub country: Vec<FacetCount>,
    /// By event type.
    pub event_type: Vec<FacetCount>,
    /// By year of the date, in year order.
    pub year: Vec<FacetCount>,
    /// By top-level place (country id); see `place_children` for deeper levels.
    pub place: Vec<FacetCount>,
    /// By language of the caption (ISO 639-1).
    pub lang: Vec<FacetCount>,
    /// By review mark (see [`Filters::review`]).
    pub review: Vec<FacetCount>,
}

/// A source as hits and captions cite it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SourceRef {
    /// Source id.
    pub id: i64,
    /// Where it came from.
    pub uri: String,
    /// sha256 of its bytes.
    pub sha256: String,
}

/// One search hit.
#[derive(Debug, Clone, Serialize)]
pub struct Hit {
    /// Caption id.
    pub id: i64,
    /// The canonical text.
    pub text: String,
    /// Relevance score.
    pub score: f32,
    /// Number of occurrences across sources.
    pub occurrences: u64,
    /// Sources it appeared in.
    pub sources: Vec<SourceRef>,
    /// The record of the canonical text: as extracted, with people's corrections.
    pub record: Option<Record>,
}

/// A page of search results.
#[derive(Debug, Clone, Serialize)]
pub struct SearchResults {
    /// Number of all matching captions (not the page size).
    pub total: u64,
    /// The page.
    pub hits: Vec<Hit>,
    /// Facet counts over all matches, when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub facets: Option<Facets>,
    /// Matches per period, when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub histogram: Option<Histogram>,
    /// Located matches on a grid, when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub geo: Option<GeoGrid>,
    /// How the query text was read, when it was not in the query language (it was
    /// searched as plain words).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notice: Option<String>,
}

/// One caption as exports see it.
#[derive(Debug, Clone, Serialize)]
pub struct ExportedCaption {
    /// Caption id.
    pub id: i64,
    /// The canonical text.
    pub text: String,
    /// The record of the canonical text: as extracted, with people's corrections.
    pub record: Option<Record>,
    /// Number of distinct texts.
    pub variants: u64,
    /// Number of occurrences across sources.
    pub occurrences: u64,
    /// Every distinct source it appeared in.
    pub sources: Vec<SourceRef>,
    /// Whether people verified or disputed it, and what they corrected.
    pub review: crate::Review,
}

/// A caption occurrence with its source.
#[derive(Debug, Clone, Serialize)]
pub struct OccurrenceView {
    /// The source.
    pub source: SourceRef,
    /// Position among the source's captions, from 0.
    pub ordinal: u64,
    /// Byte range in the source text.
    pub span: Span,
}

/// One distinct text of a caption.
#[derive(Debug, Clone, Serialize)]
pub struct VariantView {
    /// Variant id.
    pub id: i64,
    /// The text.
    pub text: String,
    /// Where it appeared.
    pub occurrences: Vec<OccurrenceView>,
}

/// A caption with everything known about it.
#[derive(Debug, Clone, Serialize)]
pub struct CaptionView {
    /// Caption id.
    pub id: i64,
    /// The canonical text.
    pub text: String,
    /// The record of the canonical text: as extracted, with people's corrections.
    pub record: Option<Record>,
    /// Every distinct text, canonical first.
    pub variants: Vec<VariantView>,
    /// Every distinct source it appeared in.
    pub sources: Vec<SourceRef>,
    /// Captions of the same photograph in other languages (linked, never merged).
    pub translations: Vec<TranslationRef>,
    /// Whether people verified or disputed it, and what they corrected.
    pub review: crate::Review,
}

/// A stored source.
#[derive(Debug, Clone, Serialize)]
pub struct SourceView {
    /// Source id.
    pub id: i64,
    /// Where it came from.
    pub uri: String,
    /// sha256 of its bytes.
    pub sha256: String,
    /// How it was read.
    pub kind: String,
    /// Size in bytes.
    pub size: u64,
    /// The encoding of its text.
    pub encoding: String,
    /// When it was stored (RFC 3339).
    pub ingested_at: String,
    /// Problems met while reading it.
    pub warnings: Vec<String>,
    /// Where inside a container it came from (JSON), if it did.
    pub origin: Option<String>,
    /// Its captions: (ordinal, caption id, span).
    pub captions: Vec<(u64, i64, Span)>,
}

/// A caption of the same photograph in another language.
#[derive(Debug, Clone, Serialize)]
pub struct TranslationRef {
    /// Its caption id.
    pub id: i64,
    /// Its language (ISO 639-1).
    pub lang: Option<String>,
    /// Its canonical text.
    pub text: String,
}
