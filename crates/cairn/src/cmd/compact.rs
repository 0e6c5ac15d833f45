//! `cairn compact`: the search index merged into one segment.

use std::path::Path;
use std::process::ExitCode;

use anyhow::Result;

use super::wait::{WaitArgs, open_writer};

#[derive(clap::Args, Debug)]
pub struct CompactArgs {
    #[command(flatten)]
    wait: WaitArgs,
}

/// Runs `cairn compact` on the archive in `data`.
pub fn run(data: &Path, args: CompactArgs) -> Result<ExitCode> {
    let mut a = open_writer(data, &args.wait)?;
    let merged = a.compact_index(1)?;
    eprintln!(
        "{}",
        if merged {
            "merged the search index into one segment"
        } else {
            "the search index is already compact"
        }
    );
    Ok(ExitCode::SUCCESS)
}
