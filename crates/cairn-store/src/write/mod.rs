//! Writing the archive: the [`ArchiveWriter`] owns the write connection, the search
//! index's writer and the writer lock; readers of its archive share the rest.
//!
//! - `batch`: one SQLite transaction per batch ([`Write`]), `statements` its steps;
//! - `keys`: stored variants and blobs found in memory instead of the table's indexes;
//! - `bulk`: a write of many batches, with the indexes keyed by hashes built at its end;
//! - `in_step`: the search index kept in step with the database;
//! - `pack`: sources' bytes and records in the form they are stored.

mod batch;
mod bulk;
mod in_step;
mod keys;
mod pack;
mod statements;

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use cairn_model::{Record, SourceKind, Span};

use crate::codec::Codec;
use crate::index::SearchIndex;
use crate::lock::WriterLock;
use crate::{Archive, Error, Result, db, db_err, rebuild};

pub use batch::{StoredSource, Write};
pub use pack::pack;
pub(crate) use statements::NEW_CAPTION;

/// The one writer of an archive: opened with [`Archive::open_writer`], it holds the
/// writer lock until dropped. Writes take `&mut self`. It reads as the [`Archive`] it
/// writes (it dereferences to it), and hands out readers of it ([`ArchiveWriter::reader`])
/// that other threads keep while it writes.
pub struct ArchiveWriter {
    /// The reading side, shared with the readers handed out.
    pub(crate) archive: Arc<Archive>,
    /// The write connection.
    pub(crate) conn: rusqlite::Connection,
    /// The search index's writer and how far it has come.
    index: in_step::IndexSync,
    /// Stored variants and blobs by hash, kept in memory.
    keys: keys::Keys,
    /// Released last, after the index writer and the connection (declared above).
    _lock: WriterLock,
}

impl std::fmt::Debug for ArchiveWriter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ArchiveWriter")
            .field("dir", &self.archive.dir)
            .finish_non_exhaustive()
    }
}

/// A writer reads as its archive: what it wrote is there for it to read (through read
/// connections of their own, which see committed batches only).
impl std::ops::Deref for ArchiveWriter {
    type Target = Archive;

    fn deref(&self) -> &Archive {
        &self.archive
    }
}

impl ArchiveWriter {
    /// See [`Archive::open_writer_waiting`].
    pub(crate) fn open(dir: &Path, wait: Duration) -> Result<Self> {
        std::fs::create_dir_all(dir).map_err(|source| Error::Io {
            path: dir.to_path_buf(),
            source,
        })?;
        let lock = WriterLock::acquire(dir, wait)?;
        let db_path = Archive::db_path(dir);
        // The index before the database: a reader that finds the database finds an
        // index beside it, and the database appears whole (see `db::create`).
        let found = SearchIndex::open_for_writer(&dir.join("index"))?;
        let conn = db::open_write(&db_path)?;
        let codec = Arc::new(Codec::default());
        codec.load_current(&conn).map_err(db_err(&db_path))?;
        let mut writer = Self::attach(dir, conn, codec, found, lock)?;
        writer.sync_index()?;
        Ok(writer)
    }

    /// The writer of the index at `DIR/index` (`found`, when it can serve; else rebuilt
    /// beside first), the index not yet caught up with the database.
    fn attach(
        dir: &Path,
        conn: rusqlite::Connection,
        codec: Arc<Codec>,
        found: Option<SearchIndex>,
        lock: WriterLock,
    ) -> Result<Self> {
        let (index, index_writer) = rebuild::attach(dir, &conn, &codec, found)?;
        Ok(ArchiveWriter {
            archive: Arc::new(Archive::beside_writer(dir, index, codec)),
            conn,
            index: in_step::IndexSync::new(index_writer),
            keys: keys::Keys::default(),
            _lock: lock,
        })
    }

    /// A reader of this archive, for other threads to search and read while this one
    /// writes: it sees each batch once committed, and the index as last committed.
    pub fn reader(&self) -> Arc<Archive> {
        self.archive.clone()
    }

    /// Rebuilds the search index from the database beside the one in use and swaps it
    /// in whole: searches meanwhile answer from the old index, never from an empty or
    /// partial one. Returns the writer of the new index, with the number of captions
    /// indexed. Readers handed out before move to the new index when they next reload.
    pub fn reindex(self) -> Result<(Self, u64)> {
        let ArchiveWriter {
            archive,
            conn,
            index,
            keys: _,
            _lock: lock,
        } = self;
        // The index writer (on the directory about to be replaced) goes first.
        drop(index);
        let built = rebuild::build_beside(&archive.dir, &conn, &archive.codec);
        let found = SearchIndex::open_for_writer(&archive.dir.join("index"))?;
        let mut writer = Self::attach(&archive.dir, conn, archive.codec.clone(), found, lock)?;
        let n = built?;
        writer.sync_index()?;
        Ok((writer, n))
    }

    /// How long new index entries may wait before the index is committed (searches
    /// see them then): zero, the default, commits it after every batch. Committing
    /// costs a flush of the entries so far and, over a long ingest, merges; a writer
    /// that stores many batches commits every few seconds instead and calls
    /// [`ArchiveWriter::sync_index`] when done. Nothing is lost by waiting: the database
    /// is the truth, and a writer opening the archive indexes what the index lacks.
    pub fn set_index_interval(&mut self, interval: Duration) {
        self.index.interval = interval;
    }

    /// The way a SQLite error of this archive becomes an [`Error`].
    fn db_err(&self) -> impl Fn(rusqlite::Error) -> Error + Copy + '_ {
        db_err(&self.archive.db_path)
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

#[cfg(test)]
mod tests {
    /// A writer moves to the thread that writes (the pipeline's writer thread).
    #[test]
    fn a_writer_is_send() {
        fn sent<T: Send>() {}
        sent::<super::ArchiveWriter>();
    }
}
