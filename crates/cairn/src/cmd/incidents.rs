//! `cairn incidents`: the incidents the archive's photographs form, linked again with
//! `--rebuild`.

use std::path::Path;
use std::process::ExitCode;

use anyhow::{Context, Result};
use cairn_ingest::escaped;
use cairn_store::{Archive, StoredIncident};
use serde_json::Value;

use super::wait::{WaitArgs, open_writer};
use crate::out::outln;

#[derive(clap::Args, Debug)]
pub struct IncidentsArgs {
    /// Link every caption again and store the incidents before listing them.
    #[arg(long)]
    rebuild: bool,
    /// Also list photographs that form an incident alone.
    #[arg(long)]
    all: bool,
    /// As JSON: {"total": N, "incidents": [...]}.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    wait: WaitArgs,
}

/// Runs `cairn incidents` on the archive in `data`.
pub fn run(data: &Path, args: IncidentsArgs) -> Result<ExitCode> {
    if args.rebuild {
        let mut w = open_writer(data, &args.wait)?;
        let all = w.rebuild_incidents()?;
        let linked = all.iter().filter(|i| i.captions.len() > 1).count();
        eprintln!(
            "linked {} photographs into {linked} incidents of two or more",
            all.iter().map(|i| i.captions.len()).sum::<usize>()
        );
    }
    let a = Archive::open_reader(data)?;
    let stored = a.incidents(if args.all { 1 } else { 2 })?;
    let parsed: Vec<Value> = stored.iter().map(parse).collect::<Result<_>>()?;
    if args.json {
        let out = serde_json::json!({"total": parsed.len(), "incidents": parsed});
        outln!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(ExitCode::SUCCESS);
    }
    outln!("{} incidents", parsed.len());
    for v in &parsed {
        outln!("{}", line(v));
    }
    Ok(ExitCode::SUCCESS)
}

fn parse(s: &StoredIncident) -> Result<Value> {
    serde_json::from_str(&s.json)
        .with_context(|| format!("incident {} is stored as JSON that does not read", s.id))
}

/// One incident in a line: id, date, place, photographs, killed, grade.
fn line(v: &Value) -> String {
    let date = match (v["date"]["from"].as_str(), v["date"]["to"].as_str()) {
        (Some(a), Some(b)) if a != b => format!("{a}/{b}"),
        (Some(a), _) => a.to_owned(),
        _ => "-".to_owned(),
    };
    let place = v["location"]["name"].as_str().unwrap_or("-");
    let captions: Vec<String> = v["captions"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|c| format!("#{c}"))
        .collect();
    let killed = match &v["killed"] {
        Value::Null => String::new(),
        k => format!(" killed {}/{}/{}", k["low"], k["best"], k["high"]),
    };
    format!(
        "incident #{} {date} {} [{}]{killed} {}",
        v["id"],
        escaped(place),
        captions.join(" "),
        v["grade"].as_str().unwrap_or("")
    )
}
