//! `cairn import` on job outputs written here (the Spark job's layout): the records and
//! clusters are taken as given, and bad outputs are refused with the file and the
//! problem named, leaving what was stored before as it was.

use std::path::Path;
use std::sync::Arc;

use arrow_array::{ArrayRef, BinaryArray, BooleanArray, Int64Array, RecordBatch, StringArray};
use parquet::arrow::ArrowWriter;

mod common;
use common::{cairn, json};

fn write(dir: &Path, table: &str, columns: Vec<(&str, ArrayRef)>) {
    let d = dir.join(table);
    std::fs::create_dir_all(&d).unwrap();
    let batch = RecordBatch::try_from_iter(columns).unwrap();
    let f = std::fs::File::create(d.join("part-00000.parquet")).unwrap();
    let mut w = ArrowWriter::try_new(f, batch.schema(), None).unwrap();
    w.write(&batch).unwrap();
    w.close().unwrap();
}

fn strings(v: &[&str]) -> ArrayRef {
    Arc::new(StringArray::from(v.to_vec()))
}
fn longs(v: &[i64]) -> ArrayRef {
    Arc::new(Int64Array::from(v.to_vec()))
}
fn bins(v: &[&[u8]]) -> ArrayRef {
    Arc::new(BinaryArray::from(v.to_vec()))
}

const A: &str = "A man walks past a damaged building in the rebel-held town of Douma, Syria, May 3, 2016. (Photo by Rami Haddad/AFP Photo)";
const A_CUT: &str = "A man walks past a damaged building in the rebel-held town of Douma, Syria, May 3, 2016...more";
const B: &str =
    "Children queue for bread outside a bakery in Aleppo, Syria, July 12, 2016. REUTERS/Omar Aziz";

/// Two pages: one with A and B, one with the cut copy of A; the job put A and its cut
/// copy in one cluster, A canonical.
fn job(dir: &Path, tamper: bool) {
    let p1 = format!("{A}\n\n{B}\n");
    let p2 = format!("{A_CUT}\n");
    let sha = |s: &str| cairn_ingest::sha256_hex(s.as_bytes());
    let content2 = if tamper {
        p2.replace("man", "boy")
    } else {
        p2.clone()
    };
    write(
        dir,
        "sources",
        vec![
            ("input", longs(&[0, 1])),
            ("seq", longs(&[0, 0])),
            (
                "uri",
                strings(&["https://example.org/1", "https://example.org/2"]),
            ),
            ("sha256", strings(&[&sha(&p1), &sha(&p2)])),
            ("kind", strings(&["text", "text"])),
            ("encoding", strings(&["utf-8", "utf-8"])),
            ("text_len", longs(&[p1.len() as i64, p2.len() as i64])),
            ("warnings", strings(&["[]", "[]"])),
            (
                "origin",
                Arc::new(StringArray::from(vec![None::<&str>, None])) as ArrayRef,
            ),
            ("content", bins(&[p1.as_bytes(), content2.as_bytes()])),
        ],
    );
    let key = |s: &str| cairn_dedup::exact_key(s).to_bytes();
    let (ka, kb, kc) = (key(A), key(B), key(A_CUT));
    let b_start = A.len() as i64 + 2;
    write(
        dir,
        "occurrences",
        vec![
            ("input", longs(&[0, 0, 1])),
            ("seq", longs(&[0, 0, 0])),
            ("ordinal", longs(&[0, 1, 0])),
            ("start", longs(&[0, b_start, 0])),
            (
                "end",
                longs(&[A.len() as i64, b_start + B.len() as i64, A_CUT.len() as i64]),
            ),
            ("exact_key", bins(&[&ka, &kb, &kc])),
        ],
    );
    let extractor = cairn_extract::Extractor::bundled();
    let rec = |s: &str| serde_json::to_string(&extractor.extract(s)).unwrap();
    write(
        dir,
        "records",
        vec![
            ("exact_key", bins(&[&ka, &kb, &kc])),
            ("pos", longs(&[0, 1, 2])),
            ("text", strings(&[A, B, A_CUT])),
            ("record", strings(&[&rec(A), &rec(B), &rec(A_CUT)])),
        ],
    );
    write(
        dir,
        "clusters",
        vec![
            ("exact_key", bins(&[&ka, &kb, &kc])),
            ("cluster", longs(&[0, 1, 0])),
            (
                "canonical",
                Arc::new(BooleanArray::from(vec![true, true, false])) as ArrayRef,
            ),
        ],
    );
}

#[test]
fn import_takes_the_jobs_clusters_and_refuses_bad_output() {
    let d = tempfile::tempdir().unwrap();
    let data = d.path().join("archive");
    let good = d.path().join("good");
    job(&good, false);
    cairn(&data).arg("import").arg(&good).assert().success();
    let stats = json(cairn(&data).args(["stats", "--json"]));
    assert_eq!(stats["sources"], 2);
    assert_eq!(stats["occurrences"], 3);
    assert_eq!(stats["variants"], 3);
    assert_eq!(
        stats["captions"], 2,
        "the cut copy joined A, as the job said"
    );
    let hit = json(cairn(&data).args(["search", "Douma", "--json"]));
    assert_eq!(hit["total"], 1);
    assert_eq!(hit["hits"][0]["text"], A, "A is canonical");
    assert_eq!(hit["hits"][0]["sources"].as_array().unwrap().len(), 2);
    // Importing it again changes nothing.
    cairn(&data).arg("import").arg(&good).assert().success();
    assert_eq!(json(cairn(&data).args(["stats", "--json"])), stats);

    // Bytes that do not hash to their sha256: refused, naming the file and the source.
    let bad = d.path().join("bad");
    job(&bad, true);
    let fresh = d.path().join("fresh");
    let out = cairn(&fresh).arg("import").arg(&bad).output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("sources") && err.contains("part-00000.parquet"),
        "{err}"
    );
    assert!(
        err.contains("https://example.org/2") && err.contains("sha256"),
        "{err}"
    );
    // A missing table is named; the archive imported before is as it was.
    std::fs::remove_dir_all(bad.join("clusters")).unwrap();
    let out = cairn(&data).arg("import").arg(&bad).output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("clusters") && err.contains("cannot read"),
        "{err}"
    );
    assert_eq!(json(cairn(&data).args(["stats", "--json"])), stats);
    cairn(&data).arg("check").assert().success();
}
