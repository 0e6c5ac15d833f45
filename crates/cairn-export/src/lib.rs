//! Captions out of the archive in the formats the field uses: JSON Lines of records, a
//! flat CSV, a GeoJSON FeatureCollection of located captions, an ACLED-style event
//! CSV, and IPTC XMP sidecars (one `.xmp` per caption) that ExifTool and photo tools
//! read.
//!
//! Writers stream: memory does not grow with the number of captions.
#![warn(missing_docs)]

use std::io::Write;
use std::str::FromStr;

use cairn_gazetteer::Gazetteer;
use cairn_model::Record;
use cairn_store::ExportedCaption;

mod acled;
mod formula;
pub mod gold;
mod incidents;
mod xmp;

use acled::acled_row;
pub use acled::{ACLED_COLUMNS, acled_event_type, acled_geo_precision, acled_time_precision};
use formula::text_cell;
pub use incidents::{INCIDENT_ACLED_COLUMNS, INCIDENT_FORMATS, IncidentCaption, IncidentExporter};
pub use xmp::{write_xmp, xmp, xmp_file_name};

/// What can go wrong while exporting.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Writing the output failed.
    #[error("{path}: {source}")]
    Io {
        /// What was being written.
        path: String,
        /// What the OS said.
        #[source]
        source: std::io::Error,
    },
    /// Writing CSV failed.
    #[error("{path}: {source}")]
    Csv {
        /// What was being written.
        path: String,
        /// What the CSV writer said.
        #[source]
        source: csv::Error,
    },
    /// Reading the archive failed.
    #[error(transparent)]
    Store(#[from] cairn_store::Error),
}

/// An export format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// One JSON object per line: the record, its counts and its sources.
    Jsonl,
    /// One row per caption with the record's main fields.
    Csv,
    /// A GeoJSON FeatureCollection with one Point feature per located caption.
    GeoJson,
    /// ACLED-style event rows (ACLED's column names and precision codes).
    AcledCsv,
    /// One IPTC XMP sidecar file per caption, in a directory.
    Xmp,
    /// The development corpora's annotation format, of verified and corrected captions
    /// only (JSON Lines).
    Gold,
}

impl Format {
    /// Every format, in the order help texts list them.
    pub const ALL: [Format; 6] = [
        Format::Jsonl,
        Format::Csv,
        Format::GeoJson,
        Format::AcledCsv,
        Format::Xmp,
        Format::Gold,
    ];

    /// The name users type.
    pub fn name(self) -> &'static str {
        match self {
            Format::Jsonl => "jsonl",
            Format::Csv => "csv",
            Format::GeoJson => "geojson",
            Format::AcledCsv => "acled-csv",
            Format::Xmp => "xmp",
            Format::Gold => "gold",
        }
    }

    /// The media type of a single-stream export.
    pub fn media_type(self) -> &'static str {
        match self {
            Format::Jsonl | Format::Gold => "application/x-ndjson",
            Format::Csv | Format::AcledCsv => "text/csv; charset=utf-8",
            Format::GeoJson => "application/geo+json",
            Format::Xmp => "application/rdf+xml",
        }
    }

    /// The usual file name extension.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Jsonl | Format::Gold => "jsonl",
            Format::Csv | Format::AcledCsv => "csv",
            Format::GeoJson => "geojson",
            Format::Xmp => "xmp",
        }
    }

    /// Whether the format is a directory of files rather than one stream.
    pub fn is_directory(self) -> bool {
        self == Format::Xmp
    }
}

impl FromStr for Format {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        Format::ALL
            .into_iter()
            .find(|f| f.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
                format!("unknown export format {s:?} (one of {})", names.join(", "))
            })
    }
}

/// The columns of [`Format::Csv`].
pub const CSV_COLUMNS: [&str; 25] = [
    "id",
    "text",
    "date",
    "date_precision",
    "place",
    "place_kind",
    "admin1",
    "country",
    "latitude",
    "longitude",
    "gazetteer_id",
    "photographers",
    "agency",
    "distributor",
    "killed",
    "injured",
    "event_types",
    "persons",
    "organizations",
    "attributed_to",
    "occurrences",
    "sources",
    "verified",
    "disputed",
    "corrected",
];

