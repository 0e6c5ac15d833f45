//! A write of many batches: the database indexes keyed by hashes are dropped at its
//! start and built again at its end, one sorted pass each.

use super::ArchiveWriter;
use super::keys::load_blob_hashes;
use crate::Result;
use crate::db;

impl ArchiveWriter {
    /// Starts a write of many batches: drops the database indexes keyed by hashes
    /// (variants by exact key, blobs by sha256) and occurrences by variant, which
    /// [`ArchiveWriter::end_bulk`] builds again in one sorted pass each instead of one
    /// insert into a random page per row, a page every commit writes again. Meanwhile
    /// the writer finds keys and blobs in memory; readers that look rows up through those
    /// indexes scan, until the end of the write (or until the next writer opens the
    /// archive, after a crash).
    pub fn begin_bulk(&mut self) -> Result<()> {
        if self.keys.blobs.is_some() {
            return Ok(());
        }
        let err = crate::db_err(&self.archive.db_path);
        let blobs = load_blob_hashes(&self.conn).map_err(&err)?;
        self.conn
            .execute_batch(db::DROP_BULK_INDEXES)
            .map_err(&err)?;
        self.conn
            .pragma_update(None, "cache_size", db::BULK_CACHE_KIB)
            .map_err(&err)?;
        self.keys.blobs = Some(blobs);
        Ok(())
    }

    /// Ends a write of many batches ([`ArchiveWriter::begin_bulk`]): builds the indexes
    /// it dropped. A key or hash stored twice (which the writer never does) fails here.
    pub fn end_bulk(&mut self) -> Result<()> {
        // Each index is built by a scan of its table, whose pages lie among the other
        // tables' pages (they grew together): from the disk, that is small reads all over
        // the file. One read of the file from start to end first leaves it in the
        // system's cache for the scans. A failed read only loses that; SQLite reports
        // what is wrong with the file itself.
        let _ = db::read_through(&self.archive.db_path);
        // The maps of keys and blobs are let go before the builds, not after: the end of
        // a bulk write is usually the end of the run, and the variants' map is loaded
        // again by the next batch, if one comes.
        self.keys.variants = None;
        self.keys.blobs = None;
        // The indexes are built, and later writes look keys up in them, with the whole
        // cache.
        let built = self
            .conn
            .pragma_update(None, "cache_size", db::WRITE_CACHE_KIB)
            .and_then(|()| self.conn.execute_batch(db::BULK_INDEXES));
        if let Err(e) = built {
            self.keys.reload_blobs(&self.conn);
            return Err(self.db_err()(e));
        }
        Ok(())
    }
}
