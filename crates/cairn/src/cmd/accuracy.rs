//! `cairn accuracy`: how far the current extractor agrees, field by field, with gold
//! lines: a file in the corpora's annotation format, or the archive's own verified and
//! corrected records.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use cairn_export::gold::{FIELDS, gold_line, score};
use cairn_extract::Extractor;
use cairn_gazetteer::Gazetteer;
use cairn_ingest::escaped;
use cairn_store::{Archive, SearchRequest};
use rayon::prelude::*;
use serde_json::Value;

use crate::out::outln;

#[derive(clap::Args, Debug)]
pub struct AccuracyArgs {
    /// Gold lines in the corpora's annotation format (JSON Lines); by default the
    /// archive's verified and corrected records (`cairn export --format gold`).
    #[arg(long, value_name = "FILE")]
    gold: Option<PathBuf>,
    /// Also print every disagreement: the line, the field, what the extractor read and
    /// what the gold line says.
    #[arg(long)]
    misses: bool,
    /// As JSON.
    #[arg(long)]
    json: bool,
}

/// One gold line and where it comes from, for the misses.
struct Gold {
    name: String,
    line: Value,
}

fn from_file(path: &Path) -> Result<Vec<Gold>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("reading gold lines from {}", path.display()))?;
    let mut out = Vec::new();
    for (n, l) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let line: Value = serde_json::from_str(l)
            .with_context(|| format!("{} line {}: not a JSON object", path.display(), n + 1))?;
        if !line["text"].is_string() {
            bail!("{} line {}: no \"text\" string", path.display(), n + 1);
        }
        out.push(Gold {
            name: format!("line {}", n + 1),
            line,
        });
    }
    Ok(out)
}

fn from_archive(data: &Path) -> Result<Vec<Gold>> {
    let a = Archive::open_reader(data)?;
    let mut out = Vec::new();
    a.export(&SearchRequest::default(), |c| {
        if let Some(line) = gold_line(c) {
            out.push(Gold {
                name: format!("caption {}", c.id),
                line: serde_json::to_value(line).unwrap_or_default(),
            });
        }
        Ok::<(), cairn_store::Error>(())
    })?;
    Ok(out)
}

/// Per field: lines scored and lines the extractor agrees with.
type Table = BTreeMap<&'static str, (u64, u64)>;

/// Runs `cairn accuracy`.
pub fn run(data: &Path, args: AccuracyArgs) -> Result<ExitCode> {
    let golds = match &args.gold {
        Some(path) => from_file(path)?,
        None => from_archive(data)?,
    };
    let extractor = Extractor::new(Gazetteer::for_archive(data)?);
    let verdicts: Vec<_> = golds
        .par_iter()
        .map(|g| {
            let text = g.line["text"].as_str().unwrap_or_default();
            let folded = text.split_whitespace().collect::<Vec<_>>().join(" ");
            score(&g.line, &extractor.extract(&folded))
        })
        .collect();
    let mut table = Table::new();
    for v in verdicts.iter().flatten() {
        let e = table.entry(v.field).or_default();
        e.0 += 1;
        e.1 += u64::from(v.right);
    }
    if args.json {
        let fields: BTreeMap<_, _> = table
            .iter()
            .map(|(f, (n, right))| (*f, serde_json::json!({"scored": n, "agree": right})))
            .collect();
        let misses: Vec<_> = golds
            .iter()
            .zip(&verdicts)
            .flat_map(|(g, vs)| vs.iter().filter(|v| !v.right).map(move |v| (g, v)))
            .map(|(g, v)| serde_json::json!({"gold": g.name, "field": v.field, "got": v.got, "want": v.want}))
            .collect();
        let report = serde_json::json!({"lines": golds.len(), "fields": fields, "misses": misses});
        outln!("{}", serde_json::to_string_pretty(&report)?);
        return Ok(ExitCode::SUCCESS);
    }
    print_table(golds.len(), &table)?;
    if args.misses {
        for (g, vs) in golds.iter().zip(&verdicts) {
            for v in vs.iter().filter(|v| !v.right) {
                outln!(
                    "{}: {}: extracted {}, gold {}",
                    g.name,
                    v.field,
                    escaped(&v.got),
                    escaped(&v.want)
                );
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn print_table(lines: usize, table: &Table) -> Result<()> {
    outln!("{lines} gold lines");
    let (mut all, mut right) = (0, 0);
    for field in FIELDS {
        let Some(&(n, r)) = table.get(field) else {
            continue;
        };
        all += n;
        right += r;
        outln!("{field:<14} {r:>6} of {n:<6} {:>6.1} %", percent(r, n));
    }
    if all > 0 {
        outln!(
            "{:<14} {right:>6} of {all:<6} {:>6.1} %",
            "all fields",
            percent(right, all)
        );
    }
    Ok(())
}

fn percent(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        return 0.0;
    }
    100.0 * part as f64 / whole as f64
}
