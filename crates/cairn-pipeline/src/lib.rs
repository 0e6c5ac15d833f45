//! Runs ingest → segment → extract → dedup keys → store, in parallel batches with
//! bounded memory, and reports progress as events (it never prints).
#![warn(missing_docs)]

use std::path::PathBuf;
use std::sync::Arc;

use cairn_extract::Extractor;
use cairn_ingest::Input;
use cairn_model::Document;
use cairn_store::{Archive, ArchiveWriter, BatchSummary, NewOccurrence, NewSource};
use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};

mod guard;
mod import;
pub use import::import;

use guard::Failed;

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
    /// The least input for a bulk write ([`ArchiveWriter::begin_bulk`]); it must also be at
    /// least half as much again as the archive holds.
    pub bulk_min_bytes: u64,
    /// A source with more captions than this (a long text file) is extracted and handed
    /// to the writer this many captions at a time, all stored in one transaction: the
    /// records of the whole source are never in memory together. A batch of sources is
    /// also cut before it would pass this many captions.
    pub part_captions: usize,
    /// Follow symbolic links inside directories (else each is passed over with a
    /// warning).
    pub follow_links: bool,
    /// Read again the sources an earlier run rejected (else each is skipped, with a
    /// warning saying why it was rejected).
    pub retry_rejected: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            batch_sources: BATCH_SOURCES,
            batch_bytes: 32 * 1024 * 1024,
            near_threshold: Some(cairn_dedup::DEFAULT_THRESHOLD),
            max_bucket: cairn_dedup::MAX_BUCKET as u8,
            read: cairn_ingest::ReadOptions::default(),
            bulk_min_bytes: BULK_MIN_BYTES,
            part_captions: PART_CAPTIONS,
            follow_links: false,
            retry_rejected: false,
        }
    }
}

