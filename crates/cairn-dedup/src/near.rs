//! The near-duplicate index: MinHash signatures with LSH banding find candidates, the
//! verification of [`crate::verify`] decides, and each caption is clustered against each
//! cluster's representative (so A~B~C never chains A to C).
//!
//! The identity text, the features and the verification live in their own modules; this
//! one re-exports what callers use of them.

use std::sync::{Arc, RwLock};

use rustc_hash::FxHashMap;

use crate::compact::{Chunked, Entries, FeatRef};
pub(crate) use crate::features::MIN_WORDS;
pub use crate::features::{BANDS, Features, HASHES, ROWS, Words, band_keys, features, prepare};
pub use crate::identity::{has_credit, identity, strip_truncation};
use crate::keys::{KeyChange, KeyTable};
pub use crate::verify::{completeness, similarity};
use crate::verify::{completeness_of, may_be_similar_quick, similarity_of};

/// Default verification threshold on bigram containment.
pub const DEFAULT_THRESHOLD: f32 = 0.7;

/// What [`NearIndex::lookup`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lookup {
    /// A near-duplicate of this cluster's representative.
    Match(i64),
    /// A cut-short copy that fits several clusters: it should stand alone and never be a
    /// representative (it would draw other photographs' copies to it).
    Ambiguous,
    /// A new photograph.
    New,
}

/// The entries of a [`NearIndex`] that one text verified against, as found by
/// [`NearIndex::probe`]; [`NearIndex::lookup_probed`] finishes the lookup.
#[derive(Debug, Clone, Default)]
pub struct Probe {
    /// How many entries the index had when probed (later ones were not looked at).
    seen: u32,
    /// Entries sharing a key with the text that verify, with their scores, by entry.
    verified: Vec<(u32, f32)>,
    /// Keys (bit `i`: the `i`-th of [`band_keys`]) that had already counted the index's
    /// limit of texts: counts only grow, so [`NearIndex::observe_probed`] need not look
    /// these up again.
    full: u16,
}

/// Which of a caption's LSH keys (bit `i`: the `i`-th key of [`band_keys`]) it may be
/// found by: those where it is among the first [`MAX_BUCKET`] distinct texts that had
/// the key. Formulaic captions share some keys with thousands of other photographs;
/// such a bucket says little, and verifying all of it would make clustering quadratic.
///
/// The rule depends only on the order of the distinct texts, not on how they were
/// clustered, so an engine that cannot run the clustering in one sequence (Spark) can
/// compute it with a window over each key, then cluster each connected part of the
/// verified-pair graph on its own and get the same clusters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Eligible(pub u16);

impl Eligible {
    /// Every key.
    pub const ALL: Eligible = Eligible(u16::MAX);

    fn has(self, i: usize) -> bool {
        self.0 & (1 << i) != 0
    }
}

/// An incremental near-duplicate index over cluster representatives.
///
/// Each representative a cluster has had is an entry, found through its eligible keys;
/// a caption matches a cluster when it verifies against one of the cluster's entries it
/// shares a key with *and* against the cluster's current representative. (The first
/// condition keeps every match an edge of the verified candidate-pair graph, which is
/// what lets clustering run per connected part of that graph; the second keeps a
/// cluster from drawing copies through a cut-short text it once had.)
///
/// Entries (and the texts counted under each key) are pending until
/// [`NearIndex::publish`]ed, then visible to [`Prober`]s (other threads verifying the
/// next texts ahead of their lookup); the index's own lookups see pending ones too.
///
/// Memory: per entry 104 bytes and a byte or two per word of its identity and per fact
/// word (see `compact.rs`), plus 4 bytes per key it is found by; per distinct key, 14 bytes.
#[derive(Debug, Default)]
pub struct NearIndex {
    threshold: f32,
    max_bucket: u8,
    /// The published entries and key table, shared with probers.
    shared: Arc<RwLock<Shared>>,
    /// Entries made since the last publish (numbered after the published ones).
    pending: Vec<Features>,
    /// Texts counted and entries added per key since the last publish.
    pending_keys: FxHashMap<u64, KeyChange>,
    /// Per entry (published or not): the slot of its cluster.
    entry_slot: Chunked<u32>,
    /// Per cluster, by age: (cluster id, its current representative's entry).
    slots: Chunked<(i64, u32)>,
    by_cluster: ClusterSlots,
}

