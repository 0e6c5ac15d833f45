//! The server's limits over real sockets on 127.0.0.1: idle and half-sent connections
//! are closed after the header timeout, at the cap an idle connection makes room for a
//! new client while busy ones make it wait its turn, and a stalled export is stopped and
//! gives its turn back.

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use cairn_server::ServeOptions;
use common::{Server, archive, fetch, stalled_export};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_connections_are_closed_and_the_cap_holds_the_busy_ones() {
    let (_d, a) = archive(10_000);
    let opts = ServeOptions {
        header_timeout: Duration::from_millis(800),
        idle_timeout: Duration::from_secs(2),
        timeout: Duration::from_secs(1),
        max_connections: 4,
        ..ServeOptions::default()
    };
    let server = Server::start(a, opts).await;
    let addr = server.addr;
    let mut idle = Vec::new();
    for _ in 0..3 {
        idle.push(TcpStream::connect(addr).unwrap());
    }
    // Each idle connection is closed by the server after the header timeout: reading
    // gives the end.
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
    // Every connection at work (exports whose clients read nothing): a fifth client
    // waits until one is cut off at the idle limit, not before.
    let mut stalled = Vec::new();
    for _ in 0..4 {
        stalled.push(stalled_export(addr).await);
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let t = Instant::now();
    let (status, _) = fetch(addr, "/api/stats").await;
    let waited = t.elapsed();
    assert_eq!(status, 200);
    assert!(
        waited >= Duration::from_millis(1000),
        "answered after {waited:?}"
    );
    assert!(waited < Duration::from_secs(6), "answered after {waited:?}");
    drop(stalled);
    server.stop().await;
}

/// At the cap, idle connections (opened and silent, or kept alive after an answer) make
/// room for a new client at once instead of keeping it waiting for a header timeout.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_client_is_served_at_once_beside_a_full_cap_of_idle_connections() {
    let (_d, a) = archive(10);
    let server = Server::start(a, ServeOptions::default()).await;
    let addr = server.addr;
    let mut idle = Vec::new();
    for i in 0..cairn_server::MAX_CONNECTIONS {
        let mut s = TcpStream::connect(addr).unwrap();
        // Half of them kept alive after an answer.
        if i % 2 == 0 {
            s.write_all(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
                .unwrap();
            let mut buf = [0u8; 512];
            let _ = s.read(&mut buf).unwrap();
        }
        idle.push(s);
    }
    let mut took = Vec::new();
    for _ in 0..5 {
        let t = Instant::now();
        let (status, _) = fetch(addr, "/api/search?q=homs").await;
        took.push(t.elapsed());
        assert_eq!(status, 200);
    }
    eprintln!("beside {} idle connections: {took:?}", idle.len());
    for t in &took {
        assert!(*t < Duration::from_secs(1), "answered after {took:?}");
    }
    drop(idle);
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
