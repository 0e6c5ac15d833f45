//! Backups of a live archive and archives restored from them.
//!
//! A backup is what the search index is rebuilt from: the database, taken as one
//! consistent snapshot while readers and a writer go on (`VACUUM INTO` reads one read
//! transaction, so a batch or an edit is in it whole or not at all), and the archive's
//! own gazetteer. Sources' bytes, accounts and revisions all live in the database.
//! A restore builds the archive beside its final place, indexes and checks it there,
//! and only then moves it in.

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::{Archive, Error, Result, db};

/// Files of an archive that are neither the database nor rebuilt from it.
const KEPT_FILES: &[&str] = &[cairn_gazetteer::ARCHIVE_FILE];

/// What a backup or a restore wrote.
#[derive(Debug, Clone, Serialize)]
pub struct BackupReport {
    /// The directory written.
    pub dir: PathBuf,
    /// Bytes of the database copied.
    pub database_bytes: u64,
    /// The other files copied, by name.
    pub files: Vec<String>,
}

fn io(path: &Path) -> impl Fn(std::io::Error) -> Error + '_ {
    move |source| Error::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Whether `dir` is missing or holds nothing.
pub(crate) fn is_empty_dir(dir: &Path) -> Result<bool> {
    match std::fs::read_dir(dir) {
        Ok(mut entries) => Ok(entries.next().is_none()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(true),
        Err(e) => Err(io(dir)(e)),
    }
}

/// Copies `from` to `to` through a file beside `to`, made durable before it is named.
fn copy_durably(from: &Path, to: &Path) -> Result<u64> {
    let tmp = db::creation_path(to);
    let n = std::fs::copy(from, &tmp).map_err(io(from))?;
    std::fs::File::open(&tmp)
        .and_then(|f| f.sync_all())
        .map_err(io(&tmp))?;
    std::fs::rename(&tmp, to).map_err(io(to))?;
    Ok(n)
}

fn sync_dir(dir: &Path) -> Result<()> {
    std::fs::File::open(dir)
        .and_then(|f| f.sync_all())
        .map_err(io(dir))
}

/// Copies the kept files of the archive in `from` that exist into `to`; their names.
fn copy_kept_files(from: &Path, to: &Path) -> Result<Vec<String>> {
    let mut copied = Vec::new();
    for name in KEPT_FILES {
        let src = from.join(name);
        match std::fs::metadata(&src) {
            Ok(_) => {
                copy_durably(&src, &to.join(name))?;
                copied.push(name.to_string());
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(io(&src)(e)),
        }
    }
    Ok(copied)
}

impl Archive {
    /// Writes a backup of this archive to `dir`, which must be missing or empty. Needs
    /// no writer lock: ingests and edits go on, and the backup holds the archive as it
    /// was when its read began.
    pub fn backup(&self, dir: &Path) -> Result<BackupReport> {
        if !is_empty_dir(dir)? {
            return Err(Error::Invalid(format!(
                "backup directory {} is not empty; give a new or empty one",
                dir.display()
            )));
        }
        std::fs::create_dir_all(dir).map_err(io(dir))?;
        let target = Archive::db_path(dir);
        let tmp = db::creation_path(&target);
        let _ = std::fs::remove_file(&tmp);
        let tmp_text = tmp.to_str().ok_or_else(|| {
            Error::Invalid(format!(
                "backup directory {} is not valid UTF-8",
                dir.display()
            ))
        })?;
        self.with_conn(|c| {
            c.execute("VACUUM INTO ?1", [tmp_text])
                .map_err(crate::db_err(&tmp))
        })?;
        std::fs::File::open(&tmp)
            .and_then(|f| f.sync_all())
            .map_err(io(&tmp))?;
        std::fs::rename(&tmp, &target).map_err(io(&target))?;
        let files = copy_kept_files(&self.dir, dir)?;
        sync_dir(dir)?;
        let database_bytes = std::fs::metadata(&target).map_err(io(&target))?.len();
        Ok(BackupReport {
            dir: dir.to_path_buf(),
            database_bytes,
            files,
        })
    }
}

/// Where an archive is restored before it takes its final name.
fn staging_path(archive: &Path) -> PathBuf {
    let mut name = archive.file_name().unwrap_or_default().to_os_string();
    name.push(".restoring");
    archive.with_file_name(name)
}

/// Where an archive a forced restore replaced is kept: the first free name.
fn replaced_path(archive: &Path) -> PathBuf {
    let base = archive.file_name().unwrap_or_default().to_os_string();
    (1..)
        .map(|n| {
            let mut name = base.clone();
            name.push(format!(".replaced-{n}"));
            archive.with_file_name(name)
        })
        .find(|p| !p.exists())
        .expect("a free name")
}

/// What a restore did.
#[derive(Debug, Clone, Serialize)]
pub struct Restored {
    /// What was copied into the archive.
    pub report: BackupReport,
    /// Captions indexed.
    pub indexed: u64,
    /// Where the archive the restore replaced was moved, when there was one.
    pub replaced: Option<PathBuf>,
    /// The restored archive's check.
    pub check: crate::CheckReport,
}

/// Restores the backup in `backup` as the archive `archive`. A non-empty `archive` is
/// refused unless `force`, and then moved aside, never deleted. The archive is built
/// beside `archive`, its database migrated, its search index rebuilt and the whole
/// checked before it is moved in; a backup that does not check is refused.
pub fn restore(backup: &Path, archive: &Path, force: bool) -> Result<Restored> {
    let source = Archive::db_path(backup);
    if !source.is_file() {
        return Err(Error::Invalid(format!(
            "{} holds no backup (no archive.sqlite)",
            backup.display()
        )));
    }
    let occupied = !is_empty_dir(archive)?;
    if occupied && !force {
        return Err(Error::Invalid(format!(
            "archive directory {} is not empty; restore into a new one, or give --force to move it aside",
            archive.display()
        )));
    }
    let staging = staging_path(archive);
    if staging.exists() {
        std::fs::remove_dir_all(&staging).map_err(io(&staging))?;
    }
    std::fs::create_dir_all(&staging).map_err(io(&staging))?;
    let database_bytes = copy_durably(&source, &Archive::db_path(&staging))?;
    let files = copy_kept_files(backup, &staging)?;
    let (indexed, check) = index_and_check(&staging)?;
    if !check.ok() {
        return Err(Error::Corrupt {
            path: source,
            message: format!(
                "the restored archive fails its check ({}); {} left as it was",
                check.problems.join("; "),
                archive.display()
            ),
        });
    }
    let replaced = if archive.exists() && occupied {
        let aside = replaced_path(archive);
        std::fs::rename(archive, &aside).map_err(io(archive))?;
        Some(aside)
    } else {
        if archive.exists() {
            std::fs::remove_dir(archive).map_err(io(archive))?;
        }
        None
    };
    std::fs::rename(&staging, archive).map_err(io(archive))?;
    if let Some(parent) = archive.parent().filter(|p| !p.as_os_str().is_empty()) {
        sync_dir(parent)?;
    }
    let report = BackupReport {
        dir: archive.to_path_buf(),
        database_bytes,
        files,
    };
    Ok(Restored {
        report,
        indexed,
        replaced,
        check,
    })
}

/// Opens the archive in `dir` for writing (migrating it), builds its search index
/// whole, and checks it.
fn index_and_check(dir: &Path) -> Result<(u64, crate::CheckReport)> {
    let writer = Archive::open_writer(dir)?;
    let (writer, indexed) = writer.reindex()?;
    let check = writer.check()?;
    Ok((indexed, check))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_forced_restore_keeps_the_replaced_archive_under_a_free_name() {
        let dir = tempfile::tempdir().unwrap();
        let arch = dir.path().join("arch");
        assert_eq!(replaced_path(&arch), dir.path().join("arch.replaced-1"));
        std::fs::create_dir(dir.path().join("arch.replaced-1")).unwrap();
        assert_eq!(replaced_path(&arch), dir.path().join("arch.replaced-2"));
        assert_eq!(staging_path(&arch), dir.path().join("arch.restoring"));
    }

    #[test]
    fn a_backup_is_refused_into_a_directory_that_holds_something() {
        let dir = tempfile::tempdir().unwrap();
        let arch = dir.path().join("arch");
        let w = Archive::open_writer(&arch).unwrap();
        let full = dir.path().join("full");
        std::fs::create_dir(&full).unwrap();
        std::fs::write(full.join("x"), b"kept").unwrap();
        let err = w.backup(&full).unwrap_err().to_string();
        assert!(err.contains("not empty"), "{err}");
        assert_eq!(std::fs::read(full.join("x")).unwrap(), b"kept");
        let err = restore(&full, &dir.path().join("new"), false)
            .unwrap_err()
            .to_string();
        assert!(err.contains("holds no backup"), "{err}");
    }
}