/// What probers read: the published entries' features and the key table.
#[derive(Debug, Default)]
struct Shared {
    entries: Entries,
    keys: KeyTable,
}

/// The slot of each cluster id: a list for ids counted up from 0 or 1 as the store and
/// the deduper make them, a map for any others.
#[derive(Debug, Default)]
struct ClusterSlots {
    dense: Chunked<u32>,
    sparse: FxHashMap<i64, u32>,
}

impl ClusterSlots {
    fn get(&self, id: i64) -> Option<u32> {
        let dense = usize::try_from(id)
            .ok()
            .and_then(|i| self.dense.get(i))
            .copied()
            .filter(|&s| s != u32::MAX);
        dense.or_else(|| self.sparse.get(&id).copied())
    }

    fn insert(&mut self, id: i64, slot: u32) {
        match usize::try_from(id) {
            // Ids a little past the end extend the list; far ones go to the map.
            Ok(i) if i <= self.dense.len() + 1024 => {
                while self.dense.len() <= i {
                    self.dense.push(u32::MAX);
                }
                self.dense[i] = slot;
            }
            _ => {
                self.sparse.insert(id, slot);
            }
        }
    }
}

/// Verifies texts against the entries a [`NearIndex`] has published, from any thread,
/// while the index goes on taking entries ([`NearIndex::prober`]).
#[derive(Debug, Clone)]
pub struct Prober {
    threshold: f32,
    max_bucket: u8,
    shared: Arc<RwLock<Shared>>,
}

impl Prober {
    /// [`NearIndex::probe`] over the entries published so far.
    pub fn probe(&self, f: &Features) -> Probe {
        let shared = self.shared.read().unwrap_or_else(|p| p.into_inner());
        View {
            shared: &shared,
            pending: &[],
            pending_keys: None,
        }
        .probe(f, self.threshold, self.max_bucket)
    }
}

/// The entries of an index as one sequence: published, then pending.
struct View<'a> {
    shared: &'a Shared,
    pending: &'a [Features],
    pending_keys: Option<&'a FxHashMap<u64, KeyChange>>,
}

