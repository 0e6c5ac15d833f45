//! The search page: the box, the chips, the facets (behind a "Filters" button on a
//! phone), the timeline and map, the exports of the search, the hits and their pages.

use cairn_model::Record;
use cairn_store::{Hit, SearchResults};
use maud::{Markup, html};

use super::facets::{active_filters, facets_html};
use super::map::{map, timeline};
use super::series::{split_control, split_timeline};
use super::text::{highlighted, legend};
use super::{PAGE_SIZES, SearchView, State, layout, plural, search_form};

/// The export formats offered for the current search: (format, label, the name its
/// file is saved under).
const EXPORTS: [(&str, &str, &str); 4] = [
    ("csv", "CSV", "cairn-captions.csv"),
    ("geojson", "GeoJSON", "cairn-captions.geojson"),
    ("acled-csv", "ACLED CSV", "cairn-acled.csv"),
    ("jsonl", "JSON Lines", "cairn-captions.jsonl"),
];

/// A hit's fields, each a link to the search filtered on it.
fn hit_meta(v: &SearchView, r: Option<&Record>) -> Markup {
    let Some(r) = r else { return html! {} };
    let s = State::default();
    html! {
        @if let Some(d) = &r.date { span.meta-date { (d.value) } }
        @if let Some(l) = &r.location {
            span.meta-place {
                a href=(s.with(&[("place", l.gazetteer_id.as_deref().unwrap_or(&l.name))])) { (cairn_gazetteer::reader_name(&l.name, &l.text)) }
                @if let Some(cc) = &l.country { ", " (v.name_of("country", cc)) }
            }
        }
        @if let Some(c) = &r.credit {
            span.meta-credit {
                @for (i, p) in c.photographers.iter().enumerate() {
                    @if i > 0 { ", " }
                    a href=(s.with(&[("photographer", p)])) { (p) }
                }
                @if let Some(a) = c.agency.as_ref().or(c.distributor.as_ref()) {
                    @if !c.photographers.is_empty() { " / " }
                    a href=(s.with(&[("agency", a)])) { (a) }
                }
            }
        }
        @if let Some(k) = &r.casualties.killed { span.meta-killed { (k.low) " killed" } }
        @if let Some(k) = &r.casualties.injured { span.meta-injured { (k.low) " injured" } }
        @for e in &r.event_types { span.meta-event { a href=(s.with(&[("event", e)])) { (e) } } }
    }
}

fn hit(v: &SearchView, h: &Hit) -> Markup {
    let back = v.state.query_string();
    let href = if back.is_empty() {
        format!("/captions/{}", h.id)
    } else {
        format!("/captions/{}{}", h.id, back)
    };
    html! {
        // The caption's own link comes first, so that the keyboard reaches it first;
        // the style shows it last.
        li.hit data-id=(h.id) { div.hit-body {
            div.prov {
                a href=(href) { "caption #" (h.id) }
                " · " (plural(h.sources.len() as u64, "source"))
                @if let Some(n) = v.variants.get(&h.id) { " · " span.variants { (plural(*n as u64, "variant")) } }
                " · " (plural(h.occurrences, "occurrence"))
            }
            div.meta { (hit_meta(v, h.record.as_ref())) }
            p.text dir="auto" { (highlighted(&h.text, h.record.as_ref(), &v.terms)) }
        } }
    }
}

/// The line above the hits: how many, which, in what order, how many a page.
fn total_line(v: &SearchView, r: &SearchResults) -> Markup {
    let s = &v.state;
    html! {
        p.total {
            strong #total { (r.total) } " " (if r.total == 1 { "caption" } else { "captions" })
            @if r.total > 0 && !r.hits.is_empty() {
                span.muted { " · " (v.offset + 1) "–" (v.offset + r.hits.len()) }
            }
            span.sort {
                " · sort: "
                @for (key, label) in [("relevance", "relevance"), ("-date", "newest"), ("date", "oldest")] {
                    @if v.sort == key { strong { (label) } " " }
                    @else { a href=(s.with(&[("sort", key)])) { (label) } " " }
                }
            }
            span.size {
                " · per page: "
                @for n in PAGE_SIZES {
                    @if v.limit == n { strong { (n) } " " }
                    @else { a href=(s.with(&[("limit", &n.to_string())])) { (n) } " " }
                }
            }
        }
    }
}

