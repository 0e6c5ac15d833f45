//! Candidate pairs from LSH key groups, for a distributed engine.
//!
//! On one machine [`crate::NearIndex`] holds every text's [`Features`]. An engine that
//! shuffles rows by LSH key instead moves each text once per key it has; moving the
//! texts themselves costs more than the checks. So a group carries a [`Sketch`] of each
//! text (137 bytes: word and bigram counts, and bit sets of its words, of its words
//! that must match exactly, and of its bigrams) from
//! which [`Sketch::may_match`] gives a bound that is never wrong: when it says no,
//! [`crate::similarity`] says no. The pairs it lets through are verified on the texts
//! afterwards, so the pairs that verify are exactly those the full check on every
//! candidate would give.
//!
//! [`group_candidates`] applies the same rule as the one-pass index: a text is checked
//! against the texts of the group that come before it and are eligible (the first
//! [`crate::MAX_BUCKET`] distinct texts of the key, see [`crate::Eligible`]).

use crate::Features;
use crate::features::MIN_WORDS;

/// Bytes of [`Sketch::to_bytes`].
pub const SKETCH_BYTES: usize = 4 + 4 + 1 + 32 + 32 + 64;

/// What a group row needs of a text to bound its similarity to another.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sketch {
    words: u32,
    bigrams: u32,
    /// Whether the text was cut short (its last word may be cut too).
    truncated: bool,
    /// The bits of [`Features::word_bits`].
    word_bits: [u64; 4],
    /// The bits of [`Features::exact_bits`].
    exact_bits: [u64; 4],
    bigram_bits: [u64; 8],
}

fn bigram_bit(b: u32) -> usize {
    (b.wrapping_mul(0x9E37_79B1) >> 23) as usize // 0..512
}

impl Sketch {
    /// The sketch of a text's features.
    pub fn of(f: &Features) -> Self {
        let mut bigram_bits = [0u64; 8];
        for &b in f.bigrams.iter() {
            let bit = bigram_bit(b);
            bigram_bits[bit / 64] |= 1 << (bit % 64);
        }
        Sketch {
            words: u32::try_from(f.words).unwrap_or(u32::MAX),
            bigrams: u32::try_from(f.bigrams.len()).unwrap_or(u32::MAX),
            truncated: f.last_word.is_some(),
            word_bits: f.word_bits,
            exact_bits: f.exact_bits,
            bigram_bits,
        }
    }

    /// Little-endian bytes: words, bigrams, truncated, word bits, exact word bits,
    /// bigram bits.
    pub fn to_bytes(&self) -> [u8; SKETCH_BYTES] {
        let mut out = [0u8; SKETCH_BYTES];
        out[..4].copy_from_slice(&self.words.to_le_bytes());
        out[4..8].copy_from_slice(&self.bigrams.to_le_bytes());
        out[8] = u8::from(self.truncated);
        let bits = self
            .word_bits
            .iter()
            .chain(&self.exact_bits)
            .chain(&self.bigram_bits);
        for (i, w) in bits.enumerate() {
            out[9 + i * 8..17 + i * 8].copy_from_slice(&w.to_le_bytes());
        }
        out
    }

