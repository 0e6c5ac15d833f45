//! Verifying the archive: SQLite integrity, spans, source hashes, index in step.

use rusqlite::{Connection, params};
use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::{Archive, Result};

/// What `check` found.
#[derive(Debug, Clone, Default, Serialize)]
pub struct CheckReport {
    /// Sources whose bytes were re-hashed.
    pub sources_checked: u64,
    /// Occurrences whose spans were checked.
    pub occurrences_checked: u64,
    /// Captions in the database.
    pub captions: u64,
    /// Revisions whose place in the hash chain was verified.
    pub revisions_checked: u64,
    /// Captions in the index.
    pub indexed: u64,
    /// Captions changed by batches the search index does not reflect yet (an ingest
    /// under way, or one that was stopped): not a problem, the next writer indexes them.
    pub index_behind: u64,
    /// What is worth knowing but not wrong, in words.
    pub notes: Vec<String>,
    /// Every problem found, in words.
    pub problems: Vec<String>,
}

impl CheckReport {
    /// Whether nothing is wrong.
    pub fn ok(&self) -> bool {
        self.problems.is_empty()
    }
}

impl Archive {
    /// Verifies the archive without changing it. The search index is a cache of the
    /// database that may lag behind it (an ingest commits it every few seconds; after a
    /// kill the next writer catches it up): captions of batches it does not reflect yet
    /// are counted in [`CheckReport::index_behind`], not as problems.
    pub fn check(&self) -> Result<CheckReport> {
        let mut rep = CheckReport::default();
        // The index first, then the database: a batch committed in between is then
        // seen by the database only, as a lag, never as an entry the database lacks.
        let indexed_seq = self.index.indexed_seq()?;
        let idx_ids = self.index.all_ids()?;
        self.with_conn(|c| {
            self.check_integrity(c, &mut rep)?;
            self.check_foreign_keys(c, &mut rep)?;
            self.check_unique_keys(c, &mut rep)?;
            self.check_spans(c, &mut rep)?;
            self.check_blob_hashes(c, &mut rep)?;
            self.check_orphan_captions(c, &mut rep)?;
            self.check_revisions(c, &mut rep)
        })?;
        let db = self.with_conn(|c| self.caption_batches(c))?;
        compare_index(&mut rep, indexed_seq, &idx_ids, db);
        Ok(rep)
    }

    /// The revisions' hash chain: a revision changed, removed or inserted after it was
    /// written breaks it.
    fn check_revisions(&self, c: &Connection, rep: &mut CheckReport) -> Result<()> {
        let (n, broken) = crate::review::chain::verify(c).map_err(self.db_err())?;
        rep.revisions_checked = n;
        rep.problems.extend(broken);
        Ok(())
    }

    /// SQLite's own integrity check.
    fn check_integrity(&self, c: &Connection, rep: &mut CheckReport) -> Result<()> {
        let e = self.db_err();
        let integrity: String = c
            .query_row("PRAGMA integrity_check", [], |r| r.get(0))
            .map_err(e)?;
        if integrity != "ok" {
            rep.problems.push(format!("SQLite integrity: {integrity}"));
        }
        Ok(())
    }

    /// Rows whose references point nowhere.
    fn check_foreign_keys(&self, c: &Connection, rep: &mut CheckReport) -> Result<()> {
        let e = self.db_err();
        // SQLite checks a foreign key through the parent's unique index; the
        // sources' blob reference has none while a bulk write runs (or after one
        // that crashed, until a writer opens the archive), so it is joined instead.
        let fk: i64 = if crate::db::has_blob_index(c).map_err(e)? {
            c.query_row("SELECT count(*) FROM pragma_foreign_key_check", [], |r| {
                r.get(0)
            })
            .map_err(e)?
        } else {
            let mut n: i64 = 0;
            for table in ["variant", "occurrence"] {
                n += c
                    .query_row(
                        "SELECT count(*) FROM pragma_foreign_key_check(?1)",
                        [table],
                        |r| r.get::<_, i64>(0),
                    )
                    .map_err(e)?;
            }
            n + c
                .query_row(
                    "SELECT count(*) FROM source s
                     LEFT JOIN batch b ON b.seq = s.batch
                     LEFT JOIN blob x ON x.sha256 = s.sha256
                     WHERE b.seq IS NULL OR x.id IS NULL",
                    [],
                    |r| r.get::<_, i64>(0),
                )
                .map_err(e)?
        };
        if fk > 0 {
            rep.problems.push(format!("{fk} rows break foreign keys"));
        }
        Ok(())
    }

