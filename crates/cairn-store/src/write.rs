//! Writing batches: one SQLite transaction per batch, then the index catches up.

use cairn_model::{Record, SourceKind, Span};
use rusqlite::{OptionalExtension, params};
use tantivy::IndexWriter;

use crate::codec::{Codec, Dict, TRAIN_AT};
use crate::index::IndexDoc;
use crate::{Archive, Error, Result};

pub(crate) struct Writer {
    pub conn: rusqlite::Connection,
    pub index_writer: IndexWriter,
}

impl std::fmt::Debug for Writer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Writer").finish_non_exhaustive()
    }
}

/// A source to store, with the caption occurrences found in it.
#[derive(Debug, Clone)]
pub struct NewSource {
    /// Where it came from.
    pub uri: String,
    /// How it was read.
    pub kind: SourceKind,
    /// Lowercase hex sha256 of `bytes`.
    pub sha256: String,
    /// The exact bytes.
    pub bytes: Vec<u8>,
    /// The encoding the text was decoded from.
    pub encoding: String,
    /// Length in bytes of the decoded text the spans refer to.
    pub text_len: usize,
    /// Problems met while reading it.
    pub warnings: Vec<String>,
    /// Where inside a container it came from (JSON), if it did.
    pub origin: Option<String>,
    /// The captions found in it, in order.
    pub occurrences: Vec<NewOccurrence>,
}

/// One caption occurrence in a new source.
#[derive(Debug, Clone)]
pub struct NewOccurrence {
    /// Where it stands in the source text.
    pub span: Span,
    /// The caption text (whitespace folded).
    pub text: String,
    /// The exact-duplicate key of `text`.
    pub key: [u8; 16],
    /// The extracted record, kept with the variant when the text is new.
    pub record: Option<Record>,
}

/// Decides which caption a new distinct text belongs to. The store calls it inside the
/// batch's transaction, in input order.
pub trait Clusterer {
    /// The caption a new text is a variant of, or `None` for a new caption.
    fn assign(&mut self, text: &str) -> Option<i64>;
    /// A new caption was created for `text`.
    fn created(&mut self, caption: i64, text: &str);
    /// Whether `candidate`, just joined to `caption`, should replace `current` as its
    /// canonical text.
    fn prefer(&mut self, caption: i64, candidate: &str, current: &str) -> bool;
}

/// Exact deduplication only: every new text is a new caption.
#[derive(Debug, Default, Clone, Copy)]
pub struct ExactOnly;

impl Clusterer for ExactOnly {
    fn assign(&mut self, _text: &str) -> Option<i64> {
        None
    }
    fn created(&mut self, _caption: i64, _text: &str) {}
    fn prefer(&mut self, _caption: i64, _candidate: &str, _current: &str) -> bool {
        false
    }
}

/// What a batch changed.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct BatchSummary {
    /// Sources stored.
    pub sources_added: u64,
    /// Sources already in the archive, left as they were.
    pub sources_skipped: u64,
    /// Caption occurrences stored.
    pub occurrences_added: u64,
    /// New distinct caption texts.
    pub variants_added: u64,
    /// New captions.
    pub captions_added: u64,
    /// New texts that joined an existing caption as near-duplicates.
    pub variants_joined: u64,
}

impl Archive {
    fn writer_mut(&mut self) -> &mut Writer {
        self.writer
            .as_mut()
            .expect("archive opened read-only; use Archive::open_writer")
            .get_mut()
            .unwrap_or_else(|p| p.into_inner())
    }

    /// Stores a batch of sources in one transaction: either all of it is in the archive
    /// afterwards or none of it. Sources already stored (same uri and sha256) are skipped,
    /// so ingesting the same input twice changes nothing. Then the index catches up.
    pub fn write_batch(&mut self, sources: &[NewSource]) -> Result<BatchSummary> {
        self.write_batch_with(sources, &mut ExactOnly)
    }

