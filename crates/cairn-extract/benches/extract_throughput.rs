//! Extraction throughput on one core over a generated caption corpus.
//!
//! `cargo bench -p cairn-extract --bench extract_throughput -- [CAPTIONS_FILE] [--json]`
//!
//! CAPTIONS_FILE holds captions separated by blank lines (what `cairn generate` pages
//! hold); without it the bench generates 20,000 captions itself. Prints captions/s and
//! MB/s for one thread, and the gazetteer load time separately. `bench/extract_vs_spacy.sh`
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
    let file = args.iter().find(|a| !a.starts_with("--"));
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
    for c in &captions {
        let r = ex.extract(c);
        fields += usize::from(r.credit.is_some())
            + usize::from(r.date.is_some())
            + usize::from(r.location.is_some());
    }
    let secs = t.elapsed().as_secs_f64();
    let cps = captions.len() as f64 / secs;
    let mbs = bytes as f64 / secs / 1e6;
    if json {
        println!(
            "{{\"engine\":\"cairn\",\"captions\":{},\"bytes\":{bytes},\"seconds\":{secs:.4},\"captions_per_s\":{cps:.1},\"mb_per_s\":{mbs:.3},\"gazetteer_load_s\":{load:.3},\"fields_found\":{fields}}}",
            captions.len()
        );
    } else {
        println!("captions        {}", captions.len());
        println!("bytes           {bytes}");
        println!("gazetteer load  {load:.3} s (once per process, not in the rate)");
        println!("extract         {secs:.3} s on 1 thread");
        println!("rate            {cps:.0} captions/s, {mbs:.2} MB/s per core");
        println!("fields found    {fields} (credit + date + location)");
    }
}