    /// The keys the unique indexes hold unique (counted here too, for when a bulk
    /// write left the indexes out).
    fn check_unique_keys(&self, c: &Connection, rep: &mut CheckReport) -> Result<()> {
        let e = self.db_err();
        for (what, sql) in [
            (
                "variant keys",
                "SELECT count(*) - count(DISTINCT key) FROM variant",
            ),
            (
                "blob hashes",
                "SELECT count(*) - count(DISTINCT sha256) FROM blob",
            ),
        ] {
            let twice: i64 = c.query_row(sql, [], |r| r.get(0)).map_err(e)?;
            if twice > 0 {
                rep.problems
                    .push(format!("{twice} {what} are stored twice"));
            }
        }
        Ok(())
    }

    /// Spans inside their source text.
    fn check_spans(&self, c: &Connection, rep: &mut CheckReport) -> Result<()> {
        let e = self.db_err();
        let mut stmt = c
            .prepare(
                "SELECT o.id, o.start, o.end, s.text_len, s.uri FROM occurrence o
                 JOIN source s ON s.id = o.source_id",
            )
            .map_err(e)?;
        let mut rows = stmt.query([]).map_err(e)?;
        while let Some(r) = rows.next().map_err(e)? {
            rep.occurrences_checked += 1;
            let (id, start, end, len): (i64, i64, i64, i64) = (
                r.get(0).map_err(e)?,
                r.get(1).map_err(e)?,
                r.get(2).map_err(e)?,
                r.get(3).map_err(e)?,
            );
            if start < 0 || start > end || end > len {
                let uri: String = r.get(4).map_err(e)?;
                rep.problems.push(format!(
                    "occurrence {id}: span [{start}, {end}) is outside {uri} ({len} bytes)"
                ));
            }
        }
        Ok(())
    }

    /// Every blob's bytes match its hash.
    fn check_blob_hashes(&self, c: &Connection, rep: &mut CheckReport) -> Result<()> {
        let e = self.db_err();
        let mut stmt = c
            .prepare("SELECT sha256, size, data FROM blob")
            .map_err(e)?;
        let mut rows = stmt.query([]).map_err(e)?;
        while let Some(r) = rows.next().map_err(e)? {
            rep.sources_checked += 1;
            let sha: String = r.get(0).map_err(e)?;
            let size: i64 = r.get(1).map_err(e)?;
            let data: Vec<u8> = r.get(2).map_err(e)?;
            match zstd::bulk::decompress(&data, size.max(0) as usize) {
                Ok(bytes) => {
                    let got = hex::encode(Sha256::digest(&bytes));
                    if got != sha {
                        rep.problems
                            .push(format!("source {sha}: stored bytes hash to {got}"));
                    }
                }
                Err(err) => rep
                    .problems
                    .push(format!("source {sha}: cannot decompress: {err}")),
            }
        }
        Ok(())
    }

    /// Captions no variant belongs to.
    fn check_orphan_captions(&self, c: &Connection, rep: &mut CheckReport) -> Result<()> {
        let orphans: i64 = c
            .query_row(
                "SELECT count(*) FROM caption c WHERE NOT EXISTS (SELECT 1 FROM variant v WHERE v.caption_id = c.id)",
                params![],
                |r| r.get(0),
            )
            .map_err(self.db_err())?;
        if orphans > 0 {
            rep.problems
                .push(format!("{orphans} captions have no variant"));
        }
        Ok(())
    }

