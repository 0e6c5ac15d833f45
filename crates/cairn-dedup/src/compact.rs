//! Compact storage for the near-duplicate index, which holds every representative a
//! caption has had: their features in arenas ([`Entries`]), and the LSH key table
//! ([`KeyTable`]: how many distinct texts had each key, and the entries each key finds) as
//! sorted runs per shard of the key space with a small map of what changed since.
//!
//! Per entry this keeps 104 bytes of fixed fields (64 of them, what the first bounds of a
//! check read, on a cache line of their own; a 64-bit set of its bigrams) and
//! a byte or two per word of its identity and per fact word (its number in a [`Dict`]
//! that holds each word's text and hash once), from which its bigrams are made again when
//! it is verified ([`Grams`]), where they took 4 bytes each (and a [`Features`] value
//! about 270 bytes inline and two allocations). Per key: 14 bytes in its run (and under a
//! byte of directory) plus 4 per entry it finds, where two hash maps (counts, buckets)
//! took 16 bytes a slot each, with hash-table slack on top.
//! The lists of entries grow by chunks ([`Arena`], [`Chunked`]), never by copying.

use crate::features::Features;

/// The features [`crate::similarity`] reads, borrowed from a [`Features`] or an
/// [`Entries`] arena.
#[derive(Debug, Clone, Copy)]
pub(crate) struct FeatRef<'a> {
    pub words: usize,
    pub grams: Grams<'a>,
    /// How many distinct bigrams `grams` has.
    pub gram_count: usize,
    /// [`crate::features::Features::gram_bits`].
    pub gram_bits: u64,
    /// Distinct lower-case words.
    pub vocab: Vocab<'a>,
    pub last_word: Option<&'a str>,
    pub word_bits: &'a [u64; 4],
    pub exact_bits: [u64; 4],
    pub truncated: bool,
    pub credited: bool,
    pub len: usize,
}

/// The bigrams of an identity, as a text's features hold them or as an entry does.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Grams<'a> {
    /// Sorted, distinct hashes.
    Hashes(&'a [u32]),
    /// Made again from the words: `words` the identity's word numbers in order,
    /// `facts` its fact words' numbers ascending, as gaps (both LEB128).
    Words {
        words: &'a [u8],
        facts: &'a [u8],
        dict: &'a Dict,
    },
}

impl<'a> Grams<'a> {
    /// The sorted, distinct hashes, made in `buf` when they are not held as such; the
    /// same as [`crate::features::features`] made them from the text.
    pub fn resolve<'b>(self, buf: &'b mut Vec<u32>) -> &'b [u32]
    where
        'a: 'b,
    {
        match self {
            Grams::Hashes(h) => h,
            Grams::Words { .. } => {
                buf.clear();
                self.for_each_made(|g| buf.push(g));
                buf.sort_unstable();
                buf.dedup();
                buf
            }
        }
    }

    /// Calls `f` with each bigram made from the words, in the order made, repeats
    /// included ([`Grams::resolve`] sorts them and drops the repeats); nothing for
    /// [`Grams::Hashes`].
    fn for_each_made(self, mut f: impl FnMut(u32)) {
        let Grams::Words { words, facts, dict } = self else {
            return;
        };
        let (mut prev, mut n) = (None, 0usize);
        for h in ids(words).filter_map(|id| dict.hash(id)) {
            if let Some(p) = prev {
                f(crate::features::pair_gram(p, h));
            }
            prev = Some(h);
            n += 1;
        }
        if let (1, Some(h)) = (n, prev) {
            f(crate::features::single_gram(h));
        }
        let mut next = 0u32;
        let mut rest = facts;
        while let Some((gap, r)) = read_gap(rest) {
            rest = r;
            let Some(id) = next.checked_add(gap) else {
                break;
            };
            next = id.saturating_add(1);
            if let Some(w) = dict.word(id) {
                f(crate::features::fact_gram(w));
            }
        }
    }

    /// How many of `held` (sorted, distinct: [`Grams::Hashes`] of another text, whose
    /// [`crate::features::Features::gram_bits`] are `bits`) these bigrams share. Made from
    /// words, the bigrams are looked up as they are made, each found one marked once in
    /// a bit set over `held`: no list to sort, as [`Grams::resolve`] needs.
    pub fn shared_with(self, held: &[u32], bits: u64) -> usize {
        match self {
            Grams::Hashes(own) => {
                let (mut i, mut j, mut shared) = (0, 0, 0usize);
                while i < own.len() && j < held.len() {
                    match own[i].cmp(&held[j]) {
                        std::cmp::Ordering::Less => i += 1,
                        std::cmp::Ordering::Greater => j += 1,
                        std::cmp::Ordering::Equal => {
                            shared += 1;
                            i += 1;
                            j += 1;
                        }
                    }
                }
                shared
            }
            Grams::Words { .. } => {
                let mut small = [0u64; 4];
                let mut large = Vec::new();
                let found: &mut [u64] = if held.len() <= 256 {
                    &mut small
                } else {
                    large.resize(held.len().div_ceil(64), 0);
                    &mut large
                };
                self.for_each_made(|g| {
                    if bits & crate::features::gram_bit(g) == 0 {
                        return;
                    }
                    if let Ok(i) = held.binary_search(&g) {
                        found[i / 64] |= 1 << (i % 64);
                    }
                });
                found.iter().map(|w| w.count_ones() as usize).sum()
            }
        }
    }
}

