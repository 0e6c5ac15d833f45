//! `cairn gazetteer`: places of the archive's own, from a GeoNames dump, used by every
//! command that extracts against the archive.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use cairn_gazetteer::ARCHIVE_FILE;
use cairn_gazetteer::Gazetteer;
use cairn_gazetteer::import::ImportReport;
use clap::Subcommand;

/// What to do with the archive's gazetteer.
#[derive(Subcommand, Debug)]
pub enum Action {
    /// Add the places of a GeoNames dump (`allCountries.zip`, a country's `XX.zip`, or
    /// the table inside one) that the bundled gazetteer lacks: populated places,
    /// districts, regions, islands, camps, border posts. Replaces an earlier import once
    /// the new one is complete; rows that are no GeoNames rows are skipped and counted.
    Import {
        /// The dump.
        file: PathBuf,
    },
    /// Drop the archive's imported places: the bundled gazetteer is used again.
    Reset,
}

/// Runs an action on the archive in `data`.
pub fn run(data: &Path, action: Action) -> Result<ExitCode> {
    match action {
        Action::Import { file } => import(data, &file),
        Action::Reset => reset(data),
    }
}

fn import(data: &Path, file: &Path) -> Result<ExitCode> {
    std::fs::create_dir_all(data).with_context(|| format!("creating {}", data.display()))?;
    let out = data.join(ARCHIVE_FILE);
    let report = cairn_gazetteer::import::import_dump(file, &out, &Gazetteer::bundled())?;
    println!(
        "{} places imported into {} ({} rows read; {} of the kinds kept already bundled; \
         {} repeated rows left out)",
        report.kept,
        out.display(),
        report.rows,
        report.known,
        report.duplicates
    );
    print_skipped(file, &report);
    Ok(ExitCode::SUCCESS)
}

/// Names the rows skipped, so that a careless dump is seen for what it is.
fn print_skipped(file: &Path, report: &ImportReport) {
    if report.skipped == 0 {
        return;
    }
    println!(
        "{} rows of {} skipped: not rows of GeoNames' table",
        report.skipped,
        file.display()
    );
    for what in &report.first_skipped {
        println!("  {what}");
    }
    if report.skipped > report.first_skipped.len() as u64 {
        println!("  …");
    }
}

fn reset(data: &Path) -> Result<ExitCode> {
    let out = data.join(ARCHIVE_FILE);
    if cairn_gazetteer::import::reset(&out)? {
        println!("{} removed: the bundled gazetteer is used", out.display());
    } else {
        println!(
            "no imported places in {}: the bundled gazetteer is used",
            data.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}
