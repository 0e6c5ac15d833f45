//! The annotated corpora as the accuracy test and the confidence model's training read
//! them: their files, their lines, and whether a record's location is right.

use std::path::Path;

use cairn_extract::Extractor;
use cairn_gazetteer::haversine_km;
use serde_json::Value;

/// Every annotated file of `../shared/corpora/`.
pub const FILES: &[&str] = &[
    "corpora/real_captions_dev.jsonl",
    "corpora/real_captions_dev2.jsonl",
    "corpora/real_captions_multilingual_dev.jsonl",
    "corpora/real_captions_multilingual_dev2.jsonl",
    "corpora/real_captions_multilingual_dev3.jsonl",
];

/// The gold lines of `file` under `shared`.
pub fn lines(shared: &Path, file: &str) -> Vec<Value> {
    let text = std::fs::read_to_string(shared.join(file))
        .unwrap_or_else(|e| panic!("{}: {e}", shared.join(file).display()));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{file}: {e}")))
        .collect()
}

/// The caption as the corpus README says to feed it: whitespace runs folded.
pub fn caption(gold: &Value) -> String {
    gold["text"]
        .as_str()
        .unwrap_or_default()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The distance (km) of the record's location from the gold point, if it has one.
pub fn distance_km(gold_loc: &Value, loc: &Value) -> Option<f64> {
    let (lat, lon) = (loc["lat"].as_f64()?, loc["lon"].as_f64()?);
    Some(haversine_km(
        lat,
        lon,
        gold_loc["lat"].as_f64().unwrap_or(0.0),
        gold_loc["lon"].as_f64().unwrap_or(0.0),
    ))
}

/// Whether the record's location is right as the corpus scores it: within the
/// annotator's tolerance and in the gold country. A location where the annotator saw
/// none is wrong.
pub fn location_right(gold: &Value, record: &Value) -> bool {
    let Some(want) = gold.get("location") else {
        return false;
    };
    let loc = &record["location"];
    let tolerance = want["tolerance_km"].as_f64().unwrap_or(10.0);
    loc["country"] == want["country"] && distance_km(want, loc).is_some_and(|d| d <= tolerance)
}

/// What the location confidence model is fitted and scored on: for each caption of every
/// file whose location the scene rules chose, its features, whether the location is right,
/// and its outlet. `extra` are more gold files (a team's `cairn export --format gold`),
/// by their own paths.
pub fn confidence_samples(
    ex: &Extractor,
    shared: &Path,
    extra: &[String],
) -> (Vec<Vec<f64>>, Vec<bool>, Vec<String>) {
    let (mut xs, mut ys, mut groups) = (Vec::new(), Vec::new(), Vec::new());
    // `Path::join` of an absolute path is that path: extra files are read where they are.
    for file in FILES
        .iter()
        .copied()
        .chain(extra.iter().map(String::as_str))
    {
        for gold in lines(shared, file) {
            let (record, x) = ex.extract_with_evidence(&caption(&gold));
            let Some(x) = x else { continue };
            let record = serde_json::to_value(record).expect("a record serialises");
            ys.push(location_right(&gold, &record));
            groups.push(gold["outlet"].as_str().unwrap_or("?").to_string());
            xs.push(x);
        }
    }
    (xs, ys, groups)
}
