//! What the search page shows, gathered from the archive before any markup: the hits,
//! each facet counted without its own filter, the map with its labels and its points'
//! places, names for every id, and what to try when nothing matches.

use std::collections::HashMap;

use cairn_gazetteer::Gazetteer;
use cairn_store::{Archive, FacetCount, Facets, GeoGrid, SearchRequest, SearchResults, Stop};

use super::map::{Label, fit, zoom_for};
use super::{PAGE_SIZE, State};
use crate::{ApiError, ApiResult, MAX_LIMIT, SearchParams};

/// Located captions sampled to name the map's places.
const MAP_SAMPLE: usize = MAX_LIMIT;
/// Country and place names drawn on the map at most.
const MAP_LABELS: usize = 14;

/// Everything the search page shows.
#[derive(Default)]
pub(crate) struct SearchView {
    pub state: State,
    pub results: Option<SearchResults>,
    /// Facet counts, each field counted without its own filter.
    pub facets: Option<Facets>,
    pub error: Option<String>,
    /// A friendly line about how the search was read.
    pub notice: Option<String>,
    /// Lines about parameters that were corrected or can match nothing.
    pub warnings: Vec<String>,
    pub offset: usize,
    pub limit: usize,
    /// The sort in force (`relevance`, `-date` or `date`).
    pub sort: &'static str,
    pub map: Option<(GeoGrid, [f64; 4])>,
    pub labels: Vec<Label>,
    /// The place facet: (gazetteer id, name, count).
    pub places: Vec<(String, String, u64)>,
    /// With one place chosen: its way up, outermost first, as (id, name).
    pub breadcrumb: Vec<(String, String)>,
    /// Names of ids: ("country", "SY") → "Syria".
    pub names: HashMap<(&'static str, String), String>,
    /// Variants of each hit's caption.
    pub variants: HashMap<i64, usize>,
    pub terms: Vec<String>,
    /// The timeline split by the facet the page asks for.
    pub split: Option<crate::split::Split>,
}

impl SearchView {
    /// The word a filter's chip opens with: what it filters on, a place by its kind.
    pub fn chip_key(&self, key: &'static str, value: &str) -> String {
        if key == "place" {
            if let Some(k) = self.names.get(&("place_kind", value.to_string())) {
                return k.clone();
            }
        }
        match key {
            "killed_min" => "killed at least",
            "bbox" => "in",
            "lang" => "language",
            other => other,
        }
        .to_string()
    }