/// Assigns new caption texts to existing captions with the near-duplicate index.
#[derive(Debug)]
pub struct NearClusterer {
    index: cairn_dedup::NearIndex,
    /// Features of the next batch's new texts, probed against the index before it.
    staged: FxHashMap<[u8; 16], (cairn_dedup::Features, cairn_dedup::Probe)>,
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
        index.publish();
        Ok(NearClusterer {
            index,
            staged: FxHashMap::default(),
            last: None,
            ambiguous: false,
        })
    }

    /// A prober of the representatives this clusterer has published: the reading stage
    /// verifies each new text against them ahead of its lookup ([`NearClusterer::stage`]).
    pub fn prober(&self) -> cairn_dedup::Prober {
        self.index.prober()
    }

    /// Readies the new texts of the next batch (exact key, features and their probe):
    /// the store's calls, in order, then only finish the lookups against what the
    /// probes did not see. The clusters are those of looking each text up in turn.
    pub fn stage(&mut self, texts: Vec<([u8; 16], cairn_dedup::Features, cairn_dedup::Probe)>) {
        // Refilled, not replaced, for the reason `NearIndex::publish` drains its lists.
        self.staged.clear();
        self.staged
            .extend(texts.into_iter().map(|(k, f, p)| (k, (f, p))));
    }

    /// Makes the representatives of the batch just written visible to probers.
    pub fn publish(&mut self) {
        self.index.publish();
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
    fn assign(&mut self, key: &[u8; 16], text: &str) -> Option<i64> {
        let (f, probe) = match self.staged.remove(key) {
            Some(staged) => staged,
            None => (cairn_dedup::features(text), cairn_dedup::Probe::default()),
        };
        // Every new distinct text counts under its keys, whatever becomes of it.
        let eligible = self.index.observe_probed(&f, &probe);
        let found = self.index.lookup_probed(&f, &probe);
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
        let better = match self.index.representative_completeness(caption) {
            Some(rep) => cairn_dedup::completeness(&f) > rep,
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

/// A clusterer with the extractor at hand, for a new text whose occurrence came without
/// its record (the reader took it for a text seen before: see [`Known`]).
struct WithRecords<'a> {
    clusterer: &'a mut dyn cairn_store::Clusterer,
    extractor: &'a Extractor,
}

impl cairn_store::Clusterer for WithRecords<'_> {
    fn assign(&mut self, key: &[u8; 16], text: &str) -> Option<i64> {
        self.clusterer.assign(key, text)
    }
    fn created(&mut self, caption: i64, text: &str) {
        self.clusterer.created(caption, text)
    }
    fn prefer(&mut self, caption: i64, candidate: &str, current: &str) -> bool {
        self.clusterer.prefer(caption, candidate, current)
    }
    fn record(&mut self, text: &str) -> Option<cairn_model::Record> {
        // Only captions of sources without embedded fields come without a record.
        Some(self.extractor.caption_record(text, None))
    }
}

/// The caption texts an ingest has met: those of the archive when it started and every
/// new one since, as 64-bit fingerprints of their exact keys (9 bytes each in the set).
/// Only a text's first occurrence is extracted. A fingerprint shared by two texts (about
/// one chance in 10^7 at a million texts) only makes the store ask for the second
/// text's record, which the writer then extracts itself ([`WithRecords`]).
struct Known(FxHashSet<u64>);

impl Known {
    fn fingerprint(key: &[u8; 16]) -> u64 {
        u64::from_le_bytes(key[..8].try_into().unwrap_or_default())
    }

    fn load(archive: &Archive) -> Result<Self> {
        let mut set = FxHashSet::default();
        archive.for_each_variant_key(|k| {
            set.insert(Self::fingerprint(k));
        })?;
        Ok(Known(set))
    }

    /// Whether `key` is new, counting it as met from now on.
    fn first(&mut self, key: &[u8; 16]) -> bool {
        self.0.insert(Self::fingerprint(key))
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
    /// A source, or a part of a long one, was read and processed.
    Read {
        /// Its size (a part's share of it).
        bytes: u64,
        /// Captions found in it (in the part).
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
    /// An input was passed over (a symbolic link not followed, a FIFO, a source an
    /// earlier run rejected).
    Skipped {
        /// What was passed over and why, naming it.
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
    /// Sources an earlier run rejected, skipped (see [`Options::retry_rejected`]).
    pub rejected_before: u64,
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
    let keyed = Keyed::new(doc);
    let every = vec![true; keyed.keys.len()];
    keyed.finish(extractor, None, &every, None).0
}

/// Captions of one source from which its extraction runs on several threads.
const PARALLEL_CAPTIONS: usize = 64;

/// Captions of a source extracted and stored at a time, by default
/// ([`Options::part_captions`]).
pub const PART_CAPTIONS: usize = 16_384;

/// Files up to this size are read in parallel runs; larger ones stream.
const SMALL_INPUT: u64 = 4 * 1024 * 1024;

/// Inputs read before their paths are let go (a few megabytes of paths and sizes).
const RELEASE_INPUTS: usize = 1 << 16;

/// The least input for a bulk write by default ([`Options::bulk_min_bytes`]).
pub const BULK_MIN_BYTES: u64 = 16 * 1024 * 1024;

/// Sources per transaction unless asked otherwise ([`Options::batch_sources`]).
pub const BATCH_SOURCES: usize = 1024;

/// A source read for a batch, rendered, its captions found and keyed; extracted once
/// the batch knows which of its captions are new.
struct Keyed {
    /// The document, without its text (the captions' texts are in `segments`).
    doc: Document,
    text_len: usize,
    segments: Vec<cairn_model::Segment>,
    keys: Vec<[u8; 16]>,
    /// Which captions to extract: the first occurrence of a text not met before (all of
    /// a source with embedded fields, whose records differ from the text's alone).
    extract: Vec<bool>,
    warnings: Vec<String>,
}

/// What extracting a source's captions needs besides them.
struct Extracting<'a> {
    extractor: &'a Extractor,
    packer: Option<&'a cairn_store::RecordPacker>,
    embedded: Option<&'a cairn_model::Embedded>,
    /// Per caption of the source: whether to extract it whatever `fresh` says.
    extract: &'a [bool],
    /// Per caption of the source: whether it is a text met for the first time.
    fresh: &'a [bool],
    near: Option<&'a cairn_dedup::Prober>,
}

impl Extracting<'_> {
    /// The occurrences of the source's captions from number `first` on (given with their
    /// keys): extracts what is marked, computes the near-duplicate features of the new
    /// texts (when asked) with their probes, in order, and packs records (when given a
    /// packer).
    fn occurrences(
        &self,
        first: usize,
        segments: Vec<cairn_model::Segment>,
        keys: Vec<[u8; 16]>,
    ) -> (Vec<NewOccurrence>, Vec<Fresh>) {
        let one = |i: usize, seg: cairn_model::Segment, key: [u8; 16]| {
            let new = self.fresh[i];
            let record = (self.extract[i] || new)
                .then(|| self.extractor.caption_record(&seg.text, self.embedded));
            let features = self.near.filter(|_| new).map(|prober| {
                let f = cairn_dedup::features(&seg.text);
                let probe = prober.probe(&f);
                (key, f, probe)
            });
            let packed = self.packer.zip(record.as_ref()).map(|(p, r)| p.pack(r));
            let occurrence = NewOccurrence {
                key,
                span: seg.span,
                text: seg.text,
                record,
                packed,
            };
            (occurrence, features)
        };
        // A source with many captions (a long text file, a big gallery) is worked on by
        // every thread, in order: the batch's sources alone would leave one thread on it.
        // One with fewer stays on its thread in one piece.
        let (occurrences, features): (Vec<NewOccurrence>, Vec<Option<Fresh>>) = segments
            .into_par_iter()
            .zip(keys)
            .enumerate()
            .with_min_len(PARALLEL_CAPTIONS)
            .map(|(i, (seg, key))| one(first + i, seg, key))
            .unzip();
        (occurrences, features.into_iter().flatten().collect())
    }
}

/// A part of a source with more captions than [`Options::part_captions`]: the first
/// carries the source with its first captions, the next ones more of its captions;
/// the writer stores them all in one transaction.
struct Part {
    source: Option<Box<NewSource>>,
    occurrences: Vec<NewOccurrence>,
    /// The new texts' near-duplicate features, in order.
    fresh: Vec<Fresh>,
    /// Captions in the whole source.
    captions: usize,
    last: bool,
}

impl Keyed {
    fn new(mut doc: Document) -> Self {
        let text = std::mem::take(&mut doc.text);
        let (segments, warnings) = cairn_extract::document_segments(doc.segments.take(), &text);
        let keys = segments
            .iter()
            .map(|s| cairn_dedup::exact_key(&s.text).to_bytes())
            .collect();
        let extract = vec![doc.embedded.is_some(); segments.len()];
        Keyed {
            doc,
            text_len: text.len(),
            segments,
            keys,
            extract,
            warnings,
        }
    }

    /// The source to store, with `occurrences`; its bytes packed when given a packer.
    fn source(
        doc: Document,
        text_len: usize,
        too_long: Vec<String>,
        packer: Option<&cairn_store::RecordPacker>,
        occurrences: Vec<NewOccurrence>,
    ) -> NewSource {
        let mut warnings = doc.warnings;
        warnings.extend(too_long);
        let packed = packer.and_then(|_| cairn_store::pack(&doc.bytes).ok());
        NewSource {
            uri: doc.uri,
            kind: doc.kind,
            sha256: doc.sha256,
            encoding: doc.encoding,
            text_len,
            bytes: doc.bytes,
            packed,
            warnings,
            origin: doc.origin,
            occurrences,
        }
    }

    /// Extracts what is marked, computes the near-duplicate features of the new texts
    /// (when asked) and packs records and bytes (when given a packer).
    fn finish(
        self,
        extractor: &Extractor,
        packer: Option<&cairn_store::RecordPacker>,
        fresh: &[bool],
        near: Option<&cairn_dedup::Prober>,
    ) -> (NewSource, Vec<Fresh>) {
        let mut whole = None;
        self.finish_in_parts(usize::MAX, extractor, packer, fresh, near, &mut |part| {
            whole = Some(part);
            true
        });
        let whole = whole.expect("a source is at least one part");
        let source = whole.source.expect("a source's first part carries it");
        (*source, whole.fresh)
    }

    /// [`Keyed::finish`] a part of `size` captions at a time, each part given to `send`
    /// (which says whether to go on) once made: only a part's records are in memory.
    fn finish_in_parts(
        self,
        size: usize,
        extractor: &Extractor,
        packer: Option<&cairn_store::RecordPacker>,
        fresh: &[bool],
        near: Option<&cairn_dedup::Prober>,
        send: &mut dyn FnMut(Part) -> bool,
    ) -> bool {
        let Keyed {
            mut doc,
            text_len,
            segments,
            keys,
            extract,
            warnings,
        } = self;
        let captions = keys.len();
        let size = size.max(1);
        let embedded = doc.embedded.take();
        let extracting = Extracting {
            extractor,
            packer,
            embedded: embedded.as_ref(),
            extract: &extract,
            fresh,
            near,
        };
        let mut segments = segments.into_iter();
        let mut keys = keys.into_iter();
        let mut head = Some((doc, warnings));
        let mut first = 0;
        while first < captions || head.is_some() {
            let part_segments: Vec<_> = segments.by_ref().take(size).collect();
            let part_keys: Vec<_> = keys.by_ref().take(size).collect();
            let n = part_keys.len();
            let (occurrences, fresh) = extracting.occurrences(first, part_segments, part_keys);
            first += n;
            let last = first >= captions;
            let part = match head.take() {
                Some((doc, warnings)) => {
                    let source = Self::source(doc, text_len, warnings, packer, occurrences);
                    Part {
                        source: Some(Box::new(source)),
                        occurrences: Vec::new(),
                        fresh,
                        captions,
                        last,
                    }
                }
                None => Part {
                    source: None,
                    occurrences,
                    fresh,
                    captions,
                    last,
                },
            };
            if !send(part) {
                return false;
            }
        }
        true
    }
}

/// Reports a source's warnings, and a warning if it has no captions.
fn announce(s: &NewSource, captions: usize, report: &mut Report, on_event: &mut dyn FnMut(Event)) {
    for w in &s.warnings {
        report.warnings += 1;
        on_event(Event::Warning {
            source: s.uri.clone(),
            message: w.clone(),
        });
    }
    if captions == 0 {
        report.warnings += 1;
        on_event(Event::Warning {
            source: s.uri.clone(),
            message: "no captions found (no non-blank text)".into(),
        });
    }
}

/// The clusterer of the next write: the near-duplicate one with `fresh` staged, or
/// exact deduplication only.
fn staged<'a>(
    near: &'a mut Option<NearClusterer>,
    exact_only: &'a mut cairn_store::ExactOnly,
    fresh: Vec<Fresh>,
) -> &'a mut dyn cairn_store::Clusterer {
    match near.as_mut() {
        Some(n) => {
            n.stage(fresh);
            n
        }
        None => exact_only,
    }
}

