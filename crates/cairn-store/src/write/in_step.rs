//! Keeping the search index in step with the database: the captions each batch creates
//! or changes go to the index writer, which commits with the last batch it reflects; a
//! writer that opens the archive gives it whatever it lacks.

use std::time::{Duration, Instant};

use rustc_hash::FxHashSet;
use tantivy::IndexWriter;

use super::ArchiveWriter;
use super::batch::{Created, Made};
use crate::index::IndexDoc;
use crate::rebuild::{INDEX_DOC_SQL, index_doc};
use crate::{Error, Result};

/// The index writer and how far it has come.
pub(super) struct IndexSync {
    pub writer: IndexWriter,
    /// The last batch whose captions were given to `writer` (committed or not); `None`
    /// until the first sync after opening.
    pub added_seq: Option<i64>,
    /// Caption ids above this were never given to the index (no old entry to delete);
    /// `None` when unknown.
    pub indexed_max_id: Option<i64>,
    /// Entries given to `writer` since its last commit.
    pub pending: u64,
    /// When the index was last committed.
    pub committed_at: Instant,
    /// How long index entries may wait for a commit after a batch (zero: every batch).
    pub interval: Duration,
}

impl IndexSync {
    pub fn new(writer: IndexWriter) -> Self {
        IndexSync {
            writer,
            added_seq: None,
            indexed_max_id: None,
            pending: 0,
            committed_at: Instant::now(),
            interval: Duration::ZERO,
        }
    }

    /// Back to the last commit, forgetting how far the writer had come: the next write
    /// catches up from the database.
    pub fn roll_back(&mut self) {
        let _ = self.writer.rollback();
        self.added_seq = None;
        self.indexed_max_id = None;
        self.pending = 0;
    }
}

impl ArchiveWriter {
    /// Brings the search index up to date with the database and commits it: indexes
    /// every caption changed since the batch the index last reflects (all of them for a
    /// new index).
    pub fn sync_index(&mut self) -> Result<u64> {
        let n = self.add_changes_to_index()?;
        self.commit_index()?;
        Ok(n)
    }

    /// Gives the index writer the captions changed since its last batch and commits it
    /// once the index interval has passed (at once by default): a writer serving many
    /// small writes commits once for several and calls [`ArchiveWriter::sync_index`]
    /// before it answers them.
    pub(crate) fn index_in_step(&mut self) -> Result<()> {
        self.add_changes_to_index()?;
        if self.index.committed_at.elapsed() >= self.index.interval {
            self.commit_index()?;
        }
        Ok(())
    }

    /// Merges the search index's segments into one when there are more than
    /// `max_segments` or a fifth of its documents are deleted; returns whether it did.
    pub fn compact_index(&mut self, max_segments: usize) -> Result<bool> {
        self.sync_index()?;
        self.archive
            .index
            .compact(&mut self.index.writer, max_segments)
    }

    /// Ends an ingest: brings the search index up to date and commits it, then, at the
    /// same time, merges its segments as [`ArchiveWriter::compact_index`] does (when
    /// `compact_segments` is given) on the index writer's merge thread and ends a bulk
    /// write ([`ArchiveWriter::end_bulk`], when `bulk`) on this one. The two are
    /// independent (one the index's files, the other the database's indexes), and at the
    /// end of a large ingest each takes seconds on one core. Returns whether the index
    /// was merged.
    pub fn finish_ingest(&mut self, bulk: bool, compact_segments: Option<usize>) -> Result<bool> {
        self.sync_index()?;
        let merging = match compact_segments {
            Some(max) => self
                .archive
                .index
                .start_compaction(&mut self.index.writer, max)?,
            None => None,
        };
        // The merge is waited for whatever becomes of the bulk indexes.
        let built = if bulk { self.end_bulk() } else { Ok(()) };
        let merged = match compact_segments {
            Some(max) => {
                self.archive
                    .index
                    .finish_compaction(&mut self.index.writer, merging, max)?
            }
            None => false,
        };
        built.map(|()| merged)
    }

    /// Where the index writer starts catching up from: the last batch it was given, or
    /// the one its last commit reflects; `-1` when the index is emptied to be built
    /// again (new, of another schema, or ahead of the database: restored from elsewhere).
    fn catch_up_from(&mut self, db_seq: i64) -> Result<i64> {
        if let Some(s) = self.index.added_seq {
            return Ok(s);
        }
        match self.archive.index.indexed_seq()? {
            Some(s) if s <= db_seq => Ok(s),
            _ => {
                self.index
                    .writer
                    .delete_all_documents()
                    .map_err(|e| Error::Index {
                        path: self.archive.db_path.clone(),
                        message: e.to_string(),
                    })?;
                self.index.indexed_max_id = Some(0);
                self.index.pending += 1;
                Ok(-1)
            }
        }
    }

