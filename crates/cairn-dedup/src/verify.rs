//! Whether two captions are of one photograph: quick bounds that never reject a match,
//! then bigram containment of the identity sentences and a check that every word of the
//! shorter one is in the longer, up to a typo.

use crate::compact::{Bits, FeatRef, Grams, Quick};
use crate::features::{Features, MIN_WORDS, gram_bit, typos_allowed};

/// Most words of a copy's identity that may be missing from the original's (typos, a
/// word cut short); the word check decides which of them are typos.
pub(crate) const MAX_MISSING_WORDS: u32 = 4;

/// Edit distance with adjacent transpositions (optimal string alignment), bounded:
/// returns `max + 1` as soon as it is exceeded. Works on bytes for ASCII words up to 32
/// bytes (no allocation), on characters otherwise.
pub(crate) fn edit_distance(a: &str, b: &str, max: usize) -> usize {
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
pub(crate) fn completeness_of(f: FeatRef<'_>) -> (bool, bool, usize) {
    (!f.truncated, f.credited, f.len)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::DEFAULT_THRESHOLD;
    use crate::features::{fact_gram, features};
    use crate::identity::{has_credit, strip_truncation};

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
