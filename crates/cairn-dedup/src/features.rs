//! What a caption is compared by: the words of its identity sentence, their bigrams (with
//! extra weight on fact words), bit sets that bound a comparison cheaply, a MinHash
//! signature and its LSH band keys.

use crate::identity::{
    decode_entities, has_credit, identity_of_normalized, strip_truncation, words,
};

/// Hash functions in a signature.
pub const HASHES: usize = 30;
/// Rows per LSH band.
pub const ROWS: usize = 3;
/// LSH bands (`HASHES / ROWS`).
pub const BANDS: usize = HASHES / ROWS;
/// Fewest identity words for a near-duplicate match (shorter captions match exactly only).
pub(crate) const MIN_WORDS: usize = 5;
/// Words of the identity that make the prefix key (catches cut-short copies directly).
const PREFIX_WORDS: usize = 10;

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

// Stays whole: it runs once per caption on the dedup hot path, and split into steps it ran slower.
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

/// Edits a word may differ by and still match (see [`word_matches`]).
pub(crate) fn typos_allowed(k: &str) -> usize {
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
pub(crate) fn typo_allowed(k: &str) -> bool {
    typos_allowed(k) > 0
}

/// The bit of a lower-case word's hash in [`Features::word_bits`].
pub(crate) fn word_hash_bit(h: u64) -> usize {
    (h >> 56) as usize // 0..256
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
