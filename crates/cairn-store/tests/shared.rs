//! An archive several processes share: a rebuild of the search index never shows
//! readers an empty one, writers take turns, and `check` tells a lagging index (an
//! ingest under way, or stopped) from a broken one.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use cairn_model::{Record, SourceKind, Span};
use cairn_store::{Archive, Error, NewOccurrence, NewSource, SearchRequest};

/// A source of `n` captions of its own (keys from `first`).
fn page(uri: &str, first: u32, n: u32) -> NewSource {
    let texts: Vec<String> = (first..first + n)
        .map(|i| format!("Shelling hit district {i} of the old town on Tuesday."))
        .collect();
    let joined = texts.join("\n\n");
    let bytes = joined.as_bytes().to_vec();
    let mut at = 0;
    let occurrences = texts
        .iter()
        .zip(first..)
        .map(|(t, i)| {
            let span = Span::new(at, at + t.len());
            at += t.len() + 2;
            let mut key = [0u8; 16];
            key[..4].copy_from_slice(&i.to_le_bytes());
            NewOccurrence {
                span,
                text: t.clone(),
                key,
                record: Some(Record {
                    text: t.clone(),
                    ..Record::default()
                }),
                packed: None,
            }
        })
        .collect();
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
        occurrences,
    }
}

fn total(a: &Archive, q: &str) -> u64 {
    a.search(&SearchRequest {
        query: q.into(),
        limit: 1,
        ..Default::default()
    })
    .unwrap()
    .total
}

/// Searches in another thread (a reader opened before, as a server holds one, and new
/// readers opened during it) see every caption while the index is rebuilt, again and
/// again: the old index until the new one is swapped in whole, then the new one.
#[test]
fn searches_never_see_an_empty_index_during_reindex() {
    let dir = tempfile::tempdir().unwrap();
    let mut w = Archive::open_writer(dir.path()).unwrap();
    for b in 0..4 {
        w.write_batch(&[page(&format!("u:{b}"), b * 500, 500)])
            .unwrap();
    }
    let want: u64 = 2000;
    let held = Arc::new(Archive::open_reader(dir.path()).unwrap());
    assert_eq!(total(&held, "shelling"), want);
    let stop = Arc::new(AtomicBool::new(false));
    let searcher = {
        let (held, stop, path) = (held.clone(), stop.clone(), dir.path().to_path_buf());
        std::thread::spawn(move || {
            let mut seen = Vec::new();
            let mut n = 0;
            while !stop.load(Ordering::Relaxed) {
                seen.push(total(&held, "shelling"));
                if n % 4 == 0 {
                    let fresh = Archive::open_reader(&path).unwrap();
                    seen.push(total(&fresh, "shelling"));
                }
                n += 1;
            }
            seen
        })
    };
    for _ in 0..5 {
        let (next, n) = w.reindex().unwrap();
        w = next;
        assert_eq!(n, want);
        std::thread::sleep(Duration::from_millis(300));
    }
    stop.store(true, Ordering::Relaxed);
    let seen = searcher.join().unwrap();
    assert!(seen.len() > 10, "too few searches: {}", seen.len());
    let wrong: Vec<_> = seen.iter().filter(|&&t| t != want).collect();
    assert!(
        wrong.is_empty(),
        "{} of {} searches saw {wrong:?}",
        wrong.len(),
        seen.len()
    );
    // Nothing is left beside the index, and the writer goes on writing to the new one.
    assert!(!dir.path().join("index.new").exists());
    w.write_batch(&[page("u:late", 9000, 3)]).unwrap();
    assert_eq!(total(&w, "shelling"), want + 3);
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(
        total(&held, "shelling"),
        want + 3,
        "the held reader moved on"
    );
    assert!(w.check().unwrap().ok());
}

/// A reader the writer hands out reads on another thread while the writer goes on
/// writing, sees each batch once committed, and outlives the writer (whose lock goes
/// with it).
#[test]
fn a_writers_reader_reads_beside_it_and_outlives_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut w = Archive::open_writer(dir.path()).unwrap();
    let first = page("u:0", 0, 10);
    w.write_batch(std::slice::from_ref(&first)).unwrap();
    let r = w.reader();
    let reading = {
        let r = r.clone();
        std::thread::spawn(move || (0..20).map(|_| total(&r, "shelling")).collect::<Vec<_>>())
    };
    let second = page("u:1", 10, 5);
    w.write_batch(std::slice::from_ref(&second)).unwrap();
    let seen = reading.join().unwrap();
    assert!(seen.iter().all(|&t| t == 10 || t == 15), "{seen:?}");
    assert_eq!(total(&r, "shelling"), 15);
    assert!(r.has_source(&second.uri, &second.sha256).unwrap());
    drop(w);
    let mut again = Archive::open_writer(dir.path()).unwrap();
    again.write_batch(&[page("u:2", 15, 1)]).unwrap();
    assert_eq!(r.stats().unwrap().sources, 3);
    assert!(r.has_source(&first.uri, &first.sha256).unwrap());
}

/// A second writer is refused at once, or waits its turn; readers need no lock.
#[test]
fn writers_take_turns() {
    let dir = tempfile::tempdir().unwrap();
    let mut w = Archive::open_writer(dir.path()).unwrap();
    w.write_batch(&[page("u:0", 0, 2)]).unwrap();
    let e = Archive::open_writer(dir.path()).unwrap_err();
    assert!(matches!(e, Error::Busy(_)), "{e}");
    assert!(e.to_string().contains("--wait"), "{e}");
    let waiter = {
        let path = dir.path().to_path_buf();
        std::thread::spawn(move || {
            let mut w2 = Archive::open_writer_waiting(&path, Duration::from_secs(30))?;
            w2.write_batch(&[page("u:1", 100, 2)])?;
            Ok::<_, Error>(())
        })
    };
    assert_eq!(
        total(&Archive::open_reader(dir.path()).unwrap(), "shelling"),
        2
    );
    std::thread::sleep(Duration::from_millis(300));
    drop(w);
    waiter.join().unwrap().unwrap();
    assert_eq!(
        total(&Archive::open_reader(dir.path()).unwrap(), "shelling"),
        4
    );
}

/// Batches stored but not yet in the index (an ingest that commits the index every few
/// seconds, stopped before its next commit) are a lag, not a problem; the next writer
/// catches up.
#[test]
fn check_tells_a_lagging_index_from_a_broken_one() {
    let dir = tempfile::tempdir().unwrap();
    {
        let mut w = Archive::open_writer(dir.path()).unwrap();
        w.write_batch(&[page("u:0", 0, 3)]).unwrap();
        w.set_index_interval(Duration::from_secs(3600));
        w.write_batch(&[page("u:1", 10, 4)]).unwrap();
        // Dropped without a final sync, as a killed ingest.
    }
    let r = Archive::open_reader(dir.path()).unwrap();
    let rep = r.check().unwrap();
    assert!(rep.ok(), "{:?}", rep.problems);
    assert_eq!((rep.captions, rep.indexed, rep.index_behind), (7, 3, 4));
    assert!(rep.notes[0].contains("behind"), "{:?}", rep.notes);
    drop(Archive::open_writer(dir.path()).unwrap());
    let rep = r.check().unwrap();
    assert!(
        rep.ok() && rep.index_behind == 0 && rep.notes.is_empty(),
        "{rep:?}"
    );
    assert_eq!(rep.indexed, 7);
}
