//! `cairn export`: the captions a search matches, written in one of the export formats
//! to stdout, to a file that appears whole, through a FIFO or device, or as one sidecar
//! per caption.

mod incidents;
mod target;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use cairn_gazetteer::Gazetteer;
use cairn_store::{Archive, SearchRequest};

use self::target::Target;
use super::filters::FilterArgs;

#[derive(clap::Args, Debug)]
pub struct ExportArgs {
    /// The query, as for `search`; "" (the default) for everything.
    #[arg(default_value = "")]
    query: String,
    #[command(flatten)]
    filters: FilterArgs,
    /// jsonl, csv, geojson, acled-csv, xmp, or gold (verified and corrected captions in
    /// the annotation format of the development corpora).
    #[arg(long, default_value = "jsonl")]
    format: String,
    /// Output file (stdout when absent or `-`; a FIFO or device is written through), or
    /// the directory for xmp sidecars.
    #[arg(long, short)]
    out: Option<PathBuf>,
    /// Export the incidents of two or more photographs instead of captions (jsonl,
    /// acled-csv or geojson; one line, row or feature per incident).
    #[arg(long)]
    incidents: bool,
}

/// Runs `cairn export` on the archive in `data`.
pub fn run(data: &Path, args: ExportArgs) -> Result<ExitCode> {
    let format: cairn_export::Format = args.format.parse().map_err(anyhow::Error::msg)?;
    let req = SearchRequest {
        query: args.query,
        filters: args.filters.to_filters()?,
        ..SearchRequest::default()
    };
    if args.incidents {
        let unfiltered = serde_json::to_value(&req.filters)?
            == serde_json::to_value(cairn_store::Filters::default())?;
        if !req.query.is_empty() || !unfiltered {
            bail!("--incidents exports every incident: it takes no query or filter");
        }
        if !cairn_export::INCIDENT_FORMATS.contains(&format) {
            let names: Vec<&str> = cairn_export::INCIDENT_FORMATS.map(|f| f.name()).to_vec();
            bail!(
                "incidents do not export as {} (one of {})",
                format.name(),
                names.join(", ")
            );
        }
        let a = Archive::open_reader(data)?;
        incidents::export(&a, format, args.out.as_deref())?;
        return Ok(ExitCode::SUCCESS);
    }
    let a = Archive::open_reader(data)?;
    export(&a, &req, format, args.out.as_deref())?;
    Ok(ExitCode::SUCCESS)
}

/// Writes an export to its target ([`Target`]).
fn export(
    a: &Archive,
    req: &SearchRequest,
    format: cairn_export::Format,
    out: Option<&Path>,
) -> Result<()> {
    let g = Gazetteer::bundled();
    if format.is_directory() {
        let Some(dir) = out.filter(|p| p.as_os_str() != "-") else {
            bail!("--format xmp writes one file per caption: give a directory with --out");
        };
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        let n = a.export(req, |c| cairn_export::write_xmp(dir, c, &g).map(|_| ()))?;
        eprintln!("wrote {n} XMP sidecars to {}", dir.display());
        return Ok(());
    }
    let target = Target::of(out)?;
    let name = match (&target, out) {
        (Target::Stdout, _) | (_, None) => "standard output".to_string(),
        (_, Some(path)) => path.display().to_string(),
    };
    let n = target.write(|w| {
        let mut e = cairn_export::Exporter::new(format, w, &g, &name)?;
        a.export(req, |c| e.write(c).map(|_| ()))?;
        Ok(e.finish()?)
    })?;
    match target {
        Target::Stdout => eprintln!("exported {n} captions"),
        _ => eprintln!("exported {n} captions to {name}"),
    }
    Ok(())
}