    /// [`Archive::write_batch`] with a clusterer that assigns new caption texts to
    /// existing captions (near-duplicates) and picks canonical texts.
    pub fn write_batch_with(
        &mut self,
        sources: &[NewSource],
        clusterer: &mut dyn Clusterer,
    ) -> Result<BatchSummary> {
        let db_path = self.db_path.clone();
        let err = |source| Error::Db {
            path: db_path.clone(),
            source,
        };
        let now = jiff::Timestamp::now().to_string();
        let mut summary = BatchSummary::default();
        let codec = self.codec.clone();
        let w = self.writer_mut();
        let tx = w.conn.transaction().map_err(err)?;
        tx.execute("INSERT INTO batch (started_at) VALUES (?1)", [&now])
            .map_err(err)?;
        let seq = tx.last_insert_rowid();
        // Records are packed with the archive's dictionary; the first batch that brings
        // the archive to TRAIN_AT records trains it (inside this transaction, so the
        // dictionary and the records packed with it commit together).
        let mut trained: Option<std::sync::Arc<Dict>> = None;
        let dict = match codec.current() {
            Some(d) => Some(d),
            None => {
                trained = train_dictionary(&tx, sources, &now).map_err(err)?;
                trained.clone()
            }
        };
        {
            let mut exists = tx
                .prepare_cached("SELECT 1 FROM source WHERE uri = ?1 AND sha256 = ?2")
                .map_err(err)?;
            let mut put_blob = tx
                .prepare_cached(
                    "INSERT OR IGNORE INTO blob (sha256, size, codec, data) VALUES (?1, ?2, 'zstd', ?3)",
                )
                .map_err(err)?;
            let mut put_source = tx
                .prepare_cached(
                    "INSERT INTO source (uri, sha256, kind, size, encoding, text_len, ingested_at, batch, warnings, origin)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
                )
                .map_err(err)?;
            let mut find_variant = tx
                .prepare_cached("SELECT id FROM variant WHERE key = ?1")
                .map_err(err)?;
            let mut touch_caption = tx
                .prepare_cached("UPDATE caption SET seq = ?1 WHERE id = ?2 AND seq <> ?1")
                .map_err(err)?;
            let mut put_caption = tx
                .prepare_cached("INSERT INTO caption (seq) VALUES (?1)")
                .map_err(err)?;
            let mut put_variant = tx
                .prepare_cached(
                    "INSERT INTO variant (caption_id, key, text, record) VALUES (?1, ?2, ?3, ?4)",
                )
                .map_err(err)?;
            let mut canonical_text = tx
                .prepare_cached(
                    "SELECT v.text FROM caption c JOIN variant v ON v.id = c.canonical_variant WHERE c.id = ?1",
                )
                .map_err(err)?;
            let mut set_canonical = tx
                .prepare_cached("UPDATE caption SET canonical_variant = ?1 WHERE id = ?2")
                .map_err(err)?;
            let mut put_occurrence = tx
                .prepare_cached(
                    "INSERT INTO occurrence (source_id, variant_id, ordinal, start, end) VALUES (?1, ?2, ?3, ?4, ?5)",
                )
                .map_err(err)?;
            for s in sources {
                if exists.exists(params![s.uri, s.sha256]).map_err(err)? {
                    summary.sources_skipped += 1;
                    continue;
                }
                let packed = zstd::bulk::compress(&s.bytes, 3).map_err(|source| Error::Io {
                    path: db_path.clone(),
                    source,
                })?;
                put_blob
                    .execute(params![s.sha256, s.bytes.len() as i64, packed])
                    .map_err(err)?;
                let warnings = serde_json::to_string(&s.warnings).unwrap_or_else(|_| "[]".into());
                put_source
                    .execute(params![
                        s.uri,
                        s.sha256,
                        s.kind.as_str(),
                        s.bytes.len() as i64,
                        s.encoding,
                        s.text_len as i64,
                        now,
                        seq,
                        warnings,
                        s.origin
                    ])
                    .map_err(err)?;
                let source_id = tx.last_insert_rowid();
                summary.sources_added += 1;
                for (ordinal, o) in s.occurrences.iter().enumerate() {
                    let found: Option<i64> = find_variant
                        .query_row([&o.key[..]], |r| r.get(0))
                        .optional()
                        .map_err(err)?;
                    let variant_id = match found {
                        // A known text on a new page: the caption's index entry does
                        // not change (sources are not in the index).
                        Some(v) => v,
                        None => {
                            let record =
                                o.record.as_ref().map(|r| Codec::encode(r, dict.as_deref()));
                            summary.variants_added += 1;
                            match clusterer.assign(&o.text) {
                                Some(caption_id) => {
                                    // A new text of a known photograph.
                                    put_variant
                                        .execute(params![caption_id, &o.key[..], o.text, record])
                                        .map_err(err)?;
                                    let v = tx.last_insert_rowid();
                                    let current: String = canonical_text
                                        .query_row([caption_id], |r| r.get(0))
                                        .map_err(err)?;
                                    if clusterer.prefer(caption_id, &o.text, &current) {
                                        set_canonical
                                            .execute(params![v, caption_id])
                                            .map_err(err)?;
                                    }
                                    touch_caption
                                        .execute(params![seq, caption_id])
                                        .map_err(err)?;
                                    summary.variants_joined += 1;
                                    v
                                }
                                None => {
                                    put_caption.execute([seq]).map_err(err)?;
                                    let caption_id = tx.last_insert_rowid();
                                    put_variant
                                        .execute(params![caption_id, &o.key[..], o.text, record])
                                        .map_err(err)?;
                                    let v = tx.last_insert_rowid();
                                    set_canonical.execute(params![v, caption_id]).map_err(err)?;
                                    clusterer.created(caption_id, &o.text);
                                    summary.captions_added += 1;
                                    v
                                }
                            }
                        }
                    };
                    put_occurrence
                        .execute(params![
                            source_id,
                            variant_id,
                            ordinal as i64,
                            o.span.start as i64,
                            o.span.end as i64
                        ])
                        .map_err(err)?;
                    summary.occurrences_added += 1;
                }
            }
        }
        if summary.sources_added == 0 {
            // Nothing new: leave no empty batch behind.
            tx.rollback().map_err(err)?;
            return Ok(summary);
        }
        tx.execute(
            "UPDATE batch SET sources = ?1 WHERE seq = ?2",
            params![summary.sources_added as i64, seq],
        )
        .map_err(err)?;
        tx.commit().map_err(err)?;
        if let Some(d) = trained {
            codec.install(d);
        }
        self.sync_index()?;
        Ok(summary)
    }