/// What the writer holds while it stores a source in parts.
struct Writing<'a> {
    near: &'a mut Option<NearClusterer>,
    exact_only: &'a mut cairn_store::ExactOnly,
    extractor: &'a Extractor,
    report: &'a mut Report,
    on_event: &'a mut dyn FnMut(Event),
}

impl Writing<'_> {
    /// Stores a source given in parts ([`Part`]), `first` and those that follow it on
    /// `rx`, in one transaction; near-duplicate representatives are published after
    /// each part, for the reader's probes of the next ones.
    fn parts(
        &mut self,
        archive: &mut ArchiveWriter,
        first: Part,
        rx: &crossbeam_channel::Receiver<Prepared>,
    ) -> Result<BatchSummary> {
        let Part {
            source,
            fresh,
            captions,
            mut last,
            ..
        } = first;
        let Some(source) = source else {
            unreachable!("a source's first part carries it");
        };
        announce(&source, captions, self.report, self.on_event);
        let bytes = source.bytes.len() as u64;
        // The bytes read are counted as the captions go.
        let share = |done: usize| bytes * done as u64 / captions.max(1) as u64;
        let mut done = source.occurrences.len();
        (self.on_event)(Event::Read {
            bytes: if last { bytes } else { share(done) },
            captions: done as u64,
        });
        let mut write = archive.begin_write()?;
        let stored = write.add_source(
            &source,
            &mut WithRecords {
                clusterer: staged(self.near, self.exact_only, fresh),
                extractor: self.extractor,
            },
        );
        if let Some(n) = self.near.as_mut() {
            n.publish();
        }
        let mut stored = stored?;
        drop(source);
        while !last {
            let part = match rx.recv() {
                Ok(Prepared::Part(part)) if part.source.is_none() => part,
                // The reader sends a source's parts one after the other.
                Ok(_) => unreachable!("a source's parts come one after the other"),
                // The reader stopped in the middle (it panicked: the panic is raised
                // when it is joined): the write is rolled back.
                Err(_) => return Ok(BatchSummary::default()),
            };
            last = part.last;
            let before = share(done);
            done += part.occurrences.len();
            let now = if last { bytes } else { share(done) };
            (self.on_event)(Event::Read {
                bytes: now - before,
                captions: part.occurrences.len() as u64,
            });
            // A source stored already (named twice) has its parts let go.
            let Some(stored) = stored.as_mut() else {
                continue;
            };
            let res = write.add_occurrences(
                stored,
                &part.occurrences,
                &mut WithRecords {
                    clusterer: staged(self.near, self.exact_only, part.fresh),
                    extractor: self.extractor,
                },
            );
            if let Some(n) = self.near.as_mut() {
                n.publish();
            }
            res?;
        }
        Ok(write.commit()?)
    }
}

