//! Places from a GeoNames dump (`allCountries.zip`, a country's `XX.zip`, or the `.txt`
//! inside one) made into an archive's own gazetteer file, for users who can download
//! more of GeoNames than the bundle holds.
//!
//! The dump is read as a stream, one line at a time, so that `allCountries` never sits
//! in memory whole. Only the kinds of places captions name are kept (populated places,
//! districts, regions, islands, camps and border posts: not rivers, hills or hotels,
//! whose names are common words), and only those the bundled gazetteer lacks. The file
//! is written beside the archive under a temporary name and renamed when complete, so a
//! failed import leaves the archive's previous places as they were.

use std::fs::File;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;

use cairn_model::PlaceKind;
use rustc_hash::FxHashSet;

use crate::Gazetteer;

/// What an import read and kept.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct ImportReport {
    /// Rows of the dump.
    pub rows: u64,
    /// Places written to the archive's file.
    pub kept: u64,
    /// Places of a kept kind that the bundled gazetteer already holds.
    pub known: u64,
}

/// Why a dump could not be imported; names the file and the problem.
#[derive(Debug)]
pub struct ImportError(pub String);

impl std::fmt::Display for ImportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}
impl std::error::Error for ImportError {}

/// The columns of GeoNames' `geoname` table.
const COLUMNS: usize = 19;

/// Imports the dump at `dump` into `out` (in the bundle's format), leaving out the
/// places `bundled` already has.
pub fn import_dump(
    dump: &Path,
    out: &Path,
    bundled: &Gazetteer,
) -> Result<ImportReport, ImportError> {
    let err = |what: String| ImportError(format!("{}: {what}", dump.display()));
    let mut file = File::open(dump).map_err(|e| err(e.to_string()))?;
    let mut magic = [0u8; 4];
    let n = file.read(&mut magic).map_err(|e| err(e.to_string()))?;
    drop(file);
    let known = bundled_ids(bundled);
    let tmp = out.with_extension("zst.part");
    let result = if magic[..n] == *b"PK\x03\x04" {
        import_zip(dump, &tmp, &known)
    } else {
        let f = File::open(dump).map_err(|e| err(e.to_string()))?;
        convert(BufReader::new(f), &tmp, &known)
    };
    let report = match result {
        Ok(r) => r,
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            return Err(err(e));
        }
    };
    std::fs::rename(&tmp, out).map_err(|e| err(format!("writing {}: {e}", out.display())))?;
    Ok(report)
}

/// The dump's table inside a zip: its first `.txt` member other than a readme.
fn import_zip(dump: &Path, tmp: &Path, known: &FxHashSet<u64>) -> Result<ImportReport, String> {
    let file = File::open(dump).map_err(|e| e.to_string())?;
    let table = |n: &str| n.ends_with(".txt") && !n.to_ascii_lowercase().contains("readme");
    let (name, member) = crate::zipstream::member(BufReader::with_capacity(1 << 20, file), table)
        .map_err(|e| e.to_string())?
        .ok_or("not a GeoNames dump: the zip holds no table (a .txt other than a readme)")?;
    convert(BufReader::with_capacity(1 << 20, member), tmp, known)
        .map_err(|e| format!("{name}: {e}"))
}

fn bundled_ids(g: &Gazetteer) -> FxHashSet<u64> {
    g.entries()
        .filter_map(|(_, e)| e.id.strip_prefix("geonames:")?.parse().ok())
        .collect()
}

