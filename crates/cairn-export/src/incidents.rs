//! Incidents out of the archive: JSON Lines of the stored incident objects, an
//! ACLED-style CSV with one event row per incident, and a GeoJSON FeatureCollection of
//! the located ones. The writer streams: each incident goes out as it is given.

use std::io::Write;

use cairn_gazetteer::{Gazetteer, reader_name};
use cairn_model::{Place, Precision};
use serde_json::Value;

use crate::acled::first_day;
use crate::formula::text_cell;
use crate::{
    Error, Format, acled_event_type, acled_geo_precision, acled_time_precision, country_name,
};

/// The columns of an ACLED-style incident export: ACLED's names, then the toll's range
/// and whether its claims contradict one another.
pub const INCIDENT_ACLED_COLUMNS: [&str; 19] = [
    "event_date",
    "time_precision",
    "event_type",
    "sub_event_type",
    "actor1",
    "actor2",
    "location",
    "admin1",
    "country",
    "latitude",
    "longitude",
    "geo_precision",
    "source",
    "notes",
    "fatalities",
    "fatalities_low",
    "fatalities_high",
    "contested",
    "incident",
];

/// The formats incidents export to.
pub const INCIDENT_FORMATS: [Format; 3] = [Format::Jsonl, Format::AcledCsv, Format::GeoJson];

/// How much of a caption's text a note keeps: enough to recognise it.
const NOTE_CHARS: usize = 120;

/// One photograph of an incident, as its export rows cite it.
#[derive(Debug, Clone)]
pub struct IncidentCaption {
    /// The caption id.
    pub id: i64,
    /// The caption's text.
    pub text: String,
    /// The agency (or else the distributor) its credit names.
    pub agency: Option<String>,
}

/// A streaming writer of incidents in [`Format::Jsonl`], [`Format::AcledCsv`] or
/// [`Format::GeoJson`].
#[derive(Debug)]
pub struct IncidentExporter<'g, W: Write> {
    format: Format,
    plain: Option<W>,
    csv: Option<csv::Writer<W>>,
    gazetteer: &'g Gazetteer,
    name: String,
    written: u64,
}

impl<'g, W: Write> IncidentExporter<'g, W> {
    /// Starts an export to `out` (`name` names it in errors); the header goes out now.
    /// Fails on a format incidents have no writer for.
    pub fn new(
        format: Format,
        out: W,
        gazetteer: &'g Gazetteer,
        name: &str,
    ) -> Result<Self, Error> {
        if !INCIDENT_FORMATS.contains(&format) {
            let names: Vec<&str> = INCIDENT_FORMATS.iter().map(|f| f.name()).collect();
            return Err(Error::Io {
                path: name.to_string(),
                source: std::io::Error::other(format!(
                    "incidents do not export as {} (one of {})",
                    format.name(),
                    names.join(", ")
                )),
            });
        }
        let (plain, csv) = match format {
            Format::AcledCsv => (None, Some(csv::Writer::from_writer(out))),
            _ => (Some(out), None),
        };
        let mut e = IncidentExporter {
            format,
            plain,
            csv,
            gazetteer,
            name: name.to_string(),
            written: 0,
        };
        match format {
            Format::AcledCsv => e.row(INCIDENT_ACLED_COLUMNS.iter())?,
            Format::GeoJson => e.bytes(b"{\"type\":\"FeatureCollection\",\"features\":[\n")?,
            _ => {}
        }
        Ok(e)
    }

    fn io(&self, source: std::io::Error) -> Error {
        Error::Io {
            path: self.name.clone(),
            source,
        }
    }

    fn bytes(&mut self, b: &[u8]) -> Result<(), Error> {
        let w = self.plain.as_mut().expect("a plain format");
        w.write_all(b).map_err(|e| Error::Io {
            path: self.name.clone(),
            source: e,
        })
    }

    fn row<I: IntoIterator<Item = T>, T: AsRef<[u8]>>(&mut self, fields: I) -> Result<(), Error> {
        let w = self.csv.as_mut().expect("a CSV format");
        w.write_record(fields).map_err(|source| Error::Csv {
            path: self.name.clone(),
            source,
        })
    }

    /// Writes one incident (the stored object, as `cairn incidents --json` gives it) with
    /// its photographs. Returns whether it was written: GeoJSON skips an incident
    /// without a location.
    pub fn write(&mut self, incident: &Value, captions: &[IncidentCaption]) -> Result<bool, Error> {
        match self.format {
            Format::AcledCsv => {
                let row = acled_row(incident, captions, self.gazetteer);
                self.row(row)?;
            }
            Format::GeoJson => {
                let Some(feature) = feature(incident) else {
                    return Ok(false);
                };
                let mut b = if self.written > 0 {
                    b",\n".to_vec()
                } else {
                    Vec::new()
                };
                serde_json::to_writer(&mut b, &feature).map_err(|e| self.io(e.into()))?;
                self.bytes(&b)?;
            }
            _ => {
                let mut line = serde_json::to_vec(incident).map_err(|e| self.io(e.into()))?;
                line.push(b'\n');
                self.bytes(&line)?;
            }
        }
        self.written += 1;
        Ok(true)
    }

    /// Ends the export (closing a GeoJSON collection), flushes, and returns the number
    /// of incidents written.
    pub fn finish(mut self) -> Result<u64, Error> {
        if self.format == Format::GeoJson {
            self.bytes(b"\n]}\n")?;
        }
        let r = match (&mut self.plain, &mut self.csv) {
            (Some(w), _) => w.flush(),
            (_, Some(w)) => w.flush(),
            _ => Ok(()),
        };
        r.map_err(|e| self.io(e))?;
        Ok(self.written)
    }
}

