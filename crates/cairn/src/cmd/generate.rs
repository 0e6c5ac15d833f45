//! `cairn generate`: synthetic gallery pages, or a labelled near-duplicate or incident corpus,
//! deterministic for a seed.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use cairn_gazetteer::Gazetteer;

#[derive(clap::Args, Debug)]
pub struct GenerateArgs {
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
    /// Instead of pages, write a labelled incident corpus: OUT/captions.txt (captions
    /// separated by blank lines) and OUT/truth.txt (the incident of each caption, one
    /// number a line): events photographed by several photographers, and distractors.
    #[arg(long, conflicts_with = "near_dup")]
    incidents: bool,
    /// Events in the incident corpus (each with 2 to 5 photographs and 4 distractors).
    #[arg(long, default_value_t = 200)]
    events: u64,
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
}

/// Runs `cairn generate`.
pub fn run(args: GenerateArgs) -> Result<ExitCode> {
    let GenerateArgs {
        pages,
        seed,
        near_dup,
        incidents,
        events,
        photos,
        format,
        warc,
        out,
    } = args;
    if incidents {
        let n = generate_incidents(events, seed, &out)?;
        eprintln!("wrote {n} captions of {events} events to {}", out.display());
    } else if near_dup {
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

/// Writes generated pages as text, HTML or both, and optionally a WARC.gz of them.
pub fn generate_pages(pages: u64, seed: u64, format: &str, warc: bool, out: &Path) -> Result<()> {
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
    write_labelled(out, corpus.items(photos).map(|i| (i.text, i.photo)))
}

fn generate_incidents(events: u64, seed: u64, out: &Path) -> Result<u64> {
    let g = Gazetteer::bundled();
    let corpus = cairn_synth::IncidentCorpus::new(&g, seed);
    write_labelled(out, corpus.items(events).map(|i| (i.text, i.incident)))
}

/// Writes OUT/captions.txt and OUT/truth.txt (each caption's label, one a line).
fn write_labelled(out: &Path, items: impl Iterator<Item = (String, u64)>) -> Result<u64> {
    std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
    let open = |name: &str| -> Result<std::io::BufWriter<std::fs::File>> {
        let p = out.join(name);
        Ok(std::io::BufWriter::new(
            std::fs::File::create(&p).with_context(|| format!("creating {}", p.display()))?,
        ))
    };
    let (mut captions, mut truth) = (open("captions.txt")?, open("truth.txt")?);
    let mut n = 0;
    for (text, label) in items {
        if n > 0 {
            captions.write_all(b"\n\n")?;
        }
        captions.write_all(text.as_bytes())?;
        writeln!(truth, "{label}")?;
        n += 1;
    }
    captions.write_all(b"\n")?;
    captions.flush()?;
    truth.flush()?;
    Ok(n)
}
