//! A team at work on one served archive: 32 readers searching, 4 editors saving
//! corrections to the same three captions (a stale save retried against the current
//! version), and an admin uploading pages to `POST /api/ingest` (an upload told the archive is busy tries again), all at once against
//! `cairn serve`. Reports the reads' latency (p50, p99, max), the saves accepted and
//! refused as stale, the uploads, and every error; then checks that each accepted save
//! is in its caption's history. Fails on any error, busy answer (503, which a save
//! or an upload meets when it waits for the writer past the server's time limit) or
//! lost save.
//!
//! `CAIRN_LOAD_SECONDS` sets how long the readers and editors run (default 20);
//! `CAIRN_LOAD_PAGES` the generated pages ingested before (default 2000).

use std::io::{BufRead, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const READERS: usize = 32;
const EDITORS: usize = 4;
const WORDS: &[&str] = &[
    "", "protest", "flood", "aleppo", "gaza", "kyiv", "rescue", "market", "children", "funeral",
    "fire", "border", "camp", "strike", "rain",
];

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_cairn")
}

fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn run(data: &Path, args: &[&str], stdin: &str) -> String {
    let mut child = Command::new(bin())
        .arg("--data")
        .arg(data)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("run cairn");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "cairn {args:?} failed");
    String::from_utf8(out.stdout).unwrap()
}

fn token(data: &Path, user: &str, role: &str) -> String {
    run(
        data,
        &["users", "add", user, "--role", role],
        "a long load-test secret\n",
    );
    let out = run(data, &["tokens", "create", "--user", user], "");
    out.lines().last().unwrap().trim().to_string()
}

/// One request on a connection of its own: the status, the ETag and the body.
fn request(
    addr: &str,
    method: &str,
    path: &str,
    headers: &str,
    body: &[u8],
) -> (u16, String, String) {
    let Ok(mut s) = TcpStream::connect(addr) else {
        return (0, String::new(), String::new());
    };
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n{headers}Content-Length: {}\r\n\r\n",
        body.len()
    );
    if s.write_all(head.as_bytes())
        .and_then(|()| s.write_all(body))
        .is_err()
    {
        return (0, String::new(), String::new());
    }
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    let text = String::from_utf8_lossy(&out).into_owned();
    let status = text
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let etag = head
        .lines()
        .find_map(|l| {
            l.to_ascii_lowercase()
                .strip_prefix("etag:")
                .map(|v| v.trim().to_string())
        })
        .unwrap_or_default();
    (status, etag, body.to_string())
}

struct Tally {
    errors: Mutex<Vec<String>>,
    reads: Mutex<Vec<Duration>>,
    accepted: Mutex<Vec<(i64, u64, String)>>,
    stale: AtomicU64,
    uploads: AtomicU64,
    busy: AtomicU64,
}

impl Tally {
    fn error(&self, what: String) {
        self.errors.lock().unwrap().push(what);
    }
}

fn reader(addr: &str, n: usize, stop: &AtomicBool, t: &Tally) {
    let mut i = n;
    let mut mine = Vec::new();
    while !stop.load(Ordering::Relaxed) {
        let q = WORDS[i % WORDS.len()];
        let facets = if i % 3 == 0 { "&facets=true" } else { "" };
        let path = format!("/api/search?q={q}{facets}");
        let started = Instant::now();
        let (status, _, body) = request(addr, "GET", &path, "", b"");
        mine.push(started.elapsed());
        if status != 200 {
            t.error(format!(
                "GET {path}: {status} {}",
                body.chars().take(200).collect::<String>()
            ));
        }
        i += READERS;
    }
    t.reads.lock().unwrap().extend(mine);
}

fn editor(addr: &str, n: usize, token: &str, captions: &[i64], stop: &AtomicBool, t: &Tally) {
    let auth = format!("Authorization: Bearer {token}\r\n");
    let mut i = n;
    while !stop.load(Ordering::Relaxed) {
        let id = captions[i % captions.len()];
        let (status, etag, _) = request(addr, "GET", &format!("/api/captions/{id}"), "", b"");
        if status != 200 {
            t.error(format!("GET caption {id}: {status}"));
            continue;
        }
        let body = format!(
            r#"{{"verified": {}, "note": "pass {i} by editor {n}"}}"#,
            i % 2 == 0
        );
        let headers = format!("{auth}If-Match: {etag}\r\nContent-Type: application/json\r\n");
        let (status, etag, text) = request(
            addr,
            "PATCH",
            &format!("/api/captions/{id}"),
            &headers,
            body.as_bytes(),
        );
        match status {
            200 => {
                let v = etag
                    .trim_matches('"')
                    .trim_start_matches('v')
                    .parse()
                    .unwrap_or(0);
                t.accepted.lock().unwrap().push((id, v, format!("load{n}")));
            }
            412 => {
                t.stale.fetch_add(1, Ordering::Relaxed);
            }
            503 if text.contains("\"busy\"") => {
                t.busy.fetch_add(1, Ordering::Relaxed);
            }
            _ => t.error(format!("PATCH caption {id}: {status} {text}")),
        }
        i += EDITORS;
    }
}

