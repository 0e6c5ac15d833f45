//! Extraction throughput on one core over a generated caption corpus.
//!
//! `cargo bench -p cairn-extract --bench extract_throughput -- [CAPTIONS_FILE] [--json]
//! [--min-seconds S]`
//!
//! CAPTIONS_FILE holds captions separated by blank lines (what `cairn generate` pages
//! hold); without it the bench generates 20,000 captions itself. Prints captions/s and
//! MB/s for one thread, and the gazetteer load time separately; with `--min-seconds`, over
//! as many whole passes as fill that time. `bench/extract_vs_spacy.sh`
//! runs spaCy over the same file in the same run for the side-by-side figure.

use std::time::Instant;

use cairn_extract::{Extractor, segment};
use cairn_gazetteer::Gazetteer;

// The allocator the `cairn` binary runs extraction with, so that the rate is the one
// its commands see.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let json = args.iter().any(|a| a == "--json");
    let min_seconds: f64 = args
        .iter()
        .position(|a| a == "--min-seconds")
        .and_then(|i| args.get(i + 1))
        .map_or(0.0, |v| v.parse().expect("--min-seconds takes a number"));
    let file = args
        .iter()
        .enumerate()
        .find(|&(i, a)| !a.starts_with("--") && (i == 0 || args[i - 1] != "--min-seconds"))
        .map(|(_, a)| a);
    let t0 = Instant::now();
    let g = Gazetteer::bundled();
    let load = t0.elapsed().as_secs_f64();
    let text = match file {
        Some(f) => std::fs::read_to_string(f).unwrap_or_else(|e| panic!("{f}: {e}")),
        None => {
            let generator = cairn_synth::Generator::new(&g, 42, 4000);
            let mut t = String::new();
            let mut j = 0;
            while t.len() < 6_000_000 {
                t.push_str(&generator.page(j).text);
                t.push('\n');
                j += 1;
            }
            t
        }
    };
    let captions: Vec<String> = segment(&text).into_iter().map(|s| s.text).collect();
    let bytes: usize = captions.iter().map(String::len).sum();
    let ex = Extractor::new(g);
    // Warm up the lazily built regexes.
    for c in captions.iter().take(100) {
        std::hint::black_box(ex.extract(c));
    }
    let t = Instant::now();
    let mut fields = 0usize;
    let mut passes = 0usize;
    // Whole passes over the captions until `--min-seconds` have gone by: the rate is
    // then an average over as long a stretch as a slower peer's single pass, not a
    // second that a moment of load on the machine can halve.
    while passes == 0 || t.elapsed().as_secs_f64() < min_seconds {
        fields = 0;
        for c in &captions {
            let r = ex.extract(c);
            fields += usize::from(r.credit.is_some())
                + usize::from(r.date.is_some())
                + usize::from(r.location.is_some());
        }
        passes += 1;
    }
    let secs = t.elapsed().as_secs_f64();
    let cps = (captions.len() * passes) as f64 / secs;
    let mbs = (bytes * passes) as f64 / secs / 1e6;
    if json {
        println!(
            "{{\"engine\":\"cairn\",\"captions\":{},\"passes\":{passes},\"bytes\":{bytes},\"seconds\":{secs:.4},\"captions_per_s\":{cps:.1},\"mb_per_s\":{mbs:.3},\"gazetteer_load_s\":{load:.3},\"fields_found\":{fields}}}",
            captions.len()
        );
    } else {
        println!("captions        {}", captions.len());
        println!("bytes           {bytes}");
        println!("gazetteer load  {load:.3} s (once per process, not in the rate)");
        println!("extract         {secs:.3} s on 1 thread, {passes} pass(es)");
        println!("rate            {cps:.0} captions/s, {mbs:.2} MB/s per core");
        println!("fields found    {fields} (credit + date + location)");
    }
}