/// The LEB128 numbers of `bytes`, in order (a damaged end ends them).
fn ids(mut bytes: &[u8]) -> impl Iterator<Item = u32> + '_ {
    std::iter::from_fn(move || {
        let (v, rest) = read_gap(bytes)?;
        bytes = rest;
        Some(v)
    })
}

/// The words of an identity, as a text's features hold them or as an entry does.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Vocab<'a> {
    /// Distinct and sorted, separated by single spaces.
    Text(&'a str),
    /// Word numbers of `Dict` in the identity's order (LEB128), repeats included: the
    /// word check gives the same answer with a word twice as with it once.
    Ids(&'a [u8], &'a Dict),
}

impl<'a> Vocab<'a> {
    /// The words, each once (in no order the word check depends on).
    pub fn words(self) -> VocabWords<'a> {
        match self {
            Vocab::Text(t) => VocabWords::Text(t.split(' ')),
            Vocab::Ids(bytes, dict) => VocabWords::Ids { bytes, dict },
        }
    }
}

/// The iterator of [`Vocab::words`].
#[derive(Debug)]
pub(crate) enum VocabWords<'a> {
    Text(std::str::Split<'a, char>),
    Ids { bytes: &'a [u8], dict: &'a Dict },
}

impl<'a> Iterator for VocabWords<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        match self {
            VocabWords::Text(split) => split.find(|w| !w.is_empty()),
            VocabWords::Ids { bytes, dict } => {
                let (id, rest) = read_gap(bytes)?;
                *bytes = rest;
                dict.word(id)
            }
        }
    }
}

