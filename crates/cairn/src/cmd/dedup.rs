//! `cairn dedup`: captions clustered without an archive, streamed paragraph by
//! paragraph so memory holds one batch and the clusters' representatives.

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use cairn_dedup::Deduper;

/// Captions clustered at a time.
const BATCH: usize = 8192;

#[derive(clap::Args, Debug)]
pub struct DedupArgs {
    /// Input files.
    files: Vec<PathBuf>,
    /// Near-duplicate threshold (0..1).
    #[arg(long, default_value_t = cairn_dedup::DEFAULT_THRESHOLD)]
    threshold: f32,
}

/// Runs `cairn dedup`.
pub fn run(args: DedupArgs) -> Result<ExitCode> {
    if !(0.0..=1.0).contains(&args.threshold) {
        bail!("--threshold must lie between 0 and 1");
    }
    let mut d = Deduper::new(args.threshold);
    if args.files.is_empty() {
        push_paragraphs(
            &mut d,
            "<stdin>",
            Box::new(std::io::BufReader::new(std::io::stdin())),
        )?;
    }
    for f in &args.files {
        let file = std::fs::File::open(f).with_context(|| format!("opening {}", f.display()))?;
        push_paragraphs(
            &mut d,
            &f.display().to_string(),
            Box::new(std::io::BufReader::with_capacity(1 << 20, file)),
        )?;
    }
    let clusters = d.clusters();
    let out = d.finish();
    let stdout = std::io::stdout();
    let mut w = std::io::BufWriter::new(stdout.lock());
    for (cluster, canonical) in &out {
        writeln!(w, "{{\"cluster\":{cluster},\"canonical\":{canonical}}}")?;
    }
    w.flush()?;
    eprintln!("{} captions in {clusters} clusters", out.len());
    Ok(ExitCode::SUCCESS)
}

/// Reads captions separated by blank lines from `reader` and clusters them in batches.
fn push_paragraphs(d: &mut Deduper, name: &str, reader: Box<dyn BufRead>) -> Result<()> {
    let mut batch: Vec<String> = Vec::with_capacity(BATCH);
    let mut para = String::new();
    let mut bad_utf8 = false;
    let flush_para = |para: &mut String, batch: &mut Vec<String>| {
        let text = cairn_model::fold_whitespace(para);
        para.clear();
        if !text.is_empty() {
            batch.push(text);
        }
    };
    for line in reader.split(b'\n') {
        let line = line.with_context(|| format!("reading {name}"))?;
        let line = match String::from_utf8(line) {
            Ok(l) => l,
            Err(e) => {
                bad_utf8 = true;
                String::from_utf8_lossy(e.as_bytes()).into_owned()
            }
        };
        if line.trim().is_empty() {
            flush_para(&mut para, &mut batch);
            if batch.len() >= BATCH {
                d.push_batch(&batch);
                batch.clear();
            }
        } else {
            para.push_str(&line);
            para.push('\n');
        }
    }
    flush_para(&mut para, &mut batch);
    d.push_batch(&batch);
    if bad_utf8 {
        eprintln!("warning: {name}: invalid UTF-8 decoded with replacement characters");
    }
    Ok(())
}
