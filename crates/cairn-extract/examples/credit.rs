//! Prints, for each caption of a text (blank-line paragraphs, standard input), the
//! credit read from it: photographers, agency, distributor. What reading a credit miss
//! needs.
//!
//! `cargo run --release -p cairn-extract --example credit < captions.txt`

use std::io::Read;

use cairn_extract::Extractor;

fn main() -> std::io::Result<()> {
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text)?;
    let x = Extractor::bundled();
    for caption in text.split("\n\n").map(str::trim).filter(|c| !c.is_empty()) {
        let r = x.extract(caption);
        let short: String = caption.chars().take(90).collect();
        println!("# {short}");
        match &r.credit {
            Some(c) => println!(
                "  => {:?} agency {:?} distributor {:?}",
                c.photographers, c.agency, c.distributor
            ),
            None => println!("  => none"),
        }
    }
    Ok(())
}
