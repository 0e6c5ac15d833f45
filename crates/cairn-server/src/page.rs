//! The web page: server-rendered HTML (maud escapes every value, so captions are data,
//! never markup), working before any script runs; `app.js` only adds brushing on the
//! timeline and the `/` shortcut. The page's whole state is its query string: the
//! same parameters as `/api/search`.

use std::fmt::Write as _;

use cairn_gazetteer::Gazetteer;
use cairn_model::{Record, Span};
use cairn_store::{
    Archive, CaptionView, FacetCount, Facets, GeoGrid, Histogram, SearchRequest, SearchResults,
    SourceView,
};
use maud::{DOCTYPE, Markup, PreEscaped, html};

/// Where the country outlines are served (Natural Earth 1:110m, public domain, via
/// world-atlas (ISC), as SVG paths in the box 0 0 360 180; see tools/worldmap).
const WORLD: &str = "/assets/world.svg#land";

use crate::{ApiError, ApiResult, SearchParams};

/// Hits per page.
const PAGE_SIZE: usize = 20;
/// Facet values shown per field.
const FACET_VALUES: usize = 12;

/// The page's parameters as (key, value) pairs in a fixed order, for links that change
/// one of them.
#[derive(Debug, Clone)]
pub(crate) struct State {
    pairs: Vec<(&'static str, String)>,
}

impl State {
    pub fn from_params(p: &SearchParams) -> Self {
        let mut pairs: Vec<(&'static str, String)> = Vec::new();
        let mut put = |k: &'static str, v: &Option<String>| {
            if let Some(v) = v.as_ref().filter(|v| !v.is_empty()) {
                pairs.push((k, v.clone()));
            }
        };
        put("q", &Some(p.q.clone()));
        put("agency", &p.agency);
        put("photographer", &p.photographer);
        put("place", &p.place);
        put("country", &p.country);
        put("event", &p.event);
        put("from", &p.from);
        put("to", &p.to);
        put("killed_min", &p.killed_min.map(|k| k.to_string()));
        put("bbox", &p.bbox);
        put("source", &p.source);
        put("sort", &p.sort);
        State { pairs }
    }

    fn get(&self, k: &str) -> Option<&str> {
        self.pairs
            .iter()
            .find(|(key, _)| *key == k)
            .map(|(_, v)| v.as_str())
    }

