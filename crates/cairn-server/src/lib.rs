//! The HTTP side of cairn (axum): the JSON API, the web page and its assets. Handlers
//! call the synchronous store on blocking threads under a time limit; every API error
//! leaves through one table and one JSON shape. Who asks is found once per request
//! (`auth`); editors save corrections (`edit`), admins ingest (`POST /api/ingest`, only
//! when the server is started to allow it).
#![warn(missing_docs)]

mod auth;
mod conn;
mod correct;
mod edit;
mod export;
mod host;
mod openapi;
mod page;
mod params;
mod pool;
mod posted;
mod regroup;
mod split;
mod upload;
mod watched;
mod writer;

use std::sync::Arc;
use std::time::Duration;

use axum::extract::{DefaultBodyLimit, Path, Query, RawQuery, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use cairn_gazetteer::{Gazetteer, PlaceMatch, place_matches};
use cairn_store::{Archive, Stop};
use serde::Deserialize;
use serde_json::json;
use tokio::sync::Semaphore;

pub use auth::limit::{PER_NAME as LOGIN_FAILURES_PER_NAME, WINDOW as LOGIN_WINDOW};
pub use auth::{CSRF_HEADER, SESSION_COOKIE};
pub use conn::{serve, serve_until};
pub use openapi::openapi;
pub use params::parse_bbox;
pub(crate) use params::{SearchParams, request};
use upload::Ingest;

/// The largest page of search results one request may ask for.
pub const MAX_LIMIT: usize = 200;
/// The deepest result a request may page to.
pub const MAX_WINDOW: usize = 10_000;
/// The longest query string accepted.
pub const MAX_QUERY_BYTES: usize = 2048;
/// The largest request body accepted (an upload to `/api/ingest`).
pub const MAX_BODY_BYTES: usize = 16 * 1024 * 1024;
/// Uploads received or stored at once by default; more are refused as `busy`.
pub const MAX_UPLOADS: usize = 4;
/// Searches and page renderings running at once by default; more wait for a turn.
pub const MAX_HEAVY: usize = 8;
/// The longest a read may take before the client gets a `timeout` error.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);
/// When a posted write refused for a busy archive is told to try again (seconds).
pub const BUSY_RETRY_AFTER_SECS: u64 = 5;
/// Captions one `/api/export` request may return.
pub const MAX_EXPORT: u64 = 100_000;
/// Exports running at once by default (each holds a thread and its buffers while its
/// client reads); more wait for a turn within the time limit.
pub const MAX_EXPORTS: usize = 4;
/// The longest request line (method, path and query) accepted.
pub const MAX_URI_BYTES: usize = 8 * 1024;
/// Open connections by default; more wait to be accepted until one closes.
pub const MAX_CONNECTIONS: usize = 512;
/// How long a client has to send a request's head by default, on a new connection or
/// between two requests on a kept-alive one.
pub const DEFAULT_HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a connection may stay with no byte moving either way by default (a client
/// that stopped reading its response or sending its body).
pub const DEFAULT_IDLE_TIMEOUT: Duration = Duration::from_secs(60);

/// What a request can fail with; [`ApiError::status`] is the one table to HTTP.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// The request is malformed.
    #[error("{0}")]
    BadRequest(String),
    /// No such thing.
    #[error("{0}")]
    NotFound(String),
    /// Missing or wrong bearer token.
    #[error("{0}")]
    Unauthorized(String),
    /// The user may not do this (their role, or a write without its CSRF token).
    #[error("{0}")]
    Forbidden(String),
    /// Too many failed logins.
    #[error("{0}")]
    TooManyRequests(String),
    /// A save that does not name the version it was made against.
    #[error("{0}")]
    PreconditionRequired(String),
    /// The request took longer than the server allows.
    #[error("{0}")]
    Timeout(String),
    /// The request is larger than the server allows.
    #[error("{0}")]
    TooLarge(String),
    /// An upload that does not say how long it is.
    #[error("{0}")]
    LengthRequired(String),
    /// An upload of a type the server has no reader for.
    #[error("{0}")]
    UnsupportedType(String),
    /// The request line is longer than the server reads.
    #[error("{0}")]
    UriTooLong(String),
    /// The request's head is larger than the server reads.
    #[error("{0}")]
    HeadersTooLarge(String),
    /// The request names a host this server does not answer to.
    #[error("{0}")]
    HostNotAllowed(String),
    /// The path exists, but not with this method.
    #[error("{0}")]
    MethodNotAllowed(String),
    /// The archive is being written by another process for longer than the server
    /// waits (the answer says when to try again).
    #[error("{0}")]
    Busy(String),
    /// Something failed inside; details go to the log, not the client.
    #[error("internal error")]
    Internal(String),
}

impl ApiError {
    fn status(&self) -> (StatusCode, &'static str) {
        match self {
            ApiError::BadRequest(_) => (StatusCode::BAD_REQUEST, "bad_request"),
            ApiError::NotFound(_) => (StatusCode::NOT_FOUND, "not_found"),
            ApiError::Unauthorized(_) => (StatusCode::UNAUTHORIZED, "unauthorized"),
            ApiError::Forbidden(_) => (StatusCode::FORBIDDEN, "forbidden"),
            ApiError::TooManyRequests(_) => (StatusCode::TOO_MANY_REQUESTS, "too_many_requests"),
            ApiError::PreconditionRequired(_) => {
                (StatusCode::PRECONDITION_REQUIRED, "precondition_required")
            }
            ApiError::Timeout(_) => (StatusCode::SERVICE_UNAVAILABLE, "timeout"),
            ApiError::TooLarge(_) => (StatusCode::PAYLOAD_TOO_LARGE, "too_large"),
            ApiError::LengthRequired(_) => (StatusCode::LENGTH_REQUIRED, "length_required"),
            ApiError::UnsupportedType(_) => {
                (StatusCode::UNSUPPORTED_MEDIA_TYPE, "unsupported_type")
            }
            ApiError::UriTooLong(_) => (StatusCode::URI_TOO_LONG, "uri_too_long"),
            ApiError::HeadersTooLarge(_) => (
                StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
                "headers_too_large",
            ),
            ApiError::HostNotAllowed(_) => (StatusCode::FORBIDDEN, "host_not_allowed"),
            ApiError::MethodNotAllowed(_) => (StatusCode::METHOD_NOT_ALLOWED, "method_not_allowed"),
            ApiError::Busy(_) => (StatusCode::SERVICE_UNAVAILABLE, "busy"),
            ApiError::Internal(_) => (StatusCode::INTERNAL_SERVER_ERROR, "internal"),
        }
    }
}

impl From<cairn_store::Error> for ApiError {
    fn from(e: cairn_store::Error) -> Self {
        match e {
            cairn_store::Error::Query(m) => ApiError::BadRequest(m),
            // Only work whose request timed out or went away is stopped.
            cairn_store::Error::Stopped => ApiError::Timeout("the request was stopped".into()),
            cairn_store::Error::Busy(_) => ApiError::Busy(format!(
                "the archive is being written by another process; try again in {BUSY_RETRY_AFTER_SECS} s"
            )),
            other => ApiError::Internal(other.to_string()),
        }
    }
}

impl ApiError {
    /// The status and the one JSON shape of an error (an internal error's details are
    /// logged, not shown).
    fn json(&self) -> (StatusCode, serde_json::Value) {
        let (status, code) = self.status();
        if let ApiError::Internal(detail) = self {
            tracing::error!("internal error: {detail}");
        }
        let body = json!({ "error": { "code": code, "message": self.to_string() } });
        (status, body)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, body) = self.json();
        let mut res = (status, Json(body)).into_response();
        if let ApiError::Busy(_) = self {
            res.headers_mut().insert(
                header::RETRY_AFTER,
                HeaderValue::from(BUSY_RETRY_AFTER_SECS),
            );
        }
        res
    }
}

