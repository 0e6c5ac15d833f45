//! Runs ingest → segment → extract → dedup keys → store, in parallel batches with
//! bounded memory, and reports progress as events (it never prints).
#![warn(missing_docs)]

use std::path::PathBuf;
use std::sync::Arc;

use cairn_extract::Extractor;
use cairn_ingest::Input;
use cairn_model::Document;
use cairn_store::{Archive, BatchSummary, NewOccurrence, NewSource};
use rayon::prelude::*;

mod import;
pub use import::import;

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

/// How to run.
#[derive(Debug, Clone)]
pub struct Options {
    /// Sources per transaction.
    pub batch_sources: usize,
    /// Source bytes per transaction (a batch closes at whichever limit comes first).
    pub batch_bytes: usize,
    /// Near-duplicate threshold; `None` merges exact duplicates only.
    pub near_threshold: Option<f32>,
    /// How many distinct texts an LSH key finds ([`cairn_dedup::MAX_BUCKET`]; tests
    /// lower it so that the limit matters on a small corpus).
    pub max_bucket: u8,
    /// How to read JSON Lines.
    pub read: cairn_ingest::ReadOptions,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            batch_sources: 512,
            batch_bytes: 32 * 1024 * 1024,
            near_threshold: Some(cairn_dedup::DEFAULT_THRESHOLD),
            max_bucket: cairn_dedup::MAX_BUCKET as u8,
            read: cairn_ingest::ReadOptions::default(),
        }
    }
}

/// Assigns new caption texts to existing captions with the near-duplicate index.
#[derive(Debug)]
pub struct NearClusterer {
    index: cairn_dedup::NearIndex,
    last: Option<(String, cairn_dedup::Features, cairn_dedup::Eligible)>,
    ambiguous: bool,
}

impl NearClusterer {
    /// A clusterer over every caption already in `archive`.
    pub fn load(archive: &Archive, threshold: f32, max_bucket: u8) -> Result<Self> {
        let mut index = cairn_dedup::NearIndex::with_max_bucket(threshold, max_bucket);
        archive.for_each_canonical(|id, text| {
            let f = cairn_dedup::features(text);
            let e = index.observe(&f);
            index.insert(id, f, e)
        })?;
        Ok(NearClusterer {
            index,
            last: None,
            ambiguous: false,
        })
    }

    /// The features of the text `assign` was last called with, and its eligible keys.
    fn features_of(&mut self, text: &str) -> (cairn_dedup::Features, cairn_dedup::Eligible) {
        match self.last.take() {
            Some((t, f, e)) if t == text => (f, e),
            // Not reached: the store calls `created` or `prefer` right after `assign`.
            _ => {
                let f = cairn_dedup::features(text);
                let e = self.index.observe(&f);
                (f, e)
            }
        }
    }
}

impl cairn_store::Clusterer for NearClusterer {
    fn assign(&mut self, text: &str) -> Option<i64> {
        let f = cairn_dedup::features(text);
        // Every new distinct text counts under its keys, whatever becomes of it.
        let eligible = self.index.observe(&f);
        let found = self.index.lookup(&f);
        self.ambiguous = found == cairn_dedup::Lookup::Ambiguous;
        self.last = Some((text.to_string(), f, eligible));
        match found {
            cairn_dedup::Lookup::Match(c) => Some(c),
            _ => None,
        }
    }

    fn created(&mut self, caption: i64, text: &str) {
        let (f, e) = self.features_of(text);
        // A cut-short copy that fitted several captions stands alone and is never matched.
        if !std::mem::take(&mut self.ambiguous) {
            self.index.insert(caption, f, e);
        }
    }

    fn prefer(&mut self, caption: i64, candidate: &str, current: &str) -> bool {
        let (f, e) = self.features_of(candidate);
        let better = match self.index.representative(caption) {
            Some(rep) => cairn_dedup::completeness(&f) > cairn_dedup::completeness(rep),
            None => {
                cairn_dedup::completeness(&f)
                    > cairn_dedup::completeness(&cairn_dedup::features(current))
            }
        };
        if better {
            self.index.insert(caption, f, e);
        }
        better
    }
}

