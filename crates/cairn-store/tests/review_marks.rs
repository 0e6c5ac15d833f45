//! The review marks in the search: `verified`, `disputed` and `corrected` as a filter
//! and a facet, and the review queue (`needs_review` and its reasons) that a caption
//! joins with warnings, a guessed location or a dispute, and leaves when verified; the
//! marks survive a reindex.

use cairn_model::{Confidence, Place, PlaceKind, Record, SourceKind, Span};
use cairn_store::{Archive, Edit, Filters, NewOccurrence, NewSource, SearchRequest};
use serde_json::json;

fn source(n: u8, text: &str, record: Record) -> NewSource {
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
            record: Some(record),
            packed: None,
        }],
    }
}

/// The review facet's counts of a search filtered on `marks`, and its total.
fn review(a: &Archive, marks: &[&str]) -> (u64, Vec<(String, u64)>) {
    let req = SearchRequest {
        filters: Filters {
            review: marks.iter().map(|m| m.to_string()).collect(),
            ..Filters::default()
        },
        facets: true,
        limit: 10,
        ..SearchRequest::default()
    };
    let r = a.search(&req).unwrap();
    let mut f: Vec<(String, u64)> = r
        .facets
        .unwrap()
        .review
        .into_iter()
        .map(|c| (c.value, c.count))
        .collect();
    f.sort();
    (r.total, f)
}

fn pairs(v: &[(&str, u64)]) -> Vec<(String, u64)> {
    v.iter().map(|(k, n)| (k.to_string(), *n)).collect()
}

#[test]
fn marks_filter_and_count_and_verifying_empties_the_queue() {
    let dir = tempfile::tempdir().unwrap();
    let mut w = Archive::open_writer(dir.path()).unwrap();
    let guessed = Record {
        text: "Smoke over the hills seen from Metula.".into(),
        location: Some(Place {
            name: "Metula".into(),
            text: "Metula".into(),
            lat: 33.28,
            lon: 35.58,
            kind: PlaceKind::Town,
            admin1: None,
            country: Some("IL".into()),
            gazetteer_id: None,
            span: Span::new(31, 37),
            within: vec![],
            confidence: Some(Confidence::Low),
            reason: None,
        }),
        ..Record::default()
    };
    let warned = Record {
        text: "A crowd gathers on the seventh day.".into(),
        warnings: vec!["the date names no month".into()],
        ..Record::default()
    };
    let plain = Record {
        text: "Farmers harvest olives near a wall.".into(),
        ..Record::default()
    };
    let texts = [
        guessed.text.clone(),
        warned.text.clone(),
        plain.text.clone(),
    ];
    w.write_batch(&[
        source(1, &texts[0], guessed),
        source(2, &texts[1], warned),
        source(3, &texts[2], plain),
    ])
    .unwrap();
    w.sync_index().unwrap();
    let a = w.reader();
    assert_eq!(
        review(&a, &[]),
        (
            3,
            pairs(&[("low_confidence", 1), ("needs_review", 2), ("warnings", 1)])
        )
    );

    // Caption 1 verified with its place corrected; caption 3 disputed.
    let verify = Edit {
        fields: vec![("location.confidence".into(), json!("high"))],
        verified: Some(true),
        ..Edit::default()
    };
    w.save_edit(1, &verify, "eddie", 0).unwrap();
    let dispute = Edit {
        disputed: Some(true),
        ..Edit::default()
    };
    w.save_edit(3, &dispute, "eddie", 0).unwrap();
    let a = w.reader();
    let (_, counts) = review(&a, &[]);
    assert_eq!(
        counts,
        pairs(&[
            ("corrected", 1),
            ("disputed", 1),
            ("needs_review", 2),
            ("open_dispute", 1),
            ("verified", 1),
            ("warnings", 1),
        ])
    );
    assert_eq!(review(&a, &["verified"]).0, 1);
    assert_eq!(
        review(&a, &["needs_review"]).0,
        2,
        "the warned and the disputed"
    );
    assert_eq!(review(&a, &["low_confidence"]).0, 0);
    assert_eq!(review(&a, &["open_dispute"]).0, 1);
    // Several marks of one filter: any of them.
    assert_eq!(review(&a, &["verified", "disputed"]).0, 2);

    // A reindex computes the same marks from the database.
    drop(a);
    let (w, n) = w.reindex().unwrap();
    assert_eq!(n, 3);
    assert_eq!(review(&w.reader(), &[]).1, counts);
}
