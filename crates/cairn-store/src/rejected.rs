//! Sources an ingest could not read, remembered by uri and sha256 so that a re-run
//! skips them (with a line saying so) instead of failing on them again.

use rusqlite::params;

use crate::{Archive, ArchiveWriter, Result};

/// A source that could not be read, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rejection {
    /// Where it came from.
    pub uri: String,
    /// Lowercase hex sha256 of its bytes.
    pub sha256: String,
    /// What the run reported.
    pub reason: String,
}

impl Archive {
    /// The sources earlier runs rejected (few: each is a source that failed).
    pub fn rejected_sources(&self) -> Result<Vec<Rejection>> {
        self.with_conn(|c| {
            c.prepare_cached("SELECT uri, sha256, reason FROM rejected")
                .and_then(|mut st| {
                    st.query_map([], |r| {
                        Ok(Rejection {
                            uri: r.get(0)?,
                            sha256: r.get(1)?,
                            reason: r.get(2)?,
                        })
                    })?
                    .collect()
                })
                .map_err(self.db_err())
        })
    }
}

impl ArchiveWriter {
    /// Remembers `rejected` (a later rejection of the same source replaces the reason)
    /// and forgets earlier rejections of `stored` (sources read this time), in one
    /// transaction.
    pub fn note_rejected(
        &mut self,
        rejected: &[Rejection],
        stored: &[(String, String)],
    ) -> Result<()> {
        if rejected.is_empty() && stored.is_empty() {
            return Ok(());
        }
        let now = jiff::Timestamp::now().to_string();
        let err = crate::db_err(&self.archive.db_path);
        let conn = &mut self.conn;
        let tx = conn.transaction().map_err(&err)?;
        {
            let mut add = tx
                .prepare_cached(
                    "INSERT OR REPLACE INTO rejected (uri, sha256, reason, at) \
                     VALUES (?1, ?2, ?3, ?4)",
                )
                .map_err(&err)?;
            for r in rejected {
                add.execute(params![r.uri, r.sha256, r.reason, now])
                    .map_err(&err)?;
            }
            let mut forget = tx
                .prepare_cached("DELETE FROM rejected WHERE uri = ?1 AND sha256 = ?2")
                .map_err(&err)?;
            for (uri, sha256) in stored {
                forget.execute(params![uri, sha256]).map_err(&err)?;
            }
        }
        tx.commit().map_err(&err)
    }
}
