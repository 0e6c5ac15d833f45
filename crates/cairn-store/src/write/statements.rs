//! The statements a batch stores rows with, prepared once per call, each behind a step
//! named for what it does to the archive.

use std::path::Path;

/// A new caption of batch `?1`. Its id is above every caption's and every id the
/// history names: a caption merged away leaves its revisions, never its id, to another.
pub(crate) const NEW_CAPTION: &str = "INSERT INTO caption (id, seq) VALUES ((SELECT max(
        coalesce((SELECT max(id) FROM caption), 0),
        coalesce((SELECT max(caption_id) FROM revision), 0)) + 1), ?1)";

use cairn_model::Span;
use rusqlite::{CachedStatement, Connection, OptionalExtension, params};

use super::NewSource;
use super::keys::{Keys, blob_hash};
use crate::codec::Stored;
use crate::{Result, db_err};

pub(super) struct Statements<'c> {
    conn: &'c Connection,
    db_path: &'c Path,
    source_exists: CachedStatement<'c>,
    put_blob: CachedStatement<'c>,
    blob_sha: CachedStatement<'c>,
    blob_by_sha: CachedStatement<'c>,
    put_source: CachedStatement<'c>,
    find_variant: CachedStatement<'c>,
    touch_caption: CachedStatement<'c>,
    put_caption: CachedStatement<'c>,
    put_variant: CachedStatement<'c>,
    canonical_text: CachedStatement<'c>,
    set_canonical: CachedStatement<'c>,
    put_occurrence: CachedStatement<'c>,
}

impl<'c> Statements<'c> {
    pub fn prepare(conn: &'c Connection, db_path: &'c Path) -> Result<Self> {
        let prepare = |sql: &str| conn.prepare_cached(sql).map_err(db_err(db_path));
        Ok(Statements {
            conn,
            db_path,
            source_exists: prepare("SELECT 1 FROM source WHERE uri = ?1 AND sha256 = ?2")?,
            put_blob: prepare(
                "INSERT OR IGNORE INTO blob (sha256, size, codec, data) VALUES (?1, ?2, 'zstd', ?3)",
            )?,
            blob_sha: prepare("SELECT sha256 FROM blob WHERE id = ?1")?,
            blob_by_sha: prepare("SELECT 1 FROM blob WHERE sha256 = ?1")?,
            put_source: prepare(
                "INSERT INTO source (uri, sha256, kind, size, encoding, text_len, ingested_at, batch, warnings, origin)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
            )?,
            find_variant: prepare("SELECT id FROM variant WHERE key = ?1")?,
            touch_caption: prepare("UPDATE caption SET seq = ?1 WHERE id = ?2 AND seq <> ?1")?,
            put_caption: prepare(NEW_CAPTION)?,
            put_variant: prepare(
                "INSERT INTO variant (caption_id, key, text, record) VALUES (?1, ?2, ?3, ?4)",
            )?,
            canonical_text: prepare(
                "SELECT v.text FROM caption c JOIN variant v ON v.id = c.canonical_variant WHERE c.id = ?1",
            )?,
            set_canonical: prepare("UPDATE caption SET canonical_variant = ?1 WHERE id = ?2")?,
            put_occurrence: prepare(
                "INSERT INTO occurrence (source_id, variant_id, ordinal, start, end) VALUES (?1, ?2, ?3, ?4, ?5)",
            )?,
        })
    }

