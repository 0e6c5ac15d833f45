//! Search filters and facets on the seed archive, through the real binary.

mod common;

use common::{cairn, json, seeded_archive, shared};

fn total(d: &std::path::Path, args: &[&str]) -> u64 {
    total_q(d, "", args)
}

fn total_q(d: &std::path::Path, query: &str, args: &[&str]) -> u64 {
    let mut c = cairn(d);
    c.args(["search", query, "--json", "--limit", "50"])
        .args(args);
    json(&mut c)["total"].as_u64().unwrap()
}

#[test]
fn seed_filters_give_exact_counts_and_facets_agree() {
    let Some(shared) = shared() else { return };
    let d = seeded_archive(&shared);
    let d = d.path();
    assert_eq!(
        total(d, &[]),
        17,
        "an empty query matches everything; total is not the page size"
    );
    assert_eq!(total(d, &["--agency", "AFP"]), 6);
    assert_eq!(
        total(d, &["--agency", "reuters"]),
        10,
        "agency matching ignores case"
    );
    assert_eq!(
        total(d, &["--agency", "AP"]),
        1,
        "the distributor counts (Komsomolskaya Pravda via AP)"
    );
    assert_eq!(total(d, &["--photographer", "Bassam Khabieh"]), 2);
    assert_eq!(total(d, &["--country", "SY"]), 17);
    assert_eq!(
        total(d, &["--from", "2016-01-01", "--to", "2016-12-31"]),
        12
    );
    assert_eq!(
        total(d, &["--from", "2016-11", "--to", "2016-11"]),
        3,
        "Harasta, Tal Samin, Bab al-Nairab"
    );
    assert_eq!(
        total(d, &["--place", "Aleppo"]),
        2,
        "Bab al-Nairab and the bakery; Bishqatin is a village outside the city"
    );
    assert_eq!(
        total(d, &["--place", "Damascus"]),
        3,
        "Umayyad Square, Jobar, Dwelaa"
    );
    assert_eq!(
        total(d, &["--place", "Rif Dimashq"]),
        4,
        "Harasta, Douma twice, Zamalka"
    );
    assert_eq!(total(d, &["--place", "Syria"]), 17);
    assert_eq!(total(d, &["--event", "Air/drone strike"]), 2);
    assert_eq!(total(d, &["--killed-min", "10"]), 1);
    assert_eq!(
        total_q(d, "Douma", &["--agency", "Reuters"]),
        2,
        "text and filters combine"
    );
    assert_eq!(total_q(d, "Douma", &["--agency", "AFP"]), 0);
    assert_eq!(
        total(d, &["--agency", "AFP", "--agency", "AP"]),
        7,
        "values of one filter are alternatives"
    );

    let r = json(cairn(d).args(["search", "", "--facets", "--json", "--limit", "1"]));
    let facets = &r["facets"];
    for (field, flag) in [
        ("agency", "--agency"),
        ("photographer", "--photographer"),
        ("country", "--country"),
        ("event_type", "--event"),
    ] {
        for f in facets[field].as_array().unwrap() {
            let value = f["value"].as_str().unwrap();
            assert_eq!(
                total(d, &[flag, value]),
                f["count"].as_u64().unwrap(),
                "facet {field}={value}"
            );
        }
    }
    for f in facets["year"].as_array().unwrap() {
        let y = f["value"].as_str().unwrap();
        assert_eq!(
            total(d, &["--from", y, "--to", y]),
            f["count"].as_u64().unwrap(),
            "year {y}"
        );
    }
}

#[test]
fn unknown_place_and_bad_date_are_clear_errors() {
    let d = tempfile::tempdir().unwrap();
    cairn(d.path())
        .args(["ingest", "-"])
        .write_stdin("A man in Homs, Syria, May 1, 2015.\n")
        .assert()
        .success();
    let o = cairn(d.path())
        .args(["search", "", "--place", "Qwxzzy"])
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("unknown place \"Qwxzzy\""));
    let o = cairn(d.path())
        .args(["search", "", "--from", "May 2016"])
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("is not a date"));
}

