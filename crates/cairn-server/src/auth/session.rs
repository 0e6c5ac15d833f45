//! Login sessions: `POST /api/login` checks a password (rate-limited) and always makes
//! a new session, whatever cookie came with the request (no session fixation); the
//! cookie is HttpOnly, SameSite=Strict, and Secure off loopback. A write made with the
//! cookie carries the session's CSRF token, derived from its secret, which a page of
//! another site can neither read nor compute.

use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use axum::{Form, Json};
use cairn_store::TokenKind;
use serde::Deserialize;
use serde_json::json;
use sha2::{Digest, Sha256};

use super::{SESSION_COOKIE, session_cookie};
use crate::{ApiError, ApiResult, AppState, blocking};

/// How long a session lasts.
pub const SESSION_HOURS: i64 = 12;

/// Compares in time that depends only on the lengths, not on where the bytes differ.
pub(crate) fn same(given: &str, expected: &str) -> bool {
    use subtle::ConstantTimeEq;
    given.len() == expected.len() && bool::from(given.as_bytes().ct_eq(expected.as_bytes()))
}

/// The CSRF token of the session whose secret is `secret`.
pub(crate) fn csrf_token(secret: &str) -> String {
    let mut h = Sha256::new();
    h.update(b"cairn csrf token\0");
    h.update(secret.as_bytes());
    hex::encode(h.finalize())
}

fn cookie(secret: &str, max_age: i64, secure: bool) -> HeaderValue {
    let secure = if secure { "; Secure" } else { "" };
    let v = format!(
        "{SESSION_COOKIE}={secret}; Path=/; HttpOnly; SameSite=Strict; Max-Age={max_age}{secure}"
    );
    HeaderValue::from_str(&v).unwrap_or_else(|_| HeaderValue::from_static(""))
}

#[derive(Debug, Deserialize)]
pub(crate) struct Login {
    name: String,
    password: String,
}

/// A new session for `name` when `password` is right: their role and the session's
/// secret. The cookie the request came with ends here.
async fn start(
    s: &AppState,
    headers: &HeaderMap,
    name: String,
    password: String,
) -> ApiResult<(cairn_store::Role, String)> {
    let Some(acc) = s.auth.accounts.clone() else {
        return Err(ApiError::NotFound("this server has no accounts".into()));
    };
    if let Some(wait) = s.auth.limiter.refused(&name) {
        return Err(ApiError::TooManyRequests(format!(
            "too many failed logins; try again in {} s",
            wait.as_secs().max(1)
        )));
    }
    let old = session_cookie(headers);
    let who = name.clone();
    let made = blocking(move || {
        let Some(role) = acc.login(&who, &password)? else {
            return Ok(None);
        };
        // The cookie the browser had is never taken over: it ends here.
        if let Some(old) = old {
            acc.revoke_secret(&old)?;
        }
        let until = jiff::Timestamp::now()
            .checked_add(jiff::SignedDuration::from_hours(SESSION_HOURS))
            .map_err(|e| ApiError::Internal(e.to_string()))?
            .to_string();
        let (_, secret) = acc.create_token(&who, TokenKind::Session, Some(&until))?;
        Ok(Some((role, secret)))
    })
    .await?;
    let Some(made) = made else {
        s.auth.limiter.failed(&name);
        tracing::warn!(user = %name.escape_debug(), "failed login");
        return Err(ApiError::Unauthorized("wrong name or password".into()));
    };
    s.auth.limiter.succeeded(&name);
    Ok(made)
}