type ApiResult<T> = Result<T, ApiError>;

/// How the server runs.
#[derive(Debug, Clone)]
pub struct ServeOptions {
    /// `POST /api/ingest` exists, for admins.
    pub allow_ingest: bool,
    /// A bearer token that stands for an admin (and allows ingest).
    pub ingest_token: Option<String>,
    /// Reading needs a login too (else anyone who reaches the server reads).
    pub require_login: bool,
    /// Session cookies only over HTTPS; set by [`serve`] off loopback.
    pub secure_cookies: bool,
    /// The longest a read may take.
    pub timeout: Duration,
    /// Searches, exports at work and page renderings running at once; more wait for a
    /// turn (within the time limit).
    pub max_heavy: usize,
    /// Exports running at once; more wait for a turn (within the time limit).
    pub max_exports: usize,
    /// Connections open at once; more wait to be accepted.
    pub max_connections: usize,
    /// How long a client has to send a request's head (on a new connection, and
    /// between requests on a kept-alive one).
    pub header_timeout: Duration,
    /// How long a connection may stay with no byte moving either way.
    pub idle_timeout: Duration,
    /// Uploads received or stored at once; more are refused as `busy`.
    pub max_uploads: usize,
    /// The largest upload accepted, in bytes.
    pub max_body_bytes: u64,
    /// Names besides the loopback ones that a server listening on loopback answers to
    /// in `Host` (a server on another address answers to any).
    pub allowed_hosts: Vec<String>,
}

