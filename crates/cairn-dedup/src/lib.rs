//! Deduplication of captions: the normalised text, the exact key, (in [`near`]) the
//! near-duplicate layer, and the link between a caption and its translation.
//!
//! Everything here is pure: no IO, no global state, so the same functions run in the
//! single-machine pipeline and inside a distributed engine.
#![warn(missing_docs)]

mod compact;
mod features;
pub mod groups;
mod identity;
mod keys;
pub mod near;
mod translation;
mod verify;

use unicode_normalization::UnicodeNormalization;

pub use near::{
    DEFAULT_THRESHOLD, Eligible, Features, Lookup, MAX_BUCKET, NearIndex, Probe, Prober, band_keys,
    completeness, features, similarity,
};
pub use translation::is_translation;

/// The exact-duplicate key of a caption: a 128-bit hash of its [`normalize`]d text.
///
/// Two captions with equal keys are treated as the same text (the same variant).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ExactKey(pub u128);

impl ExactKey {
    /// Big-endian bytes, as stored in the archive.
    pub fn to_bytes(self) -> [u8; 16] {
        self.0.to_be_bytes()
    }
    /// Inverse of [`ExactKey::to_bytes`].
    pub fn from_bytes(b: [u8; 16]) -> Self {
        ExactKey(u128::from_be_bytes(b))
    }
}

/// Maps one character to its folded form: typographic quotes and dashes to ASCII,
/// invisible format characters to nothing, every kind of space to a plain space.
fn fold_char(c: char, out: &mut String) {
    match c {
        '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{201F}' | '\u{2033}' | '\u{00AB}'
        | '\u{00BB}' | '\u{FF02}' => out.push('"'),
        '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{201B}' | '\u{2032}' | '\u{FF07}' | '`'
        | '\u{00B4}' => out.push('\''),
        '\u{2010}' | '\u{2011}' | '\u{2012}' | '\u{2013}' | '\u{2014}' | '\u{2015}'
        | '\u{2212}' | '\u{FE58}' | '\u{FE63}' | '\u{FF0D}' => out.push('-'),
        '\u{2026}' => out.push_str("..."),
        '\u{200B}' | '\u{200C}' | '\u{200D}' | '\u{2060}' | '\u{FEFF}' | '\u{00AD}' => {}
        c if c.is_whitespace() => out.push(' '),
        c => out.push(c),
    }
}

pub use cairn_model::fold_whitespace;

/// The normalised text that exact deduplication compares: quotes, dashes and spaces
/// folded, invisible characters dropped, Unicode NFC, whitespace runs folded, trimmed.
/// Case and wording are kept.
///
/// `normalize(normalize(x)) == normalize(x)` for every `x` (a property test checks it).
pub fn normalize(text: &str) -> String {
    if text.is_ascii() {
        // NFC leaves ASCII as it is, and of the folded characters ASCII has only the
        // backtick and whitespace: one pass (most captions are ASCII).
        let mut out = String::with_capacity(text.len());
        for word in text.split_whitespace() {
            if !out.is_empty() {
                out.push(' ');
            }
            if word.contains('`') {
                out.extend(word.chars().map(|c| if c == '`' { '\'' } else { c }));
            } else {
                out.push_str(word);
            }
        }
        return out;
    }
    let mut folded = String::with_capacity(text.len());
    for c in text.chars() {
        fold_char(c, &mut folded);
    }
    if unicode_normalization::is_nfc_quick(folded.chars())
        == unicode_normalization::IsNormalized::Yes
    {
        // Already composed: folding again would change nothing.
        return fold_whitespace(&folded);
    }
    let composed: String = folded.nfc().collect();
    // NFC can turn a few compatibility spaces into other spaces; fold again after it.
    let mut out = String::with_capacity(composed.len());
    for c in composed.chars() {
        fold_char(c, &mut out);
    }
    fold_whitespace(&out)
}

/// [`normalize`] without its shortcuts, the definition it must agree with (tests).
#[doc(hidden)]
pub fn normalize_by_definition(text: &str) -> String {
    let mut folded = String::with_capacity(text.len());
    for c in text.chars() {
        fold_char(c, &mut folded);
    }
    let composed: String = folded.nfc().collect();
    let mut out = String::with_capacity(composed.len());
    for c in composed.chars() {
        fold_char(c, &mut out);
    }
    fold_whitespace(&out)
}

/// The exact key of a caption text.
pub fn exact_key(text: &str) -> ExactKey {
    exact_key_of_normalized(&normalize(text))
}

