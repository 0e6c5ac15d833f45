//! Runs ingest → segment → extract → dedup keys → store, in parallel batches with
//! bounded memory, and reports progress as events (it never prints).
#![warn(missing_docs)]

use std::path::PathBuf;
use std::sync::Arc;

use cairn_extract::Extractor;
use cairn_ingest::Input;
use cairn_model::{Document, Embedded, Precision, Record, Span};
use cairn_store::{Archive, BatchSummary, NewOccurrence, NewSource};
use rayon::prelude::*;

/// What can stop a whole run (a bad input only stops itself).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The archive failed.
    #[error(transparent)]
    Store(#[from] cairn_store::Error),
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
    /// How to read JSON Lines.
    pub read: cairn_ingest::ReadOptions,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            batch_sources: 512,
            batch_bytes: 32 * 1024 * 1024,
            near_threshold: Some(cairn_dedup::DEFAULT_THRESHOLD),
            read: cairn_ingest::ReadOptions::default(),
        }
    }
}

/// Assigns new caption texts to existing captions with the near-duplicate index.
#[derive(Debug)]
pub struct NearClusterer {
    index: cairn_dedup::NearIndex,
    last: Option<(String, cairn_dedup::Features)>,
    ambiguous: bool,
}

impl NearClusterer {
    /// A clusterer over every caption already in `archive`.
    pub fn load(archive: &Archive, threshold: f32) -> Result<Self> {
        let mut index = cairn_dedup::NearIndex::new(threshold);
        archive.for_each_canonical(|id, text| index.insert(id, cairn_dedup::features(text)))?;
        Ok(NearClusterer {
            index,
            last: None,
            ambiguous: false,
        })
    }

    fn features_of(&mut self, text: &str) -> cairn_dedup::Features {
        match self.last.take() {
            Some((t, f)) if t == text => f,
            _ => cairn_dedup::features(text),
        }
    }
}

impl cairn_store::Clusterer for NearClusterer {
    fn assign(&mut self, text: &str) -> Option<i64> {
        let f = cairn_dedup::features(text);
        let found = self.index.lookup(&f);
        self.ambiguous = found == cairn_dedup::Lookup::Ambiguous;
        self.last = Some((text.to_string(), f));
        match found {
            cairn_dedup::Lookup::Match(c) => Some(c),
            _ => None,
        }
    }

    fn created(&mut self, caption: i64, text: &str) {
        let f = self.features_of(text);
        // A cut-short copy that fitted several captions stands alone and is never matched.
        if !std::mem::take(&mut self.ambiguous) {
            self.index.insert(caption, f);
        }
    }

