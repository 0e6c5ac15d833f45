//! `cairn show`: one caption with all its variants, occurrences and sources.

use std::path::Path;
use std::process::ExitCode;

use anyhow::{Result, bail};
use cairn_ingest::escaped;
use cairn_store::Archive;

use crate::out::outln;

#[derive(clap::Args, Debug)]
pub struct ShowArgs {
    /// Caption id.
    id: i64,
    /// As JSON.
    #[arg(long)]
    json: bool,
}

/// Runs `cairn show` on the archive in `data`.
pub fn run(data: &Path, args: ShowArgs) -> Result<ExitCode> {
    let id = args.id;
    let a = Archive::open_reader(data)?;
    let Some(c) = a.caption(id)? else {
        bail!("no caption {id} in {}", data.display())
    };
    let incident = a.incident_of(id)?.filter(|i| i.size > 1);
    if args.json {
        let mut v = serde_json::to_value(&c)?;
        if let (Some(i), Some(o)) = (&incident, v.as_object_mut()) {
            o.insert(
                "incident".into(),
                serde_json::json!({"id": i.id, "photographs": i.size}),
            );
        }
        outln!("{}", serde_json::to_string_pretty(&v)?);
        return Ok(ExitCode::SUCCESS);
    }
    outln!("caption #{}\n  {}\n", c.id, escaped(&c.text));
    if let Some(i) = &incident {
        outln!(
            "incident #{} ({} photographs; cairn incidents)\n",
            i.id,
            i.size
        );
    }
    for v in &c.variants {
        outln!("variant #{} ({} occurrences)", v.id, v.occurrences.len());
        if v.text != c.text {
            outln!("  {}", escaped(&v.text));
        }
        for o in &v.occurrences {
            outln!(
                "  - {} [{}..{}] sha256 {}",
                escaped(&o.source.uri),
                o.span.start,
                o.span.end,
                escaped(&o.source.sha256)
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}
