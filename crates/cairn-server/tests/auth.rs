//! Accounts through the router: logins and their cookie, roles (a reader cannot edit,
//! an editor cannot reach admin routes), the CSRF token of cookie writes, session
//! fixation refused, the login rate limit, bearer tokens, `--require-login`, and saves
//! with If-Match (a stale one refused with the current values).

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use cairn_model::{SourceKind, Span};
use cairn_server::{CSRF_HEADER, ServeOptions};
use cairn_store::{Accounts, Archive, NewOccurrence, NewSource, Role, TokenKind};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use tower::ServiceExt;

const TEXT: &str = "Boats wait at the pier in Tyre, Lebanon, March 3, 2021. REUTERS/Ada Lind";

struct Setup {
    _dir: tempfile::TempDir,
    app: axum::Router,
    accounts: Accounts,
}

fn setup(opts: ServeOptions) -> Setup {
    let d = tempfile::tempdir().unwrap();
    {
        let mut a = Archive::open_writer(d.path()).unwrap();
        let bytes = format!("{TEXT}\n").into_bytes();
        a.write_batch(&[NewSource {
            uri: "test:one".into(),
            kind: SourceKind::Text,
            sha256: "0".repeat(64),
            encoding: "utf-8".into(),
            text_len: bytes.len(),
            bytes,
            packed: None,
            warnings: vec![],
            origin: None,
            occurrences: vec![NewOccurrence {
                span: Span::new(0, TEXT.len()),
                text: TEXT.into(),
                key: [7; 16],
                record: Some(cairn_extract::Extractor::bundled().extract(TEXT)),
                packed: None,
            }],
        }])
        .unwrap();
    }
    let accounts = Accounts::open(d.path()).unwrap();
    for (name, role) in [
        ("rita", Role::Reader),
        ("eddie", Role::Editor),
        ("ada", Role::Admin),
    ] {
        accounts
            .add_user(name, role, &format!("{name}'s password"))
            .unwrap();
    }
    let a = Arc::new(Archive::open_reader(d.path()).unwrap());
    Setup {
        app: cairn_server::router_with(a, &opts),
        _dir: d,
        accounts,
    }
}

struct Answer {
    status: StatusCode,
    headers: axum::http::HeaderMap,
    body: Value,
}

async fn send(app: &axum::Router, req: Request<Body>) -> Answer {
    let res = app.clone().oneshot(req).await.unwrap();
    let status = res.status();
    let headers = res.headers().clone();
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    Answer {
        status,
        headers,
        body: serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    }
}

/// A logged-in browser: its cookie and CSRF token.
struct Session {
    cookie: String,
    csrf: String,
}

async fn login(app: &axum::Router, name: &str, password: &str) -> Answer {
    let body = json!({ "name": name, "password": password }).to_string();
    send(
        app,
        Request::post("/api/login")
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(body))
            .unwrap(),
    )
    .await
}

async fn session(app: &axum::Router, name: &str) -> Session {
    let r = login(app, name, &format!("{name}'s password")).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let set = r.headers[header::SET_COOKIE].to_str().unwrap().to_string();
    let cookie = set.split(';').next().unwrap().to_string();
    Session {
        cookie,
        csrf: r.body["csrf"].as_str().unwrap().to_string(),
    }
}

/// A PATCH of caption 1 against `version`, made with the session's cookie (and its CSRF
/// token when `csrf`), or with a bearer token.
fn patch(auth: Auth<'_>, version: &str, body: Value) -> Request<Body> {
    let mut b = Request::patch("/api/captions/1")
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::IF_MATCH, version);
    b = match auth {
        Auth::Cookie(s, csrf) => {
            let b = b.header(header::COOKIE, &s.cookie);
            if csrf {
                b.header(CSRF_HEADER, &s.csrf)
            } else {
                b
            }
        }
        Auth::Bearer(t) => b.header(header::AUTHORIZATION, format!("Bearer {t}")),
    };
    b.body(Body::from(body.to_string())).unwrap()
}

