//! Every route and error through the router, without a socket, and the OpenAPI
//! document checked against the routes.

use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use cairn_model::{SourceKind, Span};
use cairn_server::ServeOptions;
use cairn_store::{Archive, NewOccurrence, NewSource};
use http_body_util::BodyExt;
use tower::ServiceExt;

const TOKEN: &str = "test-token-0123456789";

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
            packed: None,
            warnings: vec![],
            origin: None,
            occurrences: vec![NewOccurrence {
                span: Span::new(0, text.len()),
                text: text.into(),
                key: [7; 16],
                record: Some(cairn_extract::Extractor::bundled().extract(text)),
                packed: None,
            }],
        }])
        .unwrap();
    }
    let a = Arc::new(Archive::open_reader(d.path()).unwrap());
    (d, a)
}

struct Answer {
    status: StatusCode,
    headers: axum::http::HeaderMap,
    body: Vec<u8>,
}

impl Answer {
    fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|_| panic!("not JSON: {}", String::from_utf8_lossy(&self.body)))
    }
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
    fn content_type(&self) -> &str {
        self.headers
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
    }
}

async fn send(app: &axum::Router, req: Request<Body>) -> Answer {
    let res = app.clone().oneshot(req).await.unwrap();
    let status = res.status();
    let headers = res.headers().clone();
    let body = res.into_body().collect().await.unwrap().to_bytes().to_vec();
    Answer {
        status,
        headers,
        body,
    }
}

async fn get(app: &axum::Router, uri: &str) -> Answer {
    send(app, Request::get(uri).body(Body::empty()).unwrap()).await
}

