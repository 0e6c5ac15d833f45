//! The virtualenv the Python tests share: `target/py-venv`, with the `cairn` module
//! built into it.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The repository.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Runs a setup step; `Err` with what it printed when it fails.
pub fn step(c: &mut Command) -> Result<(), String> {
    match c.output() {
        Ok(o) if o.status.success() => Ok(()),
        Ok(o) => Err(format!(
            "{c:?} failed:\n{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        )),
        Err(e) => Err(format!("{c:?}: {e}")),
    }
}

/// The main workspace's target directory (`CARGO_TARGET_DIR` if set).
fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("target"))
}

/// A virtualenv with maturin, pyarrow and `extra` packages (pip requirement strings),
/// and the module built into it (`maturin develop`). The module is built into the main
/// workspace's target directory, where this test build has already compiled most of
/// its dependencies (same versions and profile): a cold build of its own took about
/// 6.9 minutes on 2 cores, one beside the test build 1.8.
pub fn setup(extra: &[&str]) -> Result<PathBuf, String> {
    let root = root();
    let venv = root.join("target/py-venv");
    let bin = venv.join("bin");
    if !bin.join("python").exists() {
        step(Command::new("python3").args(["-m", "venv"]).arg(&venv))?;
    }
    if !bin.join("maturin").exists()
        || step(Command::new(bin.join("python")).args(["-c", "import pyarrow"])).is_err()
    {
        step(Command::new(bin.join("pip")).args([
            "install",
            "-q",
            "maturin>=1.5,<2",
            "pyarrow>=14",
        ]))?;
    }
    if !extra.is_empty() {
        step(
            Command::new(bin.join("pip"))
                .args(["install", "-q"])
                .args(extra),
        )?;
    }
    step(
        Command::new(bin.join("maturin"))
            .args(["develop", "-q"])
            .current_dir(root.join("cairn-py"))
            .env("CARGO_TARGET_DIR", target_dir())
            .env("VIRTUAL_ENV", &venv)
            .env(
                "PATH",
                format!(
                    "{}:{}",
                    bin.display(),
                    std::env::var("PATH").unwrap_or_default()
                ),
            ),
    )?;
    Ok(bin.join("python"))
}
