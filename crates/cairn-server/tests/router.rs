//! Every route and error through the router, without a socket.

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use cairn_model::{SourceKind, Span};
use cairn_store::{Archive, NewOccurrence, NewSource};
use http_body_util::BodyExt;
use tower::ServiceExt;

fn archive() -> (tempfile::TempDir, Arc<Archive>) {
    let d = tempfile::tempdir().unwrap();
    {
        let mut a = Archive::open_writer(d.path()).unwrap();
        let text = "A man walks in Homs, Syria, May 1, 2015. REUTERS/Jane Roe";
        let bytes = format!("{text}\n").into_bytes();
        a.write_batch(&[NewSource {
            uri: "test:one".into(),
            kind: SourceKind::Text,
            sha256: "0".repeat(64),
            encoding: "utf-8".into(),
            text_len: bytes.len(),
            bytes,
            warnings: vec![],
            occurrences: vec![NewOccurrence {
                span: Span::new(0, text.len()),
                text: text.into(),
                key: [7; 16],
                record: None,
            }],
        }])
        .unwrap();
    }
    let a = Arc::new(Archive::open_reader(d.path()).unwrap());
    (d, a)
}

async fn get(app: &axum::Router, uri: &str) -> (StatusCode, serde_json::Value) {
    let res = app
        .clone()
        .oneshot(Request::get(uri).body(Body::empty()).unwrap())
        .await
        .unwrap();
    let status = res.status();
    let body = res.into_body().collect().await.unwrap().to_bytes();
    (status, serde_json::from_slice(&body).unwrap())
}

#[tokio::test]
async fn routes_answer_and_errors_share_one_shape() {
    let (_d, a) = archive();
    let app = cairn_server::router(a);
    let (s, v) = get(&app, "/healthz").await;
    assert_eq!((s, v["status"].as_str()), (StatusCode::OK, Some("ok")));
    let (s, v) = get(&app, "/").await;
    assert_eq!(s, StatusCode::OK);
    assert!(v["endpoints"].is_object());
    let (s, v) = get(&app, "/api/stats").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["captions"], 1);
    let (s, v) = get(&app, "/api/search?q=homs").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["total"], 1);
    assert_eq!(v["hits"][0]["sources"][0]["uri"], "test:one");
    let (s, v) = get(&app, "/api/search?q=&facets=1&limit=0").await;
    assert_eq!(s, StatusCode::OK);
    assert!(v["facets"].is_object());
    let id = 1;
    let (s, v) = get(&app, &format!("/api/captions/{id}")).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(
        v["variants"][0]["occurrences"][0]["span"],
        serde_json::json!([0, 57])
    );
    let (s, v) = get(&app, "/api/sources/1").await;
    assert_eq!(s, StatusCode::OK);
    assert!(
        v["text"]
            .as_str()
            .unwrap()
            .starts_with("A man walks in Homs")
    );

    for (uri, status, code) in [
        ("/api/captions/999", StatusCode::NOT_FOUND, "not_found"),
        ("/api/captions/abc", StatusCode::BAD_REQUEST, "bad_request"),
        ("/api/sources/999", StatusCode::NOT_FOUND, "not_found"),
        (
            "/api/search?q=%22unclosed",
            StatusCode::BAD_REQUEST,
            "bad_request",
        ),
        (
            "/api/search?limit=100000",
            StatusCode::BAD_REQUEST,
            "bad_request",
        ),
        (
            "/api/search?from=yesterday",
            StatusCode::BAD_REQUEST,
            "bad_request",
        ),
        (
            "/api/search?place=Qwxzzy",
            StatusCode::BAD_REQUEST,
            "bad_request",
        ),
        (
            "/api/search?sort=sideways",
            StatusCode::BAD_REQUEST,
            "bad_request",
        ),
        ("/nope", StatusCode::NOT_FOUND, "not_found"),
    ] {
        let (s, v) = get(&app, uri).await;
        assert_eq!(s, status, "{uri}");
        assert_eq!(v["error"]["code"], code, "{uri}");
        assert!(v["error"]["message"].is_string(), "{uri}");
    }
}