/// `POST /api/login`: a new session for a user whose password is right.
pub(crate) async fn login(
    State(s): State<AppState>,
    headers: HeaderMap,
    body: Result<Json<Login>, axum::extract::rejection::JsonRejection>,
) -> ApiResult<Response> {
    let Json(l) = body.map_err(|e| ApiError::BadRequest(e.body_text()))?;
    let name = l.name.clone();
    let (role, secret) = start(&s, &headers, l.name, l.password).await?;
    let body = json!({ "user": name, "role": role, "csrf": csrf_token(&secret) });
    let mut res = Json(body).into_response();
    res.headers_mut().insert(
        header::SET_COOKIE,
        cookie(&secret, SESSION_HOURS * 3600, s.auth.secure_cookies),
    );
    Ok(res)
}

/// `GET /login`: the log-in form.
pub(crate) async fn login_form() -> Response {
    crate::html_response(StatusCode::OK, crate::page::login_page(None, ""))
}

/// `POST /login`: the log-in form posted; back to the search page when it holds, the
/// form again with why when not.
pub(crate) async fn login_posted(
    State(s): State<AppState>,
    headers: HeaderMap,
    Form(l): Form<Login>,
) -> Response {
    let name = l.name.clone();
    match start(&s, &headers, l.name, l.password).await {
        Ok((_, secret)) => {
            let mut res = Redirect::to("/").into_response();
            res.headers_mut().insert(
                header::SET_COOKIE,
                cookie(&secret, SESSION_HOURS * 3600, s.auth.secure_cookies),
            );
            res
        }
        Err(e) => {
            let (status, _) = e.status();
            let message = format!("Not logged in: {e}.");
            crate::html_response(status, crate::page::login_page(Some(&message), &name))
        }
    }
}

#[derive(Debug, Deserialize)]
pub(crate) struct Logout {
    #[serde(default)]
    csrf: String,
}

/// `POST /logout`: the header's button; its form carries the CSRF token.
pub(crate) async fn logout_posted(
    State(s): State<AppState>,
    headers: HeaderMap,
    Form(f): Form<Logout>,
) -> Response {
    match end(&s, &headers, &f.csrf).await {
        Ok(()) => {
            let mut res = Redirect::to("/").into_response();
            res.headers_mut()
                .insert(header::SET_COOKIE, cookie("", 0, s.auth.secure_cookies));
            res
        }
        Err(e) => crate::page_error(e),
    }
}

/// Ends the session of the cookie sent, when `given` is its CSRF token.
async fn end(s: &AppState, headers: &HeaderMap, given: &str) -> ApiResult<()> {
    if let (Some(secret), Some(acc)) = (session_cookie(headers), s.auth.accounts.clone()) {
        if !same(given, &csrf_token(&secret)) {
            return Err(ApiError::Forbidden(format!(
                "logging out needs the session's CSRF token in {}",
                super::CSRF_HEADER
            )));
        }
        blocking(move || Ok(acc.revoke_secret(&secret)?)).await?;
    }
    Ok(())
}

/// `POST /api/logout`: ends the session of the cookie sent, and clears it.
pub(crate) async fn logout(State(s): State<AppState>, headers: HeaderMap) -> ApiResult<Response> {
    let given = headers
        .get(super::CSRF_HEADER)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    end(&s, &headers, &given).await?;
    let mut res = Json(json!({ "logged_out": true })).into_response();
    res.headers_mut()
        .insert(header::SET_COOKIE, cookie("", 0, s.auth.secure_cookies));
    Ok(res)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_csrf_token_is_the_session_s_own() {
        let a = csrf_token("cairn_aaaa");
        assert_eq!(a, csrf_token("cairn_aaaa"));
        assert_ne!(a, csrf_token("cairn_aaab"));
        assert!(!a.contains("cairn_aaaa"));
    }

    #[test]
    fn the_cookie_is_http_only_strict_and_secure_when_asked() {
        let c = cookie("s3cret", 60, true);
        let c = c.to_str().unwrap();
        for part in ["HttpOnly", "SameSite=Strict", "Secure", "Path=/"] {
            assert!(c.contains(part), "{c}");
        }
        assert!(!cookie("s", 60, false).to_str().unwrap().contains("Secure"));
    }
}
