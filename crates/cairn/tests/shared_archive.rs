//! An archive a team shares, through the real binary: searches (a served archive and
//! new processes) never see an empty index while it is rebuilt; writers wait their
//! turn; `check` passes during an ingest and `check --repair` rebuilds a missing index;
//! a read-only archive (a read-only mount, another user) is searched and served; files
//! follow the umask; and every command ends quietly when its reader goes away.

mod common;

use std::io::{BufRead, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::{cairn, json, stats, stderr};

fn bin() -> PathBuf {
    assert_cmd::cargo::cargo_bin("cairn")
}

/// An archive of `pages` generated pages in `work/a`.
fn archive(work: &Path, pages: u32) -> PathBuf {
    let corpus = work.join("corpus");
    cairn(work)
        .args(["generate", "--pages", &pages.to_string(), "--seed", "3"])
        .arg(&corpus)
        .assert()
        .success();
    let d = work.join("a");
    cairn(&d).arg("ingest").arg(&corpus).assert().success();
    d
}

/// `cairn serve` on a free port, and its address.
struct Server {
    child: Child,
    addr: String,
}

impl Server {
    fn start(data: &Path, extra: &[&str], env: &[(&str, &str)]) -> Server {
        let mut cmd = Command::new(bin());
        cmd.arg("--data")
            .arg(data)
            .args(["serve", "--addr", "127.0.0.1:0"])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        for (k, v) in env {
            cmd.env(k, v);
        }
        let mut child = cmd.spawn().unwrap();
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

    /// A request; the status and the body.
    fn request(&self, method: &str, path: &str, headers: &str, body: &str) -> (u16, String) {
        let mut s = std::net::TcpStream::connect(&self.addr).unwrap();
        write!(
            s,
            "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n{headers}Content-Length: {}\r\n\r\n{body}",
            body.len()
        )
        .unwrap();
        let mut out = String::new();
        s.read_to_string(&mut out).unwrap();
        let status = out
            .split(' ')
            .nth(1)
            .and_then(|c| c.parse().ok())
            .unwrap_or(0);
        let body = out
            .split_once("\r\n\r\n")
            .map_or("", |(_, b)| b)
            .to_string();
        (status, body)
    }

    fn search_total(&self, q: &str) -> u64 {
        let (status, body) = self.request("GET", &format!("/api/search?q={q}&limit=1"), "", "");
        assert_eq!(status, 200, "{body}");
        let v: serde_json::Value = serde_json::from_str(&body).unwrap();
        v["total"].as_u64().unwrap()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn cli_total(data: &Path, q: &str) -> Result<u64, String> {
    let out = cairn(data)
        .args(["search", q, "--json", "--limit", "1"])
        .output()
        .unwrap();
    if !out.status.success() {
        return Err(stderr(&out));
    }
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    Ok(v["total"].as_u64().unwrap())
}

/// While `cairn reindex` runs again and again, a served archive and new search
/// processes answer every search with every caption.
#[test]
fn searches_during_reindex_never_see_an_empty_index() {
    let work = tempfile::tempdir().unwrap();
    let d = archive(work.path(), 300);
    let want = stats(&d)["captions"].as_u64().unwrap();
    let server = Server::start(&d, &[], &[]);
    assert_eq!(server.search_total(""), want);
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let cli = {
        let (d, done) = (d.clone(), done.clone());
        std::thread::spawn(move || {
            let mut seen = Vec::new();
            while !done.load(std::sync::atomic::Ordering::Relaxed) {
                seen.push(cli_total(&d, ""));
            }
            seen
        })
    };
    let mut served = Vec::new();
    for _ in 0..4 {
        let mut reindex = Command::new(bin())
            .arg("--data")
            .arg(&d)
            .arg("reindex")
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        while reindex.try_wait().unwrap().is_none() {
            served.push(server.search_total(""));
        }
        assert!(reindex.wait().unwrap().success());
    }
    done.store(true, std::sync::atomic::Ordering::Relaxed);
    let seen = cli.join().unwrap();
    assert!(served.len() >= 4 && !seen.is_empty());
    let bad: Vec<_> = served.iter().filter(|&&t| t != want).collect();
    assert!(bad.is_empty(), "the server answered {bad:?} of {want}");
    let bad: Vec<_> = seen.iter().filter(|t| *t != &Ok(want)).collect();
    assert!(bad.is_empty(), "searches answered {bad:?} of {want}");
    println!(
        "{} served and {} command-line searches during 4 reindexes, all {want}",
        served.len(),
        seen.len()
    );
}

/// A writer finds the archive busy: it fails at once with a clear message, or waits its
/// turn with --wait (and gives up after the time given).
#[test]
fn writers_wait_their_turn() {
    let work = tempfile::tempdir().unwrap();
    let d = archive(work.path(), 20);
    let more = work.path().join("more.txt");
    std::fs::write(
        &more,
        "Residents walk past a damaged bakery in Quorvalle.\n",
    )
    .unwrap();
    let held = cairn_store::Archive::open_writer(&d).unwrap();
    let o = cairn(&d).arg("ingest").arg(&more).output().unwrap();
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("being written by another cairn process"),
        "{}",
        stderr(&o)
    );
    for cmd in [&["reindex", "--wait", "1"][..], &["compact", "--wait", "1"]] {
        let t = Instant::now();
        let o = cairn(&d).args(cmd).output().unwrap();
        assert!(!o.status.success(), "{cmd:?}");
        assert!(
            t.elapsed() >= Duration::from_secs(1),
            "{cmd:?} gave up early"
        );
        assert!(stderr(&o).contains("being written"), "{}", stderr(&o));
    }
    let mut waiting = Command::new(bin())
        .arg("--data")
        .arg(&d)
        .args(["ingest", "--wait", "120"])
        .arg(&more)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    assert!(waiting.try_wait().unwrap().is_none(), "it did not wait");
    drop(held);
    let o = waiting.wait_with_output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("waiting up to 120 s"), "{}", stderr(&o));
    assert_eq!(cli_total(&d, "quorvalle"), Ok(1));
    cairn(&d).args(["reindex", "--wait"]).assert().success();
}

/// The server takes the writer lock only while it stores a posted page: command-line
/// writers run beside it, and a post during one waits for it (or is told to come back).
#[test]
fn a_server_that_ingests_lets_other_writers_in() {
    let work = tempfile::tempdir().unwrap();
    let d = archive(work.path(), 20);
    let token = "a-token-of-sixteen-or-more";
    let auth = format!("Authorization: Bearer {token}\r\nContent-Type: text/plain\r\n");
    let server = Server::start(
        &d,
        &["--allow-ingest", "--timeout", "2"],
        &[("CAIRN_INGEST_TOKEN", token)],
    );
    let post = |uri: &str, text: &str| {
        server.request("POST", &format!("/api/ingest?uri={uri}"), &auth, text)
    };
    let (status, body) = post("u:1", "A rescue worker carries a child from the rubble.");
    assert_eq!(status, 200, "{body}");
    // The lock went with the write: command-line writers need not wait.
    cairn(&d).arg("reindex").assert().success();
    cairn(&d).arg("compact").assert().success();
    // During a command-line write, a post waits its turn...
    let held = cairn_store::Archive::open_writer(&d).unwrap();
    let release = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(700));
        drop(held);
    });
    let (status, body) = post("u:2", "Firefighters spray water on a burning warehouse.");
    assert_eq!(status, 200, "{body}");
    release.join().unwrap();
    // ...and past the server's time limit is told to come back, with Retry-After.
    let held = cairn_store::Archive::open_writer(&d).unwrap();
    let mut s = std::net::TcpStream::connect(&server.addr).unwrap();
    let text = "Boys play football beside a destroyed school in Tessaloon.";
    write!(
        s,
        "POST /api/ingest?uri=u:3 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n{auth}Content-Length: {}\r\n\r\n{text}",
        text.len()
    )
    .unwrap();
    let mut answer = String::new();
    s.read_to_string(&mut answer).unwrap();
    drop(held);
    assert!(answer.starts_with("HTTP/1.1 503"), "{answer}");
    assert!(
        answer.to_ascii_lowercase().contains("retry-after: 5"),
        "{answer}"
    );
    assert!(answer.contains("\"busy\""), "{answer}");
    let (status, body) = post("u:3", text);
    assert_eq!(status, 200, "{body}");
    // The server's reader sees the new commit shortly after it.
    let t = Instant::now();
    while server.search_total("tessaloon") != 1 && t.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(100));
    }
    assert_eq!(server.search_total("tessaloon"), 1);
}

