//! One batch: a SQLite transaction that sources are added to, committed whole or rolled
//! back whole.

use std::borrow::Cow;
use std::sync::Arc;

use cairn_model::Record;
use rustc_hash::FxHashSet;

use super::keys::{Keys, load_variant_keys};
use super::pack::{pack, train_dictionary};
use super::statements::Statements;
use super::{ArchiveWriter, BatchSummary, Clusterer, ExactOnly, NewOccurrence, NewSource};
use crate::codec::{Codec, Dict};
use crate::{Error, Result};

impl ArchiveWriter {
    /// Stores a batch of sources in one transaction: either all of it is in the archive
    /// afterwards or none of it. Sources already stored (same uri and sha256) are skipped,
    /// so ingesting the same input twice changes nothing. Then the index catches up.
    pub fn write_batch(&mut self, sources: &[NewSource]) -> Result<BatchSummary> {
        self.write_batch_with(sources, &mut ExactOnly)
    }

    /// [`ArchiveWriter::write_batch`] with a clusterer that assigns new caption texts to
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
        let dict = self.archive.codec.current();
        // Whether the index was given every batch before this one: then this batch's
        // new captions go to it from memory (else it catches up from the database).
        let index_in_step = self.index.added_seq.is_some();
        self.conn.execute_batch("BEGIN").map_err(self.db_err())?;
        let mut write = Write {
            writer: self,
            seq: 0,
            now,
            dict,
            trained: None,
            summary: BatchSummary::default(),
            touched: FxHashSet::default(),
            index_in_step,
            gave_index: false,
            done: false,
        };
        // From here on, a failure rolls the transaction back (`Drop`).
        let w = &mut *write.writer;
        let archive = w.reader();
        let err = crate::db_err(&archive.db_path);
        let before: i64 = w
            .conn
            .query_row("SELECT coalesce(max(seq), 0) FROM batch", [], |r| r.get(0))
            .map_err(&err)?;
        let in_step = w.index.added_seq == Some(before);
        if w.keys.variants.is_none() {
            w.keys.variants = load_variant_keys(&w.conn).map_err(&err)?;
        }
        w.conn
            .execute("INSERT INTO batch (started_at) VALUES (?1)", [&write.now])
            .map_err(&err)?;
        write.seq = w.conn.last_insert_rowid();
        write.index_in_step &= in_step;
        Ok(write)
    }
}

/// A new caption's record as [`Write`] keeps it for the index to the end of a call:
/// borrowed from the input, or made by the clusterer and boxed. (As a `Cow` every entry
/// of a batch's list of new captions was the size of a whole record, and the list grew
/// by copying whole records into fresh pages each batch.)
pub(super) enum Made<'s> {
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

/// A caption created by a call, with its text and record, for the index.
pub(super) type Created<'s> = (i64, &'s str, Made<'s>);

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
    writer: &'a mut ArchiveWriter,
    seq: i64,
    now: String,
    /// The record dictionary this write packs with (trained by it, if `trained`).
    dict: Option<Arc<Dict>>,
    trained: Option<Arc<Dict>>,
    summary: BatchSummary,
    /// Captions this write added a variant to: read back for the index after the commit.
    touched: FxHashSet<i64>,
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
        let incoming = sources
            .iter()
            .flat_map(|s| &s.occurrences)
            .chain(more.as_ref().map(|(_, o)| *o).unwrap_or_default());
        self.train_if_due(incoming)?;
        let w = &mut *self.writer;
        let (last, created) = {
            let mut put = Put {
                st: Statements::prepare(&w.conn, &w.archive.db_path)?,
                keys: &mut w.keys,
                summary: &mut self.summary,
                touched: &mut self.touched,
                clusterer,
                dict: self.dict.as_deref(),
                seq: self.seq,
                created: Vec::new(),
            };
            if let Some((source, occurrences)) = more {
                put.occurrences(source.id, &source.uri, source.next_ordinal, occurrences)?;
                source.next_ordinal += occurrences.len();
            }
            let mut last = None;
            for s in sources {
                last = put.source(s, &self.now)?;
            }
            (last, put.created)
        };
        if self.index_in_step {
            self.gave_index |= w.add_created_to_index(created, &self.touched)?;
        }
        // Only `add_source` keeps it: one source, so one copy of its uri.
        Ok(last.zip(sources.last()).map(|(id, s)| StoredSource {
            id,
            uri: s.uri.clone(),
            next_ordinal: s.occurrences.len(),
        }))
    }

    /// Records are packed with the archive's dictionary; the write that brings the
    /// archive to its training size trains it (inside its transaction, so the dictionary
    /// and the records packed with it commit together).
    fn train_if_due<'o>(
        &mut self,
        incoming: impl Iterator<Item = &'o NewOccurrence> + Clone,
    ) -> Result<()> {
        if self.dict.is_none() {
            let w = &*self.writer;
            self.trained = train_dictionary(&w.conn, incoming, &self.now).map_err(w.db_err())?;
            self.dict = self.trained.clone();
        }
        Ok(())
    }

    /// Commits the write: all it added is in the archive afterwards. A write that added
    /// no source leaves no batch behind. Then the index is given the captions that
    /// gained a variant, and committed if its interval has passed.
    pub fn commit(mut self) -> Result<BatchSummary> {
        let summary = self.summary.clone();
        let seq = self.seq;
        let w = &mut *self.writer;
        let archive = w.reader();
        let err = crate::db_err(&archive.db_path);
        if summary.sources_added == 0 {
            // Nothing new: leave no empty batch behind.
            w.conn.execute_batch("ROLLBACK").map_err(&err)?;
            self.done = true;
            return Ok(summary);
        }
        w.conn
            .execute(
                "UPDATE batch SET sources = ?1 WHERE seq = ?2",
                rusqlite::params![summary.sources_added as i64, seq],
            )
            .map_err(&err)?;
        w.conn.execute_batch("COMMIT").map_err(&err)?;
        self.done = true;
        if let Some(d) = self.trained.take() {
            archive.codec.install(d);
        }
        let touched = std::mem::take(&mut self.touched);
        if self.index_in_step {
            w.add_touched_to_index(seq, touched)?;
        } else {
            w.add_changes_to_index()?;
        }
        if w.index.committed_at.elapsed() >= w.index.interval {
            w.commit_index()?;
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
        let w = &mut *self.writer;
        let _ = w.conn.execute_batch("ROLLBACK");
        // The maps may hold keys the transaction added.
        w.keys.variants = None;
        if w.keys.blobs.is_some() {
            w.keys.reload_blobs(&w.conn);
        }
        if self.gave_index {
            // The index writer holds entries of captions that were never stored: back
            // to its last commit, from which the next write catches up.
            w.index.roll_back();
        }
    }
}

