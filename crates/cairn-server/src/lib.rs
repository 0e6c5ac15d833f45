//! The HTTP JSON API over the archive (axum). Handlers call the synchronous store on
//! blocking threads; every error leaves through one table and one JSON shape.
#![warn(missing_docs)]

use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use cairn_gazetteer::Gazetteer;
use cairn_store::{Archive, Filters, SearchRequest, Sort};
use serde::Deserialize;
use serde_json::json;

/// The largest page of search results one request may ask for.
pub const MAX_LIMIT: usize = 200;
/// The deepest result a request may page to.
pub const MAX_WINDOW: usize = 10_000;
/// The longest query string accepted.
pub const MAX_QUERY_BYTES: usize = 2048;

/// What a request can fail with; [`ApiError::status`] is the one table to HTTP.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// The request is malformed.
    #[error("{0}")]
    BadRequest(String),
    /// No such thing.
    #[error("{0}")]
    NotFound(String),
    /// Something failed inside; details go to the log, not the client.
    #[error("internal error")]
    Internal(String),
}

impl ApiError {
    fn status(&self) -> (StatusCode, &'static str) {
        match self {
            ApiError::BadRequest(_) => (StatusCode::BAD_REQUEST, "bad_request"),
            ApiError::NotFound(_) => (StatusCode::NOT_FOUND, "not_found"),
            ApiError::Internal(_) => (StatusCode::INTERNAL_SERVER_ERROR, "internal"),
        }
    }
}

impl From<cairn_store::Error> for ApiError {
    fn from(e: cairn_store::Error) -> Self {
        match e {
            cairn_store::Error::Query(m) => ApiError::BadRequest(m),
            other => ApiError::Internal(other.to_string()),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, code) = self.status();
        if let ApiError::Internal(detail) = &self {
            eprintln!("cairn serve: internal error: {detail}");
        }
        let body = json!({ "error": { "code": code, "message": self.to_string() } });
        (status, Json(body)).into_response()
    }
}

type ApiResult<T> = Result<T, ApiError>;

/// Shared state of the routes.
#[derive(Debug, Clone)]
pub struct AppState {
    archive: Arc<Archive>,
    gazetteer: Arc<Gazetteer>,
}

/// The API router over an open archive.
pub fn router(archive: Arc<Archive>) -> Router {
    Router::new()
        .route("/", get(index))
        .route("/healthz", get(healthz))
        .route("/api/stats", get(stats))
        .route("/api/search", get(search))
        .route("/api/captions/{id}", get(caption))
        .route("/api/sources/{id}", get(source))
        .fallback(|| async { ApiError::NotFound("no such route".into()) })
        .with_state(AppState {
            archive,
            gazetteer: Gazetteer::bundled(),
        })
}

async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> ApiResult<T> + Send + 'static,
) -> ApiResult<T> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| ApiError::Internal(e.to_string()))?
}

async fn index() -> Json<serde_json::Value> {
    Json(json!({
        "name": "cairn",
        "about": "a deduplicated, searchable archive of news photo captions",
        "endpoints": {
            "GET /api/search": "q, agency, photographer, place, country, event (comma-separated alternatives), from, to, killed_min, bbox=w,s,e,n, sort=relevance|date|-date, facets=1, limit, offset",
            "GET /api/captions/{id}": "a caption with its record, variants and occurrences",
            "GET /api/sources/{id}": "a source's metadata, text and caption spans",
            "GET /api/stats": "counts",
            "GET /healthz": "liveness",
        },
        "try": "/api/search?q=&facets=1&limit=5",
    }))
}

async fn healthz() -> Json<serde_json::Value> {
    Json(json!({ "status": "ok" }))
}

async fn stats(State(s): State<AppState>) -> ApiResult<Json<cairn_store::Stats>> {
    blocking(move || Ok(Json(s.archive.stats()?))).await
}

