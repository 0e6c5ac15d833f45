//! The server's one writer: a save queued while an upload is being stored goes between
//! the upload's sources instead of waiting for all of them, and both are whole after.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use cairn_model::{SourceKind, Span};
use cairn_server::ServeOptions;
use cairn_store::{Accounts, Archive, NewOccurrence, NewSource, Role, TokenKind};
use http_body_util::BodyExt;
use serde_json::Value;
use tower::ServiceExt;

const INGEST: &str = "ingest-token-0123456789";
const LINES: usize = 300;

fn source() -> NewSource {
    let text = "Boats wait at the pier in Tyre, Lebanon, March 3, 2021. REUTERS/Ada Lind";
    let bytes = format!("{text}\n").into_bytes();
    NewSource {
        uri: "test:0".into(),
        kind: SourceKind::Text,
        sha256: "0".repeat(64),
        encoding: "utf-8".into(),
        text_len: bytes.len(),
        bytes,
        packed: None,
        warnings: vec![],
        origin: None,
        occurrences: vec![NewOccurrence {
            span: Span::new(0, text.len()),
            text: text.into(),
            key: [1; 16],
            record: Some(cairn_extract::Extractor::bundled().extract(text)),
            packed: None,
        }],
    }
}

async fn send(app: &axum::Router, req: Request<Body>) -> (StatusCode, String, Value) {
    let res = app.clone().oneshot(req).await.unwrap();
    let status = res.status();
    let etag = res
        .headers()
        .get(header::ETAG)
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    let v = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    (status, etag, v)
}

async fn sources(app: &axum::Router) -> u64 {
    let req = Request::get("/api/stats").body(Body::empty()).unwrap();
    send(app, req).await.2["sources"].as_u64().unwrap()
}

/// JSON Lines of `n` pages, each a caption of its own.
fn pages(n: usize) -> Vec<u8> {
    let mut out = String::new();
    for i in 0..n {
        out.push_str(&format!(
            r#"{{"caption": "Workers repair water pipe number {i} in the old town of Byblos, Lebanon, on a rainy morning.", "uri": "https://wire.example/pipes/{i}"}}"#
        ));
        out.push('\n');
    }
    out.into_bytes()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_save_goes_between_the_sources_of_an_upload() {
    let d = tempfile::tempdir().unwrap();
    Archive::open_writer(d.path())
        .unwrap()
        .write_batch(&[source()])
        .unwrap();
    let accounts = Accounts::open(d.path()).unwrap();
    accounts
        .add_user("eddie", Role::Editor, "eddie's password")
        .unwrap();
    let (_, editor) = accounts
        .create_token("eddie", TokenKind::Api, None)
        .unwrap();
    let opts = ServeOptions {
        ingest_token: Some(INGEST.into()),
        ..ServeOptions::default()
    };
    let app = cairn_server::router_with(Arc::new(Archive::open_reader(d.path()).unwrap()), &opts);
    let body = pages(LINES);
    let upload = Request::post("/api/ingest")
        .header(header::AUTHORIZATION, format!("Bearer {INGEST}"))
        .header(header::CONTENT_TYPE, "application/x-ndjson")
        .header(header::CONTENT_LENGTH, body.len())
        .body(Body::from(body))
        .unwrap();
    let uploading = tokio::spawn({
        let app = app.clone();
        async move { send(&app, upload).await }
    });
    // Once the upload's first sources are stored, an editor saves.
    let started = Instant::now();
    while sources(&app).await < 3 {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no source stored"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let req = Request::get("/api/captions/1").body(Body::empty()).unwrap();
    let (_, etag, _) = send(&app, req).await;
    let save = Request::patch("/api/captions/1")
        .header(header::AUTHORIZATION, format!("Bearer {editor}"))
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::IF_MATCH, etag)
        .body(Body::from(r#"{"verified": true, "note": "checked"}"#))
        .unwrap();
    let (status, _, saved) = send(&app, save).await;
    assert_eq!(status, StatusCode::OK, "{saved}");
    let stored_by_then = sources(&app).await;
    let (status, _, summary) = uploading.await.unwrap();
    assert_eq!(status, StatusCode::OK, "{summary}");
    assert_eq!(summary["sources_added"].as_u64(), Some(LINES as u64));
    assert!(
        stored_by_then < 1 + LINES as u64,
        "the save was answered only once the whole upload was stored"
    );
    let req = Request::get("/api/captions/1/history")
        .body(Body::empty())
        .unwrap();
    let (_, _, history) = send(&app, req).await;
    let saved_in_history = history
        .as_array()
        .unwrap()
        .iter()
        .any(|r| r["user"] == "eddie" && r["field"] == "verified");
    assert!(saved_in_history, "{history}");
    assert_eq!(sources(&app).await, 1 + LINES as u64);
}
