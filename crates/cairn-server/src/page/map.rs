//! The timeline and the map beside the results. The map is an SVG in degrees (x from
//! -180, y from 90 down) over the country outlines: each group of located matches is a
//! point where its captions are, country and place names label it, a scale bar gives the
//! distances, and `app.js` adds zoom and pan over the same drawing.

use cairn_store::{GeoCell, GeoGrid, Histogram};
use maud::{Markup, html};

use super::{State, plural};

/// Where the country outlines are served (Natural Earth 1:110m, public domain, via
/// world-atlas (ISC), as SVG paths in the box 0 0 360 180; see tools/worldmap).
const WORLD: &str = "/assets/world.svg#land";

/// The whole world as the map shows it.
pub(crate) const WORLD_VIEW: [f64; 4] = [-180.0, -60.0, 180.0, 85.0];

/// Views narrower than this (degrees) name places as well as countries.
const PLACE_LABELS_BELOW: f64 = 30.0;

/// A tap target's radius is at least the view's width over this: 44 px across and
/// more on a phone 390 px wide, where the page's margins leave the map some 360.
const TAP_FRACTION: f64 = 15.0;

/// A name on the map.
#[derive(Debug, Clone)]
pub(crate) struct Label {
    pub name: String,
    pub lat: f64,
    pub lon: f64,
    /// A country (shown at every zoom) or a place (shown zoomed in).
    pub country: bool,
}

/// The map's view `[west, south, east, north]`: the located matches with a margin, at
/// least 8 degrees across so that one place shows its country, the whole world when
/// they spread that far.
pub(crate) fn fit(grid: &GeoGrid) -> [f64; 4] {
    if grid.cells.is_empty() {
        return WORLD_VIEW;
    }
    let mut b = [f64::MAX, f64::MAX, f64::MIN, f64::MIN];
    for c in &grid.cells {
        b[0] = b[0].min(c.bbox[0]);
        b[1] = b[1].min(c.bbox[1]);
        b[2] = b[2].max(c.bbox[2]);
        b[3] = b[3].max(c.bbox[3]);
    }
    let w = (b[2] - b[0]).max(8.0);
    let h = (b[3] - b[1]).max(4.0);
    let (cx, cy) = ((b[0] + b[2]) / 2.0, (b[1] + b[3]) / 2.0);
    // Room for the points around the extreme ones.
    let (w, h) = (w * 1.5, h * 1.5);
    // Keep the page's 2:1 frame.
    let (w, h) = if w / h > 2.0 {
        (w, w / 2.0)
    } else {
        (h * 2.0, h)
    };
    if w >= 300.0 {
        return WORLD_VIEW;
    }
    [cx - w / 2.0, cy - h / 2.0, cx + w / 2.0, cy + h / 2.0]
}

/// The zoom whose cells are about a twentieth of the view's width.
pub(crate) fn zoom_for(view: &[f64; 4]) -> u8 {
    let want = (view[2] - view[0]) / 20.0;
    let mut z = 0u8;
    while z < 12 && 360.0 / (16.0 * f64::from(1u32 << (z + 1))) >= want {
        z += 1;
    }
    z
}

/// Where each group's point stands: the place most of its captions are at, which the
/// store finds among its members' own places. A mean of far-apart places, by contrast,
/// can fall in the sea or another country.
pub(crate) fn points(grid: &GeoGrid) -> Vec<(f64, f64)> {
    grid.cells.iter().map(|c| (c.at[0], c.at[1])).collect()
}

/// A round distance about a fifth of the view's width at its middle latitude: the
/// scale bar's length in km and in degrees of longitude.
pub(crate) fn scale(view: &[f64; 4]) -> (f64, f64) {
    let mid = ((view[1] + view[3]) / 2.0).to_radians().cos().max(0.01);
    let km_per_degree = 111.32 * mid;
    let want = (view[2] - view[0]) / 5.0 * km_per_degree;
    let step = 10f64.powf(want.log10().floor());
    let km = [5.0, 2.0, 1.0]
        .into_iter()
        .map(|m| m * step)
        .find(|km| *km <= want)
        .unwrap_or(step);
    (km, km / km_per_degree)
}

fn km_text(km: f64) -> String {
    if km >= 1.0 {
        format!("{km:.0} km")
    } else {
        format!("{:.0} m", km * 1000.0)
    }
}

