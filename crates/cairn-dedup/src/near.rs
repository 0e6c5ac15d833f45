//! The near-duplicate layer: what identifies a photograph in its caption, MinHash
//! signatures with LSH banding to find candidates, a verification that suits captions,
//! and clustering against each cluster's representative (so A~B~C never chains A to C).
//!
//! A caption's identity is its first sentence (what, where, when), with the credit,
//! truncation marks and HTML character references taken off. Background sentences and
//! credits do not take part, so two photographs that share a boilerplate paragraph stay
//! apart, and a re-credited or cut-short copy still finds its original.

use std::sync::{Arc, RwLock};

use rustc_hash::FxHashMap;

use crate::compact::{Bits, Chunked, Entries, FeatRef, Grams, KeyChange, KeyTable, Quick, Vocab};

/// Hash functions in a signature.
pub const HASHES: usize = 30;
/// Rows per LSH band.
pub const ROWS: usize = 3;
/// LSH bands (`HASHES / ROWS`).
pub const BANDS: usize = HASHES / ROWS;
/// Default verification threshold on bigram containment.
pub const DEFAULT_THRESHOLD: f32 = 0.7;
/// Fewest identity words for a near-duplicate match (shorter captions match exactly only).
pub(crate) const MIN_WORDS: usize = 5;
/// Words of the identity that make the prefix key (catches cut-short copies directly).
const PREFIX_WORDS: usize = 10;
/// Most words of a copy's identity that may be missing from the original's (typos, a
/// word cut short); the word check decides which of them are typos.
pub(crate) const MAX_MISSING_WORDS: u32 = 4;

/// What a caption is compared by.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Features {
    /// Normalised words of the identity sentence.
    pub words: usize,
    /// Sorted, distinct hashes of word bigrams.
    pub bigrams: Box<[u32]>,
    /// The identity's distinct lower-case words, sorted: every word of a copy must be
    /// found (up to a typo) among the words of the photograph's fuller text.
    pub vocab: Words,
    /// The identity's lower-case words in order, separated by single spaces, and its
    /// fact words (numbers, capitalised words) in lower case: what the bigrams are made
    /// of, so that an index can keep these (a byte or two a word) and make the bigrams
    /// again (four bytes each) when it verifies.
    pub sequence: Box<str>,
    /// See [`Features::sequence`].
    pub facts: Box<str>,
    /// The identity's last word when the text was cut short (it may be cut mid-word).
    pub last_word: Option<Box<str>>,
    /// A 256-bit set of the identity's words (one bit each): a quick, never-wrong bound on
    /// how many words of one identity the other lacks.
    pub word_bits: [u64; 4],
    /// The same bits for the words that only match exactly (numbers, short words): one
    /// of them set here and not in the other identity's `word_bits` is a word that
    /// cannot be found there.
    pub exact_bits: [u64; 4],
    /// A 64-bit set of the bigrams ([`gram_bit`]): a quick, never-wrong bound on how
    /// many bigrams of another text this one shares.
    pub gram_bits: u64,
    /// MinHash signature of the bigrams.
    pub signature: [u32; HASHES],
    /// Hash of the first words (when there are enough of them).
    pub prefix: Option<u64>,
    /// Whether the text was cut short ("...more", "…").
    pub truncated: bool,
    /// Whether the text carries a credit line.
    pub credited: bool,
    /// Length of the text in bytes.
    pub len: usize,
}

/// Distinct words, sorted, kept in one allocation (a word never holds a space): an
/// index holds one such list per photograph, so a `Vec<String>` (a header and an
/// allocation per word) would cost several times the words themselves.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Words(Box<str>);

impl Words {
    fn new(mut words: Vec<&str>) -> Self {
        words.sort_unstable();
        words.dedup();
        Words(words.join(" ").into_boxed_str())
    }

    /// The words, in order.
    pub fn iter(&self) -> impl Iterator<Item = &str> {
        self.0.split(' ').filter(|w| !w.is_empty())
    }

    /// Whether `w` is one of the words.
    pub fn contains(&self, w: &str) -> bool {
        self.iter().any(|x| x == w)
    }