/// The English name of a country code, from the gazetteer (the code when unknown).
pub(crate) fn country_name(g: &Gazetteer, cc: &str) -> String {
    g.country(cc)
        .map(|id| g.entry(id).name.clone())
        .unwrap_or_else(|| cc.to_string())
}

pub(crate) fn join(v: &[String]) -> String {
    v.join("; ")
}

/// A streaming writer of one export in a single-stream format.
#[derive(Debug)]
pub struct Exporter<'g, W: Write> {
    format: Format,
    sink: Sink<W>,
    gazetteer: &'g Gazetteer,
    name: String,
    written: u64,
}

#[derive(Debug)]
enum Sink<W: Write> {
    Plain(W),
    Csv(Box<csv::Writer<W>>),
}

impl<'g, W: Write> Exporter<'g, W> {
    /// Starts an export to `out` (`name` names it in errors); the header goes out now.
    /// [`Format::Xmp`] is a directory: use [`write_xmp`] instead.
    pub fn new(
        format: Format,
        out: W,
        gazetteer: &'g Gazetteer,
        name: &str,
    ) -> Result<Self, Error> {
        assert!(!format.is_directory(), "XMP sidecars go to a directory");
        let sink = match format {
            Format::Csv | Format::AcledCsv => Sink::Csv(Box::new(csv::Writer::from_writer(out))),
            _ => Sink::Plain(out),
        };
        let mut e = Exporter {
            format,
            sink,
            gazetteer,
            name: name.to_string(),
            written: 0,
        };
        match e.format {
            Format::Csv => e.row(CSV_COLUMNS.iter())?,
            Format::AcledCsv => e.row(ACLED_COLUMNS.iter())?,
            Format::GeoJson => e.plain(b"{\"type\":\"FeatureCollection\",\"features\":[\n")?,
            _ => {}
        }
        Ok(e)
    }

    fn io(&self) -> impl Fn(std::io::Error) -> Error + '_ {
        move |source| Error::Io {
            path: self.name.clone(),
            source,
        }
    }

    fn plain(&mut self, bytes: &[u8]) -> Result<(), Error> {
        let r = match &mut self.sink {
            Sink::Plain(w) => w.write_all(bytes),
            Sink::Csv(_) => unreachable!("CSV formats write rows"),
        };
        r.map_err(self.io())
    }

    fn row<I: IntoIterator<Item = T>, T: AsRef<[u8]>>(&mut self, fields: I) -> Result<(), Error> {
        let r = match &mut self.sink {
            Sink::Csv(w) => w.write_record(fields),
            Sink::Plain(_) => unreachable!("rows only in CSV formats"),
        };
        r.map_err(|source| {
            // An IO failure is told as one (csv's error does not name its cause), so
            // callers can tell a reader that went away from a bad row.
            let path = self.name.clone();
            if source.is_io_error() {
                if let csv::ErrorKind::Io(source) = source.into_kind() {
                    return Error::Io { path, source };
                }
                return Error::Io {
                    path,
                    source: std::io::Error::other("CSV output failed"),
                };
            }
            Error::Csv { path, source }
        })
    }

    /// Writes one caption. Returns whether it was written: a GeoJSON export skips
    /// captions that have no location, an ACLED one captions that tell no event, a gold
    /// export those no person verified or corrected.
    pub fn write(&mut self, c: &ExportedCaption) -> Result<bool, Error> {
        match self.format {
            Format::Jsonl => {
                let mut line = serde_json::to_vec(c).map_err(|e| self.io()(e.into()))?;
                line.push(b'\n');
                self.plain(&line)?;
            }
            Format::Csv => {
                let row = csv_row(c);
                self.row(row)?;
            }
            Format::AcledCsv => {
                let Some(row) = acled_row(c, self.gazetteer) else {
                    return Ok(false);
                };
                self.row(row)?;
            }
            Format::GeoJson => {
                let Some(feature) = geojson_feature(c) else {
                    return Ok(false);
                };
                let mut bytes = Vec::new();
                if self.written > 0 {
                    bytes.extend_from_slice(b",\n");
                }
                serde_json::to_writer(&mut bytes, &feature).map_err(|e| self.io()(e.into()))?;
                self.plain(&bytes)?;
            }
            Format::Gold => {
                let Some(line) = gold::gold_line(c) else {
                    return Ok(false);
                };
                let mut bytes = serde_json::to_vec(&line).map_err(|e| self.io()(e.into()))?;
                bytes.push(b'\n');
                self.plain(&bytes)?;
            }
            Format::Xmp => unreachable!("checked in new"),
        }
        self.written += 1;
        Ok(true)
    }

    /// Ends the export (closing a GeoJSON collection), flushes, and returns the number
    /// of captions written.
    pub fn finish(mut self) -> Result<u64, Error> {
        if self.format == Format::GeoJson {
            self.plain(b"\n]}\n")?;
        }
        let r = match &mut self.sink {
            Sink::Plain(w) => w.flush(),
            Sink::Csv(w) => w.flush(),
        };
        r.map_err(self.io())?;
        Ok(self.written)
    }
}

