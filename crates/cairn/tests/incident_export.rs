//! `cairn export --incidents` through the real binary: three photographs of one strike
//! and a wedding the same day, linked, then exported as JSON Lines, ACLED-style CSV and
//! GeoJSON, one incident each; the ACLED row carries the toll's range and cites the
//! captions.

mod common;

use std::path::Path;

use common::{cairn, json};
use serde_json::Value;

const PAGE: &str = "\
Rescuers search the rubble of the grain market hit by an air strike in Douma, Syria, on March 7, 2018. 12 people were killed, according to the civil defence. (Photo by Rami Haddad / Example Press)

A man carries a wounded boy away from the grain market after an air strike in Douma, Syria March 7, 2018. Local medics said 15 people were killed. EXAMPLE NEWS/Nadia Saleh

Smoke rises over the grain market after an air strike in Douma, Syria, Wednesday, March 7, 2018. 14 people were killed, the monitor said. (Example Wire Photo/Omar Khoury)

A bride and groom dance at their wedding party in Douma, Syria, on March 7, 2018. (Photo by Lina Farah / Example Press)
";

/// A linked archive and its one incident, as `cairn incidents --json` gives it.
fn linked() -> (tempfile::TempDir, Value) {
    let d = tempfile::tempdir().unwrap();
    let src = tempfile::tempdir().unwrap();
    std::fs::write(src.path().join("a.txt"), PAGE).unwrap();
    cairn(d.path())
        .arg("ingest")
        .arg(src.path())
        .assert()
        .success();
    let r = json(cairn(d.path()).args(["incidents", "--rebuild", "--json"]));
    assert_eq!(r["total"], 1, "{r:#}");
    assert_eq!(r["incidents"][0]["captions"].as_array().unwrap().len(), 3);
    (d, r["incidents"][0].clone())
}

fn export(data: &Path, format: &str) -> String {
    let out = cairn(data)
        .args(["export", "--incidents", "--format", format])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn one_incident_exports_in_every_incident_format() {
    let (d, inc) = linked();
    let lines: Vec<Value> = export(d.path(), "jsonl")
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines, vec![inc.clone()], "the same object as --json");

    let csv_text = export(d.path(), "acled-csv");
    let mut rd = csv::Reader::from_reader(csv_text.as_bytes());
    let head = rd.headers().unwrap().clone();
    let rows: Vec<csv::StringRecord> = rd.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 1, "{csv_text}");
    let cell = |name: &str| rows[0][head.iter().position(|h| h == name).unwrap()].to_string();
    assert_eq!(cell("event_date"), "2018-03-07");
    assert_eq!(cell("sub_event_type"), "Air/drone strike");
    // The median claim of 12, 14 and 15; the claims contradict one another.
    assert_eq!(cell("fatalities"), "14");
    assert_eq!(cell("fatalities"), inc["killed"]["best"].to_string());
    assert_eq!(cell("fatalities_low"), "12");
    assert_eq!(cell("fatalities_high"), "15");
    assert_eq!(cell("contested"), "true");
    assert_eq!(cell("actor1"), "");
    let notes = cell("notes");
    for id in inc["captions"].as_array().unwrap() {
        assert!(notes.contains(&format!("#{id}: ")), "{notes}");
    }
    assert!(notes.contains("Smoke rises over the grain market"));
    assert!(
        !notes.contains("wedding"),
        "the distractor is no part of it"
    );
    assert!(
        cell("source").contains("Example Press"),
        "{}",
        cell("source")
    );

    let geo: Value = serde_json::from_str(&export(d.path(), "geojson")).unwrap();
    assert_eq!(geo["type"], "FeatureCollection");
    let features = geo["features"].as_array().unwrap();
    assert_eq!(features.len(), 1);
    assert_eq!(features[0]["geometry"]["type"], "Point");
    assert_eq!(features[0]["properties"]["captions"], inc["captions"]);
    let lon = features[0]["geometry"]["coordinates"][0].as_f64().unwrap();
    assert!((lon - inc["location"]["lon"].as_f64().unwrap()).abs() < 1e-9);
}

#[test]
fn an_incident_export_refuses_a_query_and_a_caption_format() {
    let d = tempfile::tempdir().unwrap();
    let q = cairn(d.path())
        .args(["export", "--incidents", "--format", "jsonl", "market"])
        .output()
        .unwrap();
    assert!(!q.status.success());
    assert!(String::from_utf8_lossy(&q.stderr).contains("no query"));
    let f = cairn(d.path())
        .args(["export", "--incidents", "--format", "csv"])
        .output()
        .unwrap();
    assert!(!f.status.success());
    assert!(String::from_utf8_lossy(&f.stderr).contains("incidents do not export as csv"));
}
