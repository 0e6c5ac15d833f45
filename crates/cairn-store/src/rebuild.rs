//! Rebuilding the search index without ever showing readers an empty one: the new index
//! is built in a directory beside the one in use, then swapped in whole. Readers that
//! hold the old one keep answering from it (its files stay mapped after they are
//! removed) and move to the new one when they next reload.

use std::path::Path;

use tantivy::IndexWriter;

use crate::codec::Codec;
use crate::index::{IndexDoc, SearchIndex, WriterError};
use crate::{Error, Result};

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
    let db = crate::db_err(path);
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

/// The index at `DIR/index` (`found`, when it is open and can serve; else rebuilt beside
/// first) with its writer.
pub(crate) fn attach(
    dir: &Path,
    conn: &rusqlite::Connection,
    codec: &Codec,
    found: Option<SearchIndex>,
) -> Result<(SearchIndex, IndexWriter)> {
    let path = dir.join("index");
    let index = match found {
        Some(index) => index,
        None => {
            build_beside(dir, conn, codec)?;
            SearchIndex::open_existing(&path)?
        }
    };
    let index_writer = index.writer().map_err(|e| match e {
        WriterError::Busy => Error::Busy(dir.to_path_buf()),
        WriterError::Other(e) => e,
    })?;
    Ok((index, index_writer))
}

/// A caption's index entry as the database holds it (id, every variant's text, the
/// canonical record with its corrections), for the rows [`index_doc`] reads; the caller adds the `WHERE`.
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
    let id = r.get::<_, i64>(0)?;
    // Searched and faceted as people see it: with their corrections.
    let corrections = crate::review::overlay::corrections_of(conn, id)?;
    let record = crate::review::overlay::apply(record, "", &corrections);
    let text = r.get::<_, Option<String>>(1)?.unwrap_or_default();
    let variants = text.lines().count();
    let marks = crate::review::marks::marks_of(codec, conn, id, record.as_ref(), variants)?;
    Ok(IndexDoc {
        id: id as u64,
        text: text.into(),
        record: record.map(std::borrow::Cow::Owned),
        marks,
    })
}
