//! Snapshots of whole records for hand-written captions in the common wire styles
//! (the shared seed data is not copied here; its check is `gold.rs`).

use cairn_extract::Extractor;

fn record(text: &str) -> serde_json::Value {
    serde_json::to_value(Extractor::bundled().extract(text)).unwrap()
}

#[test]
fn reuters_style_with_dateline_and_casualties() {
    insta::assert_json_snapshot!(record(
        "Rescue workers search for survivors after what activists said were airstrikes on the rebel-held town of Saraqib in Idlib province, Syria, March 3, 2017. At least 12 people were killed and dozens wounded, according to civil defence workers. REUTERS/Ammar Abdullah"
    ));
}

#[test]
fn ap_style_with_weekday_and_publication_date() {
    insta::assert_json_snapshot!(record(
        "A woman walks past a damaged building in Mosul, Iraq, Wednesday, July 5, 2017. (AP Photo/Jane Roe)"
    ));
}

#[test]
fn getty_distribution_and_unknown_village() {
    insta::assert_json_snapshot!(record(
        "Displaced children play in Qaryat Zzyx village, south of Aleppo city, Syria on 6 November 2016. (Photo by John Doe/AFP/Getty Images)"
    ));
}
