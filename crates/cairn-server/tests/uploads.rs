//! `POST /api/ingest`: an upload is refused on its head alone (token, length, type),
//! over the cap of uploads at once it is `busy`, and a body is read by its format (an
//! HTML page, a WARC file, JSON Lines) with the readers `cairn ingest` uses. The
//! admission tests use real sockets on 127.0.0.1.

mod common;

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use cairn_server::ServeOptions;
use common::{Server, archive};
use http_body_util::BodyExt;
use tower::ServiceExt;

const TOKEN: &str = "test-token-0123456789";

fn with_ingest() -> ServeOptions {
    ServeOptions {
        ingest_token: Some(TOKEN.into()),
        ..ServeOptions::default()
    }
}

/// Sends a request head (and `body`), then reads the answer for at most 5 s without
/// sending anything more; the status and the body.
fn head_only(addr: SocketAddr, head: &str, body: &[u8]) -> (u16, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    s.write_all(head.as_bytes()).unwrap();
    s.write_all(body).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    let mut out = Vec::new();
    let mut buf = [0u8; 4096];
    // Up to the end of the answer's body, which these answers give by their length.
    loop {
        match s.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => out.extend_from_slice(&buf[..n]),
            Err(e) => panic!("no answer in time ({e}); read {out:?}"),
        }
        if complete(&out) {
            break;
        }
    }
    let text = String::from_utf8_lossy(&out).to_string();
    let status = text.get(9..12).and_then(|c| c.parse().ok()).unwrap_or(0);
    let body = text
        .split_once("\r\n\r\n")
        .map_or("", |(_, b)| b)
        .to_string();
    (status, body)
}

fn complete(out: &[u8]) -> bool {
    let text = String::from_utf8_lossy(out).to_ascii_lowercase();
    let Some((head, body)) = text.split_once("\r\n\r\n") else {
        return false;
    };
    head.lines()
        .find_map(|l| l.strip_prefix("content-length: "))
        .and_then(|n| n.trim().parse::<usize>().ok())
        .is_some_and(|n| body.len() >= n)
}

fn code(body: &str) -> String {
    let v: serde_json::Value = serde_json::from_str(body).unwrap_or_else(|_| panic!("{body}"));
    v["error"]["code"].as_str().unwrap_or_default().to_string()
}

fn upload_head(auth: &str, length: usize) -> String {
    format!(
        "POST /api/ingest HTTP/1.1\r\nHost: localhost\r\n{auth}Content-Type: text/plain\r\nContent-Length: {length}\r\n\r\n"
    )
}

/// The answers come on the head alone: a server that read the body first would wait
/// for 16 MiB that never come and answer nothing within the 5 s.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn uploads_are_refused_on_their_head_before_any_body_byte() {
    let (_d, a) = archive(1);
    let server = Server::start(a, with_ingest()).await;
    let addr = server.addr;
    let auth = format!("Authorization: Bearer {TOKEN}\r\n");
    let cases = [
        (upload_head("", 16 << 20), 401, "unauthorized"),
        (
            upload_head("Authorization: Bearer wrong-token-0123456\r\n", 16 << 20),
            401,
            "unauthorized",
        ),
        (upload_head(&auth, 17 << 20), 413, "too_large"),
        (
            format!(
                "POST /api/ingest HTTP/1.1\r\nHost: localhost\r\n{auth}Transfer-Encoding: chunked\r\n\r\n"
            ),
            411,
            "length_required",
        ),
        (
            format!(
                "POST /api/ingest HTTP/1.1\r\nHost: localhost\r\n{auth}Content-Type: application/pdf\r\nContent-Length: 100\r\n\r\n"
            ),
            415,
            "unsupported_type",
        ),
    ];
    for (head, status, want) in cases {
        let t = Instant::now();
        let (got, body) = tokio::task::spawn_blocking(move || head_only(addr, &head, b""))
            .await
            .unwrap();
        assert_eq!((got, code(&body).as_str()), (status, want), "{body}");
        assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
    }
    server.stop().await;
}

