//! People's corrections as gold lines, through the real binary: `export --format gold`
//! writes the verified and corrected captions in the corpora's annotation format, and
//! `accuracy` scores the current extractor against them or against a gold file.

mod common;

use std::path::Path;

use common::{cairn, json, stderr};
use serde_json::Value;

const PAGE: &str =
    "Divers search the harbour of Sfax, Tunisia, on June 14, 2022, after a boat capsized. \
(Photo by Hedi Ferchichi/AFP)

Pupils queue for water at a school in Gao, Mali, on February 2, 2021. \
(Photo by Awa Traore/Reuters)

Firefighters spray a burning warehouse in Odesa, Ukraine, on August 30, 2023. \
(Photo by Oleh Marchenko/AP)

Farmers harvest dates near Biskra, Algeria, on October 9, 2020. \
(Photo by Karim Belaid/EPA)
";

fn ok(out: std::process::Output) -> std::process::Output {
    assert!(out.status.success(), "{}", stderr(&out));
    out
}

fn id_of(data: &Path, query: &str) -> String {
    let r = json(cairn(data).args(["search", query, "--json"]));
    assert_eq!(r["total"], 1, "{r}");
    r["hits"][0]["id"].to_string()
}

fn correct(data: &Path, id: &str, args: &[&str]) {
    ok(cairn(data)
        .args(["correct", id, "--as", "amira"])
        .args(args)
        .output()
        .unwrap());
}

fn gold_lines(data: &Path) -> Vec<Value> {
    let out = ok(cairn(data)
        .args(["export", "--format", "gold"])
        .output()
        .unwrap());
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn corrections_are_gold_and_accuracy_finds_where_the_extractor_differs() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("arch");
    let page = dir.path().join("page.txt");
    std::fs::write(&page, PAGE).unwrap();
    ok(cairn(&data).arg("ingest").arg(&page).output().unwrap());
    ok(cairn(&data)
        .args(["users", "add", "amira", "--role", "editor"])
        .write_stdin("palm groves at noon\n")
        .output()
        .unwrap());
    let (harbour, water) = (id_of(&data, "harbour"), id_of(&data, "water"));
    let warehouse = id_of(&data, "warehouse");
    correct(
        &data,
        &harbour,
        &["--set", r#"credit.agency="Harbour Desk""#],
    );
    correct(&data, &water, &["--verified", "true"]);
    correct(&data, &warehouse, &["--set", "casualties.killed=null"]);
    correct(&data, &warehouse, &["--disputed", "true"]);

    // Neither the disputed caption nor the Biskra one nobody looked at is gold.
    let lines = gold_lines(&data);
    assert_eq!(lines.len(), 2, "{lines:?}");
    for l in &lines {
        let text = l["text"].as_str().unwrap();
        assert!(!text.contains("Odesa") && !text.contains("Biskra"), "{l}");
    }
    let harbour_line = lines
        .iter()
        .find(|l| l["text"].as_str().unwrap().contains("Sfax"))
        .unwrap();
    assert_eq!(harbour_line["agency"], "Harbour Desk");
    assert_eq!(
        harbour_line["photographers"],
        serde_json::json!(["Hedi Ferchichi"])
    );
    assert_eq!(harbour_line["distributor"], Value::Null);
    assert_eq!(harbour_line["date"], "2022-06-14");
    assert_eq!(harbour_line["location"]["country"], "TN");
    assert_eq!(harbour_line["location"]["tolerance_km"], 10.0);
    assert!(harbour_line.get("killed").is_none());
    assert!(
        harbour_line["note"]
            .as_str()
            .unwrap()
            .contains("corrected: credit.agency"),
        "{harbour_line}"
    );
    // The corpora's key order: the text first, the note last.
    let raw = ok(cairn(&data)
        .args(["export", "harbour", "--format", "gold"])
        .output()
        .unwrap());
    let raw = String::from_utf8(raw.stdout).unwrap();
    assert!(raw.starts_with("{\"text\":"), "{raw}");
    let at = |key: &str| raw.find(&format!("\"{key}\":")).unwrap();
    assert!(
        at("source") < at("date") && at("date") < at("photographers"),
        "{raw}"
    );
    assert!(
        at("agency") < at("location") && at("location") < at("note"),
        "{raw}"
    );
    let water_line = lines
        .iter()
        .find(|l| l["text"].as_str().unwrap().contains("Gao"))
        .unwrap();
    assert_eq!(water_line["agency"], "Reuters");
    assert!(water_line["note"].as_str().unwrap().contains("verified"));

    // The extractor reads AFP where a person wrote Harbour Desk; everything else agrees.
    let rep = json(cairn(&data).args(["accuracy", "--json"]));
    assert_eq!(rep["lines"], 2, "{rep}");
    assert_eq!(
        rep["fields"]["agency"],
        serde_json::json!({"scored": 2, "agree": 1}),
        "{rep}"
    );
    for field in [
        "photographers",
        "distributor",
        "date",
        "location",
        "country",
    ] {
        assert_eq!(
            rep["fields"][field],
            serde_json::json!({"scored": 2, "agree": 2}),
            "{field}: {rep}"
        );
    }
    let misses = rep["misses"].as_array().unwrap();
    assert_eq!(misses.len(), 1, "{rep}");
    assert_eq!(misses[0]["gold"], format!("caption {harbour}"));
    assert_eq!(misses[0]["field"], "agency");
    assert!(misses[0]["got"].as_str().unwrap().contains("afp"), "{rep}");
    let table = ok(cairn(&data)
        .args(["accuracy", "--misses"])
        .output()
        .unwrap());
    let table = String::from_utf8(table.stdout).unwrap();
    assert!(
        table.contains("agency") && table.contains("50.0 %"),
        "{table}"
    );
    assert!(
        table.contains(&format!("caption {harbour}: agency")),
        "{table}"
    );

    // A gold file of the team's own: the exported lines, and one a person wrote.
    let file = dir.path().join("gold.jsonl");
    let mut text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    text.push_str(
        r#"{"text": "Farmers harvest dates near Biskra, Algeria, on October 9, 2020. (Photo by Karim Belaid/EPA)", "date": "2020-10-09", "agency": "EPA", "killed": 4}"#,
    );
    std::fs::write(&file, &text).unwrap();
    let rep = json(
        cairn(&data)
            .arg("accuracy")
            .arg("--gold")
            .arg(&file)
            .arg("--json"),
    );
    assert_eq!(rep["lines"], 3, "{rep}");
    assert_eq!(
        rep["fields"]["agency"],
        serde_json::json!({"scored": 3, "agree": 2}),
        "{rep}"
    );
    assert_eq!(
        rep["fields"]["date"],
        serde_json::json!({"scored": 3, "agree": 3}),
        "{rep}"
    );
    assert_eq!(
        rep["fields"]["killed"],
        serde_json::json!({"scored": 1, "agree": 0}),
        "{rep}"
    );

    std::fs::write(&file, "{\"text\": \"fine\"}\nnot json\n").unwrap();
    let out = cairn(&data)
        .arg("accuracy")
        .arg("--gold")
        .arg(&file)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("gold.jsonl line 2"),
        "{}",
        stderr(&out)
    );
}
