//! Where `cairn export --out` writes, through the real binary: a FIFO and a link are
//! written through (neither replaced by a regular file), `-` is standard output, and a
//! regular file is replaced whole.

mod common;

use std::io::Read;
use std::path::Path;

use common::{cairn, stderr};

/// An archive holding one page with one caption of our own.
fn archive(d: &Path) -> std::path::PathBuf {
    let page = d.join("page.html");
    std::fs::write(
        &page,
        "<html><body><figure><img src=\"a.jpg\"><figcaption>Fishermen mend their nets on \
         the beach in Essaouira, Morocco, on May 4, 2021. (Photo by Lina Haddad/AFP)\
         </figcaption></figure></body></html>",
    )
    .unwrap();
    let data = d.join("archive");
    let out = cairn(&data).arg("ingest").arg(&page).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    data
}

fn export_to(data: &Path, out: &Path) -> std::process::Output {
    cairn(data)
        .args(["export", "--format", "csv", "--out"])
        .arg(out)
        .output()
        .unwrap()
}

#[test]
fn a_fifo_is_written_through() {
    let d = tempfile::tempdir().unwrap();
    let data = archive(d.path());
    let fifo = d.path().join("pipe");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    // The reader reports through a channel with a time limit: were the FIFO replaced
    // instead of written, its open would wait for a writer forever.
    let (tx, rx) = std::sync::mpsc::channel();
    {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            let mut s = String::new();
            std::fs::File::open(&fifo)
                .unwrap()
                .read_to_string(&mut s)
                .unwrap();
            let _ = tx.send(s);
        });
    }
    let out = export_to(&data, &fifo);
    assert!(out.status.success(), "{}", stderr(&out));
    let got = rx
        .recv_timeout(std::time::Duration::from_secs(60))
        .expect("the FIFO's reader got the export");
    assert!(
        got.starts_with("id,text,") && got.contains("Essaouira"),
        "{got}"
    );
    let kind = std::fs::symlink_metadata(&fifo).unwrap().file_type();
    assert!(std::os::unix::fs::FileTypeExt::is_fifo(&kind), "{kind:?}");
}

#[test]
fn a_link_is_written_through_and_stays_a_link() {
    let d = tempfile::tempdir().unwrap();
    let data = archive(d.path());
    let file = d.path().join("real.csv");
    let link = d.path().join("link.csv");
    std::fs::write(&file, "old").unwrap();
    std::os::unix::fs::symlink(&file, &link).unwrap();
    let out = export_to(&data, &link);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    let got = std::fs::read_to_string(&file).unwrap();
    assert!(
        got.starts_with("id,text,") && got.contains("Essaouira"),
        "{got}"
    );

    // A link to nothing yet creates its target.
    let dangling = d.path().join("later.csv");
    let to_later = d.path().join("to-later.csv");
    std::os::unix::fs::symlink(&dangling, &to_later).unwrap();
    let out = export_to(&data, &to_later);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        std::fs::read_to_string(&dangling)
            .unwrap()
            .contains("Essaouira")
    );
    assert!(
        std::fs::symlink_metadata(&to_later)
            .unwrap()
            .file_type()
            .is_symlink()
    );
}

#[test]
fn a_dash_is_standard_output_and_a_device_stays_a_device() {
    let d = tempfile::tempdir().unwrap();
    let data = archive(d.path());
    let out = export_to(&data, Path::new("-"));
    assert!(out.status.success(), "{}", stderr(&out));
    let got = String::from_utf8(out.stdout).unwrap();
    assert!(
        got.starts_with("id,text,") && got.contains("Essaouira"),
        "{got}"
    );
    assert!(!Path::new("-").exists() && !d.path().join("-").exists());

    let out = export_to(&data, Path::new("/dev/null"));
    assert!(out.status.success(), "{}", stderr(&out));
    let kind = std::fs::symlink_metadata("/dev/null").unwrap().file_type();
    assert!(std::os::unix::fs::FileTypeExt::is_char_device(&kind));
}

#[test]
fn a_regular_file_is_replaced_whole() {
    let d = tempfile::tempdir().unwrap();
    let data = archive(d.path());
    let file = d.path().join("out.csv");
    std::fs::write(&file, "old content that is longer than nothing").unwrap();
    let out = export_to(&data, &file);
    assert!(out.status.success(), "{}", stderr(&out));
    let got = std::fs::read_to_string(&file).unwrap();
    assert!(
        got.starts_with("id,text,") && !got.contains("old content"),
        "{got}"
    );
    let names: Vec<_> = std::fs::read_dir(d.path()).unwrap().collect();
    assert!(names.iter().all(|e| {
        !e.as_ref()
            .unwrap()
            .file_name()
            .to_string_lossy()
            .ends_with(".partial")
    }));
}
