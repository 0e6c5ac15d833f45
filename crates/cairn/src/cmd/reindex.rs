//! `cairn reindex`: the search index rebuilt from the database.

use std::path::Path;
use std::process::ExitCode;

use anyhow::Result;

use super::wait::{WaitArgs, open_writer};

#[derive(clap::Args, Debug)]
pub struct ReindexArgs {
    #[command(flatten)]
    wait: WaitArgs,
}

/// Runs `cairn reindex` on the archive in `data`.
pub fn run(data: &Path, args: ReindexArgs) -> Result<ExitCode> {
    let a = open_writer(data, &args.wait)?;
    let (_, n) = a.reindex()?;
    eprintln!("reindexed {n} captions");
    Ok(ExitCode::SUCCESS)
}
