//! Compact storage for the near-duplicate index, which holds every representative a
//! caption has had: their features in arenas ([`Entries`]), and the LSH key table
//! ([`KeyTable`]: how many distinct texts had each key, and the entries each key finds) as
//! sorted runs per shard of the key space with a small map of what changed since.
//!
//! Per entry this keeps about 110 bytes of fixed fields plus 4 bytes per bigram and the
//! identity's words, where a [`Features`] value took about 270 bytes inline and two
//! allocations; per key, 14 bytes in its run (and under a byte of directory) plus 4 per entry it finds, where two hash
//! maps (counts, buckets) took 16 bytes a slot each, with hash-table slack on top.

use rustc_hash::FxHashMap;

use crate::near::Features;

/// The features [`crate::similarity`] reads, borrowed from a [`Features`] or an
/// [`Entries`] arena.
#[derive(Debug, Clone, Copy)]
pub(crate) struct FeatRef<'a> {
    pub words: usize,
    pub bigrams: &'a [u32],
    /// Distinct lower-case words, sorted, separated by single spaces.
    pub vocab: &'a str,
    pub last_word: Option<&'a str>,
    pub word_bits: &'a [u64; 4],
    pub exact_bits: &'a [u64; 4],
    pub truncated: bool,
    pub credited: bool,
    pub len: usize,
}

/// What the quick bounds of a check read of a text ([`crate::near::may_be_similar`]):
/// all in an entry's fixed fields, so a candidate they reject is never read further.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Bits<'a> {
    pub words: usize,
    pub word_bits: &'a [u64; 4],
    pub exact_bits: &'a [u64; 4],
    /// Whether the text was cut short (its last word may be a part).
    pub cut: bool,
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

/// Bigram hashes of every entry, in chunks.
#[derive(Debug, Default)]
struct Numbers(Vec<Vec<u32>>);

impl Numbers {
    fn push(&mut self, items: &[u32]) -> Slice {
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

    fn get(&self, s: Slice) -> &[u32] {
        &self.0[s.chunk as usize][s.start as usize..(s.start + s.len) as usize]
    }
}

/// Words of every entry, in chunks.
#[derive(Debug, Default)]
struct Texts(Vec<String>);

impl Texts {
    fn push(&mut self, text: &str) -> Slice {
        let fits = self
            .0
            .last()
            .is_some_and(|c| c.capacity() - c.len() >= text.len());
        if !fits {
            self.0.push(String::with_capacity(CHUNK.max(text.len())));
        }
        let chunk = self.0.len() - 1;
        let c = &mut self.0[chunk];
        let start = c.len();
        c.push_str(text);
        Slice {
            chunk: chunk as u32,
            start: start as u32,
            len: text.len() as u32,
        }
    }

    fn get(&self, s: Slice) -> &str {
        &self.0[s.chunk as usize][s.start as usize..(s.start + s.len) as usize]
    }
}

/// The fixed fields of one entry.
#[derive(Debug, Clone, Copy)]
struct Head {
    word_bits: [u64; 4],
    exact_bits: [u64; 4],
    bigrams: Slice,
    vocab: Slice,
    words: u32,
    len: u32,
    /// Where the cut-short last word lies in `vocab` (`u32::MAX`: not cut short).
    last_at: u32,
    last_len: u32,
    truncated: bool,
    credited: bool,
}

/// The features of many entries, numbered from 0 in the order pushed.
#[derive(Debug, Default)]
pub(crate) struct Entries {
    heads: Vec<Head>,
    bigrams: Numbers,
    vocab: Texts,
}

impl Entries {
    pub fn len(&self) -> usize {
        self.heads.len()
    }

    pub fn push(&mut self, f: &Features) {
        let vocab = f.vocab.as_str();
        let (last_at, last_len) = match f.last_word.as_deref() {
            Some(w) => match word_offset(vocab, w) {
                Some(at) => (at as u32, w.len() as u32),
                // Not among the words (it always is): keep the entry cut short, with
                // no last word to start others.
                None => (u32::MAX - 1, 0),
            },
            None => (u32::MAX, 0),
        };
        let head = Head {
            word_bits: f.word_bits,
            exact_bits: f.exact_bits,
            bigrams: self.bigrams.push(&f.bigrams),
            vocab: self.vocab.push(vocab),
            words: u32::try_from(f.words).unwrap_or(u32::MAX),
            len: u32::try_from(f.len).unwrap_or(u32::MAX),
            last_at,
            last_len,
            truncated: f.truncated,
            credited: f.credited,
        };
        self.heads.push(head);
    }

    /// [`FeatRef::bits`] of entry `e`, from its fixed fields alone.
    pub fn bits(&self, e: usize) -> Bits<'_> {
        let h = &self.heads[e];
        Bits {
            words: h.words as usize,
            word_bits: &h.word_bits,
            exact_bits: &h.exact_bits,
            cut: h.last_at != u32::MAX,
        }
    }

