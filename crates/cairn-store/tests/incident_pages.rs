//! Stored incidents read a page at a time: the pages, in order, hold the same incidents
//! as one read, and the size floor applies to every page.

use cairn_model::{Record, SourceKind, Span};
use cairn_store::{Archive, NewOccurrence, NewSource};

fn source(n: u8, text: &str) -> NewSource {
    let bytes = text.as_bytes().to_vec();
    NewSource {
        uri: format!("test:{n}"),
        kind: SourceKind::Text,
        sha256: format!("{n:064}"),
        encoding: "utf-8".into(),
        text_len: bytes.len(),
        bytes,
        packed: None,
        warnings: vec![],
        origin: None,
        occurrences: vec![NewOccurrence {
            span: Span::new(0, text.len()),
            text: text.into(),
            key: [n; 16],
            record: Some(Record {
                text: text.into(),
                ..Record::default()
            }),
            packed: None,
        }],
    }
}

#[test]
fn pages_of_incidents_add_up_to_one_read() {
    let dir = tempfile::tempdir().unwrap();
    let mut w = Archive::open_writer(dir.path()).unwrap();
    let sources: Vec<NewSource> = (1..=7u8)
        .map(|n| {
            source(
                n,
                &format!("Farmers bring in harvest number {n} near the wall."),
            )
        })
        .collect();
    w.write_batch(&sources).unwrap();
    let built = w.rebuild_incidents().unwrap();
    assert_eq!(
        built.len(),
        7,
        "photographs without date or place stay alone"
    );
    let a = w.reader();
    let whole: Vec<i64> = a.incidents(1).unwrap().iter().map(|i| i.id).collect();
    assert_eq!(whole.len(), 7);
    let mut paged = Vec::new();
    let mut after = i64::MIN;
    loop {
        let page = a.incidents_after(1, after, 3).unwrap();
        assert!(page.len() <= 3);
        let Some(last) = page.last() else { break };
        after = last.id;
        paged.extend(page.iter().map(|i| i.id));
    }
    assert_eq!(paged, whole);
    assert!(a.incidents_after(2, i64::MIN, 3).unwrap().is_empty());
}
