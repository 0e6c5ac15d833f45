//! Times loading the bundled gazetteer, and any other data files in the bundle's format
//! given on the command line (an older build, an archive's own file on its own), so that
//! a change of the data or the loader can be measured:
//! `cargo run -p cairn-gazetteer --example load_time [FILE.tsv.zst...]`.

use std::time::Instant;

use cairn_gazetteer::Gazetteer;

fn best_of_five(what: &str, load: impl Fn() -> Gazetteer) {
    let mut best = f64::MAX;
    let mut len = 0;
    for _ in 0..5 {
        let t = Instant::now();
        let g = load();
        best = best.min(t.elapsed().as_secs_f64());
        len = g.len();
    }
    println!("{what}: {len} entries, best of 5 loads {best:.3} s");
}

fn main() {
    best_of_five("bundled", Gazetteer::load_bundled);
    for path in std::env::args().skip(1) {
        let bytes = std::fs::read(&path).expect("readable file");
        best_of_five(&path, || Gazetteer::from_data(&bytes, "").expect("loads"));
    }
}
