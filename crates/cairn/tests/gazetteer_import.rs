//! `cairn gazetteer import`: a GeoNames dump (a country's zip, written here in GeoNames'
//! own format) becomes the archive's gazetteer, used by `cairn extract` and `cairn ingest`
//! from then on; a file of another shape is refused with its name and the problem.

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};

use common::{cairn, stderr};

/// A row of GeoNames' `geoname` table (19 tab-separated columns).
fn geoname(id: u32, name: &str, alternates: &str, lat: f64, lon: f64, class: &str) -> String {
    let code = if class == "P" { "PPL" } else { "STM" };
    let (id, lat, lon) = (id.to_string(), lat.to_string(), lon.to_string());
    let row: [&str; 19] = [
        &id,
        name,
        name,
        alternates,
        &lat,
        &lon,
        class,
        code,
        "SY",
        "",
        "07",
        "",
        "",
        "",
        "800",
        "",
        "250",
        "Asia/Damascus",
        "2024-05-01",
    ];
    row.join("\t")
}

/// A made-up village the bundled gazetteer does not know, a stream (a kind the import
/// leaves out), and a readme beside the table, as in GeoNames' country zips.
fn dump(dir: &Path) -> PathBuf {
    let rows = [
        geoname(
            99_100_001,
            "Qaryat Zarqunabad",
            "Zarqunabad,زرقون آباد",
            35.071,
            40.113,
            "P",
        ),
        geoname(99_100_002, "Nahr Zarqun", "", 35.2, 40.2, "H"),
    ];
    let path = dir.join("SY.zip");
    let members = [
        ("readme.txt", b"readme for the test dump\n".to_vec()),
        ("SY.txt", (rows.join("\n") + "\n").into_bytes()),
    ];
    std::fs::write(&path, zip(&members)).unwrap();
    path
}

/// A zip of deflated members, as zip tools write them (local headers, data, central
/// directory, end record).
fn zip(members: &[(&str, Vec<u8>)]) -> Vec<u8> {
    let packed: Vec<Packed> = members
        .iter()
        .map(|(name, data)| pack(name, std::iter::once(data.as_slice())))
        .collect();
    zip_packed(&packed)
}

/// A member deflated: its name, compressed bytes, CRC and size.
struct Packed {
    name: String,
    bytes: Vec<u8>,
    crc: u32,
    size: u32,
}

/// Deflates the pieces of a member one after the other, never holding them together.
fn pack<'a>(name: &str, pieces: impl Iterator<Item = &'a [u8]>) -> Packed {
    let mut crc = flate2::Crc::new();
    let mut enc = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::fast());
    for piece in pieces {
        crc.update(piece);
        enc.write_all(piece).unwrap();
    }
    let size = crc.amount();
    Packed {
        name: name.to_string(),
        bytes: enc.finish().unwrap(),
        crc: crc.sum(),
        size,
    }
}

fn zip_packed(members: &[Packed]) -> Vec<u8> {
    let (mut out, mut central) = (Vec::new(), Vec::new());
    for m in members {
        let offset = out.len() as u32;
        let mut fields = Vec::new();
        fields.extend_from_slice(&[20, 0, 0, 0, 8, 0, 0, 0, 0x21, 0]); // version, flags, deflate, time, date
        fields.extend_from_slice(&m.crc.to_le_bytes());
        fields.extend_from_slice(&(m.bytes.len() as u32).to_le_bytes());
        fields.extend_from_slice(&m.size.to_le_bytes());
        fields.extend_from_slice(&(m.name.len() as u16).to_le_bytes());
        fields.extend_from_slice(&0u16.to_le_bytes());
        out.extend_from_slice(&0x0403_4b50u32.to_le_bytes());
        out.extend_from_slice(&fields);
        out.extend_from_slice(m.name.as_bytes());
        out.extend_from_slice(&m.bytes);
        central.extend_from_slice(&0x0201_4b50u32.to_le_bytes());
        central.extend_from_slice(&[20, 0]);
        central.extend_from_slice(&fields);
        central.extend_from_slice(&[0; 8]); // comment length, disk, attributes
        central.extend_from_slice(&[0; 4]);
        central.extend_from_slice(&offset.to_le_bytes());
        central.extend_from_slice(m.name.as_bytes());
    }
    let (at, len) = (out.len() as u32, central.len() as u32);
    out.extend_from_slice(&central);
    out.extend_from_slice(&0x0605_4b50u32.to_le_bytes());
    out.extend_from_slice(&[0, 0, 0, 0]);
    let n = members.len() as u16;
    out.extend_from_slice(&n.to_le_bytes());
    out.extend_from_slice(&n.to_le_bytes());
    out.extend_from_slice(&len.to_le_bytes());
    out.extend_from_slice(&at.to_le_bytes());
    out.extend_from_slice(&[0, 0]);
    out
}

