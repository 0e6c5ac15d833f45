//! Fits the location confidence model on the annotated corpora, and on any more gold
//! files given (a team's verified and corrected records, `cairn export --format gold`),
//! and writes its weights file: `cargo run --release -p cairn-extract --example
//! train_place_confidence -- SHARED_DIR OUT.tsv [GOLD.jsonl...]`
//! (`tools/train/place_confidence.sh` runs it). Prints the fit's and the
//! leave-one-outlet-out figures of the `high` level.

#[path = "../tests/common/corpus.rs"]
mod corpus;

use std::path::PathBuf;

use cairn_extract::Extractor;
use cairn_extract::confidence::{self, Model};

/// Precision the `high` level must keep on outlets the fit never saw.
const HIGH_PRECISION: f64 = 0.97;

fn main() {
    let mut args = std::env::args().skip(1);
    let shared = PathBuf::from(args.next().expect("usage: SHARED_DIR OUT.tsv"));
    let out = PathBuf::from(
        args.next()
            .expect("usage: SHARED_DIR OUT.tsv [GOLD.jsonl...]"),
    );
    let extra: Vec<String> = args
        .map(|a| {
            std::path::absolute(&a)
                .unwrap_or_else(|e| panic!("{a}: {e}"))
                .display()
                .to_string()
        })
        .collect();
    let ex = Extractor::bundled();
    let (xs, ys, groups) = corpus::confidence_samples(&ex, &shared, &extra);
    let weights = confidence::fit(&xs, &ys, confidence::L2);
    let cv = confidence::cross_validate(&xs, &ys, &groups, confidence::L2);
    // The threshold is read among the locations that may be `high` at all.
    let (may_p, may_y): (Vec<f64>, Vec<bool>) = cv
        .iter()
        .zip(&ys)
        .zip(&xs)
        .filter(|(_, x)| confidence::may_be_high(x))
        .map(|((p, y), _)| (*p, *y))
        .unzip();
    let high = confidence::threshold(&may_p, &may_y, HIGH_PRECISION);
    let model = Model {
        weights,
        high,
        medium: 0.5,
    };
    let fitted: Vec<f64> = xs.iter().map(|x| model.probability(x)).collect();
    let mut outlets = groups.clone();
    outlets.sort();
    outlets.dedup();
    println!(
        "{} located captions, {} outlets, {} right",
        xs.len(),
        outlets.len(),
        ys.iter().filter(|y| **y).count()
    );
    report("fit", &model, &xs, &fitted, &ys);
    report("leave-one-outlet-out", &model, &xs, &cv, &ys);
    let header = "# The location confidence model (crate::confidence), fitted by \
                  tools/train/place_confidence.sh on the annotated corpora.\n";
    std::fs::write(&out, format!("{header}{}", model.to_tsv()))
        .unwrap_or_else(|e| panic!("{}: {e}", out.display()));
    println!("wrote {}", out.display());
}

/// The share of locations `high` and how often they are right, for probabilities `ps`.
fn report(name: &str, model: &Model, xs: &[Vec<f64>], ps: &[f64], ys: &[bool]) {
    let mut n = [0usize; 3];
    let mut right = [0usize; 3];
    for ((x, p), y) in xs.iter().zip(ps).zip(ys) {
        let level = model.level(*p, confidence::may_be_high(x)) as usize;
        n[level] += 1;
        right[level] += usize::from(*y);
    }
    let pct = |a: usize, b: usize| 100.0 * a as f64 / b.max(1) as f64;
    println!(
        "{name}: high {}/{} right ({:.1} %), {:.1} % of locations high; medium {:.1} % right; low {:.1} % right",
        right[2],
        n[2],
        pct(right[2], n[2]),
        pct(n[2], xs.len()),
        pct(right[1], n[1]),
        pct(right[0], n[0]),
    );
}
