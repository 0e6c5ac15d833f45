//! The preparing stage: a batch of raw sources rendered and keyed in parallel, the
//! captions met for the first time marked in input order, then only those extracted,
//! and the result sent to the writer in runs a part's captions long or in parts.

use std::sync::Arc;

use cairn_extract::Extractor;
use cairn_ingest::RawSource;
use cairn_store::{Archive, NewSource};
use crossbeam_channel::Sender;
use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};

use crate::guard::{self, Failed};
use crate::keyed::{Fresh, Keyed, Part};

/// The caption texts an ingest has met: those of the archive when it started and every
/// new one since, as 64-bit fingerprints of their exact keys, small enough to hold
/// every text of a large archive. Only a text's first occurrence is extracted. A
/// fingerprint shared by two texts (rare at 64 bits even over millions of texts) only
/// makes the store ask for the second text's record, which the writer then extracts
/// itself ([`WithRecords`](crate::cluster::WithRecords)).
pub(crate) struct Known(FxHashSet<u64>);

impl Known {
    fn fingerprint(key: &[u8; 16]) -> u64 {
        u64::from_le_bytes(key[..8].try_into().unwrap_or_default())
    }

    pub fn load(archive: &Archive) -> crate::Result<Self> {
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

/// A source read for a batch: ready to store, or already in the archive.
pub(crate) enum Ready {
    Source(Box<NewSource>),
    Stored,
}

/// A source of a batch, keyed; `None` if stored already.
type Item = Result<Option<Keyed>, Failed>;

/// What the writer is given: a batch of sources (or why each could not be read) with
/// the near-duplicate features of their new texts, in input order; or a part of a
/// source too long for one batch.
pub(crate) enum Prepared {
    Batch {
        items: Vec<Result<Ready, Failed>>,
        fresh: Vec<Fresh>,
    },
    Part(Part),
}

/// What preparing needs, owned by the reading thread.
pub(crate) struct Preparer {
    pub extractor: Arc<Extractor>,
    pub packer: cairn_store::RecordPacker,
    pub prober: Option<cairn_dedup::Prober>,
    /// The archive as it was when the run started, to skip sources stored already.
    pub seen: Option<Arc<Archive>>,
    /// Sources earlier runs rejected (few), by uri and sha256, with why.
    pub rejected_before: FxHashMap<(String, String), String>,
    pub known: Known,
    pub part_captions: usize,
    /// The time one source may take to render.
    pub source_time: std::time::Duration,
    pub tx: Sender<Prepared>,
}

impl Preparer {
    /// An input an earlier run rejected as a whole (a file over a size bound, see
    /// [`guard::failed_reading`]), found by its URI and the sha256 of the file's bytes
    /// before it is read, let alone decompressed, again.
    pub fn rejected_file(&self, input: &cairn_ingest::Input) -> Option<Failed> {
        let cairn_ingest::Input::File(p) = input else {
            return None;
        };
        if self.rejected_before.is_empty() {
            return None;
        }
        let uri = cairn_ingest::file_uri(p);
        // Rejections are few: hashing the file waits until one names its URI.
        if !self.rejected_before.keys().any(|(u, _)| *u == uri) {
            return None;
        }
        let sha256 = cairn_ingest::file_sha256(p).ok()?;
        let why = self.rejected_before.get(&(uri, sha256))?;
        Some(Failed::before_named(&cairn_ingest::quoted_path(p), why))
    }

    /// Prepares a batch and sends it on; false when the writer has gone.
    pub fn batch(&mut self, batch: Vec<Result<RawSource, Failed>>) -> bool {
        let keyed = self.key(batch);
        // In input order: which captions are texts met for the first time.
        let fresh: Vec<Vec<bool>> = keyed
            .iter()
            .map(|k| match k {
                Ok(Some(k)) => k.keys.iter().map(|key| self.known.first(key)).collect(),
                _ => Vec::new(),
            })
            .collect();
        self.send(keyed, fresh)
    }

    /// Renders and keys each source in parallel; one stored already is `None`.
    fn key(&self, batch: Vec<Result<RawSource, Failed>>) -> Vec<Item> {
        batch
            .into_par_iter()
            .map(|raw| {
                let raw = raw?;
                let stored = self
                    .seen
                    .as_ref()
                    .and_then(|a| a.has_source(&raw.uri, &raw.sha256).ok())
                    .unwrap_or(false);
                if stored {
                    return Ok(None);
                }
                if let Some(why) = (!self.rejected_before.is_empty())
                    .then(|| {
                        self.rejected_before
                            .get(&(raw.uri.clone(), raw.sha256.clone()))
                    })
                    .flatten()
                {
                    return Err(Failed::before(&raw, why));
                }
                // Whatever happens to this source (an error, a panic) is its own.
                guard::source(raw, |raw| {
                    cairn_ingest::render_within(raw, self.source_time)
                        .map(|doc| Some(Keyed::new(doc)))
                })
            })
            .collect()
    }

    /// Finishes and sends the sources in order: runs of them of at most a part's
    /// captions as one batch each (a batch of long sources would otherwise hold all
    /// their records), each with more captions than a part alone, in parts.
    fn send(&self, keyed: Vec<Item>, fresh: Vec<Vec<bool>>) -> bool {
        let part_captions = self.part_captions;
        let mut run = Vec::new();
        let mut run_captions = 0;
        for (k, fresh) in keyed.into_iter().zip(fresh) {
            let captions = match &k {
                Ok(Some(k)) => k.keys.len(),
                _ => 0,
            };
            // A run closes before it would pass a part's captions.
            if run_captions + captions > part_captions {
                if !self.send_run(&mut run) {
                    return false;
                }
                run_captions = 0;
            }
            match k {
                Ok(Some(k)) if captions > part_captions => {
                    let sent = k.finish_in_parts(
                        part_captions,
                        &self.extractor,
                        Some(&self.packer),
                        &fresh,
                        self.prober.as_ref(),
                        &mut |part| self.tx.send(Prepared::Part(part)).is_ok(),
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
        self.send_run(&mut run)
    }

    /// Extracts a run of sources in parallel and sends it as one batch.
    fn send_run(&self, run: &mut Vec<(Item, Vec<bool>)>) -> bool {
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
                        k.finish(
                            &self.extractor,
                            Some(&self.packer),
                            &fresh,
                            self.prober.as_ref(),
                        )
                    }) {
                        Ok((source, features)) => (Ok(Ready::Source(Box::new(source))), features),
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
        self.tx.send(Prepared::Batch { items, fresh }).is_ok()
    }
}
