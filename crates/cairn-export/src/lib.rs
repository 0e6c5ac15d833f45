//! Captions out of the archive in the formats the field uses: JSON Lines of records, a
//! flat CSV, a GeoJSON FeatureCollection of located captions, an ACLED-style event
//! CSV, and IPTC XMP sidecars (one `.xmp` per caption) that ExifTool and photo tools
//! read.
//!
//! Writers stream: memory does not grow with the number of captions.
#![warn(missing_docs)]

use std::fmt::Write as _;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use cairn_gazetteer::{Gazetteer, reader_name};
use cairn_model::{Credit, Place, PlaceKind, Precision, Record};
use cairn_store::ExportedCaption;

mod formula;
pub mod gold;
mod incidents;

use formula::text_cell;
pub use incidents::{INCIDENT_ACLED_COLUMNS, INCIDENT_FORMATS, IncidentCaption, IncidentExporter};

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

/// The columns of [`Format::AcledCsv`], ACLED's names.
pub const ACLED_COLUMNS: [&str; 14] = [
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
    "fatalities",
];

/// ACLED's event type of one of its sub-event types.
pub fn acled_event_type(sub_event: &str) -> Option<&'static str> {
    Some(match sub_event {
        "Armed clash" | "Government regains territory" | "Non-state actor overtakes territory" => {
            "Battles"
        }
        "Chemical weapon"
        | "Air/drone strike"
        | "Suicide bomb"
        | "Shelling/artillery/missile attack"
        | "Remote explosive/landmine/IED"
        | "Grenade" => "Explosions/Remote violence",
        "Sexual violence" | "Attack" | "Abduction/forced disappearance" => {
            "Violence against civilians"
        }
        "Peaceful protest" | "Protest with intervention" | "Excessive force against protesters" => {
            "Protests"
        }
        "Violent demonstration" | "Mob violence" => "Riots",
        "Agreement"
        | "Arrests"
        | "Change to group/activity"
        | "Disrupted weapons use"
        | "Headquarters or base established"
        | "Looting/property destruction"
        | "Non-violent transfer of territory"
        | "Other" => "Strategic developments",
        _ => return None,
    })
}

/// ACLED's time precision: 1 = the day is known, 2 = within a week, 3 = only the month
/// (or a wider period).
pub fn acled_time_precision(p: Precision) -> u8 {
    match p {
        Precision::Day => 1,
        Precision::Month | Precision::Year => 3,
    }
}

/// ACLED's geographic precision: 1 = the town (or a place inside it), 2 = a district or
/// named region, 3 = only the province or country.
pub fn acled_geo_precision(k: PlaceKind) -> u8 {
    match k {
        PlaceKind::Point | PlaceKind::Neighbourhood | PlaceKind::Town => 1,
        PlaceKind::Admin2 | PlaceKind::Region => 2,
        PlaceKind::Admin1 | PlaceKind::Country => 3,
    }
}

/// The English name of a country code, from the gazetteer (the code when unknown).
fn country_name(g: &Gazetteer, cc: &str) -> String {
    g.country(cc)
        .map(|id| g.entry(id).name.clone())
        .unwrap_or_else(|| cc.to_string())
}

/// The first day of a record's date (ACLED wants a full date; the precision column says
/// how much of it is known).
fn first_day(value: &str, p: Precision) -> String {
    match p {
        Precision::Day => value.to_string(),
        Precision::Month => format!("{value}-01"),
        Precision::Year => format!("{value}-01-01"),
    }
}

