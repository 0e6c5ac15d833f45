//! The Python module (`cairn-py`, built with maturin) gives what this binary gives:
//! builds it into a virtualenv under `target/py-venv` (pip installs maturin and
//! pyarrow from PyPI the first time) and runs `cairn-py/tests/test_stages.py`, which
//! compares the module's records with `cairn extract` on generated text and HTML
//! pages and checks signatures and verification.
//!
//! Needs `python3` with `venv` and pip access to PyPI: without them the test is
//! skipped with a message, except under `CI=true`, where it fails.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Runs a setup step; `Err` with what it printed when it fails.
fn step(c: &mut Command) -> Result<(), String> {
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

/// A virtualenv with maturin and pyarrow, and the module built into it.
fn setup() -> Result<PathBuf, String> {
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
    step(
        Command::new(bin.join("maturin"))
            .args(["develop", "-q"])
            .current_dir(root.join("cairn-py"))
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

#[test]
fn python_module_gives_what_the_binary_gives() {
    let python = match setup() {
        Ok(p) => p,
        Err(e) if std::env::var("CI").as_deref() != Ok("true") => {
            eprintln!("skipping: could not build the Python module: {e}");
            return;
        }
        Err(e) => panic!("could not build the Python module: {e}"),
    };
    let out = Command::new(python)
        .arg(root().join("cairn-py/tests/test_stages.py"))
        .env("CAIRN_BIN", env!("CARGO_BIN_EXE_cairn"))
        .output()
        .expect("run python");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("cairn-py: 3 tests passed"), "{stdout}");
    eprint!("{stdout}");
}
