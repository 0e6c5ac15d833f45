//! How a writer meets another one at work on the archive: the `--wait` flag every
//! writing subcommand takes, and opening the archive for writing under it.

use std::path::Path;
use std::time::Duration;

use anyhow::{Result, bail};
use cairn_store::{Archive, ArchiveWriter};

/// How a writer meets another one at work on the archive.
#[derive(clap::Args, Debug, Default, Clone, Copy)]
pub struct WaitArgs {
    /// When another cairn process is writing to the archive, wait for it to finish (up
    /// to SECONDS, 600 when not given) instead of failing at once.
    #[arg(long, value_name = "SECONDS", num_args = 0..=1, default_missing_value = "600")]
    wait: Option<f64>,
}

impl WaitArgs {
    fn duration(&self) -> Result<Duration> {
        match self.wait {
            None => Ok(Duration::ZERO),
            Some(s) if (0.0..=86_400.0).contains(&s) => Ok(Duration::from_secs_f64(s)),
            Some(_) => bail!("--wait takes seconds between 0 and 86400"),
        }
    }
}

/// Opens the archive for writing, waiting for another writer's turn to end when asked.
pub fn open_writer(data: &Path, wait: &WaitArgs) -> Result<ArchiveWriter> {
    let wait = wait.duration()?;
    match Archive::open_writer(data) {
        Err(cairn_store::Error::Busy(_)) if !wait.is_zero() => {
            eprintln!(
                "another cairn process is writing to {}; waiting up to {} s for it to finish",
                data.display(),
                wait.as_secs_f64()
            );
            Ok(Archive::open_writer_waiting(data, wait)?)
        }
        other => Ok(other?),
    }
}