#[derive(Debug, Default, Deserialize)]
struct SearchParams {
    #[serde(default)]
    q: String,
    limit: Option<usize>,
    offset: Option<usize>,
    /// Comma-separated alternatives.
    agency: Option<String>,
    photographer: Option<String>,
    place: Option<String>,
    country: Option<String>,
    event: Option<String>,
    from: Option<String>,
    to: Option<String>,
    killed_min: Option<u32>,
    /// `west,south,east,north`.
    bbox: Option<String>,
    /// `relevance`, `date` (oldest first) or `-date`.
    sort: Option<String>,
    /// `1`/`true` to count facets.
    facets: Option<String>,
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

/// Turns place names into gazetteer paths (ids, outermost first).
pub fn place_paths(gazetteer: &Gazetteer, names: &[String]) -> Result<Vec<Vec<String>>, String> {
    names
        .iter()
        .map(|n| {
            let id = gazetteer
                .best_match(n)
                .ok_or_else(|| format!("unknown place {n:?}"))?;
            Ok(gazetteer
                .path(id)
                .into_iter()
                .map(|p| gazetteer.entry(p).id.clone())
                .collect())
        })
        .collect()
}

fn request(p: SearchParams, gazetteer: &Gazetteer) -> ApiResult<SearchRequest> {
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
    if offset + limit > MAX_WINDOW {
        return Err(ApiError::BadRequest(format!(
            "offset + limit is over {MAX_WINDOW}"
        )));
    }
    let bbox = match &p.bbox {
        None => None,
        Some(b) => {
            let v: Vec<f64> = b.split(',').filter_map(|x| x.trim().parse().ok()).collect();
            let arr: [f64; 4] = v
                .try_into()
                .map_err(|_| ApiError::BadRequest("bbox is west,south,east,north".into()))?;
            Some(arr)
        }
    };
    let sort = match p.sort.as_deref() {
        None | Some("relevance") => Sort::Relevance,
        Some("date") => Sort::DateAsc,
        Some("-date") => Sort::DateDesc,
        Some(other) => return Err(ApiError::BadRequest(format!("unknown sort {other:?}"))),
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
    };
    let facets = matches!(p.facets.as_deref(), Some("1" | "true" | "yes"));
    Ok(SearchRequest {
        query: p.q,
        filters,
        limit,
        offset,
        sort,
        facets,
    })
}

async fn search(
    State(s): State<AppState>,
    params: Result<Query<SearchParams>, axum::extract::rejection::QueryRejection>,
) -> ApiResult<Json<cairn_store::SearchResults>> {
    let Query(p) = params.map_err(|e| ApiError::BadRequest(e.body_text()))?;
    let req = request(p, &s.gazetteer)?;
    blocking(move || Ok(Json(s.archive.search(&req)?))).await
}

fn parse_id(raw: &str) -> ApiResult<i64> {
    raw.parse::<i64>()
        .map_err(|_| ApiError::BadRequest(format!("{raw:?} is not an id")))
}

async fn caption(
    State(s): State<AppState>,
    Path(raw): Path<String>,
) -> ApiResult<Json<cairn_store::CaptionView>> {
    let id = parse_id(&raw)?;
    blocking(move || {
        s.archive
            .caption(id)?
            .map(Json)
            .ok_or_else(|| ApiError::NotFound(format!("no caption {id}")))
    })
    .await
}

async fn source(
    State(s): State<AppState>,
    Path(raw): Path<String>,
) -> ApiResult<Json<serde_json::Value>> {
    let id = parse_id(&raw)?;
    blocking(move || {
        let view = s
            .archive
            .source(id)?
            .ok_or_else(|| ApiError::NotFound(format!("no source {id}")))?;
        let text = s
            .archive
            .source_bytes(&view.sha256)?
            .map(|b| String::from_utf8_lossy(&b).into_owned());
        let mut v = serde_json::to_value(&view).map_err(|e| ApiError::Internal(e.to_string()))?;
        v["text"] = json!(text);
        Ok(Json(v))
    })
    .await
}

/// Serves the router on `listener` until the process is interrupted.
pub async fn serve(
    listener: tokio::net::TcpListener,
    archive: Arc<Archive>,
) -> std::io::Result<()> {
    axum::serve(listener, router(archive))
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
}