enum Auth<'a> {
    Cookie(&'a Session, bool),
    Bearer(&'a str),
}

#[tokio::test]
async fn the_session_cookie_is_http_only_strict_and_a_new_one_each_login() {
    let s = setup(ServeOptions::default());
    let r = login(&s.app, "eddie", "eddie's password").await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.body["role"], "editor");
    let set = r.headers[header::SET_COOKIE].to_str().unwrap();
    assert!(
        set.contains("HttpOnly") && set.contains("SameSite=Strict"),
        "{set}"
    );
    assert!(!set.contains("Secure"), "loopback by default: {set}");

    // Session fixation: a cookie the browser brings to the login is never kept.
    let planted = "cairn_session=cairn_planted0000";
    let body = json!({ "name": "eddie", "password": "eddie's password" }).to_string();
    let r = send(
        &s.app,
        Request::post("/api/login")
            .header(header::CONTENT_TYPE, "application/json")
            .header(header::COOKIE, planted)
            .body(Body::from(body))
            .unwrap(),
    )
    .await;
    let set = r.headers[header::SET_COOKIE].to_str().unwrap();
    assert!(!set.contains("cairn_planted"), "{set}");
    // And a session's cookie ends with a new login through it.
    let first = session(&s.app, "eddie").await;
    let body = json!({ "name": "eddie", "password": "eddie's password" }).to_string();
    send(
        &s.app,
        Request::post("/api/login")
            .header(header::CONTENT_TYPE, "application/json")
            .header(header::COOKIE, &first.cookie)
            .body(Body::from(body))
            .unwrap(),
    )
    .await;
    let r = send(
        &s.app,
        patch(
            Auth::Cookie(&first, true),
            "\"v0\"",
            json!({"verified": true}),
        ),
    )
    .await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED, "{}", r.body);

    let secure = setup(ServeOptions {
        secure_cookies: true,
        ..ServeOptions::default()
    });
    let r = login(&secure.app, "eddie", "eddie's password").await;
    assert!(
        r.headers[header::SET_COOKIE]
            .to_str()
            .unwrap()
            .contains("; Secure")
    );
}

#[tokio::test]
async fn a_reader_cannot_edit_and_an_editor_cannot_reach_admin_routes() {
    let s = setup(ServeOptions::default());
    let reader = session(&s.app, "rita").await;
    let r = send(
        &s.app,
        patch(
            Auth::Cookie(&reader, true),
            "\"v0\"",
            json!({"verified": true}),
        ),
    )
    .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.body);
    assert_eq!(r.body["error"]["code"], "forbidden");

    let (_, token) = s
        .accounts
        .create_token("eddie", TokenKind::Api, None)
        .unwrap();
    let users = |t: &str| {
        Request::get("/api/users")
            .header(header::AUTHORIZATION, format!("Bearer {t}"))
            .body(Body::empty())
            .unwrap()
    };
    assert_eq!(
        send(&s.app, users(&token)).await.status,
        StatusCode::FORBIDDEN
    );
    let (_, admin) = s
        .accounts
        .create_token("ada", TokenKind::Api, None)
        .unwrap();
    let r = send(&s.app, users(&admin)).await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.body.as_array().unwrap().len(), 3);
    // Anonymous: not logged in; a made-up token: refused.
    let r = send(
        &s.app,
        Request::get("/api/users").body(Body::empty()).unwrap(),
    )
    .await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        send(&s.app, users("cairn_made_up")).await.status,
        StatusCode::UNAUTHORIZED
    );
    // Anonymous reading stays the default.
    let r = send(
        &s.app,
        Request::get("/api/captions/1").body(Body::empty()).unwrap(),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.headers[header::ETAG], "\"v0\"");
}

#[tokio::test]
async fn a_cookie_write_without_the_csrf_token_is_refused() {
    let s = setup(ServeOptions::default());
    let editor = session(&s.app, "eddie").await;
    let r = send(
        &s.app,
        patch(
            Auth::Cookie(&editor, false),
            "\"v0\"",
            json!({"verified": true}),
        ),
    )
    .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.body);
    let other = session(&s.app, "ada").await;
    let forged = Session {
        cookie: editor.cookie.clone(),
        csrf: other.csrf.clone(),
    };
    let r = send(
        &s.app,
        patch(
            Auth::Cookie(&forged, true),
            "\"v0\"",
            json!({"verified": true}),
        ),
    )
    .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "another session's token");
    let r = send(
        &s.app,
        patch(
            Auth::Cookie(&editor, true),
            "\"v0\"",
            json!({"verified": true}),
        ),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(r.body["review"]["verified"], true);
    assert_eq!(r.headers[header::ETAG], "\"v1\"");
}

