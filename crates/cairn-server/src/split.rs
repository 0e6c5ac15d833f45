//! The timeline split by a facet: one series for each of the most frequent agencies,
//! countries or photographers of a search, the rest as "other", on the periods of the
//! whole search's timeline, so that two agencies' coverage over time is one picture.
//! `GET /api/histogram?split=agency` answers it and the page draws it.

use cairn_store::{Archive, Bucket, FacetCount, Facets, Histogram, SearchRequest, Stop};
use serde::Serialize;

use crate::{ApiError, ApiResult};

/// The values drawn as series of their own; the others are summed as "other".
pub(crate) const SERIES: usize = 5;
/// The facets a timeline can be split by.
pub(crate) const FIELDS: [&str; 3] = ["agency", "country", "photographer"];

/// A timeline split by a facet.
#[derive(Debug, Clone, Serialize)]
pub struct Split {
    /// `agency`, `country` or `photographer`.
    pub field: String,
    /// The whole search's timeline: its interval and its periods with their counts.
    pub interval: String,
    pub buckets: Vec<Bucket>,
    /// The most frequent values, most frequent first, each counted per period.
    pub series: Vec<Series>,
    /// Per period, the search's captions in none of the series (at least 0: a caption
    /// of two agencies counts in both series).
    pub other: Vec<u64>,
}

/// One value's captions per period of the timeline.
#[derive(Debug, Clone, Serialize)]
pub struct Series {
    pub value: String,
    pub counts: Vec<u64>,
}

/// `field` if the timeline can be split by it, else a `bad_request` naming the choices.
pub(crate) fn field(split: &str) -> ApiResult<&'static str> {
    FIELDS.iter().copied().find(|f| *f == split).ok_or_else(|| {
        ApiError::BadRequest(format!(
            "split must be one of {}, not {split:?}",
            FIELDS.join(", ")
        ))
    })
}

/// The facet list of `field`.
fn values<'a>(facets: &'a Facets, field: &str) -> &'a [FacetCount] {
    match field {
        "agency" => &facets.agency,
        "country" => &facets.country,
        _ => &facets.photographer,
    }
}

/// The timeline `whole` of the search `req` split by `field`, the series taken from the
/// search's own facet counts `facets`.
pub(crate) fn split(
    archive: &Archive,
    req: &SearchRequest,
    field: &'static str,
    whole: &Histogram,
    facets: &Facets,
    stop: &Stop,
) -> ApiResult<Split> {
    let mut series = Vec::new();
    for v in values(facets, field).iter().take(SERIES) {
        let mut one = req.clone();
        let filter = match field {
            "agency" => &mut one.filters.agency,
            "country" => &mut one.filters.country,
            _ => &mut one.filters.photographer,
        };
        *filter = vec![v.value.clone()];
        one.facets = false;
        one.histogram = true;
        one.geo_zoom = None;
        one.limit = 1;
        one.offset = 0;
        let r = archive.search_until(&one, stop).map_err(ApiError::from)?;
        let counts = r
            .histogram
            .map(|h| on_periods(whole, &h))
            .unwrap_or_else(|| vec![0; whole.buckets.len()]);
        series.push(Series {
            value: v.value.clone(),
            counts,
        });
    }
    let other = whole
        .buckets
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let drawn: u64 = series.iter().map(|s| s.counts[i]).sum();
            b.count.saturating_sub(drawn)
        })
        .collect();
    Ok(Split {
        field: field.to_string(),
        interval: whole.interval.clone(),
        buckets: whole.buckets.clone(),
        series,
        other,
    })
}

/// A part's histogram counted on the whole's periods. A part spans no more than the
/// whole, so its periods are as fine or finer, and each lies inside one of the whole's.
fn on_periods(whole: &Histogram, part: &Histogram) -> Vec<u64> {
    let mut counts = vec![0; whole.buckets.len()];
    for b in &part.buckets {
        // ISO dates order as text.
        let i = whole
            .buckets
            .partition_point(|w| w.from.as_str() <= b.from.as_str())
            .saturating_sub(1);
        if let Some(c) = counts.get_mut(i) {
            *c += b.count;
        }
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bucket(key: &str, from: &str, to: &str, count: u64) -> Bucket {
        Bucket {
            key: key.into(),
            from: from.into(),
            to: to.into(),
            count,
        }
    }

    #[test]
    fn a_finer_part_is_counted_in_the_periods_that_hold_it() {
        let whole = Histogram {
            interval: "month".into(),
            buckets: vec![
                bucket("2016-11", "2016-11-01", "2016-11-30", 5),
                bucket("2016-12", "2016-12-01", "2016-12-31", 0),
                bucket("2017-01", "2017-01-01", "2017-01-31", 4),
            ],
            undated: 0,
        };
        let part = Histogram {
            interval: "day".into(),
            buckets: vec![
                bucket("2016-11-30", "2016-11-30", "2016-11-30", 2),
                bucket("2016-12-01", "2016-12-01", "2016-12-01", 0),
                bucket("2017-01-02", "2017-01-02", "2017-01-02", 3),
            ],
            undated: 1,
        };
        assert_eq!(on_periods(&whole, &part), [2, 0, 3]);
        assert!(field("agency").is_ok());
        assert!(field("lang").is_err());
    }
}
