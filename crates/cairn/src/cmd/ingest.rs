//! `cairn ingest`: files, directories and stdin read, prepared and stored by the
//! pipeline, with progress and a summary.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Result, bail};
use cairn_extract::Extractor;
use cairn_gazetteer::Gazetteer;
use cairn_pipeline::Options;

use super::progress::with_progress;
use super::wait::{WaitArgs, open_writer};

#[derive(clap::Args, Debug)]
pub struct IngestArgs {
    /// What to ingest.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// JSON Lines: the field holding the caption.
    #[arg(long, default_value = "caption")]
    text_field: String,
    /// JSON Lines: the field holding the page's uri.
    #[arg(long, default_value = "uri")]
    uri_field: String,
    /// JSON Lines: the field holding the photograph's date (`YYYY-MM-DD`).
    #[arg(long, default_value = "date")]
    date_field: String,
    /// Print the summary as JSON on stdout.
    #[arg(long)]
    json: bool,
    /// Sources per transaction.
    #[arg(long, default_value_t = cairn_pipeline::BATCH_SOURCES, hide = true)]
    batch_sources: usize,
    /// The least input (MiB) for a bulk write (tests lower it to cover that path).
    #[arg(long, default_value_t = cairn_pipeline::BULK_MIN_BYTES >> 20, hide = true)]
    bulk_min_mib: u64,
    /// Captions of a long source extracted and stored at a time (tests lower it).
    #[arg(long, default_value_t = cairn_pipeline::PART_CAPTIONS, hide = true)]
    part_captions: usize,
    /// Near-duplicate threshold (0..1, containment of the identity sentence).
    #[arg(long, default_value_t = cairn_dedup::DEFAULT_THRESHOLD)]
    threshold: f32,
    /// Merge exact duplicates only.
    #[arg(long)]
    exact_only: bool,
    /// Distinct texts an LSH key finds (tests lower it; see cairn_dedup::Eligible).
    #[arg(long, default_value_t = cairn_dedup::MAX_BUCKET as u8, hide = true)]
    max_bucket: u8,
    /// Follow symbolic links inside directories (by default each is passed over
    /// with a warning).
    #[arg(long)]
    follow: bool,
    /// Read again the sources an earlier run rejected (by default they are skipped
    /// with a warning).
    #[arg(long)]
    retry_rejected: bool,
    /// Seconds one source may take to render; a source that takes longer is rejected
    /// (and remembered as rejected), and the others are read.
    #[arg(long, default_value_t = cairn_ingest::SOURCE_TIME.as_secs_f64())]
    source_seconds: f64,
    #[command(flatten)]
    wait: WaitArgs,
}

/// Runs `cairn ingest` on the archive in `data`.
pub fn run(data: &Path, args: IngestArgs) -> Result<ExitCode> {
    if !(0.0..=1.0).contains(&args.threshold) {
        bail!("--threshold must lie between 0 and 1");
    }
    let Ok(source_time) = std::time::Duration::try_from_secs_f64(args.source_seconds) else {
        bail!("--source-seconds must be a number of seconds, 0 or more");
    };
    let opts = Options {
        batch_sources: args.batch_sources.max(1),
        bulk_min_bytes: args.bulk_min_mib.saturating_mul(1 << 20),
        part_captions: args.part_captions.max(1),
        near_threshold: (!args.exact_only).then_some(args.threshold),
        max_bucket: args.max_bucket,
        read: cairn_ingest::ReadOptions {
            text_field: args.text_field,
            uri_field: Some(args.uri_field),
            date_field: Some(args.date_field),
            ..cairn_ingest::ReadOptions::default()
        },
        follow_links: args.follow,
        retry_rejected: args.retry_rejected,
        source_time,
        ..Options::default()
    };
    ingest(data, &args.paths, args.json, &opts, &args.wait)
}

/// Ingests `paths` into the archive in `data` (also the demo's way in).
pub fn ingest(
    data: &Path,
    paths: &[PathBuf],
    json: bool,
    opts: &Options,
    wait: &WaitArgs,
) -> Result<ExitCode> {
    // Sources are read and prepared on rayon's threads: a generous stack as a second
    // defence behind the readers' own bounds (an error only if the pool exists already).
    let _ = rayon::ThreadPoolBuilder::new()
        .stack_size(cairn_pipeline::PREPARE_STACK)
        .build_global();
    let mut archive = open_writer(data, wait)?;
    // A gazetteer of the ingest's own: the pipeline lets it go before the end of the
    // run (index builds and merge), which then peaks lower.
    let extractor = Arc::new(Extractor::new(Arc::new(Gazetteer::load_for_archive(data)?)));
    with_progress("ingested", json, |on_event| {
        cairn_pipeline::ingest(&mut archive, paths, extractor, opts, on_event)
    })
}
