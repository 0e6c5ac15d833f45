//! Reading what people did: a caption's revisions, everyone's revisions for an audit,
//! a caption's review state, and the chain's verification.

use serde_json::Value;

use super::{Review, Revision, chain};
use crate::{Archive, Error, Result};

const COLUMNS: &str =
    "SELECT id, caption_id, version, field, old_value, new_value, user, at, note FROM revision";

fn revision(r: &rusqlite::Row<'_>) -> rusqlite::Result<Revision> {
    let json = |s: Option<String>| {
        s.and_then(|s| serde_json::from_str(&s).ok())
            .unwrap_or(Value::Null)
    };
    Ok(Revision {
        id: r.get(0)?,
        caption_id: r.get(1)?,
        version: r.get::<_, i64>(2)? as u64,
        field: r.get(3)?,
        old_value: json(r.get(4)?),
        new_value: json(r.get(5)?),
        user: r.get(6)?,
        at: r.get(7)?,
        note: r.get(8)?,
    })
}

/// A day or a time as the revisions' times compare with it (RFC 3339 in UTC).
fn since_time(s: &str) -> Result<String> {
    if let Ok(t) = s.parse::<jiff::Timestamp>() {
        return Ok(t.to_string());
    }
    if let Ok(d) = s.parse::<jiff::civil::Date>() {
        return Ok(format!("{d}T00:00:00Z"));
    }
    Err(Error::Invalid(format!(
        "since {s:?}: expected a day (YYYY-MM-DD) or a time (RFC 3339, as 2024-05-01T12:00:00Z)"
    )))
}

impl Archive {
    /// A caption's revisions, oldest first.
    pub fn history(&self, caption: i64) -> Result<Vec<Revision>> {
        self.with_conn(|c| {
            let mut stmt = c
                .prepare_cached(&format!("{COLUMNS} WHERE caption_id = ?1 ORDER BY id"))
                .map_err(self.db_err())?;
            stmt.query_map([caption], revision)
                .and_then(|rows| rows.collect())
                .map_err(self.db_err())
        })
    }

    /// Every revision, oldest first, of `user` only when given, at or after `since`
    /// (an RFC 3339 time or a `YYYY-MM-DD` day) when given.
    pub fn audit(&self, user: Option<&str>, since: Option<&str>) -> Result<Vec<Revision>> {
        let since = since.map(since_time).transpose()?;
        self.with_conn(|c| {
            let mut stmt = c
                .prepare(&format!(
                    "{COLUMNS} WHERE (?1 IS NULL OR user = ?1) AND (?2 IS NULL OR at >= ?2) ORDER BY id"
                ))
                .map_err(self.db_err())?;
            stmt.query_map(rusqlite::params![user, since], revision)
                .and_then(|rows| rows.collect())
                .map_err(self.db_err())
        })
    }

    /// A caption's review state: its version, marks and corrected fields.
    pub fn review(&self, caption: i64) -> Result<Review> {
        self.with_conn(|c| super::save::review_of(c, caption).map_err(self.db_err()))
    }

    /// Walks the revisions' hash chain: how many revisions it holds, and the first
    /// that was changed after it was written, if any.
    pub fn verify_history(&self) -> Result<(u64, Option<String>)> {
        self.with_conn(|c| chain::verify(c).map_err(self.db_err()))
    }
}
