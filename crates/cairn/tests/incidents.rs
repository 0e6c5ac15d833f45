//! `cairn incidents` through the real binary: photographs of one strike by three
//! photographers on two pages become one incident whose captions are the ids search
//! gives; the same market the next day and a wedding the same day stay apart; `show`
//! names the incident; the seeds form none.

mod common;

use common::{cairn, json, seeded_archive, shared};
use serde_json::Value;

const PAGE_A: &str = "\
Rescuers search the rubble of the vegetable market hit by an air strike in Douma, Syria, on March 7, 2018. At least 12 people were killed, according to the civil defence. (Photo by Rami Haddad / Example Press)

A man carries a wounded girl away from the market after an air strike in Douma, Syria March 7, 2018. Local medics said 15 people were killed. EXAMPLE NEWS/Nadia Saleh

Rescuers search the rubble of the vegetable market after an air strike in Douma, Syria, on March 8, 2018. At least three people were killed, according to the civil defence. (Photo by Rami Haddad / Example Press)
";

const PAGE_B: &str = "\
Smoke rises over the market after an air strike in Douma, Syria, Wednesday, March 7, 2018. (Example Wire Photo/Omar Khoury)

A bride and groom dance at their wedding party in Douma, Syria, on March 7, 2018. (Photo by Lina Farah / Example Press)
";

/// The id `search --json` gives the caption that contains `words`.
fn id_of(data: &std::path::Path, words: &str) -> i64 {
    let r = json(cairn(data).args(["search", "--json", &format!("\"{words}\"")]));
    assert_eq!(r["total"], 1, "{words}: {r}");
    r["hits"][0]["id"].as_i64().unwrap()
}

#[test]
fn three_photographers_of_one_strike_form_one_explained_incident() {
    let d = tempfile::tempdir().unwrap();
    let src = tempfile::tempdir().unwrap();
    std::fs::write(src.path().join("a.txt"), PAGE_A).unwrap();
    std::fs::write(src.path().join("b.txt"), PAGE_B).unwrap();
    cairn(d.path())
        .arg("ingest")
        .arg(src.path())
        .assert()
        .success();
    let r = json(cairn(d.path()).args(["incidents", "--rebuild", "--json"]));
    assert_eq!(r["total"], 1, "{r:#}");
    let inc = &r["incidents"][0];
    let mut want = vec![
        id_of(d.path(), "wounded girl"),
        id_of(d.path(), "Smoke rises"),
        id_of(d.path(), "12 people"),
    ];
    want.sort_unstable();
    let got: Vec<i64> = inc["captions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_i64().unwrap())
        .collect();
    assert_eq!(got, want, "{inc:#}");
    assert_eq!(inc["id"], want[0]);
    assert_eq!(inc["date"]["from"], "2018-03-07");
    assert_eq!(inc["killed"]["low"], 15, "{inc:#}");
    assert_eq!(inc["killed"]["high"], 15);
    assert_eq!(inc["contested"], false);
    assert_eq!(inc["grade"], "several");
    let links = inc["links"].as_array().unwrap();
    assert!(!links.is_empty());
    for l in links {
        let reasons: Vec<&str> = l["reasons"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
            .collect();
        assert!(
            reasons.contains(&"same_day") && reasons.contains(&"same_place"),
            "{l}"
        );
    }
    let all = json(cairn(d.path()).args(["incidents", "--all", "--json"]));
    assert_eq!(all["total"], 3, "the next day and the wedding stand alone");
    let inc_id = want[0].to_string();
    let found = json(cairn(d.path()).args(["search", "--json", "--incident", &inc_id, ""]));
    let mut ids: Vec<i64> = found["hits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["id"].as_i64().unwrap())
        .collect();
    ids.sort_unstable();
    assert_eq!(ids, want, "search --incident gives the incident's captions");
    let narrowed = json(cairn(d.path()).args(["search", "--json", "--incident", &inc_id, "smoke"]));
    assert_eq!(narrowed["total"], 1);
    let none = json(cairn(d.path()).args(["search", "--json", "--incident", "999999", ""]));
    assert_eq!(none["total"], 0);
    let shown = json(cairn(d.path()).args(["show", "--json", &want[1].to_string()]));
    assert_eq!(shown["incident"]["id"], want[0]);
    let text = cairn(d.path())
        .args(["show", &want[2].to_string()])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&text.stdout).contains(&format!("incident #{}", want[0])));
}

#[test]
fn no_two_seed_captions_form_an_incident() {
    let Some(shared) = shared() else { return };
    let d = seeded_archive(&shared);
    let r = json(cairn(d.path()).args(["incidents", "--rebuild", "--json"]));
    assert_eq!(r["total"], 0, "{r:#}");
    let all = json(cairn(d.path()).args(["incidents", "--all", "--json"]));
    assert_eq!(
        all["total"], 17,
        "every seed caption is an incident of its own"
    );
}

#[test]
fn an_archive_never_linked_lists_no_incidents() {
    let d = tempfile::tempdir().unwrap();
    let src = tempfile::tempdir().unwrap();
    std::fs::write(src.path().join("a.txt"), PAGE_A).unwrap();
    cairn(d.path())
        .arg("ingest")
        .arg(src.path())
        .assert()
        .success();
    let r = json(cairn(d.path()).args(["incidents", "--json"]));
    assert_eq!(r["total"], 0);
}

#[test]
fn generate_writes_a_labelled_incident_corpus() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("corpus");
    cairn(d.path())
        .args(["generate", "--incidents", "--events", "12", "--seed", "5"])
        .arg(&out)
        .assert()
        .success();
    let captions = std::fs::read_to_string(out.join("captions.txt")).unwrap();
    let truth = std::fs::read_to_string(out.join("truth.txt")).unwrap();
    let n = captions.trim_end().split("\n\n").count();
    assert_eq!(n, truth.lines().count());
    // Each event: 2 to 5 photographs and 4 distractors, five labels in all.
    assert!((12 * 6..=12 * 9).contains(&n), "{n}");
    let labels: std::collections::BTreeSet<&str> = truth.lines().collect();
    assert_eq!(labels.len(), 12 * 5);
}