    pub fn get(&self, e: usize) -> FeatRef<'_> {
        let h = &self.heads[e];
        let vocab = self.vocab.get(h.vocab);
        let last_word = match h.last_at {
            u32::MAX => None,
            at if at == u32::MAX - 1 => Some(""),
            // (Always a word of `vocab`: `push` found it there.)
            at => Some(
                vocab
                    .get(at as usize..(at + h.last_len) as usize)
                    .unwrap_or(""),
            ),
        };
        FeatRef {
            words: h.words as usize,
            bigrams: self.bigrams.get(h.bigrams),
            vocab,
            last_word,
            word_bits: &h.word_bits,
            exact_bits: &h.exact_bits,
            truncated: h.truncated,
            credited: h.credited,
            len: h.len as usize,
        }
    }
}

/// The byte offset of `w` as a whole word of `vocab` (words separated by spaces).
fn word_offset(vocab: &str, w: &str) -> Option<usize> {
    let mut at = 0;
    for word in vocab.split(' ') {
        if word == w {
            return Some(at);
        }
        at += word.len() + 1;
    }
    None
}

/// What changed for one key since its shard's run was made: distinct texts counted,
/// entries added.
#[derive(Debug, Clone, Default)]
pub(crate) struct KeyChange {
    pub count: u8,
    pub ids: Vec<u32>,
}

/// Bits of the key that pick its shard.
const SHARD_BITS: u32 = 6;

/// Per LSH key: distinct texts that had it (saturating) and the entries it finds.
#[derive(Debug)]
pub(crate) struct KeyTable {
    shards: Vec<Shard>,
}

impl Default for KeyTable {
    fn default() -> Self {
        KeyTable {
            shards: (0..1 << SHARD_BITS).map(|_| Shard::default()).collect(),
        }
    }
}

/// One shard: a run sorted by key, and the changes since it was made.
#[derive(Debug, Default)]
struct Shard {
    keys: Vec<u64>,
    /// Where the run's keys start by their first `dir_bits` bits after the shard's:
    /// the keys of slot `j` are `keys[dir[j]..dir[j + 1]]` (a few, as the keys are
    /// hashes), so finding a key reads one or two cache lines where a binary search over
    /// the whole run missed the cache at each of its first steps.
    dir: Vec<u32>,
    dir_bits: u32,
    counts: Vec<u8>,
    /// Where each key's entries start in `ids` (they run to the next key's start).
    starts: Vec<u32>,
    ids: Vec<u32>,
    recent: FxHashMap<u64, KeyChange>,
}

impl Shard {
    fn find(&self, key: u64) -> Option<usize> {
        let j = slot_of(key, self.dir_bits);
        let (Some(&lo), Some(&hi)) = (self.dir.get(j), self.dir.get(j + 1)) else {
            return self.keys.binary_search(&key).ok();
        };
        let (lo, hi) = (lo as usize, hi as usize);
        self.keys[lo..hi].binary_search(&key).ok().map(|i| lo + i)
    }

    /// Rebuilds [`Shard::dir`] for the run, with about four to eight keys a slot.
    fn index_run(&mut self) {
        let n = self.keys.len();
        let bits = (n / 4).max(1).ilog2().min(32 - SHARD_BITS);
        let slots = 1usize << bits;
        let mut dir = Vec::with_capacity(slots + 1);
        let mut i = 0;
        for j in 0..slots {
            while i < n && slot_of(self.keys[i], bits) < j {
                i += 1;
            }
            dir.push(i as u32);
        }
        dir.push(n as u32);
        self.dir = dir;
        self.dir_bits = bits;
    }

    fn run_ids(&self, i: usize) -> &[u32] {
        let end = self
            .starts
            .get(i + 1)
            .map_or(self.ids.len(), |&s| s as usize);
        &self.ids[self.starts[i] as usize..end]
    }

    /// Merges `recent` into the run.
    fn compact(&mut self) {
        let mut recent: Vec<(u64, KeyChange)> =
            std::mem::take(&mut self.recent).into_iter().collect();
        recent.sort_unstable_by_key(|(k, _)| *k);
        let n = self.keys.len() + recent.len();
        let mut keys = Vec::with_capacity(n);
        let mut counts = Vec::with_capacity(n);
        let mut starts = Vec::with_capacity(n);
        let added: usize = recent.iter().map(|(_, c)| c.ids.len()).sum();
        let mut ids = Vec::with_capacity(self.ids.len() + added);
        let mut changes = recent.into_iter().peekable();
        let mut i = 0;
        loop {
            let run_key = self.keys.get(i).copied();
            let change_key = changes.peek().map(|(k, _)| *k);
            let (key, count, from_run, change) = match (run_key, change_key) {
                (None, None) => break,
                (Some(r), Some(c)) if r == c => {
                    let (_, ch) = changes.next().unwrap_or_default();
                    (
                        r,
                        self.counts[i].saturating_add(ch.count),
                        Some(i),
                        Some(ch),
                    )
                }
                (Some(r), c) if c.is_none_or(|c| r < c) => (r, self.counts[i], Some(i), None),
                _ => {
                    let (k, ch) = changes.next().unwrap_or_default();
                    (k, ch.count, None, Some(ch))
                }
            };
            keys.push(key);
            counts.push(count);
            starts.push(ids.len() as u32);
            if let Some(r) = from_run {
                ids.extend_from_slice(self.run_ids(r));
                i += 1;
            }
            if let Some(ch) = change {
                ids.extend_from_slice(&ch.ids);
            }
        }
        self.keys = keys;
        self.counts = counts;
        self.starts = starts;
        self.ids = ids;
        self.index_run();
    }
}

