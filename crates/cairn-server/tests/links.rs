//! The page keeps the whole search in every link: a page built from a URL carrying
//! every filter the API knows is walked link by link, and each link keeps every filter
//! but the one it is there to change, and the timeline's split. The map draws each
//! group at one of its members' places, even a group whose members lie a continent
//! apart. The timeline splits by agency on the whole search's periods.

mod routed;

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::http::StatusCode;
use cairn_store::Archive;
use routed::{get, total};

/// Our own sentences, one a source.
const TEXTS: [&str; 9] = [
    "Rescuers search the rubble after an air strike killed 12 people in Aleppo, Syria, on November 24, 2016. AFP PHOTO / Sam Writer",
    "Neighbours carry a wounded man after an air strike killed 9 people in Aleppo, Syria, on November 26, 2016. AFP PHOTO / Sam Writer",
    "Smoke rises after an air strike killed 6 people in Aleppo, Syria, on November 28, 2016. AFP PHOTO / SAM WRITER",
    "Des secouristes fouillent les décombres après une frappe aérienne qui a tué 12 personnes à Alep, en Syrie, le 24 novembre 2016. AFP PHOTO / Sam Writer",
    "Fans wave flags in a square in Barcelona, Spain, on May 3, 2019. REUTERS/Lee Author",
    "A street market opens in Barcelona, Spain, on May 4, 2019. REUTERS/Lee Author",
    "Students march through Belgrade, Serbia, on May 5, 2019. REUTERS/Lee Author",
    "Dancers perform in Mexico City, Mexico, on June 1, 2019. REUTERS/Lee Author",
    "Commuters wait for a train in Manila, Philippines, on June 2, 2019. REUTERS/Lee Author",
];

/// The archive of [`TEXTS`], every caption marked verified by an editor.
fn archive() -> (tempfile::TempDir, Arc<Archive>) {
    let (d, a) = routed::archive_of(&TEXTS);
    drop(a);
    let mut w = Archive::open_writer(d.path()).unwrap();
    let verified = cairn_store::Edit {
        verified: Some(true),
        ..Default::default()
    };
    for id in 1..=TEXTS.len() as i64 {
        w.save_edit(id, &verified, "eddie", 0).unwrap();
    }
    drop(w);
    let a = Arc::new(Archive::open_reader(d.path()).unwrap());
    (d, a)
}

/// Every filter the API knows, in the groups a link changes at once (a period's
/// bounds change together).
const FILTERS: [&[&str]; 13] = [
    &["agency"],
    &["photographer"],
    &["place"],
    &["country"],
    &["event"],
    &["lang"],
    &["from", "to"],
    &["killed_min"],
    &["bbox"],
    &["source"],
    &["review"],
    &["q"],
    &["split"],
];

/// Values of each parameter of a query string, sorted.
fn params(query: &str) -> BTreeMap<String, Vec<String>> {
    let mut m: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (k, v) in form_urlencoded::parse(query.as_bytes()) {
        m.entry(k.into_owned()).or_default().push(v.into_owned());
    }
    for v in m.values_mut() {
        v.sort();
    }
    m
}

/// The filter groups a link's parameters differ from the page's in.
fn changed(
    page: &BTreeMap<String, Vec<String>>,
    link: &BTreeMap<String, Vec<String>>,
) -> Vec<String> {
    FILTERS
        .iter()
        .filter(|group| group.iter().any(|k| page.get(*k) != link.get(*k)))
        .map(|group| group.join("+"))
        .collect()
}

fn unescape(s: &str) -> String {
    s.replace("&amp;", "&")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
}

/// Every `href` of the page outside the hits' own field links (those start a new
/// search on one value), with the text after it.
fn links(html: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(at) = rest.find("href=\"") {
        rest = &rest[at + 6..];
        let end = rest.find('"').unwrap();
        let href = unescape(&rest[..end]);
        // Inside a hit's fields (`<div class="meta">` not yet closed): a new search.
        let head = &html[..html.len() - rest.len()];
        let in_meta = head
            .rfind("<div class=\"meta\">")
            .is_some_and(|o| !head[o..].contains("</div>"));
        if in_meta {
            continue;
        }
        let text: String = rest[end..].chars().take(80).collect();
        out.push((href, text));
    }
    out
}

