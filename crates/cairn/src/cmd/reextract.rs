//! `cairn reextract`: every caption read again by the current extractor; people's
//! corrections stay over the new records, and what changed is counted per field.

use std::path::Path;
use std::process::ExitCode;

use anyhow::Result;
use cairn_extract::Extractor;
use cairn_gazetteer::Gazetteer;
use rayon::prelude::*;

use super::wait::{WaitArgs, open_writer};
use crate::out::outln;

#[derive(clap::Args, Debug)]
pub struct ReextractArgs {
    /// As JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    wait: WaitArgs,
}

/// Runs `cairn reextract` on the archive in `data`.
pub fn run(data: &Path, args: ReextractArgs) -> Result<ExitCode> {
    let extractor = Extractor::new(Gazetteer::for_archive(data)?);
    let mut w = open_writer(data, &args.wait)?;
    let report = w.reextract(|texts| texts.par_iter().map(|t| extractor.extract(t)).collect())?;
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&report)?);
        return Ok(ExitCode::SUCCESS);
    }
    outln!(
        "re-extracted {} records: {} changed; {} kept as they were (their sources gave fields beside the text); corrections kept",
        report.records,
        report.changed,
        report.kept
    );
    for (field, n) in &report.fields {
        outln!("  {field}: {n} records changed");
    }
    Ok(ExitCode::SUCCESS)
}
