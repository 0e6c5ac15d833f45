//! The timeline split by a facet: the control that picks the facet (links that keep
//! the search, the choice kept in the URL as `split`), the series drawn as stacked bars
//! with a legend, and their counts as a table for those who read rather than look.

use maud::{Markup, html};

use super::map::date_range;
use super::{SearchView, State};
use crate::split::{FIELDS, Split};

/// The choice of the facet the timeline is split by.
pub(crate) fn split_control(state: &State) -> Markup {
    let current = state.get("split").unwrap_or("");
    html! {
        nav.split-by aria-label="Split the timeline" {
            span.muted { "Split by " }
            @for (value, label) in [("", "nothing")].into_iter().chain(FIELDS.map(|f| (f, f))) {
                @if value == current {
                    strong aria-current="true" { (label) }
                } @else {
                    a href=(state.with(&[("split", value)])) rel="nofollow" { (label) }
                }
            }
        }
    }
}

/// A series' name as the page writes it (a country by its name).
fn series_name(v: &SearchView, split: &Split, value: &str) -> String {
    if split.field == "country" {
        v.name_of("country", value)
    } else {
        value.to_string()
    }
}

/// The timeline as one stacked bar a period, a colour a series.
pub(crate) fn split_timeline(v: &SearchView, split: &Split) -> Markup {
    if split.buckets.is_empty() {
        return html! {};
    }
    let state = &v.state;
    let n = split.buckets.len();
    let max = split
        .buckets
        .iter()
        .map(|b| b.count)
        .max()
        .unwrap_or(1)
        .max(1) as f64;
    let w = 10.0;
    html! {
        section.timeline.split aria-label=(format!("Matches over time by {}", split.field)) {
            h3 { "By " (split.interval) ", one series a " (split.field) }
            svg.bars viewBox=(format!("0 0 {} 100", n as f64 * w)) preserveAspectRatio="none" role="img" {
                @for (i, b) in split.buckets.iter().enumerate() {
                    a href=(state.with(&[("from", &b.from), ("to", &b.to)])) data-from=(b.from) data-to=(b.to) data-count=(b.count) aria-label=(format!("{}: {}", b.key, super::plural(b.count, "caption"))) {
                        rect.hit x=(i as f64 * w) y="0" width=(w) height="100" {}
                        @for (class, value, count, y, h) in stack(split, i, max) {
                            rect class=(class) data-series=(value) x=(i as f64 * w + 1.0) y=(y) width=(w - 2.0) height=(h) {
                                title { (b.key) " · " (series_name(v, split, &value)) ": " (count) }
                            }
                        }
                    }
                }
            }
            div.axis {
                span { (split.buckets[0].key) }
                span { (split.buckets[n - 1].key) }
            }
            ul.series-legend {
                @for (j, s) in split.series.iter().enumerate() {
                    li { span class=(format!("swatch s{j}")) {} (series_name(v, split, &s.value)) " " span.muted { (s.counts.iter().sum::<u64>()) } }
                }
                @if split.other.iter().any(|&c| c > 0) {
                    li { span.swatch.other {} "other " span.muted { (split.other.iter().sum::<u64>()) } }
                }
            }
            (counts_table(v, split))
            (date_range(state))
        }
    }
}

/// The parts of period `i`'s bar, bottom up, each as (class, series, count, top, height)
/// in a box 100 high where `max` captions reach 96.
fn stack(split: &Split, i: usize, max: f64) -> Vec<(String, String, u64, f64, f64)> {
    let parts = split
        .series
        .iter()
        .enumerate()
        .map(|(j, s)| (format!("part s{j}"), s.value.clone(), s.counts[i]))
        .chain([(
            "part other".to_string(),
            "other".to_string(),
            split.other[i],
        )]);
    let mut top = 100.0;
    let mut out = Vec::new();
    for (class, value, count) in parts.filter(|p| p.2 > 0) {
        let h = count as f64 / max * 96.0;
        top -= h;
        out.push((class, value, count, top, h));
    }
    out
}

/// The counts of each series a period, as a table.
fn counts_table(v: &SearchView, split: &Split) -> Markup {
    html! {
        details.split-table {
            summary { "Counts per " (split.interval) }
            table {
                thead { tr {
                    th scope="col" { (split.interval) }
                    @for s in &split.series { th scope="col" { (series_name(v, split, &s.value)) } }
                    th scope="col" { "other" }
                } }
                tbody {
                    @for (i, b) in split.buckets.iter().enumerate() {
                        @if b.count > 0 {
                            tr {
                                th scope="row" { (b.key) }
                                @for s in &split.series { td { (s.counts[i]) } }
                                td { (split.other[i]) }
                            }
                        }
                    }
                }
            }
        }
    }
}
