//! `cairn`: the command-line interface. The only crate that prints, shows progress bars
//! and uses `anyhow`.

use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use cairn_extract::Extractor;
use cairn_gazetteer::Gazetteer;
use cairn_pipeline::{Event, Options};
use cairn_store::{Archive, ArchiveWriter, SearchRequest};
use clap::{Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};

mod gazetteer;
mod out;
use out::outln;

/// Record filters shared by `search` and `export`.
#[derive(clap::Args, Debug, Default)]
struct FilterArgs {
    /// Agency or distributor (repeatable; alternatives).
    #[arg(long)]
    agency: Vec<String>,
    /// Photographer (repeatable).
    #[arg(long)]
    photographer: Vec<String>,
    /// Place: captions located in it or inside it (repeatable).
    #[arg(long)]
    place: Vec<String>,
    /// ISO 3166-1 alpha-2 country code of the location (repeatable).
    #[arg(long)]
    country: Vec<String>,
    /// Earliest date (YYYY, YYYY-MM or YYYY-MM-DD).
    #[arg(long)]
    from: Option<String>,
    /// Latest date (YYYY, YYYY-MM or YYYY-MM-DD).
    #[arg(long)]
    to: Option<String>,
    /// Event type (ACLED sub-event type, repeatable).
    #[arg(long)]
    event: Vec<String>,
    /// Language of the caption, ISO 639-1 (repeatable).
    #[arg(long)]
    lang: Vec<String>,
    /// At least this many killed.
    #[arg(long)]
    killed_min: Option<u32>,
    /// Bounding box west,south,east,north.
    #[arg(
        long,
        value_delimiter = ',',
        num_args = 1,
        allow_negative_numbers = true
    )]
    bbox: Option<Vec<f64>>,
    /// Appeared in a source whose uri starts with this prefix (repeatable).
    #[arg(long, value_name = "URI_PREFIX")]
    source: Vec<String>,
}

impl FilterArgs {
    fn to_filters(&self) -> Result<cairn_store::Filters> {
        // The gazetteer loads only when a place needs resolving.
        let place = if self.place.is_empty() {
            Vec::new()
        } else {
            cairn_server::place_paths(&Gazetteer::bundled(), &self.place)
                .map_err(|e| anyhow::anyhow!("{e} (see `cairn places NAME`)"))?
        };
        let bbox = match &self.bbox {
            Some(v) if v.len() == 4 => Some([v[0], v[1], v[2], v[3]]),
            Some(_) => bail!("--bbox takes west,south,east,north"),
            None => None,
        };
        Ok(cairn_store::Filters {
            agency: self.agency.clone(),
            photographer: self.photographer.clone(),
            place,
            country: self.country.clone(),
            event: self.event.clone(),
            lang: self.lang.clone(),
            from: self.from.clone(),
            to: self.to.clone(),
            killed_min: self.killed_min,
            bbox,
            source: self.source.clone(),
        })
    }
}