/// Uploads past the cap are refused as `busy` with Retry-After, and a turn comes back
/// when an upload ends (here, its client goes away mid-body).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn uploads_over_the_cap_are_busy_and_turns_come_back() {
    let (_d, a) = archive(1);
    let opts = ServeOptions {
        max_uploads: 2,
        ..with_ingest()
    };
    let server = Server::start(a, opts).await;
    let addr = server.addr;
    let auth = format!("Authorization: Bearer {TOKEN}\r\n");
    let mut held = Vec::new();
    for _ in 0..2 {
        let mut s = TcpStream::connect(addr).unwrap();
        s.write_all(upload_head(&auth, 1 << 20).as_bytes()).unwrap();
        s.write_all(&[b'a'; 1024]).unwrap();
        held.push(s);
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let raw = format!("{}A caption in Homs.\n", upload_head(&auth, 19));
    let (status, body) = {
        let raw = raw.clone();
        tokio::task::spawn_blocking(move || head_only(addr, &raw, b""))
            .await
            .unwrap()
    };
    assert_eq!((status, code(&body).as_str()), (503, "busy"), "{body}");
    drop(held);
    // The held uploads end with their clients; a turn is free again soon after.
    let t = Instant::now();
    loop {
        let raw = raw.clone();
        let (status, body) = tokio::task::spawn_blocking(move || head_only(addr, &raw, b""))
            .await
            .unwrap();
        if status == 200 {
            let v: serde_json::Value = serde_json::from_str(&body).unwrap();
            assert_eq!(v["sources_added"], 1, "{body}");
            break;
        }
        assert_eq!(status, 503, "{body}");
        assert!(t.elapsed() < Duration::from_secs(5), "still busy: {body}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    server.stop().await;
}

async fn post(
    app: &axum::Router,
    uri: &str,
    kind: Option<&str>,
    body: Vec<u8>,
) -> (StatusCode, serde_json::Value) {
    let mut b = Request::post(uri)
        .header(header::AUTHORIZATION, format!("Bearer {TOKEN}"))
        .header(header::CONTENT_LENGTH, body.len());
    if let Some(k) = kind {
        b = b.header(header::CONTENT_TYPE, k);
    }
    let res = app
        .clone()
        .oneshot(b.body(Body::from(body)).unwrap())
        .await
        .unwrap();
    let status = res.status();
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    let v = serde_json::from_slice(&bytes)
        .unwrap_or_else(|_| panic!("{}", String::from_utf8_lossy(&bytes)));
    (status, v)
}

/// The caption texts the archive holds for a search, once its reader sees them.
async fn captions(app: &axum::Router, q: &str, want: usize) -> Vec<String> {
    let t = Instant::now();
    loop {
        let req = Request::get(format!("/api/search?q={q}&limit=50"))
            .body(Body::empty())
            .unwrap();
        let res = app.clone().oneshot(req).await.unwrap();
        let bytes = res.into_body().collect().await.unwrap().to_bytes();
        let v: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        let texts: Vec<String> = v["hits"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h["text"].as_str().unwrap_or_default().to_string())
            .collect();
        if texts.len() >= want || t.elapsed() > Duration::from_secs(10) {
            return texts;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

const FIGURE: &str = "Firefighters douse a burning market in Aleppo, Syria, on March 3, 2016. (Photo by Sami Haddad/Sample Wire)";

fn html_page(caption: &str) -> String {
    format!(
        "<!doctype html><html><head><title>Gallery</title></head><body><nav>Home | World</nav><figure><img src=\"a.jpg\"><figcaption>{caption}</figcaption></figure><footer>Copyright</footer></body></html>"
    )
}

#[tokio::test]
async fn an_html_upload_is_read_as_a_page_by_its_type_or_its_content() {
    let (_d, a) = archive(1);
    let app = cairn_server::router_with(a, &with_ingest());
    for (i, kind) in [Some("text/html; charset=utf-8"), None]
        .into_iter()
        .enumerate()
    {
        let caption = FIGURE.replace("March 3", &format!("March {}", i + 4));
        let uri = format!("/api/ingest?uri=https://wire.example/g/{i}");
        let (status, v) = post(&app, &uri, kind, html_page(&caption).into_bytes()).await;
        assert_eq!(status, StatusCode::OK, "{kind:?}: {v}");
        assert_eq!(v["captions_added"], 1, "{kind:?}: {v}");
    }
    let texts = captions(&app, "aleppo", 2).await;
    assert_eq!(texts.len(), 2, "{texts:?}");
    for t in &texts {
        assert!(t.starts_with("Firefighters douse"), "{t}");
        assert!(
            !t.contains('<') && !t.contains("Home | World"),
            "markup kept: {t}"
        );
    }
    // Declared as plain text, the same page is text: its markup is not read as HTML.
    let (status, v) = post(
        &app,
        "/api/ingest?uri=https://wire.example/plain",
        Some("text/plain"),
        html_page("A boy flies a kite over the rooftops of Homs, Syria.").into_bytes(),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let texts = captions(&app, "kite", 1).await;
    assert!(
        texts.iter().any(|t| t.contains("<figcaption>")),
        "{texts:?}"
    );
}

fn warc(uri: &str, html: &str) -> Vec<u8> {
    let block = format!("HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\r\n{html}");
    let mut r = format!(
        "WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: {uri}\r\nWARC-Date: 2016-03-05T10:00:00Z\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n",
        block.len()
    )
    .into_bytes();
    r.extend_from_slice(block.as_bytes());
    r.extend_from_slice(b"\r\n\r\n");
    r
}

#[tokio::test]
async fn a_warc_upload_stores_each_of_its_pages_under_its_own_uri() {
    let (_d, a) = archive(1);
    let app = cairn_server::router_with(a, &with_ingest());
    let mut body = warc(
        "https://wire.example/2016/bridge.html",
        &html_page(
            "Workers repair a bridge over the river in Raqqa, Syria, on June 2, 2016. (Photo by Sami Haddad/Sample Wire)",
        ),
    );
    body.extend(warc(
        "https://wire.example/2016/bakery.html",
        &html_page("A baker stacks bread at dawn in Raqqa, Syria, on June 3, 2016. (Photo by Sami Haddad/Sample Wire)"),
    ));
    for kind in [Some("application/warc"), None] {
        let (status, v) = post(&app, "/api/ingest", kind, body.clone()).await;
        assert_eq!(status, StatusCode::OK, "{kind:?}: {v}");
        let seen = v["sources_added"].as_u64().unwrap() + v["sources_skipped"].as_u64().unwrap();
        assert_eq!(seen, 2, "{kind:?}: {v}");
    }
    let req = Request::get("/api/search?q=raqqa&limit=10")
        .body(Body::empty())
        .unwrap();
    let texts = captions(&app, "raqqa", 2).await;
    assert_eq!(texts.len(), 2, "{texts:?}");
    let res = app.clone().oneshot(req).await.unwrap();
    let v: serde_json::Value =
        serde_json::from_slice(&res.into_body().collect().await.unwrap().to_bytes()).unwrap();
    let uris: Vec<&str> = v["hits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["sources"][0]["uri"].as_str().unwrap())
        .collect();
    assert!(
        uris.contains(&"https://wire.example/2016/bakery.html"),
        "{uris:?}"
    );
    // Declared a WARC, a body that is none is refused, not stored as text.
    let (status, v) = post(
        &app,
        "/api/ingest",
        Some("application/warc"),
        b"just words\n".to_vec(),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
}

#[tokio::test]
async fn a_json_lines_upload_stores_one_source_a_line() {
    let (_d, a) = archive(1);
    let app = cairn_server::router_with(a, &with_ingest());
    let lines = [
        r#"{"caption": "Fishermen mend their nets in the port of Tartus, Syria, on July 8, 2017.", "uri": "https://wire.example/j/1"}"#,
        r#"{"caption": "Children queue for water in Tartus, Syria, on July 9, 2017."}"#,
        "{not json",
    ];
    let body = format!("{}\n", lines.join("\n")).into_bytes();
    for kind in [Some("application/x-ndjson"), None] {
        let (status, v) = post(&app, "/api/ingest?uri=urn:batch:7", kind, body.clone()).await;
        assert_eq!(status, StatusCode::OK, "{kind:?}: {v}");
        let seen = v["sources_added"].as_u64().unwrap() + v["sources_skipped"].as_u64().unwrap();
        assert_eq!(seen, 2, "{kind:?}: {v}");
        // The line that is not JSON is named, with no spool file's name in the message.
        let rejected = v["rejected"].to_string();
        assert!(rejected.contains("the upload line 3"), "{rejected}");
        assert!(!rejected.contains(".upload-"), "{rejected}");
    }
    let texts = captions(&app, "tartus", 2).await;
    assert_eq!(texts.len(), 2, "{texts:?}");
    assert!(!texts.iter().any(|t| t.contains("caption\"")), "{texts:?}");
    let req = Request::get("/api/search?q=queue")
        .body(Body::empty())
        .unwrap();
    let res = app.clone().oneshot(req).await.unwrap();
    let v: serde_json::Value =
        serde_json::from_slice(&res.into_body().collect().await.unwrap().to_bytes()).unwrap();
    assert_eq!(
        v["hits"][0]["sources"][0]["uri"], "urn:batch:7#line=2",
        "{v}"
    );
}
