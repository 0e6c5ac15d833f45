//! Places from a GeoNames dump (`allCountries.zip`, a country's `XX.zip`, or the `.txt`
//! inside one) made into an archive's own gazetteer file, for users who can download
//! more of GeoNames than the bundle holds.
//!
//! The dump is untrusted: a small zip can hold one row repeated tens of millions of
//! times, or a few bad rows among good ones. So it is read as a stream, one bounded line
//! at a time; each place is kept once, by its geonameid (`seen`), however often it is
//! repeated; the places and rows are bounded a little above what all of GeoNames holds;
//! and a bad row is skipped and counted (the first few named by line) rather than
//! refusing the file, unless the file holds more bad rows than good ones. Only the kinds
//! of places captions name are kept (populated places, districts, regions, islands, camps
//! and border posts: not rivers, hills or hotels, whose names are common words), and
//! only those the bundled gazetteer lacks.
//!
//! The file is written beside the archive's under a temporary name, loaded as the
//! archive's gazetteer would be, and renamed over the old one only then: a failed or
//! refused import leaves the archive's previous places as they were. [`reset`] drops an
//! import, leaving the bundled gazetteer.

mod lines;
mod row;
mod seen;

use std::fs::File;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};

use rustc_hash::FxHashSet;

use crate::Gazetteer;
use lines::Line;
use row::Row;
use seen::IdSet;

/// The most distinct places an import keeps: a little above the number of all GeoNames'
/// features, of every kind, so that no real dump reaches it.
pub const MAX_PLACES: usize = 14_000_000;

/// The most rows an import reads: room for every GeoNames row and as many repeats again,
/// so that a dump of one row repeated (which costs a bit, not a place) still imports, and
/// a zip that inflates without end does not read for hours.
pub const MAX_ROWS: u64 = 40_000_000;

/// The longest row read: GeoNames bounds its alternate names to a few thousand bytes.
const MAX_LINE: usize = 64 * 1024;

/// How many skipped rows a report names.
const NAMED: usize = 5;

/// What an import read and kept.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct ImportReport {
    /// Rows (lines) of the dump read.
    pub rows: u64,
    /// Places written to the archive's file.
    pub kept: u64,
    /// Places of a kept kind that the bundled gazetteer already holds.
    pub known: u64,
    /// Rows of a place already kept (its geonameid met before), left out.
    pub duplicates: u64,
    /// Rows that are no row of GeoNames' table, skipped.
    pub skipped: u64,
    /// The first few skipped rows: `line N: the problem`.
    pub first_skipped: Vec<String>,
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

/// Imports the dump at `dump` into `out` (in the bundle's format), leaving out the
/// places `bundled` already has. `out` is replaced only when the new file is complete
/// and loads.
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
    let tmp = part_path(out);
    let result = if magic[..n] == *b"PK\x03\x04" {
        import_zip(dump, &tmp, &known)
    } else {
        let f = File::open(dump).map_err(|e| err(e.to_string()))?;
        convert(BufReader::with_capacity(1 << 20, f), &tmp, &known)
    };
    let report = match result.and_then(|r| loads(&tmp).map(|()| r)) {
        Ok(r) => r,
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            return Err(err(e));
        }
    };
    std::fs::rename(&tmp, out).map_err(|e| err(format!("writing {}: {e}", out.display())))?;
    Ok(report)
}

/// Drops the import at `out` (and what an interrupted import left beside it), so that
/// the archive uses the bundled gazetteer again; false when there was none.
pub fn reset(out: &Path) -> Result<bool, ImportError> {
    let remove = |path: &Path| match std::fs::remove_file(path) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(ImportError(format!("removing {}: {e}", path.display()))),
    };
    remove(&part_path(out))?;
    remove(out)
}

/// Where an import is written before it is renamed to `out`.
fn part_path(out: &Path) -> PathBuf {
    out.with_extension("zst.part")
}

