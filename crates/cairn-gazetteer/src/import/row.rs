//! One row of GeoNames' `geoname` table: its columns checked, the kind the gazetteer
//! gives it, and the line of the bundle's format it becomes.

use cairn_model::PlaceKind;

/// The columns of GeoNames' `geoname` table.
const COLUMNS: usize = 19;

/// The fields of one `geoname` row that the gazetteer keeps.
pub(super) struct Row<'a> {
    pub(super) id: u64,
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
    pub(super) fn parse(line: &'a str) -> Result<Self, String> {
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
    pub(super) fn kind(&self) -> Option<PlaceKind> {
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
    pub(super) fn to_line(&self, kind: PlaceKind) -> String {
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

/// The geonameid a row opens with, read before the rest of it so that a row met before
/// costs no more than its first column.
pub(super) fn leading_id(line: &str) -> Option<u64> {
    line.split_once('\t')?.0.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::tests::row;

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
}