/// Progress, as the run goes.
#[derive(Debug, Clone)]
pub enum Event {
    /// The inputs are known.
    Planned {
        /// Files to read (stdin counts as one).
        inputs: u64,
        /// Their total size in bytes, where known.
        bytes: u64,
    },
    /// A source was read and processed.
    Read {
        /// Its size.
        bytes: u64,
        /// Captions found in it.
        captions: u64,
    },
    /// A source was read with a problem that did not stop it.
    Warning {
        /// Which source.
        source: String,
        /// What happened.
        message: String,
    },
    /// An input could not be ingested.
    Rejected {
        /// What went wrong, naming the input.
        message: String,
    },
    /// A batch is committed to the archive.
    Committed(BatchSummary),
}

/// What a run did.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct Report {
    /// Inputs named (files after expanding directories, stdin).
    pub inputs: u64,
    /// Inputs that could not be ingested.
    pub rejected: u64,
    /// Warnings about inputs that were ingested.
    pub warnings: u64,
    /// Sources stored.
    pub sources_added: u64,
    /// Sources already in the archive.
    pub sources_skipped: u64,
    /// Caption occurrences stored.
    pub occurrences_added: u64,
    /// New distinct caption texts.
    pub variants_added: u64,
    /// New captions.
    pub captions_added: u64,
    /// New texts that joined an existing caption as near-duplicates.
    pub variants_joined: u64,
}

impl Report {
    fn add(&mut self, s: &BatchSummary) {
        self.sources_added += s.sources_added;
        self.sources_skipped += s.sources_skipped;
        self.occurrences_added += s.occurrences_added;
        self.variants_added += s.variants_added;
        self.captions_added += s.captions_added;
        self.variants_joined += s.variants_joined;
    }
}

/// Turns one document into what the archive stores: segments, records, exact keys.
pub fn prepare(doc: Document, extractor: &Extractor) -> NewSource {
    let captions = extractor.document(doc.segments, &doc.text, doc.embedded.as_ref());
    let mut warnings = doc.warnings;
    warnings.extend(captions.warnings);
    let occurrences = captions
        .captions
        .into_iter()
        .map(|(seg, record)| NewOccurrence {
            key: cairn_dedup::exact_key(&seg.text).to_bytes(),
            span: seg.span,
            text: seg.text,
            record: Some(record),
        })
        .collect();
    NewSource {
        uri: doc.uri,
        kind: doc.kind,
        sha256: doc.sha256,
        encoding: doc.encoding,
        text_len: doc.text.len(),
        bytes: doc.bytes,
        warnings,
        origin: doc.origin,
        occurrences,
    }
}

fn input_size(input: &Input) -> u64 {
    match input {
        Input::File(p) => std::fs::metadata(p).map(|m| m.len()).unwrap_or(0),
        Input::Stdin => 0,
    }
}

