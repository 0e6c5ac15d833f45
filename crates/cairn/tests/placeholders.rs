//! Placeholder text through the real binary: `N/A`, a dash, a lone date or credit on many
//! pages is not a caption, is never merged into one, and each page says so.

mod common;

use common::{cairn, json, stats, stderr};

/// A page of one real caption of its own and the placeholders CMSs leave.
fn page(i: usize) -> String {
    let fillers = [
        "N/A",
        "None",
        "null",
        "-",
        "AFP",
        "Photo: Reuters",
        "March 3, 2017",
    ];
    format!(
        "{}\n\nA baker number {i} stacks flatbread at dawn in Idlib, Syria, on May {}, 2018. (Photo by Lina Haddad/Sample Wire)\n",
        fillers[i % fillers.len()],
        1 + i % 28
    )
}

#[test]
fn placeholders_on_thirty_pages_are_not_captions_and_never_merge() {
    let d = tempfile::tempdir().unwrap();
    let pages = d.path().join("pages");
    std::fs::create_dir(&pages).unwrap();
    for i in 0..30 {
        std::fs::write(pages.join(format!("p{i:02}.txt")), page(i)).unwrap();
    }
    let data = d.path().join("archive");
    // Exact keys only: what merged the placeholders was their one text.
    let out = cairn(&data)
        .args(["ingest", "--exact-only"])
        .arg(&pages)
        .output()
        .unwrap();
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    let s = stats(&data);
    assert_eq!(s["sources"], 30);
    assert_eq!(
        s["captions"], 30,
        "one caption per page, none for its placeholder"
    );
    assert_eq!(s["occurrences"], 30);
    // Each page's warning names it, the text and why.
    assert!(err.contains("p00.txt") && err.contains("\"N/A\""), "{err}");
    assert!(err.contains("placeholder text (a credit alone)"), "{err}");
    assert!(err.contains("placeholder text (a date alone)"), "{err}");
    assert_eq!(err.matches("placeholder text").count(), 30, "{err}");
    // Nobody is photographer "N" of agency "A".
    let r = json(cairn(&data).args(["search", "", "--json", "--limit", "100"]));
    assert_eq!(r["total"], 30);
    for hit in r["hits"].as_array().unwrap() {
        assert!(
            hit["text"].as_str().unwrap().starts_with("A baker"),
            "{hit}"
        );
    }
    cairn(&data).arg("check").assert().success();
}

#[test]
fn extract_leaves_placeholders_out_with_a_warning() {
    let d = tempfile::tempdir().unwrap();
    let f = d.path().join("one.txt");
    std::fs::write(&f, page(0)).unwrap();
    let out = cairn(d.path()).arg("extract").arg(&f).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let lines: Vec<serde_json::Value> = String::from_utf8(out.stdout.clone())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(lines[0]["credit"]["agency"], "Sample Wire");
    assert!(stderr(&out).contains("\"N/A\" at 0..3 is placeholder text"));
}