fn place(incident: &Value) -> Option<Place> {
    serde_json::from_value(incident["location"].clone()).ok()
}

fn number(v: &Value) -> String {
    v.as_u64().map(|n| n.to_string()).unwrap_or_default()
}

/// `text` cut to [`NOTE_CHARS`] characters, marked when cut.
fn shortened(text: &str) -> String {
    match text.char_indices().nth(NOTE_CHARS) {
        Some((at, _)) => format!("{}...", text[..at].trim_end()),
        None => text.to_string(),
    }
}

/// The first of the incident's event types ACLED knows, with its parent type.
fn event_type(incident: &Value) -> Option<(&'static str, String)> {
    incident["event_types"]
        .as_array()?
        .iter()
        .filter_map(Value::as_str)
        .find_map(|sub| Some((acled_event_type(sub)?, sub.to_string())))
}

/// An incident's ACLED row. The actor columns stay empty: no caption field maps to
/// ACLED's actor names yet, and a guessed actor is worse than none.
fn acled_row(incident: &Value, captions: &[IncidentCaption], g: &Gazetteer) -> Vec<String> {
    let date = &incident["date"];
    let precision: Option<Precision> = serde_json::from_value(date["precision"].clone()).ok();
    let from = date["from"].as_str();
    let loc = place(incident);
    let (parent, sub) = event_type(incident).unzip();
    let mut agencies: Vec<&str> = Vec::new();
    for a in captions.iter().filter_map(|c| c.agency.as_deref()) {
        if !agencies.contains(&a) {
            agencies.push(a);
        }
    }
    let notes: Vec<String> = captions
        .iter()
        .map(|c| format!("#{}: {}", c.id, shortened(&c.text)))
        .collect();
    let killed = &incident["killed"];
    let t = |v: Option<String>| text_cell(v.unwrap_or_default());
    vec![
        t(from.zip(precision).map(|(f, p)| first_day(f, p))),
        precision
            .map(|p| acled_time_precision(p).to_string())
            .unwrap_or_default(),
        t(parent.map(str::to_string)),
        t(sub),
        String::new(),
        String::new(),
        t(loc
            .as_ref()
            .map(|l| reader_name(&l.name, &l.text).to_string())),
        t(loc.as_ref().and_then(|l| l.admin1.clone())),
        t(loc
            .as_ref()
            .and_then(|l| l.country.as_deref())
            .map(|cc| country_name(g, cc))),
        loc.as_ref()
            .map(|l| format!("{:.4}", l.lat))
            .unwrap_or_default(),
        loc.as_ref()
            .map(|l| format!("{:.4}", l.lon))
            .unwrap_or_default(),
        loc.as_ref()
            .map(|l| acled_geo_precision(l.kind).to_string())
            .unwrap_or_default(),
        text_cell(agencies.join("; ")),
        text_cell(notes.join(" | ")),
        number(&killed["best"]),
        number(&killed["low"]),
        number(&killed["high"]),
        incident["contested"].as_bool().unwrap_or(false).to_string(),
        number(&incident["id"]),
    ]
}

/// A located incident as a GeoJSON Point feature.
fn feature(incident: &Value) -> Option<Value> {
    let l = place(incident)?;
    Some(serde_json::json!({
        "type": "Feature",
        "geometry": {"type": "Point", "coordinates": [l.lon, l.lat]},
        "properties": {
            "id": incident["id"],
            "captions": incident["captions"],
            "date": incident["date"],
            "place": l.name,
            "event_types": incident["event_types"],
            "killed": incident["killed"],
            "injured": incident["injured"],
            "contested": incident["contested"],
            "grade": incident["grade"],
        },
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notes_are_cut_on_a_character_boundary() {
        let long = "é".repeat(NOTE_CHARS + 5);
        let s = shortened(&long);
        assert!(s.ends_with("..."));
        assert_eq!(s.chars().count(), NOTE_CHARS + 3);
        assert_eq!(shortened("short"), "short");
    }

    #[test]
    fn an_incident_row_cites_its_captions_and_neutralises_formulas() {
        let g = Gazetteer::bundled();
        let inc = serde_json::json!({
            "id": 4, "captions": [4, 9], "event_types": ["Knitting", "Air/drone strike"],
            "date": {"from": "2018-03", "to": "2018-03", "precision": "month"},
            "killed": {"low": 12, "best": 12, "high": 15, "contested": false},
            "contested": false,
        });
        let caps = [
            IncidentCaption {
                id: 4,
                text: "=HYPERLINK(x)".into(),
                agency: Some("=A".into()),
            },
            IncidentCaption {
                id: 9,
                text: "Smoke".into(),
                agency: Some("=A".into()),
            },
        ];
        let row = acled_row(&inc, &caps, &g);
        let cell = |name: &str| {
            let i = INCIDENT_ACLED_COLUMNS
                .iter()
                .position(|c| *c == name)
                .unwrap();
            row[i].clone()
        };
        assert_eq!(cell("event_date"), "2018-03-01");
        assert_eq!(cell("time_precision"), "3");
        assert_eq!(cell("event_type"), "Explosions/Remote violence");
        assert_eq!(cell("sub_event_type"), "Air/drone strike");
        assert_eq!(cell("source"), "'=A");
        assert_eq!(cell("notes"), "#4: =HYPERLINK(x) | #9: Smoke");
        assert_eq!(
            (cell("fatalities"), cell("fatalities_high")),
            ("12".into(), "15".into())
        );
        assert_eq!(cell("latitude"), "");
        assert_eq!(row.len(), INCIDENT_ACLED_COLUMNS.len());
    }
}
