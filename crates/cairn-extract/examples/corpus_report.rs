//! Runs the extractor over a CSV of real captions (default:
//! `../shared/corpora/pulitzer_winner_data.csv`, column `Caption`), HTML stripped, and
//! reports how many got a credit, a date, a location; `--misses FIELD` prints the
//! captions that missed FIELD (credit, date, location, agency: the Organization column) so their causes can be read.
//!
//! `cargo run --release -p cairn-extract --example corpus_report [-- CSV] [--misses date]`

use std::sync::LazyLock;

use cairn_extract::Extractor;
use regex::Regex;

static TAG: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"<[^>]*>").unwrap());

/// Strips tags and decodes character references, as a reader of the page would see it.
fn strip_html(s: &str) -> String {
    let no_tags = TAG.replace_all(s, "");
    html_escape::decode_html_entities(&no_tags).into_owned()
}

/// The CSV's Organization column folded for comparison: its trailing "- date" cut, a
/// leading "the" dropped, the AP's two spellings made one.
fn organization_name(s: &str) -> String {
    let s = s
        .split(" -")
        .next()
        .unwrap_or("")
        .trim()
        .trim_end_matches('-')
        .trim();
    let l = s.to_lowercase();
    let l = l.strip_prefix("the ").unwrap_or(&l);
    match l {
        "associated press" | "ap photo" | "ap" => "ap".to_string(),
        _ => l.to_string(),
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/corpora/pulitzer_winner_data.csv"
    )
    .to_string();
    let mut misses: Option<String> = None;
    let mut i = 0;
    while i < args.len() {
        if args[i] == "--misses" {
            misses = args.get(i + 1).cloned();
            i += 2;
        } else {
            path = args[i].clone();
            i += 1;
        }
    }
    let mut rdr = csv::Reader::from_path(&path).map_err(|e| format!("{path}: {e}"))?;
    let headers = rdr.headers()?.clone();
    let col = headers
        .iter()
        .position(|h| h == "Caption")
        .ok_or("no Caption column")?;
    let pcol = headers.iter().position(|h| h == "Photographer");
    let ocol = headers.iter().position(|h| h == "Organization");
    let (mut org_named, mut org_agrees) = (0u32, 0u32);
    let ex = Extractor::bundled();
    let (mut n, mut credit, mut date, mut location, mut photographer, mut photographer_agrees) =
        (0, 0, 0, 0, 0, 0);
    let mut empty = 0;
    let start = std::time::Instant::now();
    for row in rdr.records() {
        let row = row?;
        let text = strip_html(row.get(col).unwrap_or(""));
        if text.trim().is_empty() || text.trim() == "N/A" {
            empty += 1;
            continue;
        }
        n += 1;
        let r = ex.extract(&text);
        let has = |b: bool, c: &mut u32| {
            if b {
                *c += 1
            }
        };
        has(r.credit.is_some(), &mut credit);
        has(r.date.is_some(), &mut date);
        has(r.location.is_some(), &mut location);
        let names: Vec<String> = r
            .credit
            .as_ref()
            .map(|c| c.photographers.clone())
            .unwrap_or_default();
        has(!names.is_empty(), &mut photographer);
        if let Some(expected) = pcol.and_then(|p| row.get(p)) {
            if names
                .iter()
                .any(|nm| expected.contains(nm.as_str()) || nm.contains(expected))
            {
                photographer_agrees += 1;
            }
        }
        let mut org_missed = None;
        if let Some(expected) = ocol.and_then(|o| row.get(o)).map(organization_name) {
            if !expected.is_empty() {
                org_named += 1;
                let credit = r.credit.as_ref();
                let found = [
                    credit.and_then(|c| c.agency.as_deref()),
                    credit.and_then(|c| c.distributor.as_deref()),
                ];
                if found
                    .iter()
                    .flatten()
                    .any(|a| organization_name(a) == expected)
                {
                    org_agrees += 1;
                } else {
                    org_missed = Some(format!("{expected} (got {found:?})"));
                }
            }
        }
        let missed = match misses.as_deref() {
            Some("credit") => r.credit.is_none(),
            Some("date") => r.date.is_none(),
            Some("location") => r.location.is_none(),
            _ => false,
        };
        if missed {
            println!("MISS: {text}\n");
        }
        if let (Some("agency"), Some(want)) = (misses.as_deref(), &org_missed) {
            println!("MISS: want {want}: {text}\n");
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let pct = |x: u32| 100.0 * f64::from(x) / f64::from(n.max(1));
    println!("{path}");
    println!("captions        {n} (+{empty} empty or N/A rows skipped)");
    println!("credit          {credit} ({:.1}%)", pct(credit));
    println!(
        "  photographer  {photographer} ({:.1}%), agreeing with the Photographer column: {photographer_agrees} ({:.1}%)",
        pct(photographer),
        pct(photographer_agrees)
    );
    println!(
        "  agency        agreeing with the Organization column: {org_agrees} of the {org_named} rows that fill it ({:.1}%)",
        100.0 * f64::from(org_agrees) / f64::from(org_named.max(1))
    );
    println!("date            {date} ({:.1}%)", pct(date));
    println!("location        {location} ({:.1}%)", pct(location));
    println!(
        "time            {:.2} s ({:.0} captions/s)",
        secs,
        f64::from(n) / secs.max(1e-9)
    );
    Ok(())
}
