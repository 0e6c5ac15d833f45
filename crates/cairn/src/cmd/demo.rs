//! `cairn demo`: a sample archive built from a generated corpus, then served.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Result;
use cairn_pipeline::Options;

use super::generate::generate_pages;
use super::ingest::ingest;
use super::serve::serve;
use super::wait::WaitArgs;

#[derive(clap::Args, Debug)]
pub struct DemoArgs {
    /// Pages in the sample corpus.
    #[arg(long, default_value_t = 300)]
    pages: u64,
    /// Address to serve on.
    #[arg(long, default_value = "127.0.0.1:7878")]
    addr: String,
    /// Build the archive and exit without serving.
    #[arg(long)]
    no_serve: bool,
}

/// Runs `cairn demo` in `data` (`cairn-demo` when `--data` is not given).
pub fn run(data: Option<&Path>, args: DemoArgs) -> Result<ExitCode> {
    let pages = args.pages;
    let data = data
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("cairn-demo"));
    let corpus = data.join("sample-corpus");
    eprintln!(
        "generating {pages} synthetic pages (agency \"Sample Wire\") in {}",
        corpus.display()
    );
    generate_pages(pages, 1, "text", false, &corpus)?;
    let code = ingest(
        &data,
        &[corpus],
        false,
        &Options::default(),
        &WaitArgs::default(),
    )?;
    if code != ExitCode::SUCCESS {
        return Ok(code);
    }
    if args.no_serve {
        return Ok(ExitCode::SUCCESS);
    }
    serve(&data, &args.addr, &cairn_server::ServeOptions::default())
}
