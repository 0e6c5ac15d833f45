//! Writing batches: one SQLite transaction per batch, then the index catches up.

use cairn_model::{Record, SourceKind, Span};
use rusqlite::{OptionalExtension, params};
use rustc_hash::FxHashMap;
use tantivy::IndexWriter;

use crate::codec::{Codec, Dict, Stored, TRAIN_AT};
use crate::index::IndexDoc;
use crate::{Archive, Error, Result};

pub(crate) struct Writer {
    pub conn: rusqlite::Connection,
    pub index_writer: IndexWriter,
    /// The last batch whose captions were given to `index_writer` (committed or not);
    /// `None` until the first sync after opening.
    pub added_seq: Option<i64>,
    /// Caption ids above this were never given to the index (no old entry to delete);
    /// `None` when unknown.
    pub indexed_max_id: Option<i64>,
    /// Entries given to `index_writer` since its last commit.
    pub pending: u64,
    /// When the index was last committed.
    pub committed_at: std::time::Instant,
    /// How long index entries may wait for a commit after a batch (zero: every batch).
    pub interval: std::time::Duration,
    /// Every stored variant's id by exact key, loaded by the first batch (`None` before,
    /// and after a failed batch: it is loaded again). Looking a key up here instead of
    /// in the table's index saves a random page read per occurrence on a large archive.
    pub variants: Option<FxHashMap<[u8; 16], u32>>,
    /// During a bulk write (the blobs' unique index dropped): every stored blob's id by
    /// a 64-bit hash of its sha256, the blobs there are.
    pub blobs: Option<FxHashMap<u64, i64>>,
}

impl Writer {
    pub fn new(conn: rusqlite::Connection, index_writer: IndexWriter) -> Self {
        Writer {
            conn,
            index_writer,
            added_seq: None,
            indexed_max_id: None,
            pending: 0,
            committed_at: std::time::Instant::now(),
            interval: std::time::Duration::ZERO,
            variants: None,
            blobs: None,
        }
    }

    /// The database connection, the index writer (and its lock) let go of.
    pub fn into_conn(self) -> rusqlite::Connection {
        let Writer {
            conn, index_writer, ..
        } = self;
        drop(index_writer);
        conn
    }

    /// Reads the map of blobs again from the database, during a bulk write whose map may
    /// be wrong or gone (a write rolled back, an index build that failed): without its
    /// unique index, a blob is known to be stored only by the map, so without the map
    /// the index must be there again.
    fn reload_blobs(&mut self) {
        self.blobs = load_blob_hashes(&self.conn).ok();
        if self.blobs.is_none() {
            let _ = self.conn.execute_batch(crate::db::BULK_INDEXES);
        }
    }
}

/// The 64-bit hash a bulk write finds a blob's sha256 by ([`Writer::blobs`]).
fn blob_hash(sha256: &str) -> u64 {
    use std::hash::BuildHasher;
    rustc_hash::FxBuildHasher.hash_one(sha256)
}

/// Every stored blob's id by [`blob_hash`] (one of two hashes that collide: the other is
/// then looked for in the table).
fn load_blob_hashes(conn: &rusqlite::Connection) -> rusqlite::Result<FxHashMap<u64, i64>> {
    let mut map = FxHashMap::default();
    let mut stmt = conn.prepare("SELECT id, sha256 FROM blob")?;
    let mut rows = stmt.query([])?;
    while let Some(r) = rows.next()? {
        let id: i64 = r.get(0)?;
        map.entry(blob_hash(r.get_ref(1)?.as_str()?)).or_insert(id);
    }
    Ok(map)
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
    /// `bytes` as one zstd frame, when the caller compressed them (in parallel, say);
    /// the store compresses them itself when this is `None`.
    pub packed: Option<Vec<u8>>,
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
    /// The extracted record, kept with the variant when the text is new. A caller that
    /// knows the text is stored already may leave it out; should the text be new after
    /// all, the store asks [`Clusterer::record`] for it.
    pub record: Option<Record>,
    /// `record` as the archive stores it, when the caller packed it ahead (see
    /// [`crate::RecordPacker`]); used if packed with the dictionary the archive writes
    /// with.
    pub packed: Option<crate::PackedRecord>,
}

/// Decides which caption a new distinct text belongs to. The store calls it inside the
/// batch's transaction, in input order.
pub trait Clusterer {
    /// The caption a new text (with its exact key) is a variant of, or `None` for a new
    /// caption.
    fn assign(&mut self, key: &[u8; 16], text: &str) -> Option<i64>;
    /// A new caption was created for `text`.
    fn created(&mut self, caption: i64, text: &str);
    /// Whether `candidate`, just joined to `caption`, should replace `current` as its
    /// canonical text.
    fn prefer(&mut self, caption: i64, candidate: &str, current: &str) -> bool;
    /// The record of a new text whose occurrence came without one (its caller took the
    /// text for one already stored). `None` fails the batch.
    fn record(&mut self, _text: &str) -> Option<Record> {
        None
    }
}