/// The location `cairn extract` gives the one caption of `file`.
fn extracted_location(data: &Path, file: &Path) -> serde_json::Value {
    let out = cairn(data).arg("extract").arg(file).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let line = String::from_utf8(out.stdout).unwrap();
    let v: serde_json::Value = serde_json::from_str(line.lines().next().unwrap()).unwrap();
    v.pointer("/record/location")
        .or_else(|| v.pointer("/location"))
        .cloned()
        .unwrap_or(serde_json::Value::Null)
}

#[test]
fn an_imported_dump_is_the_archives_gazetteer_from_then_on() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("archive");
    let caption = tmp.path().join("caption.txt");
    std::fs::write(
        &caption,
        "Smoke rises over the village of Zarqunabad, Syria, on May 2, 2024. \
         REUTERS/Jane Roe\n",
    )
    .unwrap();
    let before = extracted_location(&data, &caption);
    assert_ne!(before["name"], "Qaryat Zarqunabad", "{before}");

    let out = cairn(&data)
        .args(["gazetteer", "import"])
        .arg(dump(tmp.path()))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.starts_with("1 places imported"), "{said}");
    assert!(data.join("gazetteer.tsv.zst").is_file());

    let after = extracted_location(&data, &caption);
    assert_eq!(after["name"], "Qaryat Zarqunabad", "{after}");
    assert!(
        (after["lat"].as_f64().unwrap() - 35.071).abs() < 1e-3,
        "{after}"
    );

    let out = cairn(&data).arg("ingest").arg(&caption).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let out = cairn(&data).args(["export", ""]).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let exported = String::from_utf8(out.stdout).unwrap();
    assert!(exported.contains("Qaryat Zarqunabad"), "{exported}");
}

#[test]
fn a_file_that_is_not_a_geonames_dump_is_refused_and_changes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("archive");
    let csv = tmp.path().join("towns.csv");
    std::fs::write(&csv, "name,lat,lon\nSomewhere,1,2\n").unwrap();
    let out = cairn(&data)
        .args(["gazetteer", "import"])
        .arg(&csv)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(
        err.contains("towns.csv") && err.contains("not a GeoNames dump"),
        "{err}"
    );
    assert!(!data.join("gazetteer.tsv.zst").exists());

    let zip_path = tmp.path().join("empty.zip");
    std::fs::write(
        &zip_path,
        zip(&[("readme.txt", b"nothing here\n".to_vec())]),
    )
    .unwrap();
    let out = cairn(&data)
        .args(["gazetteer", "import"])
        .arg(&zip_path)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(
        err.contains("empty.zip") && err.contains("no table"),
        "{err}"
    );
}

/// Runs `cairn gazetteer ARGS` on `data`, asserting success; its stdout.
fn gazetteer(data: &Path, args: &[&std::ffi::OsStr]) -> String {
    let out = cairn(data).arg("gazetteer").args(args).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    String::from_utf8(out.stdout).unwrap()
}