impl View<'_> {
    fn len(&self) -> u32 {
        (self.shared.entries.len() + self.pending.len()) as u32
    }

    /// Verifies `f` against every entry of the view that shares a key with it, and notes
    /// which of its keys have counted `max_bucket` texts.
    fn probe(&self, f: &Features, threshold: f32, max_bucket: u8) -> Probe {
        let seen = self.len();
        let mut verified = Vec::new();
        let mut full = 0;
        if f.words >= MIN_WORDS {
            let counts = self.verify_candidates(f, 0, seen, threshold, &mut verified);
            for (i, &c) in counts.iter().enumerate() {
                if c >= u32::from(max_bucket) {
                    full |= 1 << i;
                }
            }
        }
        Probe {
            seen,
            verified,
            full,
        }
    }

    fn entry(&self, e: u32) -> FeatRef<'_> {
        let published = self.shared.entries.len();
        if (e as usize) < published {
            self.shared.entries.get(e as usize)
        } else {
            self.pending[e as usize - published].as_ref()
        }
    }

    /// Adds to `out` every entry numbered in `from..to` that shares a key with `f` and
    /// verifies against it, with its score: once for each key of `f` that finds it (a
    /// caller counts clusters, not entries; checking the few found twice costs less than
    /// finding them among the hundreds found once). Returns how many texts each key of
    /// `f` ([`band_keys`], in order) has counted in the published table (none when
    /// `from..to` is empty: nothing is looked up then).
    fn verify_candidates(
        &self,
        f: &Features,
        from: u32,
        to: u32,
        threshold: f32,
        out: &mut Vec<(u32, f32)>,
    ) -> [u32; BANDS + 1] {
        let mut counts = [0u32; BANDS + 1];
        if from >= to {
            return counts;
        }
        let mut candidates: Vec<u32> = Vec::new();
        let mut keep = |e: u32| {
            if e >= from && e < to {
                candidates.push(e);
            }
        };
        let mut keys = [0u64; BANDS + 1];
        let mut n = 0;
        for (slot, key) in keys.iter_mut().zip(band_keys(f)) {
            *slot = key;
            n += 1;
        }
        let keys = &keys[..n];
        self.shared
            .keys
            .for_each_id_of(keys, from, &mut counts[..n], &mut keep);
        if let Some(p) = self.pending_keys {
            for key in keys {
                if let Some(c) = p.get(key) {
                    crate::keys::ids_from(&c.ids, from)
                        .iter()
                        .copied()
                        .for_each(&mut keep);
                }
            }
        }
        let f = f.as_ref();
        let bits = f.bits();
        // The candidates are far apart in a large index: each is asked of the cache a
        // few candidates before it is read (a pending one is not: it has none there).
        // First the quick bounds, from one cache line of each published entry: most
        // candidates stop there.
        let published = self.shared.entries.len();
        let entries = &self.shared.entries;
        let mut kept = 0;
        for i in 0..candidates.len() {
            prefetch_ahead(&candidates, i, |e| entries.prefetch(e as usize));
            let e = candidates[i];
            if (e as usize) >= published || may_be_similar_quick(bits, entries.quick(e as usize)) {
                candidates[kept] = e;
                kept += 1;
            }
        }
        candidates.truncate(kept);
        // Then the whole check, reading the rest of the entry's fixed fields (asked for
        // ahead the same way), its words and bigrams.
        for (i, &e) in candidates.iter().enumerate() {
            prefetch_ahead(&candidates, i, |e| entries.prefetch_rest(e as usize));
            if let Some(s) = similarity_of(f, self.entry(e), threshold) {
                out.push((e, s));
            }
        }
        counts
    }
}

/// At position `i` of a loop over `ids`: asks `prefetch` for the id [`PREFETCH_AHEAD`]
/// places further on (and, at the start, for those before it), so that their cache misses
/// overlap the work on the ids before them.
fn prefetch_ahead(ids: &[u32], i: usize, prefetch: impl Fn(u32)) {
    if i == 0 {
        ids.iter().take(PREFETCH_AHEAD).copied().for_each(&prefetch);
    }
    if let Some(&ahead) = ids.get(i + PREFETCH_AHEAD) {
        prefetch(ahead);
    }
}

/// How many candidates ahead [`View::verify_candidates`] asks for an entry's head: enough
/// to overlap several cache misses, few enough that the first are still cached when read.
const PREFETCH_AHEAD: usize = 16;

/// How many distinct texts with a key may be found through it ([`Eligible`]).
pub const MAX_BUCKET: usize = 128;

impl NearIndex {
    /// An empty index verifying at `threshold` (0..1; [`DEFAULT_THRESHOLD`] is a good start).
    pub fn new(threshold: f32) -> Self {
        Self::with_max_bucket(threshold, MAX_BUCKET as u8)
    }

    /// [`NearIndex::new`] with another limit than [`MAX_BUCKET`] on the texts a key
    /// finds (tests use a small one to make the limit matter on a small corpus).
    pub fn with_max_bucket(threshold: f32, max_bucket: u8) -> Self {
        NearIndex {
            threshold,
            max_bucket,
            ..Default::default()
        }
    }

