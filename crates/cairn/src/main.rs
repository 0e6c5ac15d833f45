//! `cairn`: the command-line interface. The only crate that prints, shows progress bars
//! and uses `anyhow`. Each subcommand lives in its own module under `cmd`, its flags
//! beside its code; this file only names them and dispatches.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::{Parser, Subcommand};

mod cmd;
mod out;

#[derive(Parser, Debug)]
#[command(
    name = "cairn",
    version,
    about = "A deduplicated, searchable archive of news photo captions"
)]
struct Cli {
    /// The archive directory.
    #[arg(long, global = true, env = "CAIRN_DATA", value_name = "DIR")]
    data: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
#[allow(clippy::large_enum_variant)] // parsed once per process
enum Command {
    /// Ingest sources: files, directories (recursively), `-` for stdin. Formats are
    /// recognised by content: plain text (captions separated by blank lines), HTML
    /// pages, WARC files, JSON Lines, JPEG/TIFF/PNG/WebP with IPTC or XMP captions; any
    /// of them gzip- or zstd-compressed.
    Ingest(cmd::ingest::IngestArgs),
    /// Build or extend the archive from a cluster job's Parquet output (the Spark job
    /// in cairn-py/spark: DIR/sources, occurrences, records, clusters). Records and
    /// clusters are taken as the job computed them; bytes are checked against their
    /// sha256 and spans against their sources.
    Import(cmd::import::ImportArgs),
    /// Print counts of what the archive holds.
    Stats(cmd::stats::StatsArgs),
    /// Search captions: full text, filters, facets.
    Search(cmd::search::SearchArgs),
    /// Export the captions a search matches (all of them for "") as JSON Lines, CSV,
    /// GeoJSON, ACLED-style CSV, one IPTC XMP sidecar per caption, or gold lines of the
    /// verified and corrected ones.
    Export(cmd::export::ExportArgs),
    /// Show what the gazetteer resolves a place name to.
    Places(cmd::places::PlacesArgs),
    /// List incidents: photographs of one moment in one place, with their claims,
    /// tolls and the reasons of each link (`--rebuild` links every caption again).
    Incidents(cmd::incidents::IncidentsArgs),
    /// Show one caption with all its occurrences and sources.
    Show(cmd::show::ShowArgs),
    /// The archive's own gazetteer.
    Gazetteer {
        #[command(subcommand)]
        action: cmd::gazetteer::Action,
    },
    /// Extract records from captions separated by blank lines (stdin when no file),
    /// against the archive's gazetteer when it has one of its own.
    Extract(cmd::extract::ExtractArgs),
    /// Write a synthetic corpus of gallery pages (deterministic for a seed).
    Generate(cmd::generate::GenerateArgs),
    /// Cluster captions (separated by blank lines; stdin when no file) without an
    /// archive: one JSON object per caption, in order: {"cluster": N, "canonical": bool}.
    Dedup(cmd::dedup::DedupArgs),
    /// Build a sample archive from a generated corpus, then serve it.
    Demo(cmd::demo::DemoArgs),
    /// Serve the JSON API.
    Serve(cmd::serve::ServeArgs),
    /// Rebuild the search index from the database (beside the one in use, which
    /// searches keep answering from until the new one replaces it whole).
    Reindex(cmd::reindex::ReindexArgs),
    /// Merge the search index into one segment (ingest does this itself when the
    /// index has many segments or many replaced entries).
    Compact(cmd::compact::CompactArgs),
    /// Verify the archive; exits non-zero when something is lost or inconsistent (a
    /// search index behind the database, during an ingest or after one was stopped,
    /// is only reported: the next writer catches it up).
    Check(cmd::check::CheckArgs),
    /// The archive's users: readers, editors (who correct records) and admins.
    Users {
        #[command(subcommand)]
        action: cmd::users::UsersAction,
    },
    /// API tokens of users: made, listed, revoked (kept only as hashes).
    Tokens {
        #[command(subcommand)]
        action: cmd::users::TokensAction,
    },
    /// Correct a caption's record, mark it verified or disputed, or add a note; each
    /// change is kept as a revision.
    Correct(cmd::correct::CorrectArgs),
    /// List the changes people made, oldest first.
    Audit(cmd::audit::AuditArgs),
    /// Read every caption again with the current extractor, keeping every correction,
    /// and report per field how many records changed.
    Reextract(cmd::reextract::ReextractArgs),
    /// Make some of a caption's variants a caption of their own (they were not copies
    /// of one photograph); later ingests keep them apart.
    Split(cmd::regroup::SplitArgs),
    /// Merge a caption into another (they are copies of one photograph); later ingests
    /// keep them together.
    Merge(cmd::regroup::MergeArgs),
    /// How far the current extractor agrees, field by field, with gold lines: the
    /// archive's verified and corrected records, or a file in the annotation format.
    Accuracy(cmd::accuracy::AccuracyArgs),
    /// Copy the archive to a new directory while it is in use: its database (sources'
    /// bytes, captions, corrections, accounts) and its own gazetteer.
    Backup(cmd::backup::BackupArgs),
    /// Make an archive from a backup, rebuilding its search index and checking it.
    Restore(cmd::backup::RestoreArgs),
}

// Ingest allocates many small strings on every core at once (records, parsed pages),
// where glibc's allocator spent a large share of the time in malloc and free.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let serving = matches!(cli.command, Command::Serve(_) | Command::Demo(_));
    init_logging(if serving { "info" } else { "warn" });
    match run(cli) {
        Ok(code) => code,
        // The reader of the output went away (`| head`): nothing more to say.
        Err(e) if out::closed_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// Prints the `tracing` events of the libraries (the server's above all) on stderr, at
/// the level `RUST_LOG` names, else at `default`. What a command reports to its user is
/// not logged: it is printed.
fn init_logging(default: &str) {
    use std::io::IsTerminal;
    use tracing_subscriber::filter::Targets;
    use tracing_subscriber::prelude::*;
    // `RUST_LOG` as `level` or `target=level,...`; one that does not read is passed over.
    let filter = std::env::var("RUST_LOG")
        .ok()
        .and_then(|v| v.parse::<Targets>().ok())
        .unwrap_or_else(|| default.parse().unwrap_or_default());
    let fmt = tracing_subscriber::fmt::layer()
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal());
    // Only fails when a logger is installed already.
    let _ = tracing_subscriber::registry()
        .with(fmt.with_filter(filter))
        .try_init();
}

fn run(cli: Cli) -> Result<ExitCode> {
    let data = cli
        .data
        .clone()
        .unwrap_or_else(|| PathBuf::from("cairn-data"));
    match cli.command {
        Command::Ingest(args) => cmd::ingest::run(&data, args),
        Command::Import(args) => cmd::import::run(&data, args),
        Command::Stats(args) => cmd::stats::run(&data, args),
        Command::Search(args) => cmd::search::run(&data, args),
        Command::Export(args) => cmd::export::run(&data, args),
        Command::Places(args) => cmd::places::run(&data, args),
        Command::Incidents(args) => cmd::incidents::run(&data, args),
        Command::Show(args) => cmd::show::run(&data, args),
        Command::Gazetteer { action } => cmd::gazetteer::run(&data, action),
        Command::Extract(args) => cmd::extract::run(&data, args),
        Command::Generate(args) => cmd::generate::run(args),
        Command::Dedup(args) => cmd::dedup::run(args),
        Command::Demo(args) => cmd::demo::run(cli.data.as_deref(), args),
        Command::Serve(args) => cmd::serve::run(&data, args),
        Command::Reindex(args) => cmd::reindex::run(&data, args),
        Command::Compact(args) => cmd::compact::run(&data, args),
        Command::Check(args) => cmd::check::run(&data, args),
        Command::Users { action } => cmd::users::run_users(&data, action),
        Command::Tokens { action } => cmd::users::run_tokens(&data, action),
        Command::Correct(args) => cmd::correct::run(&data, args),
        Command::Audit(args) => cmd::audit::run(&data, args),
        Command::Reextract(args) => cmd::reextract::run(&data, args),
        Command::Split(args) => cmd::regroup::run_split(&data, args),
        Command::Merge(args) => cmd::regroup::run_merge(&data, args),
        Command::Accuracy(args) => cmd::accuracy::run(&data, args),
        Command::Backup(args) => cmd::backup::run_backup(&data, args),
        Command::Restore(args) => cmd::backup::run_restore(args),
    }
}
