//! Prints, for each caption of a text (blank-line paragraphs, standard input), the
//! location chosen with its reason and every place found with its role: what reading a
//! location miss needs.
//!
//! `cargo run --release -p cairn-extract --example locate < captions.txt`

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
        match &r.location {
            Some(l) => println!(
                "  => {} ({}) {:?} {:?}",
                l.name,
                l.country.as_deref().unwrap_or("-"),
                l.confidence,
                l.reason.as_deref().unwrap_or("")
            ),
            None => println!("  => none"),
        }
        for p in &r.places {
            println!(
                "     {:?} = {} ({}) {:?}",
                p.text,
                p.name,
                p.country.as_deref().unwrap_or("-"),
                p.kind
            );
        }
    }
    Ok(())
}
