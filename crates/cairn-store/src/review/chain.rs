//! The revisions' hash chain: each revision's hash covers its own columns and the hash
//! of the revision before it, so that a row edited, removed or inserted after the fact
//! breaks every hash from there on.

use rusqlite::{Connection, OptionalExtension};
use sha2::{Digest, Sha256};

/// The columns of one revision that its hash covers.
pub(crate) struct Link<'a> {
    pub id: i64,
    pub caption_id: i64,
    pub version: i64,
    pub field: &'a str,
    pub old_value: Option<&'a str>,
    pub new_value: Option<&'a str>,
    pub user: &'a str,
    pub at: &'a str,
    pub note: Option<&'a str>,
}

/// The hash of a revision after the one hashed `prev` (empty for the first).
pub(crate) fn hash(prev: &str, l: &Link<'_>) -> String {
    // A JSON array keeps the columns apart whatever they hold.
    let body = serde_json::json!([
        prev,
        l.id,
        l.caption_id,
        l.version,
        l.field,
        l.old_value,
        l.new_value,
        l.user,
        l.at,
        l.note
    ]);
    hex::encode(Sha256::digest(body.to_string().as_bytes()))
}

/// The hash of the last revision, empty when there is none.
pub(crate) fn last_hash(c: &Connection) -> rusqlite::Result<String> {
    Ok(c.query_row(
        "SELECT hash FROM revision ORDER BY id DESC LIMIT 1",
        [],
        |r| r.get(0),
    )
    .optional()?
    .unwrap_or_default())
}

/// Records the hash of the last revision, so that a revision removed from the end of
/// the chain is told from a chain that ends there.
pub(crate) fn set_head(c: &Connection, hash: &str) -> rusqlite::Result<()> {
    c.execute(
        "INSERT INTO meta (key, value) VALUES ('revision_head', ?1)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        [hash],
    )?;
    Ok(())
}

/// Walks the whole chain; the number of revisions, and the first that does not hold.
pub(crate) fn verify(c: &Connection) -> rusqlite::Result<(u64, Option<String>)> {
    let mut stmt = c.prepare(
        "SELECT id, caption_id, version, field, old_value, new_value, user, at, note, hash
         FROM revision ORDER BY id",
    )?;
    let mut rows = stmt.query([])?;
    let mut prev = String::new();
    let mut n = 0;
    while let Some(r) = rows.next()? {
        let (field, old, new, user, at, note): (
            String,
            Option<String>,
            Option<String>,
            String,
            String,
            Option<String>,
        ) = (
            r.get(3)?,
            r.get(4)?,
            r.get(5)?,
            r.get(6)?,
            r.get(7)?,
            r.get(8)?,
        );
        let link = Link {
            id: r.get(0)?,
            caption_id: r.get(1)?,
            version: r.get(2)?,
            field: &field,
            old_value: old.as_deref(),
            new_value: new.as_deref(),
            user: &user,
            at: &at,
            note: note.as_deref(),
        };
        let stored: String = r.get(9)?;
        if hash(&prev, &link) != stored {
            return Ok((
                n,
                Some(format!(
                    "revision {} (caption {}, field {field}) does not match its hash: the history was changed after it was written",
                    link.id, link.caption_id
                )),
            ));
        }
        prev = stored;
        n += 1;
    }
    let head: Option<String> = c
        .query_row(
            "SELECT value FROM meta WHERE key = 'revision_head'",
            [],
            |r| r.get(0),
        )
        .optional()?;
    if head.unwrap_or_default() != prev {
        return Ok((
            n,
            Some(format!(
                "the history holds {n} revisions but its last recorded hash is another's: revisions were removed from its end"
            )),
        ));
    }
    Ok((n, None))
}
