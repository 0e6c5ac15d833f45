//! The server's limits over real sockets on 127.0.0.1: idle and half-sent connections
//! are closed after the header timeout, connections over the cap wait their turn, and a
//! stalled export is stopped and gives its turn back.

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use cairn_server::ServeOptions;
use common::{Server, archive, fetch, stalled_export};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_connections_are_closed_and_the_cap_holds_the_rest() {
    let (_d, a) = archive(10);
    let opts = ServeOptions {
        header_timeout: Duration::from_millis(800),
        max_connections: 4,
        ..ServeOptions::default()
    };
    let server = Server::start(a, opts).await;
    let addr = server.addr;
    let mut idle = Vec::new();
    for _ in 0..4 {
        idle.push(TcpStream::connect(addr).unwrap());
    }
    // The cap is reached: a fifth client is answered only once an idle one is closed.
    let t = Instant::now();
    let (status, _) = fetch(addr, "/api/search?q=homs").await;
    let waited = t.elapsed();
    assert_eq!(status, 200);
    assert!(
        waited >= Duration::from_millis(500),
        "answered after {waited:?}"
    );
    assert!(waited < Duration::from_secs(5), "answered after {waited:?}");
    // Each idle connection was closed by the server: reading gives the end.
    for mut s in idle {
        s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        let mut buf = [0u8; 16];
        // The end of the stream (or a reset), not a timeout.
        match s.read(&mut buf) {
            Ok(n) => assert_eq!(n, 0),
            Err(e) => assert_eq!(e.kind(), std::io::ErrorKind::ConnectionReset, "{e}"),
        }
    }
    // A half-sent request head is cut off the same way.
    let mut s = TcpStream::connect(addr).unwrap();
    s.write_all(b"GET /api/search?q=homs HTTP/1.1\r\nHost: te")
        .unwrap();
    s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    let t = Instant::now();
    let mut rest = Vec::new();
    let r = s.read_to_end(&mut rest);
    assert!(
        t.elapsed() < Duration::from_secs(3),
        "{:?} {r:?}",
        t.elapsed()
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stalled_export_is_stopped_and_its_turn_given_back() {
    let (_d, a) = archive(10_000);
    let opts = ServeOptions {
        idle_timeout: Duration::from_secs(2),
        timeout: Duration::from_secs(1),
        max_exports: 1,
        ..ServeOptions::default()
    };
    let server = Server::start(a, opts).await;
    let addr = server.addr;
    let stalled = stalled_export(addr).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    // The one turn is taken: another export waits, then is refused within the limit.
    let (status, body) = fetch(addr, "/api/export?q=homs").await;
    assert_eq!(status, 503, "a body of {} bytes", body.len());
    let v: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(v["error"]["code"], "timeout");
    // The stalled client is cut off after the idle limit, and the turn comes back.
    tokio::time::sleep(Duration::from_secs(3)).await;
    let (status, body) = fetch(addr, "/api/export?q=picture+7+of").await;
    assert_eq!(status, 200, "a body of {} bytes", body.len());
    let text = String::from_utf8_lossy(&body);
    assert!(text.contains("Picture 7 of the series"));
    assert!(
        text.ends_with("0\r\n\r\n"),
        "the body ends with its last chunk"
    );
    drop(stalled);
    server.stop().await;
}
