//! Request heads over real sockets on 127.0.0.1: every refusal, even of a head too long
//! for the HTTP parser, answers in the JSON error shape, and a server on loopback
//! answers only to loopback host names and the names its user allowed.

mod common;

use std::io::{Read, Write};
use std::net::SocketAddr;
use std::time::Duration;

use cairn_server::ServeOptions;
use common::{Server, archive};

/// Sends `req` whole and reads the answer to its end; the status and the body.
async fn raw(addr: SocketAddr, req: Vec<u8>) -> (u16, String) {
    tokio::task::spawn_blocking(move || {
        let mut s = std::net::TcpStream::connect(addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        // The server may answer and close before it has read all of a long head.
        let _ = s.write_all(&req);
        let mut out = Vec::new();
        let _ = s.read_to_end(&mut out);
        let text = String::from_utf8_lossy(&out).to_string();
        let status = text.get(9..12).and_then(|c| c.parse().ok()).unwrap_or(0);
        let body = text
            .split_once("\r\n\r\n")
            .map_or("", |(_, b)| b)
            .to_string();
        (status, body)
    })
    .await
    .unwrap()
}

fn code(body: &str) -> String {
    let v: serde_json::Value =
        serde_json::from_str(body).unwrap_or_else(|_| panic!("not JSON: {body:?}"));
    v["error"]["code"].as_str().unwrap_or_default().to_string()
}

fn get(path: &str, host: &str) -> Vec<u8> {
    format!("GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n").into_bytes()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn long_request_lines_and_heads_are_refused_in_the_json_shape() {
    let (_d, a) = archive(1);
    let server = Server::start(a, ServeOptions::default()).await;
    let addr = server.addr;
    // Over the server's own bound, then over the HTTP parser's, for the request line.
    for len in [10_000, 40_000, 70_000, 300_000] {
        let path = format!("/api/search?q={}", "a".repeat(len));
        let (status, body) = raw(addr, get(&path, "localhost")).await;
        assert_eq!(status, 414, "{len}: {body:?}");
        assert_eq!(code(&body), "uri_too_long", "{len}");
    }
    // A head over the parser's bound in its header fields.
    let mut req = b"GET /api/stats HTTP/1.1\r\nHost: localhost\r\n".to_vec();
    for i in 0..120 {
        req.extend(format!("X-Filler-{i}: {}\r\n", "b".repeat(4000)).into_bytes());
    }
    req.extend(b"\r\n");
    let (status, body) = raw(addr, req).await;
    assert_eq!(status, 431, "{body:?}");
    assert_eq!(code(&body), "headers_too_large");
    // A head that is not HTTP at all.
    let (status, body) = raw(addr, b"HELLO THERE\r\n\r\n".to_vec()).await;
    assert_eq!(status, 400, "{body:?}");
    assert_eq!(code(&body), "bad_request");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_loopback_server_answers_only_to_loopback_and_allowed_hosts() {
    let (_d, a) = archive(1);
    let opts = ServeOptions {
        allowed_hosts: vec!["Archive.Example".into()],
        ..ServeOptions::default()
    };
    let server = Server::start(a, opts).await;
    let addr = server.addr;
    let port = addr.port();
    for host in [
        "localhost".to_string(),
        format!("localhost:{port}"),
        format!("127.0.0.1:{port}"),
        "127.3.4.5".into(),
        format!("[::1]:{port}"),
        format!("archive.example:{port}"),
    ] {
        let (status, body) = raw(addr, get("/api/stats", &host)).await;
        assert_eq!(status, 200, "{host}: {body}");
    }
    // A name a page pointed at 127.0.0.1 is refused, for the API and the page alike.
    for path in ["/api/stats", "/", "/api/search?q=homs"] {
        for host in [
            "rebind.example",
            "rebind.example:7878",
            "localhost.rebind.example",
        ] {
            let (status, body) = raw(addr, get(path, host)).await;
            assert_eq!(status, 403, "{path} {host}: {body}");
            assert_eq!(code(&body), "host_not_allowed", "{path} {host}");
        }
    }
    server.stop().await;
}
