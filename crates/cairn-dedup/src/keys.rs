//! The LSH key table of the near-duplicate index: per key, how many distinct texts had it
//! and the entries it finds, kept as sorted runs per shard of the key space with a small
//! map of what changed since each run was made, so that a million keys cost bytes each
//! rather than hash-table slots.

use rustc_hash::FxHashMap;

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

/// The end of a key's entries (in order) from the first numbered `from` or more.
pub(crate) fn ids_from(ids: &[u32], from: u32) -> &[u32] {
    debug_assert!(ids.is_sorted(), "a key's entries out of order");
    if from == 0 {
        return ids;
    }
    &ids[ids.partition_point(|&e| e < from)..]
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

    /// Calls `f` with each entry `key` finds (what [`KeyTable::for_each_id_of`] does for
    /// many keys, and is tested against).
    #[cfg(test)]
    pub fn for_each_id(&self, key: u64, mut f: impl FnMut(u32)) {
        let s = self.shard(key);
        if let Some(i) = s.find(key) {
            s.run_ids(i).iter().copied().for_each(&mut f);
        }
        if let Some(c) = s.recent.get(&key) {
            c.ids.iter().copied().for_each(f);
        }
    }

    /// [`KeyTable::for_each_id`] of each of `keys` in turn, with the same calls for the
    /// entries numbered `from` or more, but each step of the lookups (directory slot, the
    /// slot's keys, the key's start, its entries) asked of the cache for every key before
    /// any is read, so that the keys' cache misses overlap instead of coming one after
    /// another. A key's entries are in the order they were added, which is their order by
    /// number: the first at `from` or past it is found by bisection (a lookup after a
    /// probe wants only the few entries made since, of keys that find a hundred or more).
    /// Each key's [`KeyTable::count`] is written to `counts` (as long as `keys`) on the way.
    pub fn for_each_id_of(
        &self,
        keys: &[u64],
        from: u32,
        counts: &mut [u32],
        mut f: impl FnMut(u32),
    ) {
        use prefetch_index::prefetch_index;
        const AT_ONCE: usize = 16;
        for (keys, counts) in keys.chunks(AT_ONCE).zip(counts.chunks_mut(AT_ONCE)) {
            for &k in keys {
                let s = self.shard(k);
                let j = slot_of(k, s.dir_bits);
                if j < s.dir.len() {
                    prefetch_index(&s.dir, j);
                }
            }
            for &k in keys {
                let s = self.shard(k);
                let j = slot_of(k, s.dir_bits);
                if let (Some(&lo), Some(&hi)) = (s.dir.get(j), s.dir.get(j + 1))
                    && lo < hi
                {
                    prefetch_index(&s.keys, lo as usize);
                    prefetch_index(&s.keys, hi as usize - 1);
                }
            }
            let mut found = [None; AT_ONCE];
            for (at, &k) in found.iter_mut().zip(keys) {
                let s = self.shard(k);
                *at = s.find(k);
                if let Some(i) = *at {
                    prefetch_index(&s.starts, i);
                    prefetch_index(&s.counts, i);
                }
            }
            for (&at, &k) in found.iter().zip(keys) {
                let s = self.shard(k);
                if let Some(i) = at
                    && let Some(&start) = s.starts.get(i)
                    && (start as usize) < s.ids.len()
                {
                    prefetch_index(&s.ids, start as usize);
                }
            }
            for ((&at, &k), count) in found.iter().zip(keys).zip(counts.iter_mut()) {
                let s = self.shard(k);
                *count = 0;
                if let Some(i) = at {
                    *count = u32::from(s.counts[i]);
                    ids_from(s.run_ids(i), from)
                        .iter()
                        .copied()
                        .for_each(&mut f);
                }
                if let Some(c) = s.recent.get(&k) {
                    *count += u32::from(c.count);
                    ids_from(&c.ids, from).iter().copied().for_each(&mut f);
                }
            }
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
        // Many keys at once make the same calls as one after another, with absent keys
        // and more keys than one round of the batched lookup takes among them.
        let mut keys: Vec<u64> = want.keys().copied().take(40).collect();
        keys.splice(3..3, [12345, u64::MAX, 0]);
        let (mut one, mut many) = (Vec::new(), Vec::new());
        for k in &keys {
            table.for_each_id(*k, |e| one.push(e));
        }
        let mut counts = vec![u32::MAX; keys.len()];
        table.for_each_id_of(&keys, 0, &mut counts, |e| many.push(e));
        assert!(one.len() > 40);
        assert_eq!(many, one);
        let counted: Vec<u32> = keys.iter().map(|&k| table.count(k)).collect();
        assert_eq!(counts, counted);
        // From an entry on: the same calls, less those of earlier entries.
        for from in [1, 5_000, 20_001, 39_999, 40_000] {
            let mut later = Vec::new();
            table.for_each_id_of(&keys, from, &mut counts, |e| later.push(e));
            let expected: Vec<u32> = one.iter().copied().filter(|&e| e >= from).collect();
            assert_eq!(later, expected, "entries from {from}");
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
}
