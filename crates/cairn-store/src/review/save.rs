//! A save: the changes of one edit stored as revisions in one transaction, against the
//! version the editor saw. The caption is marked changed by a batch of its own, so that
//! the search index takes its corrected record the way it takes an ingest's.

use rusqlite::{OptionalExtension, Transaction, params};
use serde_json::{Value, json};

use super::overlay::{self, check_field};
use super::{Edit, MAX_NOTE_BYTES, Review, Saved, chain};
use crate::{ArchiveWriter, Error, Result};

/// One field's change, before it is stored.
struct Change {
    field: String,
    old: Value,
    new: Value,
}

impl ArchiveWriter {
    /// Stores `edit` of caption `caption` by `user`, made against version `expected`
    /// of the caption ([`Review::version`]); refused as [`Saved::Stale`] when another
    /// save came first. A value that does not fit the record is refused as
    /// [`Error::Invalid`] naming its field; an unknown caption as [`Error::NoCaption`].
    pub fn save_edit(
        &mut self,
        caption: i64,
        edit: &Edit,
        user: &str,
        expected: u64,
    ) -> Result<Saved> {
        for (field, _) in &edit.fields {
            check_field(field)?;
        }
        if edit.note.as_ref().is_some_and(|n| n.len() > MAX_NOTE_BYTES) {
            return Err(Error::Invalid(format!(
                "the note is over {MAX_NOTE_BYTES} bytes"
            )));
        }
        let path = self.archive.db_path.clone();
        let err = crate::db_err(&path);
        let codec = self.archive.codec.clone();
        let tx = self.conn.transaction().map_err(err)?;
        let Some((text, record)) = crate::read::canonical(&codec, &tx, caption).map_err(err)?
        else {
            return Err(Error::NoCaption(caption));
        };
        let current = review_of(&tx, caption).map_err(err)?;
        if current.version != expected {
            return Ok(Saved::Stale(current));
        }
        let record = record.unwrap_or_else(|| cairn_model::Record {
            text,
            ..Default::default()
        });
        let changes = changes(&record, edit, &current)?;
        if changes.is_empty() && edit.note.is_none() {
            return Ok(Saved::Done(current));
        }
        let version = expected + 1;
        store(&tx, caption, version, &changes, edit, user).map_err(err)?;
        let after = review_of(&tx, caption).map_err(err)?;
        tx.commit().map_err(err)?;
        self.index_in_step()?;
        Ok(Saved::Done(after))
    }
}

/// What `edit` changes of a caption shown as `record` with `review`, checked to leave
/// a record.
fn changes(record: &cairn_model::Record, edit: &Edit, review: &Review) -> Result<Vec<Change>> {
    let mut json = serde_json::to_value(record).map_err(|e| Error::Invalid(e.to_string()))?;
    let mut out = Vec::new();
    for (field, new) in &edit.fields {
        let mut new = new.clone();
        overlay::complete(field, &mut new);
        let new = &new;
        let old = overlay::get(&json, field);
        if &old == new {
            continue;
        }
        overlay::set(&mut json, field, new.clone());
        // Checked one at a time, so that the error names the field at fault.
        overlay::to_record(json.clone(), field)?;
        out.push(Change {
            field: field.clone(),
            old,
            new: new.clone(),
        });
    }
    for (field, want, have) in [
        ("verified", edit.verified, review.verified),
        ("disputed", edit.disputed, review.disputed),
    ] {
        if let Some(want) = want.filter(|w| *w != have) {
            out.push(Change {
                field: field.into(),
                old: json!(have),
                new: json!(want),
            });
        }
    }
    Ok(out)
}

/// Writes the revisions of one save (a `note` revision when it changes nothing else),
/// the corrections and marks they leave, and the batch that marks the caption changed.
fn store(
    tx: &Transaction<'_>,
    caption: i64,
    version: u64,
    changes: &[Change],
    edit: &Edit,
    user: &str,
) -> rusqlite::Result<()> {
    let now = jiff::Timestamp::now().to_string();
    tx.execute("INSERT INTO batch (started_at) VALUES (?1)", [&now])?;
    let seq = tx.last_insert_rowid();
    tx.execute(
        "UPDATE caption SET seq = ?1 WHERE id = ?2",
        params![seq, caption],
    )?;
    let note_only = [Change {
        field: "note".into(),
        old: Value::Null,
        new: json!(edit.note),
    }];
    let changes = if changes.is_empty() {
        &note_only[..]
    } else {
        changes
    };
    let mut prev = chain::last_hash(tx)?;
    for ch in changes {
        let id: i64 = tx.query_row("SELECT coalesce(max(id), 0) + 1 FROM revision", [], |r| {
            r.get(0)
        })?;
        let (old, new) = (ch.old.to_string(), ch.new.to_string());
        let link = chain::Link {
            id,
            caption_id: caption,
            version: version as i64,
            field: &ch.field,
            old_value: Some(&old),
            new_value: Some(&new),
            user,
            at: &now,
            note: edit.note.as_deref(),
        };
        let hash = chain::hash(&prev, &link);
        tx.execute(
            "INSERT INTO revision (id, caption_id, version, field, old_value, new_value, user, at, note, hash)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
            params![id, caption, version as i64, ch.field, old, new, user, now, edit.note, hash],
        )?;
        if !matches!(ch.field.as_str(), "verified" | "disputed" | "note") {
            tx.execute(
                "INSERT INTO correction (caption_id, field, value, revision) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (caption_id, field) DO UPDATE SET value = excluded.value, revision = excluded.revision",
                params![caption, ch.field, new, id],
            )?;
        }
        prev = hash;
    }
    chain::set_head(tx, &prev)?;
    let mark = |field: &str, was: bool| {
        changes
            .iter()
            .rev()
            .find(|c| c.field == field)
            .map_or(was, |c| c.new == json!(true))
    };
    let was = review_of(tx, caption)?;
    tx.execute(
        "INSERT INTO review (caption_id, version, verified, disputed) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (caption_id) DO UPDATE SET version = excluded.version,
             verified = excluded.verified, disputed = excluded.disputed",
        params![
            caption,
            version as i64,
            mark("verified", was.verified),
            mark("disputed", was.disputed)
        ],
    )?;
    Ok(())
}

/// A caption's review state (version 0 and no marks when no one saved it).
pub(crate) fn review_of(c: &rusqlite::Connection, caption: i64) -> rusqlite::Result<Review> {
    let row: Option<(i64, bool, bool)> = c
        .prepare_cached("SELECT version, verified, disputed FROM review WHERE caption_id = ?1")?
        .query_row([caption], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .optional()?;
    let (version, verified, disputed) = row.unwrap_or_default();
    let corrected = c
        .prepare_cached("SELECT field FROM correction WHERE caption_id = ?1 ORDER BY field")?
        .query_map([caption], |r| r.get(0))?
        .collect::<rusqlite::Result<Vec<String>>>()?;
    Ok(Review {
        version: version as u64,
        verified,
        disputed,
        corrected,
    })
}
