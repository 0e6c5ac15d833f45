//! `cairn extract`: records of captions printed as JSON Lines, without an archive to
//! store them in (its gazetteer is used when it has one of its own).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Result;
use cairn_extract::Extractor;
use cairn_gazetteer::Gazetteer;

use super::EXIT_PARTIAL;

#[derive(clap::Args, Debug)]
pub struct ExtractArgs {
    /// Input files.
    files: Vec<PathBuf>,
}

/// Runs `cairn extract` against the gazetteer of the archive in `data`.
pub fn run(data: &Path, args: ExtractArgs) -> Result<ExitCode> {
    let extractor = Extractor::new(Gazetteer::for_archive(data)?);
    let inputs: Vec<cairn_ingest::Input> = if args.files.is_empty() {
        vec![cairn_ingest::Input::Stdin]
    } else {
        args.files
            .iter()
            .map(|f| cairn_ingest::Input::File(f.clone()))
            .collect()
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let (mut ok, mut failed) = (0u64, 0u64);
    let opts = cairn_ingest::ReadOptions::default();
    for input in &inputs {
        let mut write_err: Option<std::io::Error> = None;
        cairn_ingest::read_input(input, &opts, &mut |raw| {
            let doc = match raw.and_then(cairn_ingest::render) {
                Ok(d) => d,
                Err(e) if e.is_notice() => {
                    eprintln!("warning: {e}");
                    return true;
                }
                Err(e) => {
                    eprintln!("error: {}", cairn_ingest::quoted(&e.to_string()));
                    failed += 1;
                    return true;
                }
            };
            ok += 1;
            match write_records(&extractor, doc, &mut out) {
                Ok(()) => true,
                Err(e) => {
                    write_err = Some(e);
                    false
                }
            }
        });
        if let Some(e) = write_err {
            return Err(e.into());
        }
    }
    out.flush()?;
    Ok(match (ok, failed) {
        (_, 0) => ExitCode::SUCCESS,
        (0, _) => ExitCode::FAILURE,
        _ => ExitCode::from(EXIT_PARTIAL),
    })
}

/// Prints a document's warnings and writes one JSON line per caption record.
fn write_records(
    extractor: &Extractor,
    doc: cairn_model::Document,
    out: &mut impl Write,
) -> std::io::Result<()> {
    for w in &doc.warnings {
        eprintln!(
            "warning: {}",
            cairn_ingest::quoted(&format!("{}: {w}", doc.uri))
        );
    }
    // The same captions and records `cairn ingest` stores, embedded IPTC/XMP
    // fields applied.
    let found = extractor.document(doc.segments, &doc.text, doc.embedded.as_ref());
    for w in &found.warnings {
        eprintln!(
            "warning: {}",
            cairn_ingest::quoted(&format!("{}: {w}", doc.uri))
        );
    }
    for (_, rec) in found.captions {
        serde_json::to_writer(&mut *out, &rec).map_err(std::io::Error::from)?;
        out.write_all(b"\n")?;
    }
    Ok(())
}
