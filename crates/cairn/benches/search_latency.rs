//! Search latency over an archive: p50/p99 of typical queries (text only, filters only,
//! text + facets + histogram, everything + facets + histogram + map), through the
//! store's API as the CLI and the server call it (hits read back from SQLite), with
//! SQLite FTS5 over the same canonical texts as a baseline for the text-only queries,
//! in the same run.
//!
//! `CAIRN_BENCH_ARCHIVE=DIR` measures an existing archive (bench/search_bench.sh builds
//! one of a million captions); without it a small archive is generated first, which is
//! what CI runs as a smoke test. `CAIRN_BENCH_ROUNDS` sets the repetitions per query
//! (default 50).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use cairn_gazetteer::Gazetteer;
use cairn_store::{Archive, Filters, SearchRequest};

fn percentile(sorted: &[Duration], q: f64) -> Duration {
    let i = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len()) - 1;
    sorted[i]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

struct Class {
    name: &'static str,
    run: Vec<Box<dyn Fn() -> u64>>,
}

fn small_archive(dir: &Path) -> PathBuf {
    let bin = env!("CARGO_BIN_EXE_cairn");
    let pages = dir.join("pages");
    let data = dir.join("archive");
    let ok = |c: &mut Command| {
        let s = c.status().expect("run cairn");
        assert!(s.success(), "{c:?} failed");
    };
    ok(Command::new(bin)
        .args(["generate", "--pages", "2000"])
        .arg(&pages));
    ok(Command::new(bin)
        .arg("--data")
        .arg(&data)
        .arg("ingest")
        .arg(&pages)
        .arg("--json")
        .stdout(std::process::Stdio::null()));
    data
}

