//! `cairn stats`: counts of what the archive holds.

use std::path::Path;
use std::process::ExitCode;

use anyhow::Result;
use cairn_store::Archive;

use crate::out::outln;

#[derive(clap::Args, Debug)]
pub struct StatsArgs {
    /// As JSON.
    #[arg(long)]
    json: bool,
}

/// Runs `cairn stats` on the archive in `data`.
pub fn run(data: &Path, args: StatsArgs) -> Result<ExitCode> {
    let a = Archive::open_reader(data)?;
    let s = a.stats()?;
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&s)?);
    } else {
        outln!("sources      {}", s.sources);
        outln!("occurrences  {}", s.occurrences);
        outln!("captions     {}", s.captions);
        outln!("variants     {}", s.variants);
        outln!(
            "source bytes {} ({} stored)",
            s.source_bytes,
            s.stored_bytes
        );
        outln!("indexed      {}", s.indexed);
    }
    Ok(ExitCode::SUCCESS)
}