    /// Brings the search index up to date with the database: indexes every caption
    /// changed since the batch the index last reflects (all of them for a new index).
    pub fn sync_index(&mut self) -> Result<u64> {
        let db_path = self.db_path.clone();
        let err = |source| Error::Db {
            path: db_path.clone(),
            source,
        };
        let indexed = self.index.indexed_seq()?;
        let w = self
            .writer
            .as_mut()
            .expect("sync_index needs a writer")
            .get_mut()
            .unwrap_or_else(|p| p.into_inner());
        let db_seq: i64 = w
            .conn
            .query_row("SELECT coalesce(max(seq), 0) FROM batch", [], |r| r.get(0))
            .map_err(err)?;
        let from = match indexed {
            Some(s) if s == db_seq => return Ok(0),
            Some(s) if s < db_seq => s,
            // New, stale-schema, or ahead of the database (restored from elsewhere): rebuild.
            _ => {
                w.index_writer
                    .delete_all_documents()
                    .map_err(|e| Error::Index {
                        path: db_path.clone(),
                        message: e.to_string(),
                    })?;
                -1
            }
        };
        let mut n = 0;
        {
            let mut stmt = w
                .conn
                .prepare(
                    "SELECT c.id,
                            (SELECT group_concat(text, char(10)) FROM variant WHERE caption_id = c.id),
                            (SELECT record FROM variant WHERE id = c.canonical_variant)
                     FROM caption c WHERE c.seq > ?1",
                )
                .map_err(err)?;
            let codec = &self.codec;
            let conn = &w.conn;
            let rows = stmt
                .query_map([from], |r| {
                    let record = codec.decode(conn, r.get_ref(2)?).unwrap_or_default();
                    Ok(IndexDoc {
                        id: r.get::<_, i64>(0)? as u64,
                        text: r.get::<_, Option<String>>(1)?.unwrap_or_default(),
                        record,
                    })
                })
                .map_err(err)?;
            for row in rows {
                self.index.add(&w.index_writer, row.map_err(err)?)?;
                n += 1;
            }
        }
        self.index.commit(&mut w.index_writer, db_seq)?;
        Ok(n)
    }