/// Exact deduplication only: every new text is a new caption.
#[derive(Debug, Default, Clone, Copy)]
pub struct ExactOnly;

impl Clusterer for ExactOnly {
    fn assign(&mut self, _key: &[u8; 16], _text: &str) -> Option<i64> {
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
    pub(crate) fn writer_mut(&mut self) -> &mut Writer {
        self.index_and_writer().1
    }

    /// The search index with the writer, borrowed together.
    fn index_and_writer(&mut self) -> (&crate::index::SearchIndex, &mut Writer) {
        let w = self
            .writer
            .as_mut()
            .expect("archive opened read-only; use Archive::open_writer")
            .get_mut()
            .unwrap_or_else(|p| p.into_inner());
        (&self.index, w)
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
        let mut write = self.begin_write()?;
        write.add_sources(sources, clusterer)?;
        write.commit()
    }

    /// Opens a write: one transaction (a batch) that sources are then added to, whole or
    /// a part at a time. See [`Write`].
    pub fn begin_write(&mut self) -> Result<Write<'_>> {
        let now = jiff::Timestamp::now().to_string();
        let dict = self.codec.current();
        let db_path = self.db_path.clone();
        let err = move |source| Error::Db {
            path: db_path.clone(),
            source,
        };
        let w = self.writer_mut();
        // Whether the index was given every batch before this one: then this batch's
        // new captions go to it from memory (else it catches up from the database).
        let index_in_step = w.added_seq.is_some();
        w.conn.execute_batch("BEGIN").map_err(&err)?;
        let mut write = Write {
            archive: self,
            seq: 0,
            now,
            dict,
            trained: None,
            summary: BatchSummary::default(),
            touched: rustc_hash::FxHashSet::default(),
            index_in_step,
            gave_index: false,
            done: false,
        };
        // From here on, a failure rolls the transaction back (`Drop`).
        let w = write.archive.writer_mut();
        let before: i64 = w
            .conn
            .query_row("SELECT coalesce(max(seq), 0) FROM batch", [], |r| r.get(0))
            .map_err(&err)?;
        let in_step = w.added_seq == Some(before);
        if w.variants.is_none() {
            w.variants = load_variant_keys(&w.conn).map_err(&err)?;
        }
        w.conn
            .execute("INSERT INTO batch (started_at) VALUES (?1)", [&write.now])
            .map_err(&err)?;
        write.seq = w.conn.last_insert_rowid();
        write.index_in_step &= in_step;
        Ok(write)
    }

    /// Starts a write of many batches: drops the database indexes keyed by hashes
    /// (variants by exact key, blobs by sha256) and occurrences by variant, which
    /// [`Archive::end_bulk`] builds again in one sorted pass each instead of one insert
    /// into a random page per row, a page every commit writes again. Meanwhile the writer
    /// finds keys and blobs in memory; readers that look rows up through those indexes
    /// scan, until the end of the write (or until the next writer opens the archive,
    /// after a crash).
    pub fn begin_bulk(&mut self) -> Result<()> {
        let db_path = self.db_path.clone();
        let err = |source| Error::Db {
            path: db_path.clone(),
            source,
        };
        let w = self.writer_mut();
        if w.blobs.is_some() {
            return Ok(());
        }
        let blobs = load_blob_hashes(&w.conn).map_err(err)?;
        w.conn
            .execute_batch(crate::db::DROP_BULK_INDEXES)
            .map_err(err)?;
        w.conn
            .pragma_update(None, "cache_size", crate::db::BULK_CACHE_KIB)
            .map_err(err)?;
        w.blobs = Some(blobs);
        Ok(())
    }

    /// Ends a write of many batches ([`Archive::begin_bulk`]): builds the indexes it
    /// dropped. A key or hash stored twice (which the writer never does) fails here.
    pub fn end_bulk(&mut self) -> Result<()> {
        let db_path = self.db_path.clone();
        let err = |source| Error::Db {
            path: db_path.clone(),
            source,
        };
        // Each index is built by a scan of its table, whose pages lie among the other
        // tables' pages (they grew together): from the disk, that is small reads all over
        // the file. One read of the file from start to end first leaves it in the system's
        // cache for the scans. On a million-page archive (3.6 GB), cold: 20 to 22 s for the
        // read and the three builds, against 28 to 67 s for the builds alone. A failed read
        // only loses that; SQLite reports what is wrong with the file itself.
        let _ = read_through(&db_path);
        let w = self.writer_mut();
        // The maps of keys and blobs (some 120 MB at a million pages) are let go before
        // the builds, not after: the end of a bulk write is usually the end of the run,
        // and the variants' map is loaded again by the next batch, if one comes.
        w.variants = None;
        w.blobs = None;
        // The indexes are built, and later writes look keys up in them, with the whole cache.
        let built = w
            .conn
            .pragma_update(None, "cache_size", crate::db::WRITE_CACHE_KIB)
            .and_then(|()| w.conn.execute_batch(crate::db::BULK_INDEXES));
        if let Err(e) = built {
            w.reload_blobs();
            return Err(err(e));
        }
        Ok(())
    }

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

