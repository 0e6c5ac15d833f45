//! Duplicates by hand: a caption's variants split into two captions, or two captions
//! merged into one. Each is a save of its own: revisions on both captions (who, when,
//! which variants), their versions raised, and a batch that marks them changed for the
//! search index. Ingest only ever adds a new text to one caption and finds a known text
//! where it is stored, so what a person split stays split and a merge holds.

use rusqlite::{Transaction, params};
use serde::Serialize;
use serde_json::{Value, json};

use super::save::review_of;
use super::{MAX_NOTE_BYTES, Review, chain};
use crate::{ArchiveWriter, Error, Result};

/// What a split or a merge did.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum Regrouped {
    /// Done: the caption kept and the other one (made by a split, merged away by a
    /// merge), with the kept caption's review state after it.
    Done {
        /// The caption named in the request, which stays.
        caption: i64,
        /// The caption a split made, or the one a merge emptied and removed.
        other: i64,
        /// The kept caption's review state after it.
        review: Review,
    },
    /// Made against an older version of the caption: nothing was changed.
    Stale(Review),
}

/// Who asks, why, and against which version of the caption named first.
#[derive(Debug, Clone, Copy)]
pub struct Regroup<'a> {
    /// The user.
    pub user: &'a str,
    /// Why, when they say.
    pub note: Option<&'a str>,
    /// The version of the caption seen, when the caller checks it.
    pub expected: Option<u64>,
}

/// One revision about to be stored.
struct Entry {
    caption: i64,
    field: &'static str,
    old: Value,
    new: Value,
}