/// Ingests `paths` (files, directories, `-` for stdin) into `archive`.
///
/// Batches are read and extracted in parallel while the previous batch is written;
/// at most two batches are in memory at once. Each batch is one transaction, so an
/// interrupted run leaves every earlier batch stored, and a re-run skips them.
pub fn ingest(
    archive: &mut Archive,
    paths: &[PathBuf],
    extractor: Arc<Extractor>,
    opts: &Options,
    on_event: &mut dyn FnMut(Event),
) -> Result<Report> {
    let mut clusterer: Box<dyn cairn_store::Clusterer> = match opts.near_threshold {
        Some(t) => Box::new(NearClusterer::load(archive, t, opts.max_bucket)?),
        None => Box::new(cairn_store::ExactOnly),
    };
    let (inputs, errors) = cairn_ingest::expand_paths(paths);
    let mut report = Report {
        inputs: (inputs.len() + errors.len()) as u64,
        ..Default::default()
    };
    for e in errors {
        report.rejected += 1;
        on_event(Event::Rejected {
            message: e.to_string(),
        });
    }
    let sizes: Vec<u64> = inputs.iter().map(input_size).collect();
    on_event(Event::Planned {
        inputs: inputs.len() as u64,
        bytes: sizes.iter().sum(),
    });

    // Sources already stored are skipped before the costly part (resuming an
    // interrupted run re-reads its inputs but extracts only what is missing).
    let seen = Archive::open_reader(archive.dir()).ok();
    /// A source read for a batch: ready to store, or already in the archive.
    enum Ready {
        Source(Box<NewSource>),
        Stored,
    }
    type Prepared = Vec<std::result::Result<Ready, cairn_ingest::Error>>;
    let (tx, rx) = crossbeam_channel::bounded::<Prepared>(1);
    let batch_sources = opts.batch_sources.max(1);
    let batch_bytes = opts.batch_bytes.max(1);
    let read_opts = opts.read.clone();
    std::thread::scope(|scope| -> Result<()> {
        let producer = scope.spawn(move || {
            // Sources are read in order (files, then the records inside containers),
            // gathered into batches by count and bytes, and rendered and extracted in
            // parallel, one batch at a time.
            let mut pending: Vec<
                std::result::Result<cairn_ingest::RawSource, cairn_ingest::Error>,
            > = Vec::new();
            let mut pending_bytes = 0usize;
            let flush = |pending: &mut Vec<
                std::result::Result<cairn_ingest::RawSource, cairn_ingest::Error>,
            >|
             -> bool {
                let batch = std::mem::take(pending);
                let prepared: Prepared = batch
                    .into_par_iter()
                    .map(|raw| {
                        let raw = raw?;
                        let skip = seen
                            .as_ref()
                            .and_then(|a| a.has_source(&raw.uri, &raw.sha256).ok())
                            .unwrap_or(false);
                        if skip {
                            return Ok(Ready::Stored);
                        }
                        cairn_ingest::render(raw)
                            .map(|doc| Ready::Source(Box::new(prepare(doc, &extractor))))
                    })
                    .collect();
                tx.send(prepared).is_ok()
            };
            for input in &inputs {
                let mut go_on = true;
                cairn_ingest::read_input(input, &read_opts, &mut |raw| {
                    if let Ok(r) = &raw {
                        pending_bytes += r.bytes.len();
                    }
                    pending.push(raw);
                    if pending.len() >= batch_sources || pending_bytes >= batch_bytes {
                        pending_bytes = 0;
                        go_on = flush(&mut pending);
                    }
                    go_on
                });
                if !go_on {
                    return;
                }
            }
            if !pending.is_empty() {
                flush(&mut pending);
            }
        });
        let mut result = Ok(());
        for prepared in rx.iter() {
            let mut sources = Vec::with_capacity(prepared.len());
            for p in prepared {
                match p {
                    Ok(Ready::Stored) => report.sources_skipped += 1,
                    Ok(Ready::Source(s)) => {
                        for w in &s.warnings {
                            report.warnings += 1;
                            on_event(Event::Warning {
                                source: s.uri.clone(),
                                message: w.clone(),
                            });
                        }
                        on_event(Event::Read {
                            bytes: s.bytes.len() as u64,
                            captions: s.occurrences.len() as u64,
                        });
                        if s.occurrences.is_empty() {
                            report.warnings += 1;
                            on_event(Event::Warning {
                                source: s.uri.clone(),
                                message: "no captions found (no non-blank text)".into(),
                            });
                        }
                        sources.push(*s);
                    }
                    Err(e) => {
                        report.rejected += 1;
                        on_event(Event::Rejected {
                            message: e.to_string(),
                        });
                    }
                }
            }
            if sources.is_empty() {
                continue;
            }
            match archive.write_batch_with(&sources, clusterer.as_mut()) {
                Ok(summary) => {
                    report.add(&summary);
                    on_event(Event::Committed(summary));
                }
                Err(e) => {
                    result = Err(e.into());
                    break;
                }
            }
        }
        drop(rx);
        let _ = producer.join();
        result
    })?;
    if report.sources_added > 0 {
        // After a large ingest: more than four segments, or many replaced entries.
        archive.compact_index(4)?;
    }
    Ok(report)
}
