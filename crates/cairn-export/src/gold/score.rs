//! A record against a gold line, as the corpora's README scores it: only the keys the
//! gold line has; names folded to lower case; organisations under their aliases; a
//! location right within the annotator's tolerance and in the gold country.

use cairn_gazetteer::haversine_km;
use cairn_model::Record;
use serde::Serialize;
use serde_json::Value;

/// The fields scored, in the order they are reported.
pub const FIELDS: &[&str] = &[
    "photographers",
    "agency",
    "distributor",
    "date",
    "location",
    "country",
    "killed",
    "injured",
];

/// One field's verdict on one caption.
#[derive(Debug, Clone, Serialize)]
pub struct Verdict {
    /// The field, one of [`FIELDS`].
    pub field: &'static str,
    /// Whether the record agrees with the gold line.
    pub right: bool,
    /// What the record says.
    pub got: String,
    /// What the gold line says.
    pub want: String,
}

/// Lower case with whitespace runs folded.
fn folded(s: &str) -> String {
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// The canonical name of an organisation under the scoring's aliases.
fn org(s: &str) -> String {
    let f = folded(s);
    let canonical = match f.as_str() {
        "associated press" | "the associated press" | "ap photo" | "أسوشيتد برس" => "ap",
        "agence france-presse"
        | "agence france presse"
        | "afp photo"
        | "أ ف ب"
        | "أ.ف.ب"
        | "فرانس برس"
        | "وكالة الصحافة الفرنسية"
        | "الفرنسية" => "afp",
        "thomson reuters" | "رويترز" => "reuters",
        "epa-efe" | "efe/epa" | "epa/efe" | "الأوروبية" => "epa",
        "getty" => "getty images",
        "anadolu" | "aa" | "anadolu agency" | "الأناضول" => "anadolu agency",
        "الجزيرة" => "al jazeera",
        "سانا" => "sana",
        "وكالة الأنباء الألمانية" => "dpa",
        _ => return f,
    };
    canonical.to_string()
}

fn names(v: &Value) -> Vec<String> {
    let mut out: Vec<String> = v
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).map(folded).collect())
        .unwrap_or_default();
    out.sort();
    out.dedup();
    out
}

fn opt_org(v: &Value) -> Option<String> {
    v.as_str().filter(|s| !s.trim().is_empty()).map(org)
}

/// The location's two verdicts: within tolerance and in the country, and the country.
fn location(want: &Value, record: &Value, out: &mut Vec<Verdict>) {
    let loc = &record["location"];
    let country_right = !loc["country"].is_null() && loc["country"] == want["country"];
    let off = match (loc["lat"].as_f64(), loc["lon"].as_f64()) {
        (Some(lat), Some(lon)) => Some(haversine_km(
            lat,
            lon,
            want["lat"].as_f64().unwrap_or(0.0),
            want["lon"].as_f64().unwrap_or(0.0),
        )),
        _ => None,
    };
    let tolerance = want["tolerance_km"].as_f64().unwrap_or(10.0);
    let got = match off {
        Some(d) => format!("{} {} ({d:.0} km off)", loc["text"], loc["country"]),
        None => "no location".to_string(),
    };
    let want_s = format!("{} {} within {tolerance} km", want["text"], want["country"]);
    out.push(Verdict {
        field: "location",
        right: country_right && off.is_some_and(|d| d <= tolerance),
        got: got.clone(),
        want: want_s.clone(),
    });
    out.push(Verdict {
        field: "country",
        right: country_right,
        got,
        want: want_s,
    });
}

/// The verdicts of `record` on the fields the gold line has.
pub fn score(gold: &Value, record: &Record) -> Vec<Verdict> {
    let record = serde_json::to_value(record).unwrap_or_default();
    let mut out = Vec::new();
    let mut push = |field, right, got: String, want: String| {
        out.push(Verdict {
            field,
            right,
            got,
            want,
        })
    };
    let credit = &record["credit"];
    if let Some(want) = gold.get("photographers") {
        let (g, w) = (names(&credit["photographers"]), names(want));
        push("photographers", g == w, format!("{g:?}"), format!("{w:?}"));
    }
    for field in ["agency", "distributor"] {
        if let Some(want) = gold.get(field) {
            let (g, w) = (opt_org(&credit[field]), opt_org(want));
            push(field, g == w, format!("{g:?}"), format!("{w:?}"));
        }
    }
    if let Some(want) = gold.get("date") {
        let got = &record["date"]["value"];
        push("date", got == want, got.to_string(), want.to_string());
    }
    for field in ["killed", "injured"] {
        if let Some(want) = gold.get(field) {
            let got = &record["casualties"][field]["low"];
            push(field, got == want, got.to_string(), want.to_string());
        }
    }
    if let Some(want) = gold.get("location") {
        location(want, &record, &mut out);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn record(v: Value) -> Record {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn aliases_and_letter_case_agree_and_other_names_do_not() {
        let r = record(json!({
            "text": "x", "location": null, "places": [], "persons": [], "organizations": [],
            "event_types": [], "sources": [], "warnings": [],
            "credit": {"raw": "x", "photographers": ["MARIA  Lopez"], "agency": "Agence France-Presse",
                       "distributor": null, "span": [0, 1]},
            "date": {"value": "2020-05-01", "precision": "day", "text": "x", "span": [0, 1]},
            "casualties": {"killed": {"low": 3, "high": null, "text": "x", "span": [0, 1]},
                           "injured": null}
        }));
        let gold = json!({"photographers": ["Maria Lopez"], "agency": "AFP", "distributor": null,
                          "date": "2020-05-02", "killed": 3, "injured": 1});
        let v: Vec<(&str, bool)> = score(&gold, &r)
            .iter()
            .map(|v| (v.field, v.right))
            .collect();
        assert_eq!(
            v,
            [
                ("photographers", true),
                ("agency", true),
                ("distributor", true),
                ("date", false),
                ("killed", true),
                ("injured", false),
            ]
        );
    }
}
