//! Probing ahead changes nothing: texts verified against the entries an index had
//! earlier (in parallel, or by a [`Prober`] while the index goes on taking entries),
//! then looked up in order, cluster exactly as texts looked up one by one.

use cairn_dedup::{
    DEFAULT_THRESHOLD, Deduper, Features, Lookup, NearIndex, Probe, completeness, features,
};

fn corpus(photos: u64, seed: u64) -> Vec<String> {
    let g = cairn_gazetteer::Gazetteer::bundled();
    let base = cairn_synth::Generator::new(&g, seed, photos);
    let c = cairn_synth::NearDupCorpus::new(base, seed);
    c.items(photos).map(|l| l.text).collect()
}

/// Clusters texts in order as the store's clusterer does (a match joins; a more
/// complete text becomes the representative), each looked up with the probe `probe`
/// gives for it (or none); `publish_every` batches pending entries for probers.
fn cluster(
    texts: &[String],
    max_bucket: u8,
    publish_every: usize,
    mut probe: impl FnMut(usize, &Features, &NearIndex) -> Option<Probe>,
) -> Vec<i64> {
    let mut index = NearIndex::with_max_bucket(DEFAULT_THRESHOLD, max_bucket);
    let mut out = Vec::with_capacity(texts.len());
    for (i, t) in texts.iter().enumerate() {
        if i % publish_every == 0 {
            index.publish();
        }
        let f = features(t);
        let p = probe(i, &f, &index);
        // A probe also tells which keys need not be counted again.
        let eligible = match &p {
            Some(p) => index.observe_probed(&f, p),
            None => index.observe(&f),
        };
        let found = match &p {
            Some(p) => index.lookup_probed(&f, p),
            None => index.lookup(&f),
        };
        let c = match found {
            Lookup::Match(c) => {
                if index
                    .representative_completeness(c)
                    .is_some_and(|rep| completeness(&f) > rep)
                {
                    index.insert(c, f, eligible);
                }
                c
            }
            Lookup::Ambiguous => -(i as i64) - 1,
            Lookup::New => {
                index.insert(i as i64, f, eligible);
                i as i64
            }
        };
        out.push(c);
    }
    out
}

#[test]
fn probes_made_early_cluster_as_lookups_one_by_one() {
    let texts = corpus(1500, 3);
    for max_bucket in [4u8, 128] {
        let plain = cluster(&texts, max_bucket, 1, |_, _, _| None);
        let matches = plain
            .iter()
            .enumerate()
            .filter(|(i, c)| **c != *i as i64)
            .count();
        assert!(
            matches > 300,
            "the corpus has near-duplicates to find ({matches})"
        );
        // Probed against the index itself, just before each lookup.
        let now = cluster(&texts, max_bucket, 1, |_, f, idx| Some(idx.probe(f)));
        assert_eq!(now, plain, "max_bucket {max_bucket}");
        // Probed by a prober that sees only what was published, as the ingest's
        // reading stage does: the next batch is probed when a batch starts, before
        // that batch's entries are published.
        for every in [7usize, 64, 500] {
            let mut stale: Vec<Option<Probe>> = vec![None; texts.len()];
            let got = cluster(&texts, max_bucket, every, |i, _, idx| {
                if i % every == 0 {
                    let prober = idx.prober();
                    for (j, s) in stale.iter_mut().enumerate().skip(i + every).take(every) {
                        *s = Some(prober.probe(&features(&texts[j])));
                    }
                }
                stale[i].take()
            });
            assert_eq!(
                got, plain,
                "max_bucket {max_bucket}, published every {every}"
            );
        }
    }
}

#[test]
fn a_batch_probed_in_parallel_clusters_as_one_by_one() {
    let texts = corpus(1500, 5);
    let mut one = Deduper::new(DEFAULT_THRESHOLD);
    for t in &texts {
        one.push(t);
    }
    let one = one.finish();
    for size in [1usize, 37, 1000] {
        let mut batched = Deduper::new(DEFAULT_THRESHOLD);
        for chunk in texts.chunks(size) {
            batched.push_batch(chunk);
        }
        assert_eq!(batched.finish(), one, "batches of {size}");
    }
}
