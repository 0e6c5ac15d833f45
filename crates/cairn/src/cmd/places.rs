//! `cairn places`: what the gazetteer resolves a place name to.

use std::path::Path;
use std::process::ExitCode;

use anyhow::Result;
use cairn_gazetteer::Gazetteer;
use cairn_ingest::escaped;

use crate::out::outln;

#[derive(clap::Args, Debug)]
pub struct PlacesArgs {
    /// A place name (any spelling) or id.
    name: String,
    /// As JSON.
    #[arg(long)]
    json: bool,
}

/// Runs `cairn places` against the archive's gazetteer in `data`.
pub fn run(data: &Path, args: PlacesArgs) -> Result<ExitCode> {
    let name = &args.name;
    let g = Gazetteer::for_archive(data)?;
    let rows = cairn_gazetteer::place_matches(&g, name, 20);
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&rows)?);
        return Ok(ExitCode::SUCCESS);
    }
    if rows.is_empty() {
        outln!("{name:?} is not in the gazetteer");
        return Ok(ExitCode::FAILURE);
    }
    for r in &rows {
        outln!(
            "{}{} [{}] {} ({:.4}, {:.4}) in {}",
            if r.best { "* " } else { "  " },
            escaped(&r.name),
            r.kind,
            escaped(&r.id),
            r.lat,
            r.lon,
            if r.within.is_empty() {
                "-".to_string()
            } else {
                escaped(&r.within.join(", ")).into_owned()
            }
        );
    }
    if !rows.iter().any(|r| r.best) {
        outln!("(no exact match: a filter on {name:?} would be refused)");
    }
    Ok(ExitCode::SUCCESS)
}
