//! Opening the SQLite database and migrating its schema, one numbered step at a time.

use std::path::{Path, PathBuf};
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
    // 4: source bytes in a rowid table, appended in ingest order, with a unique index on
    // the hash. As a WITHOUT ROWID table keyed by a random hash, every new blob of about
    // a kilobyte went to a random leaf page: pages left half full and one random page
    // written per source. The unique keys
    // of blobs and variants become named indexes, which a bulk write can drop and build
    // again (an inline UNIQUE cannot be dropped).
    r#"
    CREATE TABLE blob_by_row (
        id INTEGER PRIMARY KEY,
        sha256 TEXT NOT NULL,
        size INTEGER NOT NULL,
        codec TEXT NOT NULL,
        data BLOB NOT NULL
    );
    INSERT INTO blob_by_row (sha256, size, codec, data)
        SELECT b.sha256, b.size, b.codec, b.data FROM blob b
        ORDER BY (SELECT min(s.id) FROM source s WHERE s.sha256 = b.sha256);
    DROP TABLE blob;
    ALTER TABLE blob_by_row RENAME TO blob;
    CREATE UNIQUE INDEX blob_sha256 ON blob(sha256);
    -- Nothing looks sources up by hash alone (blobs are found by their own index).
    DROP INDEX source_sha256;
    CREATE TABLE variant_by_row (
        id INTEGER PRIMARY KEY,
        caption_id INTEGER NOT NULL REFERENCES caption(id),
        key BLOB NOT NULL,
        text TEXT NOT NULL,
        record TEXT
    );
    INSERT INTO variant_by_row (id, caption_id, key, text, record)
        SELECT id, caption_id, key, text, record FROM variant ORDER BY id;
    DROP TABLE variant;
    ALTER TABLE variant_by_row RENAME TO variant;
    CREATE UNIQUE INDEX variant_key ON variant(key);
    CREATE INDEX variant_caption ON variant(caption_id);
    "#,
    // 5: sources that could not be read (reading, rendering or extraction failed or
    // passed a bound of the work per source), so that a re-run skips them unless asked
    // to retry; the reason is what the run reported.
    r#"
    CREATE TABLE rejected (
        uri TEXT NOT NULL,
        sha256 TEXT NOT NULL,
        reason TEXT NOT NULL,
        at TEXT NOT NULL,
        PRIMARY KEY (uri, sha256)
    ) WITHOUT ROWID;
    "#,
    // 6: what people do to the archive. `revision` is append-only: one row per field a
    // save changed (values as JSON), each carrying the hash of itself and the row before
    // it, a chain `cairn check` verifies. `correction` is each caption's current value of
    // each corrected field (the last revision's), laid over the extracted record by every
    // read; `review` a caption's verified and disputed marks and the version a save must
    // name. `account` holds users with their role and Argon2 password hash; `token` API
    // tokens and login sessions by the SHA-256 of their secret, never the secret.
    r#"
    CREATE TABLE revision (
        id INTEGER PRIMARY KEY,
        caption_id INTEGER NOT NULL,
        version INTEGER NOT NULL,
        field TEXT NOT NULL,
        old_value TEXT,
        new_value TEXT,
        user TEXT NOT NULL,
        at TEXT NOT NULL,
        note TEXT,
        hash TEXT NOT NULL
    );
    CREATE INDEX revision_caption ON revision(caption_id, id);
    CREATE TABLE correction (
        caption_id INTEGER NOT NULL,
        field TEXT NOT NULL,
        value TEXT NOT NULL,
        revision INTEGER NOT NULL,
        PRIMARY KEY (caption_id, field)
    ) WITHOUT ROWID;
    CREATE TABLE review (
        caption_id INTEGER PRIMARY KEY,
        version INTEGER NOT NULL,
        verified INTEGER NOT NULL DEFAULT 0,
        disputed INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE account (
        name TEXT PRIMARY KEY,
        role TEXT NOT NULL,
        password_hash TEXT NOT NULL,
        created_at TEXT NOT NULL
    ) WITHOUT ROWID;
    CREATE TABLE token (
        id INTEGER PRIMARY KEY,
        user TEXT NOT NULL,
        hash TEXT NOT NULL UNIQUE,
        kind TEXT NOT NULL,
        created_at TEXT NOT NULL,
        expires_at TEXT,
        revoked_at TEXT
    );
    CREATE INDEX token_user ON token(user);
    "#,
    // 7: incidents, rebuilt whole by linking every caption again: each incident's record
    // as JSON with its number of photographs, and the incident of each caption.
    r#"
    CREATE TABLE incident (
        id INTEGER PRIMARY KEY,
        size INTEGER NOT NULL,
        data TEXT NOT NULL
    );
    CREATE INDEX incident_size ON incident(size, id);
    CREATE TABLE incident_caption (
        caption_id INTEGER PRIMARY KEY,
        incident_id INTEGER NOT NULL
    );
    "#,
];

