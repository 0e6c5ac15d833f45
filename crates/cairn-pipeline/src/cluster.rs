//! Clustering at write time: the near-duplicate index the store consults for each new
//! text, and the clusterer that extracts a record the reader did not.

use cairn_extract::Extractor;
use cairn_store::Archive;
use rustc_hash::FxHashMap;

use crate::Result;
use crate::keyed::Fresh;

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
/// its record (the reader took it for a text seen before, by the fingerprints it keeps).
pub(crate) struct WithRecords<'a> {
    pub clusterer: &'a mut dyn cairn_store::Clusterer,
    pub extractor: &'a Extractor,
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

/// The clusterer of the next write: the near-duplicate one with `fresh` staged, or
/// exact deduplication only.
pub(crate) fn staged<'a>(
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
