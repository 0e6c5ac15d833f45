//! `cairn audit`: what people changed, oldest first, one line per changed field.

use std::path::Path;
use std::process::ExitCode;

use anyhow::Result;
use cairn_ingest::escaped;
use cairn_store::Archive;

use crate::out::outln;

#[derive(clap::Args, Debug)]
pub struct AuditArgs {
    /// Only this user's changes.
    #[arg(long)]
    user: Option<String>,
    /// Only changes at or after this day (YYYY-MM-DD) or time (RFC 3339).
    #[arg(long, value_name = "DATE")]
    since: Option<String>,
    /// Only this caption's changes.
    #[arg(long)]
    caption: Option<i64>,
    /// As JSON Lines.
    #[arg(long)]
    json: bool,
}

/// Runs `cairn audit` on the archive in `data`.
pub fn run(data: &Path, args: AuditArgs) -> Result<ExitCode> {
    let a = Archive::open_reader(data)?;
    let revisions = a.audit(args.user.as_deref(), args.since.as_deref())?;
    for r in revisions
        .iter()
        .filter(|r| args.caption.is_none_or(|c| r.caption_id == c))
    {
        if args.json {
            outln!("{}", serde_json::to_string(r)?);
            continue;
        }
        let note = r
            .note
            .as_deref()
            .map(|n| format!("  ({})", escaped(n)))
            .unwrap_or_default();
        outln!(
            "{}\t{}\t{}\tcaption {} v{}\t{}: {} -> {}{note}",
            r.id,
            r.at,
            escaped(&r.user),
            r.caption_id,
            r.version,
            r.field,
            escaped(&r.old_value.to_string()),
            escaped(&r.new_value.to_string()),
        );
    }
    Ok(ExitCode::SUCCESS)
}