impl Default for ServeOptions {
    fn default() -> Self {
        ServeOptions {
            allow_ingest: false,
            ingest_token: None,
            require_login: false,
            secure_cookies: false,
            timeout: DEFAULT_TIMEOUT,
            max_heavy: MAX_HEAVY,
            max_exports: MAX_EXPORTS,
            max_connections: MAX_CONNECTIONS,
            header_timeout: DEFAULT_HEADER_TIMEOUT,
            idle_timeout: DEFAULT_IDLE_TIMEOUT,
            max_uploads: MAX_UPLOADS,
            max_body_bytes: MAX_BODY_BYTES as u64,
            allowed_hosts: Vec::new(),
        }
    }
}

/// Shared state of the routes.
#[derive(Debug, Clone)]
pub struct AppState {
    archive: Arc<Archive>,
    gazetteer: Arc<Gazetteer>,
    heavy: Arc<Semaphore>,
    exports: Arc<Semaphore>,
    max_exports: usize,
    timeout: Duration,
    /// How long an export waits for its client to read a chunk.
    stall: Duration,
    ingest: Option<Arc<Ingest>>,
    auth: Arc<auth::Auth>,
    /// The queue of this server's writes (saves, splits and merges, uploads).
    writer: writer::Writer,
}

const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/// Security headers on every response.
async fn security_headers(req: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let mut res = next.run(req).await;
    let h = res.headers_mut();
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    h.insert(
        "cross-origin-opener-policy",
        HeaderValue::from_static("same-origin"),
    );
    res
}

/// The router over an open archive, read-only, with default limits.
pub fn router(archive: Arc<Archive>) -> Router {
    router_with(archive, &ServeOptions::default())
}

