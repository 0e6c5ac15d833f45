//! Gallery pages to captions: where `html::render`'s time goes, in one run.
//!
//! `cargo bench -p cairn-ingest --bench html_render -- [PAGES] [ROUNDS]`
//!
//! Generates PAGES HTML gallery pages (default 5,000; `cairn generate`'s pages, with
//! navigation, scripts, lightbox copies and a footer) and times, on one thread, ROUNDS
//! rounds (default 5) of each of these over all of them, alternated:
//! - `render`, the whole reader (one pass over the tokens, or the tree where needed);
//! - `render_by_tree`, the same through the tree builder (parse, walk, captions);
//! - the parser alone, `scraper::Html::parse_document` (html5ever building the tree);
//! - lol_html's streaming tokenizer visiting every element and every text chunk
//!   without building a tree: what any reader of this markup at least costs, as a
//!   reference for the parser's share.

use std::time::Instant;

use cairn_ingest::html::{render, render_by_tree};

fn lol_html_visit(page: &str) -> usize {
    let (elements, text) = (std::cell::Cell::new(0usize), std::cell::Cell::new(0usize));
    let mut rewriter = lol_html::HtmlRewriter::new(
        lol_html::Settings {
            element_content_handlers: vec![lol_html::element!("*", |_| {
                elements.set(elements.get() + 1);
                Ok(())
            })],
            document_content_handlers: vec![lol_html::doc_text!(|t| {
                text.set(text.get() + t.as_str().len());
                Ok(())
            })],
            ..lol_html::Settings::new()
        },
        |_: &[u8]| {},
    );
    rewriter.write(page.as_bytes()).expect("lol_html write");
    rewriter.end().expect("lol_html end");
    elements.get() + text.get()
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let pages: u64 = args.first().map_or(5_000, |a| a.parse().expect("PAGES"));
    let rounds: usize = args.get(1).map_or(5, |a| a.parse().expect("ROUNDS"));
    let g = cairn_gazetteer::Gazetteer::bundled();
    let generator = cairn_synth::Generator::new(&g, 42, pages);
    let html: Vec<String> = (0..pages).map(|j| generator.html_page(j).text).collect();
    let bytes: usize = html.iter().map(String::len).sum();
    let captions: usize = html.iter().map(|p| render(p).1.len()).sum();
    assert!(
        html.iter().all(|p| render(p) == render_by_tree(p)),
        "both readers give the same captions"
    );
    assert!(captions >= html.len(), "every generated page has captions");
    println!(
        "{} pages, {:.1} MB, {captions} captions; one thread, {rounds} rounds of each, alternated",
        html.len(),
        bytes as f64 / 1e6
    );
    type Run = fn(&str) -> usize;
    let runs: [(&str, Run); 4] = [
        (
            "render (one pass over the tokens; the tree where a page needs it)",
            |p| render(p).1.len(),
        ),
        ("render_by_tree (parse, walk, captions)", |p| {
            render_by_tree(p).1.len()
        }),
        ("parser alone (scraper::Html::parse_document)", |p| {
            scraper::Html::parse_document(p).tree.nodes().count()
        }),
        (
            "reference: lol_html tokenizer, every element and text",
            lol_html_visit,
        ),
    ];
    let mut times = vec![Vec::new(); runs.len()];
    for _ in 0..rounds {
        for (i, (_, run)) in runs.iter().enumerate() {
            let t = Instant::now();
            let n: usize = html.iter().map(|p| run(p)).sum();
            std::hint::black_box(n);
            times[i].push(t.elapsed().as_secs_f64());
        }
    }
    println!("| what | median s | µs per page | MB/s |");
    println!("|---|---|---|---|");
    for ((name, _), mut t) in runs.iter().zip(times) {
        t.sort_by(f64::total_cmp);
        let median = t[t.len() / 2];
        println!(
            "| {name} | {median:.3} | {:.1} | {:.1} |",
            median * 1e6 / html.len() as f64,
            bytes as f64 / median / 1e6
        );
    }
}