    /// Number of clusters.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether there are no clusters.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Counts a new distinct text under each of its keys and returns the keys it is
    /// among the first [`MAX_BUCKET`] (or the index's own limit) texts of. Call it once per distinct text, in input
    /// order, whether or not the text becomes a representative.
    pub fn observe(&mut self, f: &Features) -> Eligible {
        self.observe_probed(f, &Probe::default())
    }

    /// [`NearIndex::observe`] for a text already probed ([`NearIndex::probe`] or a
    /// [`Prober`] of this index, for the same features): the keys the probe found full
    /// are not looked up again (keys that formulaic captions share fill up early).
    pub fn observe_probed(&mut self, f: &Features, probe: &Probe) -> Eligible {
        let mut out = 0u16;
        let mut keys = [0u64; BANDS + 1];
        let mut n = 0;
        for k in band_keys(f) {
            keys[n] = k;
            n += 1;
        }
        let keys = &keys[..n];
        let shared = self.shared.read().unwrap_or_else(|p| p.into_inner());
        for (i, &k) in keys.iter().enumerate() {
            // A key twice in one text counts once.
            if let Some(j) = keys[..i].iter().position(|&x| x == k) {
                out |= ((out >> j) & 1) << i;
                continue;
            }
            if probe.full & (1 << i) != 0 {
                continue;
            }
            let change = self.pending_keys.entry(k).or_default();
            if shared.keys.count(k) + u32::from(change.count) < u32::from(self.max_bucket) {
                out |= 1 << i;
                change.count += 1;
            }
        }
        Eligible(out)
    }

    /// The cluster whose representative the caption is a near-duplicate of (the most
    /// similar one when several are), or `None`.
    pub fn find(&self, f: &Features) -> Option<i64> {
        match self.lookup(f) {
            Lookup::Match(c) => Some(c),
            Lookup::Ambiguous | Lookup::New => None,
        }
    }

    /// Like [`NearIndex::find`], but tells a new photograph from a cut-short copy that fits
    /// several photographs (which no index entry should be made for).
    pub fn lookup(&self, f: &Features) -> Lookup {
        self.lookup_probed(f, &Probe::default())
    }

    /// Verifies `f` against every entry the index holds now that shares a key with it:
    /// the costly part of [`NearIndex::lookup`]. It needs only `&self`, so the texts of a
    /// batch can be probed in parallel before they are looked up in order with
    /// [`NearIndex::lookup_probed`] (and a [`Prober`] probes from other threads).
    pub fn probe(&self, f: &Features) -> Probe {
        let shared = self.shared.read().unwrap_or_else(|p| p.into_inner());
        self.view(&shared).probe(f, self.threshold, self.max_bucket)
    }

    /// A prober over this index's published entries, for other threads.
    pub fn prober(&self) -> Prober {
        Prober {
            threshold: self.threshold,
            max_bucket: self.max_bucket,
            shared: self.shared.clone(),
        }
    }

    /// Makes the entries made since the last call visible to probers.
    pub fn publish(&mut self) {
        if self.pending.is_empty() && self.pending_keys.is_empty() {
            return;
        }
        // Drained, not replaced: the next batch's changes fill the same lists, where new
        // ones would grow (and fault in fresh pages) again from nothing every batch.
        let mut shared = self.shared.write().unwrap_or_else(|p| p.into_inner());
        for f in self.pending.drain(..) {
            shared.entries.push(&f);
        }
        for (k, change) in self.pending_keys.drain() {
            shared.keys.apply(k, change);
        }
        shared.keys.compact();
    }

    fn view<'a>(&'a self, shared: &'a Shared) -> View<'a> {
        View {
            shared,
            pending: &self.pending,
            pending_keys: Some(&self.pending_keys),
        }
    }