fn csv_row(c: &ExportedCaption) -> Vec<String> {
    let r = c.record.as_ref();
    let loc = r.and_then(|r| r.location.as_ref());
    let credit = r.and_then(|r| r.credit.as_ref());
    let date = r.and_then(|r| r.date.as_ref());
    let num = |v: Option<u32>| v.map(|n| n.to_string()).unwrap_or_default();
    let list = |f: fn(&Record) -> &Vec<String>| r.map(|r| join(f(r))).unwrap_or_default();
    let t = |v: Option<String>| text_cell(v.unwrap_or_default());
    vec![
        c.id.to_string(),
        text_cell(c.text.clone()),
        t(date.map(|d| d.value.clone())),
        t(date.map(|d| d.precision.as_str().to_string())),
        t(loc.map(|l| l.name.clone())),
        t(loc.map(|l| l.kind.as_str().to_string())),
        t(loc.and_then(|l| l.admin1.clone())),
        t(loc.and_then(|l| l.country.clone())),
        loc.map(|l| l.lat.to_string()).unwrap_or_default(),
        loc.map(|l| l.lon.to_string()).unwrap_or_default(),
        t(loc.and_then(|l| l.gazetteer_id.clone())),
        t(credit.map(|c| join(&c.photographers))),
        t(credit.and_then(|c| c.agency.clone())),
        t(credit.and_then(|c| c.distributor.clone())),
        num(r.and_then(|r| r.casualties.killed.as_ref()).map(|k| k.low)),
        num(r.and_then(|r| r.casualties.injured.as_ref()).map(|k| k.low)),
        text_cell(list(|r| &r.event_types)),
        text_cell(list(|r| &r.persons)),
        text_cell(list(|r| &r.organizations)),
        text_cell(list(|r| &r.sources)),
        c.occurrences.to_string(),
        text_cell(join(
            &c.sources.iter().map(|s| s.uri.clone()).collect::<Vec<_>>(),
        )),
        c.review.verified.to_string(),
        c.review.disputed.to_string(),
        text_cell(join(&c.review.corrected)),
    ]
}