    /// The words, separated by single spaces.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Features {
    /// What verification reads of these features.
    pub(crate) fn as_ref(&self) -> FeatRef<'_> {
        FeatRef {
            words: self.words,
            grams: Grams::Hashes(&self.bigrams),
            gram_count: self.bigrams.len(),
            gram_bits: self.gram_bits,
            vocab: Vocab::Text(self.vocab.as_str()),
            last_word: self.last_word.as_deref(),
            word_bits: &self.word_bits,
            exact_bits: self.exact_bits,
            truncated: self.truncated,
            credited: self.credited,
            len: self.len,
        }
    }
}

const TRUNCATION_MARKS: &[&str] = &[
    "...more",
    "... more",
    "…more",
    "… more",
    "read more",
    "...",
    "…",
    "more",
];

/// Takes HTML character references out (`&amp;`, `&#39;`...), as a browser would show them.
/// Escaped twice (`&amp;nbsp;`) is common too: decode until nothing changes (at most 3 times).
fn decode_entities(s: &str) -> String {
    let mut out = s.to_string();
    for _ in 0..3 {
        if !out.contains('&') {
            break;
        }
        let next = html_escape::decode_html_entities(&out).into_owned();
        if next == out {
            break;
        }
        out = next;
    }
    out
}

/// Whether the text was cut short, and the text without the mark.
pub fn strip_truncation(text: &str) -> (&str, bool) {
    let t = text.trim_end();
    let lower = t.to_lowercase();
    for m in TRUNCATION_MARKS {
        if lower.ends_with(m) {
            // "more" alone counts only right after an ellipsis-less cut ("... more" handled).
            if *m == "more"
                && !lower
                    .trim_end_matches("more")
                    .trim_end()
                    .ends_with(['.', '…'])
            {
                continue;
            }
            return (t[..t.len() - m.len()].trim_end(), true);
        }
    }
    (t, false)
}

/// Whether a caption carries a credit line (a trailing parenthesis with a slash or
/// "Photo", or an `AGENCY/Name` form).
pub fn has_credit(text: &str) -> bool {
    let t = text.trim_end();
    if let Some(open) = t.rfind('(') {
        let inner = &t[open..];
        if inner.contains('/') || inner.to_lowercase().contains("photo") {
            return true;
        }
    }
    let mut from = t.len().saturating_sub(60);
    while !t.is_char_boundary(from) {
        from += 1;
    }
    let tail = &t[from..];
    let lower = tail.to_lowercase();
    if lower.contains("photo:") || lower.contains("photo by") || lower.contains(" via ") {
        return true;
    }
    // "REUTERS/Name", "Name/AFP": a slash between a letter and a capital.
    tail.as_bytes()
        .windows(3)
        .any(|w| w[0].is_ascii_alphabetic() && w[1] == b'/' && w[2].is_ascii_uppercase())
}

/// The identity sentence of a caption: the first sentence, without a credit in
/// parentheses, truncation marks or character references.
pub fn identity(text: &str) -> String {
    let decoded = decode_entities(text);
    identity_of_normalized(&crate::normalize(&decoded))
}

/// [`identity`] of text already decoded and [`crate::normalize`]d.
fn identity_of_normalized(folded: &str) -> String {
    // Text after a truncation mark inside the caption ("...more" glued to what follows on
    // the page) is not this caption's.
    let lower = folded.to_lowercase();
    let cut = ["...more", "... more", "…more", "… more"]
        .iter()
        .filter_map(|m| lower.find(m))
        .min()
        .filter(|&at| at < folded.len() && folded.is_char_boundary(at));
    let folded = cut.map_or(folded, |at| &folded[..at]);
    let (body, _) = strip_truncation(folded);
    let first = cairn_model::sentences(body)
        .first()
        .map(|s| &body[s.start..s.end])
        .unwrap_or(body);
    // A credit inside the first sentence ("... in Aleppo (Photo by X/AFP)").
    let mut id = first.to_string();
    if let Some(open) = id.rfind('(') {
        let inner = id[open..].to_lowercase();
        if inner.contains('/') || inner.contains("photo") {
            id.truncate(open);
        }
    }
    id
}

