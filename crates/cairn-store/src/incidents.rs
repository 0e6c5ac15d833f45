//! Incidents kept in the archive: linked again from every caption's record (with its
//! corrections laid over) and replaced whole in one transaction, so a reader sees the
//! old incidents or the new ones, never a mixture.

use cairn_incidents::{Incident, Item};
use rusqlite::{OptionalExtension, params};

use crate::{Archive, ArchiveWriter, Error, Result};

/// One stored incident.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredIncident {
    /// Its id (its smallest caption id).
    pub id: i64,
    /// Its number of photographs.
    pub size: usize,
    /// Its record as JSON ([`cairn_incidents::Incident`]).
    pub json: String,
}

impl Archive {
    /// Every caption's id and record, corrections laid over, in id order; a caption
    /// stored without a record is passed over (it has nothing to link by).
    pub fn caption_records(&self) -> Result<Vec<Item>> {
        self.with_conn(|c| {
            let err = self.db_err();
            let ids: Vec<i64> = c
                .prepare("SELECT id FROM caption ORDER BY id")
                .map_err(err)?
                .query_map([], |r| r.get(0))
                .map_err(err)?
                .collect::<rusqlite::Result<_>>()
                .map_err(err)?;
            let mut out = Vec::with_capacity(ids.len());
            for id in ids {
                if let Some((_, Some(record))) =
                    crate::read::canonical(&self.codec, c, id).map_err(err)?
                {
                    out.push(Item { id, record });
                }
            }
            Ok(out)
        })
    }

    /// Stored incidents of at least `min_size` photographs, in id order.
    pub fn incidents(&self, min_size: usize) -> Result<Vec<StoredIncident>> {
        self.with_conn(|c| {
            let err = self.db_err();
            let mut stmt = c
                .prepare("SELECT id, size, data FROM incident WHERE size >= ?1 ORDER BY id")
                .map_err(err)?;
            let rows = stmt.query_map([min_size as i64], stored).map_err(err)?;
            rows.collect::<rusqlite::Result<_>>().map_err(err)
        })
    }

    /// At most `limit` stored incidents of at least `min_size` photographs whose id is
    /// above `after`, in id order: an export reads them a page at a time, so its memory
    /// does not grow with the number of incidents.
    pub fn incidents_after(
        &self,
        min_size: usize,
        after: i64,
        limit: usize,
    ) -> Result<Vec<StoredIncident>> {
        self.with_conn(|c| {
            let err = self.db_err();
            let mut stmt = c
                .prepare_cached(
                    "SELECT id, size, data FROM incident WHERE size >= ?1 AND id > ?2
                     ORDER BY id LIMIT ?3",
                )
                .map_err(err)?;
            let rows = stmt
                .query_map(params![min_size as i64, after, limit as i64], stored)
                .map_err(err)?;
            rows.collect::<rusqlite::Result<_>>().map_err(err)
        })
    }

    /// The captions of a stored incident (none when there is no such incident).
    pub(crate) fn incident_captions(
        &self,
        incident: i64,
    ) -> Result<std::collections::BTreeSet<u64>> {
        self.with_conn(|c| {
            let err = self.db_err();
            let mut stmt = c
                .prepare_cached("SELECT caption_id FROM incident_caption WHERE incident_id = ?1")
                .map_err(err)?;
            let rows = stmt
                .query_map([incident], |r| r.get::<_, i64>(0))
                .map_err(err)?;
            rows.map(|r| r.map(|id| id as u64))
                .collect::<rusqlite::Result<_>>()
                .map_err(err)
        })
    }

    /// The stored incident a caption belongs to.
    pub fn incident_of(&self, caption: i64) -> Result<Option<StoredIncident>> {
        self.with_conn(|c| {
            c.prepare_cached(
                "SELECT i.id, i.size, i.data FROM incident_caption m
                 JOIN incident i ON i.id = m.incident_id WHERE m.caption_id = ?1",
            )
            .and_then(|mut s| s.query_row([caption], stored).optional())
            .map_err(self.db_err())
        })
    }
}

fn stored(r: &rusqlite::Row<'_>) -> rusqlite::Result<StoredIncident> {
    Ok(StoredIncident {
        id: r.get(0)?,
        size: r.get::<_, i64>(1)? as usize,
        json: r.get(2)?,
    })
}

impl ArchiveWriter {
    /// Links every caption again and replaces the stored incidents with the result;
    /// returns the incidents, singletons included.
    pub fn rebuild_incidents(&mut self) -> Result<Vec<Incident>> {
        let items = self.archive.caption_records()?;
        let incidents = cairn_incidents::incidents(&items);
        let path = self.archive.db_path.clone();
        let err = crate::db_err(&path);
        let tx = self.conn.transaction().map_err(err)?;
        tx.execute_batch("DELETE FROM incident_caption; DELETE FROM incident;")
            .map_err(err)?;
        {
            let mut one = tx
                .prepare("INSERT INTO incident (id, size, data) VALUES (?1, ?2, ?3)")
                .map_err(err)?;
            let mut member = tx
                .prepare("INSERT INTO incident_caption (caption_id, incident_id) VALUES (?1, ?2)")
                .map_err(err)?;
            for inc in &incidents {
                let json = serde_json::to_string(inc).map_err(|e| Error::Invalid(e.to_string()))?;
                one.execute(params![inc.id, inc.captions.len() as i64, json])
                    .map_err(err)?;
                for c in &inc.captions {
                    member.execute(params![c, inc.id]).map_err(err)?;
                }
            }
        }
        tx.commit().map_err(err)?;
        Ok(incidents)
    }
}