    /// The name a filter value reads as: a place or country by its name, a box as
    /// "map area", anything else as it is.
    pub fn name_of(&self, key: &'static str, value: &str) -> String {
        if key == "bbox" {
            return match crate::params::parse_bbox(value) {
                Ok([w, so, e, n]) => format!(
                    "map area {}–{}, {}–{}",
                    degrees(so, 'N', 'S'),
                    degrees(n, 'N', 'S'),
                    degrees(w, 'E', 'W'),
                    degrees(e, 'E', 'W')
                ),
                Err(_) => "map area".into(),
            };
        }
        if key == "review" {
            return super::review_label(value);
        }
        self.names
            .get(&(key, value.to_string()))
            .cloned()
            .unwrap_or_else(|| value.to_string())
    }
}

/// An angle as the page writes a box's edge: `36.2°N`, `4.5°W`.
fn degrees(v: f64, plus: char, minus: char) -> String {
    let side = if v < 0.0 { minus } else { plus };
    format!("{:.1}°{side}", v.abs())
}

/// Every country the gazetteer knows, by ISO code.
fn countries(g: &Gazetteer) -> Vec<(String, cairn_gazetteer::PlaceId)> {
    let mut out = Vec::new();
    for a in b'A'..=b'Z' {
        for b in b'A'..=b'Z' {
            let cc = String::from_utf8(vec![a, b]).unwrap_or_default();
            if let Some(id) = g.country(&cc) {
                out.push((cc, id));
            }
        }
    }
    out
}

/// Runs a search; the store searches text the query language refuses as plain words
/// and says so in its notice, which the page shows.
fn search_forgiving(
    archive: &Archive,
    req: &mut SearchRequest,
    stop: &Stop,
) -> ApiResult<(SearchResults, Option<String>)> {
    let r = archive.search_until(req, stop).map_err(ApiError::from)?;
    let notice = r.notice.clone();
    Ok((r, notice))
}

/// Runs the searches the page needs: hits with facets and histogram, each active facet
/// again without its own filter, the map at a zoom that fits the located matches.
pub(crate) fn search_view(
    archive: &Archive,
    g: &Gazetteer,
    p: SearchParams,
    dropped: Vec<String>,
    stop: &Stop,
) -> ApiResult<SearchView> {
    let state = State::from_params(&p);
    let offset = p.offset.unwrap_or(0);
    let limit = p.limit.unwrap_or(PAGE_SIZE).clamp(1, 100);
    let mut v = SearchView {
        warnings: dropped,
        offset,
        limit,
        terms: super::text::query_terms(&p.q),
        ..SearchView::default()
    };
    v.warnings.extend(super::names::warnings(&state));
    v.state = state;
    // An empty query has no relevance: it shows the newest first.
    let sort = p
        .sort
        .clone()
        .filter(|s| !s.is_empty())
        .or_else(|| p.q.trim().is_empty().then(|| "-date".to_string()));
    let made = crate::request(
        SearchParams {
            limit: Some(limit),
            sort: sort.clone(),
            facets: Some("1".into()),
            histogram: Some("1".into()),
            zoom: Some(2),
            ..p.clone()
        },
        g,
    );
    v.sort = match sort.as_deref() {
        Some("-date") => "-date",
        Some("date") => "date",
        _ => "relevance",
    };
    name_everything(&mut v, g, &p);
    name_sources(&mut v, archive, &p);
    let mut req = match made {
        Ok(r) => r,
        Err(ApiError::BadRequest(m)) => {
            v.error = Some(m);
            return Ok(v);
        }
        Err(e) => return Err(e),
    };
    let results = match search_forgiving(archive, &mut req, stop) {
        Ok((r, notice)) => {
            v.notice = notice;
            r
        }
        Err(ApiError::BadRequest(m)) => {
            v.error = Some(format!("This search could not be run: {m}"));
            return Ok(v);
        }
        Err(e) => return Err(e),
    };
    v.facets = results.facets.clone();
    split_view(&mut v, archive, &p, &req, &results, stop)?;
    open_facets(&mut v, archive, &req, stop)?;
    map_view(&mut v, archive, g, &req, &results, stop);
    place_facet(&mut v, archive, g, &req)?;
    for h in &results.hits {
        if let Ok(Some(c)) = archive.caption(h.id) {
            v.variants.insert(h.id, c.variants.len());
        }
    }
    v.results = Some(results);
    Ok(v)
}

/// The timeline split by the facet `split` names, or a warning when it names none.
fn split_view(
    v: &mut SearchView,
    archive: &Archive,
    p: &SearchParams,
    req: &SearchRequest,
    results: &SearchResults,
    stop: &Stop,
) -> ApiResult<()> {
    let Some(name) = p.split.as_deref().filter(|s| !s.is_empty()) else {
        return Ok(());
    };
    let field = match crate::split::field(name) {
        Ok(f) => f,
        Err(e) => {
            v.warnings
                .push(format!("{e}; the timeline is drawn whole."));
            return Ok(());
        }
    };
    if let (Some(h), Some(f)) = (&results.histogram, &results.facets) {
        v.split = Some(crate::split::split(archive, req, field, h, f, stop)?);
    }
    Ok(())
}

/// Names for the ids the page may show: countries by code, chosen places by name.
fn name_everything(v: &mut SearchView, g: &Gazetteer, p: &SearchParams) {
    for (cc, id) in countries(g) {
        let name = g.entry(id).name.clone();
        v.names.insert(("country", cc.clone()), name.clone());
        v.names.insert(("country", cc.to_lowercase()), name);
    }
    for place in &p.place {
        if let Some(id) = g.named(place) {
            let e = g.entry(id);
            v.names.insert(("place", place.clone()), e.name.clone());
            v.names.insert(
                ("place_kind", place.clone()),
                super::names::place_word(e).to_string(),
            );
        }
    }
    for (code, name) in super::names::LANGUAGES {
        v.names.insert(("lang", code.to_string()), name.to_string());
    }
    for code in &p.lang {
        if let Some(name) = super::names::language_name(code) {
            v.names.insert(("lang", code.clone()), name.to_string());
        }
    }
    if let Some(k) = p.killed_min {
        v.names.insert(("killed_min", k.to_string()), k.to_string());
    }
}

/// Names for the source filters: a source id as its file's name or page's address, a
/// uri prefix as the folder, file or address it is.
fn name_sources(v: &mut SearchView, archive: &Archive, p: &SearchParams) {
    for value in &p.source {
        let uri = match value.parse::<i64>() {
            Ok(id) => match archive.source_uri(id) {
                Ok(Some(uri)) => uri,
                _ => continue,
            },
            Err(_) => value.clone(),
        };
        v.names
            .insert(("source", value.clone()), super::names::source_name(&uri));
    }
}

/// Each facet with values chosen, counted again without its own filter so that its
/// other values stay in view to be added.
fn open_facets(
    v: &mut SearchView,
    archive: &Archive,
    req: &SearchRequest,
    stop: &Stop,
) -> ApiResult<()> {
    let Some(facets) = v.facets.as_mut() else {
        return Ok(());
    };
    type Pick = fn(&mut cairn_store::Filters) -> &mut Vec<String>;
    type Field = fn(&mut Facets) -> &mut Vec<FacetCount>;
    let fields: [(Pick, Field); 6] = [
        (|f| &mut f.agency, |x| &mut x.agency),
        (|f| &mut f.photographer, |x| &mut x.photographer),
        (|f| &mut f.country, |x| &mut x.country),
        (|f| &mut f.event, |x| &mut x.event_type),
        (|f| &mut f.lang, |x| &mut x.lang),
        (|f| &mut f.review, |x| &mut x.review),
    ];
    for (pick, field) in fields {
        let mut r = req.clone();
        if pick(&mut r.filters).is_empty() {
            continue;
        }
        pick(&mut r.filters).clear();
        r.limit = 1;
        r.offset = 0;
        r.histogram = false;
        r.geo_zoom = None;
        if let Some(mut counted) = archive.search_until(&r, stop)?.facets {
            *field(facets) = std::mem::take(field(&mut counted));
        }
    }
    Ok(())
}

/// The map: a view fitting the located matches, its grid at the matching zoom, and the
/// names to draw, the places among them from a sample of located captions.
fn map_view(
    v: &mut SearchView,
    archive: &Archive,
    g: &Gazetteer,
    req: &SearchRequest,
    results: &SearchResults,
    stop: &Stop,
) {
    let Some(coarse) = results.geo.as_ref() else {
        return;
    };
    let view = fit(coarse);
    let zoom = zoom_for(&view);
    let sample = SearchRequest {
        limit: MAP_SAMPLE,
        offset: 0,
        facets: false,
        histogram: false,
        geo_zoom: (zoom != coarse.zoom).then_some(zoom),
        ..req.clone()
    };
    let found = archive.search_until(&sample, stop).ok();
    let grid = found
        .as_ref()
        .and_then(|r| r.geo.clone())
        .unwrap_or_else(|| coarse.clone());
    // Per place: its name, where it is, its captions, and the name shown (as the
    // first caption of it spells it).
    let mut places: Vec<(String, f64, f64, usize, String)> = Vec::new();
    for h in found.iter().flat_map(|r| &r.hits) {
        let Some(l) = h.record.as_ref().and_then(|r| r.location.as_ref()) else {
            continue;
        };
        match places.iter_mut().find(|p| p.0 == l.name) {
            Some(p) => p.3 += 1,
            None => places.push((
                l.name.clone(),
                l.lat,
                l.lon,
                1,
                cairn_gazetteer::reader_name(&l.name, &l.text).to_string(),
            )),
        }
    }
    let inside =
        |lat: f64, lon: f64| lon >= view[0] && lon <= view[2] && lat >= view[1] && lat <= view[3];
    let mut countries: Vec<(u64, Label)> = countries(g)
        .into_iter()
        .map(|(_, id)| g.entry(id))
        .filter(|e| inside(e.lat, e.lon))
        .map(|e| {
            (
                e.population,
                Label {
                    name: e.name.clone(),
                    lat: e.lat,
                    lon: e.lon,
                    country: true,
                },
            )
        })
        .collect();
    countries.sort_by_key(|c| std::cmp::Reverse(c.0));
    places.sort_by_key(|p| std::cmp::Reverse(p.3));
    v.labels = countries
        .into_iter()
        .map(|(_, l)| l)
        .take(MAP_LABELS)
        .collect();
    v.labels.extend(
        places
            .into_iter()
            .filter(|p| inside(p.1, p.2))
            .take(MAP_LABELS)
            .map(|p| Label {
                name: p.4,
                lat: p.1,
                lon: p.2,
                country: false,
            }),
    );
    v.labels = apart(std::mem::take(&mut v.labels), (view[2] - view[0]) / 48.0);
    v.map = Some((grid, view));
}

/// The labels that do not overlap a label before them, each taken as a box of its
/// text's rough size at `font` (degrees).
fn apart(labels: Vec<Label>, font: f64) -> Vec<Label> {
    let mut kept: Vec<(Label, [f64; 4])> = Vec::new();
    for l in labels {
        let half = font * 0.32 * l.name.chars().count() as f64;
        // A place's name stands above its point (see `map`).
        let lat = if l.country { l.lat } else { l.lat + font * 1.9 };
        let b = [
            l.lon - half,
            lat - font * 0.6,
            l.lon + half,
            lat + font * 0.6,
        ];
        let clear = kept
            .iter()
            .all(|(_, k)| b[2] < k[0] || b[0] > k[2] || b[3] < k[1] || b[1] > k[3]);
        if clear {
            kept.push((l, b));
        }
    }
    kept.into_iter().map(|(l, _)| l).collect()
}

/// The place facet: with one place chosen, the places inside it and its way up the
/// hierarchy; with one country chosen, the places inside that; else none (the country
/// facet lists the top level).
fn place_facet(
    v: &mut SearchView,
    archive: &Archive,
    g: &Gazetteer,
    req: &SearchRequest,
) -> ApiResult<()> {
    let named = |list: &[FacetCount]| -> Vec<(String, String, u64)> {
        list.iter()
            .map(|c| {
                let name = g
                    .best_match(&c.value)
                    .map(|i| g.entry(i).name.clone())
                    .unwrap_or_else(|| c.value.clone());
                (c.value.clone(), name, c.count)
            })
            .collect()
    };
    let chosen: Vec<&str> = v.state.values("place").collect();
    if let ([one], [path]) = (chosen.as_slice(), req.filters.place.as_slice()) {
        let mut r = req.clone();
        r.facets = false;
        v.places = named(&archive.place_children(&r, path)?);
        if let Some(id) = g.named(one) {
            v.breadcrumb = g
                .path(id)
                .into_iter()
                .map(|p| (g.entry(p).id.clone(), g.entry(p).name.clone()))
                .collect();
        }
    } else if let ([], [cc]) = (chosen.as_slice(), req.filters.country.as_slice()) {
        // The top level of places is the countries, which the country facet lists
        // already; with one country chosen, the places inside it.
        if let Some(id) = g.country(&cc.to_uppercase()) {
            let path: Vec<String> = g
                .path(id)
                .into_iter()
                .map(|p| g.entry(p).id.clone())
                .collect();
            let mut r = req.clone();
            r.facets = false;
            v.places = named(&archive.place_children(&r, &path)?);
        }
    }
    for (id, name, _) in &v.places {
        v.names.insert(("place", id.clone()), name.clone());
        if let Some(i) = g.best_match(id) {
            v.names.insert(
                ("place_kind", id.clone()),
                super::names::place_word(g.entry(i)).to_string(),
            );
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_that_would_overlap_are_left_out() {
        let at = |name: &str, lat: f64, lon: f64| Label {
            name: name.into(),
            lat,
            lon,
            country: false,
        };
        let kept = apart(
            vec![
                at("Aleppo", 36.2, 37.16),
                at("Citadel of Aleppo", 36.199, 37.163),
                at("Idlib", 35.93, 36.63),
            ],
            0.2,
        );
        let names: Vec<&str> = kept.iter().map(|l| l.name.as_str()).collect();
        assert_eq!(names, ["Aleppo", "Idlib"]);
    }
}
