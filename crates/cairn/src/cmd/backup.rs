//! `cairn backup` and `cairn restore`: the archive copied while it is in use, and an
//! archive made again from such a copy, its search index rebuilt.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use cairn_store::Archive;

#[derive(clap::Args, Debug)]
pub struct BackupArgs {
    /// A new or empty directory to write the backup to.
    dir: PathBuf,
}

#[derive(clap::Args, Debug)]
pub struct RestoreArgs {
    /// A directory `cairn backup` wrote.
    backup: PathBuf,
    /// The archive directory to restore into (new or empty).
    archive: PathBuf,
    /// Restore over an archive that holds something: it is moved aside (to
    /// ARCHIVE.replaced-N), never deleted.
    #[arg(long)]
    force: bool,
}

/// Runs `cairn backup DIR` on the archive in `data`.
pub fn run_backup(data: &Path, args: BackupArgs) -> Result<ExitCode> {
    let a = Archive::open_reader(data)?;
    let rep = a
        .backup(&args.dir)
        .with_context(|| format!("backing up {} to {}", data.display(), args.dir.display()))?;
    let mut what = format!("the database ({} bytes)", rep.database_bytes);
    for f in &rep.files {
        what.push_str(&format!(", {f}"));
    }
    eprintln!("backed up {what} to {}", rep.dir.display());
    Ok(ExitCode::SUCCESS)
}

/// Runs `cairn restore BACKUP ARCHIVE`.
pub fn run_restore(args: RestoreArgs) -> Result<ExitCode> {
    let r = cairn_store::restore(&args.backup, &args.archive, args.force).with_context(|| {
        format!(
            "restoring {} from {}",
            args.archive.display(),
            args.backup.display()
        )
    })?;
    if let Some(aside) = &r.replaced {
        eprintln!("moved the archive that was there to {}", aside.display());
    }
    eprintln!(
        "restored {} ({} captions indexed, {} revisions checked): ok",
        r.report.dir.display(),
        r.indexed,
        r.check.revisions_checked
    );
    Ok(ExitCode::SUCCESS)
}
