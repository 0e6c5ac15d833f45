//! `cairn check`: the archive verified and, when asked, its search index repaired.

use std::path::Path;
use std::process::ExitCode;

use anyhow::Result;
use cairn_store::Archive;

use super::wait::{WaitArgs, open_writer};
use crate::out::outln;

#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// Rebuild the search index when it is missing or out of step, and catch it up
    /// when it is behind.
    #[arg(long)]
    repair: bool,
    #[command(flatten)]
    wait: WaitArgs,
    /// As JSON.
    #[arg(long)]
    json: bool,
}

/// `cairn check`: verifies the archive and, with `repair`, rebuilds a search index that
/// is missing or out of step and catches up one that is behind.
pub fn run(data: &Path, args: CheckArgs) -> Result<ExitCode> {
    let CheckArgs { repair, wait, json } = args;
    let mut rep = match Archive::open_reader(data) {
        Ok(a) => a.check()?,
        // No usable index: the database is the truth, the index is made again from it.
        Err(cairn_store::Error::Index { .. }) if repair => {
            let w = open_writer(data, &wait)?;
            eprintln!("repair: rebuilt the search index");
            w.check()?
        }
        Err(e) => return Err(e.into()),
    };
    if repair && !rep.ok() {
        let w = open_writer(data, &wait)?;
        let (w, n) = w.reindex()?;
        eprintln!("repair: reindexed {n} captions");
        rep = w.check()?;
    } else if repair && rep.index_behind > 0 {
        // A writer opening the archive indexes what the index lacks.
        let w = open_writer(data, &wait)?;
        eprintln!("repair: indexed {} captions", rep.index_behind);
        rep = w.check()?;
    }
    if json {
        outln!("{}", serde_json::to_string_pretty(&rep)?);
    }
    for n in &rep.notes {
        eprintln!("note: {}", cairn_ingest::quoted(n));
    }
    for p in &rep.problems {
        eprintln!("problem: {}", cairn_ingest::quoted(p));
    }
    eprintln!(
        "checked {} sources, {} occurrences, {} captions ({} indexed), {} revisions: {}",
        rep.sources_checked,
        rep.occurrences_checked,
        rep.captions,
        rep.indexed,
        rep.revisions_checked,
        if rep.ok() {
            "ok".to_string()
        } else {
            format!("{} problems", rep.problems.len())
        }
    );
    Ok(if rep.ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
