//! `cairn gazetteer`: places of the archive's own, from a GeoNames dump, used by every
//! command that extracts against the archive.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use cairn_gazetteer::{ARCHIVE_FILE, Gazetteer};
use clap::Subcommand;

/// What to do with the archive's gazetteer.
#[derive(Subcommand, Debug)]
pub enum Action {
    /// Add the places of a GeoNames dump (`allCountries.zip`, a country's `XX.zip`, or
    /// the table inside one) that the bundled gazetteer lacks: populated places,
    /// districts, regions, islands, camps, border posts. Replaces an earlier import.
    Import {
        /// The dump.
        file: PathBuf,
    },
}

/// Runs an action on the archive in `data`.
pub fn run(data: &Path, action: Action) -> Result<ExitCode> {
    match action {
        Action::Import { file } => import(data, &file),
    }
}

fn import(data: &Path, file: &Path) -> Result<ExitCode> {
    std::fs::create_dir_all(data).with_context(|| format!("creating {}", data.display()))?;
    let out = data.join(ARCHIVE_FILE);
    let report = cairn_gazetteer::import::import_dump(file, &out, &Gazetteer::bundled())?;
    println!(
        "{} places imported into {} ({} rows read; {} of the kinds kept already bundled)",
        report.kept,
        out.display(),
        report.rows,
        report.known
    );
    // Load it once now, so that a file the loader would refuse shows here, not at the
    // next ingest.
    Gazetteer::load_for_archive(data)?;
    Ok(ExitCode::SUCCESS)
}