    /// [`NearIndex::lookup`] with the entries that `probe` (made by [`NearIndex::probe`]
    /// or a [`Prober`] of this index, for the same features) already verified; only the
    /// entries added since are verified now. Gives exactly what `lookup` gives.
    pub fn lookup_probed(&self, f: &Features, probe: &Probe) -> Lookup {
        if f.words < MIN_WORDS {
            return Lookup::New;
        }
        let shared = self.shared.read().unwrap_or_else(|p| p.into_inner());
        let view = self.view(&shared);
        let mut verified = probe.verified.clone();
        view.verify_candidates(f, probe.seen, view.len(), self.threshold, &mut verified);
        // Clusters with an entry that verifies, oldest first, with the score when that
        // entry is the cluster's current representative (not verified twice then).
        let mut gated: Vec<(u32, Option<f32>)> = verified
            .into_iter()
            .map(|(e, s)| {
                let slot = self.entry_slot[e as usize];
                let current = self.slots[slot as usize].1 == e;
                (slot, current.then_some(s))
            })
            .collect();
        // Per cluster, the entry with a score first.
        gated.sort_unstable_by(|a, b| a.0.cmp(&b.0).then(b.1.is_some().cmp(&a.1.is_some())));
        gated.dedup_by_key(|g| g.0);
        let mut best: Option<(f32, usize, u32)> = None;
        let mut passing = 0usize;
        let fr = f.as_ref();
        for (slot, score) in gated {
            let rep = view.entry(self.slots[slot as usize].1);
            if let Some(s) = score.or_else(|| similarity_of(fr, rep, self.threshold)) {
                passing += 1;
                // Prefer the higher score, then the larger representative, then the
                // older cluster.
                if best.is_none_or(|(bs, bz, _)| s > bs || (s == bs && rep.words > bz)) {
                    best = Some((s, rep.words, slot));
                }
            }
        }
        // A cut-short copy that fits several photographs cannot tell which one it shows.
        if f.truncated && passing > 1 {
            return Lookup::Ambiguous;
        }
        match best {
            Some((_, _, slot)) => Lookup::Match(self.slots[slot as usize].0),
            None => Lookup::New,
        }
    }

    /// Makes `f` the representative of `cluster` (a new cluster, or a more complete
    /// variant that joined it), found through the keys `eligible` names. A former
    /// representative stays an entry, so copies of it are still found. The entry is
    /// pending until [`NearIndex::publish`]ed.
    pub fn insert(&mut self, cluster: i64, f: Features, eligible: Eligible) {
        let e = self.entry_slot.len() as u32;
        let slot = match self.by_cluster.get(cluster) {
            Some(slot) => {
                self.slots[slot as usize].1 = e;
                slot
            }
            None => {
                let slot = self.slots.len() as u32;
                self.by_cluster.insert(cluster, slot);
                self.slots.push((cluster, e));
                slot
            }
        };
        for (i, key) in band_keys(&f).enumerate() {
            if eligible.has(i) {
                self.pending_keys.entry(key).or_default().ids.push(e);
            }
        }
        self.entry_slot.push(slot);
        self.pending.push(f);
    }

    /// How complete the representative of a cluster is ([`completeness`]).
    pub fn representative_completeness(&self, cluster: i64) -> Option<(bool, bool, usize)> {
        let slot = self.by_cluster.get(cluster)?;
        let shared = self.shared.read().unwrap_or_else(|p| p.into_inner());
        let view = self.view(&shared);
        Some(completeness_of(view.entry(self.slots[slot as usize].1)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BASE: &str = "A man walks past a damaged building in the rebel-held town of Douma, Syria, May 3, 2016. Residents say the area was shelled overnight. (Photo by Rami Haddad/AFP Photo)";

    #[test]
    fn index_finds_the_cluster_and_does_not_chain() {
        let mut idx = NearIndex::new(DEFAULT_THRESHOLD);
        let f = features(BASE);
        let e = idx.observe(&f);
        idx.insert(1, f, e);
        assert_eq!(idx.find(&features("A man walks past a damaged building in the rebel-held town of Douma, Syria, May 3, 2016...more")), Some(1));
        assert_eq!(
            idx.find(&features(
                "A boy rides a bicycle along a destroyed road in Homs, Syria, June 1, 2015."
            )),
            None
        );
    }
}
