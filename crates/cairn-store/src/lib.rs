//! The archive: SQLite is the source of truth (sources with their bytes, occurrences,
//! variants, captions), tantivy is a search index rebuilt from it at will.
//!
//! Only this crate names rusqlite and tantivy types. Its API is synchronous; callers
//! that are async run it on blocking threads.
#![warn(missing_docs)]

mod aggregate;
mod backup;
pub use backup::{BackupReport, Restored, restore};
mod busiest;
mod check;
mod codec;
mod days;
mod db;
mod directory;
mod incidents;
pub use incidents::StoredIncident;
mod index;
mod lock;
mod poison;
mod query;
mod read;
mod rebuild;
mod rejected;
pub use rejected::Rejection;
mod accounts;
pub use accounts::{Account, Accounts, Role, TokenKind, TokenOwner};
mod review;
pub use review::{
    CORRECTABLE, DONE_MARKS, Edit, MAX_NOTE_BYTES, NEEDS_REVIEW, REASONS, Reextracted, Regroup,
    Regrouped, Review, Revision, Saved,
};
mod secret;
pub use secret::{MAX_PASSWORD_BYTES, MIN_PASSWORD_CHARS, token_hash};
mod sort;
pub use sort::UnknownSort;
mod stop;
mod table;
mod translations;
mod views;
mod write;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

pub use check::CheckReport;
pub use codec::{PackedRecord, RecordPacker};
pub use query::MAX_QUERY_DEPTH;
pub use stop::Stop;
pub use views::{
    Bucket, CaptionView, ExportedCaption, FacetCount, Facets, Filters, GeoCell, GeoGrid, Histogram,
    Hit, OccurrenceView, SearchRequest, SearchResults, Sort, SourceRef, SourceView, Stats,
    TranslationRef, VariantView,
};
pub use write::{
    ArchiveWriter, BatchSummary, Clusterer, ExactOnly, NewOccurrence, NewSource, StoredSource,
    Write, pack,
};

/// What can go wrong in the archive.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// SQLite failed.
    #[error("archive database {path}: {source}")]
    Db {
        /// The database file.
        path: PathBuf,
        /// What SQLite said.
        #[source]
        source: rusqlite::Error,
    },
    /// The search index failed.
    #[error("search index {path}: {message}")]
    Index {
        /// The index directory.
        path: PathBuf,
        /// What tantivy said.
        message: String,
    },
    /// A filesystem operation failed.
    #[error("{path}: {source}")]
    Io {
        /// The path.
        path: PathBuf,
        /// What the OS said.
        #[source]
        source: std::io::Error,
    },
    /// There is no archive where one was expected.
    #[error("no archive at {0} (create one with `cairn ingest`)")]
    NotFound(PathBuf),
    /// Another process holds the archive for writing.
    #[error(
        "the archive at {0} is being written by another cairn process; try again when it ends (writers wait their turn with --wait)"
    )]
    Busy(PathBuf),
    /// The archive was written by a newer cairn.
    #[error("archive {path} has schema version {found}, newer than this cairn knows ({known})")]
    TooNew {
        /// The database file.
        path: PathBuf,
        /// Its version.
        found: i64,
        /// The newest this build knows.
        known: i64,
    },
    /// The search query could not be parsed.
    #[error("bad query: {0}")]
    Query(String),
    /// The caller raised the [`Stop`] flag of a search or export before it ended.
    #[error("stopped before the end")]
    Stopped,
    /// What a caller asked to store does not fit (a field that cannot be corrected, a
    /// value that is no record's, an account that exists already).
    #[error("{0}")]
    Invalid(String),
    /// No caption has this id.
    #[error("no caption {0}")]
    NoCaption(i64),
    /// Stored data is not what it should be.
    #[error("archive {path} is inconsistent: {message}")]
    Corrupt {
        /// The database file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
}

/// Result alias for this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// The one way a SQLite error of the database at `path` becomes an [`Error`].
pub(crate) fn db_err(path: &Path) -> impl Fn(rusqlite::Error) -> Error + Copy + '_ {
    move |source| Error::Db {
        path: path.to_path_buf(),
        source,
    }
}