/// The router over an open archive. With an ingest token the archive's directory is
/// also opened for writing, on the first `POST /api/ingest`.
pub fn router_with(archive: Arc<Archive>, opts: &ServeOptions) -> Router {
    let allow_ingest = opts.allow_ingest || opts.ingest_token.is_some();
    let ingest = allow_ingest.then(|| {
        Arc::new(Ingest {
            dir: archive.dir().to_path_buf(),
            uploads: Arc::new(Semaphore::new(opts.max_uploads.max(1))),
            max_uploads: opts.max_uploads.max(1),
            max_body: opts.max_body_bytes,
        })
    });
    let accounts = match cairn_store::Accounts::open_existing(archive.dir()) {
        Ok(a) => Some(Arc::new(a)),
        Err(e) => {
            tracing::warn!("no logins: the archive's accounts cannot be opened: {e}");
            None
        }
    };
    let writer = writer::Writer::start(archive.dir().to_path_buf());
    let state = AppState {
        archive,
        gazetteer: Gazetteer::bundled(),
        heavy: Arc::new(Semaphore::new(opts.max_heavy)),
        exports: Arc::new(Semaphore::new(opts.max_exports)),
        max_exports: opts.max_exports,
        timeout: opts.timeout,
        stall: opts.idle_timeout,
        ingest,
        auth: Arc::new(auth::Auth {
            accounts,
            require_login: opts.require_login,
            secure_cookies: opts.secure_cookies,
            ingest_token: opts.ingest_token.clone(),
            limiter: Default::default(),
        }),
        writer,
    };
    let mut r = Router::new()
        .route("/", get(search_page))
        .route("/captions/{id}", get(caption_page))
        .route("/captions/{id}/edit", post(correct::post_edit))
        .route("/review", get(review_page))
        .route(
            "/login",
            get(auth::session::login_form).post(auth::session::login_posted),
        )
        .route("/logout", post(auth::session::logout_posted))
        .route("/sources/{id}", get(source_page))
        .route("/assets/{name}", get(asset))
        .route("/healthz", get(healthz))
        .route("/api", get(index))
        .route("/api/openapi.json", get(openapi_json))
        .route("/api/stats", get(stats))
        .route("/api/search", get(search))
        .route("/api/histogram", get(histogram))
        .route("/api/export", get(export::export))
        .route("/api/places", get(places))
        .route("/api/login", post(auth::session::login))
        .route("/api/logout", post(auth::session::logout))
        .route("/api/users", get(edit::users))
        .route(
            "/api/captions/{id}",
            get(caption).patch(edit::patch_caption),
        )
        .route("/api/captions/{id}/history", get(edit::history))
        .route("/api/captions/{id}/split", post(regroup::split))
        .route("/api/captions/{id}/merge", post(regroup::merge))
        .route("/api/sources/{id}", get(source));
    if allow_ingest {
        r = r.route("/api/ingest", post(upload::ingest_page));
    }
    r.fallback(|| async { ApiError::NotFound("no such route".into()) })
        .method_not_allowed_fallback(|method: axum::http::Method| async move {
            ApiError::MethodNotAllowed(format!("{method} is not allowed here"))
        })
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            auth::identify,
        ))
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(axum::middleware::from_fn(uri_length))
        .layer(axum::middleware::from_fn(security_headers))
        .with_state(state)
}

/// Refuses a request line longer than [`MAX_URI_BYTES`] with the JSON error shape.
async fn uri_length(req: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let len = req.uri().path_and_query().map_or(0, |pq| pq.as_str().len());
    if len > MAX_URI_BYTES {
        return ApiError::UriTooLong(format!(
            "the request path and query are over {MAX_URI_BYTES} bytes"
        ))
        .into_response();
    }
    next.run(req).await
}

/// Raises its flag when dropped: a request's work is stopped whether it timed out or
/// its client went away (the handler's future dropped).
struct StopOnDrop(Stop);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.stop();
    }
}

/// Runs `f` on a blocking thread, once a heavy-work permit is free, and gives up with a
/// `timeout` error after the server's time limit (waiting for a permit included). `f`
/// is given a flag raised when the request is given up, so its search stops too.
async fn heavy<T: Send + 'static>(
    s: &AppState,
    f: impl FnOnce(&Stop) -> ApiResult<T> + Send + 'static,
) -> ApiResult<T> {
    heavy_by(s, tokio::time::Instant::now() + s.timeout, f).await
}

