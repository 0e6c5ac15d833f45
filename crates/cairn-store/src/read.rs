//! Reading the archive: counts, search, one caption with its provenance, one source.

use std::collections::BTreeMap;

use cairn_model::{Record, Span};
use rusqlite::{OptionalExtension, params};
use serde::Serialize;

use crate::codec::Codec;
use crate::{Archive, Error, Result, Stop};

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
    /// Earliest date (`YYYY`, `YYYY-MM` or `YYYY-MM-DD`); the caption's whole date must
    /// lie on or after it.
    pub from: Option<String>,
    /// Latest date; the caption's whole date must lie on or before it.
    pub to: Option<String>,
    /// At least this many killed.
    pub killed_min: Option<u32>,
    /// Location inside `[west, south, east, north]` (degrees).
    pub bbox: Option<[f64; 4]>,
    /// Appeared in a source whose uri starts with one of these prefixes.
    #[serde(default)]
    pub source: Vec<String>,
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
    /// The extracted record of the canonical text.
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
    /// The extracted record of the canonical text.
    pub record: Option<Record>,
    /// Number of distinct texts.
    pub variants: u64,
    /// Number of occurrences across sources.
    pub occurrences: u64,
    /// Every distinct source it appeared in.
    pub sources: Vec<SourceRef>,
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
    /// The extracted record of the canonical text.
    pub record: Option<Record>,
    /// Every distinct text, canonical first.
    pub variants: Vec<VariantView>,
    /// Every distinct source it appeared in.
    pub sources: Vec<SourceRef>,
    /// Captions of the same photograph in other languages (linked, never merged).
    pub translations: Vec<crate::translations::TranslationRef>,
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

impl Archive {
    /// Counts of what the archive holds.
    pub fn stats(&self) -> Result<Stats> {
        let indexed = self.index.num_docs()?;
        self.with_conn(|c| {
            let one = |sql: &str| -> Result<u64> {
                c.query_row(sql, [], |r| r.get::<_, i64>(0))
                    .map(|v| v as u64)
                    .map_err(self.db_err())
            };
            Ok(Stats {
                sources: one("SELECT count(*) FROM source")?,
                occurrences: one("SELECT count(*) FROM occurrence")?,
                captions: one("SELECT count(*) FROM caption")?,
                variants: one("SELECT count(*) FROM variant")?,
                blobs: one("SELECT count(*) FROM blob")?,
                source_bytes: one("SELECT coalesce(sum(size), 0) FROM blob")?,
                stored_bytes: one("SELECT coalesce(sum(length(data)), 0) FROM blob")?,
                batches: one("SELECT count(*) FROM batch")?,
                indexed,
            })
        })
    }

    /// Full-text search over captions.
    pub fn search(&self, req: &SearchRequest) -> Result<SearchResults> {
        self.search_until(req, &Stop::new())
    }

    /// [`Archive::search`] that ends early with [`Error::Stopped`] once `stop` is
    /// raised (a request that timed out need not run to its end).
    pub fn search_until(&self, req: &SearchRequest, stop: &Stop) -> Result<SearchResults> {
        let built = self.query(&req.query, &req.filters)?;
        let notice = built.notice;
        let m = self.index.search(built.query.as_ref(), req, stop)?;
        let (ids, total, facets, histogram, geo) = (m.hits, m.total, m.facets, m.histogram, m.geo);
        let limit = req.limit;
        self.with_conn(|c| {
            let mut hits = Vec::with_capacity(ids.len());
            for (id, score) in ids.into_iter().take(limit) {
                let id = id as i64;
                let Some((text, record)) = canonical(&self.codec, c, id).map_err(self.db_err())? else {
                    continue;
                };
                let sources = caption_sources(c, id).map_err(self.db_err())?;
                let occurrences: i64 = c
                    .prepare_cached(
                        "SELECT count(*) FROM occurrence o JOIN variant v ON v.id = o.variant_id WHERE v.caption_id = ?1",
                    )
                    .and_then(|mut s| s.query_row([id], |r| r.get(0)))
                    .map_err(self.db_err())?;
                hits.push(Hit { id, text, score, occurrences: occurrences as u64, sources, record });
            }
            Ok(SearchResults { total: total as u64, hits, facets, histogram, geo, notice })
        })
    }