fn words(identity: &str) -> Vec<&str> {
    identity
        .split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .filter(|w| !w.is_empty())
        .collect()
}

/// The hash of a lower-case word (a word's bigrams and bits are made from it).
pub(crate) fn word_hash(w: &str) -> u64 {
    xxhash_rust::xxh3::xxh3_64(w.as_bytes())
}

/// The bigram of two consecutive words, by their [`word_hash`]es.
pub(crate) fn pair_gram(a: u64, b: u64) -> u32 {
    (a ^ b.rotate_left(21)) as u32
}

/// The bigram an identity of one word has in place of pairs.
pub(crate) fn single_gram(h: u64) -> u32 {
    h as u32
}

/// The bit of a bigram in [`Features::gram_bits`].
pub(crate) fn gram_bit(g: u32) -> u64 {
    1 << (g.wrapping_mul(0x9E37_79B1) >> 26)
}

/// The extra bigram of a fact word (given in lower case).
pub(crate) fn fact_gram(lower: &str) -> u32 {
    // Verification makes these again for every candidate it scores: a word of the usual
    // length is hashed from the stack, without an allocation.
    let w = lower.as_bytes();
    let mut stack = [0u8; 64];
    let mut heap = Vec::new();
    let b: &mut [u8] = if w.len() < stack.len() {
        &mut stack[..w.len() + 1]
    } else {
        heap.resize(w.len() + 1, 0);
        &mut heap
    };
    b[0] = b'#';
    b[1..].copy_from_slice(w);
    xxhash_rust::xxh3::xxh3_64(b) as u32
}

/// Per-hash multipliers and offsets of the MinHash family (odd multipliers, fixed seed).
const fn family() -> [(u64, u64); HASHES] {
    let mut out = [(0u64, 0u64); HASHES];
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut i = 0;
    while i < HASHES {
        // splitmix64 steps
        x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = x;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        let a = (z ^ (z >> 31)) | 1;
        x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = x;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        out[i] = (a, z ^ (z >> 31));
        i += 1;
    }
    out
}

const FAMILY: [(u64, u64); HASHES] = family();

/// The features of a caption.
pub fn features(text: &str) -> Features {
    prepare(text).1
}

/// The exact key and the features of a caption, normalising it once.
pub fn prepare(text: &str) -> (crate::ExactKey, Features) {
    let normalized = crate::normalize(text);
    let key = crate::exact_key_of_normalized(&normalized);
    let f = if text.contains('&') {
        features_of_normalized(text, &crate::normalize(&decode_entities(text)))
    } else {
        features_of_normalized(text, &normalized)
    };
    (key, f)
}

