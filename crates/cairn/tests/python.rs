//! The Python module (`cairn-py`, built with maturin) gives what this binary gives:
//! builds it into a virtualenv under `target/py-venv` (pip installs maturin and
//! pyarrow from PyPI the first time) and runs `cairn-py/tests/test_stages.py`, which
//! compares the module's records with `cairn extract` on generated text and HTML
//! pages and checks signatures and verification.
//!
//! Needs `python3` with `venv` and pip access to PyPI: without them the test is
//! skipped with a message, except under `CI=true`, where it fails.

use std::process::Command;

mod common;
use common::py::{root, setup};

#[test]
fn python_module_gives_what_the_binary_gives() {
    let python = match setup(&[]) {
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
    assert!(stdout.contains("cairn-py: 5 tests passed"), "{stdout}");
    eprint!("{stdout}");
}