    /// Counts of the places directly inside `path` among the matches of a search.
    pub fn place_children(&self, req: &SearchRequest, path: &[String]) -> Result<Vec<FacetCount>> {
        let built = self.query(&req.query, &req.filters)?;
        self.index.place_children(built.query.as_ref(), path)
    }

    /// One caption with all its variants, occurrences and sources; `None` if no such id.
    pub fn caption(&self, id: i64) -> Result<Option<CaptionView>> {
        self.with_conn(|c| {
            let Some((text, record)) = canonical(&self.codec, c, id).map_err(self.db_err())? else {
                return Ok(None);
            };
            let mut stmt = c
                .prepare_cached(
                    "SELECT v.id, v.text, o.ordinal, o.start, o.end, s.id, s.uri, s.sha256
                     FROM variant v JOIN caption c ON c.id = v.caption_id
                     LEFT JOIN occurrence o ON o.variant_id = v.id
                     LEFT JOIN source s ON s.id = o.source_id
                     WHERE v.caption_id = ?1
                     ORDER BY v.id = c.canonical_variant DESC, v.id, s.id, o.ordinal",
                )
                .map_err(self.db_err())?;
            let mut variants: Vec<VariantView> = Vec::new();
            let mut rows = stmt.query([id]).map_err(self.db_err())?;
            while let Some(r) = rows.next().map_err(self.db_err())? {
                let vid: i64 = r.get(0).map_err(self.db_err())?;
                if variants.last().map(|v| v.id) != Some(vid) {
                    variants.push(VariantView {
                        id: vid,
                        text: r.get(1).map_err(self.db_err())?,
                        occurrences: Vec::new(),
                    });
                }
                let sid: Option<i64> = r.get(5).map_err(self.db_err())?;
                if let Some(sid) = sid {
                    let occ = OccurrenceView {
                        source: SourceRef {
                            id: sid,
                            uri: r.get(6).map_err(self.db_err())?,
                            sha256: r.get(7).map_err(self.db_err())?,
                        },
                        ordinal: r.get::<_, i64>(2).map_err(self.db_err())? as u64,
                        span: Span::new(
                            r.get::<_, i64>(3).map_err(self.db_err())? as usize,
                            r.get::<_, i64>(4).map_err(self.db_err())? as usize,
                        ),
                    };
                    if let Some(v) = variants.last_mut() {
                        v.occurrences.push(occ);
                    }
                }
            }
            let sources = caption_sources(c, id).map_err(self.db_err())?;
            Ok(Some(CaptionView {
                id,
                text,
                record,
                variants,
                sources,
                translations: Vec::new(),
            }))
        })
        .and_then(|view| match view {
            Some(mut v) => {
                if let Some(r) = &v.record {
                    v.translations = self.translations(id, r)?;
                }
                Ok(Some(v))
            }
            None => Ok(None),
        })
    }

    /// One source's metadata and caption positions; `None` if no such id.
    pub fn source(&self, id: i64) -> Result<Option<SourceView>> {
        self.with_conn(|c| {
            let row = c
                .query_row(
                    "SELECT uri, sha256, kind, size, encoding, ingested_at, warnings, origin FROM source WHERE id = ?1",
                    [id],
                    |r| {
                        Ok((
                            r.get::<_, String>(0)?,
                            r.get::<_, String>(1)?,
                            r.get::<_, String>(2)?,
                            r.get::<_, i64>(3)?,
                            r.get::<_, String>(4)?,
                            r.get::<_, String>(5)?,
                            r.get::<_, String>(6)?,
                            r.get::<_, Option<String>>(7)?,
                        ))
                    },
                )
                .optional()
                .map_err(self.db_err())?;
            let Some((uri, sha256, kind, size, encoding, ingested_at, warnings, origin)) = row else {
                return Ok(None);
            };
            let mut stmt = c
                .prepare_cached(
                    "SELECT o.ordinal, v.caption_id, o.start, o.end FROM occurrence o
                     JOIN variant v ON v.id = o.variant_id WHERE o.source_id = ?1 ORDER BY o.ordinal",
                )
                .map_err(self.db_err())?;
            let captions = stmt
                .query_map([id], |r| {
                    Ok((
                        r.get::<_, i64>(0)? as u64,
                        r.get::<_, i64>(1)?,
                        Span::new(r.get::<_, i64>(2)? as usize, r.get::<_, i64>(3)? as usize),
                    ))
                })
                .map_err(self.db_err())?
                .collect::<rusqlite::Result<Vec<_>>>()
                .map_err(self.db_err())?;
            Ok(Some(SourceView {
                id,
                uri,
                sha256,
                kind,
                size: size as u64,
                encoding,
                ingested_at,
                warnings: serde_json::from_str(&warnings).unwrap_or_default(),
                origin,
                captions,
            }))
        })
    }

