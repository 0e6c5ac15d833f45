//! The sketch bound of `cairn_dedup::groups` is never wrong: whenever two captions
//! verify, their sketches may match. Checked on captions and edited copies of them
//! (words dropped, typed wrong, swapped, cut short, a credit added), most of which
//! verify, and on unrelated pairs.

use cairn_dedup::groups::Sketch;
use cairn_dedup::{DEFAULT_THRESHOLD, features, similarity};
use proptest::prelude::*;

const WORDS: &[&str] = &[
    "protesters",
    "march",
    "in",
    "the",
    "centre",
    "of",
    "Paris",
    "France",
    "on",
    "May",
    "1,",
    "2024.",
    "rescuers",
    "search",
    "rubble",
    "building",
    "Antakya",
    "Turkey",
    "police",
    "stand",
    "guard",
    "outside",
    "parliament",
    "during",
    "a",
    "rally",
    "against",
    "pension",
    "reform",
    "12",
    "people",
    "were",
    "killed",
    "Kyiv",
    "Ukraine,",
    "AFP",
];

fn caption() -> impl Strategy<Value = Vec<String>> {
    prop::collection::vec(prop::sample::select(WORDS), 3..30)
        .prop_map(|w| w.into_iter().map(String::from).collect())
}

/// An edit of a caption's words.
#[derive(Debug, Clone)]
enum Edit {
    Drop(usize),
    Typo(usize),
    Swap(usize),
    Cut(usize),
    /// Cut short in the middle of a word (the cut word is then short: it must match
    /// exactly, but as the beginning of a word).
    CutInWord(usize),
    Credit,
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        any::<usize>().prop_map(Edit::Drop),
        any::<usize>().prop_map(Edit::Typo),
        any::<usize>().prop_map(Edit::Swap),
        any::<usize>().prop_map(Edit::Cut),
        any::<usize>().prop_map(Edit::CutInWord),
        Just(Edit::Credit),
    ]
}

fn apply(words: &[String], edits: &[Edit]) -> String {
    let mut w = words.to_vec();
    let mut tail = "";
    for e in edits {
        let n = w.len();
        match *e {
            Edit::Drop(i) if n > 1 => {
                w.remove(i % n);
            }
            Edit::Typo(i) => {
                let word = &mut w[i % n];
                if word.len() > 3 {
                    let mut b = word.clone().into_bytes();
                    b.swap(1, 2);
                    *word = String::from_utf8(b).unwrap_or_else(|_| word.clone());
                }
            }
            Edit::Swap(i) if n > 1 => w.swap(i % n, (i + 1) % n),
            Edit::Cut(i) if n > 2 => {
                w.truncate(2 + i % (n - 1));
                tail = "...";
            }
            Edit::CutInWord(i) if n > 2 => {
                w.truncate(2 + i % (n - 1));
                if let Some(last) = w.last_mut() {
                    let keep = last
                        .char_indices()
                        .nth(2 + i % 2)
                        .map_or(last.len(), |(k, _)| k);
                    last.truncate(keep);
                }
                tail = "...";
            }
            Edit::Credit => tail = " (Photo by Jane Doe / AFP)",
            _ => {}
        }
    }
    format!("{}{tail}", w.join(" "))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn sketches_never_reject_a_verified_pair(
        words in caption(),
        edits in prop::collection::vec(edit(), 0..4),
        other in caption(),
        threshold in prop::sample::select(&[0.5f32, DEFAULT_THRESHOLD, 0.9][..]),
    ) {
        let a = features(&words.join(" "));
        for b in [features(&apply(&words, &edits)), features(&other.join(" "))] {
            let (sa, sb) = (Sketch::of(&a), Sketch::of(&b));
            if similarity(&a, &b, threshold).is_some() {
                prop_assert!(sa.may_match(&sb, threshold));
                prop_assert!(sb.may_match(&sa, threshold));
            }
        }
    }
}