#[test]
fn extract_prints_one_record_per_caption_in_order() {
    let Some(shared) = shared() else { return };
    let mut c = cairn(std::path::Path::new("/nonexistent"));
    c.arg("extract");
    for f in [
        "000_9a073c031d9d8403.txt",
        "001_eceae5fe24c004c7.txt",
        "003_2ed9b36a74b38267.txt",
    ] {
        c.arg(shared.join("seeds").join(f));
    }
    let out = c.output().unwrap();
    assert!(out.status.success());
    let lines: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 24);
    assert_eq!(lines[0]["credit"]["photographers"][0], "Sameer Al-Doumy");
    assert_eq!(lines[0]["credit"]["span"], serde_json::json!([345, 381]));
    assert_eq!(lines[0]["date"]["span"], serde_json::json!([179, 195]));
    assert_eq!(lines[0]["location"]["span"], serde_json::json!([112, 119]));
    // stdin works too
    let out = cairn(std::path::Path::new("/nonexistent"))
        .arg("extract")
        .write_stdin("A boy in Aleppo, Syria, Nov. 6, 2016. REUTERS/Jane Roe\n\nSecond caption.")
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 2);
    let first: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(first["credit"]["agency"], "Reuters");
    assert_eq!(first["date"]["value"], "2016-11-06");
    assert_eq!(first["location"]["name"], "Aleppo");
}

#[test]
fn histogram_and_map_cover_every_match_once() {
    let Some(shared) = shared() else { return };
    let d = seeded_archive(&shared);
    let d = d.path();
    let r = json(cairn(d).args([
        "search",
        "",
        "--histogram",
        "--geo-zoom",
        "6",
        "--json",
        "--limit",
        "1",
    ]));
    let h = &r["histogram"];
    // The seeds run from December 2012 to November 2016: months.
    assert_eq!(h["interval"], "month");
    let buckets = h["buckets"].as_array().unwrap();
    assert_eq!(buckets.first().unwrap()["key"], "2012-12");
    assert_eq!(buckets.last().unwrap()["key"], "2016-11");
    assert_eq!(buckets.len(), 48, "empty months between are bars too");
    let dated: u64 = buckets.iter().map(|b| b["count"].as_u64().unwrap()).sum();
    assert_eq!(dated + h["undated"].as_u64().unwrap(), 17);
    // Each bar's own range as a date filter finds exactly its count.
    for b in buckets.iter().filter(|b| b["count"].as_u64().unwrap() > 0) {
        let (from, to) = (b["from"].as_str().unwrap(), b["to"].as_str().unwrap());
        assert_eq!(
            total(d, &["--from", from, "--to", to]),
            b["count"].as_u64().unwrap(),
            "bar {}",
            b["key"]
        );
    }
    // Within November 2016 the bars are days.
    let r = json(cairn(d).args([
        "search",
        "",
        "--histogram",
        "--from",
        "2016-11",
        "--to",
        "2016-11",
        "--json",
    ]));
    assert_eq!(r["histogram"]["interval"], "day");

    let geo = &r["geo"];
    assert!(geo.is_null(), "no map unless asked");
    let r = json(cairn(d).args(["search", "", "--geo-zoom", "6", "--json"]));
    let geo = &r["geo"];
    assert_eq!(geo["cell_degrees"], 0.3515625);
    let cells = geo["cells"].as_array().unwrap();
    let located: u64 = cells.iter().map(|c| c["count"].as_u64().unwrap()).sum();
    assert_eq!(located + geo["unlocated"].as_u64().unwrap(), 17);
    // A cell's extent as a bbox filter finds at least its captions (a neighbouring
    // cell's captions can fall inside the extent too, never fewer).
    for c in cells {
        let b: Vec<String> = c["bbox"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap().to_string())
            .collect();
        let n = total(d, &["--bbox", &b.join(",")]);
        assert!(n >= c["count"].as_u64().unwrap(), "cell {c}");
    }
    // Aleppo and Damascus are 300 km apart: different cells at this zoom.
    assert!(cells.len() >= 2);
}