/// `check` during an ingest passes (the index lags, it is said so), and `check --repair`
/// rebuilds an index that is gone.
#[test]
fn check_passes_during_an_ingest_and_repair_rebuilds_a_missing_index() {
    let work = tempfile::tempdir().unwrap();
    let d = archive(work.path(), 20);
    let corpus = work.path().join("big");
    cairn(work.path())
        .args(["generate", "--pages", "1500", "--seed", "8"])
        .arg(&corpus)
        .assert()
        .success();
    let mut ingest = Command::new(bin())
        .arg("--data")
        .arg(&d)
        .args(["ingest", "--batch-sources", "16"])
        .arg(&corpus)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let (mut checks, mut behind) = (0, 0);
    while ingest.try_wait().unwrap().is_none() {
        let o = cairn(&d).arg("check").output().unwrap();
        assert!(o.status.success(), "check during an ingest: {}", stderr(&o));
        checks += 1;
        behind += usize::from(stderr(&o).contains("search index is behind"));
    }
    assert!(ingest.wait().unwrap().success());
    assert!(checks >= 1, "the ingest ended before a check");
    println!("{checks} checks during the ingest passed, {behind} saw the index behind");
    let want = stats(&d)["captions"].as_u64().unwrap();
    std::fs::remove_dir_all(d.join("index")).unwrap();
    let o = cairn(&d).arg("check").output().unwrap();
    assert!(!o.status.success());
    assert!(stderr(&o).contains("--repair"), "{}", stderr(&o));
    let o = cairn(&d).args(["check", "--repair"]).output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("rebuilt the search index"),
        "{}",
        stderr(&o)
    );
    assert_eq!(cli_total(&d, ""), Ok(want));
    cairn(&d).arg("check").assert().success();
}

