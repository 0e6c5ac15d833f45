//! The clusters of one pass over the input equal those of clustering each connected
//! part of the verified candidate-pair graph on its own, given each text's eligible
//! keys: the property the Spark job rests on (`cairn-py/spark`). The candidate pairs
//! are what that job forms: each text with every earlier text sharing a key where the
//! earlier one is eligible.
//!
//! On a generated near-duplicate corpus, with the default bucket limit and with a
//! small one that decides many matches; with every key eligible in the replay instead,
//! the partitions differ (checked below, so the test can fail). The pairs are formed
//! both directly and as the job forms them: key groups of sketches
//! ([`cairn_dedup::groups`]), hot keys split over salted groups, survivors verified.

use cairn_dedup::groups::{GroupRow, Role, Sketch, group_candidates, key_bits};
use cairn_dedup::{
    DEFAULT_THRESHOLD, Deduper, Eligible, Features, NearIndex, band_keys, features, similarity,
};
use rustc_hash::{FxHashMap, FxHashSet};

fn corpus(photos: u64) -> Vec<String> {
    let g = cairn_gazetteer::Gazetteer::bundled();
    let base = cairn_synth::Generator::new(&g, 7, photos);
    let c = cairn_synth::NearDupCorpus::new(base, 7);
    let mut seen = std::collections::HashSet::new();
    // Distinct texts, in order.
    c.items(photos)
        .map(|l| l.text)
        .filter(|t| seen.insert(cairn_dedup::exact_key(t)))
        .collect()
}

fn partition(labels: &[usize]) -> Vec<Vec<usize>> {
    let mut by: FxHashMap<usize, Vec<usize>> = FxHashMap::default();
    for (i, &l) in labels.iter().enumerate() {
        by.entry(l).or_default().push(i);
    }
    let mut out: Vec<Vec<usize>> = by.into_values().collect();
    out.sort();
    out
}

fn find(parent: &mut [usize], mut x: usize) -> usize {
    while parent[x] != x {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    x
}

/// How the verified pairs and the eligible keys are found.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Pairs {
    /// Eligibility counted in order, every candidate verified.
    Direct,
    /// As the job does: key groups of sketches (keys with more than `hot` texts split
    /// over `salts` groups, their eligible texts copied to each), eligibility from the
    /// groups, the pairs that may match verified.
    Groups { hot: usize, salts: i64 },
    /// Direct, but every key eligible in the replay (wrong on purpose).
    AllEligible,
}

/// Verified pairs `(t, u)` and each text's eligible keys.
fn direct_pairs(feats: &[Features], max_bucket: u8) -> (FxHashSet<(usize, usize)>, Vec<Eligible>) {
    // Eligibility from the order alone (what a window per key computes).
    let mut counter = NearIndex::with_max_bucket(DEFAULT_THRESHOLD, max_bucket);
    let eligible: Vec<Eligible> = feats.iter().map(|f| counter.observe(f)).collect();
    let mut by_key: FxHashMap<u64, Vec<usize>> = FxHashMap::default();
    for (i, f) in feats.iter().enumerate() {
        for (b, k) in band_keys(f).enumerate() {
            if eligible[i].0 & (1 << b) != 0 {
                by_key.entry(k).or_default().push(i);
            }
        }
    }
    let mut pairs = FxHashSet::default();
    for (t, f) in feats.iter().enumerate() {
        for k in band_keys(f) {
            for &u in by_key.get(&k).map_or(&[][..], Vec::as_slice) {
                if u < t && similarity(f, &feats[u], DEFAULT_THRESHOLD).is_some() {
                    pairs.insert((t, u));
                }
            }
        }
    }
    (pairs, eligible)
}

fn grouped_pairs(
    feats: &[Features],
    max_bucket: u8,
    hot: usize,
    salts: i64,
) -> (FxHashSet<(usize, usize)>, Vec<Eligible>) {
    // A row per distinct key of each text, its band bits merged.
    let mut by_key: FxHashMap<u64, Vec<GroupRow>> = FxHashMap::default();
    for (i, f) in feats.iter().enumerate() {
        let sketch = Sketch::of(f);
        for (k, bits) in key_bits(f) {
            by_key.entry(k).or_default().push(GroupRow {
                group: (0, 0),
                pos: i as i64,
                bits,
                role: Role::Both,
                sketch,
            });
        }
    }
    let mut rows = Vec::new();
    for (n, (_, mut key_rows)) in by_key.into_iter().enumerate() {
        let n = n as i64;
        if key_rows.len() <= hot {
            rows.extend(
                key_rows
                    .into_iter()
                    .map(|r| GroupRow { group: (n, 0), ..r }),
            );
            continue;
        }
        // Split: the eligible texts are found first (a window in the job), copied to
        // every salt; each text is a query in one salt.
        key_rows.sort_by_key(|r| r.pos);
        for r in &key_rows[..key_rows.len().min(max_bucket as usize)] {
            for s in 0..salts {
                rows.push(GroupRow {
                    group: (n, s),
                    role: Role::Found,
                    ..*r
                });
            }
        }
        for r in key_rows {
            let salt = (r.pos * 7919) % salts;
            rows.push(GroupRow {
                group: (n, salt),
                role: Role::Query,
                ..r
            });
        }
    }
    // A text's eligible keys, as the job has them: the bits it brought to the verified
    // pairs where it is the earlier text (see `cairn_dedup::groups::Candidate`).
    let mut eligible = vec![Eligible(0); feats.len()];
    let mut pairs = FxHashSet::default();
    for c in group_candidates(&rows, max_bucket as usize, DEFAULT_THRESHOLD) {
        let (t, u) = (c.t as usize, c.u as usize);
        if similarity(&feats[t], &feats[u], DEFAULT_THRESHOLD).is_some() {
            eligible[u].0 |= c.bits;
            pairs.insert((t, u));
        }
    }
    (pairs, eligible)
}