/// The map of located matches.
pub(crate) fn map(state: &State, grid: &GeoGrid, view: [f64; 4], labels: &[Label]) -> Markup {
    let [west, south, east, north] = view;
    let w = east - west;
    let vb = format!(
        "{:.3} {:.3} {:.3} {:.3}",
        west + 180.0,
        90.0 - north,
        w,
        north - south
    );
    let max = grid.cells.iter().map(|c| c.count).max().unwrap_or(1).max(1) as f64;
    let unit = w / 100.0;
    let font = w / 48.0;
    let (km, deg) = scale(&view);
    let (sx, sy) = (
        west + 180.0 + w * 0.03,
        90.0 - south - (north - south) * 0.05,
    );
    let places_shown = w < PLACE_LABELS_BELOW;
    let at = points(grid);
    html! {
        section.map aria-label="Map of located captions" {
            h3 {
                "Map"
                span.muted { " (" (grid.unlocated) " without a place)" }
                @if state.get("bbox").is_some() {
                    " " a.on href=(state.with(&[("bbox", "")])) { "whole map ✕" }
                }
            }
            div.map-tools hidden {
                button type="button" data-zoom="in" aria-label="Zoom in" { "+" }
                button type="button" data-zoom="out" aria-label="Zoom out" { "−" }
                button type="button" data-zoom="reset" { "reset view" }
            }
            svg.world viewBox=(vb) data-view=(vb) data-places-below=(PLACE_LABELS_BELOW) role="img" aria-label="Map" {
                use.land href=(WORLD) {}
                // A place's name stands above its point, clear of the largest dot.
                g.labels font-size=(format!("{font:.4}")) {
                    @for l in labels {
                        @let hide = !l.country && !places_shown;
                        text class=(if l.country { "country" } else { "place" }) x=(format!("{:.4}", l.lon + 180.0)) y=(format!("{:.4}", 90.0 - l.lat)) dy=[(!l.country).then_some("-1.9em")] visibility=[hide.then_some("hidden")] { (l.name) }
                    }
                }
                // Round each point a bigger target to tap, under every visible dot so
                // that a neighbour's target never covers a dot.
                @for (c, (lat, lon)) in grid.cells.iter().zip(at.iter().copied()) {
                    @let r = unit * (0.8 + 2.6 * (c.count as f64 / max).sqrt());
                    a.tap href=(state.with(&[("bbox", &cell_box(c))])) tabindex="-1" aria-hidden="true" {
                        circle.tap cx=(format!("{:.4}", lon + 180.0)) cy=(format!("{:.4}", 90.0 - lat)) r=(format!("{:.4}", r.max(w / TAP_FRACTION))) {}
                    }
                }
                @for (c, (lat, lon)) in grid.cells.iter().zip(at) {
                    @let r = unit * (0.8 + 2.6 * (c.count as f64 / max).sqrt());
                    a.point href=(state.with(&[("bbox", &cell_box(c))])) aria-label=(format!("{} near {:.2}, {:.2}", plural(c.count, "caption"), lat, lon)) {
                        circle.dot cx=(format!("{:.4}", lon + 180.0)) cy=(format!("{:.4}", 90.0 - lat)) r=(format!("{r:.4}")) {
                            title { (plural(c.count, "caption")) }
                        }
                    }
                }
                g.scale data-km=(km) {
                    line x1=(format!("{sx:.4}")) y1=(format!("{sy:.4}")) x2=(format!("{:.4}", sx + deg)) y2=(format!("{sy:.4}")) {}
                    text x=(format!("{sx:.4}")) y=(format!("{:.4}", sy - font * 0.5)) font-size=(format!("{font:.4}")) { (km_text(km)) }
                }
            }
        }
    }
}

/// A group's box as the `bbox` filter of its link.
fn cell_box(c: &GeoCell) -> String {
    format!("{},{},{},{}", c.bbox[0], c.bbox[1], c.bbox[2], c.bbox[3])
}

/// Matches over time, each bar a link to its period.
pub(crate) fn timeline(state: &State, h: &Histogram) -> Markup {
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
                    a href=(state.with(&[("from", &b.from), ("to", &b.to)])) data-from=(b.from) data-to=(b.to) data-count=(b.count) aria-label=(format!("{}: {}", b.key, plural(b.count, "caption"))) {
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
            (date_range(state))
        }
    }
}

/// From/to dates and a least number killed, with the other parameters kept.
pub(crate) fn date_range(state: &State) -> Markup {
    let from = state
        .get("from")
        .map(|v| full_date(v, false))
        .unwrap_or_default();
    let to = state
        .get("to")
        .map(|v| full_date(v, true))
        .unwrap_or_default();
    html! {
        form.range method="get" action="/" aria-label="Date range and toll" {
            @for (k, v) in &state.pairs {
                @if !matches!(*k, "from" | "to" | "killed_min") { input type="hidden" name=(k) value=(v); }
            }
            label { "From " input type="date" name="from" value=(from); }
            label { "to " input type="date" name="to" value=(to); }
            label { "killed ≥ " input type="number" name="killed_min" min="0" inputmode="numeric" value=(state.get("killed_min").unwrap_or("")); }
            button type="submit" { "Apply" }
        }
    }
}

/// A `YYYY` or `YYYY-MM` bound as the day it stands for (its first day for `from`, its
/// last for `to`), which filters the same matches and fits a date field.
pub(crate) fn full_date(v: &str, last: bool) -> String {
    let parts: Vec<&str> = v.split('-').collect();
    let num = |s: &str| s.parse::<u32>().ok();
    match parts.as_slice() {
        [y] if num(y).is_some() => format!("{y}-{}", if last { "12-31" } else { "01-01" }),
        [y, m] => match (num(y), num(m)) {
            (Some(yy), Some(mm)) if (1..=12).contains(&mm) => {
                let day = if last { days_in_month(yy, mm) } else { 1 };
                format!("{y}-{m:0>2}-{day:02}")
            }
            _ => v.to_string(),
        },
        _ => v.to_string(),
    }
}

fn days_in_month(y: u32, m: u32) -> u32 {
    match m {
        2 if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zoom_grows_as_the_view_narrows() {
        assert_eq!(zoom_for(&[-180.0, -90.0, 180.0, 90.0]), 0);
        assert!(zoom_for(&[35.0, 32.0, 40.0, 37.0]) >= 5);
    }

    #[test]
    fn the_scale_is_a_round_distance() {
        let (km, deg) = scale(&[30.0, 30.0, 40.0, 40.0]);
        assert!([100.0, 200.0, 500.0].contains(&km), "{km}");
        assert!(deg > 0.5 && deg < 4.0, "{deg}");
    }

    #[test]
    fn partial_dates_fill_a_date_field() {
        assert_eq!(full_date("2016", false), "2016-01-01");
        assert_eq!(full_date("2016-02", true), "2016-02-29");
        assert_eq!(full_date("2016-11-24", true), "2016-11-24");
    }
}