/// Checks that the file written loads as the archive's gazetteer would load it, so that
/// a file the loader would refuse never replaces one it accepts.
fn loads(tmp: &Path) -> Result<(), String> {
    let bytes = std::fs::read(tmp).map_err(|e| format!("{}: {e}", tmp.display()))?;
    Gazetteer::from_parts(&[crate::GEONAMES, &bytes], crate::SUPPLEMENT)
        .map_err(|e| format!("the places written do not load: {}", e.0))?;
    Ok(())
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

/// Reads the table line by line and writes the kept places to `tmp`, zstd-compressed.
fn convert(
    input: impl BufRead,
    tmp: &Path,
    known: &FxHashSet<u64>,
) -> Result<ImportReport, String> {
    let out = File::create(tmp).map_err(|e| format!("{}: {e}", tmp.display()))?;
    convert_into(input, out, known)
}

/// A GeoNames table read from `input` written to `out` in the bundle's format,
/// zstd-compressed, as an import converts a dump's table (with no place left out as
/// bundled); an error says why the table is refused, naming the line where it can.
pub fn convert_table(input: impl BufRead, out: impl Write) -> Result<ImportReport, String> {
    convert_into(input, out, &FxHashSet::default())
}

fn convert_into(
    mut input: impl BufRead,
    out: impl Write,
    known: &FxHashSet<u64>,
) -> Result<ImportReport, String> {
    let enc = zstd::Encoder::new(out, 9).map_err(|e| e.to_string())?;
    let mut c = Converter {
        known,
        seen: IdSet::default(),
        good: 0,
        report: ImportReport::default(),
        out: enc,
    };
    let mut line = Vec::new();
    loop {
        let read = lines::read_line(&mut input, &mut line, MAX_LINE).map_err(|e| e.to_string())?;
        let n = c.report.rows + 1;
        match read {
            Line::End => break,
            _ if n > MAX_ROWS => {
                return Err(format!(
                    "more than {MAX_ROWS} rows, far more than GeoNames has: refused"
                ));
            }
            Line::Cut => c.skip(n, format!("longer than {MAX_LINE} bytes")),
            Line::Whole => match std::str::from_utf8(&line) {
                Err(_) => c.skip(n, "not UTF-8 text".into()),
                Ok("") => {}
                Ok(text) => c.row(n, text)?,
            },
        }
        c.report.rows = n;
    }
    c.finish()
}

/// The state of one conversion: the places kept so far and the file they go to.
struct Converter<'k, W: Write> {
    known: &'k FxHashSet<u64>,
    seen: IdSet,
    /// Rows of GeoNames' table read, whatever became of them.
    good: u64,
    report: ImportReport,
    out: zstd::Encoder<'static, W>,
}