    /// How long new index entries may wait before the index is committed (searches
    /// see them then): zero, the default, commits it after every batch. Committing
    /// costs a flush of the entries so far and, over a long ingest, merges; a writer
    /// that stores many batches commits every few seconds instead and calls
    /// [`Archive::sync_index`] when done. Nothing is lost by waiting: the database is
    /// the truth, and a writer opening the archive indexes what the index lacks.
    pub fn set_index_interval(&mut self, interval: std::time::Duration) {
        self.writer_mut().interval = interval;
    }

    /// Brings the search index up to date with the database and commits it: indexes
    /// every caption changed since the batch the index last reflects (all of them for a
    /// new index).
    pub fn sync_index(&mut self) -> Result<u64> {
        let n = self.add_changes_to_index()?;
        self.commit_index()?;
        Ok(n)
    }

    /// Gives the index writer every caption changed since the last batch it was given
    /// (since the last commit, when opening); commits nothing.
    fn add_changes_to_index(&mut self) -> Result<u64> {
        let db_path = self.db_path.clone();
        let err = |source| Error::Db {
            path: db_path.clone(),
            source,
        };
        let committed = match self.writer_mut().added_seq {
            Some(_) => None,
            None => Some(self.index.indexed_seq()?),
        };
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
        let from = match (w.added_seq, committed) {
            (Some(s), _) => s,
            (None, Some(Some(s))) if s <= db_seq => s,
            // New, stale-schema, or ahead of the database (restored from elsewhere): rebuild.
            (None, _) => {
                w.index_writer
                    .delete_all_documents()
                    .map_err(|e| Error::Index {
                        path: db_path.clone(),
                        message: e.to_string(),
                    })?;
                w.indexed_max_id = Some(0);
                w.pending += 1;
                -1
            }
        };
        if from == db_seq {
            w.added_seq = Some(db_seq);
            return Ok(0);
        }
        let mut n = 0;
        let mut max_id = w.indexed_max_id.unwrap_or(i64::MAX);
        {
            let mut stmt = w
                .conn
                .prepare_cached(&format!("{INDEX_DOC_SQL} WHERE c.seq > ?1"))
                .map_err(err)?;
            let codec = &self.codec;
            let conn = &w.conn;
            let rows = stmt
                .query_map([from], |r| index_doc(codec, conn, r))
                .map_err(err)?;
            let known_up_to = w.indexed_max_id;
            for row in rows {
                let doc = row.map_err(err)?;
                // A caption above every id the index was given has no entry to replace.
                let replaces = known_up_to.is_none_or(|m| doc.id as i64 <= m);
                max_id = max_id.max(doc.id as i64);
                self.index.add(&w.index_writer, doc, replaces)?;
                n += 1;
            }
        }
        if w.indexed_max_id.is_none() {
            // Opening: from now on, ids above the largest one stored were never indexed.
            max_id = w
                .conn
                .query_row("SELECT coalesce(max(id), 0) FROM caption", [], |r| r.get(0))
                .map_err(err)?;
        }
        w.indexed_max_id = Some(max_id);
        w.added_seq = Some(db_seq);
        w.pending += n;
        Ok(n)
    }

    /// Gives the index writer the captions batch `seq`, just committed, added variants
    /// to (`touched`, read back), when the writer was given every batch before it (the
    /// captions it created were given as they were stored: see [`Write`]).
    fn add_touched_to_index(
        &mut self,
        seq: i64,
        touched: rustc_hash::FxHashSet<i64>,
    ) -> Result<()> {
        let db_path = self.db_path.clone();
        let err = |source| Error::Db {
            path: db_path.clone(),
            source,
        };
        let w = self
            .writer
            .as_mut()
            .expect("indexing needs a writer")
            .get_mut()
            .unwrap_or_else(|p| p.into_inner());
        let known_up_to = w.indexed_max_id.unwrap_or(i64::MAX);
        let mut max_id = known_up_to;
        let mut n = 0;
        let mut touched: Vec<i64> = touched.into_iter().collect();
        touched.sort_unstable();
        let mut stmt = w
            .conn
            .prepare_cached(&format!("{INDEX_DOC_SQL} WHERE c.id = ?1"))
            .map_err(err)?;
        for id in touched {
            let codec = &self.codec;
            let conn = &w.conn;
            let doc = stmt
                .query_row([id], |r| index_doc(codec, conn, r))
                .map_err(err)?;
            self.index.add(&w.index_writer, doc, id <= known_up_to)?;
            max_id = max_id.max(id);
            n += 1;
        }
        w.indexed_max_id = Some(max_id);
        w.added_seq = Some(seq);
        w.pending += n;
        Ok(())
    }