/// Appends `v` as LEB128 (seven bits a byte, low first; the high bit says more follow).
fn write_gap(out: &mut Vec<u8>, mut v: u32) {
    while v >= 0x80 {
        out.push((v as u8 & 0x7F) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// The LEB128 number `bytes` starts with, and what follows it.
fn read_gap(bytes: &[u8]) -> Option<(u32, &[u8])> {
    let mut v: u32 = 0;
    for (i, &b) in bytes.iter().enumerate().take(5) {
        v |= u32::from(b & 0x7F) << (7 * i);
        if b & 0x80 == 0 {
            return Some((v, &bytes[i + 1..]));
        }
    }
    None
}

/// Every distinct word of the entries, numbered in the order first met: an entry keeps
/// its words as numbers (a byte or two each) where the words themselves took about
/// seven bytes each, and each word's text is kept once for all entries.
#[derive(Debug, Default)]
pub(crate) struct Dict {
    text: String,
    /// Where word `i` starts in `text` (it ends where word `i + 1` starts).
    starts: Vec<usize>,
    /// The [`crate::features::word_hash`] of each word, which its bigrams are made of.
    hashes: Vec<u64>,
    /// Word numbers by the hash of their text.
    table: hashbrown::HashTable<u32>,
}

use crate::features::word_hash;

impl Dict {
    /// The text of word `id`.
    pub fn word(&self, id: u32) -> Option<&str> {
        let i = id as usize;
        let start = *self.starts.get(i)?;
        let end = self.starts.get(i + 1).copied().unwrap_or(self.text.len());
        self.text.get(start..end)
    }

    /// The [`crate::features::word_hash`] of word `id`.
    pub fn hash(&self, id: u32) -> Option<u64> {
        self.hashes.get(id as usize).copied()
    }

    /// The number of `w`, given it if it had none.
    fn intern(&mut self, w: &str) -> u32 {
        let Dict {
            text,
            starts,
            hashes,
            table,
        } = self;
        let word_of = |id: u32| -> &str {
            let i = id as usize;
            let end = starts.get(i + 1).copied().unwrap_or(text.len());
            &text[starts[i]..end]
        };
        let h = word_hash(w);
        if let Some(&id) = table.find(h, |&id| word_of(id) == w) {
            return id;
        }
        let id = u32::try_from(starts.len()).expect("fewer than 2^32 distinct words");
        table.insert_unique(h, id, |&id| hashes[id as usize]);
        starts.push(text.len());
        hashes.push(h);
        text.push_str(w);
        id
    }

    /// Distinct words held.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.starts.len()
    }
}

impl Features {
    /// What verification reads of these features (kept here, beside [`FeatRef`], so that
    /// the features know nothing of how the index stores them).
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

impl<'a> FeatRef<'a> {
    pub fn bits(self) -> Bits<'a> {
        Bits {
            words: self.words,
            word_bits: self.word_bits,
            exact_bits: self.exact_bits,
            cut: self.last_word.is_some(),
        }
    }
}

/// What the quick bounds of a check read of a text ([`crate::verify::may_be_similar`]):
/// all in an entry's fixed fields, so a candidate they reject is never read further.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Bits<'a> {
    pub words: usize,
    pub word_bits: &'a [u64; 4],
    pub exact_bits: [u64; 4],
    /// Whether the text was cut short (its last word may be a part).
    pub cut: bool,
}

/// Elements per arena chunk: an entry's slice never straddles chunks, so a chunk is
/// never moved once written, and growth never copies the whole arena.
const CHUNK: usize = 1 << 20;

/// Where an entry's slice lies in an arena.
#[derive(Debug, Clone, Copy, Default)]
struct Slice {
    chunk: u32,
    start: u32,
    len: u32,
}

/// Slices of every entry (word numbers), in chunks.
#[derive(Debug)]
struct Arena<T>(Vec<Vec<T>>);

impl<T> Default for Arena<T> {
    fn default() -> Self {
        Arena(Vec::new())
    }
}

impl<T: Copy> Arena<T> {
    fn push(&mut self, items: &[T]) -> Slice {
        let fits = self
            .0
            .last()
            .is_some_and(|c| c.capacity() - c.len() >= items.len());
        if !fits {
            self.0.push(Vec::with_capacity(CHUNK.max(items.len())));
        }
        let chunk = self.0.len() - 1;
        let c = &mut self.0[chunk];
        let start = c.len();
        c.extend_from_slice(items);
        Slice {
            chunk: chunk as u32,
            start: start as u32,
            len: items.len() as u32,
        }
    }

    fn get(&self, s: Slice) -> &[T] {
        &self.0[s.chunk as usize][s.start as usize..(s.start + s.len) as usize]
    }
}

/// Elements per chunk of a [`Chunked`] list.
const LIST_CHUNK: usize = 1 << 16;

/// A list that grows a chunk at a time and never moves what it holds: a `Vec` of the
/// index's size doubles by copying, which for a moment holds the old and the new
/// allocation (a few hundred megabytes at a million pages).
#[derive(Debug)]
pub(crate) struct Chunked<T> {
    chunks: Vec<Vec<T>>,
    len: usize,
}

impl<T> Default for Chunked<T> {
    fn default() -> Self {
        Chunked {
            chunks: Vec::new(),
            len: 0,
        }
    }
}

impl<T> Chunked<T> {
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn push(&mut self, x: T) {
        if self.len % LIST_CHUNK == 0 {
            self.chunks.push(Vec::with_capacity(LIST_CHUNK));
        }
        if let Some(c) = self.chunks.last_mut() {
            c.push(x);
            self.len += 1;
        }
    }

    pub fn get(&self, i: usize) -> Option<&T> {
        self.chunks.get(i / LIST_CHUNK)?.get(i % LIST_CHUNK)
    }
}

impl<T> std::ops::Index<usize> for Chunked<T> {
    type Output = T;

    fn index(&self, i: usize) -> &T {
        &self.chunks[i / LIST_CHUNK][i % LIST_CHUNK]
    }
}

impl<T> std::ops::IndexMut<usize> for Chunked<T> {
    fn index_mut(&mut self, i: usize) -> &mut T {
        &mut self.chunks[i / LIST_CHUNK][i % LIST_CHUNK]
    }
}

/// No word: the entry was not cut short ([`Head::last`]).
const NOT_CUT: u32 = u32::MAX;
/// Cut short, but the last word is not among its words (it always is).
const CUT_UNKNOWN: u32 = u32::MAX - 1;

/// What the first bound of a check reads of a candidate ([`Quick`]), one cache line,
/// aligned to one: most candidates stop there. At a million pages a probe meets a few
/// hundred, and reading them was most of its cost (the fixed fields were one 104-byte
/// struct, on two or three lines).
#[derive(Debug, Clone, Copy)]
#[repr(C, align(64))]
struct WordSets {
    word_bits: [u64; 4],
    /// The first three words of the exact-word bits (the last is in [`Head`]).
    exact_low: [u64; 3],
    /// The identity's word count (at most [`WORDS_MAX`]), and in the top bit whether it
    /// was cut short.
    words_cut: u32,
    /// The text's length.
    len: u32,
}

const _: () = assert!(std::mem::size_of::<WordSets>() == 64);

/// The word counts an entry keeps: more are kept as this many (no identity comes near).
const WORDS_MAX: u32 = (1 << 31) - 1;
const CUT_BIT: u32 = 1 << 31;

/// The other fixed fields of one entry.
#[derive(Debug, Clone, Copy)]
struct Head {
    gram_bits: u64,
    /// The last word of the exact-word bits.
    exact_high: u64,
    /// In `Entries::words`: the identity's word numbers in order, then its fact words'
    /// numbers, ascending, as gaps.
    at: Slice,
    /// Where the fact words start in `at` (bytes).
    facts_from: u32,
    /// The word number of the cut-short last word ([`NOT_CUT`], [`CUT_UNKNOWN`]).
    last: u32,
    /// Distinct bigrams ([`u16::MAX`] when there are as many or more: then counted when
    /// they are made).
    grams: u16,
    truncated: bool,
    credited: bool,
}

// The fixed fields' size, as the memory figures above and in `near.rs` give it: 104
// bytes in all, as when they were one struct.
const _: () = assert!(std::mem::size_of::<Head>() == 40);

/// What the first bound of a check reads of an entry ([`crate::verify::may_be_similar_quick`]):
/// its [`Bits`] but for the last quarter of its exact-word bits.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Quick<'a> {
    pub words: usize,
    pub word_bits: &'a [u64; 4],
    pub exact_low: &'a [u64; 3],
    pub cut: bool,
}