/// Reads the table line by line and writes the kept places, zstd-compressed.
fn convert(
    mut input: impl BufRead,
    tmp: &Path,
    known: &FxHashSet<u64>,
) -> Result<ImportReport, String> {
    let out = File::create(tmp).map_err(|e| format!("{}: {e}", tmp.display()))?;
    let mut enc = zstd::Encoder::new(out, 9).map_err(|e| e.to_string())?;
    let mut report = ImportReport::default();
    let mut line = Vec::new();
    loop {
        line.clear();
        if input
            .read_until(b'\n', &mut line)
            .map_err(|e| e.to_string())?
            == 0
        {
            break;
        }
        report.rows += 1;
        let text = std::str::from_utf8(&line)
            .map_err(|_| format!("line {}: not UTF-8 text", report.rows))?;
        let text = text.trim_end_matches(['\n', '\r']);
        if text.is_empty() {
            continue;
        }
        let row = Row::parse(text).map_err(|e| {
            let hint = if report.rows == 1 {
                "not a GeoNames dump: "
            } else {
                ""
            };
            format!("{hint}line {}: {e}", report.rows)
        })?;
        let Some(kind) = row.kind() else { continue };
        if known.contains(&row.id) {
            report.known += 1;
            continue;
        }
        writeln!(enc, "{}", row.to_line(kind)).map_err(|e| e.to_string())?;
        report.kept += 1;
    }
    if report.rows == 0 {
        return Err("not a GeoNames dump: the table is empty".into());
    }
    enc.finish()
        .and_then(|mut f| f.flush())
        .map_err(|e| e.to_string())?;
    Ok(report)
}

/// The fields of one `geoname` row that the gazetteer keeps.
struct Row<'a> {
    id: u64,
    name: &'a str,
    alternates: &'a str,
    lat: f64,
    lon: f64,
    class: &'a str,
    code: &'a str,
    country: &'a str,
    admin1: &'a str,
    population: u64,
}

impl<'a> Row<'a> {
    fn parse(line: &'a str) -> Result<Self, String> {
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() != COLUMNS {
            return Err(format!(
                "{} tab-separated fields where GeoNames' geoname table has {COLUMNS}",
                f.len()
            ));
        }
        let id = f[0]
            .parse()
            .map_err(|_| format!("geonameid {:?} is not a number", f[0]))?;
        let coord = |s: &str, max: f64, what: &str| match s.parse::<f64>() {
            Ok(v) if v.abs() <= max => Ok(v),
            _ => Err(format!("{what} {s:?} is not a coordinate")),
        };
        let (lat, lon) = (
            coord(f[4], 90.0, "latitude")?,
            coord(f[5], 180.0, "longitude")?,
        );
        if f[6].len() > 1 || f[1].trim().is_empty() {
            return Err(format!("no name or a feature class {:?}", f[6]));
        }
        Ok(Row {
            id,
            name: f[1].trim(),
            alternates: f[3],
            lat,
            lon,
            class: f[6],
            code: f[7],
            country: f[8],
            admin1: f[10],
            population: f[14].parse().unwrap_or(0),
        })
    }

    /// The kind the gazetteer gives this feature, or `None` to leave it out.
    fn kind(&self) -> Option<PlaceKind> {
        Some(match (self.class, self.code) {
            ("P", "PPLX") => PlaceKind::Neighbourhood,
            ("P", "PPLH") => return None,
            ("P", _) => PlaceKind::Town,
            ("A", "ADM2") => PlaceKind::Admin2,
            ("L", "RGN" | "AREA") | ("T", "ISL" | "ISLS" | "PEN") => PlaceKind::Region,
            ("S", "CMPRF" | "CMP" | "PSTB") => PlaceKind::Point,
            _ => return None,
        })
    }

    /// The row as a line of the bundle's format.
    fn to_line(&self, kind: PlaceKind) -> String {
        let alternates: Vec<&str> = self
            .alternates
            .split(',')
            .map(str::trim)
            .filter(|a| kept_alternate(a))
            .collect();
        format!(
            "{}\t{}\t{}\t{:.5}\t{:.5}\t{}\t{}\t{}\t{}",
            self.id,
            self.name,
            kind.as_str(),
            self.lat,
            self.lon,
            self.country,
            self.admin1,
            self.population,
            alternates.join("|")
        )
    }
}