    /// Each caption's id and the last batch that changed it, and the last batch.
    fn caption_batches(&self, c: &Connection) -> Result<(Vec<(u64, i64)>, i64)> {
        let mut stmt = c
            .prepare("SELECT id, seq FROM caption")
            .map_err(self.db_err())?;
        let rows = stmt
            .query_map([], |r| {
                Ok((r.get::<_, i64>(0)? as u64, r.get::<_, i64>(1)?))
            })
            .map_err(self.db_err())?
            .collect::<rusqlite::Result<Vec<(u64, i64)>>>()
            .map_err(self.db_err())?;
        let last: i64 = c
            .query_row("SELECT coalesce(max(seq), 0) FROM batch", [], |r| r.get(0))
            .map_err(self.db_err())?;
        Ok((rows, last))
    }
}

/// Compares the index's caption ids (`idx_ids`, sorted, committed as of batch
/// `indexed_seq`) with the database's captions (id and last batch that changed each)
/// and last batch.
fn compare_index(
    rep: &mut CheckReport,
    indexed_seq: Option<i64>,
    idx_ids: &[u64],
    (mut db, last_batch): (Vec<(u64, i64)>, i64),
) {
    db.sort_unstable();
    rep.captions = db.len() as u64;
    rep.indexed = idx_ids.len() as u64;
    // An index never committed reflects no batch.
    let reflects = indexed_seq.unwrap_or(0);
    let behind = |seq: i64| seq > reflects;
    rep.index_behind = db.iter().filter(|(_, seq)| behind(*seq)).count() as u64;
    let missing = db
        .iter()
        .filter(|(id, seq)| !behind(*seq) && idx_ids.binary_search(id).is_err())
        .count();
    let extra = idx_ids
        .iter()
        .filter(|i| db.binary_search_by_key(i, |(id, _)| id).is_err())
        .count();
    let twice = idx_ids.windows(2).filter(|w| w[0] == w[1]).count();
    let repair = "`cairn check --repair` rebuilds it";
    if missing > 0 || extra > 0 || twice > 0 {
        rep.problems.push(format!(
            "search index out of step: {missing} captions missing from it, {extra} unknown and {twice} duplicated in it ({repair})"
        ));
    }
    if reflects > last_batch {
        rep.problems.push(format!(
            "search index reflects batch {reflects}, after the database's last ({last_batch}) ({repair})"
        ));
    }
    if rep.index_behind > 0 {
        rep.notes.push(format!(
            "search index is behind the database: {} captions changed after batch {reflects}, the last it reflects; the next writer (an ingest, or `cairn check --repair`) catches it up",
            rep.index_behind
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn compared(
        indexed_seq: Option<i64>,
        idx: &[u64],
        db: &[(u64, i64)],
        last: i64,
    ) -> CheckReport {
        let mut rep = CheckReport::default();
        compare_index(&mut rep, indexed_seq, idx, (db.to_vec(), last));
        rep
    }

    /// Captions of batches after the index's last commit are a lag; a caption of a
    /// batch it reflects but lacks, an entry the database does not know, an entry held
    /// twice, or an index ahead of the database are problems.
    #[test]
    fn a_lag_is_not_a_problem_but_a_loss_is() {
        let db = [(1, 1), (2, 2), (3, 3), (4, 3)];
        let rep = compared(Some(2), &[1, 2], &db, 3);
        assert!(rep.ok() && rep.index_behind == 2, "{rep:?}");
        // A caption changed after the commit is behind even when an older entry is there.
        let rep = compared(Some(2), &[1, 2, 3], &db, 3);
        assert!(rep.ok() && rep.index_behind == 2, "{rep:?}");
        // Never committed: everything is behind.
        let rep = compared(None, &[], &db, 3);
        assert!(rep.ok() && rep.index_behind == 4, "{rep:?}");
        for (seq, idx) in [
            (Some(2), &[1][..]),
            (Some(3), &[1, 2, 3, 4, 9][..]),
            (Some(3), &[1, 2, 3, 3, 4][..]),
            (Some(5), &[1, 2, 3, 4][..]),
        ] {
            let rep = compared(seq, idx, &db, 3);
            assert_eq!(rep.problems.len(), 1, "{seq:?} {idx:?}: {rep:?}");
        }
        assert!(compared(Some(3), &[1, 2, 3, 4], &db, 3).ok());
    }
}