fn variants_of(tx: &Transaction<'_>, caption: i64) -> rusqlite::Result<Vec<(i64, String)>> {
    tx.prepare_cached("SELECT id, text FROM variant WHERE caption_id = ?1 ORDER BY id")?
        .query_map([caption], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect()
}

/// The most complete of `texts`, as ingest chooses a canonical text.
fn most_complete(texts: &[&(i64, String)]) -> i64 {
    texts
        .iter()
        .map(|(id, t)| (cairn_dedup::completeness(&cairn_dedup::features(t)), -id))
        .max()
        .map_or(0, |(_, id)| -id)
}

fn check_note(note: Option<&str>) -> Result<()> {
    if note.is_some_and(|n| n.len() > MAX_NOTE_BYTES) {
        return Err(Error::Invalid(format!(
            "the note is over {MAX_NOTE_BYTES} bytes"
        )));
    }
    Ok(())
}

/// Stores `entries` as revisions, each caption at its version after the last, and a
/// new batch that marks the captions changed.
fn store(tx: &Transaction<'_>, entries: &[Entry], who: &Regroup<'_>) -> rusqlite::Result<()> {
    let now = jiff::Timestamp::now().to_string();
    tx.execute("INSERT INTO batch (started_at) VALUES (?1)", [&now])?;
    let seq = tx.last_insert_rowid();
    let mut prev = chain::last_hash(tx)?;
    for e in entries {
        let was = review_of(tx, e.caption)?;
        let version = was.version as i64 + 1;
        tx.execute(
            "UPDATE caption SET seq = ?1 WHERE id = ?2",
            params![seq, e.caption],
        )?;
        let id: i64 = tx.query_row("SELECT coalesce(max(id), 0) + 1 FROM revision", [], |r| {
            r.get(0)
        })?;
        let (old, new) = (e.old.to_string(), e.new.to_string());
        let link = chain::Link {
            id,
            caption_id: e.caption,
            version,
            field: e.field,
            old_value: Some(&old),
            new_value: Some(&new),
            user: who.user,
            at: &now,
            note: who.note,
        };
        let hash = chain::hash(&prev, &link);
        tx.execute(
            "INSERT INTO revision (id, caption_id, version, field, old_value, new_value, user, at, note, hash)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
            params![id, e.caption, version, e.field, old, new, who.user, now, who.note, hash],
        )?;
        tx.execute(
            "INSERT INTO review (caption_id, version, verified, disputed) VALUES (?1, ?2, ?3, ?4)
             ON CONFLICT (caption_id) DO UPDATE SET version = excluded.version",
            params![e.caption, version, was.verified, was.disputed],
        )?;
        prev = hash;
    }
    chain::set_head(tx, &prev)
}

/// Gives the corrections and marks of caption `from` to `to`, which now holds the text
/// they were made on; `from` keeps none.
fn carry(tx: &Transaction<'_>, from: i64, to: i64) -> rusqlite::Result<()> {
    tx.execute(
        "UPDATE correction SET caption_id = ?2 WHERE caption_id = ?1",
        params![from, to],
    )?;
    tx.execute(
        "UPDATE review SET (verified, disputed) =
             (SELECT verified, disputed FROM review WHERE caption_id = ?1)
         WHERE caption_id = ?2",
        params![from, to],
    )?;
    tx.execute(
        "UPDATE review SET verified = 0, disputed = 0 WHERE caption_id = ?1",
        [from],
    )?;
    Ok(())
}

impl ArchiveWriter {
    /// Moves `variants` of `caption` to a new caption (each text keeps its record and
    /// occurrences). Each caption's canonical text is its most complete one. At least
    /// one variant must stay.
    ///
    /// People's corrections and marks were made on the caption as shown, its canonical
    /// text: they stay with the part that holds that text. When it stays, the new
    /// caption starts with none; when it is moved, they go with it to the new caption,
    /// and the caption left behind reads as the machine extracted its own texts. Both
    /// histories say so (`corrections_to`, `corrections_from`).
    pub fn split_caption(
        &mut self,
        caption: i64,
        variants: &[i64],
        who: Regroup<'_>,
    ) -> Result<Regrouped> {
        check_note(who.note)?;
        let err = crate::db_err(&self.archive.db_path);
        let tx = self.conn.transaction().map_err(err)?;
        let all = variants_of(&tx, caption).map_err(err)?;
        if all.is_empty() {
            return Err(Error::NoCaption(caption));
        }
        let current = review_of(&tx, caption).map_err(err)?;
        if who.expected.is_some_and(|v| v != current.version) {
            return Ok(Regrouped::Stale(current));
        }
        let mut moved: Vec<i64> = variants.to_vec();
        moved.sort_unstable();
        moved.dedup();
        if let Some(v) = moved.iter().find(|v| !all.iter().any(|(id, _)| id == *v)) {
            return Err(Error::Invalid(format!(
                "variant {v} is not one of caption {caption}'s"
            )));
        }
        let (go, stay): (Vec<_>, Vec<_>) = all.iter().partition(|(id, _)| moved.contains(id));
        if go.is_empty() || stay.is_empty() {
            return Err(Error::Invalid(format!(
                "a split moves some of caption {caption}'s variants, not none or all of them"
            )));
        }
        let shown: i64 = tx
            .query_row(
                "SELECT canonical_variant FROM caption WHERE id = ?1",
                [caption],
                |r| r.get(0),
            )
            .map_err(err)?;
        let carried = moved.contains(&shown);
        tx.execute(crate::write::NEW_CAPTION, [0]).map_err(err)?;
        let other = tx.last_insert_rowid();
        for v in &moved {
            tx.execute(
                "UPDATE variant SET caption_id = ?1 WHERE id = ?2",
                params![other, v],
            )
            .map_err(err)?;
        }
        for (c, texts) in [(caption, &stay), (other, &go)] {
            tx.execute(
                "UPDATE caption SET canonical_variant = ?1 WHERE id = ?2",
                params![most_complete(texts), c],
            )
            .map_err(err)?;
        }
        let kept: Vec<i64> = stay.iter().map(|(id, _)| *id).collect();
        let (mut left, mut made) = (
            json!({"variants": kept, "moved_to": other}),
            json!({"variants": moved, "caption": caption}),
        );
        if carried {
            left["corrections_to"] = json!(other);
            made["corrections_from"] = json!(caption);
        }
        let entries = [
            Entry {
                caption,
                field: "split",
                old: json!({"variants": all.iter().map(|(id, _)| id).collect::<Vec<_>>()}),
                new: left,
            },
            Entry {
                caption: other,
                field: "split_from",
                old: Value::Null,
                new: made,
            },
        ];
        store(&tx, &entries, &who).map_err(err)?;
        if carried {
            carry(&tx, caption, other).map_err(err)?;
        }
        let review = review_of(&tx, caption).map_err(err)?;
        tx.commit().map_err(err)?;
        self.index_in_step()?;
        Ok(Regrouped::Done {
            caption,
            other,
            review,
        })
    }

    /// Moves every variant of caption `from` into `caption`, whose canonical text,
    /// corrections and marks stay; `from` is removed (its history stays, and its id is
    /// never given to another caption).
    pub fn merge_captions(
        &mut self,
        caption: i64,
        from: i64,
        who: Regroup<'_>,
    ) -> Result<Regrouped> {
        check_note(who.note)?;
        if caption == from {
            return Err(Error::Invalid(format!(
                "caption {caption} cannot be merged into itself"
            )));
        }
        let err = crate::db_err(&self.archive.db_path);
        let tx = self.conn.transaction().map_err(err)?;
        let kept = variants_of(&tx, caption).map_err(err)?;
        let moved = variants_of(&tx, from).map_err(err)?;
        for (id, v) in [(caption, &kept), (from, &moved)] {
            if v.is_empty() {
                return Err(Error::NoCaption(id));
            }
        }
        let current = review_of(&tx, caption).map_err(err)?;
        if who.expected.is_some_and(|v| v != current.version) {
            return Ok(Regrouped::Stale(current));
        }
        tx.execute(
            "UPDATE variant SET caption_id = ?1 WHERE caption_id = ?2",
            params![caption, from],
        )
        .map_err(err)?;
        let ids = |v: &[(i64, String)]| v.iter().map(|(id, _)| *id).collect::<Vec<_>>();
        let entries = [
            Entry {
                caption,
                field: "merge",
                old: json!({"variants": ids(&kept)}),
                new: json!({"variants": ids(&moved), "merged_from": from}),
            },
            Entry {
                caption: from,
                field: "merged_into",
                old: json!({"variants": ids(&moved)}),
                new: json!({"caption": caption}),
            },
        ];
        store(&tx, &entries, &who).map_err(err)?;
        tx.execute("DELETE FROM caption WHERE id = ?1", [from])
            .map_err(err)?;
        let review = review_of(&tx, caption).map_err(err)?;
        tx.commit().map_err(err)?;
        self.forget_in_index(from)?;
        self.index_in_step()?;
        Ok(Regrouped::Done {
            caption,
            other: from,
            review,
        })
    }
}
