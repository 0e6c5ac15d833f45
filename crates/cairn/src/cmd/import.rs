//! `cairn import`: an archive built or extended from the cluster job's Parquet output.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Result;

use super::progress::with_progress;
use super::wait::{WaitArgs, open_writer};

#[derive(clap::Args, Debug)]
pub struct ImportArgs {
    /// The job's output directory.
    dir: PathBuf,
    /// Print the summary as JSON on stdout.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    wait: WaitArgs,
}

/// Runs `cairn import` on the archive in `data`.
pub fn run(data: &Path, args: ImportArgs) -> Result<ExitCode> {
    let mut archive = open_writer(data, &args.wait)?;
    with_progress("imported", args.json, |on_event| {
        cairn_pipeline::import(
            &mut archive,
            &args.dir,
            cairn_pipeline::BATCH_SOURCES,
            on_event,
        )
    })
}
