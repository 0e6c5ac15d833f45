//! People's corrections: each save an append-only revision, the record read, searched
//! and exported is the extraction with the corrections over it, a save against an old
//! version is refused, the history's hash chain holds and shows tampering, and the
//! corrections outlive a reindex and a new extraction.

mod common;

use cairn_model::Record;
use cairn_store::{Archive, ArchiveWriter, Edit, Filters, NewSource, Saved, SearchRequest};
use serde_json::json;

fn source(n: u8, text: &str, record: Record) -> NewSource {
    common::one_caption(n, text, record)
}

const TEXT: &str = "A ferry leaves the harbour at dawn with families on deck.";

/// An archive of one caption whose extracted record names the wrong person.
fn archive() -> (tempfile::TempDir, ArchiveWriter) {
    let dir = tempfile::tempdir().unwrap();
    let mut w = Archive::open_writer(dir.path()).unwrap();
    let record = Record {
        text: TEXT.into(),
        persons: vec!["Wrong Person".into()],
        lang: Some("en".into()),
        ..Record::default()
    };
    w.write_batch(&[source(1, TEXT, record)]).unwrap();
    w.sync_index().unwrap();
    (dir, w)
}

fn edit(fields: &[(&str, serde_json::Value)], verified: Option<bool>, note: &str) -> Edit {
    Edit {
        fields: fields
            .iter()
            .map(|(f, v)| (f.to_string(), v.clone()))
            .collect(),
        verified,
        disputed: None,
        note: Some(note.into()),
    }
}

fn persons_found(a: &Archive, q: &str) -> u64 {
    let req = SearchRequest {
        query: q.into(),
        filters: Filters::default(),
        limit: 10,
        ..SearchRequest::default()
    };
    a.search(&req).unwrap().total
}

fn agency_count(a: &Archive, agency: &str) -> u64 {
    let req = SearchRequest {
        query: String::new(),
        filters: Filters {
            agency: vec![agency.into()],
            ..Filters::default()
        },
        limit: 10,
        ..SearchRequest::default()
    };
    a.search(&req).unwrap().total
}

#[test]
fn a_correction_is_a_revision_and_the_record_read_is_corrected() {
    let (_dir, mut w) = archive();
    let id = 1;
    let saved = w
        .save_edit(
            id,
            &edit(
                &[
                    ("persons", json!(["Right Person"])),
                    (
                        "credit",
                        json!({"agency": "Harbour Wire", "photographers": []}),
                    ),
                ],
                Some(true),
                "named in the wire's own caption",
            ),
            "ana",
            0,
        )
        .unwrap();
    let Saved::Done(review) = saved else {
        panic!("a save against the current version is stored: {saved:?}")
    };
    assert_eq!(review.version, 1);
    assert!(review.verified);
    assert_eq!(review.corrected, vec!["credit", "persons"]);

    let a = w.reader();
    let c = a.caption(id).unwrap().unwrap();
    let r = c.record.unwrap();
    assert_eq!(r.persons, vec!["Right Person".to_string()]);
    assert_eq!(r.credit.unwrap().agency.as_deref(), Some("Harbour Wire"));
    assert_eq!(
        r.text, TEXT,
        "the text is the evidence and is never corrected"
    );
    assert!(c.review.verified);

    // Searched and faceted as corrected.
    assert_eq!(agency_count(&a, "Harbour Wire"), 1);

    // Exported as corrected, with the marks.
    let mut exported = Vec::new();
    a.export::<cairn_store::Error>(&SearchRequest::default(), |e| {
        exported.push(e.clone());
        Ok(())
    })
    .unwrap();
    assert_eq!(exported.len(), 1);
    assert_eq!(
        exported[0].record.as_ref().unwrap().persons,
        vec!["Right Person".to_string()]
    );
    assert!(exported[0].review.verified);

    // Each changed field is a revision of its own, with who, the old value and why.
    let h = a.history(id).unwrap();
    let fields: Vec<&str> = h.iter().map(|r| r.field.as_str()).collect();
    assert_eq!(fields, ["persons", "credit", "verified"]);
    assert_eq!(h[0].old_value, json!(["Wrong Person"]));
    assert_eq!(h[0].new_value, json!(["Right Person"]));
    assert!(h.iter().all(|r| r.user == "ana" && r.version == 1));
    assert_eq!(
        h[0].note.as_deref(),
        Some("named in the wire's own caption")
    );

    // A second save appends; the first revisions stay as they were.
    w.save_edit(
        id,
        &edit(&[("persons", json!([]))], None, "not named after all"),
        "ben",
        1,
    )
    .unwrap();
    let h2 = w.reader().history(id).unwrap();
    assert_eq!(h2.len(), 4);
    assert_eq!(&h2[..3], &h[..]);
    assert_eq!(h2[3].old_value, json!(["Right Person"]));
    assert_eq!(w.reader().audit(Some("ben"), None).unwrap().len(), 1);
    assert_eq!(w.reader().audit(None, Some("2999-01-01")).unwrap().len(), 0);
    assert_eq!(w.reader().audit(None, Some("2000-01-01")).unwrap().len(), 4);
}