/// The exact key of text that is already [`normalize`]d.
pub fn exact_key_of_normalized(normalized: &str) -> ExactKey {
    ExactKey(xxhash_rust::xxh3::xxh3_128(normalized.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_spaces_and_nfc_fold() {
        let a = "“I Love Damascus”  marathon\u{00A0}at  Umayyad Square";
        let b = "\"I Love Damascus\" marathon at Umayyad Square";
        assert_eq!(normalize(a), normalize(b));
        assert_eq!(exact_key(a), exact_key(b));
        // e + combining acute == precomposed é
        assert_eq!(normalize("Herve\u{0301}"), normalize("Hervé"));
    }

    #[test]
    fn different_words_differ() {
        assert_ne!(exact_key("A man walks."), exact_key("A man runs."));
        assert_ne!(exact_key("a man walks."), exact_key("A man walks."));
    }

    #[test]
    fn key_bytes_round_trip() {
        let k = exact_key("x");
        assert_eq!(ExactKey::from_bytes(k.to_bytes()), k);
    }
}

/// Streaming deduplication without an archive: captions in, a cluster per caption out.
///
/// Memory: per input caption 8 bytes (its cluster and canonical flag are decided at the
/// end); per distinct text 24 bytes of exact key; per cluster its representative in the
/// [`NearIndex`].
#[derive(Debug)]
pub struct Deduper {
    exact: rustc_hash::FxHashMap<u128, u32>,
    near: NearIndex,
    /// Per cluster: (completeness of its best caption, input position of that caption).
    best: Vec<((bool, bool, usize), u64)>,
    assigned: Vec<u32>,
}

impl Deduper {
    /// A deduper verifying near-duplicates at `threshold`.
    pub fn new(threshold: f32) -> Self {
        Self::with_max_bucket(threshold, MAX_BUCKET as u8)
    }

    /// [`Deduper::new`] with another limit on the texts one LSH key finds.
    pub fn with_max_bucket(threshold: f32, max_bucket: u8) -> Self {
        Deduper {
            exact: Default::default(),
            near: NearIndex::with_max_bucket(threshold, max_bucket),
            best: Vec::new(),
            assigned: Vec::new(),
        }
    }

    /// Assigns a batch of captions, in order. Features are computed, and the batch's new
    /// texts probed against the index as it was before the batch, in parallel; the
    /// lookups then run in order, so the result is that of pushing them one by one.
    pub fn push_batch(&mut self, texts: &[String]) {
        use rayon::prelude::*;
        let prepared: Vec<(u128, Features)> = texts
            .par_iter()
            .map(|t| {
                let (k, f) = near::prepare(t);
                (k.0, f)
            })
            .collect();
        // The first of each text not seen before is the one that will be looked up.
        let mut first = rustc_hash::FxHashSet::default();
        let new: Vec<bool> = prepared
            .iter()
            .map(|(k, _)| !self.exact.contains_key(k) && first.insert(*k))
            .collect();
        self.near.publish();
        let near = &self.near;
        let probes: Vec<Option<Probe>> = prepared
            .par_iter()
            .zip(&new)
            .map(|((_, f), &n)| n.then(|| near.probe(f)))
            .collect();
        for ((key, f), probe) in prepared.into_iter().zip(probes) {
            self.push_with(key, f, None, probe.as_ref());
        }
    }

    /// Assigns one caption.
    pub fn push(&mut self, text: &str) -> u32 {
        let (k, f) = near::prepare(text);
        self.push_prepared(k.0, f)
    }

    fn push_prepared(&mut self, key: u128, f: Features) -> u32 {
        self.push_with(key, f, None, None)
    }

    /// Assigns one caption whose eligible keys were computed elsewhere (an engine that
    /// clusters each connected part of the candidate graph apart gives the ranks over the
    /// whole input; see [`Eligible`]).
    pub fn push_eligible(&mut self, text: &str, eligible: Eligible) -> u32 {
        let (k, f) = near::prepare(text);
        self.push_with(k.0, f, Some(eligible), None)
    }

    fn push_with(
        &mut self,
        key: u128,
        f: Features,
        eligible: Option<Eligible>,
        probe: Option<&Probe>,
    ) -> u32 {
        let pos = self.assigned.len() as u64;
        let score = completeness(&f);
        let cluster = if let Some(&c) = self.exact.get(&key) {
            c
        } else {
            // No probe is an empty one: the lookup verifies every entry itself.
            let unprobed = Probe::default();
            let probe = probe.unwrap_or(&unprobed);
            let eligible = eligible.unwrap_or_else(|| self.near.observe_probed(&f, probe));
            let found = self.near.lookup_probed(&f, probe);
            let c = match found {
                near::Lookup::Match(c) => c as u32,
                near::Lookup::Ambiguous => {
                    // Its own cluster, but no representative: it draws nothing to it.
                    let c = self.best.len() as u32;
                    self.best.push((score, pos));
                    self.exact.insert(key, c);
                    self.assigned.push(c);
                    return c;
                }
                near::Lookup::New => {
                    let c = self.best.len() as u32;
                    self.best.push((score, pos));
                    self.near.insert(i64::from(c), f.clone(), eligible);
                    c
                }
            };
            self.exact.insert(key, c);
            if score > self.best[c as usize].0 {
                self.best[c as usize] = (score, pos);
                self.near.insert(i64::from(c), f, eligible);
            }
            c
        };
        self.assigned.push(cluster);
        cluster
    }

    /// Number of clusters so far.
    pub fn clusters(&self) -> usize {
        self.best.len()
    }

    /// Every input's cluster and whether it is its cluster's canonical caption (the most
    /// complete: untruncated, credited, longest; the first such on ties), in input order.
    pub fn finish(self) -> Vec<(u32, bool)> {
        let best = self.best;
        self.assigned
            .into_iter()
            .enumerate()
            .map(|(i, c)| (c, best[c as usize].1 == i as u64))
            .collect()
    }
}

#[cfg(test)]
mod deduper_tests {
    use super::*;

    #[test]
    fn clusters_and_canonical() {
        let mut d = Deduper::new(DEFAULT_THRESHOLD);
        let full = "A girl carries water past a burnt-out car in Idlib, Syria, August 2, 2016. (Photo by Lina Saleh/AFP Photo)";
        d.push("A girl carries water past a burnt-out car in Idlib, Syria, August 2, 2016...more");
        d.push(
            "A man sells vegetables at a market in Homs, Syria, June 3, 2015. REUTERS/Omar Aziz",
        );
        d.push(full);
        d.push(full);
        let out = d.finish();
        assert_eq!(out[0].0, out[2].0);
        assert_eq!(out[2].0, out[3].0);
        assert_ne!(out[0].0, out[1].0);
        assert_eq!(
            out.iter().map(|x| x.1).collect::<Vec<_>>(),
            vec![false, true, true, false]
        );
    }
}
