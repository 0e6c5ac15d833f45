//! Helpers of the tests that call the router without a socket: an archive of given
//! captions, one a source, and a GET that gives the status and the page.
#![allow(dead_code)]

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use cairn_model::{SourceKind, Span};
use cairn_store::{Archive, NewOccurrence, NewSource};
use http_body_util::BodyExt;
use tower::ServiceExt;

/// An archive of `texts`, each its own source, with their extracted records.
pub fn archive_of(texts: &[&str]) -> (tempfile::TempDir, Arc<Archive>) {
    let d = tempfile::tempdir().unwrap();
    {
        let mut a = Archive::open_writer(d.path()).unwrap();
        let ex = cairn_extract::Extractor::bundled();
        let sources: Vec<NewSource> = texts
            .iter()
            .enumerate()
            .map(|(i, text)| {
                let bytes = format!("{text}\n").into_bytes();
                NewSource {
                    uri: format!("test:{i}"),
                    kind: SourceKind::Text,
                    sha256: format!("{i:064}"),
                    encoding: "utf-8".into(),
                    text_len: bytes.len(),
                    bytes,
                    packed: None,
                    warnings: vec![],
                    origin: None,
                    occurrences: vec![NewOccurrence {
                        span: Span::new(0, text.len()),
                        text: (*text).into(),
                        key: [i as u8 + 1; 16],
                        record: Some(ex.extract(text)),
                        packed: None,
                    }],
                }
            })
            .collect();
        a.write_batch(&sources).unwrap();
    }
    let a = Arc::new(Archive::open_reader(d.path()).unwrap());
    (d, a)
}

/// The status and body of a GET through the router.
pub async fn get(app: &axum::Router, uri: &str) -> (StatusCode, String) {
    let res = app
        .clone()
        .oneshot(Request::get(uri).body(Body::empty()).unwrap())
        .await
        .unwrap();
    let status = res.status();
    let body = res.into_body().collect().await.unwrap().to_bytes();
    (status, String::from_utf8_lossy(&body).into_owned())
}

/// The total a search page shows.
pub fn total(html: &str) -> u64 {
    let at = html.find(r#"<strong id="total">"#).expect("a total") + 19;
    html[at..].split('<').next().unwrap().parse().unwrap()
}