    pub fn db_path(&self) -> &'c Path {
        self.db_path
    }

    /// Whether a source with this uri and sha256 is stored.
    pub fn source_exists(&mut self, uri: &str, sha256: &str) -> Result<bool> {
        self.source_exists
            .exists(params![uri, sha256])
            .map_err(db_err(self.db_path))
    }

    /// Stores a source's bytes (`packed`) unless a blob of the same hash is stored.
    pub fn put_blob(&mut self, keys: &mut Keys, s: &NewSource, packed: &[u8]) -> Result<()> {
        if self.blob_stored(keys, &s.sha256)? {
            return Ok(());
        }
        self.put_blob
            .execute(params![s.sha256, s.bytes.len() as i64, packed])
            .map_err(db_err(self.db_path))?;
        keys.remember_blob(&s.sha256, self.conn.last_insert_rowid());
        Ok(())
    }

    /// Whether the blob is stored, as a bulk write knows it without the unique index
    /// (with the index, the insert itself passes over a blob stored already). A hash
    /// shared with another blob is looked for in full.
    fn blob_stored(&mut self, keys: &Keys, sha256: &str) -> Result<bool> {
        let Some(&id) = keys.blobs.as_ref().and_then(|m| m.get(&blob_hash(sha256))) else {
            return Ok(false);
        };
        let err = db_err(self.db_path);
        let sha: String = self.blob_sha.query_row([id], |r| r.get(0)).map_err(&err)?;
        Ok(sha == sha256 || self.blob_by_sha.exists([sha256]).map_err(&err)?)
    }

    /// Stores a source's row in batch `seq`; its id.
    pub fn put_source(&mut self, s: &NewSource, now: &str, seq: i64) -> Result<i64> {
        let warnings = serde_json::to_string(&s.warnings).unwrap_or_else(|_| "[]".into());
        self.put_source
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
            .map_err(db_err(self.db_path))?;
        Ok(self.conn.last_insert_rowid())
    }

    /// The stored variant of an exact key, from the writer's map when it has one.
    pub fn find_variant(&mut self, keys: &Keys, key: &[u8; 16]) -> Result<Option<i64>> {
        match keys.variant(key) {
            Some(found) => Ok(found),
            None => self
                .find_variant
                .query_row([&key[..]], |r| r.get(0))
                .optional()
                .map_err(db_err(self.db_path)),
        }
    }

    /// Stores a new caption of batch `seq`, without its canonical variant yet; its id.
    pub fn put_caption(&mut self, seq: i64) -> Result<i64> {
        self.put_caption
            .execute([seq])
            .map_err(db_err(self.db_path))?;
        Ok(self.conn.last_insert_rowid())
    }

    /// Stores a new variant of `caption`, and remembers its key; its id.
    pub fn put_variant(
        &mut self,
        keys: &mut Keys,
        caption: i64,
        key: [u8; 16],
        text: &str,
        record: &Stored,
    ) -> Result<i64> {
        self.put_variant
            .execute(params![caption, &key[..], text, record])
            .map_err(db_err(self.db_path))?;
        let id = self.conn.last_insert_rowid();
        keys.remember_variant(key, id);
        Ok(id)
    }

    /// The text of a caption's canonical variant.
    pub fn canonical_text(&mut self, caption: i64) -> Result<String> {
        self.canonical_text
            .query_row([caption], |r| r.get(0))
            .map_err(db_err(self.db_path))
    }

    /// Makes `variant` the canonical one of `caption`.
    pub fn set_canonical(&mut self, variant: i64, caption: i64) -> Result<()> {
        self.set_canonical
            .execute(params![variant, caption])
            .map_err(db_err(self.db_path))
            .map(|_| ())
    }

    /// Marks a caption changed by batch `seq` (the index reads it back).
    pub fn touch_caption(&mut self, seq: i64, caption: i64) -> Result<()> {
        self.touch_caption
            .execute(params![seq, caption])
            .map_err(db_err(self.db_path))
            .map(|_| ())
    }

    /// Stores an occurrence of `variant` in `source`.
    pub fn put_occurrence(
        &mut self,
        source: i64,
        variant: i64,
        ordinal: usize,
        span: Span,
    ) -> Result<()> {
        self.put_occurrence
            .execute(params![
                source,
                variant,
                ordinal as i64,
                span.start as i64,
                span.end as i64
            ])
            .map_err(db_err(self.db_path))
            .map(|_| ())
    }
}
