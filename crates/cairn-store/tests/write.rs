//! Writing batches through the store's public API: records given ahead or asked for,
//! and bulk writes.

use cairn_model::{Record, SourceKind, Span};
use cairn_store::{Archive, Clusterer, ExactOnly, NewOccurrence, NewSource, SearchRequest};

fn record(text: &str) -> Record {
    Record {
        text: text.to_string(),
        ..Record::default()
    }
}

/// A one-caption source; `with_record` says whether the occurrence carries its record.
fn source(uri: &str, text: &str, key: u8, with_record: bool) -> NewSource {
    let bytes = text.as_bytes().to_vec();
    NewSource {
        uri: uri.into(),
        kind: SourceKind::Text,
        sha256: hex::encode(<sha2::Sha256 as sha2::Digest>::digest(&bytes)),
        encoding: "utf-8".into(),
        text_len: bytes.len(),
        bytes,
        packed: None,
        warnings: vec![],
        origin: None,
        occurrences: vec![NewOccurrence {
            span: Span::new(0, text.len()),
            text: text.into(),
            key: [key; 16],
            record: with_record.then(|| record(text)),
            packed: None,
        }],
    }
}

/// Exact clustering that extracts a record when asked (keeping what it was asked).
#[derive(Default)]
struct Filling {
    asked: Vec<String>,
}

impl Clusterer for Filling {
    fn assign(&mut self, _key: &[u8; 16], _text: &str) -> Option<i64> {
        None
    }
    fn created(&mut self, _caption: i64, _text: &str) {}
    fn prefer(&mut self, _caption: i64, _candidate: &str, _current: &str) -> bool {
        false
    }
    fn record(&mut self, text: &str) -> Option<Record> {
        self.asked.push(text.to_string());
        Some(record(&format!("filled: {text}")))
    }
}

fn search(a: &Archive, q: &str) -> cairn_store::SearchResults {
    a.search(&SearchRequest {
        query: q.into(),
        limit: 50,
        ..Default::default()
    })
    .unwrap()
}

#[test]
fn a_record_left_out_is_asked_for_only_when_the_text_is_new() {
    let dir = tempfile::tempdir().unwrap();
    let mut a = Archive::open_writer(dir.path()).unwrap();
    let mut c = Filling::default();
    // Stored with its record; then the same text elsewhere without one: not asked.
    a.write_batch_with(&[source("u:1", "First caption.", 1, true)], &mut c)
        .unwrap();
    a.write_batch_with(&[source("u:2", "First caption.", 1, false)], &mut c)
        .unwrap();
    assert!(c.asked.is_empty());
    // A new text without its record: the clusterer gives it.
    a.write_batch_with(&[source("u:3", "Second caption.", 2, false)], &mut c)
        .unwrap();
    assert_eq!(c.asked, ["Second caption."]);
    let stats = a.stats().unwrap();
    assert_eq!(
        (stats.sources, stats.variants, stats.occurrences),
        (3, 2, 3)
    );
    let hits = search(&a, "second");
    assert_eq!(hits.total, 1);
    let shown = a.caption(hits.hits[0].id).unwrap().unwrap();
    assert_eq!(shown.record.unwrap().text, "filled: Second caption.");
}

#[test]
fn a_new_text_without_a_record_fails_its_batch_and_stores_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut a = Archive::open_writer(dir.path()).unwrap();
    a.write_batch(&[source("u:1", "First caption.", 1, true)])
        .unwrap();
    let e = a
        .write_batch_with(
            &[
                source("u:2", "Another caption.", 3, true),
                source("u:3", "Third caption.", 2, false),
            ],
            &mut ExactOnly,
        )
        .unwrap_err();
    assert!(e.to_string().contains("u:3"), "{e}");
    let stats = a.stats().unwrap();
    assert_eq!((stats.sources, stats.variants), (1, 1));
    // The writer goes on with the next batch; the failed one's texts are not taken
    // for stored.
    a.write_batch(&[source("u:2", "Another caption.", 3, true)])
        .unwrap();
    assert_eq!(a.stats().unwrap().variants, 2);
    assert_eq!(search(&a, "another").total, 1);
}

#[test]
fn a_bulk_write_reads_back_the_same_once_ended() {
    let dir = tempfile::tempdir().unwrap();
    let mut a = Archive::open_writer(dir.path()).unwrap();
    a.begin_bulk().unwrap();
    a.set_index_interval(std::time::Duration::from_secs(3600));
    for i in 0..20u8 {
        let text = format!("Caption number {i} of a bulk write.");
        a.write_batch(&[source(&format!("u:{i}"), &text, i, true)])
            .unwrap();
        // The database answers at once; the index once committed.
        assert_eq!(a.stats().unwrap().sources, u64::from(i) + 1);
    }
    a.end_bulk().unwrap();
    a.sync_index().unwrap();
    let found = search(&a, "bulk");
    assert_eq!(found.total, 20);
    for hit in &found.hits {
        let shown = a.caption(hit.id).unwrap().unwrap();
        assert_eq!(shown.variants[0].occurrences.len(), 1);
    }
    let check = a.check().unwrap();
    assert!(check.ok(), "{:?}", check.problems);
}

/// Without the unique indexes (a bulk write), a page seen under two uris is one blob, a
/// text seen twice one variant, a failed batch leaves nothing behind in the writer's
/// maps, and the archive checks clean before and after the indexes come back.
#[test]
fn a_bulk_write_keeps_blobs_and_variants_unique() {
    let dir = tempfile::tempdir().unwrap();
    let mut a = Archive::open_writer(dir.path()).unwrap();
    a.write_batch(&[source("u:0", "Stored before the bulk write.", 9, true)])
        .unwrap();
    a.begin_bulk().unwrap();
    // The same bytes under a new uri, and again in a later batch.
    a.write_batch(&[
        source("u:1", "Stored before the bulk write.", 9, true),
        source("u:2", "A new page.", 1, true),
    ])
    .unwrap();
    a.write_batch(&[source("u:3", "A new page.", 1, true)])
        .unwrap();
    // A batch that fails after writing a new blob and variant: rolled back.
    let e = a
        .write_batch_with(
            &[
                source("u:4", "Rolled back.", 2, true),
                source("u:5", "No record.", 3, false),
            ],
            &mut ExactOnly,
        )
        .unwrap_err();
    assert!(e.to_string().contains("u:5"), "{e}");
    // Its page and text arrive again: stored once, as new.
    a.write_batch(&[source("u:4", "Rolled back.", 2, true)])
        .unwrap();
    let reader = Archive::open_reader(dir.path()).unwrap();
    let mid = reader.check().unwrap();
    assert!(mid.ok(), "during the bulk write: {:?}", mid.problems);
    a.end_bulk().unwrap();
    let stats = a.stats().unwrap();
    assert_eq!(
        (
            stats.sources,
            stats.blobs,
            stats.variants,
            stats.occurrences
        ),
        (5, 3, 3, 5)
    );
    let check = a.check().unwrap();
    assert!(check.ok(), "{:?}", check.problems);
    assert_eq!(search(&a, "rolled").total, 1);
}