/// The places `cairn places NAME` gives, one a line; `None` when the gazetteer has none.
fn places(data: &Path, name: &str) -> Option<String> {
    let out = cairn(data).args(["places", name]).output().unwrap();
    let said = String::from_utf8(out.stdout.clone()).unwrap();
    if !out.status.success() {
        assert!(
            said.contains("is not in the gazetteer"),
            "{said}{}",
            stderr(&out)
        );
        return None;
    }
    Some(said)
}

/// How often the bomb repeats its row: 3.6 million rows, a third of a gigabyte of table
/// in a zip of some hundreds of kilobytes. The hostile dump of the issue repeated it 28
/// million times; the mechanism is the same (each repeat is a bit already set), and the
/// larger count was measured by hand (see the commit).
const REPEATS: usize = 3_600_000;

/// What an import of the bomb may take at its peak: the bundled gazetteer, loaded twice
/// (to know its places, and to load the new file before it is swapped in).
const IMPORT_BUDGET: u64 = 1 << 30;

#[test]
fn a_dump_of_one_row_repeated_is_one_place_and_reset_drops_it() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("archive");
    let row = geoname(99_100_003, "Kafr Takrar", "", 35.5, 40.5, "P") + "\n";
    let bomb = tmp.path().join("allCountries.zip");
    let pieces = std::iter::repeat_n(row.as_bytes(), REPEATS);
    std::fs::write(&bomb, zip_packed(&[pack("allCountries.txt", pieces)])).unwrap();
    assert_eq!(places(&data, "Kafr Takrar"), None);

    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("cairn"));
    cmd.arg("--data")
        .arg(&data)
        .args(["gazetteer", "import"])
        .arg(&bomb);
    let (out, peak) = common::run_measuring(&mut cmd);
    assert!(out.status.success(), "{}", stderr(&out));
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.starts_with("1 places imported"), "{said}");
    assert!(
        said.contains(&format!("{} repeated rows", REPEATS - 1)),
        "{said}"
    );
    assert!(peak < IMPORT_BUDGET, "peak {peak} bytes");
    // The archive's file holds the one place: loading it costs what the bundle costs.
    let file = data.join("gazetteer.tsv.zst");
    assert!(std::fs::metadata(&file).unwrap().len() < 4096);
    let after = places(&data, "Kafr Takrar").unwrap();
    assert_eq!(after.lines().count(), 1, "{after}");

    let said = gazetteer(&data, &["reset".as_ref()]);
    assert!(said.contains("removed"), "{said}");
    assert!(!file.exists());
    assert_eq!(places(&data, "Kafr Takrar"), None);
    let said = gazetteer(&data, &["reset".as_ref()]);
    assert!(said.contains("no imported places"), "{said}");
}

#[test]
fn bad_rows_are_skipped_named_and_counted() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("archive");
    let rows = [
        geoname(99_100_004, "Kafr Awwal", "", 35.1, 40.1, "P"),
        "99100005\tKafr Naqis\tKafr Naqis".to_string(),
        geoname(99_100_006, "Kafr Thalith", "", 35.3, 40.3, "P"),
        geoname(99_100_007, "Kafr Baid", "", 35.3, 400.0, "P"),
        geoname(99_100_008, "Kafr Khamis", "", 35.4, 40.4, "P"),
    ];
    let path = tmp.path().join("XX.zip");
    let table = rows.join("\n").into_bytes();
    std::fs::write(&path, zip(&[("XX.txt", table)])).unwrap();
    let said = gazetteer(&data, &["import".as_ref(), path.as_os_str()]);
    assert!(said.starts_with("3 places imported"), "{said}");
    assert!(said.contains("2 rows of"), "{said}");
    assert!(said.contains("line 2: 3 tab-separated fields"), "{said}");
    assert!(said.contains("line 4: longitude"), "{said}");
    assert!(places(&data, "Kafr Khamis").is_some());
    assert_eq!(places(&data, "Kafr Baid"), None);
}
