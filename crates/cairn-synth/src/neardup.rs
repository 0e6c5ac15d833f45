//! A labelled near-duplicate corpus: photographs, each republished as several variants
//! with the edits galleries make (cut short, re-credited, typos fixed or made, quotes and
//! dashes changed, background sentences appended or dropped, HTML character references
//! left in), and distinct photographs that share long boilerplate paragraphs (the trap).
//!
//! Item `i` is a pure function of `(seed, i)`; its label is the photograph's number.

use rand::seq::{IndexedRandom, SliceRandom};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::Generator;

/// Long background paragraphs shared by many different photographs (about 60 words each).
const BOILERPLATE: &[&str] = &[
    "The conflict, which began with anti-government protests in 2011, has killed hundreds of thousands of people and forced millions to flee their homes, according to monitors and United Nations agencies, which say that aid deliveries to besieged areas remain rare and depend on lengthy negotiations between the warring parties, while medical facilities and schools have repeatedly been hit by fighting.",
    "Humanitarian organisations warn that the approaching winter will worsen conditions for families living in tents and damaged buildings, where fuel is scarce and prices have risen sharply, and they have appealed for more funding as donor contributions fall short of what is needed to provide food, shelter, clean water and health care to the millions who depend on assistance.",
    "Government forces backed by allied militias and air power have pressed an offensive in the region in recent weeks, while opposition fighters say they have repelled several attacks, and residents describe nights of bombardment that have destroyed homes, markets and hospitals and left many families sleeping in basements or fleeing towards the border in search of safety.",
];

const DETAILS: &[&str] = &[
    "carrying a child",
    "holding a flag",
    "wearing a face mask",
    "next to a water tank",
    "under heavy rain",
    "near a checkpoint",
    "beside a mosque",
    "outside a hospital",
    "at dawn",
    "during a power cut",
    "with a bicycle",
    "in front of a school",
    "near a bus station",
    "beside a burnt-out car",
    "outside a bakery",
    "on a rooftop",
];

/// One caption of the corpus with its ground-truth photograph.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Labelled {
    /// The caption text.
    pub text: String,
    /// The photograph it describes.
    pub photo: u64,
}

/// Generates labelled near-duplicate corpora.
#[derive(Debug, Clone)]
pub struct NearDupCorpus {
    base: Generator,
    seed: u64,
}

impl NearDupCorpus {
    /// A corpus for `seed` over the base generator's places.
    pub fn new(base: Generator, seed: u64) -> Self {
        NearDupCorpus { base, seed }
    }

    fn rng(&self, stream: u64, i: u64) -> ChaCha8Rng {
        let mut r = ChaCha8Rng::seed_from_u64(self.seed ^ 0xD1B5_4A32_D192_ED03);
        r.set_stream(stream);
        r.set_word_pos(u128::from(i) * 4096);
        r
    }

    /// The original caption of photograph `p`: a base caption with a detail, and one of
    /// the shared boilerplate paragraphs half of the time.
    pub fn original(&self, p: u64) -> String {
        let mut r = self.rng(1, p);
        let detail = DETAILS.choose(&mut r).unwrap();
        let mut text = self.base.compose(p, Some(detail));
        if r.random_bool(0.5) {
            let para = BOILERPLATE.choose(&mut r).unwrap();
            // Before the credit, which stands last.
            let credit_at = text
                .rfind(" (")
                .or_else(|| text.rfind(" SAMPLE WIRE/"))
                .unwrap_or(text.len());
            text.insert_str(credit_at, &format!(" {para}"));
        }
        text
    }

    /// Number of variants photograph `p` is published as (1 to 6, most often 1 or 2).
    pub fn copies(&self, p: u64) -> u64 {
        let mut r = self.rng(2, p);
        let u: f64 = r.random();
        1 + (u * u * 6.0) as u64
    }

