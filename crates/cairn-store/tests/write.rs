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

/// The end of an ingest merges the index while the bulk indexes are built: afterwards the
/// index is one segment with every caption, and the database has its indexes back.
#[test]
fn an_ingest_ends_with_its_index_merged_and_its_indexes_built() {
    let dir = tempfile::tempdir().unwrap();
    let mut a = Archive::open_writer(dir.path()).unwrap();
    a.begin_bulk().unwrap();
    // A commit, so a segment, per batch (too few for the background merges to join).
    for i in 0..3u8 {
        let text = format!("Caption number {i} of an ingest.");
        a.write_batch(&[source(&format!("u:{i}"), &text, i, true)])
            .unwrap();
    }
    assert!(a.finish_ingest(true, Some(1)).unwrap());
    // Nothing is left to merge.
    assert!(!a.compact_index(1).unwrap());
    assert_eq!(search(&a, "ingest").total, 3);
    let stats = a.stats().unwrap();
    assert_eq!((stats.sources, stats.indexed), (3, 3));
    let check = a.check().unwrap();
    assert!(check.ok(), "{:?}", check.problems);
    // The indexes the bulk write dropped are back.
    let db = rusqlite::Connection::open(dir.path().join("archive.sqlite")).unwrap();
    let indexes: Vec<String> = db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'index' ORDER BY name")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    for name in ["blob_sha256", "occurrence_variant", "variant_key"] {
        assert!(indexes.iter().any(|i| i == name), "{name} in {indexes:?}");
    }
    drop(db);
    // Without a merge asked for, or a bulk write to end, it only commits the index.
    a.write_batch(&[source("u:9", "One more caption.", 9, true)])
        .unwrap();
    assert!(!a.finish_ingest(false, None).unwrap());
    assert_eq!(search(&a, "more").total, 1);
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

/// A source of `n` captions, `n` distinct texts (one repeated every fifth caption).
fn many(uri: &str, n: usize) -> NewSource {
    let texts: Vec<String> = (0..n)
        .map(|i| match i % 5 {
            4 => "The caption every fifth one repeats.".to_string(),
            _ => format!("Caption number {i} of a long file."),
        })
        .collect();
    let text = texts.join("\n\n");
    let mut s = source(uri, &text, 0, true);
    let mut start = 0;
    s.occurrences = texts
        .iter()
        .map(|t| {
            let span = Span::new(start, start + t.len());
            start += t.len() + 2;
            NewOccurrence {
                span,
                text: t.clone(),
                key: key_of(t),
                record: Some(record(t)),
                packed: None,
            }
        })
        .collect();
    s
}

/// A stand-in exact key: the text's sha256, cut to 16 bytes.
fn key_of(text: &str) -> [u8; 16] {
    let d = <sha2::Sha256 as sha2::Digest>::digest(text.as_bytes());
    d[..16].try_into().unwrap()
}

/// Everything a reader sees of an archive's one source and its captions.
fn contents(a: &Archive) -> (String, Vec<(u64, String, Span)>, u64) {
    let s = a.source(1).unwrap().unwrap();
    let captions = s
        .captions
        .iter()
        .map(|(ordinal, caption, span)| {
            (*ordinal, a.caption(*caption).unwrap().unwrap().text, *span)
        })
        .collect();
    (s.sha256, captions, search(a, "caption").total)
}

#[test]
fn a_source_written_in_parts_reads_back_as_one_written_whole() {
    let whole_dir = tempfile::tempdir().unwrap();
    let mut whole = Archive::open_writer(whole_dir.path()).unwrap();
    let s = many("u:long", 47);
    whole.write_batch(std::slice::from_ref(&s)).unwrap();

    let parts_dir = tempfile::tempdir().unwrap();
    let mut parts = Archive::open_writer(parts_dir.path()).unwrap();
    let mut head = s.clone();
    let mut rest = head.occurrences.split_off(10);
    let tail = rest.split_off(20);
    let mut w = parts.begin_write().unwrap();
    let mut stored = w.add_source(&head, &mut ExactOnly).unwrap().unwrap();
    w.add_occurrences(&mut stored, &rest, &mut ExactOnly)
        .unwrap();
    w.add_occurrences(&mut stored, &tail, &mut ExactOnly)
        .unwrap();
    let summary = w.commit().unwrap();
    assert_eq!(
        (
            summary.sources_added,
            summary.occurrences_added,
            summary.variants_added
        ),
        (1, 47, 39)
    );

    let (got, want) = (contents(&parts), contents(&whole));
    assert_eq!(got, want);
    assert_eq!(got.1.len(), 47);
    assert_eq!(got.2, 39);
    assert_eq!(parts.stats().unwrap(), whole.stats().unwrap());
    // Stored already: a second write of it in parts skips it.
    let mut w = parts.begin_write().unwrap();
    assert!(w.add_source(&head, &mut ExactOnly).unwrap().is_none());
    assert_eq!(w.commit().unwrap().sources_skipped, 1);
    assert_eq!(parts.stats().unwrap(), whole.stats().unwrap());
}

#[test]
fn a_write_left_between_parts_stores_nothing_and_indexes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut a = Archive::open_writer(dir.path()).unwrap();
    a.write_batch(&[source("u:1", "First picture.", 1, true)])
        .unwrap();
    let s = many("u:long", 30);
    let mut head = s.clone();
    let rest = head.occurrences.split_off(12);
    {
        // As if the run stopped after the first part (the reader failed, say).
        let mut w = a.begin_write().unwrap();
        let mut stored = w.add_source(&head, &mut ExactOnly).unwrap().unwrap();
        w.add_occurrences(&mut stored, &rest[..5], &mut ExactOnly)
            .unwrap();
        assert_eq!(w.summary().occurrences_added, 17);
    }
    let stats = a.stats().unwrap();
    assert_eq!(
        (stats.sources, stats.variants, stats.occurrences),
        (1, 1, 1)
    );
    // The next batch commits; the index has none of the dropped write's captions.
    a.write_batch(&[source("u:2", "Second picture.", 2, true)])
        .unwrap();
    assert_eq!(search(&a, "caption").total, 0);
    assert_eq!(search(&a, "picture").total, 2);
    // The same source again, whole this time: stored once, found once per text.
    a.write_batch(std::slice::from_ref(&s)).unwrap();
    assert_eq!(search(&a, "caption").total, 25);
    assert_eq!(a.stats().unwrap().occurrences, 32);
}
