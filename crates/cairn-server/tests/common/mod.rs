//! Helpers of the socket tests: an archive of many captions, a server on 127.0.0.1,
//! and raw HTTP/1.1 clients (quick, idle and stalled ones).
#![allow(dead_code)]

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::time::Duration;

use cairn_model::{SourceKind, Span};
use cairn_server::ServeOptions;
use cairn_store::{Archive, NewOccurrence, NewSource};
use tokio::net::TcpSocket;

/// An archive of `n` distinct captions of about a kilobyte each, in one source.
pub fn archive(n: usize) -> (tempfile::TempDir, Arc<Archive>) {
    let d = tempfile::tempdir().unwrap();
    let base = "A man walks past a damaged building in Homs, Syria, May 1, 2015.";
    let record = cairn_extract::Extractor::bundled().extract(base);
    let filler = " Residents said the street had been quiet for a week before the shelling began again at dawn.".repeat(10);
    let mut text = String::new();
    let mut occurrences = Vec::new();
    for i in 0..n {
        let caption = format!("{base} Picture {i} of the series.{filler}");
        let start = text.len();
        text.push_str(&caption);
        occurrences.push(NewOccurrence {
            span: Span::new(start, text.len()),
            text: caption,
            key: {
                let mut k = [0u8; 16];
                k[..8].copy_from_slice(&(i as u64 + 1).to_le_bytes());
                k
            },
            record: Some(record.clone()),
            packed: None,
        });
        text.push_str("\n\n");
    }
    {
        let mut a = Archive::open_writer(d.path()).unwrap();
        let bytes = text.into_bytes();
        a.write_batch(&[NewSource {
            uri: "test:series".into(),
            kind: SourceKind::Text,
            sha256: "1".repeat(64),
            encoding: "utf-8".into(),
            text_len: bytes.len(),
            bytes,
            packed: None,
            warnings: vec![],
            origin: None,
            occurrences,
        }])
        .unwrap();
    }
    let a = Arc::new(Archive::open_reader(d.path()).unwrap());
    (d, a)
}

pub struct Server {
    pub addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    done: tokio::task::JoinHandle<()>,
}

impl Server {
    pub async fn start(a: Arc<Archive>, opts: ServeOptions) -> Server {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let done = tokio::spawn(async move {
            let shutdown = async {
                let _ = rx.await;
            };
            cairn_server::serve_until(listener, a, &opts, shutdown)
                .await
                .unwrap();
        });
        Server {
            addr,
            stop: Some(tx),
            done,
        }
    }

    pub async fn stop(mut self) {
        let _ = self.stop.take().map(|s| s.send(()));
        let _ = tokio::time::timeout(Duration::from_secs(20), self.done).await;
    }
}

/// One request on its own connection; the status and the whole body.
pub async fn fetch(addr: SocketAddr, path: &str) -> (u16, Vec<u8>) {
    let path = path.to_string();
    tokio::task::spawn_blocking(move || fetch_now(addr, &path))
        .await
        .unwrap()
}

pub fn fetch_now(addr: SocketAddr, path: &str) -> (u16, Vec<u8>) {
    let mut s = TcpStream::connect(addr).unwrap();
    let req = format!("GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    s.write_all(req.as_bytes()).unwrap();
    let mut out = Vec::new();
    s.read_to_end(&mut out).unwrap();
    let head_end = out
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a response head");
    let status = std::str::from_utf8(&out[9..12]).unwrap().parse().unwrap();
    (status, out[head_end + 4..].to_vec())
}

/// A number from this process's /proc status (`Threads:`, `VmRSS:` in KiB); 0 where
/// there is none.
pub fn proc_status(key: &str) -> usize {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix(key))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

pub fn threads() -> usize {
    proc_status("Threads:")
}

/// A client that asks for an export and then reads nothing.
pub async fn stalled_export(addr: SocketAddr) -> TcpStream {
    let sock = TcpSocket::new_v4().unwrap();
    sock.set_recv_buffer_size(4096).unwrap();
    let s = sock.connect(addr).await.unwrap();
    let mut s = s.into_std().unwrap();
    s.set_nonblocking(false).unwrap();
    s.write_all(b"GET /api/export?q=homs HTTP/1.1\r\nHost: localhost\r\n\r\n")
        .unwrap();
    s
}
