//! How fast a source's bytes are packed for the archive ([`cairn_store::pack`], one zstd
//! context kept per thread) against a new context for every source, the way
//! `zstd::bulk::compress` does it (what `pack` did before), side by side in one run.
//!
//! `cargo bench -p cairn-store --bench blob_pack -- [PAGES]`
//!
//! Packs PAGES generated gallery pages (default 20,000: half HTML, half text, as
//! `cairn generate --format mixed` writes them) on one thread, both ways, in alternating
//! rounds (`CAIRN_BENCH_ROUNDS`, default 5), checks that both make the same frames, and
//! prints each way's best and median MB/s.

use std::time::Instant;

use cairn_gazetteer::Gazetteer;

fn main() {
    let pages: u64 = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with("--"))
        .map(|a| a.parse().expect("PAGES is a number"))
        .unwrap_or(20_000);
    let rounds: usize = std::env::var("CAIRN_BENCH_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(5)
        .max(1);
    let g = Gazetteer::bundled();
    let generator = cairn_synth::Generator::new(&g, 42, pages.max(1));
    let sources: Vec<Vec<u8>> = (0..pages)
        .map(|j| {
            if j % 2 == 0 {
                generator.html_page(j).text.into_bytes()
            } else {
                generator.page(j).text.into_bytes()
            }
        })
        .collect();
    let bytes: usize = sources.iter().map(Vec::len).sum();

    // The same frames both ways, or the comparison means nothing.
    for s in &sources {
        let a = cairn_store::pack(s).expect("pack");
        let b = zstd::bulk::compress(s, 3).expect("compress");
        assert_eq!(a, b, "pack made a different frame");
    }

    let mut kept = Vec::new();
    let mut fresh = Vec::new();
    let mut packed = 0usize;
    for _ in 0..rounds {
        let t = Instant::now();
        for s in &sources {
            packed += cairn_store::pack(s).expect("pack").len();
        }
        kept.push(bytes as f64 / t.elapsed().as_secs_f64() / 1e6);
        let t = Instant::now();
        for s in &sources {
            packed += zstd::bulk::compress(s, 3).expect("compress").len();
        }
        fresh.push(bytes as f64 / t.elapsed().as_secs_f64() / 1e6);
    }
    let stats = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        (v[v.len() - 1], v[v.len() / 2])
    };
    let (kept_best, kept_median) = stats(&mut kept);
    let (fresh_best, fresh_median) = stats(&mut fresh);
    println!(
        "{pages} pages, {:.1} MB, {:.1} MB packed per pass, {rounds} rounds, one thread",
        bytes as f64 / 1e6,
        packed as f64 / (2 * rounds) as f64 / 1e6
    );
    println!("| way | best MB/s | median MB/s |");
    println!("|---|---|---|");
    println!("| a context kept per thread (pack) | {kept_best:.1} | {kept_median:.1} |");
    println!("| a new context per source (baseline) | {fresh_best:.1} | {fresh_median:.1} |");
    println!(
        "median ratio: {:.2}x",
        kept_median / fresh_median.max(f64::MIN_POSITIVE)
    );
}