    /// The exact bytes of a stored source, by sha256, checked against the hash.
    pub fn source_bytes(&self, sha256: &str) -> Result<Option<Vec<u8>>> {
        self.with_conn(|c| {
            let row: Option<(i64, Vec<u8>)> = c
                .query_row(
                    "SELECT size, data FROM blob WHERE sha256 = ?1",
                    [sha256],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .optional()
                .map_err(self.db_err())?;
            let Some((size, data)) = row else {
                return Ok(None);
            };
            let bytes =
                zstd::bulk::decompress(&data, size as usize).map_err(|e| Error::Corrupt {
                    path: self.db_path.clone(),
                    message: format!("source {sha256}: cannot decompress: {e}"),
                })?;
            Ok(Some(bytes))
        })
    }

    /// Calls `f` with every caption matching the query and filters of `req` (its
    /// paging and sort are ignored), in id order, until `f` fails.
    pub fn export<E: From<Error>>(
        &self,
        req: &SearchRequest,
        f: impl FnMut(&ExportedCaption) -> Result<(), E>,
    ) -> Result<u64, E> {
        self.export_until(req, &Stop::new(), f)
    }

    /// [`Archive::export`] that ends early with [`Error::Stopped`] once `stop` is
    /// raised.
    pub fn export_until<E: From<Error>>(
        &self,
        req: &SearchRequest,
        stop: &Stop,
        mut f: impl FnMut(&ExportedCaption) -> Result<(), E>,
    ) -> Result<u64, E> {
        let built = self.query(&req.query, &req.filters)?;
        let ids = self.index.all_matches(built.query.as_ref(), stop)?;
        let mut n = 0;
        // Read in chunks, so a long export neither holds one read transaction for
        // its whole run nor pays a round trip per statement.
        for chunk in ids.chunks(512) {
            if stop.is_stopped() {
                return Err(Error::Stopped.into());
            }
            let items = self.with_conn(|c| {
                let mut out = Vec::with_capacity(chunk.len());
                let mut counts = c
                    .prepare_cached(
                        "SELECT (SELECT count(*) FROM variant WHERE caption_id = ?1),
                                (SELECT count(*) FROM occurrence o JOIN variant v ON v.id = o.variant_id
                                 WHERE v.caption_id = ?1)",
                    )
                    .map_err(self.db_err())?;
                for &id in chunk {
                    let id = id as i64;
                    let Some((text, record)) = canonical(&self.codec, c, id).map_err(self.db_err())? else {
                        continue;
                    };
                    let (variants, occurrences): (i64, i64) = counts
                        .query_row([id], |r| Ok((r.get(0)?, r.get(1)?)))
                        .map_err(self.db_err())?;
                    out.push(ExportedCaption {
                        id,
                        text,
                        record,
                        variants: variants as u64,
                        occurrences: occurrences as u64,
                        sources: caption_sources(c, id).map_err(self.db_err())?,
                    });
                }
                Ok(out)
            })?;
            for item in &items {
                f(item)?;
                n += 1;
            }
        }
        Ok(n)
    }

    /// The index query for a text and filters; a source filter is looked up in the
    /// database (the captions seen on a source whose uri starts with a prefix), so
    /// that the index does not change when a known caption turns up on a new page.
    fn query(&self, text: &str, filters: &Filters) -> Result<crate::index::Built> {
        if filters.source.is_empty() {
            return self.index.build(text, filters, None);
        }
        let ids = self.with_conn(|c| {
            let mut stmt = c
                .prepare_cached(
                    "SELECT DISTINCT v.caption_id FROM source s
                     JOIN occurrence o ON o.source_id = s.id
                     JOIN variant v ON v.id = o.variant_id
                     WHERE s.uri >= ?1 AND s.uri < ?2",
                )
                .map_err(self.db_err())?;
            let mut ids = std::collections::BTreeSet::new();
            for prefix in &filters.source {
                // Every uri that starts with the prefix sorts between it and the prefix
                // followed by the highest character.
                let high = format!("{prefix}\u{10FFFF}");
                let rows = stmt
                    .query_map(params![prefix, high], |r| r.get::<_, i64>(0))
                    .map_err(self.db_err())?;
                for id in rows {
                    ids.insert(id.map_err(self.db_err())? as u64);
                }
            }
            Ok(ids.into_iter().collect::<Vec<u64>>())
        })?;
        self.index.build(text, filters, Some(&ids))
    }

    /// Whether a source with this uri and sha256 is stored.
    pub fn has_source(&self, uri: &str, sha256: &str) -> Result<bool> {
        self.with_conn(|c| {
            c.prepare_cached("SELECT 1 FROM source WHERE uri = ?1 AND sha256 = ?2")
                .and_then(|mut st| st.exists(params![uri, sha256]))
                .map_err(self.db_err())
        })
    }

    /// Source ids per caption, for many captions at once.
    pub fn sources_of(&self, ids: &[i64]) -> Result<BTreeMap<i64, Vec<SourceRef>>> {
        self.with_conn(|c| {
            let mut out = BTreeMap::new();
            for &id in ids {
                out.insert(id, caption_sources(c, id).map_err(self.db_err())?);
            }
            Ok(out)
        })
    }
}

fn canonical(
    codec: &Codec,
    c: &rusqlite::Connection,
    id: i64,
) -> rusqlite::Result<Option<(String, Option<Record>)>> {
    c.prepare_cached(
        "SELECT v.text, v.record FROM caption c JOIN variant v ON v.id = c.canonical_variant WHERE c.id = ?1",
    )?
    .query_row([id], |r| {
        let text: String = r.get(0)?;
        let record = codec.decode(c, r.get_ref(1)?).map_err(|e| {
            rusqlite::Error::FromSqlConversionFailure(1, rusqlite::types::Type::Blob, e.into())
        })?;
        Ok((text, record))
    })
    .optional()
}

fn caption_sources(c: &rusqlite::Connection, id: i64) -> rusqlite::Result<Vec<SourceRef>> {
    let mut stmt = c.prepare_cached(
        "SELECT DISTINCT s.id, s.uri, s.sha256 FROM variant v
         JOIN occurrence o ON o.variant_id = v.id JOIN source s ON s.id = o.source_id
         WHERE v.caption_id = ?1 ORDER BY s.id",
    )?;
    stmt.query_map(params![id], |r| {
        Ok(SourceRef {
            id: r.get(0)?,
            uri: r.get(1)?,
            sha256: r.get(2)?,
        })
    })?
    .collect()
}

impl Archive {
    /// Bytes of the sources stored (what a write's size is weighed against).
    pub fn stored_source_bytes(&self) -> Result<u64> {
        self.with_conn(|c| {
            c.query_row("SELECT coalesce(sum(size), 0) FROM source", [], |r| {
                r.get::<_, i64>(0)
            })
            .map(|n| n.max(0) as u64)
            .map_err(self.db_err())
        })
    }