/// Unmounts a bind mount when dropped.
struct Mount(PathBuf);

impl Drop for Mount {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
    }
}

fn run_ok(cmd: &mut Command) -> bool {
    cmd.stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Searches a read-only archive at `ro` through the CLI and a server; `wrap` runs
/// the binary (as another user, say).
fn search_read_only(ro: &Path, want: u64, wrap: &[&str]) {
    let mut cmd = Command::new(wrap.first().map_or(bin().into_os_string(), |w| w.into()));
    if !wrap.is_empty() {
        cmd.args(&wrap[1..]).arg(bin());
    }
    let o = cmd
        .arg("--data")
        .arg(ro)
        .args(["search", "", "--json", "--limit", "1"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{wrap:?}: {}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["total"].as_u64(), Some(want), "{wrap:?}");
    if wrap.is_empty() {
        let server = Server::start(ro, &[], &[]);
        assert_eq!(server.search_total(""), want);
        let (status, body) = server.request("GET", "/api/stats", "", "");
        assert_eq!(status, 200, "{body}");
        let o = cairn(ro).arg("check").output().unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
    }
}

/// An archive on a read-only bind mount, and one owned by another user, are searched
/// and served; its files were made with the umask (readable by others under 022).
#[test]
fn a_read_only_archive_is_searched_and_served() {
    let work = tempfile::tempdir().unwrap();
    let corpus = work.path().join("corpus");
    cairn(work.path())
        .args(["generate", "--pages", "40", "--seed", "2"])
        .arg(&corpus)
        .assert()
        .success();
    let d = work.path().join("a");
    let made = Command::new("sh")
        .arg("-c")
        .arg("umask 022 && exec \"$0\" --data \"$1\" ingest \"$2\"")
        .arg(bin())
        .arg(&d)
        .arg(&corpus)
        .status()
        .unwrap();
    assert!(made.success());
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        for e in walk(&d) {
            let mode = std::fs::metadata(&e).unwrap().permissions().mode();
            assert_eq!(
                mode & 0o044,
                0o044,
                "{} is mode {:o}",
                e.display(),
                mode & 0o777
            );
        }
    }
    let want = stats(&d)["captions"].as_u64().unwrap();
    let ro = work.path().join("ro");
    std::fs::create_dir(&ro).unwrap();
    if run_ok(Command::new("mount").arg("--bind").arg(&d).arg(&ro)) {
        let _mounted = Mount(ro.clone());
        if run_ok(
            Command::new("mount")
                .args(["-o", "remount,ro,bind"])
                .arg(&ro),
        ) {
            assert!(
                std::fs::write(ro.join("probe"), b"").is_err(),
                "the mount is writable"
            );
            search_read_only(&ro, want, &[]);
        } else {
            eprintln!("skipping the read-only mount: remount not permitted here");
        }
    } else {
        eprintln!("skipping the read-only mount: mount --bind not permitted here");
    }
    // Another user (nobody), who may read but not write the directory.
    let root = Command::new("id")
        .arg("-u")
        .output()
        .map(|o| o.stdout == b"0\n");
    if root.unwrap_or(false) && Path::new("/usr/bin/setpriv").exists() {
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            for p in [work.path(), d.as_path()] {
                std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o755)).unwrap();
            }
        }
        let nobody = [
            "setpriv",
            "--reuid=65534",
            "--regid=65534",
            "--clear-groups",
        ];
        search_read_only(&d, want, &nobody);
    } else {
        eprintln!("skipping another user's read: not root, or no setpriv");
    }
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