fn main() {
    let tmp = tempfile::tempdir().expect("temporary directory");
    let data = match std::env::var_os("CAIRN_BENCH_ARCHIVE") {
        Some(d) => PathBuf::from(d),
        None => small_archive(tmp.path()),
    };
    let rounds: usize = std::env::var("CAIRN_BENCH_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(50);
    let archive = std::sync::Arc::new(Archive::open_reader(&data).expect("open archive"));
    let stats = archive.stats().expect("stats");
    println!(
        "archive {}: {} captions, {} sources, {} occurrences",
        data.display(),
        stats.captions,
        stats.sources,
        stats.occurrences
    );

    // Baseline: SQLite FTS5 over the same canonical texts.
    let t = Instant::now();
    let fts = rusqlite::Connection::open(tmp.path().join("fts.sqlite")).expect("fts db");
    fts.execute_batch(
        "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;
         CREATE VIRTUAL TABLE fts USING fts5(text); BEGIN;",
    )
    .expect("fts schema");
    {
        let mut put = fts
            .prepare("INSERT INTO fts (rowid, text) VALUES (?1, ?2)")
            .expect("insert");
        archive
            .for_each_canonical(|id, text| {
                put.execute(rusqlite::params![id, text])
                    .expect("fts insert");
            })
            .expect("read captions");
    }
    fts.execute_batch("COMMIT;").expect("commit");
    println!(
        "baseline FTS5 index built in {:.1} s",
        t.elapsed().as_secs_f64()
    );
    // The baseline reads its hits back from the archive's database with the same
    // statements the store uses, so both sides do the same work after the index.
    fts.execute(
        "ATTACH DATABASE ?1 AS archive",
        [format!(
            "file:{}?mode=ro",
            Archive::db_path(&data).display()
        )],
    )
    .expect("attach the archive read-only");
    let fts = std::sync::Arc::new(std::sync::Mutex::new(fts));

    let g = Gazetteer::bundled();
    let syria = cairn_gazetteer::place_paths(&g, &["Syria".to_string()]).expect("Syria");
    let texts = [
        "Aleppo",
        "airstrikes",
        "\"car bomb\"",
        "funeral",
        "children killed",
    ];
    let req = |q: &str, filters: Filters, facets: bool, histogram: bool, zoom: Option<u8>| {
        SearchRequest {
            query: q.to_string(),
            filters,
            limit: 20,
            offset: 0,
            sort: Default::default(),
            facets,
            histogram,
            geo_zoom: zoom,
        }
    };
    let search = |r: SearchRequest| -> Box<dyn Fn() -> u64> {
        let a = archive.clone();
        Box::new(move || a.search(&r).expect("search").total)
    };
    let filter_sets: Vec<Filters> = vec![
        Filters {
            agency: vec!["Sample Wire".into()],
            ..Filters::default()
        },
        Filters {
            country: vec!["SY".into()],
            from: Some("2016-01-01".into()),
            to: Some("2016-12-31".into()),
            ..Filters::default()
        },
        Filters {
            photographer: vec!["Lina Sabbagh".into()],
            ..Filters::default()
        },
        Filters {
            place: syria.clone(),
            killed_min: Some(10),
            ..Filters::default()
        },
        Filters {
            event: vec!["Air/drone strike".into()],
            bbox: Some([35.0, 32.0, 43.0, 38.0]),
            ..Filters::default()
        },
    ];
    let classes = vec![
        Class {
            name: "text only (cairn: tantivy + SQLite)",
            run: texts
                .iter()
                .map(|q| search(req(q, Filters::default(), false, false, None)))
                .collect(),
        },
        Class {
            name: "text only (baseline: FTS5 + SQLite)",
            run: texts
                .iter()
                .map(|q| {
                    let fts = fts.clone();
                    let q = q.to_string();
                    Box::new(move || {
                        let c = fts.lock().unwrap();
                        let mut top = c
                            .prepare_cached(
                                "SELECT rowid FROM fts WHERE fts MATCH ?1 ORDER BY rank LIMIT 20",
                            )
                            .unwrap();
                        let ids: Vec<i64> = top
                            .query_map([&q], |r| r.get(0))
                            .unwrap()
                            .map(|r| r.unwrap())
                            .collect();
                        let mut hit = c
                            .prepare_cached(
                                "SELECT v.text, v.record FROM archive.caption c
                                 JOIN archive.variant v ON v.id = c.canonical_variant WHERE c.id = ?1",
                            )
                            .unwrap();
                        let mut sources = c
                            .prepare_cached(
                                "SELECT DISTINCT s.id, s.uri, s.sha256 FROM archive.variant v
                                 JOIN archive.occurrence o ON o.variant_id = v.id
                                 JOIN archive.source s ON s.id = o.source_id
                                 WHERE v.caption_id = ?1 ORDER BY s.id",
                            )
                            .unwrap();
                        let mut occurrences = c
                            .prepare_cached(
                                "SELECT count(*) FROM archive.occurrence o
                                 JOIN archive.variant v ON v.id = o.variant_id WHERE v.caption_id = ?1",
                            )
                            .unwrap();
                        for id in ids {
                            let row: (String, rusqlite::types::Value) = hit
                                .query_row([id], |r| Ok((r.get(0)?, r.get(1)?)))
                                .unwrap();
                            let s: Vec<(i64, String, String)> = sources
                                .query_map([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
                                .unwrap()
                                .map(|r| r.unwrap())
                                .collect();
                            let n: i64 = occurrences.query_row([id], |r| r.get(0)).unwrap();
                            std::hint::black_box((row, s, n));
                        }
                        c.prepare_cached("SELECT count(*) FROM fts WHERE fts MATCH ?1")
                            .unwrap()
                            .query_row([&q], |r| r.get::<_, i64>(0))
                            .unwrap() as u64
                    }) as Box<dyn Fn() -> u64>
                })
                .collect(),
        },
        Class {
            name: "filters only",
            run: filter_sets
                .iter()
                .map(|f| search(req("", f.clone(), false, false, None)))
                .collect(),
        },
        Class {
            name: "text + facets + histogram",
            run: texts
                .iter()
                .map(|q| search(req(q, Filters::default(), true, true, None)))
                .collect(),
        },
        Class {
            name: "filters + facets + histogram",
            run: filter_sets
                .iter()
                .map(|f| search(req("", f.clone(), true, true, None)))
                .collect(),
        },
        Class {
            name: "everything + facets + histogram + map",
            run: vec![search(req("", Filters::default(), true, true, Some(2)))],
        },
    ];
    // Totals agree between cairn and the baseline (the same texts, the same words).
    for (i, q) in texts.iter().enumerate() {
        let (a, b) = ((classes[0].run[i])(), (classes[1].run[i])());
        println!("query {q:<18} cairn {a:>8} matches, FTS5 {b:>8}");
    }
    println!(
        "\n{:<38} {:>7} {:>9} {:>9} {:>9}",
        "queries", "samples", "p50 ms", "p99 ms", "max ms"
    );
    for class in &classes {
        // One warm-up pass, then rounds interleaving the queries of the class.
        for f in &class.run {
            std::hint::black_box(f());
        }
        let mut times = Vec::with_capacity(rounds * class.run.len());
        for _ in 0..rounds {
            for f in &class.run {
                let t = Instant::now();
                std::hint::black_box(f());
                times.push(t.elapsed());
            }
        }
        times.sort();
        println!(
            "{:<38} {:>7} {:>9.2} {:>9.2} {:>9.2}",
            class.name,
            times.len(),
            ms(percentile(&times, 0.50)),
            ms(percentile(&times, 0.99)),
            ms(*times.last().unwrap())
        );
    }
}
