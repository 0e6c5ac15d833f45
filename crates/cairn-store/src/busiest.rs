//! The place most of a map cell's matches stand at, found in one pass and a few
//! words of memory: a map group is drawn there, at one of its members' places, where
//! the mean of far-apart members (Barcelona and Belgrade) can lie in the sea.
//!
//! The summary is Misra and Gries' frequent items: `SLOTS` counters, each holding a
//! place; a place met when every counter is taken lowers them all. A place of more
//! than a fifth of the cell's matches always keeps a counter, and the counter left
//! highest holds a place of more than three fifths of them; in any case it holds a
//! member's place. Summaries
//! of segments merge by adding one's counters to the other.

/// Counters kept per cell.
const SLOTS: usize = 4;

/// A place, as the index stores its latitude and longitude.
type Point = (f64, f64);

/// The frequent places of one cell's matches.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Busiest {
    slots: [(Point, u64); SLOTS],
    len: usize,
    /// The first place counted: the answer when the counters have cancelled out
    /// (as many places as counters and one more, each met as often).
    first: Option<Point>,
}

impl Busiest {
    /// Counts `weight` matches at `p`.
    #[inline]
    pub fn add(&mut self, p: Point, weight: u64) {
        self.first.get_or_insert(p);
        if let Some(s) = self.slots[..self.len].iter_mut().find(|s| s.0 == p) {
            s.1 += weight;
            return;
        }
        let mut weight = weight;
        if self.len == SLOTS {
            // Every counter taken: lower them all, and the newcomer, by the least.
            let least = self
                .slots
                .iter()
                .map(|s| s.1)
                .min()
                .unwrap_or(0)
                .min(weight);
            for s in &mut self.slots {
                s.1 -= least;
            }
            weight -= least;
            let mut kept = 0;
            for i in 0..SLOTS {
                if self.slots[i].1 > 0 {
                    self.slots[kept] = self.slots[i];
                    kept += 1;
                }
            }
            self.len = kept;
        }
        if weight > 0 && self.len < SLOTS {
            self.slots[self.len] = (p, weight);
            self.len += 1;
        }
    }

    /// Adds another segment's summary.
    pub fn merge(&mut self, o: &Busiest) {
        if let Some(p) = o.first {
            self.first.get_or_insert(p);
        }
        for &(p, n) in &o.slots[..o.len] {
            self.add(p, n);
        }
    }

    /// The place with the highest counter (among equals the southernmost, then the
    /// westernmost, so that the answer does not depend on the order segments merge).
    pub fn top(&self) -> Option<Point> {
        self.slots[..self.len]
            .iter()
            .max_by(|a, b| {
                a.1.cmp(&b.1)
                    .then(b.0.0.total_cmp(&a.0.0))
                    .then(b.0.1.total_cmp(&a.0.1))
            })
            .map(|s| s.0)
            .or(self.first)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const BARCELONA: Point = (41.39, 2.16);
    const BELGRADE: Point = (44.8, 20.47);
    const PRISTINA: Point = (42.67, 21.17);

    #[test]
    fn the_most_frequent_place_wins_not_the_mean() {
        let mut b = Busiest::default();
        for p in [BARCELONA, BELGRADE, BARCELONA, PRISTINA, BARCELONA] {
            b.add(p, 1);
        }
        assert_eq!(b.top(), Some(BARCELONA));
    }

    #[test]
    fn counters_that_cancel_out_still_give_a_member() {
        let mut b = Busiest::default();
        for i in 0..SLOTS + 1 {
            b.add((i as f64, 0.0), 1);
        }
        assert_eq!(b.top(), Some((0.0, 0.0)));
    }

    #[test]
    fn merged_summaries_find_the_same_place_in_any_order() {
        let (mut a, mut b) = (Busiest::default(), Busiest::default());
        for p in [BELGRADE, BELGRADE, PRISTINA] {
            a.add(p, 1);
        }
        for p in [BELGRADE, BARCELONA, BARCELONA] {
            b.add(p, 1);
        }
        let (mut ab, mut ba) = (a, b);
        ab.merge(&b);
        ba.merge(&a);
        assert_eq!(ab.top(), Some(BELGRADE));
        assert_eq!(ba.top(), Some(BELGRADE));
    }

    proptest! {
        /// Whatever the places, the answer is one of them, and a place of more than
        /// three fifths of the matches is the answer (its counter loses at most a
        /// fifth of them, and any other place's counter is at most its own count).
        #[test]
        fn the_answer_is_a_member_and_a_majority_wins(
            places in prop::collection::vec(0usize..9, 1..60),
            segments in 1usize..4,
        ) {
            let at = |i: usize| (i as f64, -(i as f64) * 2.0);
            let mut parts = vec![Busiest::default(); segments];
            for (k, &i) in places.iter().enumerate() {
                parts[k % segments].add(at(i), 1);
            }
            let mut all = Busiest::default();
            for p in &parts {
                all.merge(p);
            }
            let top = all.top().expect("a place");
            prop_assert!(places.iter().any(|&i| at(i) == top));
            for i in 0..9 {
                let n = places.iter().filter(|&&x| x == i).count();
                if n * 5 > places.len() * 3 {
                    prop_assert_eq!(top, at(i));
                }
            }
        }
    }
}