/// Indexes a bulk write drops and builds at its end, in one sorted pass each, instead of
/// one insert into a random page per row ([`DROP_BULK_INDEXES`]); a writer that opens the
/// archive builds any that are missing (after a bulk write that crashed). During a bulk
/// write the writer finds variants and blobs by hash in memory; readers scan.
pub(crate) const BULK_INDEXES: &str = "
    CREATE INDEX IF NOT EXISTS occurrence_variant ON occurrence(variant_id);
    CREATE UNIQUE INDEX IF NOT EXISTS variant_key ON variant(key);
    CREATE UNIQUE INDEX IF NOT EXISTS blob_sha256 ON blob(sha256);
";

/// What a bulk write drops ([`BULK_INDEXES`]).
pub(crate) const DROP_BULK_INDEXES: &str = "
    DROP INDEX IF EXISTS occurrence_variant;
    DROP INDEX IF EXISTS variant_key;
    DROP INDEX IF EXISTS blob_sha256;
";

/// Whether the unique index on blob hashes, which the sources' foreign key needs, is
/// there (it is not during a bulk write, or after one that crashed).
pub(crate) fn has_blob_index(conn: &Connection) -> rusqlite::Result<bool> {
    conn.query_row(
        "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = 'blob_sha256'",
        [],
        |r| r.get::<_, i64>(0),
    )
    .map(|n| n > 0)
}

fn configure(conn: &Connection) -> rusqlite::Result<()> {
    conn.busy_timeout(Duration::from_secs(30))?;
    conn.pragma_update(None, "foreign_keys", true)?;
    Ok(())
}

/// The file a new database is built in before it is renamed to `path`.
pub(crate) fn creation_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".new");
    path.with_file_name(name)
}

/// Creates the database at `path` (which must not exist) with the whole schema, all at
/// once: it is built in a file beside it, made durable, then renamed into place, so a
/// crash leaves either no database or one at the current schema version, never a file
/// that readers would refuse. A leftover of an earlier crashed creation is replaced.
pub(crate) fn create(path: &Path) -> Result<()> {
    let tmp = creation_path(path);
    let io = |p: &Path| {
        let p = p.to_path_buf();
        move |source| Error::Io { path: p, source }
    };
    // SQLite names a database's rollback journal after it, with "-journal" added.
    let mut journal = tmp.clone().into_os_string();
    journal.push("-journal");
    for leftover in [tmp.clone(), PathBuf::from(journal)] {
        match std::fs::remove_file(&leftover) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(io(&leftover)(e)),
            _ => {}
        }
    }
    {
        // A rollback journal (SQLite's default) while it is built: nothing is left beside
        // the file once it is closed. `open_write` turns on WAL afterwards.
        let db = crate::db_err(&tmp);
        let mut conn = Connection::open(&tmp).map_err(db)?;
        configure(&conn).map_err(db)?;
        migrate(&mut conn, &tmp)?;
        conn.close().map_err(|(_, source)| db(source))?;
    }
    std::fs::File::open(&tmp)
        .and_then(|f| f.sync_all())
        .map_err(io(&tmp))?;
    std::fs::rename(&tmp, path).map_err(io(path))?;
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::File::open(dir)
            .and_then(|f| f.sync_all())
            .map_err(io(dir))?;
    }
    Ok(())
}

/// The writer's page cache (`PRAGMA cache_size`, negative: KiB).
pub(crate) const WRITE_CACHE_KIB: i64 = -65536;