fn join(v: &[String]) -> String {
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

/// A caption's ACLED row; `None` when it tells no event (an ACLED row is an event).
fn acled_row(c: &ExportedCaption, g: &Gazetteer) -> Option<Vec<String>> {
    let r = c.record.as_ref();
    let loc = r.and_then(|r| r.location.as_ref());
    let date = r.and_then(|r| r.date.as_ref());
    let sub_event = r?.event_types.first()?.clone();
    let event_type = acled_event_type(&sub_event)?;
    // The reporting source: the agency of the credit, then whoever the caption cites.
    let mut source: Vec<String> = Vec::new();
    if let Some(credit) = r.and_then(|r| r.credit.as_ref()) {
        source.extend(credit.agency.iter().cloned());
        source.extend(credit.distributor.iter().cloned());
    }
    if let Some(r) = r {
        for s in &r.sources {
            if !source.contains(s) {
                source.push(s.clone());
            }
        }
    }
    // An unknown toll is no toll of 0: the cell stays empty.
    let fatalities = r
        .and_then(|r| r.casualties.killed.as_ref())
        .map(|k| k.low.to_string())
        .unwrap_or_default();
    let t = |v: Option<String>| text_cell(v.unwrap_or_default());
    Some(vec![
        t(date.map(|d| first_day(&d.value, d.precision))),
        date.map(|d| acled_time_precision(d.precision).to_string())
            .unwrap_or_default(),
        text_cell(event_type.to_string()),
        text_cell(sub_event),
        String::new(),
        // The place as readers write it; the gazetteer's id is in the CSV export.
        t(loc.map(|l| reader_name(&l.name, &l.text).to_string())),
        t(loc.and_then(|l| l.admin1.clone())),
        t(loc
            .and_then(|l| l.country.as_deref())
            .map(|cc| country_name(g, cc))),
        loc.map(|l| format!("{:.4}", l.lat)).unwrap_or_default(),
        loc.map(|l| format!("{:.4}", l.lon)).unwrap_or_default(),
        loc.map(|l| acled_geo_precision(l.kind).to_string())
            .unwrap_or_default(),
        text_cell(join(&source)),
        text_cell(c.text.clone()),
        fatalities,
    ])
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

/// Text for an XML element or a double-quoted attribute: markup characters escaped,
/// characters XML 1.0 forbids dropped.
fn xml(s: &str) -> String {
    let clean: String = s
        .chars()
        .filter(|&ch| {
            matches!(ch, '\t' | '\n' | '\r') || (ch >= ' ' && ch != '\u{FFFE}' && ch != '\u{FFFF}')
        })
        .collect();
    html_escape::encode_double_quoted_attribute(&clean)
        .replace('\n', "&#10;")
        .replace('\r', "&#13;")
}

/// An XMP GPS coordinate (`DDD,MM.mmmmmmK`, as the EXIF-in-XMP mapping writes it).
fn xmp_gps(value: f64, positive: char, negative: char) -> String {
    let hemi = if value < 0.0 { negative } else { positive };
    let a = value.abs();
    let deg = a.trunc();
    let min = (a - deg) * 60.0;
    format!("{},{:.6}{}", deg as u32, min, hemi)
}

/// The IPTC XMP sidecar of one caption: dc:description, dc:creator,
/// photoshop:Credit/Source/DateCreated/City/State/Country, Iptc4xmpCore:CountryCode and
/// Iptc4xmpExt:LocationShown with its GPS position.
pub fn xmp(c: &ExportedCaption, g: &Gazetteer) -> String {
    let r = c.record.as_ref();
    let credit = r.and_then(|r| r.credit.as_ref());
    let loc = r.and_then(|r| r.location.as_ref());
    let country = loc
        .and_then(|l| l.country.as_deref())
        .map(|cc| (cc, country_name(g, cc)));
    let attrs = xmp_attrs(c, credit, loc, country.as_ref());
    let body = xmp_body(c, credit, loc, country.as_ref());
    format!(
        "<?xpacket begin=\"\u{FEFF}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>
<x:xmpmeta xmlns:x=\"adobe:ns:meta/\">
 <rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">
  <rdf:Description rdf:about=\"\"
    xmlns:dc=\"http://purl.org/dc/elements/1.1/\"
    xmlns:photoshop=\"http://ns.adobe.com/photoshop/1.0/\"
    xmlns:Iptc4xmpCore=\"http://iptc.org/std/Iptc4xmpCore/1.0/xmlns/\"
    xmlns:Iptc4xmpExt=\"http://iptc.org/std/Iptc4xmpExt/2008-02-29/\"
    xmlns:exif=\"http://ns.adobe.com/exif/1.0/\"{attrs}>{body}
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>
<?xpacket end=\"w\"?>
"
    )
}

/// The simple properties, written as attributes of the sidecar's rdf:Description.
fn xmp_attrs(
    c: &ExportedCaption,
    credit: Option<&Credit>,
    loc: Option<&Place>,
    country: Option<&(&str, String)>,
) -> String {
    let r = c.record.as_ref();
    let mut attrs = String::new();
    let mut attr = |name: &str, value: &str| {
        let _ = write!(attrs, "\n    {name}=\"{}\"", xml(value));
    };
    if let Some(credit) = credit {
        if let Some(agency) = credit.agency.as_ref().or(credit.distributor.as_ref()) {
            attr("photoshop:Credit", agency);
        }
        if let Some(d) = credit.distributor.as_ref().or(credit.agency.as_ref()) {
            attr("photoshop:Source", d);
        }
    }
    if let Some(d) = r.and_then(|r| r.date.as_ref()) {
        attr("photoshop:DateCreated", &d.value);
    }
    if let Some(l) = loc {
        if matches!(
            l.kind,
            PlaceKind::Town | PlaceKind::Neighbourhood | PlaceKind::Point
        ) {
            attr("photoshop:City", reader_name(&l.name, &l.text));
        }
        if let Some(a) = &l.admin1 {
            attr("photoshop:State", a);
        }
    }
    if let Some((cc, name)) = country {
        attr("photoshop:Country", name);
        attr("Iptc4xmpCore:CountryCode", cc);
    }
    attr(
        "photoshop:TransmissionReference",
        &format!("cairn:{}", c.id),
    );
    attrs
}

/// The structured properties, written as elements: description, creators, source
/// and the location shown.
fn xmp_body(
    c: &ExportedCaption,
    credit: Option<&Credit>,
    loc: Option<&Place>,
    country: Option<&(&str, String)>,
) -> String {
    let mut body = String::new();
    let _ = write!(
        body,
        "\n   <dc:description>\n    <rdf:Alt>\n     <rdf:li xml:lang=\"x-default\">{}</rdf:li>\n    </rdf:Alt>\n   </dc:description>",
        xml(&c.text)
    );
    if let Some(credit) = credit.filter(|c| !c.photographers.is_empty()) {
        body.push_str("\n   <dc:creator>\n    <rdf:Seq>");
        for p in &credit.photographers {
            let _ = write!(body, "\n     <rdf:li>{}</rdf:li>", xml(p));
        }
        body.push_str("\n    </rdf:Seq>\n   </dc:creator>");
    }
    if !c.sources.is_empty() {
        // Where the caption was seen, as dc:source would name one page.
        let _ = write!(
            body,
            "\n   <dc:source>{}</dc:source>",
            xml(&c.sources[0].uri)
        );
    }
    if let Some(l) = loc {
        location_shown(&mut body, l, country);
    }
    body
}

/// Iptc4xmpExt:LocationShown: the place's name, city, state, country and position.
fn location_shown(body: &mut String, l: &Place, country: Option<&(&str, String)>) {
    body.push_str(
        "\n   <Iptc4xmpExt:LocationShown>\n    <rdf:Bag>\n     <rdf:li rdf:parseType=\"Resource\">",
    );
    let mut field = |name: &str, value: &str| {
        let _ = write!(body, "\n      <{name}>{}</{name}>", xml(value));
    };
    field("Iptc4xmpExt:LocationName", &l.name);
    if matches!(
        l.kind,
        PlaceKind::Town | PlaceKind::Neighbourhood | PlaceKind::Point
    ) {
        field("Iptc4xmpExt:City", reader_name(&l.name, &l.text));
    }
    if let Some(a) = &l.admin1 {
        field("Iptc4xmpExt:ProvinceState", a);
    }
    if let Some((cc, name)) = country {
        field("Iptc4xmpExt:CountryName", name);
        field("Iptc4xmpExt:CountryCode", cc);
    }
    field("exif:GPSLatitude", &xmp_gps(l.lat, 'N', 'S'));
    field("exif:GPSLongitude", &xmp_gps(l.lon, 'E', 'W'));
    body.push_str("\n     </rdf:li>\n    </rdf:Bag>\n   </Iptc4xmpExt:LocationShown>");
}

/// The sidecar file name of a caption.
pub fn xmp_file_name(id: i64) -> String {
    format!("cairn-{id}.xmp")
}

/// Writes a caption's sidecar into `dir` (which must exist), replacing any file of the
/// same name atomically; returns its path.
pub fn write_xmp(dir: &Path, c: &ExportedCaption, g: &Gazetteer) -> Result<PathBuf, Error> {
    let path = dir.join(xmp_file_name(c.id));
    let tmp = dir.join(format!(".{}.tmp", xmp_file_name(c.id)));
    let io = |source| Error::Io {
        path: path.display().to_string(),
        source,
    };
    std::fs::write(&tmp, xmp(c, g)).map_err(io)?;
    std::fs::rename(&tmp, &path).map_err(io)?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gps_in_degrees_and_minutes() {
        assert_eq!(xmp_gps(33.558, 'N', 'S'), "33,33.480000N");
        assert_eq!(xmp_gps(-0.5, 'E', 'W'), "0,30.000000W");
    }

    #[test]
    fn xml_escapes_markup_and_drops_control_characters() {
        assert_eq!(xml("a<b & \"c\"\u{1}"), "a&lt;b &amp; &quot;c&quot;");
    }

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
