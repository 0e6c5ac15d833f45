//! What the tests that read `../shared` have in common: finding it, and skipping or
//! failing when it is absent.

use std::path::{Path, PathBuf};

/// The shared data directory, when it holds `file`. Outside CI a missing directory skips
/// the test (with a message); under `CI=true` it fails it.
pub fn shared(file: &str) -> Option<PathBuf> {
    let dir = std::env::var_os("CAIRN_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared"));
    if dir.join(file).is_file() {
        return Some(dir);
    }
    if std::env::var("CI").as_deref() == Ok("true") {
        panic!(
            "shared data {file} not found under {} (set CAIRN_SHARED)",
            dir.display()
        );
    }
    eprintln!(
        "skipping: shared data {file} not found under {}",
        dir.display()
    );
    None
}