fn uploader(addr: &str, token: &str, pages: &[std::path::PathBuf], stop: &AtomicBool, t: &Tally) {
    let auth = format!("Authorization: Bearer {token}\r\nContent-Type: text/plain\r\n");
    for (i, page) in pages.iter().enumerate() {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let bytes = std::fs::read(page).unwrap();
        let path = format!("/api/ingest?uri=https://load.example/{i}");
        loop {
            let (status, _, text) = request(addr, "POST", &path, &auth, &bytes);
            match status {
                200 => t.uploads.fetch_add(1, Ordering::Relaxed),
                // The writer stayed busy past the server's wait: counted, and tried
                // again, as a client that honours Retry-After does.
                503 if text.contains("\"busy\"") && !stop.load(Ordering::Relaxed) => {
                    t.busy.fetch_add(1, Ordering::Relaxed);
                    std::thread::sleep(Duration::from_secs(1));
                    continue;
                }
                _ => {
                    t.error(format!("POST {path}: {status} {text}"));
                    0
                }
            };
            break;
        }
    }
}

/// Every file under `dir`.
fn files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            files(&p, out);
        } else {
            out.push(p);
        }
    }
}

fn percentile(sorted: &[Duration], q: f64) -> f64 {
    let i = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len()) - 1;
    sorted[i].as_secs_f64() * 1000.0
}

/// Every accepted save whose version and user are not in its caption's history.
fn lost_saves(addr: &str, accepted: &[(i64, u64, String)]) -> usize {
    let mut lost = 0;
    for (id, version, user) in accepted {
        let (_, _, body) = request(addr, "GET", &format!("/api/captions/{id}/history"), "", b"");
        let h: serde_json::Value = serde_json::from_str(&body).unwrap_or_default();
        let found =
            h.as_array().into_iter().flatten().any(|r| {
                r["version"].as_u64() == Some(*version) && r["user"].as_str() == Some(user)
            });
        lost += usize::from(!found);
    }
    lost
}

fn main() {
    let tmp = tempfile::tempdir().unwrap();
    let (pages, more, data) = (
        tmp.path().join("p"),
        tmp.path().join("q"),
        tmp.path().join("a"),
    );
    let n = env_or("CAIRN_LOAD_PAGES", 2000).to_string();
    let ok = |c: &mut Command| assert!(c.stdout(Stdio::null()).status().unwrap().success());
    ok(Command::new(bin())
        .args(["generate", "--pages", &n])
        .arg(&pages));
    ok(Command::new(bin())
        .args(["generate", "--pages", "400", "--seed", "7"])
        .arg(&more));
    ok(Command::new(bin())
        .arg("--data")
        .arg(&data)
        .arg("ingest")
        .arg(&pages));
    let editors: Vec<String> = (0..EDITORS)
        .map(|i| token(&data, &format!("load{i}"), "editor"))
        .collect();
    let admin = token(&data, "loadadmin", "admin");
    let mut uploads = Vec::new();
    files(&more, &mut uploads);
    uploads.sort();

    let mut child = Command::new(bin())
        .arg("--data")
        .arg(&data)
        .args(["serve", "--addr", "127.0.0.1:0", "--allow-ingest"])
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
        .unwrap()
        .to_string();
    // A few captions all four editors save, so that their saves meet.
    let (_, _, body) = request(&addr, "GET", "/api/search?q=&limit=3", "", b"");
    let hits: serde_json::Value = serde_json::from_str(&body).unwrap();
    let captions: Vec<i64> = hits["hits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["id"].as_i64().unwrap())
        .collect();

    let t = Arc::new(Tally {
        errors: Mutex::default(),
        reads: Mutex::default(),
        accepted: Mutex::default(),
        stale: AtomicU64::new(0),
        uploads: AtomicU64::new(0),
        busy: AtomicU64::new(0),
    });
    let stop = Arc::new(AtomicBool::new(false));
    let seconds = env_or("CAIRN_LOAD_SECONDS", 20);
    let started = Instant::now();
    let (addr_r, stop_r, t_r, captions_r) = (&addr, &stop, &t, &captions);
    std::thread::scope(|s| {
        for i in 0..READERS {
            s.spawn(move || reader(addr_r, i, stop_r, t_r));
        }
        for (i, tok) in editors.iter().enumerate() {
            s.spawn(move || editor(addr_r, i, tok, captions_r, stop_r, t_r));
        }
        s.spawn(|| uploader(addr_r, &admin, &uploads, stop_r, t_r));
        std::thread::sleep(Duration::from_secs(seconds));
        stop.store(true, Ordering::Relaxed);
    });
    let took = started.elapsed().as_secs_f64();
    let accepted = t.accepted.lock().unwrap().clone();
    let lost = lost_saves(&addr, &accepted);
    let _ = child.kill();
    let _ = child.wait();

    let mut reads = t.reads.lock().unwrap().clone();
    reads.sort();
    let errors = t.errors.lock().unwrap();
    println!(
        "{READERS} readers, {EDITORS} editors, 1 uploader for {took:.1} s on {n} generated pages"
    );
    println!(
        "reads: {} ({:.0}/s), p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        reads.len(),
        reads.len() as f64 / took,
        percentile(&reads, 0.5),
        percentile(&reads, 0.99),
        percentile(&reads, 1.0)
    );
    println!(
        "saves: {} accepted, {} refused as stale; uploads stored: {}; busy answers (503): {}",
        accepted.len(),
        t.stale.load(Ordering::Relaxed),
        t.uploads.load(Ordering::Relaxed),
        t.busy.load(Ordering::Relaxed)
    );
    println!(
        "errors: {}; accepted saves missing from the history: {lost}",
        errors.len()
    );
    for e in errors.iter().take(10) {
        println!("  {e}");
    }
    let busy = t.busy.load(Ordering::Relaxed);
    assert!(
        errors.is_empty() && busy == 0 && lost == 0,
        "errors, busy answers or lost saves"
    );
}