    /// Calls `f` with every caption's id and canonical text (to rebuild a clusterer).
    pub fn for_each_canonical(&self, mut f: impl FnMut(i64, &str)) -> Result<()> {
        self.with_conn(|c| {
            let err = self.db_err();
            let mut stmt = c
                .prepare("SELECT c.id, v.text FROM caption c JOIN variant v ON v.id = c.canonical_variant ORDER BY c.id")
                .map_err(&err)?;
            let mut rows = stmt.query([]).map_err(&err)?;
            while let Some(r) = rows.next().map_err(&err)? {
                let id: i64 = r.get(0).map_err(&err)?;
                let text: String = r.get(1).map_err(&err)?;
                f(id, &text);
            }
            Ok(())
        })
    }

    /// Calls `f` with the exact key of every variant (distinct caption text) stored.
    pub fn for_each_variant_key(&self, mut f: impl FnMut(&[u8; 16])) -> Result<()> {
        self.with_conn(|c| {
            let err = self.db_err();
            let mut stmt = c.prepare("SELECT key FROM variant").map_err(&err)?;
            let mut rows = stmt.query([]).map_err(&err)?;
            while let Some(r) = rows.next().map_err(&err)? {
                let key = r.get_ref(0).map_err(&err)?;
                if let Ok(k) = <[u8; 16]>::try_from(key.as_blob().unwrap_or_default()) {
                    f(&k);
                }
            }
            Ok(())
        })
    }
}