/// The directory slot of `key` among `2^bits` ([`Shard::dir`]): its first `bits` bits
/// after those that pick the shard.
fn slot_of(key: u64, bits: u32) -> usize {
    if bits == 0 {
        return 0;
    }
    ((key << SHARD_BITS) >> (64 - bits)) as usize
}

impl KeyTable {
    fn shard(&self, key: u64) -> &Shard {
        &self.shards[(key >> (64 - SHARD_BITS)) as usize]
    }

    /// Distinct texts counted under `key`.
    pub fn count(&self, key: u64) -> u32 {
        let s = self.shard(key);
        let run = s.find(key).map_or(0, |i| u32::from(s.counts[i]));
        run + s.recent.get(&key).map_or(0, |c| u32::from(c.count))
    }

    /// Calls `f` with each entry `key` finds.
    pub fn for_each_id(&self, key: u64, mut f: impl FnMut(u32)) {
        let s = self.shard(key);
        if let Some(i) = s.find(key) {
            s.run_ids(i).iter().copied().for_each(&mut f);
        }
        if let Some(c) = s.recent.get(&key) {
            c.ids.iter().copied().for_each(f);
        }
    }

    /// Records what changed for `key`; entries in the order they were added.
    pub fn apply(&mut self, key: u64, change: KeyChange) {
        let s = &mut self.shards[(key >> (64 - SHARD_BITS)) as usize];
        let c = s.recent.entry(key).or_default();
        c.count = c.count.saturating_add(change.count);
        c.ids.extend(change.ids);
    }

    /// Folds the recent changes of every shard where they have grown into its run (a
    /// sixteenth of it, past a few thousand keys), one shard at a time.
    pub fn compact(&mut self) {
        for s in &mut self.shards {
            if s.recent.len() > 4096 + s.keys.len() / 16 {
                s.compact();
            }
        }
    }

    /// Distinct keys held.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.shards
            .iter()
            .map(|s| s.keys.len() + s.recent.keys().filter(|k| s.find(**k).is_none()).count())
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_answers_like_a_map_through_compactions() {
        let mut table = KeyTable::default();
        let mut want: FxHashMap<u64, (u32, Vec<u32>)> = FxHashMap::default();
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for round in 0..40_000u32 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Few distinct keys, so keys recur across compactions.
            let key = (x % 9_000).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            let ids = if round % 3 == 0 { vec![round] } else { vec![] };
            let w = want.entry(key).or_default();
            w.0 += 1;
            w.1.extend(&ids);
            table.apply(key, KeyChange { count: 1, ids });
            if round % 1000 == 999 {
                table.compact();
            }
        }
        for s in &mut table.shards {
            s.compact();
        }
        assert_eq!(table.len(), want.len());
        for (k, (count, ids)) in &want {
            assert_eq!(table.count(*k), (*count).min(255), "count of {k}");
            let mut got = Vec::new();
            table.for_each_id(*k, |e| got.push(e));
            assert_eq!(&got, ids, "entries of {k}");
        }
        assert_eq!(table.count(12345), 0);
        // Keys next to held ones (same directory slot) are not found.
        for k in want.keys() {
            for near in [k.wrapping_add(1), k.wrapping_sub(1)] {
                if !want.contains_key(&near) {
                    assert_eq!(table.count(near), 0, "count of {near}");
                }
            }
        }
        assert!(table.shards.iter().any(|s| s.dir_bits > 0));
    }

    #[test]
    fn entries_read_back_what_was_pushed() {
        let texts = [
            "A man walks past a damaged building in Douma, Syria, May 3, 2016.",
            "A boy rides a bicycle along a destroyed road in Homs, Syria, June 1, 2015...more",
            "Children queue for bread outside a bakery in Aleppo, Syria, July 12, 2016. (Photo by X/AFP)",
        ];
        let mut entries = Entries::default();
        let fs: Vec<Features> = texts.iter().map(|t| crate::features(t)).collect();
        for f in &fs {
            entries.push(f);
        }
        for (i, f) in fs.iter().enumerate() {
            let got = entries.get(i);
            let want = f.as_ref();
            assert_eq!(got.words, want.words);
            assert_eq!(got.bigrams, want.bigrams);
            assert_eq!(got.vocab, want.vocab);
            assert_eq!(got.last_word, want.last_word);
            assert_eq!(got.word_bits, want.word_bits);
            assert_eq!(got.exact_bits, want.exact_bits);
            assert_eq!(
                (got.truncated, got.credited, got.len),
                (want.truncated, want.credited, want.len)
            );
        }
        assert!(entries.get(1).last_word.is_some());
    }
}