    /// Commits what the index writer was given, if anything, with the batch it reflects.
    fn commit_index(&mut self) -> Result<()> {
        let w = self
            .writer
            .as_mut()
            .expect("commit_index needs a writer")
            .get_mut()
            .unwrap_or_else(|p| p.into_inner());
        let Some(seq) = w.added_seq else {
            return Ok(());
        };
        let stale = self.index.indexed_seq()? != Some(seq);
        if w.pending > 0 || stale {
            self.index.commit(&mut w.index_writer, seq)?;
        }
        w.pending = 0;
        w.committed_at = std::time::Instant::now();
        Ok(())
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

    /// Calls `f` with the exact key of every variant (distinct caption text) stored.
    pub fn for_each_variant_key(&self, mut f: impl FnMut(&[u8; 16])) -> Result<()> {
        self.with_conn(|c| {
            let mut stmt = c
                .prepare("SELECT key FROM variant")
                .map_err(self.db_err())?;
            let mut rows = stmt.query([]).map_err(self.db_err())?;
            while let Some(r) = rows.next().map_err(self.db_err())? {
                let key = r.get_ref(0).map_err(self.db_err())?;
                if let Ok(k) = <[u8; 16]>::try_from(key.as_blob().unwrap_or_default()) {
                    f(&k);
                }
            }
            Ok(())
        })
    }

    /// Merges the search index's segments into one when there are more than
    /// `max_segments` or a fifth of its documents are deleted; returns whether it did.
    pub fn compact_index(&mut self, max_segments: usize) -> Result<bool> {
        self.sync_index()?;
        let (index, w) = self.index_and_writer();
        index.compact(&mut w.index_writer, max_segments)
    }

    /// Ends an ingest: brings the search index up to date and commits it, then, at the
    /// same time, merges its segments as [`Archive::compact_index`] does (when
    /// `compact_segments` is given) on the index writer's merge thread and ends a bulk
    /// write ([`Archive::end_bulk`], when `bulk`) on this one. The two are independent
    /// (one the index's files, the other the database's indexes), and at the end of a
    /// large ingest each takes seconds on one core. Returns whether the index was merged.
    pub fn finish_ingest(&mut self, bulk: bool, compact_segments: Option<usize>) -> Result<bool> {
        self.sync_index()?;
        let merging = match compact_segments {
            Some(max) => {
                let (index, w) = self.index_and_writer();
                index.start_compaction(&mut w.index_writer, max)?
            }
            None => None,
        };
        // The merge is waited for whatever becomes of the bulk indexes.
        let built = if bulk { self.end_bulk() } else { Ok(()) };
        let merged = match compact_segments {
            Some(max) => {
                let (index, w) = self.index_and_writer();
                index.finish_compaction(&mut w.index_writer, merging, max)?
            }
            None => false,
        };
        built.map(|()| merged)
    }
}

/// A new caption's record as [`Write`] keeps it for the index to the end of a call:
/// borrowed from the input, or made by the clusterer and boxed. (As a `Cow` every entry
/// of a batch's list of new captions was the size of a whole record, and the list grew
/// by copying hundreds of kilobytes into fresh pages each batch.)
enum Made<'s> {
    Borrowed(&'s Record),
    Owned(Box<Record>),
}

impl std::ops::Deref for Made<'_> {
    type Target = Record;

    fn deref(&self) -> &Record {
        match self {
            Made::Borrowed(r) => r,
            Made::Owned(r) => r,
        }
    }
}

/// A write in progress: one SQLite transaction (one batch) that sources are added to,
/// whole ([`Write::add_sources`]) or a part at a time ([`Write::add_source`] with its
/// first occurrences, then [`Write::add_occurrences`]), so that a source with more
/// captions than fit in memory at once is still stored in one transaction: a crash
/// leaves none of it, and a re-run finds it missing and stores it. [`Write::commit`]
/// stores everything added; a write dropped without it, or after an error, leaves the
/// archive as it was.
///
/// The new captions of each call go to the search index writer as they are stored
/// (their texts and records need not be kept to the end); a write that does not commit
/// takes them back out (the index writer is rolled back to its last commit, and the
/// next write catches up from the database).
pub struct Write<'a> {
    archive: &'a mut Archive,
    seq: i64,
    now: String,
    /// The record dictionary this write packs with (trained by it, if `trained`).
    dict: Option<std::sync::Arc<Dict>>,
    trained: Option<std::sync::Arc<Dict>>,
    summary: BatchSummary,
    /// Captions this write added a variant to: read back for the index after the commit.
    touched: rustc_hash::FxHashSet<i64>,
    /// Whether the index writer was given every batch before this one.
    index_in_step: bool,
    /// Whether entries went to the index writer during this write.
    gave_index: bool,
    done: bool,
}

impl std::fmt::Debug for Write<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Write")
            .field("seq", &self.seq)
            .field("summary", &self.summary)
            .finish_non_exhaustive()
    }
}

