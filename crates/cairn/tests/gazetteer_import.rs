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
    let (mut out, mut central) = (Vec::new(), Vec::new());
    for (name, data) in members {
        let mut crc = flate2::Crc::new();
        crc.update(data);
        let mut enc = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::fast());
        enc.write_all(data).unwrap();
        let packed = enc.finish().unwrap();
        let offset = out.len() as u32;
        let mut fields = Vec::new();
        fields.extend_from_slice(&[20, 0, 0, 0, 8, 0, 0, 0, 0x21, 0]); // version, flags, deflate, time, date
        fields.extend_from_slice(&crc.sum().to_le_bytes());
        fields.extend_from_slice(&(packed.len() as u32).to_le_bytes());
        fields.extend_from_slice(&(data.len() as u32).to_le_bytes());
        fields.extend_from_slice(&(name.len() as u16).to_le_bytes());
        fields.extend_from_slice(&0u16.to_le_bytes());
        out.extend_from_slice(&0x0403_4b50u32.to_le_bytes());
        out.extend_from_slice(&fields);
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(&packed);
        central.extend_from_slice(&0x0201_4b50u32.to_le_bytes());
        central.extend_from_slice(&[20, 0]);
        central.extend_from_slice(&fields);
        central.extend_from_slice(&[0; 8]); // comment length, disk, attributes
        central.extend_from_slice(&[0; 4]);
        central.extend_from_slice(&offset.to_le_bytes());
        central.extend_from_slice(name.as_bytes());
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
