//! `cairn export`: the captions a search matches, written in one of the export formats
//! to stdout, to a file that appears whole, or as one sidecar per caption.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use cairn_gazetteer::Gazetteer;
use cairn_store::{Archive, SearchRequest};

use super::filters::FilterArgs;

#[derive(clap::Args, Debug)]
pub struct ExportArgs {
    /// The query, as for `search`; "" (the default) for everything.
    #[arg(default_value = "")]
    query: String,
    #[command(flatten)]
    filters: FilterArgs,
    /// jsonl, csv, geojson, acled-csv or xmp.
    #[arg(long, default_value = "jsonl")]
    format: String,
    /// Output file (stdout when absent), or the directory for xmp sidecars.
    #[arg(long, short)]
    out: Option<PathBuf>,
}

/// Runs `cairn export` on the archive in `data`.
pub fn run(data: &Path, args: ExportArgs) -> Result<ExitCode> {
    let format: cairn_export::Format = args.format.parse().map_err(anyhow::Error::msg)?;
    let req = SearchRequest {
        query: args.query,
        filters: args.filters.to_filters()?,
        ..SearchRequest::default()
    };
    let a = Archive::open_reader(data)?;
    export(&a, &req, format, args.out.as_deref())?;
    Ok(ExitCode::SUCCESS)
}

/// Writes an export; a file is written beside its final name and renamed at the end, so
/// an interrupted export never leaves a truncated file under that name.
fn export(
    a: &Archive,
    req: &SearchRequest,
    format: cairn_export::Format,
    out: Option<&Path>,
) -> Result<()> {
    let g = Gazetteer::bundled();
    if format.is_directory() {
        let Some(dir) = out else {
            bail!("--format xmp writes one file per caption: give a directory with --out");
        };
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        let n = a.export(req, |c| cairn_export::write_xmp(dir, c, &g).map(|_| ()))?;
        eprintln!("wrote {n} XMP sidecars to {}", dir.display());
        return Ok(());
    }
    match out {
        None => {
            let stdout = std::io::stdout().lock();
            let mut e = cairn_export::Exporter::new(
                format,
                std::io::BufWriter::new(stdout),
                &g,
                "standard output",
            )?;
            a.export(req, |c| e.write(c).map(|_| ()))?;
            let n = e.finish()?;
            eprintln!("exported {n} captions");
        }
        Some(path) => export_file(a, req, format, &g, path)?,
    }
    Ok(())
}

/// Writes an export to `.NAME.partial` beside `path`, renamed to `path` once complete
/// and removed when the export fails.
fn export_file(
    a: &Archive,
    req: &SearchRequest,
    format: cairn_export::Format,
    g: &Gazetteer,
    path: &Path,
) -> Result<()> {
    let tmp = path.with_file_name(format!(
        ".{}.partial",
        path.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    ));
    let file =
        std::fs::File::create(&tmp).with_context(|| format!("creating {}", tmp.display()))?;
    let name = path.display().to_string();
    let mut e = cairn_export::Exporter::new(format, std::io::BufWriter::new(file), g, &name)?;
    let result = a
        .export(req, |c| e.write(c).map(|_| ()))
        .and_then(|_| e.finish());
    let n = match result {
        Ok(n) => n,
        Err(err) => {
            let _ = std::fs::remove_file(&tmp);
            return Err(err.into());
        }
    };
    std::fs::rename(&tmp, path)
        .with_context(|| format!("renaming {} to {}", tmp.display(), name))?;
    eprintln!("exported {n} captions to {name}");
    Ok(())
}
