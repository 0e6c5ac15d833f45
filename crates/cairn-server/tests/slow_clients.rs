//! Idle and slow-reading clients beside real searches, over real sockets on 127.0.0.1
//! (alone in its binary, so that the threads it counts are its own).

mod common;

use std::net::TcpStream;
use std::time::{Duration, Instant};

use cairn_server::ServeOptions;
use common::{Server, archive, fetch, proc_status, stalled_export, threads};

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn idle_and_slow_clients_do_not_starve_searches() {
    let (_d, a) = archive(10_000);
    let opts = ServeOptions {
        header_timeout: Duration::from_secs(30),
        idle_timeout: Duration::from_secs(30),
        ..ServeOptions::default()
    };
    let server = Server::start(a, opts).await;
    let addr = server.addr;
    // Warm the index's tables, as a running server has.
    assert_eq!(fetch(addr, "/api/search?q=homs&facets=1").await.0, 200);
    let before = threads();
    let rss_before = proc_status("VmRSS:");

    let mut idle = Vec::new();
    for _ in 0..200 {
        idle.push(TcpStream::connect(addr).unwrap());
    }
    let mut slow = Vec::new();
    for _ in 0..50 {
        slow.push(stalled_export(addr).await);
    }
    // Let the exports start and fill what they may buffer.
    tokio::time::sleep(Duration::from_millis(1500)).await;

    let mut took = Vec::new();
    for i in 0..100 {
        let t = Instant::now();
        let (status, body) = fetch(addr, &format!("/api/search?q=picture+{i}&limit=5")).await;
        took.push(t.elapsed());
        assert_eq!(status, 200, "{}", String::from_utf8_lossy(&body));
    }
    took.sort();
    let p99 = took[98];
    let during = threads();
    let rss_during = proc_status("VmRSS:");
    eprintln!(
        "searches beside 200 idle and 50 stalled exports: p50 {:?}, p99 {:?}, max {:?}; threads {before} -> {during}; RSS {} -> {} MiB",
        took[49],
        p99,
        took[99],
        rss_before / 1024,
        rss_during / 1024
    );
    assert!(p99 < Duration::from_millis(200), "p99 {p99:?}");
    // A thread per running export at most (the others wait for a turn), not one each.
    assert!(
        during <= before + cairn_server::MAX_EXPORTS + cairn_server::MAX_HEAVY,
        "threads {before} -> {during}"
    );
    drop(idle);
    drop(slow);
    server.stop().await;
}
