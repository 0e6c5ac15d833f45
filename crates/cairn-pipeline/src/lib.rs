//! Runs ingest → segment → extract → dedup keys → store, in parallel batches with
//! bounded memory, and reports progress as events (it never prints).
//!
//! The run has three stages on two threads: `read` gathers sources into batches and
//! `prepare` renders, keys and extracts them (on rayon's threads, driven from the
//! reading thread); `write` stores each batch meanwhile (on the caller's thread).
//! `keyed` is one source made ready, `cluster` the near-duplicate clustering the store
//! consults, `guard` the boundary around each source, `import` the Parquet importer,
//! `single` one document stored at a time (the server's posted pages).
#![warn(missing_docs)]

use std::path::PathBuf;
use std::sync::Arc;

use cairn_extract::Extractor;
use cairn_ingest::Input;
use cairn_model::Document;
use cairn_store::{Archive, ArchiveWriter, NewSource};
use rustc_hash::FxHashMap;

mod cluster;
mod config;
mod guard;
mod import;
mod keyed;
mod prepare;
mod read;
mod report;
mod single;
mod write;

pub use cluster::NearClusterer;
pub use config::{BATCH_SOURCES, BULK_MIN_BYTES, Options, PART_CAPTIONS, PREPARE_STACK};
pub use import::import;
pub use report::{Event, Report};
pub use single::DocumentWriter;

use keyed::Keyed;
use prepare::{Known, Prepared, Preparer};
use read::Batcher;
use write::Writer;

/// What can stop a whole run (a bad input only stops itself).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The archive failed.
    #[error(transparent)]
    Store(#[from] cairn_store::Error),
    /// A job output to import is missing, unreadable or inconsistent.
    #[error("{path}: {message}")]
    Import {
        /// The file or directory.
        path: String,
        /// What is wrong with it.
        message: String,
    },
}

/// Result alias for this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Turns one document into what the archive stores: segments, records, exact keys.
pub fn prepare(doc: Document, extractor: &Extractor) -> NewSource {
    let keyed = Keyed::new(doc);
    let every = vec![true; keyed.keys.len()];
    keyed.finish(extractor, None, &every, None).0
}

/// Ingests `paths` (files, directories, `-` for stdin) into `archive`.
///
/// Batches are read, rendered and keyed in parallel; then, in input order, the first
/// occurrence of each caption text not met before is marked, and only those are
/// extracted (in parallel), while the previous batch is written; at most three batches
/// are in memory at once. Each batch is one transaction, so an interrupted run leaves
/// every earlier batch stored, and a re-run skips them. A source with more captions than
/// [`Options::part_captions`] is a batch of its own, made and written a part at a time
/// in one transaction.
pub fn ingest(
    archive: &mut ArchiveWriter,
    paths: &[PathBuf],
    extractor: Arc<Extractor>,
    opts: &Options,
    on_event: &mut dyn FnMut(Event),
) -> Result<Report> {
    let near = match opts.near_threshold {
        Some(t) => Some(NearClusterer::load(archive, t, opts.max_bucket)?),
        None => None,
    };
    let prober = near.as_ref().map(NearClusterer::prober);
    let known = Known::load(archive)?;
    let (inputs, sizes, report) = plan(paths, opts, on_event);
    let rejected_before = rejected_before(archive, opts)?;
    let planned: u64 = sizes.iter().sum();
    on_event(Event::Planned {
        inputs: inputs.len() as u64,
        bytes: planned,
    });
    let bulk = begin_bulk(archive, opts, planned)?;
    // Sources already stored are skipped before the costly part (resuming an
    // interrupted run re-reads its inputs but extracts only what is missing).
    let seen = Some(archive.reader());
    let (tx, rx) = crossbeam_channel::bounded::<Prepared>(1);
    // Index entries are committed every few seconds, and at the end.
    archive.set_index_interval(std::time::Duration::from_secs(5));
    let preparer = Preparer {
        extractor: extractor.clone(),
        packer: archive.record_packer(),
        prober,
        seen,
        rejected_before,
        known,
        part_captions: opts.part_captions.max(1),
        source_time: opts.source_time,
        tx,
    };
    let mut batcher = Batcher::new(preparer, opts.batch_sources.max(1), opts.batch_bytes.max(1));
    let read_opts = opts.read.clone();
    let mut writer = Writer {
        archive,
        near,
        exact_only: cairn_store::ExactOnly,
        extractor,
        report,
        on_event,
        retry: opts.retry_rejected,
    };
    std::thread::scope(|scope| -> Result<()> {
        // Sources are read in order (files, then the records inside containers),
        // gathered into batches by count and bytes, and prepared one batch at a time.
        let producer = scope.spawn(move || read::read_all(inputs, sizes, &read_opts, &mut batcher));
        let result = writer.run(&rx);
        drop(rx);
        if let Err(panic) = producer.join() {
            std::panic::resume_unwind(panic);
        }
        result
    })?;
    let Writer {
        archive,
        near,
        extractor,
        report,
        ..
    } = writer;
    // The near-duplicate index is the largest thing held; what follows (the bulk
    // indexes, the search index's last flush and merge, side by side) is done without it,
    // and without the extractor: when the caller gave the only handle to its gazetteer
    // (as `cairn ingest` does), that goes too.
    drop(near);
    drop(extractor);
    // After an ingest that added sources, the index is merged when it has more than four
    // segments or many replaced entries.
    archive.finish_ingest(bulk, (report.sources_added > 0).then_some(4))?;
    Ok(report)
}

/// Begins a bulk write when the ingest is one, saying whether it is.
fn begin_bulk(archive: &mut ArchiveWriter, opts: &Options, planned: u64) -> Result<bool> {
    // An ingest that brings at least half as much again as the archive holds is a
    // bulk write: the indexes only readers use are built at its end.
    let bulk = planned >= opts.bulk_min_bytes && planned >= archive.stored_source_bytes()? / 2;
    if bulk {
        archive.begin_bulk()?;
    }
    Ok(bulk)
}

/// The inputs `paths` expand to, with their sizes, and the report begun with what
/// could not be expanded (each rejected or skipped as it is reported).
fn plan(
    paths: &[PathBuf],
    opts: &Options,
    on_event: &mut dyn FnMut(Event),
) -> (Vec<Input>, Vec<u64>, Report) {
    let expanded = cairn_ingest::expand_paths_with(paths, opts.follow_links);
    let (inputs, sizes): (Vec<Input>, Vec<u64>) = expanded.inputs.into_iter().unzip();
    let mut report = Report {
        inputs: (inputs.len() + expanded.errors.len()) as u64,
        ..Default::default()
    };
    for e in expanded.errors {
        report.rejected += 1;
        on_event(Event::Rejected {
            message: e.to_string(),
        });
    }
    for w in expanded.warnings {
        report.warnings += 1;
        on_event(Event::Skipped { message: w });
    }
    (inputs, sizes, report)
}

/// Sources earlier runs rejected (few), by uri and sha256, with why; none when they are
/// to be read again.
fn rejected_before(
    archive: &Archive,
    opts: &Options,
) -> Result<FxHashMap<(String, String), String>> {
    Ok(if opts.retry_rejected {
        FxHashMap::default()
    } else {
        archive
            .rejected_sources()?
            .into_iter()
            .map(|r| ((r.uri, r.sha256), r.reason))
            .collect()
    })
}