/// The page cache during a bulk write: the indexes keyed by hashes are gone and keys are
/// found in memory, so rows are mostly appended and a smaller cache than the writer's
/// lowers the peak without costing time.
pub(crate) const BULK_CACHE_KIB: i64 = -16384;

/// Opens the database for writing, creating it and running pending migrations.
pub(crate) fn open_write(path: &Path) -> Result<Connection> {
    if !path.exists() {
        create(path)?;
    }
    let err = crate::db_err(path);
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
    conn.pragma_update(None, "cache_size", WRITE_CACHE_KIB)
        .map_err(err)?;
    // Checkpoint every 40 MB of log rather than SQLite's 4 MB: a page written by several
    // batches in between is copied into the database once.
    conn.pragma_update(None, "wal_autocheckpoint", 10_000)
        .map_err(err)?;
    migrate(&mut conn, path)?;
    // The writer makes every reference itself (a source's blob, an occurrence's source
    // and variant, a variant's caption) in the transaction that needs it; checking each
    // one again on insert cost a random page read per occurrence on a large archive.
    // `cairn check` verifies them all.
    conn.pragma_update(None, "foreign_keys", false)
        .map_err(err)?;
    // Indexes a bulk write dropped are built again if it did not finish: after one read
    // of the file, as at the end of a bulk write (`Archive::end_bulk`), so that the
    // scans find it in the system's cache instead of reading the disk in small pieces.
    let present: i64 = conn
        .query_row(
            "SELECT count(*) FROM sqlite_master WHERE type = 'index'
             AND name IN ('occurrence_variant', 'variant_key', 'blob_sha256')",
            [],
            |r| r.get(0),
        )
        .map_err(err)?;
    if present < 3 {
        let _ = read_through(path);
        conn.execute_batch(BULK_INDEXES).map_err(err)?;
    }
    Ok(conn)
}

/// Reads a file from start to end in 1 MiB reads, keeping nothing (the bytes stay in the
/// operating system's cache, not in this process); the number of bytes read.
pub(crate) fn read_through(path: &Path) -> std::io::Result<u64> {
    let file = std::fs::File::open(path)?;
    std::io::copy(
        &mut std::io::BufReader::with_capacity(1 << 20, file),
        &mut std::io::sink(),
    )
}

/// Opens the database for reading only. Where the archive cannot be written (a
/// read-only mount, another user's directory) and SQLite cannot open its shared-memory
/// file beside the database, it is opened as immutable: no writer can be changing it
/// there.
pub(crate) fn open_read(path: &Path) -> Result<Connection> {
    match open_read_as(path, false) {
        Err(Error::Db { source, .. }) if cannot_open_shared(&source) => {
            open_read_as(path, true).map_err(|_| crate::db_err(path)(source))
        }
        other => other,
    }
}

/// Whether SQLite failed for want of write access beside the database.
fn cannot_open_shared(e: &rusqlite::Error) -> bool {
    matches!(
        e.sqlite_error_code(),
        Some(rusqlite::ErrorCode::CannotOpen | rusqlite::ErrorCode::ReadOnly)
    )
}

/// The URI of a database opened as immutable, its path percent-encoded.
fn immutable_uri(path: &Path) -> String {
    #[cfg(unix)]
    let bytes = std::os::unix::ffi::OsStrExt::as_bytes(path.as_os_str()).to_vec();
    #[cfg(not(unix))]
    let bytes = path.to_string_lossy().replace('\\', "/").into_bytes();
    let mut uri = String::from("file:");
    for b in bytes {
        if b.is_ascii_alphanumeric() || b"/-._~".contains(&b) {
            uri.push(b as char);
        } else {
            uri.push_str(&format!("%{b:02X}"));
        }
    }
    uri.push_str("?immutable=1");
    uri
}