    /// A link to this view with `changes` applied (an empty value removes the key);
    /// paging starts again.
    fn with(&self, changes: &[(&'static str, &str)]) -> String {
        let mut pairs = self.pairs.clone();
        for (k, v) in changes {
            pairs.retain(|(key, _)| key != k);
            if !v.is_empty() {
                pairs.push((k, v.to_string()));
            }
        }
        let mut ser = form_urlencoded::Serializer::new(String::new());
        for (k, v) in &pairs {
            ser.append_pair(k, v);
        }
        let qs = ser.finish();
        if qs.is_empty() {
            "/".to_string()
        } else {
            format!("/?{qs}")
        }
    }

    fn page(&self, offset: usize) -> String {
        let base = self.with(&[]);
        let sep = if base.contains('?') { '&' } else { '?' };
        if offset == 0 {
            base
        } else {
            format!("{base}{sep}offset={offset}")
        }
    }
}

/// Everything the search page shows.
pub(crate) struct SearchView {
    pub state: State,
    pub results: Option<SearchResults>,
    pub error: Option<String>,
    pub offset: usize,
    pub map: Option<(GeoGrid, [f64; 4])>,
    pub places: Vec<(String, String, u64)>,
    pub place_label: Option<String>,
}

/// Runs the searches the page needs: hits with facets and histogram, then the map at
/// a zoom that fits the located matches.
pub(crate) fn search_view(
    archive: &Archive,
    g: &Gazetteer,
    p: SearchParams,
    stop: &cairn_store::Stop,
) -> ApiResult<SearchView> {
    let state = State::from_params(&p);
    let offset = p.offset.unwrap_or(0);
    let place_names = p.place.clone();
    let shown_error = |m: String| SearchView {
        state: state.clone(),
        results: None,
        error: Some(m),
        offset,
        map: None,
        places: Vec::new(),
        place_label: None,
    };
    let mut req = match crate::request(
        SearchParams {
            limit: Some(PAGE_SIZE),
            facets: Some("1".into()),
            histogram: Some("1".into()),
            zoom: Some(2),
            ..p
        },
        g,
    ) {
        Ok(r) => r,
        Err(ApiError::BadRequest(m)) => return Ok(shown_error(m)),
        Err(e) => return Err(e),
    };
    // A query or filter the store refuses is shown on the page, like a bad parameter.
    let results = match archive.search_until(&req, stop).map_err(ApiError::from) {
        Ok(r) => r,
        Err(ApiError::BadRequest(m)) => return Ok(shown_error(m)),
        Err(e) => return Err(e),
    };
    let map = results.geo.as_ref().map(|coarse| {
        let view = fit(coarse);
        let zoom = zoom_for(&view);
        let grid = if zoom == coarse.zoom {
            coarse.clone()
        } else {
            let r = SearchRequest {
                limit: 1,
                offset: 0,
                facets: false,
                histogram: false,
                geo_zoom: Some(zoom),
                ..req.clone()
            };
            archive
                .search_until(&r, stop)
                .ok()
                .and_then(|r| r.geo)
                .unwrap_or_else(|| coarse.clone())
        };
        (grid, view)
    });
    // The place facet: countries, or the places inside the one filtered on.
    let (places, place_label) = match req.filters.place.first().cloned() {
        Some(path) if req.filters.place.len() == 1 => {
            req.facets = false;
            let children = archive.place_children(&req, &path)?;
            let label = place_names.map(|n| {
                g.best_match(&n)
                    .map(|i| g.entry(i).name.clone())
                    .unwrap_or(n)
            });
            (named(g, &children), label)
        }
        _ => (
            results
                .facets
                .as_ref()
                .map(|f| named(g, &f.place))
                .unwrap_or_default(),
            None,
        ),
    };
    Ok(SearchView {
        state,
        results: Some(results),
        error: None,
        offset,
        map,
        places,
        place_label,
    })
}

fn named(g: &Gazetteer, v: &[FacetCount]) -> Vec<(String, String, u64)> {
    v.iter()
        .map(|c| {
            let name = g
                .best_match(&c.value)
                .map(|i| g.entry(i).name.clone())
                .unwrap_or_else(|| c.value.clone());
            (c.value.clone(), name, c.count)
        })
        .collect()
}

/// The map's view `[west, south, east, north]`: the located matches with a margin, at
/// least 4 degrees across, the whole world when they spread that far.
fn fit(grid: &GeoGrid) -> [f64; 4] {
    if grid.cells.is_empty() {
        return [-180.0, -60.0, 180.0, 85.0];
    }
    let mut b = [f64::MAX, f64::MAX, f64::MIN, f64::MIN];
    for c in &grid.cells {
        b[0] = b[0].min(c.bbox[0]);
        b[1] = b[1].min(c.bbox[1]);
        b[2] = b[2].max(c.bbox[2]);
        b[3] = b[3].max(c.bbox[3]);
    }
    let w = (b[2] - b[0]).max(4.0);
    let h = (b[3] - b[1]).max(2.0);
    let (cx, cy) = ((b[0] + b[2]) / 2.0, (b[1] + b[3]) / 2.0);
    // Room for the circles (up to 3.4% of the width across) around the extreme points.
    let (w, h) = (w * 1.5, h * 1.5);
    // Keep the page's 2:1 frame.
    let (w, h) = if w / h > 2.0 {
        (w, w / 2.0)
    } else {
        (h * 2.0, h)
    };
    if w >= 300.0 {
        return [-180.0, -60.0, 180.0, 85.0];
    }
    [cx - w / 2.0, cy - h / 2.0, cx + w / 2.0, cy + h / 2.0]
}

/// The zoom whose cells are about a twentieth of the view's width.
fn zoom_for(view: &[f64; 4]) -> u8 {
    let want = (view[2] - view[0]) / 20.0;
    let mut z = 0u8;
    while z < 12 && 360.0 / (16.0 * f64::from(1u32 << (z + 1))) >= want {
        z += 1;
    }
    z
}

fn layout(title: &str, body: Markup) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) " · cairn" }
                link rel="stylesheet" href="/assets/app.css";
                script src="/assets/app.js" defer {}
            }
            body {
                header.top {
                    a.brand href="/" { "cairn" }
                    span.tagline { "news photo captions, deduplicated and searchable" }
                }
                (body)
                footer {
                    "Places: GeoNames (CC BY 4.0). Map: Natural Earth (public domain). "
                    a href="/api/openapi.json" { "API" }
                }
            }
        }
    }
}