#[tokio::test]
async fn a_stale_save_is_refused_with_the_current_values_and_the_history_keeps_all() {
    let s = setup(ServeOptions::default());
    let (_, token) = s
        .accounts
        .create_token("eddie", TokenKind::Api, None)
        .unwrap();
    let first = json!({"persons": ["Ada Lind"], "note": "the photographer, not in the scene"});
    let r = send(&s.app, patch(Auth::Bearer(&token), "\"v0\"", first)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(r.body["record"]["persons"], json!(["Ada Lind"]));
    let second = json!({"persons": ["Someone Else"]});
    let r = send(&s.app, patch(Auth::Bearer(&token), "\"v0\"", second)).await;
    assert_eq!(r.status, StatusCode::PRECONDITION_FAILED);
    assert_eq!(r.body["error"]["code"], "stale");
    assert_eq!(r.body["current"]["record"]["persons"], json!(["Ada Lind"]));
    assert_eq!(r.headers[header::ETAG], "\"v1\"");
    // Without If-Match: 428; a field that is not the record's: 400 naming it.
    let mut req = patch(Auth::Bearer(&token), "\"v1\"", json!({"verified": true}));
    req.headers_mut().remove(header::IF_MATCH);
    assert_eq!(
        send(&s.app, req).await.status,
        StatusCode::PRECONDITION_REQUIRED
    );
    let r = send(
        &s.app,
        patch(Auth::Bearer(&token), "\"v1\"", json!({"text": "x"})),
    )
    .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert!(
        r.body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("text")
    );

    let h = send(
        &s.app,
        Request::get("/api/captions/1/history")
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(h.status, StatusCode::OK);
    let h = h.body.as_array().unwrap().clone();
    assert_eq!(h.len(), 1);
    assert_eq!(h[0]["user"], "eddie");
    assert_eq!(h[0]["new_value"], json!(["Ada Lind"]));
}

#[tokio::test]
async fn failed_logins_are_limited_per_name() {
    let s = setup(ServeOptions::default());
    for _ in 0..cairn_server::LOGIN_FAILURES_PER_NAME {
        let r = login(&s.app, "eddie", "a wrong guess").await;
        assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    }
    // Now even the right password waits out the window.
    let r = login(&s.app, "eddie", "eddie's password").await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS, "{}", r.body);
    assert!(r.headers.get(header::SET_COOKIE).is_none());
    // Another name is not held up.
    assert_eq!(
        login(&s.app, "rita", "rita's password").await.status,
        StatusCode::OK
    );
}

#[tokio::test]
async fn with_require_login_nobody_reads_anonymously() {
    let s = setup(ServeOptions {
        require_login: true,
        ..ServeOptions::default()
    });
    for path in ["/api/search?q=", "/api/captions/1", "/", "/captions/1"] {
        let r = send(&s.app, Request::get(path).body(Body::empty()).unwrap()).await;
        assert_eq!(r.status, StatusCode::UNAUTHORIZED, "{path}");
    }
    let r = send(
        &s.app,
        Request::get("/healthz").body(Body::empty()).unwrap(),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK);
    let reader = session(&s.app, "rita").await;
    let r = send(
        &s.app,
        Request::get("/api/search?q=")
            .header(header::COOKIE, &reader.cookie)
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.body["total"], 1);
}

#[tokio::test]
async fn ingest_is_for_admins() {
    let s = setup(ServeOptions {
        allow_ingest: true,
        ..ServeOptions::default()
    });
    let (_, editor) = s
        .accounts
        .create_token("eddie", TokenKind::Api, None)
        .unwrap();
    let (_, admin) = s
        .accounts
        .create_token("ada", TokenKind::Api, None)
        .unwrap();
    let upload = |t: &str| {
        let body = b"Rain falls over the harbour in Tyre.\n".to_vec();
        Request::post("/api/ingest")
            .header(header::CONTENT_TYPE, "text/plain")
            .header(header::CONTENT_LENGTH, body.len())
            .header(header::AUTHORIZATION, format!("Bearer {t}"))
            .body(Body::from(body))
            .unwrap()
    };
    assert_eq!(
        send(&s.app, upload(&editor)).await.status,
        StatusCode::FORBIDDEN
    );
    let r = send(&s.app, upload(&admin)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
}
