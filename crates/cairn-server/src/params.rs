//! The parameters of a search as the API and the page take them, checked and turned
//! into the store's request: every bound (window, sizes, bbox numbers) is refused with
//! a `bad_request` before any work starts.

use cairn_gazetteer::{Gazetteer, place_paths};
use cairn_store::{Filters, SearchRequest, Sort};

use crate::{ApiError, ApiResult, MAX_LIMIT, MAX_QUERY_BYTES, MAX_WINDOW};

/// The parameters of `/api/search`, `/api/export` and the page `/`. Each filter may be
/// repeated (`agency=AFP&agency=Reuters`) and each value may hold comma-separated
/// alternatives; the alternatives of one filter are OR-ed, the filters AND-ed.
#[derive(Debug, Default, Clone)]
pub(crate) struct SearchParams {
    pub(crate) q: String,
    pub(crate) limit: Option<usize>,
    pub(crate) offset: Option<usize>,
    pub(crate) agency: Vec<String>,
    pub(crate) photographer: Vec<String>,
    pub(crate) place: Vec<String>,
    pub(crate) country: Vec<String>,
    pub(crate) event: Vec<String>,
    /// Language of the caption (ISO 639-1).
    pub(crate) lang: Vec<String>,
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
    /// Source uri prefixes (one a parameter; uris may hold commas).
    pub(crate) source: Vec<String>,
    /// Review marks (`verified`, `disputed`, `corrected`, `needs_review`, a reason).
    pub(crate) review: Vec<String>,
    /// The facet the timeline is split by (`agency`, `country`, `photographer`).
    pub(crate) split: Option<String>,
}

impl SearchParams {
    /// Reads a query string. Unknown keys are left to other readers (`format`); a
    /// number that does not read is refused with a sentence naming the parameter, and an
    /// empty value (an empty form field) counts as absent.
    pub(crate) fn parse(query: &str) -> ApiResult<SearchParams> {
        Self::read(query, true).map(|(p, _)| p)
    }

    /// Reads a query string as the page does: a number that does not read is left out,
    /// with a sentence saying so, and the rest of the search is kept.
    pub(crate) fn parse_lenient(query: &str) -> (SearchParams, Vec<String>) {
        Self::read(query, false).unwrap_or_default()
    }

    fn read(query: &str, strict: bool) -> ApiResult<(SearchParams, Vec<String>)> {
        let mut p = SearchParams::default();
        let mut dropped = Vec::new();
        let d = &mut dropped;
        for (k, v) in form_urlencoded::parse(query.as_bytes()) {
            let v = v.into_owned();
            match k.as_ref() {
                "q" if p.q.is_empty() => p.q = v,
                "q" => {
                    p.q.push(' ');
                    p.q.push_str(&v);
                }
                "agency" => p.agency.push(v),
                "photographer" => p.photographer.push(v),
                "place" => p.place.push(v),
                "country" => p.country.push(v),
                "event" => p.event.push(v),
                "lang" => p.lang.push(v),
                "source" => p.source.push(v),
                "review" => p.review.push(v),
                "limit" => p.limit = number("limit", &v, strict, d)?,
                "offset" => p.offset = number("offset", &v, strict, d)?,
                "killed_min" => p.killed_min = number("killed_min", &v, strict, d)?,
                "zoom" => p.zoom = number("zoom", &v, strict, d)?,
                "from" => p.from = Some(v),
                "to" => p.to = Some(v),
                "bbox" => p.bbox = Some(v),
                "sort" => p.sort = Some(v),
                "facets" => p.facets = Some(v),
                "histogram" => p.histogram = Some(v),
                "split" => p.split = Some(v),
                _ => {}
            }
        }
        Ok((p, dropped))
    }
}

/// `SearchParams` straight from a request's query string; a refusal is the API's
/// `bad_request`.
impl<S: Send + Sync> axum::extract::FromRequestParts<S> for SearchParams {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        _: &S,
    ) -> Result<Self, Self::Rejection> {
        SearchParams::parse(parts.uri.query().unwrap_or(""))
    }
}

/// A number parameter; one that does not read is refused (`strict`) or left out with a
/// sentence in `dropped`.
fn number<T: std::str::FromStr>(
    name: &str,
    v: &str,
    strict: bool,
    dropped: &mut Vec<String>,
) -> ApiResult<Option<T>> {
    let v = v.trim();
    if v.is_empty() {
        return Ok(None);
    }
    match v.parse() {
        Ok(n) => Ok(Some(n)),
        Err(_) if !strict => {
            dropped.push(format!(
                "{name} must be a whole number in range, not {v:?}; it was left out of this search."
            ));
            Ok(None)
        }
        Err(_) => Err(ApiError::BadRequest(format!(
            "{name} must be a whole number in range, not {v:?}"
        ))),
    }
}

fn flag(v: &Option<String>) -> bool {
    matches!(v.as_deref(), Some("1" | "true" | "yes"))
}

/// Every value of a repeated parameter, each split at its commas.
fn list(values: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for x in values.iter().flat_map(|s| s.split(',')).map(str::trim) {
        if !x.is_empty() && !out.iter().any(|o| o == x) {
            out.push(x.to_string());
        }
    }
    out
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
    let bbox = p
        .bbox
        .as_deref()
        .filter(|b| !b.trim().is_empty())
        .map(parse_bbox)
        .transpose()?;
    let sort = match p.sort.as_deref() {
        None | Some("") => Sort::Relevance,
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
        lang: list(&p.lang),
        from: p.from.filter(|s| !s.trim().is_empty()),
        to: p.to.filter(|s| !s.trim().is_empty()),
        killed_min: p.killed_min,
        bbox,
        source: p.source.into_iter().filter(|s| !s.is_empty()).collect(),
        review: review_marks(&list(&p.review))?,
        incident: None,
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

/// Review marks as the store names them; an unknown one is refused (it could only
/// match nothing).
fn review_marks(marks: &[String]) -> ApiResult<Vec<String>> {
    let known = |m: &str| {
        cairn_store::DONE_MARKS.contains(&m)
            || cairn_store::REASONS.contains(&m)
            || m == cairn_store::NEEDS_REVIEW
    };
    let marks: Vec<String> = marks.iter().map(|m| m.to_ascii_lowercase()).collect();
    match marks.iter().find(|m| !known(m)) {
        Some(m) => Err(ApiError::BadRequest(format!(
            "review {m:?} is not one of verified, disputed, corrected, needs_review, {}",
            cairn_store::REASONS.join(", ")
        ))),
        None => Ok(marks),
    }
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