/// How a writer meets another one at work on the archive.
#[derive(clap::Args, Debug, Default, Clone, Copy)]
struct WaitArgs {
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
fn open_writer(data: &Path, wait: &WaitArgs) -> Result<ArchiveWriter> {
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

fn parse_sort(s: &str) -> Result<cairn_store::Sort> {
    Ok(match s {
        "relevance" => cairn_store::Sort::Relevance,
        "date" => cairn_store::Sort::DateAsc,
        "-date" | "date-desc" => cairn_store::Sort::DateDesc,
        other => bail!("unknown sort {other:?} (relevance, date, -date)"),
    })
}

/// Exit code when some inputs were ingested and others were rejected.
const EXIT_PARTIAL: u8 = 3;

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
    Ingest {
        /// What to ingest.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// JSON Lines: the field holding the caption.
        #[arg(long, default_value = "caption")]
        text_field: String,
        /// JSON Lines: the field holding the page's uri.
        #[arg(long, default_value = "uri")]
        uri_field: String,
        /// JSON Lines: the field holding the photograph's date (`YYYY-MM-DD`).
        #[arg(long, default_value = "date")]
        date_field: String,
        /// Print the summary as JSON on stdout.
        #[arg(long)]
        json: bool,
        /// Sources per transaction.
        #[arg(long, default_value_t = cairn_pipeline::BATCH_SOURCES, hide = true)]
        batch_sources: usize,
        /// The least input (MiB) for a bulk write (tests lower it to cover that path).
        #[arg(long, default_value_t = cairn_pipeline::BULK_MIN_BYTES >> 20, hide = true)]
        bulk_min_mib: u64,
        /// Captions of a long source extracted and stored at a time (tests lower it).
        #[arg(long, default_value_t = cairn_pipeline::PART_CAPTIONS, hide = true)]
        part_captions: usize,
        /// Near-duplicate threshold (0..1, containment of the identity sentence).
        #[arg(long, default_value_t = cairn_dedup::DEFAULT_THRESHOLD)]
        threshold: f32,
        /// Merge exact duplicates only.
        #[arg(long)]
        exact_only: bool,
        /// Distinct texts an LSH key finds (tests lower it; see cairn_dedup::Eligible).
        #[arg(long, default_value_t = cairn_dedup::MAX_BUCKET as u8, hide = true)]
        max_bucket: u8,
        /// Follow symbolic links inside directories (by default each is passed over
        /// with a warning).
        #[arg(long)]
        follow: bool,
        /// Read again the sources an earlier run rejected (by default they are skipped
        /// with a warning).
        #[arg(long)]
        retry_rejected: bool,
        #[command(flatten)]
        wait: WaitArgs,
    },
    /// Build or extend the archive from a cluster job's Parquet output (the Spark job
    /// in cairn-py/spark: DIR/sources, occurrences, records, clusters). Records and
    /// clusters are taken as the job computed them; bytes are checked against their
    /// sha256 and spans against their sources.
    Import {
        /// The job's output directory.
        dir: PathBuf,
        /// Print the summary as JSON on stdout.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        wait: WaitArgs,
    },
    /// Print counts of what the archive holds.
    Stats {
        /// As JSON.
        #[arg(long)]
        json: bool,
    },
    /// Search captions: full text, filters, facets.
    Search {
        /// The query (tantivy syntax: words, "phrases", AND/OR, -exclusions); "" for all.
        query: String,
        #[command(flatten)]
        filters: FilterArgs,
        /// Hits to show.
        #[arg(long, default_value_t = 10)]
        limit: usize,
        /// Hits to skip.
        #[arg(long, default_value_t = 0)]
        offset: usize,
        /// Order: relevance, date (oldest first) or -date (newest first).
        #[arg(long, default_value = "relevance", allow_hyphen_values = true)]
        sort: String,
        /// Count facets (agency, photographer, country, event type, year, place).
        #[arg(long)]
        facets: bool,
        /// Count matches per day, month or year (chosen by the span of their dates).
        #[arg(long)]
        histogram: bool,
        /// Cluster located matches on a map grid at this zoom (0 = 16 cells across the world).
        #[arg(long, value_name = "ZOOM")]
        geo_zoom: Option<u8>,
        /// As JSON.
        #[arg(long)]
        json: bool,
    },
    /// Export the captions a search matches (all of them for "") as JSON Lines, CSV,
    /// GeoJSON, ACLED-style CSV, or one IPTC XMP sidecar per caption.
    Export {
        /// The query, as for `search`; "" (the default) for everything.
        #[arg(default_value = "")]
        query: String,
        #[command(flatten)]
        filters: FilterArgs,
        /// jsonl, csv, geojson, acled-csv or xmp.
        #[arg(long, default_value = "jsonl")]
        format: String,
        /// Output file (stdout when absent), or the directory for xmp sidecars.
        #[arg(long, short)]
        out: Option<PathBuf>,
    },
    /// Show what the gazetteer resolves a place name to.
    Places {
        /// A place name (any spelling) or id.
        name: String,
        /// As JSON.
        #[arg(long)]
        json: bool,
    },
    /// Show one caption with all its occurrences and sources.
    Show {
        /// Caption id.
        id: i64,
        /// As JSON.
        #[arg(long)]
        json: bool,
    },
    /// The archive's own gazetteer.
    Gazetteer {
        #[command(subcommand)]
        action: gazetteer::Action,
    },
    /// Extract records from captions separated by blank lines (stdin when no file),
    /// against the archive's gazetteer when it has one of its own.
    Extract {
        /// Input files.
        files: Vec<PathBuf>,
    },
    /// Write a synthetic corpus of gallery pages (deterministic for a seed).
    Generate {
        /// Number of pages.
        #[arg(long, default_value_t = 100)]
        pages: u64,
        /// Random seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Instead of pages, write a labelled near-duplicate corpus: OUT/captions.txt
        /// (captions separated by blank lines) and OUT/truth.txt (the photograph of each
        /// caption, one number a line).
        #[arg(long)]
        near_dup: bool,
        /// Photographs in the near-duplicate corpus (each has 1 to 6 variants).
        #[arg(long, default_value_t = 1000)]
        photos: u64,
        /// Page format: text, html, or mixed (every other page HTML).
        #[arg(long, default_value = "text")]
        format: String,
        /// Also write the pages as OUT/pages.warc.gz (one gzip member per record).
        #[arg(long)]
        warc: bool,
        /// Output directory.
        out: PathBuf,
    },
    /// Cluster captions (separated by blank lines; stdin when no file) without an
    /// archive: one JSON object per caption, in order: {"cluster": N, "canonical": bool}.
    Dedup {
        /// Input files.
        files: Vec<PathBuf>,
        /// Near-duplicate threshold (0..1).
        #[arg(long, default_value_t = cairn_dedup::DEFAULT_THRESHOLD)]
        threshold: f32,
    },
    /// Build a sample archive from a generated corpus, then serve it.
    Demo {
        /// Pages in the sample corpus.
        #[arg(long, default_value_t = 300)]
        pages: u64,
        /// Address to serve on.
        #[arg(long, default_value = "127.0.0.1:7878")]
        addr: String,
        /// Build the archive and exit without serving.
        #[arg(long)]
        no_serve: bool,
    },
    /// Serve the JSON API.
    Serve {
        /// Address to listen on (loopback by default; anything else exposes the archive).
        #[arg(long, default_value = "127.0.0.1:7878")]
        addr: String,
        /// Enable `POST /api/ingest`, guarded by the bearer token in $CAIRN_INGEST_TOKEN
        /// (at least 16 characters).
        #[arg(long)]
        allow_ingest: bool,
        /// Seconds a request may take before it is stopped with a `timeout` error.
        #[arg(long, default_value_t = 10.0)]
        timeout: f64,
        /// Connections open at once; more wait to be accepted until one closes.
        #[arg(long, default_value_t = cairn_server::MAX_CONNECTIONS)]
        max_connections: usize,
        /// Seconds a client has to send a request's head, on a new connection or
        /// between requests on a kept-alive one (which is then closed).
        #[arg(long, default_value_t = cairn_server::DEFAULT_HEADER_TIMEOUT.as_secs_f64())]
        header_timeout: f64,
        /// Seconds a connection may stay with no byte moving either way (a client that
        /// stopped reading its answer); at least --timeout.
        #[arg(long, default_value_t = cairn_server::DEFAULT_IDLE_TIMEOUT.as_secs_f64())]
        idle_timeout: f64,
        /// Exports running at once; more wait for a turn within --timeout.
        #[arg(long, default_value_t = cairn_server::MAX_EXPORTS)]
        max_exports: usize,
    },
    /// Rebuild the search index from the database (beside the one in use, which
    /// searches keep answering from until the new one replaces it whole).
    Reindex {
        #[command(flatten)]
        wait: WaitArgs,
    },
    /// Merge the search index into one segment (ingest does this itself when the
    /// index has many segments or many replaced entries).
    Compact {
        #[command(flatten)]
        wait: WaitArgs,
    },
    /// Verify the archive; exits non-zero when something is lost or inconsistent (a
    /// search index behind the database, during an ingest or after one was stopped,
    /// is only reported: the next writer catches it up).
    Check {
        /// Rebuild the search index when it is missing or out of step, and catch it up
        /// when it is behind.
        #[arg(long)]
        repair: bool,
        #[command(flatten)]
        wait: WaitArgs,
        /// As JSON.
        #[arg(long)]
        json: bool,
    },
}

// Ingest allocates many small strings on every core at once (records, parsed pages);
// glibc's allocator spent an eighth of an ingest's time in malloc and free.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = Cli::parse();
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

fn data_dir(cli_data: &Option<PathBuf>) -> PathBuf {
    cli_data
        .clone()
        .unwrap_or_else(|| PathBuf::from("cairn-data"))
}

fn run(cli: Cli) -> Result<ExitCode> {
    let data = data_dir(&cli.data);
    match cli.command {
        Command::Import { dir, json, wait } => import(&data, &dir, json, &wait),
        Command::Ingest {
            paths,
            text_field,
            uri_field,
            date_field,
            json,
            batch_sources,
            bulk_min_mib,
            part_captions,
            threshold,
            exact_only,
            max_bucket,
            follow,
            retry_rejected,
            wait,
        } => {
            if !(0.0..=1.0).contains(&threshold) {
                bail!("--threshold must lie between 0 and 1");
            }
            let opts = Options {
                batch_sources: batch_sources.max(1),
                bulk_min_bytes: bulk_min_mib.saturating_mul(1 << 20),
                part_captions: part_captions.max(1),
                near_threshold: (!exact_only).then_some(threshold),
                max_bucket,
                read: cairn_ingest::ReadOptions {
                    text_field,
                    uri_field: Some(uri_field),
                    date_field: Some(date_field),
                },
                follow_links: follow,
                retry_rejected,
                ..Options::default()
            };
            ingest(&data, &paths, json, &opts, &wait)
        }
        Command::Stats { json } => {
            let a = Archive::open_reader(&data)?;
            let s = a.stats()?;
            if json {
                outln!("{}", serde_json::to_string_pretty(&s)?);
            } else {
                outln!("sources      {}", s.sources);
                outln!("occurrences  {}", s.occurrences);
                outln!("captions     {}", s.captions);
                outln!("variants     {}", s.variants);
                outln!(
                    "source bytes {} ({} stored)",
                    s.source_bytes,
                    s.stored_bytes
                );
                outln!("indexed      {}", s.indexed);
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Search {
            query,
            filters,
            limit,
            offset,
            sort,
            facets,
            histogram,
            geo_zoom,
            json,
        } => {
            let req = SearchRequest {
                query,
                filters: filters.to_filters()?,
                limit,
                offset,
                sort: parse_sort(&sort)?,
                facets,
                histogram,
                geo_zoom,
            };
            let a = Archive::open_reader(&data)?;
            let r = a.search(&req)?;
            if json {
                outln!("{}", serde_json::to_string_pretty(&r)?);
            } else {
                print_results(&r)?;
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Export {
            query,
            filters,
            format,
            out,
        } => {
            let format: cairn_export::Format = format.parse().map_err(anyhow::Error::msg)?;
            let req = SearchRequest {
                query,
                filters: filters.to_filters()?,
                ..SearchRequest::default()
            };
            let a = Archive::open_reader(&data)?;
            export(&a, &req, format, out.as_deref())?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Places { name, json } => places(&data, &name, json),
        Command::Show { id, json } => {
            let a = Archive::open_reader(&data)?;
            let Some(c) = a.caption(id)? else {
                bail!("no caption {id} in {}", data.display())
            };
            if json {
                outln!("{}", serde_json::to_string_pretty(&c)?);
            } else {
                outln!("caption #{}\n  {}\n", c.id, c.text);
                for v in &c.variants {
                    outln!("variant #{} ({} occurrences)", v.id, v.occurrences.len());
                    if v.text != c.text {
                        outln!("  {}", v.text);
                    }
                    for o in &v.occurrences {
                        outln!(
                            "  - {} [{}..{}] sha256 {}",
                            o.source.uri,
                            o.span.start,
                            o.span.end,
                            o.source.sha256
                        );
                    }
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Extract { files } => extract(&data, &files),
        Command::Gazetteer { action } => gazetteer::run(&data, action),
        Command::Generate {
            pages,
            seed,
            near_dup,
            photos,
            format,
            warc,
            out,
        } => {
            if near_dup {
                let n = generate_near_dup(photos, seed, &out)?;
                eprintln!(
                    "wrote {n} captions of {photos} photographs to {}",
                    out.display()
                );
            } else {
                generate_pages(pages, seed, &format, warc, &out)?;
                eprintln!("wrote {pages} pages to {}", out.display());
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Dedup { files, threshold } => dedup(&files, threshold),
        Command::Demo {
            pages,
            addr,
            no_serve,
        } => {
            let data = cli
                .data
                .clone()
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
            if no_serve {
                return Ok(ExitCode::SUCCESS);
            }
            serve(&data, &addr, &cairn_server::ServeOptions::default())
        }
        Command::Serve {
            addr,
            allow_ingest,
            timeout,
            max_connections,
            header_timeout,
            idle_timeout,
            max_exports,
        } => {
            let ingest_token = if allow_ingest {
                let t = std::env::var("CAIRN_INGEST_TOKEN").unwrap_or_default();
                if t.len() < 16 {
                    bail!(
                        "--allow-ingest needs a bearer token of at least 16 characters in $CAIRN_INGEST_TOKEN"
                    );
                }
                Some(t)
            } else {
                None
            };
            for (flag, secs) in [
                ("--timeout", timeout),
                ("--header-timeout", header_timeout),
                ("--idle-timeout", idle_timeout),
            ] {
                if !(secs > 0.0 && secs <= 3600.0) {
                    bail!("{flag} takes seconds between 0 and 3600");
                }
            }
            if idle_timeout < timeout {
                bail!(
                    "--idle-timeout must be at least --timeout (a search runs with nothing sent)"
                );
            }
            if max_connections == 0 || max_exports == 0 {
                bail!("--max-connections and --max-exports take at least 1");
            }
            let opts = cairn_server::ServeOptions {
                ingest_token,
                timeout: Duration::from_secs_f64(timeout),
                max_connections,
                header_timeout: Duration::from_secs_f64(header_timeout),
                idle_timeout: Duration::from_secs_f64(idle_timeout),
                max_exports,
                ..cairn_server::ServeOptions::default()
            };
            serve(&data, &addr, &opts)
        }
        Command::Compact { wait } => {
            let mut a = open_writer(&data, &wait)?;
            let merged = a.compact_index(1)?;
            eprintln!(
                "{}",
                if merged {
                    "merged the search index into one segment"
                } else {
                    "the search index is already compact"
                }
            );
            Ok(ExitCode::SUCCESS)
        }
        Command::Check { repair, json, wait } => check(&data, repair, json, &wait),
        Command::Reindex { wait } => {
            let a = open_writer(&data, &wait)?;
            let (_, n) = a.reindex()?;
            eprintln!("reindexed {n} captions");
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// `cairn check`: verifies the archive and, with `repair`, rebuilds a search index that
/// is missing or out of step and catches up one that is behind.
fn check(data: &Path, repair: bool, json: bool, wait: &WaitArgs) -> Result<ExitCode> {
    let mut rep = match Archive::open_reader(data) {
        Ok(a) => a.check()?,
        // No usable index: the database is the truth, the index is made again from it.
        Err(cairn_store::Error::Index { .. }) if repair => {
            let w = open_writer(data, wait)?;
            eprintln!("repair: rebuilt the search index");
            w.check()?
        }
        Err(e) => return Err(e.into()),
    };
    if repair && !rep.ok() {
        let w = open_writer(data, wait)?;
        let (w, n) = w.reindex()?;
        eprintln!("repair: reindexed {n} captions");
        rep = w.check()?;
    } else if repair && rep.index_behind > 0 {
        // A writer opening the archive indexes what the index lacks.
        let w = open_writer(data, wait)?;
        eprintln!("repair: indexed {} captions", rep.index_behind);
        rep = w.check()?;
    }
    if json {
        outln!("{}", serde_json::to_string_pretty(&rep)?);
    }
    for n in &rep.notes {
        eprintln!("note: {n}");
    }
    for p in &rep.problems {
        eprintln!("problem: {p}");
    }
    eprintln!(
        "checked {} sources, {} occurrences, {} captions ({} indexed): {}",
        rep.sources_checked,
        rep.occurrences_checked,
        rep.captions,
        rep.indexed,
        if rep.ok() {
            "ok".to_string()
        } else {
            format!("{} problems", rep.problems.len())
        }
    );
    Ok(if rep.ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// Writes an export; a file is written beside its final name and renamed at the end, so
/// an interrupted export never leaves a truncated file under that name.
fn export(
    a: &Archive,
    req: &SearchRequest,
    format: cairn_export::Format,
    out: Option<&Path>,
) -> Result<()> {
    let g = Gazetteer::bundled();
    if format.is_directory() {
        let Some(dir) = out else {
            bail!("--format xmp writes one file per caption: give a directory with --out");
        };
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        let n = a.export(req, |c| cairn_export::write_xmp(dir, c, &g).map(|_| ()))?;
        eprintln!("wrote {n} XMP sidecars to {}", dir.display());
        return Ok(());
    }
    match out {
        None => {
            let stdout = std::io::stdout().lock();
            let mut e = cairn_export::Exporter::new(
                format,
                std::io::BufWriter::new(stdout),
                &g,
                "standard output",
            )?;
            a.export(req, |c| e.write(c).map(|_| ()))?;
            let n = e.finish()?;
            eprintln!("exported {n} captions");
        }
        Some(path) => {
            let tmp = path.with_file_name(format!(
                ".{}.partial",
                path.file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default()
            ));
            let file = std::fs::File::create(&tmp)
                .with_context(|| format!("creating {}", tmp.display()))?;
            let name = path.display().to_string();
            let mut e =
                cairn_export::Exporter::new(format, std::io::BufWriter::new(file), &g, &name)?;
            let result = a
                .export(req, |c| e.write(c).map(|_| ()))
                .and_then(|_| e.finish());
            let n = match result {
                Ok(n) => n,
                Err(err) => {
                    let _ = std::fs::remove_file(&tmp);
                    return Err(err.into());
                }
            };
            std::fs::rename(&tmp, path)
                .with_context(|| format!("renaming {} to {}", tmp.display(), name))?;
            eprintln!("exported {n} captions to {name}");
        }
    }
    Ok(())
}

fn print_results(r: &cairn_store::SearchResults) -> Result<()> {
    outln!("{} captions match", r.total);
    for h in &r.hits {
        let rec = h.record.as_ref();
        let date = rec
            .and_then(|r| r.date.as_ref())
            .map(|d| d.value.as_str())
            .unwrap_or("-");
        let place = rec
            .and_then(|r| r.location.as_ref())
            .map(|l| l.text.as_str())
            .unwrap_or("-");
        outln!(
            "\n#{} [{date}, {place}] ({} sources, {} occurrences)",
            h.id,
            h.sources.len(),
            h.occurrences
        );
        outln!("  {}", h.text);
    }
    if let Some(h) = &r.histogram {
        outln!("\nby {} ({} undated)", h.interval, h.undated);
        let max = h.buckets.iter().map(|b| b.count).max().unwrap_or(0).max(1);
        for b in &h.buckets {
            let bar = "#".repeat(((b.count * 40).div_ceil(max)) as usize);
            outln!("  {:<10} {:>7} {bar}", b.key, b.count);
        }
    }
    if let Some(geo) = &r.geo {
        outln!(
            "\nmap at zoom {} ({}° cells, {} unlocated)",
            geo.zoom,
            geo.cell_degrees,
            geo.unlocated
        );
        for c in geo.cells.iter().take(20) {
            outln!("  {:>8.3} {:>8.3} {:>7}", c.lat, c.lon, c.count);
        }
    }
    if let Some(f) = &r.facets {
        let g = Gazetteer::bundled();
        let show = |name: &str, v: &[cairn_store::FacetCount], place: bool| -> Result<()> {
            if v.is_empty() {
                return Ok(());
            }
            let parts: Vec<String> = v
                .iter()
                .take(10)
                .map(|c| {
                    let label = if place {
                        g.best_match(&c.value)
                            .map(|i| g.entry(i).name.clone())
                            .unwrap_or(c.value.clone())
                    } else {
                        c.value.clone()
                    };
                    format!("{label} ({})", c.count)
                })
                .collect();
            outln!("{name:<13} {}", parts.join(", "));
            Ok(())
        };
        outln!();
        show("agency", &f.agency, false)?;
        show("photographer", &f.photographer, false)?;
        show("country", &f.country, false)?;
        show("event type", &f.event_type, false)?;
        show("year", &f.year, false)?;
        show("place", &f.place, true)?;
    }
    Ok(())
}

fn places(data: &Path, name: &str, json: bool) -> Result<ExitCode> {
    let g = Gazetteer::for_archive(data)?;
    let rows = cairn_server::place_matches(&g, name, 20);
    if json {
        outln!("{}", serde_json::to_string_pretty(&rows)?);
        return Ok(ExitCode::SUCCESS);
    }
    if rows.is_empty() {
        outln!("{name:?} is not in the gazetteer");
        return Ok(ExitCode::FAILURE);
    }
    for r in &rows {
        outln!(
            "{}{} [{}] {} ({:.4}, {:.4}) in {}",
            if r.best { "* " } else { "  " },
            r.name,
            r.kind,
            r.id,
            r.lat,
            r.lon,
            if r.within.is_empty() {
                "-".to_string()
            } else {
                r.within.join(", ")
            }
        );
    }
    if !rows.iter().any(|r| r.best) {
        outln!("(no exact match: a filter on {name:?} would be refused)");
    }
    Ok(ExitCode::SUCCESS)
}

fn ingest(
    data: &Path,
    paths: &[PathBuf],
    json: bool,
    opts: &Options,
    wait: &WaitArgs,
) -> Result<ExitCode> {
    // Sources are read and prepared on rayon's threads: a generous stack as a second
    // defence behind the readers' own bounds (an error only if the pool exists already).
    let _ = rayon::ThreadPoolBuilder::new()
        .stack_size(cairn_pipeline::PREPARE_STACK)
        .build_global();
    let mut archive = open_writer(data, wait)?;
    // A gazetteer of the ingest's own: the pipeline lets it go before the end of the
    // run (index builds and merge), which then peaks lower.
    let extractor = Arc::new(Extractor::new(Arc::new(Gazetteer::load_for_archive(data)?)));
    with_progress("ingested", json, |on_event| {
        cairn_pipeline::ingest(&mut archive, paths, extractor, opts, on_event)
    })
}

fn import(data: &Path, dir: &Path, json: bool, wait: &WaitArgs) -> Result<ExitCode> {
    let mut archive = open_writer(data, wait)?;
    with_progress("imported", json, |on_event| {
        cairn_pipeline::import(&mut archive, dir, cairn_pipeline::BATCH_SOURCES, on_event)
    })
}

/// Runs an ingest or import with a progress bar on a terminal, warnings and errors on
/// stderr, and the summary at the end.
fn with_progress(
    done: &str,
    json: bool,
    run: impl FnOnce(&mut dyn FnMut(Event)) -> cairn_pipeline::Result<cairn_pipeline::Report>,
) -> Result<ExitCode> {
    let bar = if std::io::stderr().is_terminal() {
        let b = ProgressBar::new(0);
        b.set_style(
            ProgressStyle::with_template(
                "{spinner} [{elapsed_precise}] {bar:30} {bytes}/{total_bytes} {bytes_per_sec} {msg}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        b.enable_steady_tick(Duration::from_millis(200));
        b
    } else {
        ProgressBar::hidden()
    };
    let mut captions = 0u64;
    let mut read_bytes = 0u64;
    let started = std::time::Instant::now();
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
    let secs = started.elapsed().as_secs_f64();
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
    let accepted = report.sources_added + report.sources_skipped;
    Ok(if report.rejected == 0 {
        ExitCode::SUCCESS
    } else if accepted > 0 {
        ExitCode::from(EXIT_PARTIAL)
    } else {
        ExitCode::FAILURE
    })
}

fn extract(data: &Path, files: &[PathBuf]) -> Result<ExitCode> {
    let extractor = Extractor::new(Gazetteer::for_archive(data)?);
    let inputs: Vec<cairn_ingest::Input> = if files.is_empty() {
        vec![cairn_ingest::Input::Stdin]
    } else {
        files
            .iter()
            .map(|f| cairn_ingest::Input::File(f.clone()))
            .collect()
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let (mut ok, mut failed) = (0u64, 0u64);
    let opts = cairn_ingest::ReadOptions::default();
    for input in &inputs {
        let mut write_err: Option<std::io::Error> = None;
        cairn_ingest::read_input(input, &opts, &mut |raw| {
            let doc = match raw.and_then(cairn_ingest::render) {
                Ok(d) => d,
                Err(e) if e.is_notice() => {
                    eprintln!("warning: {e}");
                    return true;
                }
                Err(e) => {
                    eprintln!("error: {}", cairn_ingest::quoted(&e.to_string()));
                    failed += 1;
                    return true;
                }
            };
            ok += 1;
            for w in &doc.warnings {
                eprintln!("warning: {}: {w}", doc.uri);
            }
            // The same captions and records `cairn ingest` stores, embedded IPTC/XMP
            // fields applied.
            let found = extractor.document(doc.segments, &doc.text, doc.embedded.as_ref());
            for w in &found.warnings {
                eprintln!("warning: {}: {w}", doc.uri);
            }
            for (_, rec) in found.captions {
                let r = serde_json::to_writer(&mut out, &rec)
                    .map_err(std::io::Error::from)
                    .and_then(|_| out.write_all(b"\n"));
                if let Err(e) = r {
                    write_err = Some(e);
                    return false;
                }
            }
            true
        });
        if let Some(e) = write_err {
            return Err(e.into());
        }
    }
    out.flush()?;
    Ok(match (ok, failed) {
        (_, 0) => ExitCode::SUCCESS,
        (0, _) => ExitCode::FAILURE,
        _ => ExitCode::from(EXIT_PARTIAL),
    })
}

/// Writes generated pages as text, HTML or both, and optionally a WARC.gz of them.
fn generate_pages(pages: u64, seed: u64, format: &str, warc: bool, out: &Path) -> Result<()> {
    if !matches!(format, "text" | "html" | "mixed") {
        bail!("--format takes text, html or mixed");
    }
    let g = Gazetteer::bundled();
    let generator = cairn_synth::Generator::new(&g, seed, pages);
    std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
    let page = |j: u64| match format {
        "html" => generator.html_page(j),
        "mixed" if j % 2 == 1 => generator.html_page(j),
        _ => generator.page(j),
    };
    if warc {
        let path = out.join("pages.warc.gz");
        let f =
            std::fs::File::create(&path).with_context(|| format!("creating {}", path.display()))?;
        let mut w = std::io::BufWriter::new(f);
        cairn_synth::write_warc_gz(
            &mut w,
            (0..pages).map(|j| {
                let p = page(j);
                (format!("https://sample-wire.example/{}", p.path), p.text)
            }),
        )
        .with_context(|| format!("writing {}", path.display()))?;
        w.flush()?;
        return Ok(());
    }
    for j in 0..pages {
        let p = page(j);
        let path = out.join(&p.path);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        }
        std::fs::write(&path, p.text).with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(())
}

fn generate_near_dup(photos: u64, seed: u64, out: &Path) -> Result<u64> {
    let g = Gazetteer::bundled();
    let corpus =
        cairn_synth::NearDupCorpus::new(cairn_synth::Generator::new(&g, seed, photos), seed);
    std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
    let open = |name: &str| -> Result<std::io::BufWriter<std::fs::File>> {
        let p = out.join(name);
        Ok(std::io::BufWriter::new(
            std::fs::File::create(&p).with_context(|| format!("creating {}", p.display()))?,
        ))
    };
    let (mut captions, mut truth) = (open("captions.txt")?, open("truth.txt")?);
    let mut n = 0;
    for item in corpus.items(photos) {
        if n > 0 {
            captions.write_all(b"\n\n")?;
        }
        captions.write_all(item.text.as_bytes())?;
        writeln!(truth, "{}", item.photo)?;
        n += 1;
    }
    captions.write_all(b"\n")?;
    captions.flush()?;
    truth.flush()?;
    Ok(n)
}

fn dedup(files: &[PathBuf], threshold: f32) -> Result<ExitCode> {
    if !(0.0..=1.0).contains(&threshold) {
        bail!("--threshold must lie between 0 and 1");
    }
    let mut d = cairn_dedup::Deduper::new(threshold);
    // Stream: captions are read paragraph by paragraph and clustered in batches, so memory
    // holds one batch of texts and the clusters' representatives, not the input.
    let mut run = |name: &str, reader: Box<dyn std::io::BufRead>| -> Result<()> {
        let mut batch: Vec<String> = Vec::with_capacity(8192);
        let mut para = String::new();
        let mut bad_utf8 = false;
        let flush_para = |para: &mut String, batch: &mut Vec<String>| {
            let text = cairn_model::fold_whitespace(para);
            para.clear();
            if !text.is_empty() {
                batch.push(text);
            }
        };
        for line in reader.split(b'\n') {
            let line = line.with_context(|| format!("reading {name}"))?;
            let line = match String::from_utf8(line) {
                Ok(l) => l,
                Err(e) => {
                    bad_utf8 = true;
                    String::from_utf8_lossy(e.as_bytes()).into_owned()
                }
            };
            if line.trim().is_empty() {
                flush_para(&mut para, &mut batch);
                if batch.len() >= 8192 {
                    d.push_batch(&batch);
                    batch.clear();
                }
            } else {
                para.push_str(&line);
                para.push('\n');
            }
        }
        flush_para(&mut para, &mut batch);
        d.push_batch(&batch);
        if bad_utf8 {
            eprintln!("warning: {name}: invalid UTF-8 decoded with replacement characters");
        }
        Ok(())
    };
    if files.is_empty() {
        run(
            "<stdin>",
            Box::new(std::io::BufReader::new(std::io::stdin())),
        )?;
    }
    for f in files {
        let file = std::fs::File::open(f).with_context(|| format!("opening {}", f.display()))?;
        run(
            &f.display().to_string(),
            Box::new(std::io::BufReader::with_capacity(1 << 20, file)),
        )?;
    }
    let clusters = d.clusters();
    let out = d.finish();
    let stdout = std::io::stdout();
    let mut w = std::io::BufWriter::new(stdout.lock());
    for (cluster, canonical) in &out {
        writeln!(w, "{{\"cluster\":{cluster},\"canonical\":{canonical}}}")?;
    }
    w.flush()?;
    eprintln!("{} captions in {clusters} clusters", out.len());
    Ok(ExitCode::SUCCESS)
}

fn serve(data: &Path, addr: &str, opts: &cairn_server::ServeOptions) -> Result<ExitCode> {
    let archive = Arc::new(Archive::open_reader(data)?);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    rt.block_on(async {
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .with_context(|| format!("cannot listen on {addr}"))?;
        let local = listener.local_addr()?;
        outln!("cairn is serving {} at http://{local}/", data.display());
        std::io::stdout().flush()?;
        cairn_server::serve(listener, archive, opts).await?;
        anyhow::Ok(())
    })?;
    Ok(ExitCode::SUCCESS)
}
