//! The parameters of a search as the API and the page take them, checked and turned
//! into the store's request: every bound (window, sizes, bbox numbers) is refused with
//! a `bad_request` before any work starts.

use cairn_gazetteer::{Gazetteer, place_paths};
use cairn_store::{Filters, SearchRequest, Sort};
use serde::Deserialize;

use crate::{ApiError, ApiResult, MAX_LIMIT, MAX_QUERY_BYTES, MAX_WINDOW};

/// The parameters of `/api/search`, `/api/export` and the page `/`.
#[derive(Debug, Default, Clone, Deserialize)]
pub(crate) struct SearchParams {
    #[serde(default)]
    pub(crate) q: String,
    pub(crate) limit: Option<usize>,
    pub(crate) offset: Option<usize>,
    /// Comma-separated alternatives.
    pub(crate) agency: Option<String>,
    pub(crate) photographer: Option<String>,
    pub(crate) place: Option<String>,
    pub(crate) country: Option<String>,
    pub(crate) event: Option<String>,
    pub(crate) from: Option<String>,
    pub(crate) to: Option<String>,
    pub(crate) killed_min: Option<u32>,
    /// `west,south,east,north`.
    pub(crate) bbox: Option<String>,
    /// `relevance`, `date` (oldest first), `-date` or `date-desc` (newest first).
    pub(crate) sort: Option<String>,
    /// `1`/`true` to count facets.
    pub(crate) facets: Option<String>,
    /// `1`/`true` for the date histogram.
    pub(crate) histogram: Option<String>,
    /// Map zoom at which to cluster located matches.
    pub(crate) zoom: Option<u8>,
    /// A source uri prefix (one; uris may hold commas).
    pub(crate) source: Option<String>,
}

fn flag(v: &Option<String>) -> bool {
    matches!(v.as_deref(), Some("1" | "true" | "yes"))
}

fn list(v: &Option<String>) -> Vec<String> {
    v.as_deref()
        .map(|s| {
            s.split(',')
                .map(str::trim)
                .filter(|x| !x.is_empty())
                .map(String::from)
                .collect()
        })
        .unwrap_or_default()
}

pub(crate) fn request(p: SearchParams, gazetteer: &Gazetteer) -> ApiResult<SearchRequest> {
    if p.q.len() > MAX_QUERY_BYTES {
        return Err(ApiError::BadRequest(format!(
            "query is over {MAX_QUERY_BYTES} bytes"
        )));
    }
    let limit = p.limit.unwrap_or(20);
    let offset = p.offset.unwrap_or(0);
    if limit > MAX_LIMIT {
        return Err(ApiError::BadRequest(format!("limit is over {MAX_LIMIT}")));
    }
    // Checked: an offset near the largest integer must not wrap round under the bound.
    if offset.checked_add(limit).is_none_or(|end| end > MAX_WINDOW) {
        return Err(ApiError::BadRequest(format!(
            "offset + limit is over {MAX_WINDOW}"
        )));
    }
    let bbox = p.bbox.as_deref().map(parse_bbox).transpose()?;
    let sort = match p.sort.as_deref() {
        None => Sort::Relevance,
        Some(s) => s
            .parse()
            .map_err(|e: cairn_store::UnknownSort| ApiError::BadRequest(e.to_string()))?,
    };
    let filters = Filters {
        agency: list(&p.agency),
        photographer: list(&p.photographer),
        place: place_paths(gazetteer, &list(&p.place)).map_err(ApiError::BadRequest)?,
        country: list(&p.country),
        event: list(&p.event),
        from: p.from.filter(|s| !s.is_empty()),
        to: p.to.filter(|s| !s.is_empty()),
        killed_min: p.killed_min,
        bbox,
        source: p.source.into_iter().filter(|s| !s.is_empty()).collect(),
    };
    Ok(SearchRequest {
        query: p.q,
        filters,
        limit,
        offset,
        sort,
        facets: flag(&p.facets),
        histogram: flag(&p.histogram),
        geo_zoom: p.zoom,
    })
}

/// `west,south,east,north`: four numbers, each of which must read whole (`1,x,2,3,4` is
/// not `1,2,3,4`); the store checks that they are degrees in range.
pub fn parse_bbox(s: &str) -> ApiResult<[f64; 4]> {
    let bad = || ApiError::BadRequest(format!("bbox {s:?} is not west,south,east,north"));
    let v = s
        .split(',')
        .map(|x| x.trim().parse::<f64>().map_err(|_| bad()))
        .collect::<ApiResult<Vec<f64>>>()?;
    v.try_into().map_err(|_| bad())
}
