//! Splits and merges through the router: editors only, the CSRF token of cookie writes,
//! an If-Match checked when sent, and both captions' histories.

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use cairn_model::{SourceKind, Span};
use cairn_server::{CSRF_HEADER, ServeOptions};
use cairn_store::{Accounts, Archive, NewOccurrence, NewSource, Role, TokenKind};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use tower::ServiceExt;

const TEXTS: [&str; 2] = [
    "Women carry water jars past the ruins of Sinjar, Iraq, on June 3, 2019. REUTERS/Lina Haddad",
    "Women carry water past the ruins in Sinjar on June 3, 2019. (Lina Haddad/Reuters)",
];

fn source(n: usize) -> NewSource {
    let text = TEXTS[n];
    let bytes = format!("{text}\n").into_bytes();
    NewSource {
        uri: format!("test:{n}"),
        kind: SourceKind::Text,
        sha256: n.to_string().repeat(64),
        encoding: "utf-8".into(),
        text_len: bytes.len(),
        bytes,
        packed: None,
        warnings: vec![],
        origin: None,
        occurrences: vec![NewOccurrence {
            span: Span::new(0, text.len()),
            text: text.into(),
            key: [n as u8 + 1; 16],
            record: Some(cairn_extract::Extractor::bundled().extract(text)),
            packed: None,
        }],
    }
}

async fn send(app: &axum::Router, req: Request<Body>) -> (StatusCode, Value) {
    let res = app.clone().oneshot(req).await.unwrap();
    let status = res.status();
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

/// A POST of JSON with one header naming who sends it.
fn post(path: &str, auth: (&str, &str)) -> axum::http::request::Builder {
    Request::post(path)
        .header(header::CONTENT_TYPE, "application/json")
        .header(auth.0, auth.1)
}

#[tokio::test]
async fn editors_split_and_merge_with_their_history_and_others_are_refused() {
    let d = tempfile::tempdir().unwrap();
    Archive::open_writer(d.path())
        .unwrap()
        .write_batch(&[source(0), source(1)])
        .unwrap();
    let accounts = Accounts::open(d.path()).unwrap();
    accounts
        .add_user("rita", Role::Reader, "rita's password")
        .unwrap();
    accounts
        .add_user("eddie", Role::Editor, "eddie's password")
        .unwrap();
    let (_, reader) = accounts.create_token("rita", TokenKind::Api, None).unwrap();
    let (_, editor) = accounts
        .create_token("eddie", TokenKind::Api, None)
        .unwrap();
    let app = cairn_server::router_with(
        Arc::new(Archive::open_reader(d.path()).unwrap()),
        &ServeOptions::default(),
    );
    let bearer = |t: &str| {
        (
            header::AUTHORIZATION.as_str().to_string(),
            format!("Bearer {t}"),
        )
    };
    let req = |path: &str, auth: &(String, String), body: Value| {
        post(path, (&auth.0, &auth.1))
            .body(Body::from(body.to_string()))
            .unwrap()
    };

    let merge = json!({"other": 2, "note": "one photograph, two desks"});
    let (s, _) = send(
        &app,
        req("/api/captions/1/merge", &bearer(&reader), merge.clone()),
    )
    .await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    let (s, _) = send(
        &app,
        Request::post("/api/captions/1/merge")
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(merge.to_string()))
            .unwrap(),
    )
    .await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
    let (s, b) = send(
        &app,
        req(
            "/api/captions/1/merge",
            &bearer(&editor),
            json!({"other": 1}),
        ),
    )
    .await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{b}");
    let (s, b) = send(
        &app,
        req("/api/captions/1/merge", &bearer(&editor), merge.clone()),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert_eq!(b["other"], 2);
    let (s, _) = send(
        &app,
        Request::get("/api/captions/2").body(Body::empty()).unwrap(),
    )
    .await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (_, c) = send(
        &app,
        Request::get("/api/captions/1").body(Body::empty()).unwrap(),
    )
    .await;
    assert_eq!(c["variants"].as_array().unwrap().len(), 2, "{c}");

    // A split against a version no longer current changes nothing.
    let split = json!({"variants": [2]});
    let stale = post(
        "/api/captions/1/split",
        (header::AUTHORIZATION.as_str(), &format!("Bearer {editor}")),
    )
    .header(header::IF_MATCH, "\"v0\"")
    .body(Body::from(split.to_string()))
    .unwrap();
    let (s, b) = send(&app, stale).await;
    assert_eq!(s, StatusCode::PRECONDITION_FAILED, "{b}");
    let (s, b) = send(
        &app,
        req(
            "/api/captions/1/split",
            &bearer(&editor),
            json!({"variants": [7]}),
        ),
    )
    .await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{b}");

    // With the session cookie: the CSRF token is needed.
    let login = Request::post("/api/login")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(
            json!({"name": "eddie", "password": "eddie's password"}).to_string(),
        ))
        .unwrap();
    let res = app.clone().oneshot(login).await.unwrap();
    let cookie = res.headers()[header::SET_COOKIE]
        .to_str()
        .unwrap()
        .split(';')
        .next()
        .unwrap()
        .to_string();
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    let csrf = serde_json::from_slice::<Value>(&bytes).unwrap()["csrf"]
        .as_str()
        .unwrap()
        .to_string();
    let by_cookie = (header::COOKIE.as_str().to_string(), cookie);
    let (s, _) = send(
        &app,
        req("/api/captions/1/split", &by_cookie, split.clone()),
    )
    .await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    let with_csrf = post("/api/captions/1/split", (&by_cookie.0, &by_cookie.1))
        .header(CSRF_HEADER, &csrf)
        .header(header::IF_MATCH, "\"v1\"")
        .body(Body::from(split.to_string()))
        .unwrap();
    let (s, b) = send(&app, with_csrf).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    let new = b["other"].as_i64().unwrap();
    assert!(new > 2, "a new id, not the merged one's: {b}");
    let (_, c) = send(
        &app,
        Request::get(format!("/api/captions/{new}"))
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(c["text"], TEXTS[1], "{c}");

    let (_, h) = send(
        &app,
        Request::get("/api/captions/1/history")
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    let fields: Vec<&str> = h
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["field"].as_str().unwrap())
        .collect();
    assert_eq!(fields, ["merge", "split"], "{h}");
    assert_eq!(h[0]["user"], "eddie");
    assert_eq!(h[0]["note"], "one photograph, two desks");
    let (_, spec) = send(
        &app,
        Request::get("/api/openapi.json")
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    for p in ["/api/captions/{id}/split", "/api/captions/{id}/merge"] {
        assert!(spec["paths"][p]["post"].is_object(), "{p}");
    }
}