/// A source read for a batch: ready to store, or already in the archive.
enum Ready {
    Source(Box<NewSource>),
    Stored,
}

/// A text met for the first time: its exact key, near-duplicate features, and its
/// probe against the representatives published when it was read.
type Fresh = ([u8; 16], cairn_dedup::Features, cairn_dedup::Probe);

/// A source of a batch, keyed; `None` if stored already.
type Item = std::result::Result<Option<Keyed>, Failed>;

/// What the writer is given: a batch of sources (or why each could not be read) with
/// the near-duplicate features of their new texts, in input order; or a part of a
/// source too long for one batch.
enum Prepared {
    Batch {
        items: Vec<std::result::Result<Ready, Failed>>,
        fresh: Vec<Fresh>,
    },
    Part(Part),
}

/// The stack a caller should give the threads that read and prepare sources (rayon's
/// pool: `cairn ingest` builds its global pool so): far more than any reader needs
/// (their depth and attribute bounds keep them shallow), so that a recursion no bound
/// foresaw meets its limit only well past them. Only the pages a thread touches count in
/// memory.
pub const PREPARE_STACK: usize = 64 << 20;

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
    let mut near = match opts.near_threshold {
        Some(t) => Some(NearClusterer::load(archive, t, opts.max_bucket)?),
        None => None,
    };
    let prober = near.as_ref().map(NearClusterer::prober);
    let mut known = Known::load(archive)?;
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
    // Sources earlier runs rejected (few), by uri and sha256, with why.
    let rejected_before: FxHashMap<(String, String), String> = if opts.retry_rejected {
        FxHashMap::default()
    } else {
        archive
            .rejected_sources()?
            .into_iter()
            .map(|r| ((r.uri, r.sha256), r.reason))
            .collect()
    };
    let retry = opts.retry_rejected;
    let planned: u64 = sizes.iter().sum();
    on_event(Event::Planned {
        inputs: inputs.len() as u64,
        bytes: planned,
    });
    // An ingest that brings at least half as much again as the archive holds is a
    // bulk write: the indexes only readers use are built at its end.
    let bulk = planned >= opts.bulk_min_bytes && planned >= archive.stored_source_bytes()? / 2;
    if bulk {
        archive.begin_bulk()?;
    }

    // Sources already stored are skipped before the costly part (resuming an
    // interrupted run re-reads its inputs but extracts only what is missing).
    let seen = Some(archive.reader());
    let (tx, rx) = crossbeam_channel::bounded::<Prepared>(1);
    let batch_sources = opts.batch_sources.max(1);
    let batch_bytes = opts.batch_bytes.max(1);
    let read_opts = opts.read.clone();
    let part_captions = opts.part_captions.max(1);
    // Index entries are committed every few seconds, and at the end.
    archive.set_index_interval(std::time::Duration::from_secs(5));
    let extractor_w = extractor.clone();
    let packer = archive.record_packer();
    std::thread::scope(|scope| -> Result<()> {
        let producer = scope.spawn(move || {
            // Sources are read in order (files, then the records inside containers),
            // gathered into batches by count and bytes, and prepared one batch at a time.
            let mut pending: Vec<std::result::Result<cairn_ingest::RawSource, Failed>> = Vec::new();
            let mut pending_bytes = 0usize;
            let mut flush = |pending: &mut Vec<
                std::result::Result<cairn_ingest::RawSource, Failed>,
            >|
             -> bool {
                let batch = std::mem::take(pending);
                let keyed: Vec<Item> = batch
                    .into_par_iter()
                    .map(|raw| {
                        let raw = raw?;
                        let stored = seen
                            .as_ref()
                            .and_then(|a| a.has_source(&raw.uri, &raw.sha256).ok())
                            .unwrap_or(false);
                        if stored {
                            return Ok(None);
                        }
                        if let Some(why) = (!rejected_before.is_empty())
                            .then(|| rejected_before.get(&(raw.uri.clone(), raw.sha256.clone())))
                            .flatten()
                        {
                            return Err(Failed::before(&raw, why));
                        }
                        // Whatever happens to this source (an error, a panic) is its own.
                        guard::source(raw, |raw| {
                            cairn_ingest::render(raw).map(|doc| Some(Keyed::new(doc)))
                        })
                    })
                    .collect();
                // In input order: which captions are texts met for the first time.
                let fresh: Vec<Vec<bool>> = keyed
                    .iter()
                    .map(|k| match k {
                        Ok(Some(k)) => k.keys.iter().map(|key| known.first(key)).collect(),
                        _ => Vec::new(),
                    })
                    .collect();
                // The sources are finished and sent in order: runs of them of at most a
                // part's captions as one batch each (a batch of long sources would
                // otherwise hold all their records), each with more captions than a part
                // alone, in parts.
                let send_run = |run: &mut Vec<(Item, Vec<bool>)>| -> bool {
                    if run.is_empty() {
                        return true;
                    }
                    let done: Vec<_> = std::mem::take(run)
                        .into_par_iter()
                        .map(|(k, fresh)| match k {
                            Ok(Some(k)) => {
                                let id = (k.doc.uri.clone(), k.doc.sha256.clone());
                                let name = k.doc.uri.clone();
                                match guard::infallible(&name, id, || {
                                    k.finish(&extractor, Some(&packer), &fresh, prober.as_ref())
                                }) {
                                    Ok((source, features)) => {
                                        (Ok(Ready::Source(Box::new(source))), features)
                                    }
                                    Err(f) => (Err(f), Vec::new()),
                                }
                            }
                            Ok(None) => (Ok(Ready::Stored), Vec::new()),
                            Err(e) => (Err(e), Vec::new()),
                        })
                        .collect();
                    let mut items = Vec::with_capacity(done.len());
                    let mut fresh = Vec::with_capacity(done.iter().map(|(_, f)| f.len()).sum());
                    for (item, features) in done {
                        items.push(item);
                        fresh.extend(features);
                    }
                    tx.send(Prepared::Batch { items, fresh }).is_ok()
                };
                let mut run = Vec::new();
                let mut run_captions = 0;
                for (k, fresh) in keyed.into_iter().zip(fresh) {
                    let captions = match &k {
                        Ok(Some(k)) => k.keys.len(),
                        _ => 0,
                    };
                    // A run closes before it would pass a part's captions.
                    if run_captions + captions > part_captions {
                        if !send_run(&mut run) {
                            return false;
                        }
                        run_captions = 0;
                    }
                    match k {
                        Ok(Some(k)) if captions > part_captions => {
                            let sent = k.finish_in_parts(
                                part_captions,
                                &extractor,
                                Some(&packer),
                                &fresh,
                                prober.as_ref(),
                                &mut |part| tx.send(Prepared::Part(part)).is_ok(),
                            );
                            if !sent {
                                return false;
                            }
                        }
                        k => {
                            run_captions += captions;
                            run.push((k, fresh));
                        }
                    }
                }
                send_run(&mut run)
            };
            let mut push =
                |raw: std::result::Result<cairn_ingest::RawSource, cairn_ingest::Error>,
                 pending: &mut Vec<_>|
                 -> bool {
                    let raw = raw.map_err(Failed::from);
                    if let Ok(r) = &raw {
                        pending_bytes += r.bytes.len();
                    }
                    pending.push(raw);
                    if pending.len() >= batch_sources || pending_bytes >= batch_bytes {
                        pending_bytes = 0;
                        return flush(pending);
                    }
                    true
                };
            // The inputs' paths are let go as they are read: at a million files they
            // are some 90 MB, held to the end of the run otherwise.
            let (mut inputs, mut sizes) = (inputs, sizes);
            let mut i = 0;
            while i < inputs.len() {
                if i >= RELEASE_INPUTS {
                    inputs.drain(..i);
                    sizes.drain(..i);
                    inputs.shrink_to_fit();
                    sizes.shrink_to_fit();
                    i = 0;
                }
                // A run of small files is read in parallel (each is one page or a few);
                // a large file (a WARC, a JSON Lines export) streams, source by source.
                let mut end = i;
                let mut run_bytes = 0;
                while end < inputs.len()
                    && end - i < batch_sources
                    && matches!(inputs[end], Input::File(_))
                    && sizes[end] <= SMALL_INPUT
                    && run_bytes + sizes[end] <= batch_bytes as u64
                {
                    run_bytes += sizes[end];
                    end += 1;
                }
                if end > i {
                    // A compressed file is left to be read alone, in order, below: what
                    // it decompresses to is not bounded by its size.
                    let read: Vec<(Vec<_>, bool)> = inputs[i..end]
                        .par_iter()
                        .map(|input| {
                            let mut out = Vec::new();
                            let done = guard::read_input(input, &read_opts, true, &mut |raw| {
                                out.push(raw);
                                true
                            });
                            (out, done)
                        })
                        .collect();
                    for (input, (raws, done)) in inputs[i..end].iter().zip(read) {
                        for raw in raws {
                            if !push(raw, &mut pending) {
                                return;
                            }
                        }
                        if !done {
                            let mut go_on = true;
                            guard::read_input(input, &read_opts, false, &mut |raw| {
                                go_on = push(raw, &mut pending);
                                go_on
                            });
                            if !go_on {
                                return;
                            }
                        }
                    }
                    i = end;
                    continue;
                }
                let mut go_on = true;
                guard::read_input(&inputs[i], &read_opts, false, &mut |raw| {
                    go_on = push(raw, &mut pending);
                    go_on
                });
                if !go_on {
                    return;
                }
                i += 1;
            }
            if !pending.is_empty() {
                flush(&mut pending);
            }
        });
        let mut result = Ok(());
        let mut exact_only = cairn_store::ExactOnly;
        for prepared in rx.iter() {
            let res = match prepared {
                Prepared::Batch { items, fresh } => {
                    let mut sources = Vec::with_capacity(items.len());
                    let mut rejections = Vec::new();
                    for p in items {
                        match p {
                            Ok(Ready::Stored) => report.sources_skipped += 1,
                            Ok(Ready::Source(s)) => {
                                announce(&s, s.occurrences.len(), &mut report, on_event);
                                on_event(Event::Read {
                                    bytes: s.bytes.len() as u64,
                                    captions: s.occurrences.len() as u64,
                                });
                                sources.push(*s);
                            }
                            Err(Failed {
                                notice: Some(notice),
                                ..
                            }) => {
                                let (path, message) = *notice;
                                report.warnings += 1;
                                on_event(Event::Warning {
                                    source: path,
                                    message,
                                });
                            }
                            Err(f) if f.before => {
                                report.rejected_before += 1;
                                on_event(Event::Skipped { message: f.message });
                            }
                            Err(f) => {
                                report.rejected += 1;
                                if let Some((uri, sha256)) = f.id {
                                    rejections.push(cairn_store::Rejection {
                                        uri,
                                        sha256,
                                        reason: f.message.clone(),
                                    });
                                }
                                on_event(Event::Rejected { message: f.message });
                            }
                        }
                    }
                    // Stored sources that an earlier run rejected are forgotten as such.
                    let retried: Vec<(String, String)> = if retry {
                        sources
                            .iter()
                            .map(|s| (s.uri.clone(), s.sha256.clone()))
                            .collect()
                    } else {
                        Vec::new()
                    };
                    if let Err(e) = archive.note_rejected(&rejections, &retried) {
                        result = Err(e.into());
                        break;
                    }
                    if sources.is_empty() {
                        continue;
                    }
                    let mut clusterer = WithRecords {
                        clusterer: staged(&mut near, &mut exact_only, fresh),
                        extractor: &extractor_w,
                    };
                    let res = archive.write_batch_with(&sources, &mut clusterer);
                    if let Some(n) = near.as_mut() {
                        n.publish();
                    }
                    res.map_err(Error::from)
                }
                Prepared::Part(first) => {
                    let mut writing = Writing {
                        near: &mut near,
                        exact_only: &mut exact_only,
                        extractor: &extractor_w,
                        report: &mut report,
                        on_event: &mut *on_event,
                    };
                    writing.parts(archive, first, &rx)
                }
            };
            match res {
                Ok(summary) => {
                    report.add(&summary);
                    on_event(Event::Committed(summary));
                }
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        drop(rx);
        if let Err(panic) = producer.join() {
            std::panic::resume_unwind(panic);
        }
        result
    })?;
    // The near-duplicate index is the largest thing held; what follows (the bulk
    // indexes, the search index's last flush and merge, side by side) is done without it,
    // and without the extractor: when the caller gave the only handle to its gazetteer
    // (as `cairn ingest` does), that goes too.
    drop(near);
    drop(extractor_w);
    // After an ingest that added sources, the index is merged when it has more than four
    // segments or many replaced entries.
    archive.finish_ingest(bulk, (report.sources_added > 0).then_some(4))?;
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A source made in parts gives, part after part, the occurrences and new texts'
    /// features it gives whole; the first part carries the source, the last says so.
    #[test]
    fn a_source_in_parts_is_the_source_whole() {
        let text = (0..23)
            .map(|i| {
                format!(
                    "Rescuers search the rubble in Douma, Syria, on day {}.",
                    i % 17
                )
            })
            .collect::<Vec<_>>()
            .join("\n\n");
        let doc = || {
            cairn_ingest::document_from_bytes(
                "file:///long.txt".into(),
                "long.txt",
                text.clone().into_bytes(),
            )
            .unwrap()
        };
        let extractor = Extractor::bundled();
        let index = cairn_dedup::NearIndex::new(cairn_dedup::DEFAULT_THRESHOLD);
        let prober = index.prober();
        let fresh: Vec<bool> = (0..23).map(|i| i < 17).collect();
        let (whole, whole_fresh) =
            Keyed::new(doc()).finish(&extractor, None, &fresh, Some(&prober));
        let mut parts = Vec::new();
        let sent = Keyed::new(doc()).finish_in_parts(
            5,
            &extractor,
            None,
            &fresh,
            Some(&prober),
            &mut |p| {
                parts.push(p);
                true
            },
        );
        assert!(sent);
        assert_eq!(parts.len(), 5);
        assert!(parts.iter().all(|p| p.captions == 23));
        let lasts: Vec<bool> = parts.iter().map(|p| p.last).collect();
        assert_eq!(lasts, [false, false, false, false, true]);
        let mut occurrences = Vec::new();
        let mut features = Vec::new();
        for (i, p) in parts.into_iter().enumerate() {
            assert_eq!(p.source.is_some(), i == 0);
            match p.source {
                Some(s) => {
                    assert_eq!(
                        (&s.uri, &s.sha256, s.text_len),
                        (&whole.uri, &whole.sha256, whole.text_len)
                    );
                    assert_eq!(s.bytes, whole.bytes);
                    occurrences.extend(s.occurrences);
                }
                None => occurrences.extend(p.occurrences),
            }
            features.extend(p.fresh);
        }
        let view = |o: &NewOccurrence| (o.key, o.span, o.text.clone(), o.record.clone());
        assert_eq!(
            occurrences.iter().map(view).collect::<Vec<_>>(),
            whole.occurrences.iter().map(view).collect::<Vec<_>>()
        );
        let keys = |f: &[Fresh]| f.iter().map(|(k, _, _)| *k).collect::<Vec<_>>();
        assert_eq!(keys(&features), keys(&whole_fresh));
        assert_eq!(features.len(), 17);
        // A `send` that says stop stops after that part.
        let mut n = 0;
        let sent =
            Keyed::new(doc()).finish_in_parts(5, &extractor, None, &fresh, None, &mut |_| {
                n += 1;
                n < 2
            });
        assert!(!sent);
        assert_eq!(n, 2);
    }

    /// A source with enough captions to be worked on in parallel gives each occurrence,
    /// in order, the record and key its caption has alone, and probes each new text once.
    #[test]
    fn a_source_of_many_captions_keeps_their_order() {
        let captions: Vec<String> = (0..3 * PARALLEL_CAPTIONS)
            .map(|i| {
                format!(
                    "Residents inspect a damaged building in Aleppo, Syria, on March {}, 2016, \
                     after strike number {i}. (Photo by Rami Qasim/AFP)",
                    1 + i % 28
                )
            })
            .collect();
        let text = captions.join("\n\n");
        let doc = cairn_ingest::document_from_bytes(
            "file:///many.txt".into(),
            "many.txt",
            text.into_bytes(),
        )
        .unwrap();
        let extractor = Extractor::bundled();
        let keyed = Keyed::new(doc);
        assert_eq!(keyed.keys.len(), captions.len());
        // Every other caption is new; the rest are taken for texts seen before.
        let fresh: Vec<bool> = (0..captions.len()).map(|i| i % 2 == 0).collect();
        let index = cairn_dedup::NearIndex::new(cairn_dedup::DEFAULT_THRESHOLD);
        let prober = index.prober();
        let (source, features) = keyed.finish(&extractor, None, &fresh, Some(&prober));
        assert_eq!(source.occurrences.len(), captions.len());
        let mut last_end = 0;
        for (i, (o, c)) in source.occurrences.iter().zip(&captions).enumerate() {
            assert_eq!(&o.text, c);
            assert_eq!(o.key, cairn_dedup::exact_key(c).to_bytes());
            assert!(o.span.start >= last_end);
            last_end = o.span.end;
            match &o.record {
                Some(r) => {
                    assert!(fresh[i]);
                    assert_eq!(r, &extractor.caption_record(c, None));
                }
                None => assert!(!fresh[i]),
            }
        }
        let keys: Vec<[u8; 16]> = features.iter().map(|(k, _, _)| *k).collect();
        let want: Vec<[u8; 16]> = captions
            .iter()
            .step_by(2)
            .map(|c| cairn_dedup::exact_key(c).to_bytes())
            .collect();
        assert_eq!(keys, want);
    }
}
