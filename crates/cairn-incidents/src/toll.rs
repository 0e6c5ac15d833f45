//! Claims and the tolls an incident reports across them, as UCDP does: a low, a best and
//! a high estimate, and whether the claims contradict one another.

use cairn_model::Count;
use serde::Serialize;

/// One figure a caption claims: `low` at least, `high` at most (`None`: open-ended).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Figure {
    /// The lowest value the words allow.
    pub low: u32,
    /// The highest, or `None` for `at least`.
    pub high: Option<u32>,
}

impl From<&Count> for Figure {
    fn from(c: &Count) -> Self {
        Figure {
            low: c.low,
            high: c.high,
        }
    }
}

/// An incident's estimate of one toll.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Toll {
    /// The least the claims support.
    pub low: u32,
    /// The best estimate.
    pub best: u32,
    /// The most any claim states.
    pub high: u32,
    /// Some claim's upper bound stands below another claim's lower bound.
    pub contested: bool,
}

/// The toll across claims; `None` when no claim gives one.
///
/// Each claim is a range, `at least N` open above. The claims contradict one another
/// (`contested`) when some claim's upper bound is below another's lower bound. When they
/// do not, every claim holds at the largest lower bound, so `low` is the maximum of the
/// lower bounds; when they do, `low` is the minimum of them. `high` is the largest value
/// any claim states (its upper bound, or its lower bound when open). `best` is the median
/// of the claims' lower bounds (the lower of the two middle ones), moved into
/// `low..=high`.
pub fn toll(claims: &[Figure]) -> Option<Toll> {
    let max_low = claims.iter().map(|c| c.low).max()?;
    let min_low = claims.iter().map(|c| c.low).min()?;
    let min_high = claims.iter().filter_map(|c| c.high).min();
    let contested = min_high.is_some_and(|h| h < max_low);
    let low = if contested { min_low } else { max_low };
    let high = claims
        .iter()
        .map(|c| c.high.unwrap_or(c.low))
        .max()?
        .max(low);
    let mut lows: Vec<u32> = claims.iter().map(|c| c.low).collect();
    lows.sort_unstable();
    let best = lows[(lows.len() - 1) / 2].clamp(low, high);
    Some(Toll {
        low,
        best,
        high,
        contested,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(low: u32, high: Option<u32>) -> Figure {
        Figure { low, high }
    }

    #[test]
    fn hedged_claims_that_fit_together_are_not_contested() {
        let t = toll(&[f(12, None), f(15, Some(15)), f(14, Some(16))]).unwrap();
        assert_eq!((t.low, t.best, t.high, t.contested), (15, 15, 16, false));
    }

    #[test]
    fn exact_claims_that_differ_are_contested() {
        let t = toll(&[f(8, Some(8)), f(20, Some(20)), f(11, Some(11))]).unwrap();
        assert_eq!((t.low, t.best, t.high, t.contested), (8, 11, 20, true));
    }

    #[test]
    fn no_claim_no_toll() {
        assert_eq!(toll(&[]), None);
    }
}
