//! Verifying the archive: SQLite integrity, spans, source hashes, index in step.

use rusqlite::params;
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
    /// Captions in the index.
    pub indexed: u64,
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
    /// Verifies the archive without changing it.
    pub fn check(&self) -> Result<CheckReport> {
        let mut rep = CheckReport::default();
        self.with_conn(|c| {
            let e = self.db_err();
            let integrity: String =
                c.query_row("PRAGMA integrity_check", [], |r| r.get(0)).map_err(&e)?;
            if integrity != "ok" {
                rep.problems.push(format!("SQLite integrity: {integrity}"));
            }
            // SQLite checks a foreign key through the parent's unique index; the
            // sources' blob reference has none while a bulk write runs (or after one
            // that crashed, until a writer opens the archive), so it is joined instead.
            let fk: i64 = if crate::db::has_blob_index(c).map_err(&e)? {
                c.query_row("SELECT count(*) FROM pragma_foreign_key_check", [], |r| r.get(0))
                    .map_err(&e)?
            } else {
                let mut n: i64 = 0;
                for table in ["variant", "occurrence"] {
                    n += c
                        .query_row(
                            "SELECT count(*) FROM pragma_foreign_key_check(?1)",
                            [table],
                            |r| r.get::<_, i64>(0),
                        )
                        .map_err(&e)?;
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
                    .map_err(&e)?
            };
            if fk > 0 {
                rep.problems.push(format!("{fk} rows break foreign keys"));
            }
            // The keys the unique indexes hold unique (counted here too, for when a bulk
            // write left the indexes out).
            for (what, sql) in [
                ("variant keys", "SELECT count(*) - count(DISTINCT key) FROM variant"),
                ("blob hashes", "SELECT count(*) - count(DISTINCT sha256) FROM blob"),
            ] {
                let twice: i64 = c.query_row(sql, [], |r| r.get(0)).map_err(&e)?;
                if twice > 0 {
                    rep.problems.push(format!("{twice} {what} are stored twice"));
                }
            }
            // Spans inside their source text.
            let mut stmt = c
                .prepare(
                    "SELECT o.id, o.start, o.end, s.text_len, s.uri FROM occurrence o
                     JOIN source s ON s.id = o.source_id",
                )
                .map_err(&e)?;
            let mut rows = stmt.query([]).map_err(&e)?;
            while let Some(r) = rows.next().map_err(&e)? {
                rep.occurrences_checked += 1;
                let (id, start, end, len): (i64, i64, i64, i64) =
                    (r.get(0).map_err(&e)?, r.get(1).map_err(&e)?, r.get(2).map_err(&e)?, r.get(3).map_err(&e)?);
                if start < 0 || start > end || end > len {
                    let uri: String = r.get(4).map_err(&e)?;
                    rep.problems.push(format!(
                        "occurrence {id}: span [{start}, {end}) is outside {uri} ({len} bytes)"
                    ));
                }
            }
            // Every blob's bytes match its hash.
            let mut stmt = c.prepare("SELECT sha256, size, data FROM blob").map_err(&e)?;
            let mut rows = stmt.query([]).map_err(&e)?;
            while let Some(r) = rows.next().map_err(&e)? {
                rep.sources_checked += 1;
                let sha: String = r.get(0).map_err(&e)?;
                let size: i64 = r.get(1).map_err(&e)?;
                let data: Vec<u8> = r.get(2).map_err(&e)?;
                match zstd::bulk::decompress(&data, size.max(0) as usize) {
                    Ok(bytes) => {
                        let got = hex::encode(Sha256::digest(&bytes));
                        if got != sha {
                            rep.problems.push(format!("source {sha}: stored bytes hash to {got}"));
                        }
                    }
                    Err(err) => rep.problems.push(format!("source {sha}: cannot decompress: {err}")),
                }
            }
            let orphans: i64 = c
                .query_row(
                    "SELECT count(*) FROM caption c WHERE NOT EXISTS (SELECT 1 FROM variant v WHERE v.caption_id = c.id)",
                    params![],
                    |r| r.get(0),
                )
                .map_err(&e)?;
            if orphans > 0 {
                rep.problems.push(format!("{orphans} captions have no variant"));
            }
            Ok(())
        })?;
        // The index holds exactly the captions of the database.
        let mut db_ids: Vec<u64> = self.with_conn(|c| {
            let mut stmt = c.prepare("SELECT id FROM caption").map_err(self.db_err())?;
            let ids = stmt
                .query_map([], |r| r.get::<_, i64>(0))
                .map_err(self.db_err())?
                .collect::<rusqlite::Result<Vec<i64>>>()
                .map_err(self.db_err())?;
            Ok(ids.into_iter().map(|i| i as u64).collect())
        })?;
        db_ids.sort_unstable();
        let idx_ids = self.index.all_ids()?;
        rep.captions = db_ids.len() as u64;
        rep.indexed = idx_ids.len() as u64;
        if db_ids != idx_ids {
            let missing = db_ids
                .iter()
                .filter(|i| idx_ids.binary_search(i).is_err())
                .count();
            let extra = idx_ids
                .iter()
                .filter(|i| db_ids.binary_search(i).is_err())
                .count();
            rep.problems.push(format!(
                "search index out of step: {missing} captions missing from it, {extra} unknown or duplicated in it (`cairn check --repair` rebuilds it)"
            ));
        }
        Ok(rep)
    }
}