    /// Calls `f` with every caption's id and canonical text (to rebuild a clusterer).
    pub fn for_each_canonical(&self, mut f: impl FnMut(i64, &str)) -> Result<()> {
        self.with_conn(|c| {
            let mut stmt = c
                .prepare("SELECT c.id, v.text FROM caption c JOIN variant v ON v.id = c.canonical_variant ORDER BY c.id")
                .map_err(self.db_err())?;
            let mut rows = stmt.query([]).map_err(self.db_err())?;
            while let Some(r) = rows.next().map_err(self.db_err())? {
                let id: i64 = r.get(0).map_err(self.db_err())?;
                let text: String = r.get(1).map_err(self.db_err())?;
                f(id, &text);
            }
            Ok(())
        })
    }

    /// Merges the search index's segments into one when there are more than
    /// `max_segments` or a fifth of its documents are deleted; returns whether it did.
    pub fn compact_index(&mut self, max_segments: usize) -> Result<bool> {
        let w = self
            .writer
            .as_mut()
            .expect("compact_index needs a writer")
            .get_mut()
            .unwrap_or_else(|p| p.into_inner());
        self.index.compact(&mut w.index_writer, max_segments)
    }

    /// Rebuilds the search index from the database.
    pub fn reindex(&mut self) -> Result<u64> {
        let w = self
            .writer
            .as_mut()
            .expect("reindex needs a writer")
            .get_mut()
            .unwrap_or_else(|p| p.into_inner());
        w.index_writer
            .delete_all_documents()
            .map_err(|e| Error::Index {
                path: self.dir.join("index"),
                message: e.to_string(),
            })?;
        self.index.commit(&mut w.index_writer, -1)?;
        self.sync_index()
    }
}

/// Trains and stores the archive's record dictionary when the archive and this batch
/// together reach [`TRAIN_AT`] records; `None` before that (or if zstd cannot train).
fn train_dictionary(
    tx: &rusqlite::Transaction<'_>,
    sources: &[NewSource],
    now: &str,
) -> rusqlite::Result<Option<std::sync::Arc<Dict>>> {
    let stored: i64 = tx.query_row("SELECT count(*) FROM variant", [], |r| r.get(0))?;
    let incoming = sources
        .iter()
        .flat_map(|s| &s.occurrences)
        .filter(|o| o.record.is_some())
        .count();
    if (stored as usize) + incoming < TRAIN_AT {
        return Ok(None);
    }
    let mut samples: Vec<Vec<u8>> = Vec::new();
    {
        let mut stmt =
            tx.prepare("SELECT record FROM variant WHERE typeof(record) = 'text' LIMIT 8000")?;
        let mut rows = stmt.query([])?;
        while let Some(r) = rows.next()? {
            samples.push(r.get::<_, String>(0)?.into_bytes());
        }
    }
    let mut seen = std::collections::HashSet::new();
    for o in sources.iter().flat_map(|s| &s.occurrences) {
        if samples.len() >= 8000 {
            break;
        }
        if let Some(r) = &o.record {
            if seen.insert(o.key) {
                samples.push(serde_json::to_vec(r).unwrap_or_default());
            }
        }
    }
    let Some(d) = Dict::train(&samples) else {
        return Ok(None);
    };
    tx.execute(
        "INSERT INTO record_dict (id, data, created_at) VALUES (?1, ?2, ?3)",
        params![i64::from(d.id), d.bytes, now],
    )?;
    Ok(Some(std::sync::Arc::new(d)))
}
