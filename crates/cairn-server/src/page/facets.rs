//! The filters beside the results: facets as checkboxes (several values of one field at
//! once, each field counted without its own filter so its other values stay in view),
//! every value reachable through "show all", the active filters as named chips and the
//! place filter's way up its hierarchy.

use cairn_store::FacetCount;
use maud::{Markup, html};

use super::names::fold_case;
use super::{SearchView, State};

/// Values shown before "show all".
const FIRST_VALUES: usize = 8;
/// Values listed under "show all"; a longer list says how many it leaves out.
const ALL_VALUES: usize = 1000;

/// One facet value's row: a checkbox-like link that adds or removes the value.
fn value_row(s: &State, key: &'static str, value: &str, label: &str, count: u64) -> Markup {
    // The filter ignores case, so a value chosen in another case is this one.
    let chosen = s.values(key).find(|v| same(v, value));
    let on = chosen.is_some();
    html! {
        li {
            a.check href=(s.toggle(key, chosen.unwrap_or(value))) role="checkbox" aria-checked=(on) data-value=(value) {
                span.box aria-hidden="true" {}
                span.name { (label) }
            }
            span.count { (count) }
        }
    }
}

/// Whether two values of a filter select the same captions.
fn same(a: &str, b: &str) -> bool {
    a == b || a.to_lowercase() == b.to_lowercase()
}

/// A facet: its first values (and any checked value further down), then all of them
/// behind "show all N" with a box that filters the list.
pub(crate) fn facet_list(
    s: &State,
    title: &str,
    key: &'static str,
    values: &[FacetCount],
    label: &dyn Fn(&str) -> String,
) -> Markup {
    let mut rows: Vec<(&str, u64)> = values.iter().map(|c| (c.value.as_str(), c.count)).collect();
    // A checked value with no match now stays listed, to be unchecked.
    for v in s.values(key) {
        if !rows.iter().any(|(x, _)| same(x, v)) {
            rows.push((v, 0));
        }
    }
    if rows.is_empty() {
        return html! {};
    }
    let first: Vec<&(&str, u64)> = rows
        .iter()
        .enumerate()
        .filter(|(i, (v, _))| *i < FIRST_VALUES || s.values(key).any(|x| same(x, v)))
        .map(|(_, r)| r)
        .collect();
    html! {
        section.facet data-facet=(key) {
            h3 { (title) }
            ul.first {
                @for (v, n) in &first { (value_row(s, key, v, &label(v), *n)) }
            }
            @if rows.len() > first.len() {
                details.all {
                    summary { "show all " (rows.len()) }
                    input.filter type="search" placeholder=(format!("Filter {}", title.to_lowercase())) aria-label=(format!("Filter the {} list", title.to_lowercase())) hidden;
                    ul.every {
                        @for (v, n) in rows.iter().take(ALL_VALUES) { (value_row(s, key, v, &label(v), *n)) }
                    }
                    @if rows.len() > ALL_VALUES {
                        p.muted { "The first " (ALL_VALUES) " of " (rows.len()) " are listed; search for the others." }
                    }
                }
            }
        }
    }
}

/// The place facet: with one place chosen, the way up to the whole world and the places
/// inside it; otherwise the countries, each a checkbox.
fn place_facet(v: &SearchView) -> Markup {
    let s = &v.state;
    if v.breadcrumb.is_empty() {
        let names = |id: &str| {
            v.places
                .iter()
                .find(|(i, _, _)| i == id)
                .map(|(_, n, _)| n.clone())
                .unwrap_or_else(|| v.name_of("place", id))
        };
        let values: Vec<FacetCount> = v
            .places
            .iter()
            .map(|(id, _, n)| FacetCount {
                value: id.clone(),
                count: *n,
            })
            .collect();
        return facet_list(s, "Place", "place", &values, &names);
    }
    let last = v.breadcrumb.len() - 1;
    html! {
        section.facet data-facet="place" {
            h3 { "Place" }
            nav.crumbs aria-label="Place hierarchy" {
                a href=(s.with(&[("place", "")])) { "All places" }
                @for (i, (id, name)) in v.breadcrumb.iter().enumerate() {
                    " › "
                    @if i == last { strong aria-current="location" { (name) } }
                    @else { a href=(s.with(&[("place", id)])) { (name) } }
                }
            }
            ul.first {
                @for (id, name, n) in &v.places {
                    li {
                        a href=(s.with(&[("place", id)])) { (name) }
                        span.count { (n) }
                    }
                }
            }
        }
    }
}

/// Every facet of the page.
pub(crate) fn facets_html(v: &SearchView) -> Markup {
    let Some(f) = &v.facets else {
        return html! {};
    };
    let s = &v.state;
    let plain = |x: &str| x.to_string();
    let country = |x: &str| v.name_of("country", x);
    let lang = |x: &str| v.name_of("lang", x);
    // What people did; the queue's reasons have their own page.
    let review: Vec<FacetCount> = f
        .review
        .iter()
        .filter(|c| cairn_store::DONE_MARKS.contains(&c.value.as_str()))
        .cloned()
        .collect();
    let review_label = |x: &str| super::review_label(x);
    html! {
        (facet_list(s, "Agency", "agency", &fold_case(&f.agency), &plain))
        (facet_list(s, "Photographer", "photographer", &fold_case(&f.photographer), &plain))
        (place_facet(v))
        (facet_list(s, "Country", "country", &f.country, &country))
        (facet_list(s, "Event type", "event", &f.event_type, &plain))
        (facet_list(s, "Language", "lang", &f.lang, &lang))
        (facet_list(s, "Review", "review", &review, &review_label))
        @if !f.year.is_empty() {
            section.facet data-facet="year" {
                h3 { "Year" }
                ul.first {
                    @for c in &f.year {
                        li {
                            @let on = s.get("from") == Some(c.value.as_str()) && s.get("to") == Some(c.value.as_str());
                            @if on {
                                a.on href=(s.with(&[("from", ""), ("to", "")])) aria-current="true" { (c.value) " ✕" }
                            } @else {
                                a href=(s.with(&[("from", &c.value), ("to", &c.value)])) { (c.value) }
                            }
                            span.count { (c.count) }
                        }
                    }
                }
            }
        }
    }
}

/// The active filters as chips that read as names (`Syria`, `map area`), each removing
/// itself.
pub(crate) fn active_filters(v: &SearchView) -> Markup {
    let s = &v.state;
    let filters: Vec<&(&'static str, String)> = s
        .pairs
        .iter()
        .filter(|(k, _)| !matches!(*k, "q" | "sort" | "limit" | "split"))
        .collect();
    // Clearing the filters keeps the words and how the timeline is drawn.
    let keep_q = State {
        pairs: s
            .pairs
            .iter()
            .filter(|(k, _)| matches!(*k, "q" | "split"))
            .cloned()
            .collect(),
    };
    html! {
        @if !filters.is_empty() {
            ul.active aria-label="Active filters" {
                @for (k, val) in filters {
                    li {
                        a href=(s.toggle(k, val)) title="remove this filter" {
                            span.key { (v.chip_key(k, val)) } " " (v.name_of(k, val)) " ✕"
                        }
                    }
                }
                li { a href=(keep_q.with(&[])) { "clear all" } }
            }
        }
    }
}
