//! Reading the archive: counts, search, one caption with its provenance, one source.

use std::collections::BTreeMap;

use cairn_model::{Record, Span};
use rusqlite::{OptionalExtension, params};

use crate::codec::Codec;
use crate::views::{
    CaptionView, ExportedCaption, FacetCount, Filters, Hit, OccurrenceView, SearchRequest,
    SearchResults, SourceRef, SourceView, Stats, VariantView,
};
use crate::{Archive, Error, Result, Stop};

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
            let review = crate::review::review_of(c, id).map_err(self.db_err())?;
            Ok(Some(CaptionView {
                id,
                text,
                record,
                variants,
                sources,
                translations: Vec::new(),
                review,
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
                        review: crate::review::review_of(c, id).map_err(self.db_err())?,
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
    /// database (the captions seen on a source whose uri starts with a prefix, or of
    /// that id), so
    /// that the index does not change when a known caption turns up on a new page.
    fn query(&self, text: &str, filters: &Filters) -> Result<crate::index::Built> {
        let by_source = if filters.source.is_empty() {
            None
        } else {
            Some(self.source_captions(&filters.source)?)
        };
        let by_incident = match filters.incident {
            Some(id) => Some(self.incident_captions(id)?),
            None => None,
        };
        let ids: Vec<u64> = match (by_source, by_incident) {
            (None, None) => return self.index.build(text, filters, None),
            (Some(a), None) | (None, Some(a)) => a.into_iter().collect(),
            (Some(a), Some(b)) => a.intersection(&b).copied().collect(),
        };
        self.index.build(text, filters, Some(&ids))
    }

    /// The captions seen on the sources `prefixes` name.
    fn source_captions(&self, prefixes: &[String]) -> Result<std::collections::BTreeSet<u64>> {
        self.with_conn(|c| {
            let mut stmt = c
                .prepare_cached(
                    "SELECT DISTINCT v.caption_id FROM source s
                     JOIN occurrence o ON o.source_id = s.id
                     JOIN variant v ON v.id = o.variant_id
                     WHERE s.uri >= ?1 AND s.uri < ?2",
                )
                .map_err(self.db_err())?;
            let mut by_id = c
                .prepare_cached(
                    "SELECT DISTINCT v.caption_id FROM occurrence o
                     JOIN variant v ON v.id = o.variant_id WHERE o.source_id = ?1",
                )
                .map_err(self.db_err())?;
            let mut ids = std::collections::BTreeSet::new();
            for prefix in prefixes {
                // Every uri has a scheme: a bare number is a source's id (the
                // source pages' own), never a prefix of one.
                if let Ok(source) = prefix.parse::<i64>() {
                    let rows = by_id
                        .query_map([source], |r| r.get::<_, i64>(0))
                        .map_err(self.db_err())?;
                    for id in rows {
                        ids.insert(id.map_err(self.db_err())? as u64);
                    }
                    continue;
                }
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
            Ok(ids)
        })
    }

    /// A source's uri by its id; `None` if no such id.
    pub fn source_uri(&self, id: i64) -> Result<Option<String>> {
        self.with_conn(|c| {
            c.prepare_cached("SELECT uri FROM source WHERE id = ?1")
                .and_then(|mut st| st.query_row([id], |r| r.get(0)).optional())
                .map_err(self.db_err())
        })
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

/// A caption's canonical text and the record people see: the extracted one with their
/// corrections over it.
pub(crate) fn canonical(
    codec: &Codec,
    c: &rusqlite::Connection,
    id: i64,
) -> rusqlite::Result<Option<(String, Option<Record>)>> {
    let Some((text, record)) = extracted(codec, c, id)? else {
        return Ok(None);
    };
    let corrections = crate::review::overlay::corrections_of(c, id)?;
    let record = crate::review::overlay::apply(record, &text, &corrections);
    Ok(Some((text, record)))
}

/// A caption's canonical text and its record as extracted.
fn extracted(
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
