//! The Spark job (`cairn-py/spark/cairn_spark.py`) gives the records and clusters
//! `cairn ingest` gives, and `cairn import` of its output searches alike: runs
//! `cairn-py/tests/test_spark.py` with a `local[2]` Spark (see that file for what it
//! compares) in the shared virtualenv, with `pyspark` and `pandas` installed from PyPI.
//!
//! Needs Java 17+ on the PATH besides what the Python module's test needs: without
//! them the test is skipped with a message, except under `CI=true`, where it fails
//! (`.ci/run` installs Java).

use std::process::Command;

mod common;
use common::py::{root, setup, step};

#[test]
fn spark_job_gives_what_ingest_gives() {
    let ready = step(Command::new("java").arg("-version"))
        .and_then(|_| setup(&["pyspark>=4.0,<5", "pandas>=2.2,<3"]));
    let python = match ready {
        Ok(p) => p,
        Err(e) if std::env::var("CI").as_deref() != Ok("true") => {
            eprintln!("skipping: no Java or no pyspark: {e}");
            return;
        }
        Err(e) => panic!("cannot run the Spark job: {e}"),
    };
    let work = tempfile::tempdir().unwrap();
    let out = Command::new(python)
        .arg(root().join("cairn-py/tests/test_spark.py"))
        .arg(work.path().join("spark"))
        .env("CAIRN_BIN", env!("CARGO_BIN_EXE_cairn"))
        .output()
        .expect("run python");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(
        stdout.contains("cairn-py spark: 2 tests passed"),
        "{stdout}"
    );
    eprint!("{stdout}");
}