fn features_of_normalized(text: &str, normalized: &str) -> Features {
    let id = identity_of_normalized(normalized);
    let ws = words(&id);
    let lower_id = id.to_lowercase();
    let lower = words(&lower_id);
    let word_hashes: Vec<u64> = lower.iter().map(|w| word_hash(w)).collect();
    let mut bigrams: Vec<u32> = word_hashes
        .windows(2)
        .map(|p| pair_gram(p[0], p[1]))
        .collect();
    if lower.len() == 1 {
        bigrams.push(single_gram(word_hashes[0]));
    }
    // Facts (numbers, capitalised words) weigh more in the signature: they are what tells
    // two photographs of one formula apart.
    let mut facts: Vec<String> = Vec::new();
    for (n, w) in ws.iter().enumerate() {
        let fact = w.bytes().any(|c| c.is_ascii_digit())
            || (n > 0 && w.chars().next().is_some_and(char::is_uppercase));
        if fact {
            let w = w.to_lowercase();
            bigrams.push(fact_gram(&w));
            facts.push(w);
        }
    }
    bigrams.sort_unstable();
    bigrams.dedup();
    let gram_bits = bigrams.iter().fold(0, |bits, &g| bits | gram_bit(g));
    let mut signature = [u32::MAX; HASHES];
    for &b in &bigrams {
        let x = u64::from(b);
        for (slot, (a, c)) in signature.iter_mut().zip(FAMILY.iter()) {
            let v = (a.wrapping_mul(x).wrapping_add(*c) >> 32) as u32;
            if v < *slot {
                *slot = v;
            }
        }
    }
    let mut word_bits = [0u64; 4];
    for &h in &word_hashes {
        let bit = word_hash_bit(h);
        word_bits[bit / 64] |= 1 << (bit % 64);
    }
    let mut exact_bits = [0u64; 4];
    for (w, &h) in lower.iter().zip(&word_hashes) {
        if !typo_allowed(w) {
            let bit = word_hash_bit(h);
            exact_bits[bit / 64] |= 1 << (bit % 64);
        }
    }
    let vocab = Words::new(lower.clone());
    let sequence = lower.join(" ").into_boxed_str();
    let prefix = (lower.len() >= PREFIX_WORDS).then(|| {
        word_hashes[..PREFIX_WORDS]
            .iter()
            .fold(0u64, |acc, h| acc.rotate_left(7) ^ h)
    });
    let lower_text = text.to_lowercase();
    let truncated = strip_truncation(text).1
        || ["...more", "... more", "…more", "… more"]
            .iter()
            .any(|m| lower_text.contains(m));
    Features {
        words: lower.len(),
        bigrams: bigrams.into_boxed_slice(),
        vocab,
        sequence,
        facts: facts.join(" ").into_boxed_str(),
        word_bits,
        exact_bits,
        last_word: if truncated {
            lower.last().map(|w| Box::from(*w))
        } else {
            None
        },
        gram_bits,
        signature,
        prefix,
        truncated,
        credited: has_credit(text),
        len: text.len(),
    }
}

/// Edit distance with adjacent transpositions (optimal string alignment), bounded:
/// returns `max + 1` as soon as it is exceeded. Works on bytes for ASCII words up to 32
/// bytes (no allocation), on characters otherwise.
fn edit_distance(a: &str, b: &str, max: usize) -> usize {
    if a.is_ascii() && b.is_ascii() && a.len() <= 32 && b.len() <= 32 {
        osa(a.as_bytes(), b.as_bytes(), max)
    } else {
        let a: Vec<char> = a.chars().collect();
        let b: Vec<char> = b.chars().collect();
        osa(&a, &b, max)
    }
}

fn osa<T: PartialEq>(a: &[T], b: &[T], max: usize) -> usize {
    if a.len().abs_diff(b.len()) > max {
        return max + 1;
    }
    // Three rolling rows: i-2, i-1, i.
    let w = b.len() + 1;
    let mut rows = vec![0usize; 3 * w];
    for (j, cell) in rows[w..2 * w].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        let (before, cur) = rows.split_at_mut(2 * w);
        let (pp, p) = before.split_at(w);
        cur[0] = i;
        let mut row_min = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (p[j] + 1).min(cur[j - 1] + 1).min(p[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(pp[j - 2] + 1);
            }
            cur[j] = v;
            row_min = row_min.min(v);
        }
        if row_min > max {
            return max + 1;
        }
        rows.copy_within(w..3 * w, 0);
    }
    rows[w + b.len()]
}

/// Edits a word may differ by and still match (see [`word_matches`]).
fn typos_allowed(k: &str) -> usize {
    if k.bytes().any(|c| c.is_ascii_digit()) {
        return 0;
    }
    // Two copies may carry different typos of one word, so allow twice a single typo.
    match k.len() {
        0..=3 => 0,
        4..=5 => 1,
        6..=9 => 2,
        _ => 3,
    }
}

/// Whether a word may match another than itself (a typo); if not, only itself.
fn typo_allowed(k: &str) -> bool {
    typos_allowed(k) > 0
}

/// The bit of a lower-case word's hash in [`Features::word_bits`].
fn word_hash_bit(h: u64) -> usize {
    (h >> 56) as usize // 0..256
}