/// [`heavy`] with a deadline set earlier (a request that waited for something else
/// first).
async fn heavy_by<T: Send + 'static>(
    s: &AppState,
    deadline: tokio::time::Instant,
    f: impl FnOnce(&Stop) -> ApiResult<T> + Send + 'static,
) -> ApiResult<T> {
    let limit = s.timeout;
    let timeout = || {
        ApiError::Timeout(format!(
            "the request took longer than {} s and was stopped; narrow the query or the filters",
            limit.as_secs_f64()
        ))
    };
    let sem = s.heavy.clone();
    let stop = StopOnDrop(Stop::new());
    let flag = stop.0.clone();
    let work = async move {
        let permit = sem
            .acquire_owned()
            .await
            .map_err(|e| ApiError::Internal(e.to_string()))?;
        // A request that spent its whole time waiting for a turn does not start.
        if tokio::time::Instant::now() >= deadline {
            return Err(timeout());
        }
        // The permit goes with the work: it is given back when the work has ended
        // (soon after a stop), not when the request gave up on it.
        blocking(move || {
            let _permit = permit;
            f(&flag)
        })
        .await
    };
    let r = match tokio::time::timeout_at(deadline, work).await {
        Ok(r) => r,
        Err(_) => Err(timeout()),
    };
    drop(stop);
    r
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
        "openapi": "/api/openapi.json",
        "try": "/api/search?q=&facets=1&histogram=1&zoom=2&limit=5",
    }))
}

async fn openapi_json() -> Json<serde_json::Value> {
    Json(openapi())
}

async fn healthz() -> Json<serde_json::Value> {
    Json(json!({ "status": "ok" }))
}

async fn stats(State(s): State<AppState>) -> ApiResult<Json<cairn_store::Stats>> {
    blocking(move || Ok(Json(s.archive.stats()?))).await
}

type Params = Result<SearchParams, ApiError>;

async fn search(
    State(s): State<AppState>,
    params: Params,
) -> ApiResult<Json<cairn_store::SearchResults>> {
    let req = request(params?, &s.gazetteer)?;
    let a = s.archive.clone();
    heavy(&s, move |stop| Ok(Json(a.search_until(&req, stop)?))).await
}

/// `GET /api/histogram`: a search's timeline split by a facet (`split`, by default
/// `agency`).
async fn histogram(State(s): State<AppState>, params: Params) -> ApiResult<Json<split::Split>> {
    let p = params?;
    let field = split::field(p.split.as_deref().unwrap_or("agency"))?;
    let req = request(
        SearchParams {
            facets: Some("1".into()),
            histogram: Some("1".into()),
            zoom: None,
            limit: Some(1),
            offset: None,
            ..p
        },
        &s.gazetteer,
    )?;
    let a = s.archive.clone();
    heavy(&s, move |stop| {
        let r = a.search_until(&req, stop)?;
        let (Some(h), Some(f)) = (&r.histogram, &r.facets) else {
            return Err(ApiError::Internal(
                "a search asked for its histogram and facets answered without them".into(),
            ));
        };
        Ok(Json(split::split(&a, &req, field, h, f, stop)?))
    })
    .await
}

#[derive(Debug, Deserialize)]
struct PlacesParams {
    #[serde(default)]
    q: String,
}

async fn places(
    State(s): State<AppState>,
    params: Result<Query<PlacesParams>, axum::extract::rejection::QueryRejection>,
) -> ApiResult<Json<Vec<PlaceMatch>>> {
    let Query(p) = params.map_err(|e| ApiError::BadRequest(e.body_text()))?;
    if p.q.trim().is_empty() {
        return Err(ApiError::BadRequest("q is required".into()));
    }
    if p.q.len() > 200 {
        return Err(ApiError::BadRequest("q is over 200 bytes".into()));
    }
    Ok(Json(place_matches(&s.gazetteer, &p.q, 20)))
}

fn html_response(status: StatusCode, markup: maud::Markup) -> Response {
    (status, Html(markup.into_string())).into_response()
}