/// Marks the evidence spans of a record in its text: credit, date, location,
/// casualties. Spans that overlap an earlier one or fall off character boundaries are
/// left unmarked.
fn highlighted(text: &str, record: Option<&Record>) -> Markup {
    let mut marks: Vec<(Span, &'static str, String)> = Vec::new();
    if let Some(r) = record {
        if let Some(c) = &r.credit {
            marks.push((c.span, "credit", "credit".into()));
        }
        if let Some(d) = &r.date {
            marks.push((d.span, "date", format!("date: {}", d.value)));
        }
        if let Some(l) = &r.location {
            marks.push((l.span, "place", format!("location: {}", l.name)));
        }
        if let Some(k) = &r.casualties.killed {
            marks.push((k.span, "killed", format!("killed: {}", k.low)));
        }
        if let Some(k) = &r.casualties.injured {
            marks.push((k.span, "injured", format!("injured: {}", k.low)));
        }
    }
    marks.sort_by_key(|(s, _, _)| (s.start, s.end));
    let mut at = 0;
    let mut parts: Vec<(&str, Option<(&'static str, String)>)> = Vec::new();
    for (span, class, title) in marks {
        let ok = span.start >= at
            && span.end <= text.len()
            && span.start < span.end
            && text.is_char_boundary(span.start)
            && text.is_char_boundary(span.end);
        if !ok {
            continue;
        }
        parts.push((&text[at..span.start], None));
        parts.push((&text[span.start..span.end], Some((class, title))));
        at = span.end;
    }
    parts.push((&text[at..], None));
    html! {
        @for (t, mark) in parts {
            @match mark {
                Some((class, title)) => mark class=(format!("ev ev-{class}")) title=(title) { (t) },
                None => (t),
            }
        }
    }
}

fn facet_list(
    state: &State,
    title: &str,
    key: &'static str,
    values: &[FacetCount],
    label: impl Fn(&str) -> String,
) -> Markup {
    let active = state.get(key);
    html! {
        @if !values.is_empty() {
            section.facet data-facet=(key) {
                h3 { (title) }
                ul {
                    @for c in values.iter().take(FACET_VALUES) {
                        li {
                            @if active == Some(c.value.as_str()) {
                                a.on href=(state.with(&[(key, "")])) aria-current="true" {
                                    (label(&c.value)) " ✕"
                                }
                            } @else {
                                a href=(state.with(&[(key, &c.value)])) { (label(&c.value)) }
                            }
                            span.count { (c.count) }
                        }
                    }
                }
            }
        }
    }
}

fn facets_html(v: &SearchView, f: &Facets) -> Markup {
    let s = &v.state;
    let plain = |x: &str| x.to_string();
    html! {
        (facet_list(s, "Agency", "agency", &f.agency, plain))
        (facet_list(s, "Photographer", "photographer", &f.photographer, plain))
        @if !v.places.is_empty() {
            section.facet data-facet="place" {
                h3 {
                    "Place"
                    @if let Some(l) = &v.place_label { " in " (l) }
                }
                ul {
                    @if v.place_label.is_some() {
                        li { a.on href=(s.with(&[("place", "")])) { "all places ✕" } }
                    }
                    @for (id, name, n) in v.places.iter().take(FACET_VALUES) {
                        li {
                            a href=(s.with(&[("place", id)])) { (name) }
                            span.count { (n) }
                        }
                    }
                }
            }
        }
        (facet_list(s, "Country", "country", &f.country, plain))
        (facet_list(s, "Event type", "event", &f.event_type, plain))
        @if !f.year.is_empty() {
            section.facet data-facet="year" {
                h3 { "Year" }
                ul {
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

fn timeline(state: &State, h: &Histogram) -> Markup {
    if h.buckets.is_empty() {
        return html! {};
    }
    let max = h.buckets.iter().map(|b| b.count).max().unwrap_or(1).max(1) as f64;
    let n = h.buckets.len();
    let w = 10.0;
    html! {
        section.timeline aria-label="Matches over time" {
            h3 { "By " (h.interval) @if h.undated > 0 { span.muted { " (" (h.undated) " undated)" } } }
            svg.bars viewBox=(format!("0 0 {} 100", n as f64 * w)) preserveAspectRatio="none" role="img" {
                @for (i, b) in h.buckets.iter().enumerate() {
                    @let bh = if b.count == 0 { 0.0 } else { (b.count as f64 / max * 96.0).max(2.0) };
                    a href=(state.with(&[("from", &b.from), ("to", &b.to)])) data-from=(b.from) data-to=(b.to) data-count=(b.count) aria-label=(format!("{}: {} captions", b.key, b.count)) {
                        rect.hit x=(i as f64 * w) y="0" width=(w) height="100" {}
                        rect.bar x=(i as f64 * w + 1.0) y=(100.0 - bh) width=(w - 2.0) height=(bh) {
                            title { (b.key) ": " (b.count) }
                        }
                    }
                }
            }
            div.axis {
                span { (h.buckets[0].key) }
                span { (h.buckets[n - 1].key) }
            }
        }
    }
}

fn map(state: &State, grid: &GeoGrid, view: [f64; 4]) -> Markup {
    let [west, south, east, north] = view;
    let vb = format!(
        "{:.3} {:.3} {:.3} {:.3}",
        west + 180.0,
        90.0 - north,
        east - west,
        north - south
    );
    let max = grid.cells.iter().map(|c| c.count).max().unwrap_or(1).max(1) as f64;
    let unit = (east - west) / 100.0;
    html! {
        section.map aria-label="Map of located captions" {
            h3 {
                "Map"
                span.muted { " (" (grid.unlocated) " without a place)" }
                @if state.get("bbox").is_some() {
                    " " a.on href=(state.with(&[("bbox", "")])) { "whole map ✕" }
                }
            }
            svg.world viewBox=(vb) role="img" {
                use.land href=(WORLD) {}
                @for c in &grid.cells {
                    @let r = unit * (0.8 + 2.6 * (c.count as f64 / max).sqrt());
                    @let bbox = format!("{},{},{},{}", c.bbox[0], c.bbox[1], c.bbox[2], c.bbox[3]);
                    a.point href=(state.with(&[("bbox", &bbox)])) aria-label=(format!("{} captions near {:.2}, {:.2}", c.count, c.lat, c.lon)) {
                        circle cx=(format!("{:.4}", c.lon + 180.0)) cy=(format!("{:.4}", 90.0 - c.lat)) r=(format!("{r:.4}")) {
                            title { (c.count) " captions" }
                        }
                    }
                }
            }
        }
    }
}

fn hit_meta(r: Option<&Record>) -> Markup {
    let Some(r) = r else { return html! {} };
    html! {
        @if let Some(d) = &r.date { span.meta-date { (d.value) } }
        @if let Some(l) = &r.location {
            span.meta-place {
                (l.name)
                @if let Some(cc) = &l.country { ", " (cc) }
            }
        }
        @if let Some(c) = &r.credit {
            span.meta-credit {
                (c.photographers.join(", "))
                @if let Some(a) = c.agency.as_ref().or(c.distributor.as_ref()) {
                    @if !c.photographers.is_empty() { " / " }
                    (a)
                }
            }
        }
        @if let Some(k) = &r.casualties.killed { span.meta-killed { (k.low) " killed" } }
        @if let Some(k) = &r.casualties.injured { span.meta-injured { (k.low) " injured" } }
        @for e in &r.event_types { span.meta-event { (e) } }
    }
}

fn search_form(state: &State) -> Markup {
    html! {
        form.search method="get" action="/" role="search" {
            input type="search" name="q" value=(state.get("q").unwrap_or("")) placeholder="Search captions (words, \"phrases\", -exclusions)" aria-label="Search captions" autofocus;
            // Keep the filters when the text changes.
            @for (k, v) in &state.pairs {
                @if *k != "q" { input type="hidden" name=(k) value=(v); }
            }
            button type="submit" { "Search" }
        }
    }
}

fn active_filters(state: &State) -> Markup {
    let filters: Vec<&(&'static str, String)> = state
        .pairs
        .iter()
        .filter(|(k, _)| *k != "q" && *k != "sort")
        .collect();
    html! {
        @if !filters.is_empty() {
            ul.active aria-label="Active filters" {
                @for (k, v) in filters {
                    li { a href=(state.with(&[(k, "")])) title="remove" { (k) ": " (v) " ✕" } }
                }
                li { a href=(State { pairs: state.pairs.iter().filter(|(k, _)| *k == "q").cloned().collect() }.with(&[])) { "clear all" } }
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
            (search_form(s))
            (active_filters(s))
            @if let Some(e) = &v.error {
                p.error role="alert" { (e) }
            }
            @if let Some(r) = &v.results {
                div.layout {
                    aside.facets aria-label="Filters" {
                        @if let Some(f) = &r.facets { (facets_html(v, f)) }
                    }
                    div.main {
                        div.viz {
                            @if let Some(h) = &r.histogram { (timeline(s, h)) }
                            @if let Some((grid, view)) = &v.map { (map(s, grid, *view)) }
                        }
                        p.total {
                            strong #total { (r.total) } " captions"
                            @if r.total > 0 {
                                span.muted { " · " (v.offset + 1) "–" (v.offset + r.hits.len()) }
                            }
                            span.sort {
                                " · sort: "
                                @for (key, label) in [("", "relevance"), ("-date", "newest"), ("date", "oldest")] {
                                    @if s.get("sort").unwrap_or("") == key {
                                        strong { (label) } " "
                                    } @else {
                                        a href=(s.with(&[("sort", key)])) { (label) } " "
                                    }
                                }
                            }
                        }
                        ol.hits start=(v.offset + 1) {
                            @for h in &r.hits {
                                li.hit data-id=(h.id) {
                                    div.meta { (hit_meta(h.record.as_ref())) }
                                    p.text { (highlighted(&h.text, h.record.as_ref())) }
                                    div.prov {
                                        a href=(format!("/captions/{}", h.id)) { "caption #" (h.id) }
                                        " · " (h.sources.len()) " source" @if h.sources.len() != 1 { "s" }
                                        " · " (h.occurrences) " occurrence" @if h.occurrences != 1 { "s" }
                                    }
                                }
                            }
                        }
                        nav.pager aria-label="Pages" {
                            @if v.offset > 0 {
                                a rel="prev" href=(s.page(v.offset.saturating_sub(PAGE_SIZE))) { "← previous" }
                            }
                            @if (v.offset + PAGE_SIZE) < (r.total as usize) && v.offset + PAGE_SIZE < crate::MAX_WINDOW {
                                a rel="next" href=(s.page(v.offset + PAGE_SIZE)) { "next →" }
                            }
                        }
                    }
                }
            }
        }
    };
    layout(&title, body)
}

fn field(name: &str, value: Markup) -> Markup {
    html! { tr { th scope="row" { (name) } td { (value) } } }
}

/// One caption: its record, every variant and every source it appeared on.
pub(crate) fn caption_page(c: &CaptionView) -> Markup {
    let r = c.record.as_ref();
    let short: String = c.text.chars().take(80).collect();
    let body = html! {
        main.caption-page {
            p { a href="/" { "← search" } }
            h1 { "Caption #" (c.id) }
            p.text.big { (highlighted(&c.text, r)) }
            @if let Some(r) = r {
                table.record {
                    @if let Some(cr) = &r.credit {
                        (field("Credit", html! { (cr.raw) }))
                        (field("Photographers", html! { (cr.photographers.join(", ")) }))
                        @if let Some(a) = &cr.agency { (field("Agency", html! { (a) })) }
                        @if let Some(d) = &cr.distributor { (field("Distributor", html! { (d) })) }
                    }
                    @if let Some(d) = &r.date {
                        (field("Date", html! { (d.value) span.muted { " (" (d.precision.as_str()) ", from “" (d.text) "”)" } }))
                    }
                    @if let Some(l) = &r.location {
                        (field("Location", html! {
                            (l.name)
                            @if let Some(a) = &l.admin1 { ", " (a) }
                            @if let Some(cc) = &l.country { ", " (cc) }
                            span.muted { " (" (l.kind.as_str()) ", " (format!("{:.4}, {:.4}", l.lat, l.lon)) @if let Some(id) = &l.gazetteer_id { ", " (id) } ")" }
                        }))
                    }
                    @if !r.places.is_empty() {
                        (field("Places", html! { (r.places.iter().map(|p| p.name.as_str()).collect::<Vec<_>>().join(", ")) }))
                    }
                    @if let Some(k) = &r.casualties.killed { (field("Killed", html! { (k.low) @if let Some(h) = k.high { "–" (h) } span.muted { " (“" (k.text) "”)" } })) }
                    @if let Some(k) = &r.casualties.injured { (field("Injured", html! { (k.low) @if let Some(h) = k.high { "–" (h) } span.muted { " (“" (k.text) "”)" } })) }
                    @if !r.persons.is_empty() { (field("People", html! { (r.persons.join(", ")) })) }
                    @if !r.organizations.is_empty() { (field("Organisations", html! { (r.organizations.join(", ")) })) }
                    @if !r.event_types.is_empty() { (field("Event types", html! { (r.event_types.join(", ")) })) }
                    @if !r.sources.is_empty() { (field("According to", html! { (r.sources.join(", ")) })) }
                    @if !r.warnings.is_empty() { (field("Warnings", html! { (r.warnings.join("; ")) })) }
                }
            }
            h2 { (c.variants.len()) " variant" @if c.variants.len() != 1 { "s" } " of the text" }
            ol.variants {
                @for v in &c.variants {
                    li.variant {
                        p.text { (v.text) }
                        ul.occurrences {
                            @for o in &v.occurrences {
                                li {
                                    a href=(format!("/sources/{}#c{}", o.source.id, o.ordinal)) { (o.source.uri) }
                                    span.muted { " bytes " (o.span.start) "–" (o.span.end) " · sha256 " code { (o.source.sha256) } }
                                }
                            }
                        }
                    }
                }
            }
            p.muted { a href=(format!("/api/captions/{}", c.id)) { "as JSON" } }
        }
    };
    layout(&format!("#{} {short}", c.id), body)
}

/// One source: metadata and its text with the captions marked.
pub(crate) fn source_page(v: &SourceView, text: Option<&str>) -> Markup {
    let body = html! {
        main.source-page {
            p { a href="/" { "← search" } }
            h1 { "Source #" (v.id) }
            table.record {
                (field("URI", html! { (v.uri) }))
                (field("sha256", html! { code { (v.sha256) } }))
                (field("Kind", html! { (v.kind) ", " (v.encoding) ", " (v.size) " bytes" }))
                (field("Stored", html! { (v.ingested_at) }))
                @if !v.warnings.is_empty() { (field("Warnings", html! { (v.warnings.join("; ")) })) }
            }
            h2 { (v.captions.len()) " captions" }
            @if let Some(text) = text {
                div.source-text { (marked_source(text, &v.captions)) }
            }
            p.muted { a href=(format!("/api/sources/{}", v.id)) { "as JSON" } }
        }
    };
    layout(&format!("source #{}", v.id), body)
}

fn marked_source(text: &str, captions: &[(u64, i64, Span)]) -> Markup {
    let mut out = String::new();
    let mut at = 0;
    let mut sorted: Vec<&(u64, i64, Span)> = captions.iter().collect();
    sorted.sort_by_key(|(_, _, s)| s.start);
    for (ordinal, id, span) in sorted {
        let ok = span.start >= at
            && span.end <= text.len()
            && text.is_char_boundary(span.start)
            && text.is_char_boundary(span.end);
        if !ok {
            continue;
        }
        out.push_str(&html! { (text[at..span.start]) }.into_string());
        let _ = write!(
            out,
            "{}",
            html! {
                a.occ id=(format!("c{ordinal}")) href=(format!("/captions/{id}")) { (text[span.start..span.end]) }
            }
            .into_string()
        );
        at = span.end;
    }
    out.push_str(&html! { (text[at..]) }.into_string());
    PreEscaped(out)
}

/// A page for an error, in the page's own frame.
pub(crate) fn error_page(status: u16, message: &str) -> Markup {
    layout(
        "Error",
        html! {
            main {
                h1 { "Error " (status) }
                p.error role="alert" { (message) }
                p { a href="/" { "← search" } }
            }
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_change_one_parameter_and_keep_the_rest() {
        let s = State {
            pairs: vec![("q", "harasta".into()), ("agency", "AFP".into())],
        };
        assert_eq!(s.with(&[]), "/?q=harasta&agency=AFP");
        assert_eq!(s.with(&[("agency", "")]), "/?q=harasta");
        assert_eq!(
            s.with(&[("agency", "Reuters & Co")]),
            "/?q=harasta&agency=Reuters+%26+Co"
        );
        assert_eq!(s.page(20), "/?q=harasta&agency=AFP&offset=20");
    }

    #[test]
    fn caption_markup_is_escaped_and_spans_marked() {
        let text = "<script>alert(1)</script> \" onmouseover=x in Aleppo";
        let m = highlighted(text, None).into_string();
        assert!(!m.contains("<script>"));
        assert!(m.contains("&lt;script&gt;"));
        assert!(m.contains("&quot; onmouseover=x"));
    }

    #[test]
    fn zoom_grows_as_the_view_narrows() {
        assert_eq!(zoom_for(&[-180.0, -90.0, 180.0, 90.0]), 0);
        assert!(zoom_for(&[35.0, 32.0, 40.0, 37.0]) >= 5);
    }
}