#[test]
fn source_prefix_filter() {
    let Some(shared) = shared() else { return };
    let d = seeded_archive(&shared);
    let d = d.path();
    let seeds = std::fs::canonicalize(shared.join("seeds")).unwrap();
    let prefix = format!("file://{}/000_", seeds.display());
    let n000 = total(d, &["--source", &prefix]);
    let prefix3 = format!("file://{}/003_", seeds.display());
    let n003 = total(d, &["--source", &prefix3]);
    assert!(n000 > 0 && n003 > 0);
    assert!(n000 < 17 && n003 < 17);
    assert_eq!(
        total(d, &["--source", &format!("file://{}/", seeds.display())]),
        17
    );
    assert_eq!(total(d, &["--source", "https://nowhere.example/"]), 0);
    // Captions shown on page 000: the same number the page's own record lists.
    let page = json(cairn(d).args(["search", "", "--json", "--limit", "50"]));
    let on_000 = page["hits"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|h| {
            h["sources"]
                .as_array()
                .unwrap()
                .iter()
                .any(|s| s["uri"].as_str().unwrap().starts_with(&prefix))
        })
        .count() as u64;
    assert_eq!(n000, on_000);
}

#[test]
fn source_filter_sees_known_captions_on_new_pages() {
    // A caption first stored from one page, then found on a page of another site in a
    // later run: the source filter finds it on both, though its index entry was not
    // rewritten by the second run.
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("archive");
    let a = dir.path().join("a");
    let b = dir.path().join("b");
    std::fs::create_dir_all(&a).unwrap();
    std::fs::create_dir_all(&b).unwrap();
    let known = "Residents inspect a damaged building in Aleppo, Syria, on November 6, 2016. REUTERS/Abdalrhman Ismail";
    let other =
        "A man walks past shops in Idlib, Syria, on March 2, 2017. AFP PHOTO/Omar Haj Kadour";
    std::fs::write(a.join("page.txt"), format!("{known}\n")).unwrap();
    std::fs::write(b.join("page.txt"), format!("{other}\n\n{known}\n")).unwrap();
    for input in [&a, &b] {
        cairn(&data).arg("ingest").arg(input).assert().success();
    }
    let uri =
        |p: &std::path::Path| format!("file://{}/", std::fs::canonicalize(p).unwrap().display());
    assert_eq!(total(&data, &[]), 2);
    assert_eq!(total(&data, &["--source", &uri(&a)]), 1);
    assert_eq!(total(&data, &["--source", &uri(&b)]), 2);
    assert_eq!(total_q(&data, "Aleppo", &["--source", &uri(&b)]), 1);
    assert_eq!(total_q(&data, "Idlib", &["--source", &uri(&a)]), 0);
    assert_eq!(total(&data, &["--source", "file:///nowhere/"]), 0);
}

#[test]
fn deep_nesting_is_searched_as_plain_words_and_prefixes_match() {
    let d = tempfile::tempdir().unwrap();
    cairn(d.path())
        .args(["ingest", "-"])
        .write_stdin("Smoke rises over Aleppo, Syria, May 1, 2015.\n")
        .assert()
        .success();
    // Ten thousand nested groups once overflowed the parser's stack (exit 134); over
    // the bounds, the text is never given to the grammar but searched as plain words.
    for deep in [
        format!("{}aleppo{}", "(".repeat(10_000), ")".repeat(10_000)),
        format!("{}aleppo{}", "(".repeat(40), ")".repeat(40)),
    ] {
        let r = json(cairn(d.path()).args(["search", &deep, "--json"]));
        assert_eq!(r["total"], 1);
        let notice = r["notice"].as_str().unwrap();
        assert!(notice.starts_with("Searched as plain words"), "{notice}");
        assert!(
            notice.contains("groups") || notice.contains("deep"),
            "{notice}"
        );
    }
    // Ordinary text that is not the query language finds its captions, and says so.
    for q in ["Aleppo, Syria (May", "smoke AND", "\"Aleppo", "Aleppo)"] {
        let r = json(cairn(d.path()).args(["search", q, "--json"]));
        assert_eq!(r["total"], 1, "{q}");
        assert!(r["notice"].is_string(), "{q}");
    }
    assert!(json(cairn(d.path()).args(["search", "smoke", "--json"]))["notice"].is_null());
    assert_eq!(total_q(d.path(), "alep*", &[]), 1);
    assert_eq!(total_q(d.path(), "(((alep*)))", &[]), 1);
    assert_eq!(total_q(d.path(), "alepz*", &[]), 0);
}
