//! Where the records a later revisit may name are: 64-bit hashes of their keys (record
//! id, payload digest) to their offsets, in sixteen bytes an entry, since a crawl file
//! holds a million records and a hash table would take twice that.

use std::hash::{DefaultHasher, Hash, Hasher};

/// Entries looked through one by one before they are merged into the sorted ones.
const TAIL: usize = 4096;

/// Keys to the offset of the first record that had them.
#[derive(Default)]
pub(super) struct Index {
    /// (hash, offset), sorted.
    sorted: Vec<(u64, u64)>,
    /// (hash, offset) added since, in the order of the file.
    tail: Vec<(u64, u64)>,
}

/// A 64-bit hash of a key: a record found by it is checked against the key itself.
fn key_hash(key: &str) -> u64 {
    let mut h = DefaultHasher::new();
    key.hash(&mut h);
    h.finish()
}

impl Index {
    /// Notes that the record at `offset` has `key`; offsets come in increasing order.
    pub fn insert(&mut self, key: &str, offset: u64) {
        self.tail.push((key_hash(key), offset));
    }

    /// The offset of the first record noted with `key`'s hash.
    pub fn get(&mut self, key: &str) -> Option<u64> {
        let h = key_hash(key);
        if self.tail.len() > TAIL {
            // Two sorted runs: the stable sort merges them in one pass.
            self.tail.sort_unstable();
            self.sorted.append(&mut self.tail);
            self.sorted.sort();
            self.tail.shrink_to(TAIL);
        }
        let i = self.sorted.partition_point(|e| e.0 < h);
        if let Some(&(k, at)) = self.sorted.get(i)
            && k == h
        {
            return Some(at);
        }
        self.tail.iter().find(|e| e.0 == h).map(|e| e.1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_record_with_a_key_is_found_however_many_follow() {
        let mut ix = Index::default();
        for i in 0..10_000u64 {
            ix.insert(&format!("k{}", i % 3_000), i * 10);
        }
        assert_eq!(ix.get("k5"), Some(50));
        assert_eq!(ix.get("k2999"), Some(29_990));
        ix.insert("late", 200_000);
        assert_eq!(ix.get("late"), Some(200_000));
        assert_eq!(ix.get("absent"), None);
    }
}