fn page_error(e: ApiError) -> Response {
    let (status, _) = e.status();
    if let ApiError::Internal(d) = &e {
        tracing::error!("internal error: {d}");
    }
    html_response(status, page::error_page(status.as_u16(), &e.to_string()))
}

/// The search page; a number in its query string that does not read is left out and
/// named on the page, which keeps the rest of the search.
async fn search_page(State(s): State<AppState>, uri: axum::http::Uri) -> Response {
    let (p, dropped) = SearchParams::parse_lenient(uri.query().unwrap_or(""));
    let (a, g) = (s.archive.clone(), s.gazetteer.clone());
    match heavy(&s, move |stop| page::search_view(&a, &g, p, dropped, stop)).await {
        Ok(v) => html_response(StatusCode::OK, page::search_page(&v)),
        Err(e) => page_error(e),
    }
}

async fn caption_page(
    State(s): State<AppState>,
    Path(raw): Path<String>,
    RawQuery(query): RawQuery,
) -> Response {
    let id = match parse_id(&raw) {
        Ok(id) => id,
        Err(e) => return page_error(e),
    };
    // The search the caption was reached from, for the way back and the search box.
    let back = SearchParams::parse(query.as_deref().unwrap_or("")).unwrap_or_default();
    let back = page::State::from_params(&back);
    caption_response(&s, id, back, StatusCode::OK, page::Posted::default()).await
}

/// A caption's page with `status`; `posted` is a correction form drawn again.
async fn caption_response(
    s: &AppState,
    id: i64,
    back: page::State,
    status: StatusCode,
    posted: page::Posted,
) -> Response {
    let (a, g) = (s.archive.clone(), s.gazetteer.clone());
    match heavy(s, move |_| {
        let c = a
            .caption(id)?
            .ok_or_else(|| ApiError::NotFound(format!("no caption {id}")))?;
        let seen = page::first_seen(&a, &c);
        let country = c
            .record
            .as_ref()
            .and_then(|r| r.location.as_ref()?.country.as_deref())
            .and_then(|cc| g.country(cc))
            .map(|i| g.entry(i).name.clone());
        let history = a.history(id)?;
        Ok((c, seen, country, history))
    })
    .await
    {
        Ok((c, seen, country, history)) => html_response(
            status,
            page::caption_page(&c, &back, &seen, country.as_deref(), &history, &posted),
        ),
        Err(e) => page_error(e),
    }
}

/// `GET /review`: the captions that need review, by reason, a page at a time
/// (`offset`, `limit`), narrowed by any of the search's filters.
async fn review_page(State(s): State<AppState>, uri: axum::http::Uri) -> Response {
    let query = uri.query().unwrap_or("");
    let reason = form_urlencoded::parse(query.as_bytes())
        .find(|(k, _)| k == "reason")
        .and_then(|(_, v)| cairn_store::REASONS.iter().find(|r| **r == v).copied());
    let (mut p, _) = SearchParams::parse_lenient(query);
    p.review = vec![page::QUEUE_FILTER.to_string()];
    p.limit = Some(p.limit.unwrap_or(page::REVIEW_PAGE).clamp(1, MAX_LIMIT));
    let queue = page::Queue {
        reason,
        filters: page::State::from_params(&p),
        offset: p.offset.unwrap_or(0),
        limit: p.limit.unwrap_or(page::REVIEW_PAGE),
    };
    let mut req = match request(p, &s.gazetteer) {
        Ok(r) => r,
        Err(e) => return page_error(e),
    };
    let mark = reason.unwrap_or(page::QUEUE_FILTER).to_string();
    let a = s.archive.clone();
    let found = heavy(&s, move |stop| {
        // The reasons are counted over the whole queue, whichever is listed.
        let (limit, offset) = (req.limit, req.offset);
        (req.limit, req.offset, req.facets) = (1, 0, true);
        let counts = a.search_until(&req, stop)?.facets;
        (req.limit, req.offset, req.facets) = (limit, offset, false);
        req.filters.review = vec![mark];
        let mut listed = a.search_until(&req, stop)?;
        listed.facets = counts;
        Ok(listed)
    })
    .await;
    match found {
        Ok(r) => html_response(StatusCode::OK, page::review_page(&r, &queue)),
        Err(e) => page_error(e),
    }
}