/// An open archive, for reading: every method takes `&self`, and any number of threads
/// may share one (`Arc<Archive>`). Writing goes through an [`ArchiveWriter`]
/// ([`Archive::open_writer`]), which hands out readers of its archive.
#[derive(Debug)]
pub struct Archive {
    dir: PathBuf,
    db_path: PathBuf,
    pool: Mutex<Vec<rusqlite::Connection>>,
    index: index::SearchIndex,
    codec: Arc<codec::Codec>,
}

impl Archive {
    /// The SQLite file inside a data directory.
    pub fn db_path(dir: &Path) -> PathBuf {
        dir.join("archive.sqlite")
    }

    /// Opens (creating if needed) the archive in `dir` for writing: takes the writer
    /// lock, runs migrations, and brings the search index up to date with the database.
    /// Fails at once with [`Error::Busy`] when another writer holds the lock.
    pub fn open_writer(dir: &Path) -> Result<ArchiveWriter> {
        Self::open_writer_waiting(dir, Duration::ZERO)
    }

    /// [`Archive::open_writer`], waiting up to `wait` for another writer to finish
    /// ([`Error::Busy`] if it does not). The lock is held until the writer is dropped:
    /// a long-lived process that writes now and then opens a writer for each write.
    pub fn open_writer_waiting(dir: &Path, wait: Duration) -> Result<ArchiveWriter> {
        ArchiveWriter::open(dir, wait)
    }

    /// Opens an existing archive for reading only. Many readers may run beside one writer.
    pub fn open_reader(dir: &Path) -> Result<Self> {
        let db_path = Self::db_path(dir);
        if !db_path.exists() {
            return Err(Error::NotFound(dir.to_path_buf()));
        }
        let conn = db::open_read(&db_path)?;
        let index = index::SearchIndex::open_existing(&dir.join("index"))?;
        Ok(Archive {
            dir: dir.to_path_buf(),
            db_path,
            pool: Mutex::new(vec![conn]),
            index,
            codec: Default::default(),
        })
    }

    /// The reading side of a writer's archive: its index and its record dictionaries,
    /// with read connections opened as they are needed.
    pub(crate) fn beside_writer(
        dir: &Path,
        index: index::SearchIndex,
        codec: Arc<codec::Codec>,
    ) -> Self {
        Archive {
            dir: dir.to_path_buf(),
            db_path: Self::db_path(dir),
            pool: Mutex::new(Vec::new()),
            index,
            codec,
        }
    }

    /// A packer of records in the form this archive stores them, to pack the records of
    /// a batch in parallel before [`ArchiveWriter::write_batch_with`] stores them.
    pub fn record_packer(&self) -> RecordPacker {
        RecordPacker(self.codec.clone())
    }

    /// The last batch stored (0 for an empty archive): it changes with every write, so
    /// a holder of state derived from the archive can tell whether it is still current.
    pub fn last_batch(&self) -> Result<i64> {
        self.with_conn(|c| {
            c.query_row("SELECT coalesce(max(seq), 0) FROM batch", [], |r| r.get(0))
                .map_err(self.db_err())
        })
    }

    /// The data directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Runs `f` with a pooled read connection.
    fn with_conn<T>(&self, f: impl FnOnce(&rusqlite::Connection) -> Result<T>) -> Result<T> {
        let conn = poison::lock(&self.pool).pop();
        let conn = match conn {
            Some(c) => c,
            None => db::open_read(&self.db_path)?,
        };
        let out = f(&conn);
        poison::lock(&self.pool).push(conn);
        out
    }

    fn db_err(&self) -> impl Fn(rusqlite::Error) -> Error + Copy + '_ {
        db_err(&self.db_path)
    }
}

#[cfg(test)]
mod tests {
    /// Readers are shared by threads (the server holds one in an `Arc`).
    #[test]
    fn an_archive_is_send_and_sync() {
        fn shared<T: Send + Sync>() {}
        shared::<super::Archive>();
        shared::<std::sync::Arc<super::Archive>>();
    }
}