/// The steps of one call of [`Write::put`], over the statements it prepared.
struct Put<'a, 's> {
    st: Statements<'a>,
    keys: &'a mut Keys,
    summary: &'a mut BatchSummary,
    touched: &'a mut FxHashSet<i64>,
    clusterer: &'a mut dyn Clusterer,
    dict: Option<&'a Dict>,
    seq: i64,
    /// Captions created by this call, for the index.
    created: Vec<Created<'s>>,
}

impl<'s> Put<'_, 's> {
    /// Stores a source and its occurrences, unless it is stored already; its id if it
    /// was stored now.
    fn source(&mut self, s: &'s NewSource, now: &str) -> Result<Option<i64>> {
        if self.st.source_exists(&s.uri, &s.sha256)? {
            self.summary.sources_skipped += 1;
            return Ok(None);
        }
        let packed = match &s.packed {
            Some(p) => Cow::Borrowed(p),
            None => Cow::Owned(pack(&s.bytes).map_err(|source| Error::Io {
                path: self.st.db_path().to_path_buf(),
                source,
            })?),
        };
        self.st.put_blob(self.keys, s, &packed)?;
        let id = self.st.put_source(s, now, self.seq)?;
        self.summary.sources_added += 1;
        self.occurrences(id, &s.uri, 0, &s.occurrences)?;
        Ok(Some(id))
    }

    /// The occurrences of one source, numbered from `first`.
    fn occurrences(
        &mut self,
        source: i64,
        uri: &str,
        first: usize,
        occurrences: &'s [NewOccurrence],
    ) -> Result<()> {
        for (ordinal, o) in (first..).zip(occurrences) {
            let variant = match self.st.find_variant(self.keys, &o.key)? {
                // A known text on a new page: the caption's index entry does not change
                // (sources are not in the index).
                Some(v) => v,
                None => self.new_variant(uri, o)?,
            };
            self.st.put_occurrence(source, variant, ordinal, o.span)?;
            self.summary.occurrences_added += 1;
        }
        Ok(())
    }

    /// Stores a text met for the first time: a variant of the caption the clusterer
    /// assigns it to, or of a new caption; the variant's id.
    fn new_variant(&mut self, uri: &str, o: &'s NewOccurrence) -> Result<i64> {
        let record = match &o.record {
            Some(r) => Made::Borrowed(r),
            None => Made::Owned(Box::new(self.clusterer.record(&o.text).ok_or_else(
                || Error::Corrupt {
                    path: self.st.db_path().to_path_buf(),
                    message: format!("a new caption text of {uri} came without its record"),
                },
            )?)),
        };
        let stored = match &o.packed {
            Some(p) if p.dict == self.dict.map(|d| d.id) => Cow::Borrowed(&p.stored),
            _ => Cow::Owned(Codec::encode(&record, self.dict)),
        };
        self.summary.variants_added += 1;
        let joined = self.clusterer.assign(&o.key, &o.text);
        let caption = match joined {
            Some(caption) => caption,
            None => self.st.put_caption(self.seq)?,
        };
        let variant = self
            .st
            .put_variant(self.keys, caption, o.key, &o.text, &stored)?;
        match joined {
            Some(_) => self.joined(caption, variant, &o.text)?,
            None => self.created(caption, variant, &o.text, record)?,
        }
        Ok(variant)
    }

    /// A new text of a known photograph: it may become the canonical one, and the
    /// caption's index entry is read back after the commit.
    fn joined(&mut self, caption: i64, variant: i64, text: &str) -> Result<()> {
        let current = self.st.canonical_text(caption)?;
        if self.clusterer.prefer(caption, text, &current) {
            self.st.set_canonical(variant, caption)?;
        }
        self.st.touch_caption(self.seq, caption)?;
        self.touched.insert(caption);
        self.summary.variants_joined += 1;
        Ok(())
    }

    /// A new photograph: its first text is its canonical one.
    fn created(
        &mut self,
        caption: i64,
        variant: i64,
        text: &'s str,
        record: Made<'s>,
    ) -> Result<()> {
        self.st.set_canonical(variant, caption)?;
        self.clusterer.created(caption, text);
        self.created.push((caption, text, record));
        self.summary.captions_added += 1;
        Ok(())
    }
}