/// Whether `k` is one of `others` up to typos: one edit in words of 4 or 5 letters, two
/// in 6 to 9, three in longer ones, same first letter; numbers must agree exactly (a day or
/// a count tells photographs apart).
fn word_matches(k: &str, others: &[&str]) -> bool {
    let allowed = typos_allowed(k);
    if allowed == 0 {
        return false;
    }
    let first = k.as_bytes()[0];
    others.iter().any(|o| {
        o.len().abs_diff(k.len()) <= allowed
            && o.as_bytes().first() == Some(&first)
            && edit_distance(k, o, allowed) <= allowed
    })
}

/// The word-set bound of the word check: the shorter identity's words (`words`, and
/// `exact`, those that must match exactly) against the longer one's word set. False only
/// when some word cannot be found: more set bits missing than typos and a cut allow, or a
/// missing exact word (one is allowed when the shorter text was cut short).
pub(crate) fn word_sets_may_match(
    words: &[u64; 4],
    exact: &[u64; 4],
    cut: bool,
    long_words: &[u64; 4],
) -> bool {
    let missing =
        |bits: &[u64; 4]| -> [u64; 4] { std::array::from_fn(|i| bits[i] & !long_words[i]) };
    let count = |bits: [u64; 4]| -> u32 { bits.iter().map(|b| b.count_ones()).sum() };
    // The exact words first: two captions of one template (the same words, another
    // place, date or name) most often part there, and with none allowed missing that
    // takes no counting (counting bits is most of this check's work on the baseline
    // x86-64 the build targets, which has no popcount instruction).
    let exact_missing = missing(exact);
    let exact_ok = if cut {
        count(exact_missing) <= 1
    } else {
        exact_missing == [0; 4]
    };
    exact_ok && count(missing(words)) <= MAX_MISSING_WORDS
}

/// How alike two captions are, or `None` when they are different photographs.
///
/// The score is the containment of word bigrams of the identity sentences (shared
/// bigrams over the smaller set), so a cut-short copy scores as high as a whole one.
/// Beyond the score, every fact word (number, capitalised word) of the shorter identity
/// must appear in the longer, allowing a typo in long words.
pub fn similarity(a: &Features, b: &Features, threshold: f32) -> Option<f32> {
    similarity_of(a.as_ref(), b.as_ref(), threshold)
}

/// The quick bounds of [`similarity`]: false when it is `None` for what they read alone
/// (too few words; a word set that cannot match).
pub(crate) fn may_be_similar(a: Bits<'_>, b: Bits<'_>) -> bool {
    if a.words < MIN_WORDS || b.words < MIN_WORDS {
        return false;
    }
    let (short, long) = if a.words <= b.words { (a, b) } else { (b, a) };
    // Each word of the shorter identity missing from the longer one leaves at most one
    // bit set; more than a few (typos, a cut last word) cannot pass the word check, nor
    // can one that must match exactly, unless it is a cut-short copy's last.
    word_sets_may_match(
        short.word_bits,
        &short.exact_bits,
        short.cut,
        long.word_bits,
    )
}

/// [`may_be_similar`] of `a` and an entry known by what one cache line holds of it
/// ([`Quick`]): the same bounds, but when the entry is the shorter, its exact words are
/// checked in the first three quarters of their bits only. So it is true whenever
/// [`may_be_similar`] is; a candidate it rejects is never read further (at a million
/// pages, most of the candidates a probe meets).
pub(crate) fn may_be_similar_quick(a: Bits<'_>, e: Quick<'_>) -> bool {
    let e = Bits {
        words: e.words,
        word_bits: e.word_bits,
        exact_bits: [e.exact_low[0], e.exact_low[1], e.exact_low[2], 0],
        cut: e.cut,
    };
    may_be_similar(a, e)
}