fn geojson_feature(c: &ExportedCaption) -> Option<serde_json::Value> {
    let r = c.record.as_ref()?;
    let loc = r.location.as_ref()?;
    let credit = r.credit.as_ref();
    Some(serde_json::json!({
        "type": "Feature",
        "id": c.id,
        "geometry": {"type": "Point", "coordinates": [loc.lon, loc.lat]},
        "properties": {
            "id": c.id,
            "text": c.text,
            "date": r.date.as_ref().map(|d| &d.value),
            "date_precision": r.date.as_ref().map(|d| d.precision.as_str()),
            "place": loc.name,
            "place_kind": loc.kind.as_str(),
            "admin1": loc.admin1,
            "country": loc.country,
            "gazetteer_id": loc.gazetteer_id,
            "agency": credit.and_then(|c| c.agency.as_ref()),
            "photographers": credit.map(|c| &c.photographers),
            "killed": r.casualties.killed.as_ref().map(|k| k.low),
            "injured": r.casualties.injured.as_ref().map(|k| k.low),
            "event_types": r.event_types,
            "occurrences": c.occurrences,
            "sources": c.sources.len(),
            "verified": c.review.verified,
            "disputed": c.review.disputed,
        }
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_extracted_event_type_has_an_acled_parent() {
        for sub in cairn_extract::event_type_names() {
            assert!(acled_event_type(sub).is_some(), "{sub}");
        }
        assert_eq!(acled_event_type("Knitting"), None);
    }

    /// A caption of this text as an export reads it, extracted.
    fn exported(text: &str) -> ExportedCaption {
        ExportedCaption {
            id: 7,
            text: text.to_string(),
            record: Some(cairn_extract::Extractor::bundled().extract(text)),
            variants: 1,
            occurrences: 1,
            sources: vec![cairn_store::SourceRef {
                id: 1,
                uri: "=cmd|' /C calc'!A0".into(),
                sha256: String::new(),
            }],
            review: cairn_store::Review {
                verified: true,
                corrected: vec!["persons".into()],
                ..Default::default()
            },
        }
    }

    /// Both CSV formats of one caption that begins like a formula and lies south and
    /// west of zero, read back by the csv crate.
    fn csv_exports_of(text: &str) -> Vec<csv::StringRecord> {
        let g = Gazetteer::bundled();
        let c = exported(text);
        [Format::Csv, Format::AcledCsv]
            .into_iter()
            .map(|f| {
                let mut out = Vec::new();
                let mut e = Exporter::new(f, &mut out, &g, "test").unwrap();
                e.write(&c).unwrap();
                e.finish().unwrap();
                let mut rd = csv::Reader::from_reader(out.as_slice());
                rd.records().next().unwrap().unwrap()
            })
            .collect()
    }

    #[test]
    fn formula_cells_are_text_and_numbers_stay_numbers() {
        let text = "=HYPERLINK(\"http://a.example\",\"x\") Protesters march past a market \
                    in Lima, Peru, on June 2, 2022. (Photo by Rosa Quispe/AFP)";
        let rows = csv_exports_of(text);
        let (plain, acled) = (&rows[0], &rows[1]);
        let col = |cols: &[&str], name: &str| cols.iter().position(|c| *c == name).unwrap();
        assert_eq!(&plain[col(&CSV_COLUMNS, "text")], format!("'{text}"));
        assert!(plain[col(&CSV_COLUMNS, "sources")].starts_with("'="));
        assert_eq!(&acled[col(&ACLED_COLUMNS, "notes")], format!("'{text}"));
        // Coordinates the exporter writes are numbers, negative ones included.
        let lat: f64 = plain[col(&CSV_COLUMNS, "latitude")].parse().unwrap();
        let lon: f64 = acled[col(&ACLED_COLUMNS, "longitude")].parse().unwrap();
        assert!(lat < 0.0 && lon < 0.0, "{plain:?} {acled:?}");
        assert_eq!(&plain[col(&CSV_COLUMNS, "id")], "7");
        assert_eq!(&plain[col(&CSV_COLUMNS, "verified")], "true");
        assert_eq!(&plain[col(&CSV_COLUMNS, "corrected")], "persons");
    }

    #[test]
    fn acled_rows_are_events_and_an_unknown_toll_is_empty() {
        let g = Gazetteer::bundled();
        let texts = [
            "Vendors sell fruit at a market in Lima, Peru, on June 2, 2022.",
            "Protesters march through central Lima, Peru, on June 3, 2022.",
            "Smoke rises after an air strike killed 4 people in Idlib, Syria, on May 5, 2021.",
        ];
        let mut out = Vec::new();
        let mut e = Exporter::new(Format::AcledCsv, &mut out, &g, "test").unwrap();
        let written: Vec<bool> = texts
            .iter()
            .map(|t| e.write(&exported(t)).unwrap())
            .collect();
        assert_eq!(e.finish().unwrap(), 2);
        assert_eq!(written, [false, true, true]);
        let mut rd = csv::Reader::from_reader(out.as_slice());
        let rows: Vec<csv::StringRecord> = rd.records().map(Result::unwrap).collect();
        let col = |name: &str| ACLED_COLUMNS.iter().position(|c| *c == name).unwrap();
        let cells =
            |name: &str| -> Vec<String> { rows.iter().map(|r| r[col(name)].to_string()).collect() };
        assert_eq!(cells("fatalities"), ["", "4"]);
        assert!(cells("event_type").iter().all(|t| !t.is_empty()));
        assert!(rows[0][col("notes")].starts_with("Protesters"));
    }

    #[test]
    fn formats_parse_from_their_names() {
        for f in Format::ALL {
            assert_eq!(f.name().parse::<Format>(), Ok(f));
        }
        assert!("pdf".parse::<Format>().unwrap_err().contains("acled-csv"));
    }
}