    fn prefer(&mut self, caption: i64, candidate: &str, current: &str) -> bool {
        let f = self.features_of(candidate);
        let better = match self.index.representative(caption) {
            Some(rep) => cairn_dedup::completeness(&f) > cairn_dedup::completeness(rep),
            None => {
                cairn_dedup::completeness(&f)
                    > cairn_dedup::completeness(&cairn_dedup::features(current))
            }
        };
        if better {
            self.index.insert(caption, f);
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

/// Applies the fields a source carries itself (IPTC/XMP, JSON Lines) to a record
/// extracted from its text: they take precedence; where the text says otherwise, both
/// are kept (the record's warnings name what the text said).
fn apply_embedded(record: &mut Record, e: &Embedded, extractor: &Extractor) {
    let no_span = Span::new(0, 0);
    if !e.byline.is_empty() || e.credit.is_some() || e.source.is_some() {
        let credit = record.credit.get_or_insert_with(|| cairn_model::Credit {
            raw: String::new(),
            photographers: Vec::new(),
            agency: None,
            distributor: None,
            span: no_span,
        });
        if !e.byline.is_empty() && credit.photographers != e.byline {
            if !credit.photographers.is_empty() {
                record.warnings.push(format!(
                    "embedded By-line {:?} differs from the text's credit {:?}; the embedded one is used",
                    e.byline, credit.photographers
                ));
            }
            credit.photographers = e.byline.clone();
        }
        if let Some(agency) = e.credit.as_ref().or(e.source.as_ref()) {
            if credit.agency.as_deref() != Some(agency.as_str()) {
                if let Some(old) = &credit.agency {
                    record.warnings.push(format!(
                        "embedded Credit {agency:?} differs from the text's agency {old:?}; the embedded one is used"
                    ));
                }
                credit.agency = Some(agency.clone());
            }
        }
        if let (Some(src), Some(cr)) = (&e.source, &e.credit) {
            if src != cr && credit.distributor.is_none() {
                credit.distributor = Some(src.clone());
            }
        }
    }
    if let Some(d) = &e.date {
        let precision = match d.len() {
            4 => Some(Precision::Year),
            7 => Some(Precision::Month),
            10 => Some(Precision::Day),
            _ => None,
        };
        if let Some(precision) = precision {
            if record.date.as_ref().map(|x| &x.value) != Some(d) {
                if let Some(old) = &record.date {
                    record.warnings.push(format!(
                        "embedded date {d} differs from the text's date {}; the embedded one is used",
                        old.value
                    ));
                }
                record.date = Some(cairn_model::DateValue {
                    value: d.clone(),
                    precision,
                    text: String::new(),
                    span: no_span,
                });
            }
        }
    }
    if let Some(city) = e.city.as_ref().or(e.state.as_ref()) {
        let country = e
            .country
            .as_deref()
            .or(e.country_code.as_deref())
            .unwrap_or("");
        let probe = if country.is_empty() {
            format!("In {city}.")
        } else {
            format!("In {city}, {country}.")
        };
        if let Some(mut place) = extractor.extract(&probe).location {
            if record
                .location
                .as_ref()
                .and_then(|l| l.gazetteer_id.as_ref())
                != place.gazetteer_id.as_ref()
            {
                if let Some(old) = &record.location {
                    record.warnings.push(format!(
                        "embedded place {city:?} differs from the text's location {:?}; the embedded one is used",
                        old.name
                    ));
                }
                place.text = String::new();
                place.span = no_span;
                record.location = Some(place);
            }
        }
    }
}

/// The longest text taken as one caption.
pub const MAX_CAPTION_BYTES: usize = 16 * 1024;

/// The captions of a document: the segments its reader found (HTML, images) or the
/// paragraphs of its text; then, apart, the paragraphs too long to be captions (over
/// [`MAX_CAPTION_BYTES`]: a dump, a log, a book), which are not extracted, so that
/// extraction time and memory stay bounded.
pub fn caption_segments(
    segments: Option<Vec<cairn_model::Segment>>,
    text: &str,
) -> (Vec<cairn_model::Segment>, Vec<cairn_model::Segment>) {
    segments
        .unwrap_or_else(|| cairn_extract::segment(text))
        .into_iter()
        .partition(|s| s.text.len() <= MAX_CAPTION_BYTES)
}

/// Turns one document into what the archive stores: segments, records, exact keys.
pub fn prepare(doc: Document, extractor: &Extractor) -> NewSource {
    let (segments, too_long) = caption_segments(doc.segments, &doc.text);
    let embedded = doc.embedded;
    let mut warnings = doc.warnings;
    for seg in &too_long {
        warnings.push(format!(
            "a paragraph of {} bytes at {}..{} is too long to be a caption (limit {MAX_CAPTION_BYTES}); skipped",
            seg.text.len(),
            seg.span.start,
            seg.span.end
        ));
    }
    let occurrences = segments
        .into_iter()
        .map(|seg| {
            let key = cairn_dedup::exact_key(&seg.text).to_bytes();
            let mut record = extractor.extract(&seg.text);
            if let Some(e) = &embedded {
                apply_embedded(&mut record, e, extractor);
            }
            NewOccurrence {
                span: seg.span,
                text: seg.text,
                key,
                record: Some(record),
            }
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
        Some(t) => Box::new(NearClusterer::load(archive, t)?),
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