/// The features of many entries, numbered from 0 in the order pushed.
#[derive(Debug, Default)]
pub(crate) struct Entries {
    sets: Chunked<WordSets>,
    heads: Chunked<Head>,
    /// Each entry's word numbers in order, then its fact words' (LEB128): its words and
    /// bigrams are read from these.
    words: Arena<u8>,
    dict: Dict,
}

impl Entries {
    pub fn len(&self) -> usize {
        self.heads.len()
    }

    pub fn push(&mut self, f: &Features) {
        let mut bytes = Vec::with_capacity(f.words * 2);
        for w in f.sequence.split(' ').filter(|w| !w.is_empty()) {
            let id = self.dict.intern(w);
            write_gap(&mut bytes, id);
        }
        let mut facts: Vec<u32> = f
            .facts
            .split(' ')
            .filter(|w| !w.is_empty())
            .map(|w| self.dict.intern(w))
            .collect();
        facts.sort_unstable();
        facts.dedup();
        let words_len = bytes.len();
        let mut next = 0;
        for id in facts {
            write_gap(&mut bytes, id - next);
            next = id + 1;
        }
        let at = self.words.push(&bytes);
        let last = match f.last_word.as_deref() {
            // (Always one of the words: interned above.)
            Some(w) if f.vocab.contains(w) => self.dict.intern(w),
            // Keep the entry cut short, with no last word to start others.
            Some(_) => CUT_UNKNOWN,
            None => NOT_CUT,
        };
        let words = u32::try_from(f.words).unwrap_or(WORDS_MAX).min(WORDS_MAX);
        self.sets.push(WordSets {
            word_bits: f.word_bits,
            exact_low: [f.exact_bits[0], f.exact_bits[1], f.exact_bits[2]],
            words_cut: words | if last == NOT_CUT { 0 } else { CUT_BIT },
            len: u32::try_from(f.len).unwrap_or(u32::MAX),
        });
        let head = Head {
            exact_high: f.exact_bits[3],
            at,
            facts_from: words_len as u32,
            gram_bits: f.gram_bits,
            grams: u16::try_from(f.bigrams.len()).unwrap_or(u16::MAX),
            last,
            truncated: f.truncated,
            credited: f.credited,
        };
        self.heads.push(head);
    }