#[test]
fn a_save_against_an_old_version_is_refused_with_the_current_state() {
    let (_dir, mut w) = archive();
    let first = edit(&[("persons", json!(["First Editor"]))], None, "one");
    let second = edit(&[("persons", json!(["Second Editor"]))], None, "two");
    assert!(matches!(
        w.save_edit(1, &first, "ana", 0).unwrap(),
        Saved::Done(_)
    ));
    match w.save_edit(1, &second, "ben", 0).unwrap() {
        Saved::Stale(current) => assert_eq!(current.version, 1),
        other => panic!("a stale save must be refused: {other:?}"),
    }
    let r = w.reader().caption(1).unwrap().unwrap().record.unwrap();
    assert_eq!(r.persons, vec!["First Editor".to_string()]);
    assert_eq!(w.reader().history(1).unwrap().len(), 1);
}

#[test]
fn values_that_are_not_the_record_s_and_unknown_fields_are_refused_by_name() {
    let (_dir, mut w) = archive();
    let e = w
        .save_edit(1, &edit(&[("persons", json!(7))], None, ""), "ana", 0)
        .unwrap_err();
    assert!(e.to_string().contains("persons"), "{e}");
    let e = w
        .save_edit(
            1,
            &edit(&[("text", json!("new words"))], None, ""),
            "ana",
            0,
        )
        .unwrap_err();
    assert!(e.to_string().contains("\"text\""), "{e}");
    assert!(matches!(
        w.save_edit(99, &edit(&[], Some(true), ""), "ana", 0),
        Err(cairn_store::Error::NoCaption(99))
    ));
    assert!(w.reader().history(1).unwrap().is_empty());
}

#[test]
fn the_history_chain_verifies_and_shows_a_changed_or_removed_revision() {
    let (dir, mut w) = archive();
    for (v, name) in ["One", "Two", "Three"].iter().enumerate() {
        let e = edit(&[("persons", json!([name]))], None, "");
        w.save_edit(1, &e, "ana", v as u64).unwrap();
    }
    let rep = w.reader().check().unwrap();
    assert!(rep.ok(), "{:?}", rep.problems);
    assert_eq!(rep.revisions_checked, 3);
    drop(w);

    let db = rusqlite::Connection::open(dir.path().join("archive.sqlite")).unwrap();
    db.execute(
        "UPDATE revision SET new_value = '[\"Someone Else\"]' WHERE id = 2",
        [],
    )
    .unwrap();
    let a = Archive::open_reader(dir.path()).unwrap();
    let (_, broken) = a.verify_history().unwrap();
    assert!(broken.unwrap().contains("revision 2"));
    assert!(!a.check().unwrap().ok());

    // Put back, then the last revision removed.
    let good = json!(["Two"]).to_string();
    db.execute("UPDATE revision SET new_value = ?1 WHERE id = 2", [&good])
        .unwrap();
    assert!(a.verify_history().unwrap().1.is_none());
    db.execute("DELETE FROM revision WHERE id = 3", []).unwrap();
    let (n, broken) = a.verify_history().unwrap();
    assert_eq!(n, 2);
    assert!(broken.unwrap().contains("removed"));
}

#[test]
fn corrections_outlive_a_reindex_and_a_new_extraction() {
    let (dir, mut w) = archive();
    let e = edit(
        &[(
            "credit",
            json!({"agency": "Harbour Wire", "photographers": []}),
        )],
        Some(true),
        "",
    );
    w.save_edit(1, &e, "ana", 0).unwrap();
    let (mut w, n) = w.reindex().unwrap();
    assert_eq!(n, 1);
    assert_eq!(agency_count(&w.reader(), "Harbour Wire"), 1);

    // The new extractor reads another person and a language; the correction stays on
    // top, and what it changed is counted per field.
    let report = w
        .reextract(|texts| {
            texts
                .iter()
                .map(|t| Record {
                    text: t.clone(),
                    persons: vec!["New Reading".into()],
                    lang: Some("en".into()),
                    ..Record::default()
                })
                .collect()
        })
        .unwrap();
    assert_eq!(report.records, 1);
    assert_eq!(report.changed, 1);
    assert_eq!(report.fields.get("persons"), Some(&1));
    assert_eq!(report.fields.get("lang"), None);
    let a = w.reader();
    let r = a.caption(1).unwrap().unwrap().record.unwrap();
    assert_eq!(r.persons, vec!["New Reading".to_string()]);
    assert_eq!(r.credit.unwrap().agency.as_deref(), Some("Harbour Wire"));
    assert_eq!(agency_count(&a, "Harbour Wire"), 1);
    assert_eq!(persons_found(&a, "ferry"), 1);
    drop(w);
    let a = Archive::open_reader(dir.path()).unwrap();
    assert!(a.caption(1).unwrap().unwrap().review.verified);
}
