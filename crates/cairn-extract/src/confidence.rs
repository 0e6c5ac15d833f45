//! How sure the location is: a logistic model over what the scene choice read of the
//! chosen place (its role, dateline, qualifier, kind, size, agreement with the caption's
//! other places, the hand-written rule's own level), with its weights and thresholds in
//! `data/place_confidence.tsv`. `tools/train/place_confidence.sh` fits them on the
//! annotated corpora, and sets the `high` threshold on leave-one-outlet-out predictions,
//! so that `high` is right as often on outlets the fit never saw as promised.

use std::sync::LazyLock;

use cairn_model::Confidence;

/// The features, in the order of a feature vector and of the weights file.
pub const FEATURES: &[&str] = &[
    "bias",
    "dateline",
    "qualified",
    "fallback",
    "exact",
    "hinted",
    "in_scene",
    "surroundings",
    "role_in",
    "role_near",
    "role_weak",
    "role_bare",
    "role_other",
    "kind_country",
    "kind_admin",
    "kind_region",
    "kind_town",
    "kind_local",
    "log_population",
    "same_country_share",
    "no_other_place",
    "many_countries",
    "supplement",
    "rule_high",
    "rule_medium",
    "site_after",
    "possessive",
    "places_named",
    "holds_unknown",
];

/// The L2 penalty of the fit: enough to keep rare features' weights finite.
pub const L2: f64 = 1.0;

/// Whether a location with features `x` may be `high`: read by an exact name, not
/// located at what encloses it, and named in a role that can be the scene.
pub fn may_be_high(x: &[f64]) -> bool {
    x[4] == 1.0 && x[3] == 0.0 && x[12] == 0.0
}

/// A fitted model: one weight per feature, and the probabilities from which a location
/// is `high` and `medium`.
#[derive(Debug, Clone, PartialEq)]
pub struct Model {
    /// Weights, in [`FEATURES`] order.
    pub weights: Vec<f64>,
    /// From this probability on, `high`.
    pub high: f64,
    /// From this probability on, `medium`.
    pub medium: f64,
}

static BUNDLED: LazyLock<Model> = LazyLock::new(|| {
    Model::parse(include_str!("../data/place_confidence.tsv"))
        .expect("the bundled place confidence model parses")
});

impl Model {
    /// The model shipped with cairn.
    pub fn bundled() -> &'static Model {
        &BUNDLED
    }

    /// Reads the weights file: `name<TAB>value` lines, `#` comments, the thresholds as
    /// `threshold_high` and `threshold_medium`; every feature must be there.
    pub fn parse(text: &str) -> Result<Model, String> {
        let mut weights = vec![f64::NAN; FEATURES.len()];
        let (mut high, mut medium) = (f64::NAN, f64::NAN);
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (name, value) = line
                .split_once('\t')
                .ok_or_else(|| format!("line {}: no tab", n + 1))?;
            let v: f64 = value
                .trim()
                .parse()
                .map_err(|e| format!("line {}: {e}", n + 1))?;
            match name {
                "threshold_high" => high = v,
                "threshold_medium" => medium = v,
                _ => {
                    let i = FEATURES
                        .iter()
                        .position(|f| *f == name)
                        .ok_or_else(|| format!("line {}: unknown feature {name:?}", n + 1))?;
                    weights[i] = v;
                }
            }
        }
        if let Some(i) = weights.iter().position(|w| w.is_nan()) {
            return Err(format!("no weight for {}", FEATURES[i]));
        }
        if high.is_nan() || medium.is_nan() {
            return Err("a threshold is missing".to_string());
        }
        Ok(Model {
            weights,
            high,
            medium,
        })
    }

    /// The weights file's text.
    pub fn to_tsv(&self) -> String {
        let mut out = String::new();
        for (f, w) in FEATURES.iter().zip(&self.weights) {
            out.push_str(&format!("{f}\t{w:.6}\n"));
        }
        // Thresholds in full: a level is a comparison with the fit's own probabilities,
        // and a threshold rounded down would let the next one below it in.
        out.push_str(&format!("threshold_high\t{}\n", self.high));
        out.push_str(&format!("threshold_medium\t{}\n", self.medium));
        out
    }

    /// The probability that the location with features `x` is right.
    pub fn probability(&self, x: &[f64]) -> f64 {
        sigmoid(dot(&self.weights, x))
    }

    /// The level for probability `p`; `may_be_high` is false for a place read only by a
    /// spelling match or located at what encloses it.
    pub fn level(&self, p: f64, may_be_high: bool) -> Confidence {
        if p >= self.high && may_be_high {
            Confidence::High
        } else if p >= self.medium {
            Confidence::Medium
        } else {
            Confidence::Low
        }
    }
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// Fits logistic weights by Newton's method with an L2 penalty `l2` (the bias too, which
/// keeps the system solvable when a feature never varies). Deterministic: the same rows
/// give the same weights.
pub fn fit(xs: &[Vec<f64>], ys: &[bool], l2: f64) -> Vec<f64> {
    let d = FEATURES.len();
    let mut w = vec![0.0; d];
    for _ in 0..30 {
        let mut grad: Vec<f64> = w.iter().map(|wi| l2 * wi).collect();
        let mut hess = vec![vec![0.0; d]; d];
        for (i, row) in hess.iter_mut().enumerate() {
            row[i] = l2;
        }
        for (x, &y) in xs.iter().zip(ys) {
            let p = sigmoid(dot(&w, x));
            let r = p - f64::from(u8::from(y));
            let s = p * (1.0 - p);
            for i in 0..d {
                grad[i] += r * x[i];
                if x[i] == 0.0 {
                    continue;
                }
                for j in 0..d {
                    hess[i][j] += s * x[i] * x[j];
                }
            }
        }
        let step = solve(hess, grad);
        let mut moved = 0.0f64;
        for (wi, si) in w.iter_mut().zip(&step) {
            *wi -= si;
            moved = moved.max(si.abs());
        }
        if moved < 1e-9 {
            break;
        }
    }
    w
}

