//! `cairn export` on the seed archive: every format, read back by a reader of that
//! format (serde_json, the csv crate, and ExifTool for XMP sidecars).

mod common;

use std::path::Path;
use std::process::Command as Std;

use common::{cairn, seeded_archive, shared};

fn export(d: &Path, args: &[&str]) -> String {
    let out = cairn(d).arg("export").args(args).output().unwrap();
    assert!(
        out.status.success(),
        "export failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn records(d: &Path, args: &[&str]) -> Vec<serde_json::Value> {
    let mut a = vec!["--format", "jsonl"];
    a.extend_from_slice(args);
    export(d, &a)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn jsonl_geojson_and_csv_agree_with_search() {
    let Some(shared) = shared() else { return };
    let d = seeded_archive(&shared);
    let d = d.path();
    let all = records(d, &[]);
    assert_eq!(all.len(), 17);
    assert!(
        all.iter()
            .all(|r| !r["sources"].as_array().unwrap().is_empty())
    );
    assert_eq!(records(d, &["--agency", "AFP"]).len(), 6);
    assert_eq!(records(d, &["Douma", "--agency", "Reuters"]).len(), 2);

    let located: Vec<&serde_json::Value> = all
        .iter()
        .filter(|r| !r["record"]["location"].is_null())
        .collect();
    let g: serde_json::Value = serde_json::from_str(&export(d, &["--format", "geojson"])).unwrap();
    assert_eq!(g["type"], "FeatureCollection");
    let features = g["features"].as_array().unwrap();
    assert_eq!(
        features.len(),
        located.len(),
        "one feature per located caption"
    );
    for f in features {
        let id = f["properties"]["id"].as_i64().unwrap();
        let r = all.iter().find(|r| r["id"].as_i64() == Some(id)).unwrap();
        let loc = &r["record"]["location"];
        assert_eq!(f["geometry"]["type"], "Point");
        assert_eq!(
            f["geometry"]["coordinates"][0], loc["lon"],
            "GeoJSON is lon, lat"
        );
        assert_eq!(f["geometry"]["coordinates"][1], loc["lat"]);
    }

    let csv_text = export(d, &["--format", "csv"]);
    let mut rd = csv::Reader::from_reader(csv_text.as_bytes());
    let headers: Vec<String> = rd.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(headers[0], "id");
    assert_eq!(headers[1], "text");
    let rows: Vec<csv::StringRecord> = rd.records().map(|r| r.unwrap()).collect();
    assert_eq!(rows.len(), 17, "one row per caption");
    let col = |name: &str| headers.iter().position(|h| h == name).unwrap();
    let harasta = rows
        .iter()
        .find(|r| r[col("text")].contains("kindergarten"))
        .unwrap();
    assert_eq!(&harasta[col("agency")], "AFP");
    assert_eq!(&harasta[col("killed")], "4");
    assert_eq!(&harasta[col("injured")], "19");
    assert_eq!(&harasta[col("date")], "2016-11-06");
    assert_eq!(&harasta[col("occurrences")], "3");
}

#[test]
fn acled_csv_has_acleds_columns_and_codes() {
    let Some(shared) = shared() else { return };
    let d = seeded_archive(&shared);
    let d = d.path();
    let text = export(d, &["--format", "acled-csv", "--country", "SY"]);
    let mut rd = csv::Reader::from_reader(text.as_bytes());
    let headers: Vec<&str> = rd.headers().unwrap().iter().collect::<Vec<_>>().clone();
    assert_eq!(
        headers,
        [
            "event_date",
            "time_precision",
            "event_type",
            "sub_event_type",
            "actor1",
            "location",
            "admin1",
            "country",
            "latitude",
            "longitude",
            "geo_precision",
            "source",
            "notes",
            "fatalities"
        ]
    );
    let rows: Vec<csv::StringRecord> = rd.records().map(|r| r.unwrap()).collect();
    // A row for each caption that tells an event, and none for the others.
    let lines = export(d, &["--format", "jsonl", "--country", "SY"]);
    let records: Vec<serde_json::Value> = lines
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let events = records
        .iter()
        .filter(|c| {
            c["record"]["event_types"]
                .as_array()
                .is_some_and(|e| !e.is_empty())
        })
        .count();
    assert_eq!(rows.len(), events);
    assert!(
        events > 0 && events < records.len(),
        "{events} of {}",
        records.len()
    );
    // An unknown toll is an empty cell, never 0.
    for (r, c) in rows.iter().zip(records.iter().filter(|c| {
        c["record"]["event_types"]
            .as_array()
            .is_some_and(|e| !e.is_empty())
    })) {
        let killed = &c["record"]["casualties"]["killed"];
        if killed.is_null() {
            assert_eq!(&r[13], "", "{:?}", &r[12]);
        } else {
            assert_eq!(r[13], killed["low"].to_string(), "{:?}", &r[12]);
        }
    }
    let harasta = rows
        .iter()
        .find(|r| r[12].contains("kindergarten"))
        .unwrap();
    assert_eq!(&harasta[0], "2016-11-06");
    assert_eq!(&harasta[1], "1", "a day-precise date");
    assert_eq!(&harasta[2], "Explosions/Remote violence");
    assert_eq!(&harasta[3], "Shelling/artillery/missile attack");
    assert_eq!(&harasta[6], "Rif Dimashq");
    assert_eq!(&harasta[7], "Syria");
    assert_eq!(&harasta[10], "1", "a town");
    assert!(harasta[11].starts_with("AFP"));
    assert!(harasta[11].contains("Syrian Observatory for Human Rights"));
    assert_eq!(&harasta[13], "4");
    for r in &rows {
        assert!(
            ["1", "2", "3"].contains(&&r[10]),
            "geo_precision {:?}",
            &r[10]
        );
        let lat: f64 = r[8].parse().unwrap();
        assert!((32.0..38.0).contains(&lat));
    }
}

/// ExifTool, or `None` with a message outside CI (CI installs it).
fn exiftool() -> Option<()> {
    if Std::new("exiftool").arg("-ver").output().is_ok() {
        return Some(());
    }
    if std::env::var("CI").as_deref() == Ok("true") {
        panic!("exiftool not found (Debian: libimage-exiftool-perl)");
    }
    eprintln!("skipping: exiftool not found");
    None
}

#[test]
fn xmp_sidecars_read_back_through_exiftool() {
    let Some(shared) = shared() else { return };
    let Some(()) = exiftool() else { return };
    let d = seeded_archive(&shared);
    let out = tempfile::tempdir().unwrap();
    let o = cairn(d.path())
        .args(["export", "--format", "xmp", "--out"])
        .arg(out.path())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let all = records(d.path(), &[]);
    let files: Vec<_> = std::fs::read_dir(out.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(
        files.len(),
        17,
        "one sidecar per caption, no temporary files left"
    );
    for r in &all {
        let id = r["id"].as_i64().unwrap();
        let path = out.path().join(format!("cairn-{id}.xmp"));
        // -j: JSON, -n: numbers as numbers (GPS in signed degrees), -G1: group names.
        let o = Std::new("exiftool")
            .args(["-j", "-n", "-G1"])
            .arg(&path)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        let x = &v[0];
        assert!(
            x["ExifTool:Error"].is_null() && x["ExifTool:Warning"].is_null(),
            "{x}"
        );
        assert_eq!(x["XMP-dc:Description"], r["text"], "caption {id}");
        let rec = &r["record"];
        if let Some(agency) = rec["credit"]["agency"].as_str() {
            assert_eq!(x["XMP-photoshop:Credit"], agency);
        }
        let photographers = rec["credit"]["photographers"].as_array();
        match photographers.map(|p| p.len()) {
            Some(1) => assert_eq!(x["XMP-dc:Creator"], photographers.unwrap()[0]),
            Some(n) if n > 1 => assert_eq!(&x["XMP-dc:Creator"], &rec["credit"]["photographers"]),
            _ => assert!(x["XMP-dc:Creator"].is_null()),
        }
        if let Some(date) = rec["date"]["value"].as_str() {
            // ExifTool shows XMP dates with colons.
            assert_eq!(
                x["XMP-photoshop:DateCreated"]
                    .as_str()
                    .unwrap()
                    .replace(':', "-"),
                date
            );
        }
        let loc = &rec["location"];
        if !loc.is_null() {
            let lat = x["XMP-iptcExt:LocationShownGPSLatitude"].as_f64().unwrap();
            let lon = x["XMP-iptcExt:LocationShownGPSLongitude"].as_f64().unwrap();
            assert!(
                (lat - loc["lat"].as_f64().unwrap()).abs() < 1e-5,
                "{lat} vs {loc}"
            );
            assert!((lon - loc["lon"].as_f64().unwrap()).abs() < 1e-5);
            assert_eq!(x["XMP-iptcExt:LocationShownCountryCode"], loc["country"]);
        }
    }
}

#[test]
fn bad_format_and_xmp_without_directory_are_clear_errors() {
    let d = tempfile::tempdir().unwrap();
    cairn(d.path())
        .args(["ingest", "-"])
        .write_stdin("A man in Homs, Syria, May 1, 2015. (Photo by A B/AFP)\n")
        .assert()
        .success();
    let o = cairn(d.path())
        .args(["export", "--format", "pdf"])
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("unknown export format \"pdf\""));
    let o = cairn(d.path())
        .args(["export", "--format", "xmp"])
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("--out"));
    // A file export lands whole under its name.
    let f = d.path().join("out.geojson");
    cairn(d.path())
        .args(["export", "--format", "geojson", "--out"])
        .arg(&f)
        .assert()
        .success();
    let g: serde_json::Value = serde_json::from_slice(&std::fs::read(&f).unwrap()).unwrap();
    assert_eq!(g["features"].as_array().unwrap().len(), 1);
    assert!(!d.path().join(".out.geojson.partial").exists());
}
