//! Opening the SQLite database and migrating its schema, one numbered step at a time.

use std::path::Path;
use std::time::Duration;

use rusqlite::{Connection, OpenFlags};

use crate::{Error, Result};

/// The schema, as numbered migrations; `PRAGMA user_version` records how many ran.
/// Never edit a released step: add a new one.
pub(crate) const MIGRATIONS: &[&str] = &[
    // 1: sources with their bytes, occurrences, variants, captions.
    r#"
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
    CREATE TABLE batch (
        seq INTEGER PRIMARY KEY,
        started_at TEXT NOT NULL,
        sources INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE blob (
        sha256 TEXT PRIMARY KEY,
        size INTEGER NOT NULL,
        codec TEXT NOT NULL,
        data BLOB NOT NULL
    ) WITHOUT ROWID;
    CREATE TABLE source (
        id INTEGER PRIMARY KEY,
        uri TEXT NOT NULL,
        sha256 TEXT NOT NULL REFERENCES blob(sha256),
        kind TEXT NOT NULL,
        size INTEGER NOT NULL,
        encoding TEXT NOT NULL,
        text_len INTEGER NOT NULL,
        ingested_at TEXT NOT NULL,
        batch INTEGER NOT NULL REFERENCES batch(seq),
        warnings TEXT NOT NULL DEFAULT '[]',
        UNIQUE (uri, sha256)
    );
    CREATE INDEX source_sha256 ON source(sha256);
    CREATE TABLE caption (
        id INTEGER PRIMARY KEY,
        canonical_variant INTEGER,
        seq INTEGER NOT NULL
    );
    CREATE INDEX caption_seq ON caption(seq);
    CREATE TABLE variant (
        id INTEGER PRIMARY KEY,
        caption_id INTEGER NOT NULL REFERENCES caption(id),
        key BLOB NOT NULL UNIQUE,
        text TEXT NOT NULL,
        record TEXT
    );
    CREATE INDEX variant_caption ON variant(caption_id);
    CREATE TABLE occurrence (
        id INTEGER PRIMARY KEY,
        source_id INTEGER NOT NULL REFERENCES source(id),
        variant_id INTEGER NOT NULL REFERENCES variant(id),
        ordinal INTEGER NOT NULL,
        start INTEGER NOT NULL,
        end INTEGER NOT NULL,
        UNIQUE (source_id, ordinal)
    );
    CREATE INDEX occurrence_variant ON occurrence(variant_id);
    "#,
    // 2: zstd dictionaries for records (see codec.rs); variant.record may now hold a
    // BLOB packed with one of them.
    r#"
    CREATE TABLE record_dict (
        id INTEGER PRIMARY KEY,
        data BLOB NOT NULL,
        created_at TEXT NOT NULL
    );
    "#,
    // 3: where inside a container (WARC record, JSON Lines line) a source came from,
    // and how to render it again (JSON).
    r#"
    ALTER TABLE source ADD COLUMN origin TEXT;
    "#,
];

fn configure(conn: &Connection) -> rusqlite::Result<()> {
    conn.busy_timeout(Duration::from_secs(30))?;
    conn.pragma_update(None, "foreign_keys", true)?;
    Ok(())
}

/// Opens the database for writing, creating it and running pending migrations.
pub(crate) fn open_write(path: &Path) -> Result<Connection> {
    let err = |source| Error::Db {
        path: path.to_path_buf(),
        source,
    };
    let mut conn = Connection::open(path).map_err(err)?;
    configure(&conn).map_err(err)?;
    // WAL lets readers go on during a write; FULL makes every committed batch durable.
    conn.pragma_update(None, "journal_mode", "WAL")
        .map_err(err)?;
    conn.pragma_update(None, "synchronous", "FULL")
        .map_err(err)?;
    // The writer looks up every new caption's key and inserts rows all over growing
    // indexes: a 64 MiB page cache (SQLite's default is 2 MiB) keeps their upper levels
    // and recent pages in memory instead of re-reading them from the file.
    conn.pragma_update(None, "cache_size", -65536)
        .map_err(err)?;
    migrate(&mut conn, path)?;
    Ok(conn)
}

/// Opens the database for reading only.
pub(crate) fn open_read(path: &Path) -> Result<Connection> {
    let err = |source| Error::Db {
        path: path.to_path_buf(),
        source,
    };
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_ONLY
            | OpenFlags::SQLITE_OPEN_NO_MUTEX
            | OpenFlags::SQLITE_OPEN_URI,
    )
    .map_err(err)?;
    configure(&conn).map_err(err)?;
    let version: i64 = conn
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .map_err(err)?;
    let known = MIGRATIONS.len() as i64;
    if version > known {
        return Err(Error::TooNew {
            path: path.to_path_buf(),
            found: version,
            known,
        });
    }
    if version < known {
        return Err(Error::Corrupt {
            path: path.to_path_buf(),
            message: format!(
                "schema version {version} is older than {known}; open it for writing once (e.g. `cairn reindex`) to migrate"
            ),
        });
    }
    Ok(conn)
}

fn migrate(conn: &mut Connection, path: &Path) -> Result<()> {
    let err = |source| Error::Db {
        path: path.to_path_buf(),
        source,
    };
    let version: i64 = conn
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .map_err(err)?;
    let known = MIGRATIONS.len() as i64;
    if version > known {
        return Err(Error::TooNew {
            path: path.to_path_buf(),
            found: version,
            known,
        });
    }
    for (i, step) in MIGRATIONS.iter().enumerate().skip(version as usize) {
        let tx = conn.transaction().map_err(err)?;
        tx.execute_batch(step).map_err(err)?;
        tx.pragma_update(None, "user_version", (i + 1) as i64)
            .map_err(err)?;
        tx.commit().map_err(err)?;
    }
    Ok(())
}