/// Solves `a x = b` for a symmetric positive definite `a` (Cholesky: `a = L Lᵀ`, `L`
/// kept in the lower triangle of `a`).
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Vec<f64> {
    let n = b.len();
    for j in 0..n {
        let d = (a[j][j] - dot(&a[j][..j], &a[j][..j])).max(1e-12).sqrt();
        a[j][j] = d;
        for i in j + 1..n {
            let s = a[i][j] - dot(&a[i][..j], &a[j][..j]);
            a[i][j] = s / d;
        }
    }
    for i in 0..n {
        b[i] = (b[i] - dot(&a[i][..i], &b[..i])) / a[i][i];
    }
    for i in (0..n).rev() {
        let s: f64 = (i + 1..n).map(|k| a[k][i] * b[k]).sum();
        b[i] = (b[i] - s) / a[i][i];
    }
    b
}

/// Each row's probability from a model fitted on every other group's rows
/// (leave-one-group-out: a group is an outlet).
pub fn cross_validate(xs: &[Vec<f64>], ys: &[bool], groups: &[String], l2: f64) -> Vec<f64> {
    let mut names: Vec<&String> = groups.iter().collect();
    names.sort();
    names.dedup();
    let mut out = vec![0.0; xs.len()];
    for g in names {
        let (tx, ty): (Vec<Vec<f64>>, Vec<bool>) = xs
            .iter()
            .zip(ys)
            .zip(groups)
            .filter(|(_, h)| *h != g)
            .map(|((x, y), _)| (x.clone(), *y))
            .unzip();
        let w = fit(&tx, &ty, l2);
        for (i, h) in groups.iter().enumerate() {
            if h == g {
                out[i] = sigmoid(dot(&w, &xs[i]));
            }
        }
    }
    out
}

/// The lowest probability from which the rows at or above it are right at least
/// `precision` of the time (the highest probability seen when none is).
pub fn threshold(ps: &[f64], ys: &[bool], precision: f64) -> f64 {
    let mut rows: Vec<(f64, bool)> = ps.iter().copied().zip(ys.iter().copied()).collect();
    rows.sort_by(|a, b| b.0.total_cmp(&a.0));
    let (mut right, mut best) = (0usize, f64::INFINITY);
    for (n, &(p, y)) in rows.iter().enumerate() {
        right += usize::from(y);
        let next_differs = rows.get(n + 1).is_none_or(|r| r.0 < p);
        if next_differs && right as f64 >= precision * (n + 1) as f64 {
            best = p;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bundled_model_parses_and_writes_back() {
        let m = Model::bundled();
        assert_eq!(m.weights.len(), FEATURES.len());
        assert_eq!(Model::parse(&m.to_tsv()).as_ref(), Ok(m));
        assert!(m.medium < m.high);
    }

    #[test]
    fn a_fit_separates_what_a_feature_tells() {
        // Rows whose `dateline` is set are right, the others wrong, with noise.
        let mut xs = Vec::new();
        let mut ys = Vec::new();
        for i in 0..200 {
            let mut x = vec![0.0; FEATURES.len()];
            x[0] = 1.0;
            x[1] = f64::from(u8::from(i % 2 == 0));
            xs.push(x);
            ys.push((i % 2 == 0) != (i % 17 == 0));
        }
        let w = fit(&xs, &ys, 1.0);
        assert!(w[1] > 1.0, "{w:?}");
        let ps: Vec<f64> = xs.iter().map(|x| sigmoid(dot(&w, x))).collect();
        let t = threshold(&ps, &ys, 0.9);
        assert!(t > 0.5 && t < 1.0, "{t}");
    }

    #[test]
    fn a_threshold_keeps_its_precision() {
        let ps = [0.9, 0.8, 0.7, 0.6, 0.5];
        let ys = [true, true, false, true, false];
        assert_eq!(threshold(&ps, &ys, 1.0), 0.8);
        assert_eq!(threshold(&ps, &ys, 0.75), 0.6);
    }
}
