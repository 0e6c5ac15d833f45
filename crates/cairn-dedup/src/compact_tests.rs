//! Tests of the compact feature store: gaps, arenas, chunks and entries read back.

use super::*;

#[test]
fn entries_read_back_what_was_pushed() {
    let texts = [
        "A man walks past a damaged building in Douma, Syria, May 3, 2016.",
        "A boy rides a bicycle along a destroyed road in Homs, Syria, June 1, 2015...more",
        "Children queue for bread outside a bakery in Aleppo, Syria, July 12, 2016. (Photo by X/AFP)",
        // A word twice, a bigram twice, a fact twice, and words that change length
        // or split differently in lower case.
        "Smoke rises over Gaza as smoke rises over Gaza City, Gaza, on October 9, 2023.",
        "İSTANBUL ÇARŞI: Ärzte in STRAẞE 12 treat 3 people, Ωmega reports.",
        "Mosul",
        "",
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
        let (mut got_buf, mut want_buf) = (Vec::new(), Vec::new());
        assert_eq!(
            got.grams.resolve(&mut got_buf),
            want.grams.resolve(&mut want_buf),
            "bigrams of {:?}",
            texts[i]
        );
        assert_eq!(want.grams.resolve(&mut want_buf), &f.bigrams[..]);
        assert_eq!(
            (got.gram_count, got.gram_bits),
            (f.bigrams.len(), f.gram_bits)
        );
        let mut words: Vec<&str> = got.vocab.words().collect();
        words.sort_unstable();
        words.dedup();
        assert_eq!(words, want.vocab.words().collect::<Vec<_>>());
        assert_eq!(got.last_word, want.last_word);
        assert_eq!(got.word_bits, want.word_bits);
        assert_eq!(got.exact_bits, want.exact_bits);
        assert_eq!(
            (got.truncated, got.credited, got.len),
            (want.truncated, want.credited, want.len)
        );
    }
    assert!(entries.get(1).last_word.is_some());
    // Words shared by the captions are kept once.
    let distinct: std::collections::BTreeSet<&str> = fs
        .iter()
        .flat_map(|f| f.vocab.iter().chain(f.facts.split(' ')))
        .filter(|w| !w.is_empty())
        .collect();
    assert_eq!(entries.dict.len(), distinct.len());
}