/// A source stored by [`Write::add_source`], to which [`Write::add_occurrences`] adds
/// more of its captions.
#[derive(Debug)]
pub struct StoredSource {
    id: i64,
    uri: String,
    next_ordinal: usize,
}

impl Write<'_> {
    /// Adds sources with all their occurrences; those already stored (same uri and
    /// sha256) are skipped.
    pub fn add_sources(
        &mut self,
        sources: &[NewSource],
        clusterer: &mut dyn Clusterer,
    ) -> Result<()> {
        self.put(sources, None, clusterer).map(|_| ())
    }

    /// Adds one source with the occurrences it carries (its first part); returns the
    /// handle to add the rest with, or `None` if the source is stored already.
    pub fn add_source(
        &mut self,
        source: &NewSource,
        clusterer: &mut dyn Clusterer,
    ) -> Result<Option<StoredSource>> {
        self.put(std::slice::from_ref(source), None, clusterer)
    }

    /// Adds more occurrences of a source added by this write, after those it has.
    pub fn add_occurrences(
        &mut self,
        source: &mut StoredSource,
        occurrences: &[NewOccurrence],
        clusterer: &mut dyn Clusterer,
    ) -> Result<()> {
        self.put(&[], Some((source, occurrences)), clusterer)
            .map(|_| ())
    }

    /// What the write has changed so far.
    pub fn summary(&self) -> &BatchSummary {
        &self.summary
    }

    /// Stores `sources`, or more occurrences of a source (`more`), and gives the index
    /// writer the captions they create; the handle of the last source if it was stored.
    fn put<'s>(
        &mut self,
        sources: &'s [NewSource],
        more: Option<(&mut StoredSource, &'s [NewOccurrence])>,
        clusterer: &mut dyn Clusterer,
    ) -> Result<Option<StoredSource>> {
        let db_path = self.archive.db_path.clone();
        let err = |source| Error::Db {
            path: db_path.clone(),
            source,
        };
        let seq = self.seq;
        let Archive {
            writer,
            index,
            codec: _,
            ..
        } = &mut *self.archive;
        let w = writer
            .as_mut()
            .expect("archive opened read-only; use Archive::open_writer")
            .get_mut()
            .unwrap_or_else(|p| p.into_inner());
        let conn = &w.conn;
        let variants = &mut w.variants;
        let blobs = &mut w.blobs;
        let summary = &mut self.summary;
        let touched = &mut self.touched;
        // Records are packed with the archive's dictionary; the write that brings the
        // archive to TRAIN_AT records trains it (inside its transaction, so the
        // dictionary and the records packed with it commit together).
        if self.dict.is_none() {
            let incoming = sources
                .iter()
                .flat_map(|s| &s.occurrences)
                .chain(more.as_ref().map(|(_, o)| *o).unwrap_or_default());
            self.trained = train_dictionary(conn, incoming, &self.now).map_err(err)?;
            self.dict = self.trained.clone();
        }
        let dict = self.dict.as_deref();
        // Captions created here (with their text and record), for the index.
        let mut created: Vec<(i64, &'s str, Made<'s>)> = Vec::new();
        let mut last = None;
        {
            let mut exists = conn
                .prepare_cached("SELECT 1 FROM source WHERE uri = ?1 AND sha256 = ?2")
                .map_err(err)?;
            let mut put_blob = conn
                .prepare_cached(
                    "INSERT OR IGNORE INTO blob (sha256, size, codec, data) VALUES (?1, ?2, 'zstd', ?3)",
                )
                .map_err(err)?;
            let mut blob_sha = conn
                .prepare_cached("SELECT sha256 FROM blob WHERE id = ?1")
                .map_err(err)?;
            let mut blob_by_sha = conn
                .prepare_cached("SELECT 1 FROM blob WHERE sha256 = ?1")
                .map_err(err)?;
            let mut put_source = conn
                .prepare_cached(
                    "INSERT INTO source (uri, sha256, kind, size, encoding, text_len, ingested_at, batch, warnings, origin)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
                )
                .map_err(err)?;
            let mut find_variant = conn
                .prepare_cached("SELECT id FROM variant WHERE key = ?1")
                .map_err(err)?;
            let mut touch_caption = conn
                .prepare_cached("UPDATE caption SET seq = ?1 WHERE id = ?2 AND seq <> ?1")
                .map_err(err)?;
            let mut put_caption = conn
                .prepare_cached("INSERT INTO caption (seq) VALUES (?1)")
                .map_err(err)?;
            let mut put_variant = conn
                .prepare_cached(
                    "INSERT INTO variant (caption_id, key, text, record) VALUES (?1, ?2, ?3, ?4)",
                )
                .map_err(err)?;
            let mut canonical_text = conn
                .prepare_cached(
                    "SELECT v.text FROM caption c JOIN variant v ON v.id = c.canonical_variant WHERE c.id = ?1",
                )
                .map_err(err)?;
            let mut set_canonical = conn
                .prepare_cached("UPDATE caption SET canonical_variant = ?1 WHERE id = ?2")
                .map_err(err)?;
            let mut put_occurrence = conn
                .prepare_cached(
                    "INSERT INTO occurrence (source_id, variant_id, ordinal, start, end) VALUES (?1, ?2, ?3, ?4, ?5)",
                )
                .map_err(err)?;
            // The occurrences of one source, numbered from `first`.
            let mut put_occurrences = |source_id: i64,
                                       uri: &str,
                                       first: usize,
                                       occurrences: &'s [NewOccurrence]|
             -> Result<()> {
                for (ordinal, o) in (first..).zip(occurrences) {
                    let found: Option<i64> = match variants.as_ref() {
                        Some(map) => map.get(&o.key).map(|&v| i64::from(v)),
                        None => find_variant
                            .query_row([&o.key[..]], |r| r.get(0))
                            .optional()
                            .map_err(err)?,
                    };
                    let variant_id = match found {
                        // A known text on a new page: the caption's index entry does
                        // not change (sources are not in the index).
                        Some(v) => v,
                        None => {
                            let record = match &o.record {
                                Some(r) => Made::Borrowed(r),
                                None => Made::Owned(Box::new(
                                    clusterer.record(&o.text).ok_or_else(|| Error::Corrupt {
                                        path: db_path.clone(),
                                        message: format!(
                                            "a new caption text of {uri} came without its record"
                                        ),
                                    })?,
                                )),
                            };
                            let stored = match &o.packed {
                                Some(p) if p.dict == dict.map(|d| d.id) => {
                                    std::borrow::Cow::Borrowed(&p.stored)
                                }
                                _ => std::borrow::Cow::Owned(Codec::encode(&record, dict)),
                            };
                            let record_row: &Stored = &stored;
                            summary.variants_added += 1;
                            match clusterer.assign(&o.key, &o.text) {
                                Some(caption_id) => {
                                    // A new text of a known photograph.
                                    put_variant
                                        .execute(params![
                                            caption_id,
                                            &o.key[..],
                                            o.text,
                                            record_row
                                        ])
                                        .map_err(err)?;
                                    let v = conn.last_insert_rowid();
                                    remember(variants, o.key, v);
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
                                    touched.insert(caption_id);
                                    summary.variants_joined += 1;
                                    v
                                }
                                None => {
                                    put_caption.execute([seq]).map_err(err)?;
                                    let caption_id = conn.last_insert_rowid();
                                    put_variant
                                        .execute(params![
                                            caption_id,
                                            &o.key[..],
                                            o.text,
                                            record_row
                                        ])
                                        .map_err(err)?;
                                    let v = conn.last_insert_rowid();
                                    remember(variants, o.key, v);
                                    set_canonical.execute(params![v, caption_id]).map_err(err)?;
                                    clusterer.created(caption_id, &o.text);
                                    created.push((caption_id, &o.text, record));
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
                Ok(())
            };
            if let Some((source, occurrences)) = more {
                put_occurrences(source.id, &source.uri, source.next_ordinal, occurrences)?;
                source.next_ordinal += occurrences.len();
            }
            for s in sources {
                if exists.exists(params![s.uri, s.sha256]).map_err(err)? {
                    summary.sources_skipped += 1;
                    last = None;
                    continue;
                }
                let packed = match &s.packed {
                    Some(p) => std::borrow::Cow::Borrowed(p),
                    None => {
                        std::borrow::Cow::Owned(pack(&s.bytes).map_err(|source| Error::Io {
                            path: db_path.clone(),
                            source,
                        })?)
                    }
                };
                // Without the unique index (a bulk write), the map says whether the
                // blob is stored; a hash shared with another blob is looked for in full.
                let stored_blob = match blobs.as_ref() {
                    None => false,
                    Some(map) => match map.get(&blob_hash(&s.sha256)) {
                        None => false,
                        Some(&id) => {
                            let sha: String =
                                blob_sha.query_row([id], |r| r.get(0)).map_err(err)?;
                            sha == s.sha256 || blob_by_sha.exists([&s.sha256]).map_err(err)?
                        }
                    },
                };
                if !stored_blob {
                    put_blob
                        .execute(params![s.sha256, s.bytes.len() as i64, &packed[..]])
                        .map_err(err)?;
                    if let Some(map) = blobs.as_mut() {
                        map.entry(blob_hash(&s.sha256))
                            .or_insert(conn.last_insert_rowid());
                    }
                }
                let warnings = serde_json::to_string(&s.warnings).unwrap_or_else(|_| "[]".into());
                put_source
                    .execute(params![
                        s.uri,
                        s.sha256,
                        s.kind.as_str(),
                        s.bytes.len() as i64,
                        s.encoding,
                        s.text_len as i64,
                        self.now,
                        seq,
                        warnings,
                        s.origin
                    ])
                    .map_err(err)?;
                let source_id = conn.last_insert_rowid();
                summary.sources_added += 1;
                put_occurrences(source_id, &s.uri, 0, &s.occurrences)?;
                last = Some(source_id);
            }
        }
        if self.index_in_step {
            // A caption this write also added a variant to is read back after the commit.
            let known_up_to = w.indexed_max_id.unwrap_or(i64::MAX);
            let mut max_id = known_up_to;
            for (id, text, record) in created {
                if self.touched.contains(&id) {
                    continue;
                }
                let record = match record {
                    Made::Borrowed(r) => std::borrow::Cow::Borrowed(r),
                    Made::Owned(r) => std::borrow::Cow::Owned(*r),
                };
                let doc = IndexDoc {
                    id: id as u64,
                    text: std::borrow::Cow::Borrowed(text),
                    record: Some(record),
                };
                self.gave_index = true;
                index.add(&w.index_writer, doc, id <= known_up_to)?;
                max_id = max_id.max(id);
                w.pending += 1;
            }
            w.indexed_max_id = Some(max_id);
        }
        // Only `add_source` keeps it: one source, so one copy of its uri.
        Ok(last.zip(sources.last()).map(|(id, s)| StoredSource {
            id,
            uri: s.uri.clone(),
            next_ordinal: s.occurrences.len(),
        }))
    }

    /// Commits the write: all it added is in the archive afterwards. A write that added
    /// no source leaves no batch behind. Then the index is given the captions that
    /// gained a variant, and committed if its interval has passed.
    pub fn commit(mut self) -> Result<BatchSummary> {
        let db_path = self.archive.db_path.clone();
        let err = move |source| Error::Db {
            path: db_path.clone(),
            source,
        };
        let summary = self.summary.clone();
        let seq = self.seq;
        let w = self.archive.writer_mut();
        if summary.sources_added == 0 {
            // Nothing new: leave no empty batch behind.
            w.conn.execute_batch("ROLLBACK").map_err(&err)?;
            self.done = true;
            return Ok(summary);
        }
        w.conn
            .execute(
                "UPDATE batch SET sources = ?1 WHERE seq = ?2",
                params![summary.sources_added as i64, seq],
            )
            .map_err(&err)?;
        w.conn.execute_batch("COMMIT").map_err(&err)?;
        self.done = true;
        if let Some(d) = self.trained.take() {
            self.archive.codec.install(d);
        }
        let touched = std::mem::take(&mut self.touched);
        if self.index_in_step {
            self.archive.add_touched_to_index(seq, touched)?;
        } else {
            self.archive.add_changes_to_index()?;
        }
        let w = self.archive.writer_mut();
        if w.committed_at.elapsed() >= w.interval {
            self.archive.commit_index()?;
        }
        Ok(summary)
    }
}

impl Drop for Write<'_> {
    /// An uncommitted write is rolled back, with what the writer keeps in memory.
    fn drop(&mut self) {
        if self.done {
            return;
        }
        let gave_index = self.gave_index;
        let w = self.archive.writer_mut();
        let _ = w.conn.execute_batch("ROLLBACK");
        // The maps may hold keys the transaction added.
        w.variants = None;
        if w.blobs.is_some() {
            w.reload_blobs();
        }
        if gave_index {
            // The index writer holds entries of captions that were never stored: back
            // to its last commit, from which the next write catches up.
            let _ = w.index_writer.rollback();
            w.added_seq = None;
            w.indexed_max_id = None;
            w.pending = 0;
        }
    }
}

/// A caption's index entry as the database holds it (id, every variant's text, the
/// canonical record), for the rows [`index_doc`] reads; the caller adds the `WHERE`.
pub(crate) const INDEX_DOC_SQL: &str = "SELECT c.id,
        (SELECT group_concat(text, char(10)) FROM variant WHERE caption_id = c.id),
        (SELECT record FROM variant WHERE id = c.canonical_variant)
     FROM caption c";

/// One row of [`INDEX_DOC_SQL`].
pub(crate) fn index_doc(
    codec: &Codec,
    conn: &rusqlite::Connection,
    r: &rusqlite::Row<'_>,
) -> rusqlite::Result<IndexDoc<'static>> {
    let record = codec.decode(conn, r.get_ref(2)?).unwrap_or_default();
    Ok(IndexDoc {
        id: r.get::<_, i64>(0)? as u64,
        text: r.get::<_, Option<String>>(1)?.unwrap_or_default().into(),
        record: record.map(std::borrow::Cow::Owned),
    })
}

/// Every variant's id by key, or `None` when an id does not fit the map (the store then
/// looks keys up in the table).
fn load_variant_keys(
    tx: &rusqlite::Connection,
) -> rusqlite::Result<Option<FxHashMap<[u8; 16], u32>>> {
    let n: i64 = tx.query_row("SELECT count(*) FROM variant", [], |r| r.get(0))?;
    let mut map = FxHashMap::default();
    map.reserve(n.max(0) as usize);
    let mut stmt = tx.prepare("SELECT key, id FROM variant")?;
    let mut rows = stmt.query([])?;
    while let Some(r) = rows.next()? {
        let key = r.get_ref(0)?.as_blob().unwrap_or_default();
        let id: i64 = r.get(1)?;
        let (Ok(key), Ok(id)) = (<[u8; 16]>::try_from(key), u32::try_from(id)) else {
            return Ok(None);
        };
        map.insert(key, id);
    }
    Ok(Some(map))
}

/// Records a new variant in the key map (which gives up when an id does not fit).
fn remember(map: &mut Option<FxHashMap<[u8; 16], u32>>, key: [u8; 16], id: i64) {
    if let Some(m) = map {
        match u32::try_from(id) {
            Ok(id) => {
                m.insert(key, id);
            }
            Err(_) => *map = None,
        }
    }
}

/// Reads a file from start to end in 1 MiB reads, keeping nothing (the bytes stay in the
/// operating system's cache, not in this process); the number of bytes read.
pub(crate) fn read_through(path: &std::path::Path) -> std::io::Result<u64> {
    let file = std::fs::File::open(path)?;
    std::io::copy(
        &mut std::io::BufReader::with_capacity(1 << 20, file),
        &mut std::io::sink(),
    )
}

/// zstd level for a source's bytes.
const BLOB_LEVEL: i32 = 3;

thread_local! {
    /// This thread's compression context for sources' bytes. Making one per source
    /// (`zstd::bulk::compress`) allocated and cleared its tables each time: 2 % of a
    /// 100,000-page ingest's CPU time went to `ZSTD_createCCtx` alone.
    static BLOB_ENCODER: std::cell::RefCell<Option<zstd::bulk::Compressor<'static>>> =
        const { std::cell::RefCell::new(None) };
}

/// A source's bytes as the archive stores them: one zstd frame (the same frame whichever
/// thread makes it and whatever it compressed before: each call starts a new frame with
/// the same parameters).
pub fn pack(bytes: &[u8]) -> std::io::Result<Vec<u8>> {
    BLOB_ENCODER.with_borrow_mut(|slot| {
        let compressor = match slot {
            Some(c) => c,
            None => slot.insert(zstd::bulk::Compressor::new(BLOB_LEVEL)?),
        };
        compressor.compress(bytes)
    })
}

/// Trains and stores the archive's record dictionary when the archive and this batch
/// together reach [`TRAIN_AT`] records; `None` before that (or if zstd cannot train).
fn train_dictionary<'o>(
    tx: &rusqlite::Connection,
    occurrences: impl Iterator<Item = &'o NewOccurrence> + Clone,
    now: &str,
) -> rusqlite::Result<Option<std::sync::Arc<Dict>>> {
    let stored: i64 = tx.query_row("SELECT count(*) FROM variant", [], |r| r.get(0))?;
    let incoming = occurrences.clone().filter(|o| o.record.is_some()).count();
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
    for o in occurrences {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Pseudo-random text of `n` bytes: words from a small list, so zstd finds matches.
    fn text(n: usize, seed: u64) -> Vec<u8> {
        let words = [
            "Douma", "rubble", "2016", "Syria", "a", "of", "REUTERS/", "\n\n",
        ];
        let mut out = Vec::with_capacity(n + 16);
        let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        while out.len() < n {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            out.extend_from_slice(words[(x % words.len() as u64) as usize].as_bytes());
            out.push(b' ');
        }
        out.truncate(n);
        out
    }

    #[test]
    fn a_reused_context_makes_the_frames_of_a_new_one() {
        // Sizes out of order: zstd sizes its tables by the input, so a small source
        // after a large one is the case a reused context could get wrong.
        for (i, n) in [0, 1, 5_000, 3_000_000, 70, 200_000, 5_000, 1 << 20]
            .into_iter()
            .enumerate()
        {
            let bytes = text(n, i as u64);
            let frame = pack(&bytes).unwrap();
            assert_eq!(
                frame,
                zstd::bulk::compress(&bytes, BLOB_LEVEL).unwrap(),
                "size {n}"
            );
            assert_eq!(zstd::stream::decode_all(&frame[..]).unwrap(), bytes);
        }
    }

    #[test]
    fn read_through_reads_the_whole_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        let bytes = text(3 << 20 | 12_345, 3);
        std::fs::write(&path, &bytes).unwrap();
        assert_eq!(read_through(&path).unwrap(), bytes.len() as u64);
        assert!(read_through(&dir.path().join("missing")).is_err());
    }

    #[test]
    fn threads_make_the_same_frames() {
        let bytes = text(40_000, 7);
        let here = pack(&bytes).unwrap();
        let there = std::thread::spawn(move || pack(&bytes).unwrap())
            .join()
            .unwrap();
        assert_eq!(here, there);
    }
}