/// Alternate names in the scripts of the captions cairn reads (Latin, Arabic), as the
/// bundle keeps them: other scripts would only grow the file.
fn kept_alternate(a: &str) -> bool {
    !a.is_empty()
        && a.len() <= 120
        && !a.contains('|')
        && a.chars().any(char::is_alphabetic)
        && a.chars().filter(|c| c.is_alphabetic()).all(|c| {
            matches!(c as u32, 0x41..=0x24F | 0x1E00..=0x1EFF | 0x600..=0x6FF | 0x750..=0x77F
                | 0x8A0..=0x8FF | 0xFB50..=0xFDFF | 0xFE70..=0xFEFF)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(id: &str, name: &str, class: &str, code: &str) -> String {
        [
            id,
            name,
            name,
            "Alt One,حلب,Альт",
            "33.5",
            "36.3",
            class,
            code,
            "SY",
            "",
            "08",
            "",
            "",
            "",
            "1200",
            "",
            "700",
            "Asia/Damascus",
            "2024-01-01",
        ]
        .join("\t")
    }

    #[test]
    fn rows_become_lines_of_the_bundle_format() {
        let r = row("99000001", "Kafr Test", "P", "PPL");
        let row = Row::parse(&r).unwrap();
        let kind = row.kind().unwrap();
        assert_eq!(
            row.to_line(kind),
            "99000001\tKafr Test\ttown\t33.50000\t36.30000\tSY\t08\t1200\tAlt One|حلب"
        );
        assert_eq!(Row::parse(&row_of("H", "STM")).unwrap().kind(), None);
        let camp = row_of("S", "CMPRF");
        assert_eq!(Row::parse(&camp).unwrap().kind(), Some(PlaceKind::Point));
    }

    fn row_of(class: &str, code: &str) -> String {
        row("1", "X", class, code)
    }

    #[test]
    fn a_file_of_another_shape_is_refused_with_its_line() {
        let dir = std::env::temp_dir().join(format!("cairn-gz-import-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let csv = dir.join("places.csv");
        std::fs::write(&csv, "id,name,lat,lon\n1,Somewhere,1.0,2.0\n").unwrap();
        let out = dir.join("gazetteer.tsv.zst");
        let e = import_dump(&csv, &out, &Gazetteer::default()).unwrap_err();
        assert!(e.0.contains("places.csv"), "{e}");
        assert!(e.0.contains("not a GeoNames dump: line 1"), "{e}");
        assert!(!out.exists() && !out.with_extension("zst.part").exists());
        let bad = format!("{}\n{}", row("1", "A", "P", "PPL"), "2\tB\tB");
        std::fs::write(&csv, bad).unwrap();
        let e = import_dump(&csv, &out, &Gazetteer::default()).unwrap_err();
        assert!(e.0.contains("line 2: 3 tab-separated fields"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn imported_places_join_the_bundled_ones_in_the_archives_gazetteer() {
        let dir = std::env::temp_dir().join(format!("cairn-gz-archive-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let table = dir.join("SY.txt");
        // A made-up village, and Aleppo's real geonameid (already bundled: left out).
        let rows = [
            row("99000002", "Tall Zarqunabad", "P", "PPL"),
            row("170063", "Aleppo", "P", "PPLA"),
        ];
        std::fs::write(&table, rows.join("\n")).unwrap();
        let bundled = Gazetteer::bundled();
        let out = dir.join(crate::ARCHIVE_FILE);
        let report = import_dump(&table, &out, &bundled).unwrap();
        assert_eq!((report.rows, report.kept, report.known), (2, 1, 1));
        let g = Gazetteer::load_for_archive(&dir).unwrap();
        assert_eq!(g.len(), bundled.len() + 1);
        let found = g.exact("Tall Zarqunabad");
        assert_eq!(found.len(), 1);
        assert_eq!(g.entry(found[0]).id, "geonames:99000002");
        assert!(!g.exact("حلب").is_empty() && !g.exact("Alt One").is_empty());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