/// Exports of every match of this search, and its link to share.
fn exports(v: &SearchView) -> Markup {
    let qs = v.state.with(&[("limit", "")]);
    let rest = qs.trim_start_matches(['/', '?']);
    html! {
        div.exports aria-label="Export this search" {
            "Export: "
            @for (fmt, label, file) in EXPORTS {
                @let href = if rest.is_empty() { format!("/api/export?format={fmt}") } else { format!("/api/export?format={fmt}&{rest}") };
                a.button href=(href) download=(file) data-format=(fmt) { (label) } " "
            }
            a.permalink href=(v.state.with(&[])) { "link to this search" }
            " "
            button.copy type="button" hidden data-copied="Link copied" { "Copy link" }
        }
    }
}

/// Numbered pages round the current one, with the first and last.
fn pager(v: &SearchView, total: u64) -> Markup {
    let size = v.limit;
    let reachable = (total as usize).min(crate::MAX_WINDOW);
    let pages = reachable.div_ceil(size).max(1);
    let current = v.offset / size;
    let shown: Vec<usize> = (0..pages)
        .filter(|&p| p == 0 || p + 1 == pages || p.abs_diff(current) <= 2)
        .collect();
    html! {
        @if pages > 1 {
            nav.pager aria-label="Pages" {
                @if current > 0 { a rel="prev" href=(v.state.page((current - 1) * size)) { "← previous" } }
                @for (i, p) in shown.iter().enumerate() {
                    @if i > 0 && shown[i - 1] + 1 != *p { span.gap { "…" } }
                    @if *p == current { strong aria-current="page" { (p + 1) } }
                    @else { a href=(v.state.page(p * size)) { (p + 1) } }
                }
                @if current + 1 < pages { a rel="next" href=(v.state.page((current + 1) * size)) { "next →" } }
            }
        }
    }
}

/// What to try when nothing matches: each filter to drop, and plain words.
fn nothing_found(v: &SearchView) -> Markup {
    let s = &v.state;
    let filters: Vec<&(&'static str, String)> = s
        .pairs
        .iter()
        .filter(|(k, _)| !matches!(*k, "q" | "sort" | "limit"))
        .collect();
    html! {
        div.empty #results tabindex="-1" role="status" {
            p { strong { "No caption matches this search." } }
            ul {
                @for (k, val) in &filters {
                    li { "Drop the filter " a href=(s.toggle(k, val)) { (v.name_of(k, val)) } "." }
                }
                @if s.get("q").is_some() {
                    li { "Try fewer words, another spelling, or a word’s start with * (" code { "alep*" } ")." }
                    li { "Search a place by the name the gazetteer knows (" a href="/api/places?q=Aleppo" { "look a place up" } ")." }
                    li { a href=(s.with(&[("q", "")])) { "Show every caption" } " with these filters." }
                }
            }
        }
    }
}

/// The search page.
pub(crate) fn search_page(v: &SearchView) -> Markup {
    let s = &v.state;
    let title = match s.get("q") {
        Some(q) => format!("{q} – search"),
        None => "Search".into(),
    };
    let body = html! {
        main.search-page {
            (search_form(s, true))
            @if v.results.is_some() { a.skip href="#results" { "Skip to results" } }
            (active_filters(v))
            @if let Some(n) = &v.notice { p.notice role="status" { (n) } }
            @for w in &v.warnings { p.notice.warning role="status" { (w) } }
            @if let Some(e) = &v.error { p.error role="alert" { (e) } }
            @if let Some(r) = &v.results {
                a.filters-toggle href="#filters" { "Filters" }
                div.layout {
                    aside.facets #filters aria-label="Filters" {
                        a.close href="#" { "Close filters" }
                        (facets_html(v))
                    }
                    div.main {
                        div.viz {
                            div.when {
                                @if let Some(split) = &v.split { (split_timeline(v, split)) }
                                @else if let Some(h) = &r.histogram { (timeline(s, h)) }
                                @if r.histogram.as_ref().is_some_and(|h| !h.buckets.is_empty()) { (split_control(s)) }
                            }
                            @if let Some((grid, view)) = &v.map { (map(s, grid, *view, &v.labels)) }
                        }
                        (total_line(v, r))
                        (exports(v))
                        @if r.total == 0 { (nothing_found(v)) }
                        @else {
                            (legend())
                            ol.hits #results tabindex="-1" start=(v.offset + 1) {
                                @for h in &r.hits { (hit(v, h)) }
                            }
                        }
                        (pager(v, r.total))
                    }
                }
            }
        }
    };
    layout(&title, None, body)
}