proptest::proptest! {
    /// An entry makes again exactly the bigrams its text's features hold, whatever
    /// the text (words in any case and script, digits, repeats, punctuation).
    #[test]
    fn entries_make_the_bigrams_of_their_texts(
        texts in proptest::collection::vec(
            "([A-Za-z0-9İıßẞÇçΩω'éÉ]{1,8}[ ,.:()/-]{1,2}){0,24}",
            1..6,
        )
    ) {
        let mut entries = Entries::default();
        let fs: Vec<Features> = texts.iter().map(|t| crate::features(t)).collect();
        for f in &fs {
            entries.push(f);
        }
        let mut buf = Vec::new();
        for (i, f) in fs.iter().enumerate() {
            proptest::prop_assert_eq!(entries.get(i).grams.resolve(&mut buf), &f.bigrams[..]);
        }
    }

    /// Bigrams made from an entry's words and counted against another text's as they
    /// are made share as many as the two sorted lists do, with a list of more than
    /// 256 bigrams too (a bit set of its own then), and whatever the other's bits.
    #[test]
    fn shared_bigrams_are_counted_as_the_sorted_lists_share_them(
        text in "([A-Za-z0-9]{1,8} ){5,40}",
        keep in proptest::collection::vec(proptest::bool::ANY, 40),
        extra in proptest::collection::btree_set(proptest::num::u32::ANY, 0..600),
        all_bits in proptest::bool::ANY,
    ) {
        let f = crate::features(&text);
        let mut entries = Entries::default();
        entries.push(&f);
        let mut held: Vec<u32> = f
            .bigrams
            .iter()
            .zip(keep.iter().cycle())
            .filter(|(_, k)| **k)
            .map(|(g, _)| *g)
            .chain(extra)
            .collect();
        held.sort_unstable();
        held.dedup();
        let bits = if all_bits {
            u64::MAX
        } else {
            held.iter().fold(0, |m, &g| m | crate::features::gram_bit(g))
        };
        let want = f.bigrams.iter().filter(|g| held.binary_search(g).is_ok()).count();
        proptest::prop_assert_eq!(entries.get(0).grams.shared_with(&held, bits), want);
        proptest::prop_assert_eq!(Grams::Hashes(&f.bigrams).shared_with(&held, bits), want);
    }

    /// The bigram-bit bound only ever rejects what the score would: the answer is
    /// the one without it, for a text against an entry and against features.
    #[test]
    fn the_bigram_bound_changes_no_answer(
        words in proptest::collection::vec("[a-z]{2,6}|[A-Z][a-z]{2,5}|[0-9]{1,3}", 6..30),
        cut in 0usize..12,
        swap in 0usize..30,
        threshold in 0.2f32..0.95,
    ) {
        let base = words.join(" ");
        let mut copy = words[..words.len() - cut.min(words.len() - 5)].to_vec();
        let at = swap % copy.len();
        copy[at] = "zz".to_string();
        let (fb, fc) = (crate::features(&base), crate::features(&copy.join(" ")));
        let mut entries = Entries::default();
        entries.push(&fb);
        entries.push(&fc);
        fn unbounded(mut r: FeatRef<'_>) -> FeatRef<'_> {
            r.gram_bits = u64::MAX;
            r
        }
        for (x, y, e) in [(&fc, &fb, 0), (&fb, &fc, 1)] {
            let want = crate::verify::similarity_of(unbounded(x.as_ref()), unbounded(y.as_ref()), threshold);
            proptest::prop_assert_eq!(crate::verify::similarity_of(x.as_ref(), y.as_ref(), threshold), want);
            proptest::prop_assert_eq!(crate::verify::similarity_of(x.as_ref(), entries.get(e), threshold), want);
            // (Which text is the shorter decides ties of length: the order counts.)
            let want = crate::verify::similarity_of(unbounded(y.as_ref()), unbounded(x.as_ref()), threshold);
            proptest::prop_assert_eq!(crate::verify::similarity_of(entries.get(e), x.as_ref(), threshold), want);
        }
    }
}

#[test]
fn word_numbers_read_back_across_gap_sizes() {
    let mut dict = Dict::default();
    let ids: Vec<u32> = (0..70_000).map(|i| dict.intern(&format!("w{i}"))).collect();
    assert_eq!(ids, (0..70_000).collect::<Vec<u32>>());
    assert_eq!(dict.intern("w123"), 123);
    // Numbers of one, two and three bytes, in no order, one twice.
    let chosen = [5u32, 69_999, 6, 200, 20_000, 201, 6];
    let mut bytes = Vec::new();
    for &id in &chosen {
        write_gap(&mut bytes, id);
    }
    let got: Vec<&str> = Vocab::Ids(&bytes, &dict).words().collect();
    let want: Vec<String> = chosen.iter().map(|i| format!("w{i}")).collect();
    assert_eq!(got, want);
    // Fact numbers as gaps: ascending, the first above zero.
    let facts = [5u32, 6, 200, 201, 20_000, 69_999];
    let mut gaps = Vec::new();
    let mut next = 0;
    for &id in &facts {
        write_gap(&mut gaps, id - next);
        next = id + 1;
    }
    let mut buf = Vec::new();
    let grams = Grams::Words {
        words: &[],
        facts: &gaps,
        dict: &dict,
    }
    .resolve(&mut buf)
    .to_vec();
    let mut want: Vec<u32> = facts
        .iter()
        .map(|i| crate::features::fact_gram(&format!("w{i}")))
        .collect();
    want.sort_unstable();
    want.dedup();
    assert_eq!(grams, want);
    // A damaged list ends rather than reading past its end.
    assert_eq!(Vocab::Ids(&[0x80], &dict).words().count(), 0);
    assert_eq!(
        read_gap(&[0xFF, 0xFF, 0xFF, 0xFF, 0x0F]),
        Some((u32::MAX, &[][..]))
    );
}
