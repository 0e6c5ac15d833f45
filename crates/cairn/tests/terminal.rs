//! Text from the archive never reaches a terminal as control characters: a caption that
//! holds an escape sequence (written in its page as a character reference) is printed
//! by `search` and `show` with the sequence escaped, and kept as it is in JSON.

mod common;

use common::{cairn, json, stderr};

#[test]
fn search_and_show_print_no_escape_byte() {
    let d = tempfile::tempdir().unwrap();
    let page = d.path().join("page.html");
    std::fs::write(
        &page,
        "<html><body><figure><img src=\"a.jpg\"><figcaption>Children fly kites &#x1b;[2J \
         over the harbour &#x1b;[31mof Sfax, Tunisia, on April 9, 2020. (Photo by Omar \
         Trabelsi/AFP)</figcaption></figure></body></html>",
    )
    .unwrap();
    let data = d.path().join("archive");
    let out = cairn(&data).arg("ingest").arg(&page).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));

    // The archive holds the escape itself: the test would see it were it printed raw.
    let found = json(cairn(&data).args(["search", "kites", "--json", "--facets"]));
    let hit = &found["hits"][0];
    assert!(hit["text"].as_str().unwrap().contains('\u{1b}'), "{found}");
    let id = hit["id"].as_i64().unwrap().to_string();

    for args in [
        vec!["search", "kites", "--facets"],
        vec!["search", ""],
        vec!["show", id.as_str()],
    ] {
        let out = cairn(&data).args(&args).output().unwrap();
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        assert!(!out.stdout.contains(&0x1b), "{args:?}: {:?}", out.stdout);
        assert!(!out.stderr.contains(&0x1b), "{args:?}: {}", stderr(&out));
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains("kites \\u{1b}[2J over"), "{args:?}: {text}");
    }
}