impl<W: Write> Converter<'_, W> {
    /// Takes row `n`; an error only for what stops the whole import.
    fn row(&mut self, n: u64, text: &str) -> Result<(), String> {
        if row::leading_id(text).is_some_and(|id| self.seen.contains(id)) {
            self.good += 1;
            self.report.duplicates += 1;
            return Ok(());
        }
        let row = match Row::parse(text) {
            Ok(row) => row,
            Err(e) => {
                self.skip(n, e);
                return Ok(());
            }
        };
        self.good += 1;
        let Some(kind) = row.kind() else {
            return Ok(());
        };
        if self.known.contains(&row.id) {
            self.report.known += 1;
            return Ok(());
        }
        self.seen.insert(row.id);
        if self.seen.len() > MAX_PLACES {
            return Err(format!(
                "line {n}: more than {MAX_PLACES} distinct places, more than GeoNames \
                 has: refused"
            ));
        }
        writeln!(self.out, "{}", row.to_line(kind)).map_err(|e| e.to_string())?;
        self.report.kept += 1;
        Ok(())
    }

    /// Counts row `n` as skipped, naming it if it is among the first.
    fn skip(&mut self, n: u64, why: String) {
        self.report.skipped += 1;
        if self.report.first_skipped.len() < NAMED {
            self.report.first_skipped.push(format!("line {n}: {why}"));
        }
    }

    /// Ends the file, unless the table was no GeoNames table at all.
    fn finish(self) -> Result<ImportReport, String> {
        let r = self.report;
        let named = r.first_skipped.join("; ");
        if self.good == 0 && r.skipped == 0 {
            return Err("not a GeoNames dump: the table is empty".into());
        }
        if r.skipped > self.good {
            return Err(format!(
                "not a GeoNames dump: {} of {} rows are not rows of its geoname table \
                 ({named})",
                r.skipped, r.rows
            ));
        }
        self.out
            .finish()
            .and_then(|mut f| f.flush())
            .map_err(|e| e.to_string())?;
        Ok(r)
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    pub(super) fn row(id: &str, name: &str, class: &str, code: &str) -> String {
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
    fn a_file_of_another_shape_is_refused_with_its_line() {
        let dir = std::env::temp_dir().join(format!("cairn-gz-import-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let csv = dir.join("places.csv");
        std::fs::write(&csv, "id,name,lat,lon\n1,Somewhere,1.0,2.0\n").unwrap();
        let out = dir.join("gazetteer.tsv.zst");
        let e = import_dump(&csv, &out, &Gazetteer::default()).unwrap_err();
        assert!(e.0.contains("places.csv"), "{e}");
        assert!(e.0.contains("not a GeoNames dump: 2 of 2 rows"), "{e}");
        assert!(e.0.contains("line 1: 1 tab-separated fields"), "{e}");
        assert!(!out.exists() && !out.with_extension("zst.part").exists());
        let bad = format!("{}\n{}\n{}", "2\tB\tB", "3\tC", row("1", "A", "P", "PPL"));
        std::fs::write(&csv, bad).unwrap();
        let e = import_dump(&csv, &out, &Gazetteer::default()).unwrap_err();
        assert!(e.0.contains("2 of 3 rows"), "{e}");
        assert!(e.0.contains("line 1: 3 tab-separated fields"), "{e}");
        assert!(!out.exists() && !out.with_extension("zst.part").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn bad_rows_are_skipped_counted_and_named() {
        let dir = std::env::temp_dir().join(format!("cairn-gz-bad-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut rows = Vec::new();
        for i in 0..10 {
            rows.push(row(
                &format!("{}", 99_000_100 + i),
                &format!("Kafr {i}"),
                "P",
                "PPL",
            ));
        }
        rows[2] = "2\tB\tB".into();
        rows[5] = row("x5", "Bad Id", "P", "PPL");
        rows[7] = row("99000107", "Far", "P", "PPL").replace("36.3", "361.0");
        rows.push("9".repeat(MAX_LINE + 10));
        let table = dir.join("XX.txt");
        std::fs::write(&table, rows.join("\n")).unwrap();
        let out = dir.join(crate::ARCHIVE_FILE);
        let r = import_dump(&table, &out, &Gazetteer::default()).unwrap();
        assert_eq!((r.rows, r.kept, r.skipped), (11, 7, 4), "{r:?}");
        assert_eq!(r.first_skipped.len(), 4);
        assert!(
            r.first_skipped[0].starts_with("line 3: 3 tab-separated"),
            "{r:?}"
        );
        assert!(r.first_skipped[1].starts_with("line 6: geonameid"), "{r:?}");
        assert!(r.first_skipped[2].starts_with("line 8: longitude"), "{r:?}");
        assert!(
            r.first_skipped[3].starts_with("line 11: longer than"),
            "{r:?}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A table of one row repeated, as a zip bomb of a dump holds it, read as a stream.
    struct Repeated {
        row: Vec<u8>,
        left: u64,
        at: usize,
    }

    impl Read for Repeated {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let mut n = 0;
            while n < buf.len() && self.left > 0 {
                let k = (self.row.len() - self.at).min(buf.len() - n);
                buf[n..n + k].copy_from_slice(&self.row[self.at..self.at + k]);
                (n, self.at) = (n + k, self.at + k);
                if self.at == self.row.len() {
                    (self.at, self.left) = (0, self.left - 1);
                }
            }
            Ok(n)
        }
    }

    #[test]
    fn one_row_repeated_is_one_place() {
        let dir = std::env::temp_dir().join(format!("cairn-gz-rep-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let line = row("99000200", "Kafr Repeat", "P", "PPL") + "\n";
        let times = 300_000;
        let input = Repeated {
            row: line.into_bytes(),
            left: times,
            at: 0,
        };
        let tmp = dir.join("places.zst.part");
        let r = convert(BufReader::new(input), &tmp, &FxHashSet::default()).unwrap();
        assert_eq!(
            (r.rows, r.kept, r.duplicates, r.skipped),
            (times, 1, times - 1, 0)
        );
        let text = zstd::stream::decode_all(File::open(&tmp).unwrap()).unwrap();
        assert_eq!(text.iter().filter(|&&b| b == b'\n').count(), 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn reset_drops_the_import_and_a_refused_one_keeps_the_old() {
        let dir = std::env::temp_dir().join(format!("cairn-gz-reset-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let out = dir.join(crate::ARCHIVE_FILE);
        let table = dir.join("XX.txt");
        std::fs::write(&table, row("99000300", "Kafr Kept", "P", "PPL")).unwrap();
        import_dump(&table, &out, &Gazetteer::default()).unwrap();
        let before = std::fs::read(&out).unwrap();
        std::fs::write(&table, "not\ta\tdump\n").unwrap();
        assert!(import_dump(&table, &out, &Gazetteer::default()).is_err());
        assert_eq!(std::fs::read(&out).unwrap(), before);
        std::fs::write(out.with_extension("zst.part"), b"left by a crash").unwrap();
        assert!(reset(&out).unwrap());
        assert!(!out.exists() && !out.with_extension("zst.part").exists());
        assert!(!reset(&out).unwrap());
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
