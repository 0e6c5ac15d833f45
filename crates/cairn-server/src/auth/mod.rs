//! Who is asking, and what they may do. A request is made by nobody, by a user of a
//! login session (the `cairn_session` cookie, for the page) or by a user's bearer
//! token (for the API); `--allow-ingest`'s token stands for an admin. Readers search
//! and read, editors also correct, admins also manage users and ingest.
//!
//! - `limit`: failed logins counted and bounded;
//! - `session`: `POST /api/login` and `/api/logout`, the cookie and its CSRF token.

pub(crate) mod limit;
pub(crate) mod session;

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{HeaderMap, Method, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use cairn_store::{Accounts, Role, TokenKind};

use crate::{ApiError, ApiResult, AppState, blocking};

/// The cookie of a login session.
pub const SESSION_COOKIE: &str = "cairn_session";
/// The header a cookie-authenticated write carries its CSRF token in.
pub const CSRF_HEADER: &str = "x-csrf-token";

/// What the server knows of accounts.
#[derive(Debug)]
pub(crate) struct Auth {
    /// The archive's accounts; `None` where they cannot be opened (a read-only
    /// archive): then nobody logs in, and only anonymous reading is possible.
    pub accounts: Option<Arc<Accounts>>,
    /// Reading needs a login too.
    pub require_login: bool,
    /// Session cookies are sent only over HTTPS (a server off loopback).
    pub secure_cookies: bool,
    /// The `--allow-ingest` token, which stands for an admin.
    pub ingest_token: Option<String>,
    pub limiter: limit::Limiter,
}

/// How a user showed who they are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Via {
    /// A bearer token (not sent by a browser on its own: no CSRF token needed).
    Bearer,
    /// The session cookie, whose secret the CSRF token is derived from.
    Cookie(String),
}

/// A user making a request.
#[derive(Debug, Clone)]
pub(crate) struct User {
    pub name: String,
    pub role: Role,
    pub via: Via,
}

/// Who makes a request: set by [`identify`] on every request.
#[derive(Debug, Clone, Default)]
pub(crate) struct Caller(pub Option<User>);

impl Caller {
    /// The user, when they may act as `role`: otherwise 401 for nobody, 403 for a
    /// user of a lesser role.
    pub(crate) fn at_least(&self, role: Role) -> ApiResult<&User> {
        let Some(u) = &self.0 else {
            return Err(ApiError::Unauthorized(
                "log in (POST /api/login) or send a bearer token".into(),
            ));
        };
        if u.role < role {
            return Err(ApiError::Forbidden(format!(
                "{} is a {}; this needs an {}",
                u.name,
                u.role.as_str(),
                role.as_str()
            )));
        }
        Ok(u)
    }

    /// [`Caller::at_least`] for a request that changes something: a user of the
    /// session cookie must also send the session's CSRF token.
    pub(crate) fn may_write(&self, role: Role, headers: &HeaderMap) -> ApiResult<&User> {
        let given = headers
            .get(CSRF_HEADER)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("");
        self.may_post(role, given)
    }

    /// [`Caller::may_write`] with the CSRF token `given` in a posted form.
    pub(crate) fn may_post(&self, role: Role, given: &str) -> ApiResult<&User> {
        let u = self.at_least(role)?;
        if let Via::Cookie(secret) = &u.via {
            if !session::same(given, &session::csrf_token(secret)) {
                return Err(ApiError::Forbidden(format!(
                    "a write made with the session cookie needs the session's CSRF token (in {CSRF_HEADER}, or a form's csrf field); reload the page and try again"
                )));
            }
        }
        Ok(u)
    }

    /// The page's view of this caller.
    fn viewer(&self, logins: bool) -> crate::page::Viewer {
        crate::page::Viewer {
            user: self.0.as_ref().map(|u| (u.name.clone(), u.role)),
            csrf: match self.0.as_ref().map(|u| &u.via) {
                Some(Via::Cookie(secret)) => Some(session::csrf_token(secret)),
                _ => None,
            },
            logins,
        }
    }
}

fn bearer(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(header::AUTHORIZATION)?
        .to_str()
        .ok()?
        .strip_prefix("Bearer ")
}

/// The session cookie's secret, when sent.
pub(crate) fn session_cookie(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == SESSION_COOKIE)
        .map(|(_, v)| v.to_string())
}

/// The user a request's credentials name. A bearer token that names nobody is an
/// error (its sender meant to be someone); a stale cookie is only ignored.
async fn resolve(s: &AppState, headers: &HeaderMap) -> ApiResult<Option<User>> {
    if let Some(token) = bearer(headers) {
        if let Some(t) = &s.auth.ingest_token {
            if session::same(token, t) {
                return Ok(Some(User {
                    name: "ingest".into(),
                    role: Role::Admin,
                    via: Via::Bearer,
                }));
            }
        }
        let Some(acc) = s.auth.accounts.clone() else {
            return Err(ApiError::Unauthorized("this server has no accounts".into()));
        };
        let token = token.to_string();
        let owner = blocking(move || Ok(acc.token_owner(&token)?)).await?;
        return match owner {
            Some(o) if o.kind == TokenKind::Api => Ok(Some(User {
                name: o.user,
                role: o.role,
                via: Via::Bearer,
            })),
            _ => Err(ApiError::Unauthorized(
                "the bearer token is unknown, revoked or expired".into(),
            )),
        };
    }
    let (Some(secret), Some(acc)) = (session_cookie(headers), s.auth.accounts.clone()) else {
        return Ok(None);
    };
    let cookie = secret.clone();
    let owner = blocking(move || Ok(acc.token_owner(&cookie)?)).await?;
    Ok(owner
        .filter(|o| o.kind == TokenKind::Session)
        .map(|o| User {
            name: o.user,
            role: o.role,
            via: Via::Cookie(secret),
        }))
}

/// Paths anyone may reach, logged in or not, when reading needs a login.
fn open_path(path: &str) -> bool {
    matches!(
        path,
        "/healthz"
            | "/api"
            | "/api/openapi.json"
            | "/api/login"
            | "/api/logout"
            | "/login"
            | "/logout"
    ) || path.starts_with("/assets/")
}

/// Finds who makes each request (for the handlers, as a [`Caller`] extension) and,
/// when reading needs a login, refuses anonymous reads.
pub(crate) async fn identify(State(s): State<AppState>, mut req: Request, next: Next) -> Response {
    let user = match resolve(&s, req.headers()).await {
        Ok(u) => u,
        Err(e) => return e.into_response(),
    };
    let caller = Caller(user);
    let viewer = caller.viewer(s.auth.accounts.is_some());
    let reading = matches!(*req.method(), Method::GET | Method::HEAD);
    if s.auth.require_login && reading && !open_path(req.uri().path()) {
        if let Err(e) = caller.at_least(Role::Reader) {
            return if req.uri().path().starts_with("/api") {
                e.into_response()
            } else {
                // The error page's header offers the log-in.
                crate::page::VIEWER.sync_scope(viewer, || crate::page_error(e))
            };
        }
    }
    req.extensions_mut().insert(caller);
    crate::page::VIEWER.scope(viewer, next.run(req)).await
}
