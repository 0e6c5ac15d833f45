//! Inputs that fuzzing found failing, replayed through the same checks as their fuzz
//! targets (fuzz/fuzz_targets/*.rs) once fixed: fuzz/regressions/TARGET/*.

use std::path::Path;

fn inputs(target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/regressions")
        .join(target);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    entries
        .map(|e| e.unwrap().path())
        .map(|p| (p.display().to_string(), std::fs::read(&p).unwrap()))
        .collect()
}

#[test]
fn query_regressions_give_results_or_query_errors() {
    let d = tempfile::tempdir().unwrap();
    let archive = cairn_store::Archive::open_writer(d.path()).unwrap();
    let cases = inputs("query");
    assert!(!cases.is_empty(), "the regression corpus is missing");
    for (name, data) in cases {
        let text = String::from_utf8_lossy(&data);
        let mut parts = text.splitn(2, '\u{0}');
        let query = parts.next().unwrap_or("").to_string();
        let date = parts.next().unwrap_or("").to_string();
        let req = cairn_store::SearchRequest {
            query,
            filters: cairn_store::Filters {
                from: (!date.is_empty()).then(|| date.clone()),
                to: (!date.is_empty()).then_some(date),
                ..Default::default()
            },
            limit: 5,
            facets: true,
            histogram: true,
            geo_zoom: Some(3),
            ..Default::default()
        };
        match archive.search(&req) {
            Ok(_) | Err(cairn_store::Error::Query(_)) => {}
            Err(e) => panic!("{name}: not a query error: {e}"),
        }
    }
}

#[test]
fn reader_regressions_do_not_panic() {
    for target in [
        "html", "warc", "image", "render", "extract", "segment", "decode",
    ] {
        for (_name, data) in inputs(target) {
            let _ = cairn_ingest::html::render(&String::from_utf8_lossy(&data));
            cairn_ingest::warc::read_warc(std::io::Cursor::new(&data[..]), false, &mut |_| true);
            cairn_ingest::warc::read_warc(std::io::Cursor::new(&data[..]), true, &mut |_| true);
            let _ = cairn_ingest::image::parse_iim(&data);
            let _ = cairn_ingest::image::parse_xmp(&data);
            let text = String::from_utf8_lossy(&data);
            let _ = cairn_extract::segment(&text);
            let _ = cairn_extract::Extractor::bundled().extract(&text);
        }
    }
}

#[test]
fn gazetteer_regressions_are_read_as_the_target_reads_them() {
    let cases = inputs("gazetteer");
    assert!(!cases.is_empty(), "the regression corpus is missing");
    for (name, data) in cases {
        let mut out = Vec::new();
        let Ok(report) = cairn_gazetteer::import::convert_table(&data[..], &mut out) else {
            continue;
        };
        assert!(
            report.kept + report.duplicates + report.skipped <= report.rows,
            "{name}"
        );
        let text = String::from_utf8(zstd::stream::decode_all(&out[..]).unwrap()).unwrap();
        assert_eq!(text.lines().count() as u64, report.kept, "{name}");
        assert!(text.lines().all(|l| l.split('\t').count() == 9), "{name}");
    }
}

#[test]
fn decode_regressions_decode_again_to_the_same_text() {
    for (name, data) in inputs("decode").into_iter().chain(inputs("render")) {
        let d = cairn_ingest::decode_text(&data);
        assert_eq!(
            cairn_ingest::decode_as(&data, d.encoding).text,
            d.text,
            "{name}"
        );
    }
}

/// libFuzzer refuses a whole dictionary for one entry holding a byte that is neither
/// printable ASCII nor space: non-ASCII letters must be written as `\xNN` escapes.
#[test]
fn fuzz_dictionaries_hold_only_what_libfuzzer_parses() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/dicts");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read(&path).unwrap();
        for (n, line) in text.split(|&b| b == b'\n').enumerate() {
            let bad = line
                .iter()
                .any(|&b| !(b.is_ascii_graphic() || b == b' ' || b == b'\t' || b == b'\r'));
            assert!(
                !bad,
                "{}:{}: a byte libFuzzer refuses",
                path.display(),
                n + 1
            );
        }
        seen += 1;
    }
    assert!(seen > 0, "no dictionaries in {}", dir.display());
}
