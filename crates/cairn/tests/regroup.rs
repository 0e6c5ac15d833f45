//! Duplicates by hand, through the real binary: a caption split by an editor stays
//! split after more copies of both texts are ingested, a merge holds, both are in the
//! history, and the archive checks clean.

mod common;

use std::path::Path;

use common::{cairn, json, stderr};
use serde_json::Value;

const RESCUE: &str =
    "Rescuers carry a survivor from a collapsed building in Antakya, Turkey, on February 8, 2023.";
const MARKET: &str = "Traders set out their stalls at dawn in the old market of Kano, Nigeria, on May 2, 2022. (Photo by Musa Bello/Reuters)";
const MARKET_OTHER: &str = "A trader weighs peppers for a customer in Kano, Nigeria, on May 2, 2022. (Photo by Musa Bello/Reuters)";

fn ok(out: std::process::Output) -> std::process::Output {
    assert!(out.status.success(), "{}", stderr(&out));
    out
}

fn ingest(data: &Path, dir: &Path, name: &str, captions: &[String]) {
    let file = dir.join(name);
    std::fs::write(&file, captions.join("\n\n")).unwrap();
    ok(cairn(data).arg("ingest").arg(&file).output().unwrap());
}

fn hits(data: &Path, query: &str) -> Vec<i64> {
    let r = json(cairn(data).args(["search", query, "--json"]));
    let mut ids: Vec<i64> = r["hits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["id"].as_i64().unwrap())
        .collect();
    ids.sort_unstable();
    ids
}

fn variant_texts(data: &Path, id: i64) -> Vec<String> {
    let c = json(cairn(data).args(["show", &id.to_string(), "--json"]));
    let mut t: Vec<String> = c["variants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["text"].as_str().unwrap().to_string())
        .collect();
    t.sort();
    t
}

#[test]
fn a_split_stays_split_and_a_merge_holds_across_ingests() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("arch");
    let afp = format!("{RESCUE} (Photo by Deniz Yilmaz/AFP)");
    let getty = format!("{RESCUE} (Photo by Deniz Yilmaz/AFP via Getty Images)");
    ingest(
        &data,
        dir.path(),
        "one.txt",
        &[
            afp.clone(),
            getty.clone(),
            MARKET.into(),
            MARKET_OTHER.into(),
        ],
    );
    let rescue = hits(&data, "survivor");
    assert_eq!(
        rescue.len(),
        1,
        "the two credits are one photograph's copies"
    );
    let c = json(cairn(&data).args(["show", &rescue[0].to_string(), "--json"]));
    let getty_variant = c["variants"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["text"] == getty.as_str())
        .unwrap()["id"]
        .to_string();
    ok(cairn(&data)
        .args(["users", "add", "ines", "--role", "editor"])
        .write_stdin("rubble and dust\n")
        .output()
        .unwrap());
    ok(cairn(&data)
        .args(["users", "add", "theo", "--role", "reader"])
        .write_stdin("reading quietly\n")
        .output()
        .unwrap());

    let out = cairn(&data)
        .args([
            "split",
            &rescue[0].to_string(),
            "--variants",
            &getty_variant,
            "--as",
            "theo",
        ])
        .output()
        .unwrap();
    assert!(
        !out.status.success() && stderr(&out).contains("reader"),
        "{}",
        stderr(&out)
    );
    let out = cairn(&data)
        .args([
            "split",
            &rescue[0].to_string(),
            "--variants",
            "9999",
            "--as",
            "ines",
        ])
        .output()
        .unwrap();
    assert!(
        stderr(&out).contains("variant 9999 is not one of"),
        "{}",
        stderr(&out)
    );
    ok(cairn(&data)
        .args([
            "split",
            &rescue[0].to_string(),
            "--variants",
            &getty_variant,
        ])
        .args(["--as", "ines", "--note", "two photographs of one rescue"])
        .output()
        .unwrap());
    let split = hits(&data, "survivor");
    assert_eq!(split.len(), 2);
    assert_eq!(variant_texts(&data, rescue[0]), vec![afp.clone()]);
    let other = *split.iter().find(|&&id| id != rescue[0]).unwrap();
    assert_eq!(variant_texts(&data, other), vec![getty.clone()]);

    // More copies of both texts, on a page of their own and in another order, and a
    // third copy of the photograph with yet another credit.
    let third = format!("{RESCUE} (Photo by Deniz Yilmaz/AFP/Getty Images)");
    ingest(
        &data,
        dir.path(),
        "two.txt",
        &[getty.clone(), afp.clone(), third.clone()],
    );
    let after = hits(&data, "survivor");
    assert!(
        after.len() >= 2 && after.contains(&rescue[0]) && after.contains(&other),
        "{after:?}"
    );
    assert!(variant_texts(&data, rescue[0]).contains(&afp));
    assert!(!variant_texts(&data, rescue[0]).contains(&getty));
    assert!(variant_texts(&data, other).contains(&getty));
    assert!(!variant_texts(&data, other).contains(&afp));

    // Two captions of one photograph the near-duplicate stage could not tell.
    let market = hits(&data, "kano");
    assert_eq!(market.len(), 2);
    let (keep, gone) = (market[0], market[1]);
    ok(cairn(&data)
        .args([
            "merge",
            &keep.to_string(),
            &gone.to_string(),
            "--as",
            "ines",
        ])
        .output()
        .unwrap());
    assert_eq!(hits(&data, "kano"), vec![keep]);
    ingest(
        &data,
        dir.path(),
        "three.txt",
        &[MARKET_OTHER.into(), MARKET.into()],
    );
    assert_eq!(hits(&data, "kano"), vec![keep], "the merge holds");
    assert_eq!(variant_texts(&data, keep).len(), 2);
    assert!(
        !cairn(&data)
            .args(["show", &gone.to_string()])
            .output()
            .unwrap()
            .status
            .success()
    );
    // A new caption never takes the id of the one merged away.
    ingest(&data, dir.path(), "four.txt", &["Nurses queue for vaccines in Mombasa, Kenya, on March 3, 2021. (Photo by Amina Odhiambo/AP)".into()]);
    let nurses = hits(&data, "nurses");
    assert!(nurses[0] > gone, "{nurses:?} after {gone}");

    let audit = ok(cairn(&data).args(["audit", "--json"]).output().unwrap());
    let fields: Vec<(i64, String)> = String::from_utf8(audit.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .map(|r| {
            (
                r["caption_id"].as_i64().unwrap(),
                r["field"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let want = [
        (rescue[0], "split"),
        (other, "split_from"),
        (keep, "merge"),
        (gone, "merged_into"),
    ];
    assert_eq!(fields.len(), want.len(), "{fields:?}");
    for ((c, f), (wc, wf)) in fields.iter().zip(want) {
        assert_eq!((*c, f.as_str()), (wc, wf), "{fields:?}");
    }
    let out = ok(cairn(&data).arg("check").output().unwrap());
    assert!(stderr(&out).contains("4 revisions"), "{}", stderr(&out));
}