fn open_read_as(path: &Path, immutable: bool) -> Result<Connection> {
    let err = crate::db_err(path);
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY
        | OpenFlags::SQLITE_OPEN_NO_MUTEX
        | OpenFlags::SQLITE_OPEN_URI;
    let conn = if immutable {
        Connection::open_with_flags(immutable_uri(path), flags)
    } else {
        Connection::open_with_flags(path, flags)
    }
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
    let err = crate::db_err(path);
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
    if version == known {
        return Ok(());
    }
    // A step may rebuild a table others refer to (SQLite's way of changing a table):
    // foreign keys are off while the steps run and checked before each commits.
    conn.pragma_update(None, "foreign_keys", false)
        .map_err(err)?;
    for (i, step) in MIGRATIONS.iter().enumerate().skip(version as usize) {
        let tx = conn.transaction().map_err(err)?;
        tx.execute_batch(step).map_err(err)?;
        let broken: i64 = tx
            .query_row("SELECT count(*) FROM pragma_foreign_key_check", [], |r| {
                r.get(0)
            })
            .map_err(err)?;
        if broken > 0 {
            return Err(Error::Corrupt {
                path: path.to_path_buf(),
                message: format!(
                    "schema step {} would leave {broken} rows breaking foreign keys; nothing was changed",
                    i + 1
                ),
            });
        }
        tx.pragma_update(None, "user_version", (i + 1) as i64)
            .map_err(err)?;
        tx.commit().map_err(err)?;
    }
    conn.pragma_update(None, "foreign_keys", true)
        .map_err(err)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn indexes(conn: &Connection) -> Vec<String> {
        let mut stmt = conn
            .prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND name NOT LIKE 'sqlite_%' ORDER BY name")
            .unwrap();
        stmt.query_map([], |r| r.get(0))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap()
    }

    /// An archive of schema 3 (blobs in a WITHOUT ROWID table) migrates to the rowid
    /// table with every blob, source and reference as it was.
    #[test]
    fn blobs_move_to_a_rowid_table_intact() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("archive.sqlite");
        {
            let conn = Connection::open(&path).unwrap();
            for step in &MIGRATIONS[..3] {
                conn.execute_batch(step).unwrap();
            }
            conn.pragma_update(None, "user_version", 3).unwrap();
            conn.execute_batch(
                "INSERT INTO batch (seq, started_at) VALUES (1, 'then');
                 INSERT INTO blob VALUES ('bb', 2, 'zstd', x'0202');
                 INSERT INTO blob VALUES ('aa', 1, 'zstd', x'01');
                 INSERT INTO source (id, uri, sha256, kind, size, encoding, text_len, ingested_at, batch)
                   VALUES (1, 'u:1', 'bb', 'text', 2, 'utf-8', 2, 'then', 1),
                          (2, 'u:2', 'aa', 'text', 1, 'utf-8', 1, 'then', 1),
                          (3, 'u:3', 'bb', 'text', 2, 'utf-8', 2, 'then', 1);
                 INSERT INTO caption (id, canonical_variant, seq) VALUES (1, 2, 1);
                 INSERT INTO variant VALUES (2, 1, x'0102', 'A text.', NULL),
                                            (5, 1, x'0304', 'A text, cut', '{}');
                 INSERT INTO occurrence VALUES (1, 1, 2, 0, 0, 7), (2, 3, 5, 0, 0, 11);",
            )
            .unwrap();
        }
        let conn = open_write(&path).unwrap();
        let version: i64 = conn
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .unwrap();
        assert_eq!(version, MIGRATIONS.len() as i64);
        // In the order sources first used them, each once, bytes unchanged.
        let rows: Vec<(i64, String, i64, Vec<u8>)> = conn
            .prepare("SELECT id, sha256, size, data FROM blob ORDER BY id")
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap();
        assert_eq!(
            rows,
            vec![
                (1, "bb".to_string(), 2, vec![2, 2]),
                (2, "aa".to_string(), 1, vec![1]),
            ]
        );
        let broken: i64 = conn
            .query_row("SELECT count(*) FROM pragma_foreign_key_check", [], |r| {
                r.get(0)
            })
            .unwrap();
        assert_eq!(broken, 0);
        // A blob is still one per hash.
        assert!(
            conn.execute(
                "INSERT INTO blob (sha256, size, codec, data) VALUES ('aa', 1, 'zstd', x'01')",
                []
            )
            .is_err()
        );
        // Variants keep their ids, captions, keys, texts and records; a key is unique.
        type Row = (i64, i64, Vec<u8>, String, Option<String>);
        let variants: Vec<Row> = conn
            .prepare("SELECT id, caption_id, key, text, record FROM variant ORDER BY id")
            .unwrap()
            .query_map([], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
            })
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap();
        assert_eq!(
            variants,
            vec![
                (2, 1, vec![1, 2], "A text.".to_string(), None),
                (
                    5,
                    1,
                    vec![3, 4],
                    "A text, cut".to_string(),
                    Some("{}".to_string())
                ),
            ]
        );
        assert!(
            conn.execute(
                "INSERT INTO variant (caption_id, key, text) VALUES (1, x'0102', 'again')",
                []
            )
            .is_err()
        );
        let idx = indexes(&conn);
        assert!(!idx.contains(&"source_sha256".to_string()), "{idx:?}");
        for i in [
            "occurrence_variant",
            "variant_key",
            "variant_caption",
            "blob_sha256",
        ] {
            assert!(idx.contains(&i.to_string()), "{idx:?}");
        }
    }

    #[test]
    fn read_through_reads_the_whole_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        let bytes: Vec<u8> = (0..(3u32 << 20 | 12_345))
            .map(|i| (i % 251) as u8)
            .collect();
        std::fs::write(&path, &bytes).unwrap();
        assert_eq!(read_through(&path).unwrap(), bytes.len() as u64);
        assert!(read_through(&dir.path().join("missing")).is_err());
    }

    /// The indexes a bulk write dropped (and did not build again, having been stopped)
    /// are there again once a writer opens the archive.
    #[test]
    fn a_writer_builds_missing_bulk_indexes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("archive.sqlite");
        let all = ["blob_sha256", "occurrence_variant", "variant_key"];
        let conn = open_write(&path).unwrap();
        assert!(has_blob_index(&conn).unwrap());
        conn.execute_batch(DROP_BULK_INDEXES).unwrap();
        assert!(!has_blob_index(&conn).unwrap());
        drop(conn);
        let conn = Connection::open(&path).unwrap();
        let idx = indexes(&conn);
        assert!(all.iter().all(|i| !idx.contains(&i.to_string())), "{idx:?}");
        drop(conn);
        let conn = open_write(&path).unwrap();
        let idx = indexes(&conn);
        assert!(all.iter().all(|i| idx.contains(&i.to_string())), "{idx:?}");
        // One of them missing is built too.
        conn.execute_batch("DROP INDEX variant_key").unwrap();
        drop(conn);
        let conn = open_write(&path).unwrap();
        let idx = indexes(&conn);
        assert!(all.iter().all(|i| idx.contains(&i.to_string())), "{idx:?}");
    }

    /// A new database appears whole: what an interrupted creation leaves beside it (a
    /// part-built file, its journal) is not the database, readers do not see it, and the
    /// next creation replaces it.
    /// A database whose path needs escaping in a URI opens as immutable too.
    #[test]
    fn an_immutable_open_reads_any_path() {
        let dir = tempfile::tempdir().unwrap();
        let sub = dir.path().join("a dir?#%é");
        std::fs::create_dir(&sub).unwrap();
        let path = sub.join("archive.sqlite");
        drop(open_write(&path).unwrap());
        let conn = open_read_as(&path, true).unwrap();
        let v: i64 = conn
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .unwrap();
        assert_eq!(v, MIGRATIONS.len() as i64);
        assert!(immutable_uri(&path).ends_with("/archive.sqlite?immutable=1"));
    }

    #[test]
    fn a_new_database_appears_at_the_current_version_only() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("archive.sqlite");
        let tmp = creation_path(&path);
        assert_eq!(tmp, dir.path().join("archive.sqlite.new"));
        {
            // A creation killed after the first schema step.
            let conn = Connection::open(&tmp).unwrap();
            conn.execute_batch(MIGRATIONS[0]).unwrap();
            conn.pragma_update(None, "user_version", 1).unwrap();
        }
        std::fs::write(dir.path().join("archive.sqlite.new-journal"), b"torn").unwrap();
        assert!(!path.exists());
        let conn = open_write(&path).unwrap();
        drop(conn);
        assert!(!tmp.exists());
        assert!(!dir.path().join("archive.sqlite.new-journal").exists());
        let conn = open_read(&path).unwrap();
        let version: i64 = conn
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .unwrap();
        assert_eq!(version, MIGRATIONS.len() as i64);
        let mode: String = conn
            .pragma_query_value(None, "journal_mode", |r| r.get(0))
            .unwrap();
        assert_eq!(mode, "wal");
    }
}