    /// Inverse of [`Sketch::to_bytes`]; `None` unless `b` is [`SKETCH_BYTES`] long
    /// (with 0 or 1 for `truncated`).
    pub fn from_bytes(b: &[u8]) -> Option<Self> {
        if b.len() != SKETCH_BYTES || b[8] > 1 {
            return None;
        }
        let u32_at = |i: usize| u32::from_le_bytes(b[i..i + 4].try_into().unwrap());
        let u64_at = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().unwrap());
        Some(Sketch {
            words: u32_at(0),
            bigrams: u32_at(4),
            truncated: b[8] == 1,
            word_bits: std::array::from_fn(|i| u64_at(9 + i * 8)),
            exact_bits: std::array::from_fn(|i| u64_at(41 + i * 8)),
            bigram_bits: std::array::from_fn(|i| u64_at(73 + i * 8)),
        })
    }

    /// False only when [`crate::similarity`] of the two texts at `threshold` is `None`
    /// (in either order).
    ///
    /// The checks are those of `similarity` bounded from the sketches: too few words;
    /// bigram containment, where each bigram bit one text sets and the other does not
    /// is at least one bigram the other lacks, so the shared bigrams are at most each
    /// side's count less those bits; and the words of the shorter identity, where a bit
    /// set for it and not for the longer is at least one word the longer lacks: more
    /// than a typo or a cut allows in all, or one that must match exactly (a cut-short
    /// text's last word excepted).
    pub fn may_match(&self, other: &Sketch, threshold: f32) -> bool {
        let min_words = MIN_WORDS as u32;
        if self.words < min_words || other.words < min_words {
            return false;
        }
        // The word sets first, as the one-pass index checks them: they take half the
        // work of the bigram bound and stop most candidates of one caption formula
        // (a number or a short word differs). `similarity` takes the first of two
        // identities of one length as the shorter.
        let words = match self.words.cmp(&other.words) {
            std::cmp::Ordering::Less => words_may_match(self, other),
            std::cmp::Ordering::Greater => words_may_match(other, self),
            std::cmp::Ordering::Equal => {
                words_may_match(self, other) || words_may_match(other, self)
            }
        };
        if !words {
            return false;
        }
        let only = |a: &Sketch, b: &Sketch| -> u32 {
            a.bigram_bits
                .iter()
                .zip(&b.bigram_bits)
                .map(|(x, y)| (x & !y).count_ones())
                .sum()
        };
        let shared_at_most = self
            .bigrams
            .saturating_sub(only(self, other))
            .min(other.bigrams.saturating_sub(only(other, self)));
        let smaller = self.bigrams.min(other.bigrams).max(1);
        // As `similarity` compares its score (a NaN threshold stops nothing there).
        (shared_at_most as f32 / smaller as f32).partial_cmp(&threshold)
            != Some(std::cmp::Ordering::Less)
    }
}

/// Whether every word of the shorter identity `s` may be found in the longer `l`.
fn words_may_match(s: &Sketch, l: &Sketch) -> bool {
    crate::verify::word_sets_may_match(&s.word_bits, &s.exact_bits, s.truncated, &l.word_bits)
}

/// A text's distinct LSH keys ([`crate::band_keys`]), each with its band bits (bit `i`
/// for the `i`-th key; several when two of its keys are equal): the rows it brings to
/// the key groups, in the order of their first band.
pub fn key_bits(f: &Features) -> Vec<(u64, u16)> {
    let mut out: Vec<(u64, u16)> = Vec::new();
    for (b, k) in crate::band_keys(f).enumerate() {
        match out.iter_mut().find(|r| r.0 == k) {
            Some(r) => r.1 |= 1 << b,
            None => out.push((k, 1 << b)),
        }
    }
    out
}

/// What a row does in its group.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// The whole key is in this group: the row is checked against the earlier eligible
    /// rows, and is eligible itself when among the group's first `max_bucket`.
    Both,
    /// A part of a key split over several groups (a hot key): the row is checked
    /// against the group's `Found` rows.
    Query,
    /// One of a split key's eligible texts, copied to each of its groups.
    Found,
}

/// One text under one LSH key.
#[derive(Debug, Clone, Copy)]
pub struct GroupRow {
    /// The group: a key and a salt (0 for a whole key; a split key has several); rows
    /// of a group may come in any order.
    pub group: (i64, i64),
    /// The text's place in the input; distinct within a group.
    pub pos: i64,
    /// Which of the text's keys this is (bit `i` for its `i`-th band key; several when
    /// two of its keys are equal).
    pub bits: u16,
    /// What the row does.
    pub role: Role,
    /// The text's sketch.
    pub sketch: Sketch,
}

/// A candidate pair from a key group: `u` comes before `t`, is eligible in the group
/// and its sketch may match `t`'s.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Candidate {
    /// The later text's position.
    pub t: i64,
    /// The earlier, eligible text's position.
    pub u: i64,
    /// `u`'s bits of the group's key ([`GroupRow::bits`]).
    ///
    /// These are all of `u`'s eligibility that clustering needs: an entry found through
    /// a key counts only when it verifies against the text looking, so `u` being
    /// eligible under a key matters only for the texts it verifies against there, and
    /// those are candidates of that key's group. Clustering a connected part of the
    /// verified pairs therefore needs, for each text, the OR of its `bits` over the
    /// verified pairs where it is `u`.
    pub bits: u16,
}