/// [`similarity`] of features however they are kept.
pub(crate) fn similarity_of(a: FeatRef<'_>, b: FeatRef<'_>, threshold: f32) -> Option<f32> {
    if !may_be_similar(a.bits(), b.bits()) {
        return None;
    }
    let (short, long) = if a.words <= b.words { (a, b) } else { (b, a) };
    // Bigrams shared are at most those of one text whose bits the other's set has: a
    // bound that rejects most candidates before an entry's bigrams are made again.
    let smaller = a.gram_count.min(b.gram_count).max(1);
    let bound = |held: &[u32], bits: u64| held.iter().filter(|&&g| bits & gram_bit(g) != 0).count();
    let most = match (a.grams, b.grams) {
        (Grams::Hashes(h), _) => Some(bound(h, b.gram_bits)),
        (_, Grams::Hashes(h)) => Some(bound(h, a.gram_bits)),
        _ => None,
    };
    if most.is_some_and(|m| (m as f32 / smaller as f32) < threshold) {
        return None;
    }
    let shared = match (a.grams, b.grams) {
        (Grams::Hashes(h), other) => other.shared_with(h, a.gram_bits),
        (other, Grams::Hashes(h)) => other.shared_with(h, b.gram_bits),
        _ => {
            let mut buf = Vec::new();
            b.grams.shared_with(a.grams.resolve(&mut buf), a.gram_bits)
        }
    };
    let score = shared as f32 / smaller as f32;
    if score < threshold {
        return None;
    }
    // Every word of the shorter identity is in the longer one, up to a typo in a long
    // word; a cut-short copy's last word need only begin one.
    let long_words: Vec<&str> = long.vocab.words().collect();
    for w in short.vocab.words() {
        if long_words.contains(&w) || word_matches(w, &long_words) {
            continue;
        }
        if short.last_word == Some(w) && long_words.iter().any(|o| o.starts_with(w)) {
            continue;
        }
        return None;
    }
    Some(score)
}

/// How complete a variant is, for choosing a cluster's canonical text: untruncated
/// first, then with a credit, then longer.
pub fn completeness(f: &Features) -> (bool, bool, usize) {
    completeness_of(f.as_ref())
}

/// [`completeness`] of features however they are kept.
fn completeness_of(f: FeatRef<'_>) -> (bool, bool, usize) {
    (!f.truncated, f.credited, f.len)
}

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
                    crate::compact::ids_from(&c.ids, from)
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