    /// Starts loading what [`Entries::quick`] reads of entry `e` (one cache line) into
    /// the cache, without waiting for it: a loop over candidates asks for those a few
    /// steps ahead, so that their cache misses overlap instead of coming one after another.
    pub fn prefetch(&self, e: usize) {
        if let Some(w) = self.sets.get(e) {
            prefetch_index::prefetch_index(std::slice::from_ref(w), 0);
        }
    }

    /// [`Entries::prefetch`] for the rest of entry `e`'s fixed fields, which
    /// [`Entries::get`] reads too.
    pub fn prefetch_rest(&self, e: usize) {
        if let Some(h) = self.heads.get(e) {
            prefetch_index::prefetch_index(std::slice::from_ref(h), 0);
        }
    }

    /// What the first bound of a check reads of entry `e`: one cache line.
    pub fn quick(&self, e: usize) -> Quick<'_> {
        let w = &self.sets[e];
        Quick {
            words: (w.words_cut & WORDS_MAX) as usize,
            word_bits: &w.word_bits,
            exact_low: &w.exact_low,
            cut: w.words_cut & CUT_BIT != 0,
        }
    }

    fn exact_bits(w: &WordSets, h: &Head) -> [u64; 4] {
        [w.exact_low[0], w.exact_low[1], w.exact_low[2], h.exact_high]
    }

    pub fn get(&self, e: usize) -> FeatRef<'_> {
        let (h, w) = (&self.heads[e], &self.sets[e]);
        let last_word = match h.last {
            NOT_CUT => None,
            CUT_UNKNOWN => Some(""),
            id => Some(self.dict.word(id).unwrap_or("")),
        };
        let (words, facts) = self.words.get(h.at).split_at(h.facts_from as usize);
        let grams = Grams::Words {
            words,
            facts,
            dict: &self.dict,
        };
        let gram_count = match h.grams {
            u16::MAX => grams.resolve(&mut Vec::new()).len(),
            n => usize::from(n),
        };
        FeatRef {
            words: (w.words_cut & WORDS_MAX) as usize,
            grams,
            gram_count,
            gram_bits: h.gram_bits,
            vocab: Vocab::Ids(words, &self.dict),
            last_word,
            word_bits: &w.word_bits,
            exact_bits: Self::exact_bits(w, h),
            truncated: h.truncated,
            credited: h.credited,
            len: w.len as usize,
        }
    }
}

#[cfg(test)]
#[path = "compact_tests.rs"]
mod tests;
