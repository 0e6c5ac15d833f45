//! Uploads cannot exhaust a server: 120 uploads of 16 MiB at once, without a token and
//! then with one, leave `cairn serve` (the real binary, on 127.0.0.1) within a memory
//! budget of the uploads it takes at once times the largest body, measured from the
//! kernel's high-water mark of its resident memory.

mod common;

use std::io::{BufRead, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use common::cairn;

const TOKEN: &str = "upload-test-token-0123456789";
const BODY: usize = 16 << 20;
const CLIENTS: usize = 120;
/// What the server may hold for uploads: its uploads at once times the largest body.
const BUDGET: u64 = (cairn_server::MAX_UPLOADS * cairn_server::MAX_BODY_BYTES) as u64;

struct Server {
    child: Child,
    addr: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(data: &Path) -> Server {
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("cairn"))
        .arg("--data")
        .arg(data)
        .args(["serve", "--addr", "127.0.0.1:0", "--allow-ingest"])
        .env("CAIRN_INGEST_TOKEN", TOKEN)
        .env_remove("CAIRN_DATA")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|r| r.split('/').next())
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_string();
    Server { child, addr }
}

/// A `/proc` status field of the server in bytes.
fn status_bytes(pid: u32, key: &str) -> u64 {
    let s = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let kib: u64 = s
        .lines()
        .find_map(|l| l.strip_prefix(key))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap();
    kib * 1024
}

/// One upload: its head, then its body in pieces until the server stops taking them;
/// the status of the answer (0 when the connection was cut before one could be read).
fn upload(addr: &str, auth: &str, body_kind: &str) -> u16 {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    s.set_write_timeout(Some(Duration::from_secs(30))).unwrap();
    let head = format!(
        "POST /api/ingest HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n{auth}Content-Type: {body_kind}\r\nContent-Length: {BODY}\r\n\r\n"
    );
    if s.write_all(head.as_bytes()).is_err() {
        return 0;
    }
    let piece = vec![0u8; 256 * 1024];
    for _ in 0..BODY / piece.len() {
        if s.write_all(&piece).is_err() {
            break;
        }
    }
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    std::str::from_utf8(out.get(9..12).unwrap_or_default())
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(0)
}

/// `CLIENTS` uploads at once; their statuses.
fn uploads_at_once(addr: &str, auth: &str) -> Vec<u16> {
    let threads: Vec<_> = (0..CLIENTS)
        .map(|_| {
            let (addr, auth) = (addr.to_string(), auth.to_string());
            std::thread::spawn(move || upload(&addr, &auth, "application/octet-stream"))
        })
        .collect();
    threads.into_iter().map(|t| t.join().unwrap()).collect()
}

fn small_post(addr: &str, text: &str) -> String {
    let mut s = TcpStream::connect(addr).unwrap();
    write!(
        s,
        "POST /api/ingest?uri=u:warm HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nAuthorization: Bearer {TOKEN}\r\nContent-Length: {}\r\n\r\n{text}",
        text.len()
    )
    .unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    out
}

#[test]
fn parallel_uploads_stay_within_the_servers_memory_budget() {
    let work = tempfile::tempdir().unwrap();
    let page = work.path().join("page.txt");
    std::fs::write(
        &page,
        "A man walks past a damaged building in Homs, Syria, May 1, 2015.\n",
    )
    .unwrap();
    let data = work.path().join("a");
    cairn(&data).arg("ingest").arg(&page).assert().success();
    let server = serve(&data);
    let pid = server.child.id();
    // A first upload loads the writer and its gazetteer, as a server taking uploads has.
    let answer = small_post(
        &server.addr,
        "Rescuers search the rubble in Harasta, Syria, on November 6, 2016.",
    );
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    let rest = status_bytes(pid, "VmRSS:");
    // The high-water mark from here on (writing 5 to clear_refs resets it).
    std::fs::write(format!("/proc/{pid}/clear_refs"), "5").unwrap();

    let unauthenticated = uploads_at_once(&server.addr, "");
    let peak_unauthenticated = status_bytes(pid, "VmHWM:");
    let auth = format!("Authorization: Bearer {TOKEN}\r\n");
    let authenticated = uploads_at_once(&server.addr, &auth);
    let peak = status_bytes(pid, "VmHWM:");
    let count = |v: &[u16], s: u16| v.iter().filter(|&&x| x == s).count();
    eprintln!(
        "server RSS at rest {} MiB; peak {} MiB over {CLIENTS} unauthenticated uploads of {} MiB (401: {}, cut: {}), {} MiB with the authenticated ones (400: {}, 503: {}, cut: {}); budget {} MiB over rest",
        rest >> 20,
        peak_unauthenticated >> 20,
        BODY >> 20,
        count(&unauthenticated, 401),
        count(&unauthenticated, 0),
        peak >> 20,
        count(&authenticated, 400),
        count(&authenticated, 503),
        count(&authenticated, 0),
        BUDGET >> 20,
    );
    // Without the token nothing is read, so nothing is stored: each is refused.
    assert!(
        unauthenticated.iter().all(|&s| s == 401 || s == 0),
        "{unauthenticated:?}"
    );
    assert!(count(&unauthenticated, 401) > 0, "{unauthenticated:?}");
    // With it, a few are read (the zeros are no text page: 400) and the rest are busy.
    assert!(
        authenticated.iter().all(|&s| [400, 503, 0].contains(&s)),
        "{authenticated:?}"
    );
    assert!(count(&authenticated, 503) > 0, "{authenticated:?}");
    assert!(count(&authenticated, 400) > 0, "{authenticated:?}");
    assert!(
        peak < rest + BUDGET,
        "peak {} MiB, at rest {} MiB",
        peak >> 20,
        rest >> 20
    );
    // The server still answers, and left no spooled upload behind.
    let answer = small_post(
        &server.addr,
        "Boys play football beside a destroyed school in Douma, Syria.",
    );
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    let left: Vec<_> = std::fs::read_dir(&data)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().starts_with(".upload-"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}