/// Runs `args` with standard output read `lines` lines, then closed (`| head`); the
/// command must end with success and no panic.
fn read_then_close(data: &Path, args: &[&str], lines: usize) {
    let mut child = Command::new(bin())
        .arg("--data")
        .arg(data)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    if lines > 0 {
        let mut r = std::io::BufReader::new(stdout);
        for _ in 0..lines {
            let mut line = String::new();
            r.read_line(&mut line).unwrap();
        }
    } else {
        // Closed before anything is read: a command whose output fills the pipe would
        // otherwise wait on it for ever.
        drop(stdout);
    }
    let o = child.wait_with_output().unwrap();
    let err = stderr(&o);
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    assert!(o.status.success(), "{args:?}: {:?} {err}", o.status);
}

/// `show --json | head -1`, `places | head -1`, `search | head`, `export | head`: every
/// command ends quietly when its reader goes away, whether it read a line first or
/// nothing at all.
#[test]
fn commands_end_quietly_when_their_reader_goes_away() {
    let work = tempfile::tempdir().unwrap();
    let d = archive(work.path(), 200);
    let hits = json(cairn(&d).args(["search", "", "--json", "--limit", "1"]));
    let id = hits["hits"][0]["id"].to_string();
    let commands: [&[&str]; 10] = [
        &["show", &id, "--json"],
        &["show", &id],
        &["places", "Aleppo"],
        &["places", "Aleppo", "--json"],
        &["search", "", "--limit", "200"],
        &["search", "", "--json", "--limit", "200", "--facets"],
        &["export", "", "--format", "jsonl"],
        &["export", "", "--format", "geojson"],
        &["export", "", "--format", "csv"],
        &["export", "", "--format", "acled-csv"],
    ];
    for args in commands {
        read_then_close(&d, args, 1);
        read_then_close(&d, args, 0);
    }
    read_then_close(&d, &["stats"], 0);
    read_then_close(&d, &["check", "--json"], 0);
}
