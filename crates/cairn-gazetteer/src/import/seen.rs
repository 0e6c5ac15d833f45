//! The geonameids an import has kept, in a set whose size follows the places kept,
//! never the rows read: a dump that repeats one row costs one bit.

use rustc_hash::FxHashSet;

/// Ids below this are bits of a vector, which grows only as far as the largest such id
/// met; GeoNames numbers its places densely from 1, so a whole dump fits there in a few
/// megabytes. Larger ids, which no real dump has many of, go to a hash set.
const DENSE: u64 = 1 << 27;

/// A set of geonameids.
#[derive(Default)]
pub(super) struct IdSet {
    bits: Vec<u64>,
    sparse: FxHashSet<u64>,
    len: usize,
}

impl IdSet {
    /// Whether `id` is in the set.
    pub(super) fn contains(&self, id: u64) -> bool {
        if id < DENSE {
            let (word, bit) = ((id / 64) as usize, id % 64);
            self.bits.get(word).is_some_and(|w| w & (1 << bit) != 0)
        } else {
            self.sparse.contains(&id)
        }
    }

    /// Adds `id`; false when it was there already.
    pub(super) fn insert(&mut self, id: u64) -> bool {
        let added = if id < DENSE {
            let (word, bit) = ((id / 64) as usize, id % 64);
            if word >= self.bits.len() {
                self.bits.resize(word + 1, 0);
            }
            let was = self.bits[word] & (1 << bit) != 0;
            self.bits[word] |= 1 << bit;
            !was
        } else {
            self.sparse.insert(id)
        };
        self.len += usize::from(added);
        added
    }

    /// How many ids the set holds.
    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// The bytes the set holds on the heap, for the tests that bound it.
    #[cfg(test)]
    pub(super) fn heap_bytes(&self) -> usize {
        self.bits.capacity() * 8 + self.sparse.capacity() * 9
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_dense_and_sparse_are_kept_once() {
        let mut s = IdSet::default();
        for id in [1, 64, 12_000_000, DENSE, u64::MAX] {
            assert!(!s.contains(id));
            assert!(s.insert(id));
            assert!(!s.insert(id));
            assert!(s.contains(id));
        }
        assert_eq!(s.len(), 5);
        assert!(!s.contains(2) && !s.contains(DENSE + 1));
    }

    #[test]
    fn one_id_repeated_costs_one_word() {
        let mut s = IdSet::default();
        for _ in 0..100_000 {
            s.insert(70);
        }
        assert_eq!(s.len(), 1);
        assert!(s.heap_bytes() <= 64, "{}", s.heap_bytes());
    }
}