/// The LSH keys of a caption: one per band of its signature, plus its prefix key
/// when it has one. Two captions sharing a key are candidates for verification.
pub fn band_keys(f: &Features) -> impl Iterator<Item = u64> + '_ {
    let bands = (0..BANDS).map(move |b| {
        let rows = &f.signature[b * ROWS..(b + 1) * ROWS];
        let mut bytes = [0u8; ROWS * 4 + 1];
        bytes[0] = b as u8;
        for (k, r) in rows.iter().enumerate() {
            bytes[1 + k * 4..5 + k * 4].copy_from_slice(&r.to_le_bytes());
        }
        xxhash_rust::xxh3::xxh3_64(&bytes)
    });
    bands.chain(f.prefix.map(|p| p ^ 0xA5A5_A5A5_A5A5_A5A5))
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

    fn bits_of(bits: &[u64; 4], at: &[usize]) -> [u64; 4] {
        let mut out = [0u64; 4];
        for &i in at {
            out[i / 64] |= 1 << (i % 64);
        }
        for (o, b) in out.iter_mut().zip(bits) {
            *o &= b;
        }
        out
    }

    proptest::proptest! {
        /// The word-set bound is its definition, whatever order it checks in: at most
        /// [`MAX_MISSING_WORDS`] bits of the shorter text's words missing from the longer
        /// one's, and none of its exact words (one when it was cut short).
        #[test]
        fn the_word_set_bound_counts_the_missing_bits(
            at in proptest::collection::vec(0usize..256, 1..30),
            exact_of in proptest::collection::vec(0usize..30, 0..8),
            dropped_of in proptest::collection::vec(0usize..30, 0..7),
            added in proptest::collection::vec(0usize..256, 0..10),
            cut in proptest::bool::ANY,
        ) {
            // Exact words are some of the text's words; the longer text lacks some of
            // them (which may be exact ones) and has others.
            let pick = |of: &[usize]| -> Vec<usize> { of.iter().map(|&i| at[i % at.len()]).collect() };
            let words = bits_of(&[u64::MAX; 4], &at);
            let exact = bits_of(&words, &pick(&exact_of));
            let mut long = words;
            for i in pick(&dropped_of) {
                long[i / 64] &= !(1 << (i % 64));
            }
            for i in added {
                long[i / 64] |= 1 << (i % 64);
            }
            let missing = |b: &[u64; 4]| -> u32 {
                b.iter().zip(&long).map(|(x, y)| (x & !y).count_ones()).sum()
            };
            let defined = missing(&words) <= MAX_MISSING_WORDS && missing(&exact) <= u32::from(cut);
            proptest::prop_assert_eq!(word_sets_may_match(&words, &exact, cut, &long), defined);
        }

        /// The quick bound reads three quarters of an entry's exact-word bits, so it may
        /// keep a pair the full bounds reject, never the other way round.
        #[test]
        fn the_quick_bound_keeps_every_pair_the_full_bounds_keep(
            a_words in 0usize..12,
            e_words in 0usize..12,
            a_cut in proptest::bool::ANY,
            e_cut in proptest::bool::ANY,
            a_word_bits in proptest::array::uniform4(proptest::num::u64::ANY),
            flips in proptest::collection::vec(0usize..256, 0..8),
            a_exact_at in proptest::collection::vec(0usize..256, 0..6),
            e_exact_at in proptest::collection::vec(0usize..256, 0..6),
        ) {
            // The entry's words are the text's with a few changed, so that many pairs
            // pass; exact words are among each text's own words.
            let mut e_word_bits = a_word_bits;
            for i in flips {
                e_word_bits[i / 64] ^= 1 << (i % 64);
            }
            let a = Bits {
                words: a_words,
                word_bits: &a_word_bits,
                exact_bits: bits_of(&a_word_bits, &a_exact_at),
                cut: a_cut,
            };
            let e_exact = bits_of(&e_word_bits, &e_exact_at);
            let e = Bits {
                words: e_words,
                word_bits: &e_word_bits,
                exact_bits: e_exact,
                cut: e_cut,
            };
            let quick = Quick {
                words: e_words,
                word_bits: &e_word_bits,
                exact_low: &[e_exact[0], e_exact[1], e_exact[2]],
                cut: e_cut,
            };
            if may_be_similar(a, e) {
                proptest::prop_assert!(may_be_similar_quick(a, quick));
            }
        }
    }

    #[test]
    fn the_quick_bound_is_the_full_one_but_for_the_entrys_last_exact_bits() {
        let words = [u64::MAX, 0, 0, 0];
        let long = [u64::MAX, 0, 0, 1 << 5];
        let text = Bits {
            words: 9,
            word_bits: &words,
            exact_bits: [1, 0, 0, 0],
            cut: false,
        };
        // The entry is the shorter, with an exact word the text lacks: in its first
        // three quarters both bounds reject it, in its last only the full one does.
        for (exact, quick_keeps) in [([0, 1 << 7, 0, 0], false), ([0, 0, 0, 1 << 5], true)] {
            let word_bits = [1u64, exact[1], 0, exact[3]];
            let entry = Bits {
                words: 6,
                word_bits: &word_bits,
                exact_bits: exact,
                cut: false,
            };
            let quick = Quick {
                words: 6,
                word_bits: &word_bits,
                exact_low: &[exact[0], exact[1], exact[2]],
                cut: false,
            };
            assert!(!may_be_similar(text, entry));
            assert_eq!(may_be_similar_quick(text, quick), quick_keeps);
        }
        // The text the shorter: both read the entry's words alone, and agree.
        let longer = Quick {
            words: 20,
            word_bits: &long,
            exact_low: &[0, 0, 0],
            cut: false,
        };
        assert!(may_be_similar_quick(text, longer));
        let entry = Bits {
            words: 20,
            word_bits: &long,
            exact_bits: [0, 0, 0, 1 << 5],
            cut: false,
        };
        assert!(may_be_similar(text, entry));
    }

    #[test]
    fn a_fact_gram_is_the_hash_of_the_marked_word_at_any_length() {
        for n in [0, 1, 62, 63, 64, 200] {
            let w = "é".repeat(n / 2) + &"a".repeat(n % 2);
            let want = xxhash_rust::xxh3::xxh3_64(format!("#{w}").as_bytes()) as u32;
            assert_eq!(fact_gram(&w), want, "{} bytes", w.len());
        }
    }

    fn same(a: &str, b: &str) -> bool {
        similarity(&features(a), &features(b), DEFAULT_THRESHOLD).is_some()
    }

    #[test]
    fn edits_of_one_photograph_match() {
        // cut short
        assert!(same(
            BASE,
            "A man walks past a damaged building in the rebel-held town of Douma, Syria, May 3, 2016. Residents say the...more"
        ));
        assert!(same(
            BASE,
            "A man walks past a damaged building in the rebel-held town of Dou…"
        ));
        // re-credited
        assert!(same(
            BASE,
            "A man walks past a damaged building in the rebel-held town of Douma, Syria, May 3, 2016. Residents say the area was shelled overnight. Rami Haddad/AFP/Getty Images"
        ));
        // typo fixed
        assert!(same(
            BASE,
            "A man walks past a damaged bulding in the rebel-held town of Douma, Syira, May 3, 2016. (Photo by Rami Haddad/AFP Photo)"
        ));
        // background appended, entities left in, quotes changed
        assert!(same(
            BASE,
            "A man walks past a damaged building in the rebel&#8209;held town of Douma, Syria, May 3, 2016. The war has killed hundreds of thousands. (Photo by Rami Haddad/AFP Photo)"
        ));
    }

    #[test]
    fn different_photographs_do_not_match() {
        assert!(!same(
            BASE,
            "A man walks past a damaged building in the rebel-held town of Harasta, Syria, May 3, 2016. (Photo by Rami Haddad/AFP Photo)"
        ));
        assert!(!same(
            BASE,
            "A man walks past a damaged building in the rebel-held town of Douma, Syria, May 4, 2016. (Photo by Rami Haddad/AFP Photo)"
        ));
        let background = "The conflict, which began with protests in 2011, has killed more than 400,000 people and displaced more than half of the country's pre-war population, according to monitors, while aid agencies say millions of people inside the country depend on deliveries of food, water and medicine that reach besieged areas only rarely and after long negotiations between the warring sides and the United Nations.";
        let a = format!(
            "Children queue for bread outside a bakery in Aleppo, Syria, July 12, 2016. {background} (Photo by X/AFP)"
        );
        let b = format!(
            "A woman carries water through a flooded street in Idlib, Syria, August 2, 2016. {background} (Photo by Y/AFP)"
        );
        assert!(
            !same(&a, &b),
            "a shared background paragraph does not make one photograph"
        );
    }

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

    #[test]
    fn edit_distance_counts_transpositions() {
        assert_eq!(edit_distance("explosion", "expolsion", 2), 1);
        assert_eq!(edit_distance("syria", "syira", 2), 1);
        assert_eq!(edit_distance("aleppo", "homs", 2), 3);
        assert_eq!(edit_distance("dūmā", "duma", 2), 2);
        assert_eq!(edit_distance("", "ab", 2), 2);
    }

    #[test]
    fn truncation_and_credit_detection() {
        assert_eq!(
            strip_truncation("A man walks...more"),
            ("A man walks", true)
        );
        assert_eq!(strip_truncation("A man walks."), ("A man walks.", false));
        assert!(has_credit("A man. (Photo by X/AFP)"));
        assert!(has_credit("A man. REUTERS/Khalil Ashawi"));
        assert!(!has_credit("A man walks in Aleppo."));
        // Multi-byte characters where the tail starts (a regression: a byte slice there panicked).
        let long = format!(
            "{}Tajura’, Libya. Photo: Hana Nasser/Sample Wire",
            "x".repeat(25)
        );
        assert!(has_credit(&long));
    }
}
