//! A split keeps people's corrections with the text they were made on: the part that
//! holds the caption's shown (canonical) text takes its corrections and marks, whether
//! that part stays or is moved away.

mod common;

use cairn_model::Record;
use cairn_store::{Archive, ArchiveWriter, Edit, NewSource, Regroup, Regrouped};
use serde_json::json;

/// The shown text: the longer, more complete of the two.
const LONG: &str =
    "A ferry leaves the harbour of Tartus, Syria, at dawn with families on deck, July 8, 2017.";
const SHORT: &str = "A ferry leaves the harbour at dawn.";

fn source(n: u8, text: &str) -> NewSource {
    let record = Record {
        text: text.into(),
        persons: vec!["Wrong Person".into()],
        lang: Some("en".into()),
        ..Record::default()
    };
    common::one_caption(n, text, record)
}

fn who(user: &str) -> Regroup<'_> {
    Regroup {
        user,
        note: None,
        expected: None,
    }
}

/// One caption of two variants, the long text shown, with a person corrected and the
/// caption marked verified; the ids of the long and the short variant.
fn corrected() -> (tempfile::TempDir, ArchiveWriter, i64, i64) {
    let dir = tempfile::tempdir().unwrap();
    let mut w = Archive::open_writer(dir.path()).unwrap();
    w.write_batch(&[source(1, LONG), source(2, SHORT)]).unwrap();
    let merged = w.merge_captions(1, 2, who("ana")).unwrap();
    assert!(matches!(merged, Regrouped::Done { .. }), "{merged:?}");
    let c = w.reader().caption(1).unwrap().unwrap();
    assert_eq!(c.text, LONG, "the long text is shown");
    let id_of = |t: &str| c.variants.iter().find(|v| v.text == t).unwrap().id;
    let (long, short) = (id_of(LONG), id_of(SHORT));
    let edit = Edit {
        fields: vec![("persons".into(), json!(["Right Person"]))],
        verified: Some(true),
        disputed: None,
        note: Some("named in the agency's file".into()),
    };
    let version = c.review.version;
    w.save_edit(1, &edit, "ana", version).unwrap();
    (dir, w, long, short)
}

fn persons(w: &ArchiveWriter, caption: i64) -> Vec<String> {
    let c = w.reader().caption(caption).unwrap().unwrap();
    c.record.unwrap().persons
}

fn verified(w: &ArchiveWriter, caption: i64) -> bool {
    w.reader()
        .caption(caption)
        .unwrap()
        .unwrap()
        .review
        .verified
}

#[test]
fn corrections_move_with_the_shown_text_when_it_is_split_off() {
    let (_d, mut w, long, _) = corrected();
    let Regrouped::Done { other, .. } = w.split_caption(1, &[long], who("ben")).unwrap() else {
        panic!("the split is made");
    };
    assert_eq!(w.reader().caption(other).unwrap().unwrap().text, LONG);
    assert_eq!(persons(&w, other), ["Right Person"]);
    assert!(verified(&w, other));
    // The part left behind is the machine's reading of its own text again.
    assert_eq!(w.reader().caption(1).unwrap().unwrap().text, SHORT);
    assert_eq!(persons(&w, 1), ["Wrong Person"]);
    assert!(!verified(&w, 1));
    let history = w.reader().history(other).unwrap();
    let split = history.iter().find(|r| r.field == "split_from").unwrap();
    assert_eq!(split.new_value["corrections_from"], json!(1), "{split:?}");
}

#[test]
fn corrections_stay_when_the_shown_text_stays() {
    let (_d, mut w, _, short) = corrected();
    let Regrouped::Done { other, .. } = w.split_caption(1, &[short], who("ben")).unwrap() else {
        panic!("the split is made");
    };
    assert_eq!(w.reader().caption(1).unwrap().unwrap().text, LONG);
    assert_eq!(persons(&w, 1), ["Right Person"]);
    assert!(verified(&w, 1));
    assert_eq!(persons(&w, other), ["Wrong Person"]);
    assert!(!verified(&w, other));
}