/// The `name`/`value` pairs of a form's inputs.
fn form_fields(html: &str, class: &str) -> BTreeMap<String, Vec<String>> {
    let start = html
        .find(&format!("<form class=\"{class}\""))
        .unwrap_or_else(|| panic!("a form.{class}"));
    let form = &html[start..start + html[start..].find("</form>").unwrap()];
    let mut m: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for input in form.split("<input").skip(1) {
        let attr = |name: &str| {
            input
                .split(&format!(" {name}=\""))
                .nth(1)
                .map(|v| unescape(&v[..v.find('"').unwrap()]))
        };
        if let (Some(n), Some(v)) = (attr("name"), attr("value")) {
            if !v.is_empty() {
                m.entry(n).or_default().push(v);
            }
        }
    }
    for v in m.values_mut() {
        v.sort();
    }
    m
}

#[tokio::test]
async fn every_link_of_a_page_keeps_every_filter_but_the_one_it_changes() {
    let (_d, a) = archive();
    let app = cairn_server::router(a);
    let url = "/?q=strike&agency=AFP&photographer=Sam+Writer&place=Aleppo&country=SY\
               &event=Air%2Fdrone+strike&lang=en&from=2016-11&to=2016-11-30&killed_min=5\
               &bbox=30,30,40,40&source=test%3A&review=verified&sort=date&limit=1&split=agency";
    let (s, html) = get(&app, url).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(total(&html), 3, "the three English captions of the strikes");
    assert!(!html.contains("class=\"notice warning\""), "{html}");
    let page = params(url.trim_start_matches("/?"));
    assert_eq!(
        changed(&page, &BTreeMap::new()).len(),
        FILTERS.len(),
        "the URL carries every filter"
    );
    // The language is a facet and a chip, by name.
    assert!(html.contains(r#"data-facet="lang""#), "{html}");
    assert!(html.contains(r#"<span class="key">language</span> English"#));
    assert!(
        html.contains(r#"<span class="key">city</span> Aleppo"#),
        "{html}"
    );

    // The timeline is drawn split by agency, as the URL asks.
    assert!(html.contains(r#"class="timeline split""#), "{html}");
    assert!(html.contains(r#"data-series="AFP""#), "{html}");

    let mut kinds: BTreeMap<&str, usize> = BTreeMap::new();
    for (href, text) in links(&html) {
        let (path, query) = href.split_once('?').unwrap_or((href.as_str(), ""));
        let kind = match path {
            // The brand's link home starts afresh.
            "/" if query.is_empty() => continue,
            "/" => "page",
            "/api/export" => "export",
            p if p.starts_with("/captions/") => "caption",
            _ => continue,
        };
        let link = params(query);
        let diff = changed(&page, &link);
        if text.trim_start_matches('"').starts_with(">clear all") {
            assert!(link.keys().all(|k| k == "q" || k == "split"), "{href}");
            assert!(link.contains_key("split"), "{href}");
            continue;
        }
        *kinds.entry(kind).or_default() += 1;
        match kind {
            // Exports, captions, pages, sort and size keep the whole search.
            "export" | "caption" => assert!(diff.is_empty(), "{href} drops {diff:?}"),
            _ => assert!(diff.len() <= 1, "{href} changes {diff:?}"),
        }
    }
    assert_eq!(kinds.get("export"), Some(&4), "{kinds:?}");
    assert!(kinds.get("caption").is_some_and(|&n| n >= 1), "{kinds:?}");
    assert!(kinds.get("page").is_some_and(|&n| n >= 30), "{kinds:?}");
    // A pager link to the next page keeps it all.
    assert!(
        html.contains("&amp;offset=1\" rel=\"next\"") || html.contains("rel=\"next\" href=\"/?"),
        "{html}"
    );
    // The forms hold the whole search: the search box's and the date range's.
    for (class, own) in [
        ("search", &["q"][..]),
        ("range", &["from", "to", "killed_min"][..]),
    ] {
        let fields = form_fields(&html, class);
        for (k, v) in &page {
            // The range form shows its dates as days (`2016-11` as `2016-11-01`).
            if own.contains(&k.as_str()) {
                continue;
            }
            assert_eq!(fields.get(k), Some(v), "form.{class} drops {k}");
        }
    }
}

#[tokio::test]
async fn a_map_group_stands_at_one_of_its_members_places() {
    let (_d, a) = archive();
    let app = cairn_server::router(a);
    // Where the captions are located, from the API.
    let (_, body) = get(&app, "/api/search?limit=50").await;
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    let places: Vec<(f64, f64)> = v["hits"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|h| {
            let l = &h["record"]["location"];
            Some((l["lat"].as_f64()?, l["lon"].as_f64()?))
        })
        .collect();
    assert_eq!(places.len(), TEXTS.len(), "every caption is located");
    let km = |(a, b): (f64, f64), (c, d): (f64, f64)| {
        let (a, b, c, d) = (
            a.to_radians(),
            b.to_radians(),
            c.to_radians(),
            d.to_radians(),
        );
        let h = ((c - a) / 2.0).sin().powi(2) + a.cos() * c.cos() * ((d - b) / 2.0).sin().powi(2);
        2.0 * 6371.0 * h.sqrt().asin()
    };
    let (_, html) = get(&app, "/").await;
    let mut spanning = 0;
    let mut dots = 0;
    for point in html.split("<a class=\"point\" href=\"").skip(1) {
        let href = unescape(&point[..point.find('"').unwrap()]);
        let bbox: Vec<f64> = params(href.trim_start_matches("/?"))["bbox"][0]
            .split(',')
            .map(|x| x.parse().unwrap())
            .collect();
        let attr = |name: &str| -> f64 {
            let at = point.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
            point[at..].split('"').next().unwrap().parse().unwrap()
        };
        let (lat, lon) = (90.0 - attr("cy"), attr("cx") - 180.0);
        dots += 1;
        let slack = 1e-3;
        assert!(
            lon >= bbox[0] - slack
                && lon <= bbox[2] + slack
                && lat >= bbox[1] - slack
                && lat <= bbox[3] + slack,
            "the dot at {lat},{lon} lies outside its members' box {bbox:?}"
        );
        let nearest = places
            .iter()
            .map(|&p| km(p, (lat, lon)))
            .fold(f64::MAX, f64::min);
        assert!(
            nearest <= 50.0,
            "the dot at {lat},{lon} is {nearest:.0} km from every caption"
        );
        if bbox[2] - bbox[0] > 15.0 {
            spanning += 1;
        }
    }
    assert!(dots >= 3, "{html}");
    assert!(
        spanning >= 1,
        "a group holds Barcelona and Belgrade: {html}"
    );
}

#[tokio::test]
async fn the_timeline_splits_by_agency_on_the_whole_search_s_periods() {
    let (_d, a) = archive();
    let app = cairn_server::router(a);
    let (s, body) = get(&app, "/api/histogram?split=agency").await;
    assert_eq!(s, StatusCode::OK, "{body}");
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["interval"], "month", "{v}");
    let periods = v["buckets"].as_array().unwrap();
    let whole: Vec<u64> = periods
        .iter()
        .map(|b| b["count"].as_u64().unwrap())
        .collect();
    let series = v["series"].as_array().unwrap();
    let names: Vec<&str> = series
        .iter()
        .map(|s| s["value"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Reuters", "AFP"], "{v}");
    let counts = |i: usize| -> Vec<u64> {
        series[i]["counts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_u64().unwrap())
            .collect()
    };
    // Each series on the whole timeline's periods; together they are the whole.
    let key = |i: usize| periods[i]["key"].as_str().unwrap();
    for (i, (r, f)) in counts(0).iter().zip(counts(1)).enumerate() {
        assert_eq!(r + f, whole[i], "{}", key(i));
        let want_afp = if key(i) == "2016-11" { 4 } else { 0 };
        assert_eq!(f, want_afp, "{}", key(i));
    }
    assert_eq!(counts(0).iter().sum::<u64>(), 5);
    assert!(v["other"].as_array().unwrap().iter().all(|c| c == 0));
    // The same search narrowed: the series follow it.
    let (_, body) = get(&app, "/api/histogram?split=country&q=Barcelona").await;
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["series"][0]["value"], "ES", "{v}");
    assert_eq!(v["series"].as_array().unwrap().len(), 1, "{v}");
    // A facet the timeline cannot be split by is refused by name.
    let (s, body) = get(&app, "/api/histogram?split=lang").await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(
        body.contains("split must be one of agency, country, photographer"),
        "{body}"
    );
}