    /// Variant `k` of photograph `p` (variant 0 is the original).
    pub fn variant(&self, p: u64, k: u64) -> String {
        let original = self.original(p);
        if k == 0 {
            return original;
        }
        let mut r = self.rng(3, p * 16 + k);
        let mut t = original;
        // Each variant gets one to three edits; a cut, when there is one, comes last (a
        // gallery cuts what it shows).
        let edits = r.random_range(1..=3);
        let mut cut = false;
        for _ in 0..edits {
            t = match r.random_range(0..7) {
                0 => {
                    cut = true;
                    t
                }
                1 => recredit(&t),
                2 => typo(&t, &mut r),
                3 => t.replace('"', "“").replace(" - ", " – ").replace('\'', "’"),
                4 => format!(
                    "{} {}",
                    t,
                    BOILERPLATE[r.random_range(0..BOILERPLATE.len())]
                ),
                5 => drop_background(&t),
                _ => t
                    .replace('&', "&amp;")
                    .replace('\'', "&#39;")
                    .replace(", ", ",&nbsp;"),
            };
        }
        if cut { truncate(&t, &mut r) } else { t }
    }

    /// The corpus: photographs in windows of 1,000, the variants of a window shuffled
    /// together, so a copy may come before its original and far from it.
    pub fn items(&self, photos: u64) -> impl Iterator<Item = Labelled> + '_ {
        const WINDOW: u64 = 1000;
        (0..photos.div_ceil(WINDOW)).flat_map(move |w| {
            let mut items: Vec<Labelled> = (w * WINDOW..((w + 1) * WINDOW).min(photos))
                .flat_map(|p| {
                    (0..self.copies(p)).map(move |k| Labelled {
                        text: self.variant(p, k),
                        photo: p,
                    })
                })
                .collect();
            items.shuffle(&mut self.rng(4, w));
            items
        })
    }
}

fn truncate(t: &str, r: &mut ChaCha8Rng) -> String {
    // Galleries cut after 100 to 200 characters, at a word.
    let limit = r.random_range(100..200).min(t.len());
    let mut cut = limit;
    while cut > 0 && !t.is_char_boundary(cut) {
        cut -= 1;
    }
    let cut = t[..cut].rfind(' ').unwrap_or(cut);
    let mark = ["...more", "…", "... more", "..."][r.random_range(0..4)];
    format!("{}{mark}", &t[..cut])
}

fn recredit(t: &str) -> String {
    if t.contains(" / Sample Wire)") {
        t.replace(" / Sample Wire)", " / Sample Wire via Getty Images)")
    } else if t.contains("/Sample Wire)") {
        t.replace("/Sample Wire)", "/Sample Wire/Getty Images)")
    } else if t.contains("SAMPLE WIRE/") {
        t.replacen("SAMPLE WIRE/", "Photo: ", 1) + "/Sample Wire"
    } else {
        t.replace("Sample Wire Photo/", "Sample Wire/")
    }
}

fn typo(t: &str, r: &mut ChaCha8Rng) -> String {
    // Swap two letters inside one long lower-case word of the first 100 characters.
    let words: Vec<(usize, &str)> = t
        .match_indices(|c: char| c.is_ascii_lowercase())
        .map(|(i, _)| i)
        .filter(|&i| i < 100 && (i == 0 || t.as_bytes()[i - 1] == b' '))
        .map(|i| (i, t[i..].split(' ').next().unwrap_or("")))
        .filter(|(_, w)| w.len() >= 6 && w.bytes().all(|b| b.is_ascii_lowercase()))
        .collect();
    let Some(&(at, w)) = words.choose(r) else {
        return t.to_string();
    };
    let k = r.random_range(1..w.len() - 2);
    let mut b = w.as_bytes().to_vec();
    b.swap(k, k + 1);
    format!(
        "{}{}{}",
        &t[..at],
        String::from_utf8_lossy(&b),
        &t[at + w.len()..]
    )
}

fn drop_background(t: &str) -> String {
    for para in BOILERPLATE {
        if let Some(at) = t.find(para) {
            let mut s = t.to_string();
            s.replace_range(at.saturating_sub(1)..at + para.len(), "");
            return s;
        }
    }
    t.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use cairn_gazetteer::Gazetteer;

    #[test]
    fn deterministic_labelled_and_varied() {
        let g = Gazetteer::bundled();
        let c = NearDupCorpus::new(Generator::new(&g, 3, 1000), 3);
        let a: Vec<Labelled> = c.items(50).collect();
        let b: Vec<Labelled> = c.items(50).collect();
        assert_eq!(a, b);
        assert!(a.len() > 50, "photographs have several variants");
        let distinct: std::collections::HashSet<&str> = a.iter().map(|l| l.text.as_str()).collect();
        assert!(distinct.len() > 50);
        assert!(a.iter().any(|l| l.text.contains(BOILERPLATE[0])));
    }
}
