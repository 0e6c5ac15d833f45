//! `cairn correct`: one save of corrections to a caption's record from the command
//! line, as an editor makes it on the page, kept as revisions in the caption's history.

use std::path::Path;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use cairn_ingest::escaped;
use cairn_store::{Accounts, Edit, Role, Saved};

use super::wait::{WaitArgs, open_writer};
use crate::out::outln;

#[derive(clap::Args, Debug)]
pub struct CorrectArgs {
    /// Caption id.
    id: i64,
    /// The account the change is made as (an editor or admin).
    #[arg(long = "as", value_name = "USER")]
    user: String,
    /// A record field (or one member of one, `casualties.killed`) and its new value as
    /// JSON: `--set 'persons=["A Name"]'`. Repeatable.
    #[arg(long = "set", value_name = "FIELD=JSON")]
    set: Vec<String>,
    /// Mark the record verified (true) or take the mark away (false).
    #[arg(long)]
    verified: Option<bool>,
    /// Mark the record disputed (true) or take the mark away (false).
    #[arg(long)]
    disputed: Option<bool>,
    /// Why.
    #[arg(long)]
    note: Option<String>,
    /// The caption's version the change is made against (refused when another change
    /// came since); the current one when not given.
    #[arg(long)]
    version: Option<u64>,
    #[command(flatten)]
    wait: WaitArgs,
}

fn parse_set(s: &str) -> Result<(String, serde_json::Value)> {
    let Some((field, value)) = s.split_once('=') else {
        bail!("--set {}: expected FIELD=JSON", escaped(s));
    };
    let value = serde_json::from_str(value)
        .with_context(|| format!("--set {}: the value is not JSON", escaped(field)))?;
    Ok((field.to_string(), value))
}

/// Runs `cairn correct` on the archive in `data`.
pub fn run(data: &Path, args: CorrectArgs) -> Result<ExitCode> {
    let edit = Edit {
        fields: args
            .set
            .iter()
            .map(|s| parse_set(s))
            .collect::<Result<_>>()?,
        verified: args.verified,
        disputed: args.disputed,
        note: args.note.clone(),
    };
    let acc = Accounts::open(data)?;
    match acc.role(&args.user)? {
        Some(r) if r >= Role::Editor => {}
        Some(_) => bail!(
            "{} is a reader: only editors and admins correct",
            escaped(&args.user)
        ),
        None => bail!(
            "there is no user {} (add one with `cairn users add`)",
            escaped(&args.user)
        ),
    }
    let mut w = open_writer(data, &args.wait)?;
    let version = match args.version {
        Some(v) => v,
        None => w.reader().review(args.id)?.version,
    };
    match w.save_edit(args.id, &edit, &args.user, version)? {
        Saved::Done(r) => {
            outln!("{}", serde_json::to_string(&r)?);
            eprintln!("caption {} is at version {}", args.id, r.version);
            Ok(ExitCode::SUCCESS)
        }
        Saved::Stale(r) => {
            outln!("{}", serde_json::to_string(&r)?);
            bail!(
                "caption {} changed since version {version} (it is at version {}); nothing was saved: look at it again and retry",
                args.id,
                r.version
            )
        }
    }
}