async fn source_page(State(s): State<AppState>, Path(raw): Path<String>) -> Response {
    let id = match parse_id(&raw) {
        Ok(id) => id,
        Err(e) => return page_error(e),
    };
    let a = s.archive.clone();
    match heavy(&s, move |_| source_with_text(&a, id)).await {
        Ok((v, text)) => html_response(StatusCode::OK, page::source_page(&v, text.as_deref())),
        Err(e) => page_error(e),
    }
}

const APP_JS: &str = include_str!("../assets/app.js");
const APP_CSS: &str = include_str!("../assets/app.css");
const WORLD_SVG: &str = include_str!("../assets/world.svg");
const FAVICON_SVG: &str = include_str!("../assets/favicon.svg");

/// Embedded assets by exact name: nothing is read from disk, so no path can escape.
async fn asset(Path(name): Path<String>) -> Response {
    let (body, kind) = match name.as_str() {
        "app.js" => (APP_JS, "text/javascript; charset=utf-8"),
        "app.css" => (APP_CSS, "text/css; charset=utf-8"),
        "world.svg" => (WORLD_SVG, "image/svg+xml"),
        "favicon.svg" => (FAVICON_SVG, "image/svg+xml"),
        _ => return ApiError::NotFound(format!("no asset {name:?}")).into_response(),
    };
    (
        [
            (header::CONTENT_TYPE, kind),
            (header::CACHE_CONTROL, "public, max-age=3600"),
        ],
        body,
    )
        .into_response()
}

fn parse_id(raw: &str) -> ApiResult<i64> {
    raw.parse::<i64>()
        .map_err(|_| ApiError::BadRequest(format!("{raw:?} is not an id")))
}

async fn caption(State(s): State<AppState>, Path(raw): Path<String>) -> ApiResult<Response> {
    let id = parse_id(&raw)?;
    blocking(move || {
        let c = s
            .archive
            .caption(id)?
            .ok_or_else(|| ApiError::NotFound(format!("no caption {id}")))?;
        let version = c.review.version;
        let body = serde_json::to_value(&c).map_err(|e| ApiError::Internal(e.to_string()))?;
        Ok(edit::with_etag(StatusCode::OK, body, version))
    })
    .await
}

/// A source's metadata and its text as the spans count it.
fn source_with_text(a: &Archive, id: i64) -> ApiResult<(cairn_store::SourceView, Option<String>)> {
    let view = a
        .source(id)?
        .ok_or_else(|| ApiError::NotFound(format!("no source {id}")))?;
    // The text spans count in is the reader's rendering of the stored bytes.
    let text = a.source_bytes(&view.sha256)?.and_then(|bytes| {
        let kind = cairn_model::SourceKind::parse(&view.kind)?;
        // Decoded as it was when stored, so the spans count in the same text.
        cairn_ingest::render_as_stored(
            cairn_ingest::RawSource {
                uri: view.uri.clone(),
                name: view.uri.clone(),
                kind,
                bytes,
                sha256: view.sha256.clone(),
                origin: view.origin.clone(),
            },
            &view.encoding,
        )
        .ok()
        .map(|d| d.text)
    });
    Ok((view, text))
}

async fn source(
    State(s): State<AppState>,
    Path(raw): Path<String>,
) -> ApiResult<Json<serde_json::Value>> {
    let id = parse_id(&raw)?;
    let a = s.archive.clone();
    heavy(&s, move |_| {
        let (view, text) = source_with_text(&a, id)?;
        let mut v = serde_json::to_value(&view).map_err(|e| ApiError::Internal(e.to_string()))?;
        v["text"] = json!(text);
        Ok(Json(v))
    })
    .await
}