/// Clusters per connected part of the verified candidate graph.
fn per_component(texts: &[String], max_bucket: u8, how: Pairs) -> Vec<usize> {
    let feats: Vec<_> = texts.iter().map(|t| features(t)).collect();
    let (pairs, eligible) = match how {
        Pairs::Groups { hot, salts } => grouped_pairs(&feats, max_bucket, hot, salts),
        _ => direct_pairs(&feats, max_bucket),
    };
    let all_eligible = how == Pairs::AllEligible;
    let mut parent: Vec<usize> = (0..texts.len()).collect();
    for &(t, u) in &pairs {
        let (a, b) = (find(&mut parent, t), find(&mut parent, u));
        parent[a.max(b)] = a.min(b);
    }
    let mut parts: FxHashMap<usize, Vec<usize>> = FxHashMap::default();
    for i in 0..texts.len() {
        let r = find(&mut parent, i);
        parts.entry(r).or_default().push(i);
    }
    let mut labels = vec![0; texts.len()];
    for members in parts.values() {
        let mut d = Deduper::with_max_bucket(DEFAULT_THRESHOLD, max_bucket);
        let mut first = Vec::new();
        for &i in members {
            let e = if all_eligible {
                Eligible::ALL
            } else {
                eligible[i]
            };
            let c = d.push_eligible(&texts[i], e) as usize;
            if c == first.len() {
                first.push(i);
            }
        }
        for (&i, (c, _)) in members.iter().zip(d.finish()) {
            labels[i] = first[c as usize];
        }
    }
    labels
}

#[test]
fn per_component_clustering_equals_one_pass() {
    let texts = corpus(1500);
    for max_bucket in [2u8, cairn_dedup::MAX_BUCKET as u8] {
        let mut d = Deduper::with_max_bucket(DEFAULT_THRESHOLD, max_bucket);
        let one_pass: Vec<usize> = texts.iter().map(|t| d.push(t) as usize).collect();
        let one_pass = partition(&one_pass);
        let parts = partition(&per_component(&texts, max_bucket, Pairs::Direct));
        assert_eq!(one_pass.len(), parts.len(), "max_bucket {max_bucket}");
        assert!(
            one_pass == parts,
            "max_bucket {max_bucket}: partitions differ"
        );
        for how in [
            Pairs::Groups {
                hot: usize::MAX,
                salts: 1,
            },
            Pairs::Groups { hot: 3, salts: 4 },
        ] {
            let parts = partition(&per_component(&texts, max_bucket, how));
            assert!(
                one_pass == parts,
                "max_bucket {max_bucket}, pairs from key groups: partitions differ"
            );
        }
        assert!(
            one_pass.iter().filter(|g| g.len() > 1).count() > 300,
            "the corpus has near-duplicates"
        );
        if max_bucket == 2 {
            let wrong = partition(&per_component(&texts, max_bucket, Pairs::AllEligible));
            assert!(
                wrong != one_pass,
                "the bucket limit decides some matches here"
            );
        }
    }
}

/// The groups' pairs, once verified, are exactly the pairs of the direct rule, and
/// the sketches let through few pairs that do not verify.
#[test]
fn key_groups_give_the_verified_pairs() {
    let texts = corpus(1500);
    let feats: Vec<_> = texts.iter().map(|t| features(t)).collect();
    for max_bucket in [2u8, cairn_dedup::MAX_BUCKET as u8] {
        let (direct, _) = direct_pairs(&feats, max_bucket);
        assert!(direct.len() > 300, "{} pairs", direct.len());
        for (hot, salts) in [(usize::MAX, 1), (3, 4)] {
            let (grouped, _) = grouped_pairs(&feats, max_bucket, hot, salts);
            assert!(
                grouped == direct,
                "max_bucket {max_bucket}, hot {hot}: pairs differ"
            );
        }
    }
}