    /// Gives the index writer every caption changed since the last batch it was given
    /// (since the last commit, when opening); commits nothing.
    pub(super) fn add_changes_to_index(&mut self) -> Result<u64> {
        let archive = self.reader();
        let err = crate::db_err(&archive.db_path);
        let db_seq: i64 = self
            .conn
            .query_row("SELECT coalesce(max(seq), 0) FROM batch", [], |r| r.get(0))
            .map_err(&err)?;
        let from = self.catch_up_from(db_seq)?;
        if from == db_seq {
            self.index.added_seq = Some(db_seq);
            return Ok(0);
        }
        let known_up_to = self.index.indexed_max_id;
        let mut max_id = known_up_to.unwrap_or(i64::MAX);
        let mut n = 0;
        {
            let mut stmt = self
                .conn
                .prepare_cached(&format!("{INDEX_DOC_SQL} WHERE c.seq > ?1"))
                .map_err(&err)?;
            let (codec, conn) = (&self.archive.codec, &self.conn);
            let rows = stmt
                .query_map([from], |r| index_doc(codec, conn, r))
                .map_err(&err)?;
            for row in rows {
                let doc = row.map_err(&err)?;
                // A caption above every id the index was given has no entry to replace.
                let replaces = known_up_to.is_none_or(|m| doc.id as i64 <= m);
                max_id = max_id.max(doc.id as i64);
                self.archive.index.add(&self.index.writer, doc, replaces)?;
                n += 1;
            }
        }
        if known_up_to.is_none() {
            // Opening: from now on, ids above the largest one stored were never indexed.
            max_id = self
                .conn
                .query_row("SELECT coalesce(max(id), 0) FROM caption", [], |r| r.get(0))
                .map_err(&err)?;
        }
        self.index.indexed_max_id = Some(max_id);
        self.index.added_seq = Some(db_seq);
        self.index.pending += n;
        Ok(n)
    }

    /// Gives the index writer the captions a write created (with their texts and
    /// records, from memory), but those it also added a variant to (`touched`, read back
    /// after the commit); whether it gave any.
    pub(super) fn add_created_to_index(
        &mut self,
        created: Vec<Created<'_>>,
        touched: &FxHashSet<i64>,
    ) -> Result<bool> {
        let known_up_to = self.index.indexed_max_id.unwrap_or(i64::MAX);
        let mut max_id = known_up_to;
        let mut gave = false;
        for (id, text, record) in created {
            if touched.contains(&id) {
                continue;
            }
            let record = match record {
                Made::Borrowed(r) => std::borrow::Cow::Borrowed(r),
                Made::Owned(r) => std::borrow::Cow::Owned(*r),
            };
            let marks = crate::review::marks::fresh_marks(Some(&record));
            let doc = IndexDoc {
                id: id as u64,
                text: std::borrow::Cow::Borrowed(text),
                record: Some(record),
                marks,
            };
            gave = true;
            self.archive
                .index
                .add(&self.index.writer, doc, id <= known_up_to)?;
            max_id = max_id.max(id);
            self.index.pending += 1;
        }
        self.index.indexed_max_id = Some(max_id);
        Ok(gave)
    }

    /// Gives the index writer the captions batch `seq`, just committed, added variants
    /// to (`touched`, read back), when the writer was given every batch before it (the
    /// captions it created were given as they were stored: see [`super::Write`]).
    pub(super) fn add_touched_to_index(&mut self, seq: i64, touched: FxHashSet<i64>) -> Result<()> {
        let err = crate::db_err(&self.archive.db_path);
        let known_up_to = self.index.indexed_max_id.unwrap_or(i64::MAX);
        let mut max_id = known_up_to;
        let mut n = 0;
        let mut touched: Vec<i64> = touched.into_iter().collect();
        touched.sort_unstable();
        let mut stmt = self
            .conn
            .prepare_cached(&format!("{INDEX_DOC_SQL} WHERE c.id = ?1"))
            .map_err(&err)?;
        for id in touched {
            let (codec, conn) = (&self.archive.codec, &self.conn);
            let doc = stmt
                .query_row([id], |r| index_doc(codec, conn, r))
                .map_err(&err)?;
            self.archive
                .index
                .add(&self.index.writer, doc, id <= known_up_to)?;
            max_id = max_id.max(id);
            n += 1;
        }
        self.index.indexed_max_id = Some(max_id);
        self.index.added_seq = Some(seq);
        self.index.pending += n;
        Ok(())
    }

    /// Removes the entry of a caption the database no longer holds (merged away); it
    /// goes with the next commit.
    pub(crate) fn forget_in_index(&mut self, caption: i64) -> Result<()> {
        self.archive
            .index
            .remove(&self.index.writer, caption as u64);
        self.index.pending += 1;
        Ok(())
    }

    /// Commits what the index writer was given, if anything, with the batch it reflects.
    pub(super) fn commit_index(&mut self) -> Result<()> {
        let Some(seq) = self.index.added_seq else {
            return Ok(());
        };
        let stale = self.archive.index.indexed_seq()? != Some(seq);
        if self.index.pending > 0 || stale {
            self.archive.index.commit(&mut self.index.writer, seq)?;
        }
        self.index.pending = 0;
        self.index.committed_at = Instant::now();
        Ok(())
    }
}
