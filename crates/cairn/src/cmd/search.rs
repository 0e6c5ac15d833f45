//! `cairn search`: full text, filters and facets, printed for a reader or as JSON.

use std::path::Path;
use std::process::ExitCode;

use anyhow::Result;
use cairn_gazetteer::Gazetteer;
use cairn_ingest::escaped;
use cairn_store::{Archive, SearchRequest, SearchResults};

use super::filters::FilterArgs;
use crate::out::outln;

#[derive(clap::Args, Debug)]
pub struct SearchArgs {
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
}

/// Runs `cairn search` on the archive in `data`.
pub fn run(data: &Path, args: SearchArgs) -> Result<ExitCode> {
    let req = SearchRequest {
        query: args.query,
        filters: args.filters.to_filters()?,
        limit: args.limit,
        offset: args.offset,
        sort: args.sort.parse()?,
        facets: args.facets,
        histogram: args.histogram,
        geo_zoom: args.geo_zoom,
    };
    let a = Archive::open_reader(data)?;
    let r = a.search(&req)?;
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&r)?);
    } else {
        print_results(&r)?;
    }
    Ok(ExitCode::SUCCESS)
}

fn print_results(r: &SearchResults) -> Result<()> {
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
            h.occurrences,
            date = escaped(date),
            place = escaped(place),
        );
        outln!("  {}", escaped(&h.text));
    }
    print_histogram(r)?;
    print_geo(r)?;
    print_facets(r)
}

fn print_histogram(r: &SearchResults) -> Result<()> {
    if let Some(h) = &r.histogram {
        outln!("\nby {} ({} undated)", h.interval, h.undated);
        let max = h.buckets.iter().map(|b| b.count).max().unwrap_or(0).max(1);
        for b in &h.buckets {
            let bar = "#".repeat(((b.count * 40).div_ceil(max)) as usize);
            outln!("  {:<10} {:>7} {bar}", b.key, b.count);
        }
    }
    Ok(())
}

fn print_geo(r: &SearchResults) -> Result<()> {
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
    Ok(())
}

fn print_facets(r: &SearchResults) -> Result<()> {
    let Some(f) = &r.facets else {
        return Ok(());
    };
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
                format!("{} ({})", escaped(&label), c.count)
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
    Ok(())
}