#[tokio::test]
async fn api_routes_answer_and_errors_share_one_shape() {
    let (_d, a) = archive();
    let app = cairn_server::router(a);
    let v = get(&app, "/healthz").await.json();
    assert_eq!(v["status"], "ok");
    let v = get(&app, "/api").await.json();
    assert_eq!(v["openapi"], "/api/openapi.json");
    let v = get(&app, "/api/stats").await.json();
    assert_eq!(v["captions"], 1);
    let r = get(&app, "/api/search?q=homs").await;
    assert_eq!(r.status, StatusCode::OK);
    let v = r.json();
    assert_eq!(v["total"], 1);
    assert_eq!(v["hits"][0]["sources"][0]["uri"], "test:one");
    let v = get(&app, "/api/search?q=&facets=1&histogram=1&zoom=3&limit=0")
        .await
        .json();
    assert!(v["facets"].is_object());
    assert_eq!(v["histogram"]["buckets"][0]["key"], "2015-05-01");
    assert_eq!(v["geo"]["cells"][0]["count"], 1);
    let v = get(&app, "/api/search?source=test:").await.json();
    assert_eq!(v["total"], 1);
    let v = get(&app, "/api/search?source=http:").await.json();
    assert_eq!(v["total"], 0);
    let v = get(&app, "/api/captions/1").await.json();
    assert_eq!(
        v["variants"][0]["occurrences"][0]["span"],
        serde_json::json!([0, 57])
    );
    let v = get(&app, "/api/sources/1").await.json();
    assert!(
        v["text"]
            .as_str()
            .unwrap()
            .starts_with("A man walks in Homs")
    );
    let v = get(&app, "/api/places?q=Homs").await.json();
    assert!(v.as_array().unwrap().iter().any(|p| p["best"] == true));

    for (uri, status, code) in [
        ("/api/captions/999", StatusCode::NOT_FOUND, "not_found"),
        ("/api/captions/abc", StatusCode::BAD_REQUEST, "bad_request"),
        ("/api/sources/999", StatusCode::NOT_FOUND, "not_found"),
        (
            "/api/search?limit=100000",
            StatusCode::BAD_REQUEST,
            "bad_request",
        ),
        (
            "/api/search?offset=9990&limit=20",
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
        (
            "/api/search?killed_min=many",
            StatusCode::BAD_REQUEST,
            "bad_request",
        ),
        (
            "/api/search?bbox=1,2,3",
            StatusCode::BAD_REQUEST,
            "bad_request",
        ),
        // A word among the numbers is not skipped, and every bound is a number.
        (
            "/api/search?bbox=1,x,2,3,4",
            StatusCode::BAD_REQUEST,
            "bad_request",
        ),
        (
            "/api/search?bbox=NaN,0,1,1",
            StatusCode::BAD_REQUEST,
            "bad_request",
        ),
        (
            "/api/search?bbox=0,0,inf,1",
            StatusCode::BAD_REQUEST,
            "bad_request",
        ),
        (
            "/api/search?bbox=0,95,1,96",
            StatusCode::BAD_REQUEST,
            "bad_request",
        ),
        // An offset near the largest integer must not wrap round under the window.
        (
            "/api/search?offset=18446744073709551615",
            StatusCode::BAD_REQUEST,
            "bad_request",
        ),
        (
            "/api/search?offset=18446744073709551615&limit=1",
            StatusCode::BAD_REQUEST,
            "bad_request",
        ),
        (
            "/api/export?offset=18446744073709551615",
            StatusCode::BAD_REQUEST,
            "bad_request",
        ),
        ("/?offset=18446744073709551615", StatusCode::OK, ""),
        ("/api/places", StatusCode::BAD_REQUEST, "bad_request"),
        (
            "/api/export?format=pdf",
            StatusCode::BAD_REQUEST,
            "bad_request",
        ),
        (
            "/api/export?format=xmp",
            StatusCode::BAD_REQUEST,
            "bad_request",
        ),
        ("/api/ingest", StatusCode::NOT_FOUND, "not_found"),
        ("/nope", StatusCode::NOT_FOUND, "not_found"),
        ("/assets/../Cargo.toml", StatusCode::NOT_FOUND, "not_found"),
        (
            "/assets/..%2f..%2fCargo.toml",
            StatusCode::NOT_FOUND,
            "not_found",
        ),
        ("/assets/%2e%2e", StatusCode::NOT_FOUND, "not_found"),
    ] {
        let r = get(&app, uri).await;
        assert_eq!(r.status, status, "{uri}");
        if code.is_empty() {
            // The page shows a bad parameter on itself.
            assert!(r.text().contains("offset + limit"), "{uri}");
            continue;
        }
        let v = r.json();
        assert_eq!(v["error"]["code"], code, "{uri}");
        assert!(v["error"]["message"].is_string(), "{uri}");
    }
    let long = format!("/api/search?q={}", "a".repeat(3000));
    assert_eq!(get(&app, &long).await.status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn exports_stream_in_each_format() {
    let (_d, a) = archive();
    let app = cairn_server::router(a);
    let r = get(&app, "/api/export?format=jsonl").await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.content_type(), "application/x-ndjson");
    assert_eq!(r.text().lines().count(), 1);
    let r = get(&app, "/api/export?format=geojson&country=SY").await;
    assert_eq!(r.content_type(), "application/geo+json");
    assert_eq!(r.json()["features"].as_array().unwrap().len(), 1);
    let r = get(&app, "/api/export?format=acled-csv&q=nothing-matches-this").await;
    assert_eq!(r.text().lines().count(), 1, "only the header");
    assert!(r.text().starts_with("event_date,time_precision,event_type"));
    let r = get(&app, "/api/export?format=csv").await;
    assert!(
        r.headers
            .get(header::CONTENT_DISPOSITION)
            .unwrap()
            .to_str()
            .unwrap()
            .contains("cairn-export.csv")
    );
}

#[tokio::test]
async fn the_page_is_server_rendered_escaped_and_guarded() {
    let (_d, a) = archive();
    let app = cairn_server::router(a);
    let r = get(&app, "/?q=homs&agency=Reuters").await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.content_type().starts_with("text/html"));
    let html = r.text();
    assert!(html.contains(r#"<strong id="total">1</strong>"#), "{html}");
    assert!(html.contains(r#"value="homs""#), "the query is in the box");
    assert!(
        html.contains(r#"<span class="key">agency</span> Reuters"#),
        "the filter is shown"
    );
    assert!(
        html.contains(r#"<mark class="ev ev-place""#),
        "evidence marked"
    );
    assert!(!html.contains("<script>"), "no inline script");
    let csp = r
        .headers
        .get(header::CONTENT_SECURITY_POLICY)
        .unwrap()
        .to_str()
        .unwrap();
    assert!(csp.contains("script-src 'self'") && !csp.contains("unsafe-inline"));
    assert_eq!(
        r.headers.get(header::X_CONTENT_TYPE_OPTIONS).unwrap(),
        "nosniff"
    );
    assert_eq!(r.headers.get(header::X_FRAME_OPTIONS).unwrap(), "DENY");
    // Security headers on errors too.
    let r = get(&app, "/nope").await;
    assert!(r.headers.get(header::CONTENT_SECURITY_POLICY).is_some());

    let r = get(&app, "/?from=yesterday").await;
    assert_eq!(
        r.status,
        StatusCode::OK,
        "a bad filter is shown on the page"
    );
    assert!(r.text().contains("is not a date"));
    let r = get(&app, "/captions/1").await;
    assert!(r.text().contains("Caption #1"));
    assert!(r.text().contains("test:one"));
    let r = get(&app, "/sources/1").await;
    assert!(r.text().contains(r#"href="/captions/1""#));
    let r = get(&app, "/captions/999").await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    assert!(r.content_type().starts_with("text/html"));
    for (name, kind) in [
        ("app.js", "text/javascript"),
        ("app.css", "text/css"),
        ("world.svg", "image/svg+xml"),
    ] {
        let r = get(&app, &format!("/assets/{name}")).await;
        assert_eq!(r.status, StatusCode::OK, "{name}");
        assert!(r.content_type().starts_with(kind), "{name}");
    }
}

#[tokio::test]
async fn slow_reads_are_cut_off() {
    let (_d, a) = archive();
    let app = cairn_server::router_with(
        a,
        &ServeOptions {
            timeout: Duration::ZERO,
            ..ServeOptions::default()
        },
    );
    let r = get(&app, "/api/search?q=homs").await;
    assert_eq!(r.status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(r.json()["error"]["code"], "timeout");
}

#[tokio::test]
async fn heavy_requests_wait_for_a_turn_within_the_time_limit() {
    let (_d, a) = archive();
    // No turn ever comes free: the request waits its whole time, then gets a clear error.
    let app = cairn_server::router_with(
        a,
        &ServeOptions {
            timeout: Duration::from_millis(300),
            max_heavy: 0,
            ..ServeOptions::default()
        },
    );
    let t = std::time::Instant::now();
    let r = get(&app, "/api/search?q=homs").await;
    assert_eq!(r.status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(r.json()["error"]["code"], "timeout");
    assert!(t.elapsed() >= Duration::from_millis(300));
    // Light routes do not queue.
    assert_eq!(get(&app, "/healthz").await.status, StatusCode::OK);
}

fn post(uri: &str, token: Option<&str>, body: Vec<u8>) -> Request<Body> {
    let mut b = Request::post(uri)
        .header(header::CONTENT_TYPE, "text/plain")
        .header(header::CONTENT_LENGTH, body.len());
    if let Some(t) = token {
        b = b.header(header::AUTHORIZATION, format!("Bearer {t}"));
    }
    b.body(Body::from(body)).unwrap()
}

#[tokio::test]
async fn ingest_needs_the_token_and_stores_the_page() {
    let (_d, a) = archive();
    let app = cairn_server::router_with(
        a,
        &ServeOptions {
            ingest_token: Some(TOKEN.into()),
            ..ServeOptions::default()
        },
    );
    let page =
        b"Rescuers search the rubble in Harasta, Syria, on November 6, 2016. (Photo by A B/AFP)\n"
            .to_vec();
    for token in [None, Some("wrong"), Some("test-token-012345678X")] {
        let r = send(&app, post("/api/ingest", token, page.clone())).await;
        assert_eq!(r.status, StatusCode::UNAUTHORIZED, "{token:?}");
        assert_eq!(r.json()["error"]["code"], "unauthorized");
    }
    let r = send(
        &app,
        post("/api/ingest", Some(TOKEN), vec![b'x'; 17 * 1024 * 1024]),
    )
    .await;
    assert_eq!(r.status, StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(r.json()["error"]["code"], "too_large");
    let r = send(
        &app,
        post(
            "/api/ingest?uri=https://example.org/g/1",
            Some(TOKEN),
            page.clone(),
        ),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    assert_eq!(r.json()["captions_added"], 1);
    // The reader sees the new caption once the index reloads (shortly after a commit).
    let t = std::time::Instant::now();
    loop {
        let v = get(&app, "/api/search?q=harasta").await.json();
        if v["total"] == 1 {
            assert_eq!(v["hits"][0]["sources"][0]["uri"], "https://example.org/g/1");
            break;
        }
        assert!(t.elapsed() < Duration::from_secs(10), "never visible: {v}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // The same page again changes nothing.
    let r = send(
        &app,
        post("/api/ingest?uri=https://example.org/g/1", Some(TOKEN), page),
    )
    .await;
    assert_eq!(r.json()["sources_skipped"], 1);
}

/// A JSON POST with the token.
fn json_post(uri: &str, body: &'static str) -> Request<Body> {
    Request::post(uri)
        .header(header::AUTHORIZATION, format!("Bearer {TOKEN}"))
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body))
        .unwrap()
}

/// Every path and method of the OpenAPI document is a route of the router, and every
/// route of the JSON API is in the document.
#[tokio::test]
async fn openapi_matches_the_routes() {
    let (d, a) = archive();
    cairn_store::Accounts::open(d.path())
        .unwrap()
        .add_user("opal", cairn_store::Role::Admin, "opal's password")
        .unwrap();
    // A second caption, for the merge into caption 1 and the split after it.
    let text = "A boy sells bread in Hama, Syria, May 2, 2015. REUTERS/Jane Roe";
    Archive::open_writer(d.path())
        .unwrap()
        .write_batch(&[NewSource {
            uri: "test:two".into(),
            kind: SourceKind::Text,
            sha256: "2".repeat(64),
            encoding: "utf-8".into(),
            text_len: text.len(),
            bytes: text.as_bytes().to_vec(),
            packed: None,
            warnings: vec![],
            origin: None,
            occurrences: vec![NewOccurrence {
                span: Span::new(0, text.len()),
                text: text.into(),
                key: [8; 16],
                record: Some(cairn_extract::Extractor::bundled().extract(text)),
                packed: None,
            }],
        }])
        .unwrap();
    let app = cairn_server::router_with(
        a,
        &ServeOptions {
            ingest_token: Some(TOKEN.into()),
            ..ServeOptions::default()
        },
    );
    let doc = get(&app, "/api/openapi.json").await.json();
    assert_eq!(doc, cairn_server::openapi());
    assert!(doc["openapi"].as_str().unwrap().starts_with("3."));
    let paths = doc["paths"].as_object().unwrap();
    for (path, item) in paths {
        for (method, op) in item.as_object().unwrap() {
            let uri = path.replace("{id}", "1");
            let req = match method.as_str() {
                "get" => {
                    // Required query parameters get a sample value.
                    let required: Vec<String> = op["parameters"]
                        .as_array()
                        .map(|ps| {
                            ps.iter()
                                .filter(|p| p["in"] == "query" && p["required"] == true)
                                .map(|p| format!("{}=Homs", p["name"].as_str().unwrap()))
                                .collect()
                        })
                        .unwrap_or_default();
                    let uri = if required.is_empty() {
                        uri
                    } else {
                        format!("{uri}?{}", required.join("&"))
                    };
                    Request::get(uri)
                        .header(header::AUTHORIZATION, format!("Bearer {TOKEN}"))
                        .body(Body::empty())
                        .unwrap()
                }
                "post" if path == "/api/login" => Request::post(uri)
                    .header(header::CONTENT_TYPE, "application/json")
                    .body(Body::from(
                        r#"{"name": "opal", "password": "opal's password"}"#,
                    ))
                    .unwrap(),
                // In the document's order: caption 2 merged into 1, then split off again.
                "post" if path.ends_with("/merge") => json_post(&uri, r#"{"other": 2}"#),
                "post" if path.ends_with("/split") => json_post(&uri, r#"{"variants": [2]}"#),
                "post" => post(&uri, Some(TOKEN), b"A caption in Homs.\n".to_vec()),
                "patch" => Request::patch(uri)
                    .header(header::AUTHORIZATION, format!("Bearer {TOKEN}"))
                    .header(header::IF_MATCH, "\"v0\"")
                    .header(header::CONTENT_TYPE, "application/json")
                    .body(Body::from(r#"{"verified": true}"#))
                    .unwrap(),
                other => panic!("unexpected method {other}"),
            };
            let r = send(&app, req).await;
            assert!(
                r.status.is_success(),
                "{method} {path}: {} {}",
                r.status,
                r.text()
            );
            // Each documented status is one the error table can produce.
            for code in op["responses"].as_object().unwrap().keys() {
                let c: u16 = code.parse().unwrap();
                assert!(
                    [200, 400, 401, 403, 404, 411, 412, 413, 415, 428, 429, 503].contains(&c),
                    "{path} {c}"
                );
            }
        }
    }
    for route in [
        "/api/search",
        "/api/export",
        "/api/captions/{id}",
        "/api/captions/{id}/history",
        "/api/login",
        "/api/logout",
        "/api/users",
        "/api/sources/{id}",
        "/api/places",
        "/api/stats",
        "/api/ingest",
        "/api/openapi.json",
        "/healthz",
    ] {
        assert!(paths.contains_key(route), "{route} is not documented");
    }
}

#[tokio::test]
async fn wrong_methods_and_long_uris_answer_in_the_error_shape() {
    let (_d, a) = archive();
    let app = cairn_server::router(a);
    for (method, uri) in [
        ("POST", "/api/search"),
        ("DELETE", "/api/captions/1"),
        ("PUT", "/"),
    ] {
        let req = Request::builder()
            .method(method)
            .uri(uri)
            .body(Body::empty())
            .unwrap();
        let r = send(&app, req).await;
        assert_eq!(r.status, StatusCode::METHOD_NOT_ALLOWED, "{method} {uri}");
        assert_eq!(r.json()["error"]["code"], "method_not_allowed");
        assert!(r.headers.contains_key(header::ALLOW), "{method} {uri}");
    }
    let long = format!(
        "/api/search?source={}",
        "a".repeat(cairn_server::MAX_URI_BYTES)
    );
    let r = get(&app, &long).await;
    assert_eq!(r.status, StatusCode::URI_TOO_LONG);
    assert_eq!(r.json()["error"]["code"], "uri_too_long");
    let fits = format!("/api/search?source={}", "a".repeat(1000));
    assert_eq!(get(&app, &fits).await.status, StatusCode::OK);
}

#[tokio::test]
async fn words_ending_in_a_star_match_as_prefixes() {
    let (_d, a) = archive();
    let app = cairn_server::router(a);
    for (q, total) in [
        ("hom*", 1),
        ("Hom*", 1),
        ("homs*", 1),
        ("reut* AND walk*", 1),
        ("homz*", 0),
        ("ho* -walk*", 0),
        ("\"man walk\"*", 1),
    ] {
        let uri = format!("/api/search?q={}", urlencode(q));
        let r = get(&app, &uri).await;
        assert_eq!(r.status, StatusCode::OK, "{q}: {}", r.text());
        assert_eq!(r.json()["total"], total, "{q}");
    }
    // The users' own regular expressions stay refused, and a bare star is no prefix:
    // such text is searched as plain words, and the answer says so.
    for q in ["text:/ho.*/", "(*)x*", "\"unclosed", "time: 10"] {
        let r = get(&app, &format!("/api/search?q={}", urlencode(q))).await;
        assert_eq!(r.status, StatusCode::OK, "{q}: {}", r.text());
        let notice = r.json()["notice"].as_str().unwrap_or_default().to_string();
        assert!(
            notice.starts_with("Searched as plain words"),
            "{q}: {notice}"
        );
    }
    let r = get(&app, "/api/search?q=homs").await.json();
    assert!(r["notice"].is_null());
}

#[tokio::test]
async fn deeply_nested_queries_are_read_as_plain_words_not_crashed() {
    let (_d, a) = archive();
    let app = cairn_server::router(a);
    let nested = |n: usize| format!("{}homs{}", "(".repeat(n), ")".repeat(n));
    let r = get(&app, &format!("/api/search?q={}", urlencode(&nested(20)))).await;
    assert_eq!(r.json()["total"], 1);
    assert!(r.json()["notice"].is_null());
    // Over the bounds the grammar never reads the text: its words are searched.
    for n in [cairn_store::MAX_QUERY_DEPTH + 1, 1000] {
        let r = get(&app, &format!("/api/search?q={}", urlencode(&nested(n)))).await;
        assert_eq!(r.status, StatusCode::OK, "{n}");
        assert_eq!(r.json()["total"], 1, "{n}");
        assert!(r.json()["notice"].is_string(), "{n}");
    }
    let nots = format!("{}homs", "NOT ".repeat(200));
    let r = get(&app, &format!("/api/search?q={}", urlencode(&nots))).await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.json()["notice"].is_string());
}

#[tokio::test]
async fn language_is_a_filter_and_a_facet() {
    let (_d, a) = archive();
    let app = cairn_server::router(a);
    for (q, total) in [
        ("lang=en", 1),
        ("lang=fr", 0),
        ("lang=fr,en", 1),
        ("lang=EN", 1),
    ] {
        let r = get(&app, &format!("/api/search?{q}")).await;
        assert_eq!(r.status, StatusCode::OK, "{q}: {}", r.text());
        assert_eq!(r.json()["total"], total, "{q}");
    }
    let v = get(&app, "/api/search?facets=1").await.json();
    assert_eq!(v["facets"]["lang"][0]["value"], "en");
    assert_eq!(v["facets"]["lang"][0]["count"], 1);
}

fn urlencode(s: &str) -> String {
    form_urlencoded::byte_serialize(s.as_bytes()).collect()
}
