//! Pairwise precision and recall of linking on the generator's labelled incident corpus,
//! the captions extracted as ingest extracts them.

use std::collections::BTreeSet;

use cairn_extract::Extractor;
use cairn_gazetteer::Gazetteer;
use cairn_incidents::{Item, incidents};
use cairn_synth::IncidentCorpus;

type Pairs = BTreeSet<(i64, i64)>;

fn pairs_of(groups: impl Iterator<Item = Vec<i64>>) -> Pairs {
    let mut out = Pairs::new();
    for g in groups {
        for (k, a) in g.iter().enumerate() {
            out.extend(g[k + 1..].iter().map(|b| (*a.min(b), *a.max(b))));
        }
    }
    out
}

#[test]
fn linking_finds_the_labelled_incidents() {
    let g = Gazetteer::bundled();
    let corpus = IncidentCorpus::new(&g, 11);
    let captions: Vec<_> = corpus.items(150).collect();
    let x = Extractor::bundled();
    let items: Vec<Item> = captions
        .iter()
        .enumerate()
        .map(|(i, c)| Item {
            id: i as i64,
            record: x.extract(&c.text),
        })
        .collect();
    let mut truth: std::collections::BTreeMap<u64, Vec<i64>> = Default::default();
    for (i, c) in captions.iter().enumerate() {
        truth.entry(c.incident).or_default().push(i as i64);
    }
    let want = pairs_of(truth.into_values());
    let got = pairs_of(incidents(&items).into_iter().map(|i| i.captions));
    let hit = got.intersection(&want).count() as f64;
    let (precision, recall) = (hit / got.len() as f64, hit / want.len() as f64);
    eprintln!(
        "incident pairs: {} true, {} found, precision {precision:.3}, recall {recall:.3}",
        want.len(),
        got.len()
    );
    for (a, b) in got.difference(&want).take(5) {
        eprintln!(
            "WRONG LINK\n  {}\n  {}",
            captions[*a as usize].text, captions[*b as usize].text
        );
    }
    for (a, b) in want.difference(&got).take(8) {
        eprintln!(
            "MISSED\n  {}\n  {}",
            captions[*a as usize].text, captions[*b as usize].text
        );
    }
    assert!(precision >= 0.97, "precision {precision:.3}");
    assert!(recall >= 0.90, "recall {recall:.3}");
}