/// Candidate pairs of the groups in `rows` (in any order): each pair once per group it
/// is found in, groups in (key, salt) order and each group's pairs by position.
pub fn group_candidates(rows: &[GroupRow], max_bucket: usize, threshold: f32) -> Vec<Candidate> {
    // The rows are put in order through a list of their sort keys (a row is four times
    // as long as its key: sorting the rows themselves was a quarter of the work).
    let mut order: Vec<(i64, i64, i64, u8, u32)> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let i = u32::try_from(i).expect("fewer than 2^32 rows in one call");
            (r.group.0, r.group.1, r.pos, r.role as u8, i)
        })
        .collect();
    order.sort_unstable();
    let mut out = Vec::new();
    let mut found: Vec<&GroupRow> = Vec::new();
    for g in order.chunk_by(|a, b| (a.0, a.1) == (b.0, b.1)) {
        if g.len() < 2 {
            continue;
        }
        found.clear();
        let mut both = 0usize;
        for &(.., i) in g {
            let r = &rows[i as usize];
            if r.role != Role::Found {
                // The group is in input order; a split key's text is also one of the
                // found rows when eligible, so its own row is skipped.
                for u in &found {
                    if u.pos < r.pos && r.sketch.may_match(&u.sketch, threshold) {
                        out.push(Candidate {
                            t: r.pos,
                            u: u.pos,
                            bits: u.bits,
                        });
                    }
                }
            }
            let eligible = match r.role {
                Role::Found => true,
                Role::Query => false,
                Role::Both => {
                    both += 1;
                    both <= max_bucket
                }
            };
            if eligible {
                found.push(r);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{features, similarity};

    #[test]
    fn bytes_round_trip() {
        let s = Sketch::of(&features(
            "Protesters march in Paris, France, on May 1, 2024.",
        ));
        assert_eq!(Sketch::from_bytes(&s.to_bytes()), Some(s));
        assert_eq!(Sketch::from_bytes(&s.to_bytes()[1..]), None);
    }

    #[test]
    fn sketch_rejects_different_photographs_and_keeps_copies() {
        let a = features(
            "Rescuers search the rubble of a building in Antakya, Turkey, on February 7, 2023. (AFP)",
        );
        let b = features(
            "Rescuers search the rubble of a bulding in Antakya, Turkey, on February 7, 2023.",
        );
        let c = features(
            "Farmers drive tractors along a motorway near Brussels, Belgium, on January 30, 2024.",
        );
        assert!(similarity(&a, &b, 0.7).is_some());
        assert!(Sketch::of(&a).may_match(&Sketch::of(&b), 0.7));
        assert!(similarity(&a, &c, 0.7).is_none());
        assert!(!Sketch::of(&a).may_match(&Sketch::of(&c), 0.7));
    }

    fn row(group: (i64, i64), pos: i64, role: Role, text: &str) -> GroupRow {
        GroupRow {
            group,
            pos,
            bits: 1,
            role,
            sketch: Sketch::of(&features(text)),
        }
    }

    #[test]
    fn groups_follow_the_eligibility_rule() {
        let t = "Rescuers search the rubble of a building in Antakya, Turkey, on February 7, 2023.";
        // One whole key, rows out of order, a limit of 2: the third text is checked
        // against the first two, not against the third.
        let rows = vec![
            row((7, 0), 30, Role::Both, t),
            row((7, 0), 10, Role::Both, t),
            row((7, 0), 40, Role::Both, t),
            row((7, 0), 20, Role::Both, t),
            row((9, 0), 5, Role::Both, t), // a group of one: nothing
        ];
        let pairs = |c: Vec<Candidate>| c.iter().map(|c| (c.t, c.u)).collect::<Vec<_>>();
        let c = group_candidates(&rows, 2, 0.7);
        assert_eq!(
            pairs(c),
            vec![(20, 10), (30, 10), (30, 20), (40, 10), (40, 20)]
        );
        // A split key: queries against the found rows before them only.
        let rows = vec![
            row((1, 0), 50, Role::Query, t),
            row((1, 0), 10, Role::Found, t),
            row((1, 0), 60, Role::Found, t),
            row((1, 0), 5, Role::Query, t),
        ];
        let c = group_candidates(&rows, 2, 0.7);
        assert_eq!(pairs(c), vec![(50, 10)]);
    }
}
