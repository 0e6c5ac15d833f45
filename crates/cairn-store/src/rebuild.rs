//! Rebuilding the search index without ever showing readers an empty one: the new index
//! is built in a directory beside the one in use, then swapped in whole. Readers that
//! hold the old one keep answering from it (its files stay mapped after they are
//! removed) and move to the new one when they next reload.

use std::path::Path;
use std::sync::Mutex;

use crate::codec::Codec;
use crate::index::{SearchIndex, WriterError};
use crate::write::{INDEX_DOC_SQL, Writer, index_doc};
use crate::{Archive, Error, Result};

/// Where a rebuilt index is made, beside `DIR/index`.
const BUILDING: &str = "index.new";

/// Builds the whole index of the database in `DIR/index.new` and swaps it in as
/// `DIR/index` (the caller holds the writer lock, so the database does not change
/// meanwhile); the number of captions indexed.
pub(crate) fn build_beside(dir: &Path, conn: &rusqlite::Connection, codec: &Codec) -> Result<u64> {
    let live = dir.join("index");
    let new = dir.join(BUILDING);
    let io = |p: &Path| {
        let p = p.to_path_buf();
        move |source| Error::Io { path: p, source }
    };
    // What a rebuild that was stopped left behind.
    if new.exists() {
        std::fs::remove_dir_all(&new).map_err(io(&new))?;
    }
    let n = build(&new, conn, codec)?;
    swap_in(&new, &live).map_err(io(&live))?;
    // `new` now holds the old index; readers still using it keep its files open.
    let _ = std::fs::remove_dir_all(&new);
    std::fs::File::open(dir)
        .and_then(|f| f.sync_all())
        .map_err(io(dir))?;
    Ok(n)
}

/// Indexes every caption of the database in a new index at `path`, committed with the
/// last batch it reflects.
fn build(path: &Path, conn: &rusqlite::Connection, codec: &Codec) -> Result<u64> {
    let db = |source| Error::Db {
        path: path.to_path_buf(),
        source,
    };
    let index = SearchIndex::create(path)?;
    let mut w = index.writer().map_err(|e| match e {
        WriterError::Busy => Error::Busy(path.to_path_buf()),
        WriterError::Other(e) => e,
    })?;
    let seq: i64 = conn
        .query_row("SELECT coalesce(max(seq), 0) FROM batch", [], |r| r.get(0))
        .map_err(db)?;
    let mut n = 0;
    let mut stmt = conn.prepare(INDEX_DOC_SQL).map_err(db)?;
    let rows = stmt
        .query_map([], |r| index_doc(codec, conn, r))
        .map_err(db)?;
    for row in rows {
        index.add(&w, row.map_err(db)?, false)?;
        n += 1;
    }
    index.commit(&mut w, seq)?;
    w.wait_merging_threads().map_err(|e| Error::Index {
        path: path.to_path_buf(),
        message: e.to_string(),
    })?;
    Ok(n)
}

/// Puts the directory `new` in the place of `live` in one step, and the old one at
/// `new`. Where the system cannot exchange two directories at once, `live` is moved
/// aside first (a reader opening at that moment finds no index and is told so).
fn swap_in(new: &Path, live: &Path) -> std::io::Result<()> {
    if !live.exists() {
        return std::fs::rename(new, live);
    }
    #[cfg(target_os = "linux")]
    {
        use rustix::fs::{CWD, RenameFlags, renameat_with};
        match renameat_with(CWD, new, CWD, live, RenameFlags::EXCHANGE) {
            Ok(()) => return Ok(()),
            // A file system or kernel without the exchange.
            Err(e) if e == rustix::io::Errno::INVAL || e == rustix::io::Errno::NOSYS => {}
            Err(e) => return Err(e.into()),
        }
    }
    let aside = live.with_file_name("index.old");
    if aside.exists() {
        std::fs::remove_dir_all(&aside)?;
    }
    std::fs::rename(live, &aside)?;
    std::fs::rename(new, live)?;
    std::fs::rename(&aside, new)
}

impl Archive {
    /// Rebuilds the search index from the database beside the one in use and swaps it
    /// in whole: searches meanwhile answer from the old index, never from an empty or
    /// partial one. Returns the number of captions indexed.
    pub fn reindex(&mut self) -> Result<u64> {
        let writer = self
            .writer
            .take()
            .expect("reindex needs a writer")
            .into_inner()
            .unwrap_or_else(|p| p.into_inner());
        // The index writer (on the directory about to be replaced) goes first.
        let conn = writer.into_conn();
        let built = build_beside(&self.dir, &conn, &self.codec);
        let path = self.dir.join("index");
        let (index, writer) = attach(
            &self.dir,
            conn,
            &self.codec,
            SearchIndex::open_for_writer(&path)?,
        )?;
        self.index = index;
        self.writer = Some(Mutex::new(writer));
        let n = built?;
        self.sync_index()?;
        Ok(n)
    }
}

/// The index at `DIR/index` (`found`, when it is open and can serve; else rebuilt beside
/// first) with its writer.
pub(crate) fn attach(
    dir: &Path,
    conn: rusqlite::Connection,
    codec: &Codec,
    found: Option<SearchIndex>,
) -> Result<(SearchIndex, Writer)> {
    let path = dir.join("index");
    let index = match found {
        Some(index) => index,
        None => {
            build_beside(dir, &conn, codec)?;
            SearchIndex::open_existing(&path)?
        }
    };
    let index_writer = index.writer().map_err(|e| match e {
        WriterError::Busy => Error::Busy(dir.to_path_buf()),
        WriterError::Other(e) => e,
    })?;
    Ok((index, Writer::new(conn, index_writer)))
}
