//! The clusters of one pass over the input equal those of clustering each connected
//! part of the verified candidate-pair graph on its own, given each text's eligible
//! keys: the property the Spark job rests on (`cairn-py/spark`). The candidate pairs
//! are what that job forms: each text with every earlier text sharing a key where the
//! earlier one is eligible.
//!
//! On a generated near-duplicate corpus, with the default bucket limit and with a
//! small one that decides many matches; with every key eligible in the replay instead,
//! the partitions differ (checked below, so the test can fail).

use cairn_dedup::{
    DEFAULT_THRESHOLD, Deduper, Eligible, NearIndex, band_keys, features, similarity,
};
use rustc_hash::FxHashMap;

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

/// Clusters per connected part of the verified candidate graph; `all_eligible` makes
/// every key eligible in the replay (wrong on purpose).
fn per_component(texts: &[String], max_bucket: u8, all_eligible: bool) -> Vec<usize> {
    let feats: Vec<_> = texts.iter().map(|t| features(t)).collect();
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
    let mut parent: Vec<usize> = (0..texts.len()).collect();
    for (t, f) in feats.iter().enumerate() {
        for k in band_keys(f) {
            for &u in by_key.get(&k).map_or(&[][..], Vec::as_slice) {
                if u < t && similarity(f, &feats[u], DEFAULT_THRESHOLD).is_some() {
                    let (a, b) = (find(&mut parent, t), find(&mut parent, u));
                    parent[a.max(b)] = a.min(b);
                }
            }
        }
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
        let parts = partition(&per_component(&texts, max_bucket, false));
        assert_eq!(one_pass.len(), parts.len(), "max_bucket {max_bucket}");
        assert!(
            one_pass == parts,
            "max_bucket {max_bucket}: partitions differ"
        );
        assert!(
            one_pass.iter().filter(|g| g.len() > 1).count() > 300,
            "the corpus has near-duplicates"
        );
        if max_bucket == 2 {
            let wrong = partition(&per_component(&texts, max_bucket, true));
            assert!(
                wrong != one_pass,
                "the bucket limit decides some matches here"
            );
        }
    }
}
