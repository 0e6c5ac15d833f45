//! `cairn split` and `cairn merge`: a caption's variants split into two captions, or
//! two captions merged, by an editor; each kept in both captions' histories, and held
//! by every later ingest.

use std::path::Path;
use std::process::ExitCode;

use anyhow::{Result, bail};
use cairn_ingest::escaped;
use cairn_store::{Accounts, Regroup, Regrouped, Role};

use super::wait::{WaitArgs, open_writer};
use crate::out::outln;

/// Who splits or merges, why, and against which version.
#[derive(clap::Args, Debug)]
pub struct Who {
    /// The account the change is made as (an editor or admin).
    #[arg(long = "as", value_name = "USER")]
    user: String,
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

#[derive(clap::Args, Debug)]
pub struct SplitArgs {
    /// Caption id.
    id: i64,
    /// The variants (ids, as `show` lists them) that become a caption of their own.
    #[arg(long, value_delimiter = ',', required = true, value_name = "IDS")]
    variants: Vec<i64>,
    #[command(flatten)]
    who: Who,
}

#[derive(clap::Args, Debug)]
pub struct MergeArgs {
    /// The caption that stays.
    id: i64,
    /// The caption whose variants join it; it is removed.
    other: i64,
    #[command(flatten)]
    who: Who,
}

fn editor(data: &Path, user: &str) -> Result<()> {
    match Accounts::open(data)?.role(user)? {
        Some(r) if r >= Role::Editor => Ok(()),
        Some(_) => bail!(
            "{} is a reader: only editors and admins split and merge captions",
            escaped(user)
        ),
        None => bail!(
            "there is no user {} (add one with `cairn users add`)",
            escaped(user)
        ),
    }
}

fn report(id: i64, version: Option<u64>, done: Regrouped, what: &str) -> Result<ExitCode> {
    match done {
        Regrouped::Done {
            caption,
            other,
            review,
        } => {
            outln!(
                "{}",
                serde_json::json!({"caption": caption, "other": other, "review": review})
            );
            eprintln!("{what}: caption {caption} and caption {other}");
            Ok(ExitCode::SUCCESS)
        }
        Regrouped::Stale(r) => bail!(
            "caption {id} changed since version {} (it is at version {}); nothing was changed",
            version.unwrap_or_default(),
            r.version
        ),
    }
}

/// Runs `cairn split` on the archive in `data`.
pub fn run_split(data: &Path, args: SplitArgs) -> Result<ExitCode> {
    let w = &args.who;
    editor(data, &w.user)?;
    let mut writer = open_writer(data, &w.wait)?;
    let who = Regroup {
        user: &w.user,
        note: w.note.as_deref(),
        expected: w.version,
    };
    let done = writer.split_caption(args.id, &args.variants, who)?;
    report(args.id, w.version, done, "split")
}

/// Runs `cairn merge` on the archive in `data`.
pub fn run_merge(data: &Path, args: MergeArgs) -> Result<ExitCode> {
    let w = &args.who;
    editor(data, &w.user)?;
    let mut writer = open_writer(data, &w.wait)?;
    let who = Regroup {
        user: &w.user,
        note: w.note.as_deref(),
        expected: w.version,
    };
    let done = writer.merge_captions(args.id, args.other, who)?;
    report(args.id, w.version, done, "merged")
}
