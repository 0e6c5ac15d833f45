//! What an ingest or import shows while it runs (a progress bar on a terminal, warnings
//! and errors on stderr) and the summary and exit code at its end.

use std::io::IsTerminal;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::Result;
use cairn_pipeline::{Event, Report};
use indicatif::{ProgressBar, ProgressStyle};

use super::EXIT_PARTIAL;
use crate::out::outln;

/// Runs an ingest or import with a progress bar on a terminal, warnings and errors on
/// stderr, and the summary at the end.
pub fn with_progress(
    done: &str,
    json: bool,
    run: impl FnOnce(&mut dyn FnMut(Event)) -> cairn_pipeline::Result<Report>,
) -> Result<ExitCode> {
    let bar = progress_bar();
    let mut captions = 0u64;
    let mut read_bytes = 0u64;
    let started = Instant::now();
    let report = run(&mut |e| match e {
        Event::Planned { bytes, .. } => bar.set_length(bytes),
        Event::Read { bytes, captions: c } => {
            bar.inc(bytes);
            read_bytes += bytes;
            captions += c;
            let secs = started.elapsed().as_secs_f64().max(1e-3);
            bar.set_message(format!(
                "{captions} captions, {:.0}/s",
                captions as f64 / secs
            ));
        }
        // Names and URIs come from the inputs: what a terminal would act on is escaped.
        Event::Warning { source, message } => bar.suspend(|| {
            eprintln!(
                "warning: {}: {}",
                cairn_ingest::quoted(&source),
                cairn_ingest::quoted(&message)
            )
        }),
        Event::Skipped { message } => {
            bar.suspend(|| eprintln!("warning: {}", cairn_ingest::quoted(&message)))
        }
        Event::Rejected { message } => {
            bar.suspend(|| eprintln!("error: {}", cairn_ingest::quoted(&message)))
        }
        Event::Committed(_) => {}
    });
    bar.finish_and_clear();
    let report = report?;
    if json {
        outln!("{}", serde_json::to_string_pretty(&report)?);
    }
    // From listing the inputs to the last index merge (the gazetteer was loaded before).
    summarize(done, &report, started.elapsed().as_secs_f64(), read_bytes);
    Ok(exit_code(&report))
}

/// A bar on a terminal; nothing when stderr goes elsewhere.
fn progress_bar() -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let b = ProgressBar::new(0);
    b.set_style(
        ProgressStyle::with_template(
            "{spinner} [{elapsed_precise}] {bar:30} {bytes}/{total_bytes} {bytes_per_sec} {msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    b.enable_steady_tick(Duration::from_millis(200));
    b
}

/// The one-line summary on stderr.
fn summarize(done: &str, report: &Report, secs: f64, read_bytes: u64) {
    eprintln!(
        "{done} {} sources ({} already stored), {} caption occurrences, {} new captions; {} rejected{}, {} warnings; {:.1} s, {:.1} MB of new sources read ({:.1} MB/s)",
        report.sources_added,
        report.sources_skipped,
        report.occurrences_added,
        report.captions_added,
        report.rejected,
        match report.rejected_before {
            0 => String::new(),
            n => format!(" ({n} rejected by earlier runs, skipped)"),
        },
        report.warnings,
        secs,
        read_bytes as f64 / 1e6,
        read_bytes as f64 / 1e6 / secs.max(1e-3)
    );
}

/// Success when nothing was rejected, partial when something was also accepted.
fn exit_code(report: &Report) -> ExitCode {
    let accepted = report.sources_added + report.sources_skipped;
    if report.rejected == 0 {
        ExitCode::SUCCESS
    } else if accepted > 0 {
        ExitCode::from(EXIT_PARTIAL)
    } else {
        ExitCode::FAILURE
    }
}
