//! The page and the search API through the router, without a socket: repeated filters,
//! facets that keep their other values, names instead of ids, forgiving search, and a
//! property that any text typed in the search box gives a page, never an internal or
//! raw parser error.

mod routed;

use std::sync::Arc;

use axum::http::StatusCode;
use cairn_store::Archive;
use proptest::prelude::*;
use routed::{get, total};

/// Our own sentences, one a source, in the shapes wire captions take.
const TEXTS: [&str; 4] = [
    "Rescuers search the rubble of a building after an air strike in Aleppo, Syria, on November 24, 2016. AFP PHOTO / Sam Writer",
    "A boy walks past a damaged shop in Douma, Syria, March 2, 2017. REUTERS/Lee Author",
    "Smoke rises over Kyiv, Ukraine, February 26, 2022. REUTERS/Lee Author",
    "Farmers sell grain at a market in Aleppo, Syria, May 5, 2016. (AP Photo/Kim Maker)",
];

fn archive() -> (tempfile::TempDir, Arc<Archive>) {
    routed::archive_of(&TEXTS)
}

#[tokio::test]
async fn a_filter_takes_several_values_in_the_api_and_the_page() {
    let (_d, a) = archive();
    let app = cairn_server::router(a);
    let api = |q: &'static str| {
        let app = app.clone();
        async move {
            let (s, body) = get(&app, q).await;
            assert_eq!(s, StatusCode::OK, "{q}: {body}");
            serde_json::from_str::<serde_json::Value>(&body).unwrap()["total"]
                .as_u64()
                .unwrap()
        }
    };
    assert_eq!(api("/api/search?agency=AFP").await, 1);
    assert_eq!(api("/api/search?agency=AFP&agency=Reuters").await, 3);
    assert_eq!(api("/api/search?agency=AFP,Reuters").await, 3);
    assert_eq!(
        api("/api/search?agency=AFP&agency=Reuters&country=UA").await,
        1
    );
    assert_eq!(api("/api/search?country=SY&country=UA").await, 4);
    // An empty form field is no filter; a number that does not read is named.
    assert_eq!(api("/api/search?killed_min=&from=&bbox=").await, 4);
    let (s, body) = get(&app, "/api/search?limit=ten").await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(body.contains("limit must be a whole number"), "{body}");

    let (s, html) = get(&app, "/?agency=AFP&agency=Reuters").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(total(&html), 3);
    // Both chosen values are checked, and the one not chosen is still offered.
    assert!(
        html.contains(r#"aria-checked="true" data-value="AFP""#),
        "{html}"
    );
    assert!(html.contains(r#"aria-checked="true" data-value="Reuters""#));
    assert!(
        html.contains(r#"aria-checked="false" data-value="AP""#),
        "{html}"
    );
    // One value is unchecked alone.
    assert!(html.contains(
        r#"href="/?agency=Reuters" role="checkbox" aria-checked="true" data-value="AFP""#
    ));
}

#[tokio::test]
async fn chips_and_facets_show_names_not_ids() {
    let (_d, a) = archive();
    let app = cairn_server::router(a);
    let (_, html) = get(&app, "/?country=SY&bbox=30,30,40,40").await;
    assert!(
        html.contains(r#"<span class="key">country</span> Syria"#),
        "{html}"
    );
    assert!(html.contains(r#"<span class="key">in</span> map area"#));
    assert!(!html.contains(">iso3166:"), "no place id is shown as text");
    assert!(
        html.contains(r#"<span class="name">Syria</span>"#),
        "the country facet names it"
    );
    // One place chosen: the way up its hierarchy, by name.
    let (_, html) = get(&app, "/?place=Aleppo").await;
    assert_eq!(total(&html), 2);
    let crumbs = html
        .split(r#"<nav class="crumbs""#)
        .nth(1)
        .expect("a breadcrumb");
    let crumbs = crumbs.split("</nav>").next().unwrap();
    assert!(
        crumbs.contains("All places") && crumbs.contains(">Syria<"),
        "{crumbs}"
    );
    assert!(crumbs.contains("Aleppo"), "{crumbs}");
    assert!(!crumbs.contains(">geonames"), "{crumbs}");
    // A source by its id (the source page's): its captions, the chip naming it by
    // its uri, not the id.
    let (_, html) = get(&app, "/?source=2").await;
    assert_eq!(total(&html), 1);
    assert!(html.contains("Douma"), "the second source's caption");
    assert!(
        html.contains(r#"<span class="key">source</span> test:1 "#),
        "{html}"
    );
    assert!(!html.contains(r#"<span class="key">source</span> 2 "#));
}

#[tokio::test]
async fn text_that_is_not_a_query_is_searched_as_words_with_a_notice() {
    let (_d, a) = archive();
    let app = cairn_server::router(a);
    for q in [
        "%22Aleppo",
        "(Kyiv",
        "AND",
        "-",
        "time%3A%2010",
        "Ma%27arrat%20al-Numan",
    ] {
        let (s, html) = get(&app, &format!("/?q={q}")).await;
        assert_eq!(s, StatusCode::OK, "{q}");
        assert!(!html.contains(r#"class="error""#), "{q}: {html}");
        assert!(
            html.contains(r#"<strong id="total">"#),
            "{q}: facets and results stay"
        );
        if total(&html) > 0 {
            assert!(html.contains(r#"data-facet="agency""#), "{q}: facets stay");
        }
    }
    let (_, html) = get(&app, "/?q=(Kyiv").await;
    assert!(html.contains(r#"<p class="notice""#), "{html}");
    assert_eq!(total(&html), 1);
    assert!(
        html.contains(r#"<mark class="term">Kyiv</mark>"#),
        "the word is marked"
    );
}

#[tokio::test]
async fn the_page_says_when_nothing_matches_and_what_to_try() {
    let (_d, a) = archive();
    let app = cairn_server::router(a);
    let (_, html) = get(&app, "/?q=qwxzzy&agency=AFP").await;
    assert_eq!(total(&html), 0);
    assert!(html.contains("No caption matches this search."));
    assert!(
        html.contains(r#"Drop the filter <a href="/?q=qwxzzy">AFP</a>"#),
        "{html}"
    );
}

#[tokio::test]
async fn the_page_offers_ranges_pages_exports_and_newest_first() {
    let (_d, a) = archive();
    let app = cairn_server::router(a);
    let (_, html) = get(&app, "/?limit=2").await;
    assert_eq!(total(&html), 4);
    assert!(
        html.contains(r#"<strong>newest</strong>"#),
        "an empty query sorts newest first"
    );
    let first = html.find("Kyiv").unwrap();
    let aleppo = html.find("Farmers sell grain").unwrap_or(usize::MAX);
    assert!(first < aleppo, "2022 before 2016");
    assert!(html.contains(r#"<strong aria-current="page">1</strong>"#));
    assert!(
        html.contains(r#"href="/?limit=2&amp;offset=2">2</a>"#),
        "{html}"
    );
    assert!(html.contains(r#"type="date" name="from""#));
    assert!(html.contains(r#"name="killed_min""#));
    for f in ["csv", "geojson", "acled-csv", "jsonl"] {
        assert!(
            html.contains(&format!(r#"href="/api/export?format={f}""#)),
            "{f}"
        );
    }
    let (_, html) = get(&app, "/?from=2016&to=2016-05").await;
    assert!(html.contains(r#"value="2016-01-01""#) && html.contains(r#"value="2016-05-31""#));
    assert_eq!(total(&html), 1);
    assert!(
        html.contains("> caption</") || html.contains(" caption<"),
        "one caption, singular"
    );
}

#[tokio::test]
async fn a_caption_page_keeps_the_search_and_links_its_fields() {
    let (_d, a) = archive();
    let app = cairn_server::router(a);
    let (s, html) = get(&app, "/captions/1?q=rubble&agency=AFP").await;
    assert_eq!(s, StatusCode::OK);
    assert!(
        html.contains(r#"class="back" href="/?q=rubble&amp;agency=AFP""#),
        "{html}"
    );
    assert!(
        html.contains(r#"name="q" value="rubble""#),
        "a search box holding the query"
    );
    assert!(html.contains(r#"href="/?agency=AFP">AFP</a>"#), "{html}");
    assert!(
        html.contains(r#"href="/?photographer=Sam+Writer">Sam Writer</a>"#),
        "{html}"
    );
    assert!(html.contains("first seen"));
    assert!(
        html.contains(r#"href="/?country=SY">Syria</a>"#),
        "the country by name"
    );
    assert!(html.contains(r#"dir="auto""#));
    // The place's evidence and how sure the extractor is, as the record holds them.
    let location = cairn_extract::Extractor::bundled()
        .extract(TEXTS[0])
        .location
        .expect("a located caption");
    let reason = location.reason.expect("a reason");
    assert!(
        html.contains(&format!("from “<span dir=\"auto\">{reason}</span>”")),
        "{html}"
    );
    let sure = location.confidence.expect("a confidence").as_str();
    assert!(
        html.contains(&format!(r#"class="confidence {sure}">{sure} confidence"#)),
        "{html}"
    );
}

#[tokio::test]
async fn query_words_read_as_a_reader_means_them() {
    let (_d, a) = archive();
    let app = cairn_server::router(a);
    // A lone exclusion: every caption but those.
    let (_, html) = get(&app, "/?q=-kyiv").await;
    assert_eq!(total(&html), 3, "{html}");
    assert!(!html.contains("excluding"), "no engine message: {html}");
    assert!(!html.contains(r#"<p class="notice""#), "{html}");
    // Curly quotes are quotes: the words as a phrase, not loose.
    let (_, html) = get(&app, "/?q=building%20rubble").await;
    assert_eq!(total(&html), 1);
    let (_, html) = get(&app, "/?q=%E2%80%9Cbuilding%20rubble%E2%80%9D").await;
    assert_eq!(total(&html), 0, "a phrase in curly quotes");
    let (_, html) = get(&app, "/?q=%E2%80%9Crubble%20of%20a%20building%E2%80%9D").await;
    assert_eq!(total(&html), 1);
    // An apostrophe inside a word opens no quote.
    let (_, html) = get(&app, "/?q=Ma%27arrat").await;
    assert!(!html.contains("left open"), "{html}");
}

#[tokio::test]
async fn bad_numbers_and_impossible_filters_are_explained_on_the_page() {
    let (_d, a) = archive();
    let app = cairn_server::router(a);
    let (s, html) = get(&app, "/?agency=AFP&killed_min=ten&offset=x").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(total(&html), 1, "the rest of the search is kept");
    assert!(html.contains("killed_min must be a whole number"), "{html}");
    assert!(html.contains("offset must be a whole number"), "{html}");
    assert!(html.contains(r#"<span class="key">agency</span> AFP"#));
    // The API still refuses them.
    let (s, _) = get(&app, "/api/search?killed_min=ten").await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    let (_, html) = get(&app, "/?lang=xx").await;
    assert!(
        html.contains(r#"lang &quot;xx&quot; is not a language"#),
        "{html}"
    );
    let (_, html) = get(&app, "/?event=Picnic").await;
    assert!(html.contains("is not an event type"), "{html}");
    let (_, html) = get(&app, "/?from=2020&to=2019-06").await;
    assert!(
        html.contains("from 2020 is later than to 2019-06"),
        "{html}"
    );
    let (_, html) = get(&app, "/?from=2016&to=2016").await;
    assert!(!html.contains("later than"), "one year is a range");
}

#[tokio::test]
async fn the_page_has_a_skip_link_a_favicon_and_distinct_export_names() {
    let (_d, a) = archive();
    let app = cairn_server::router(a);
    let (_, html) = get(&app, "/?q=Aleppo").await;
    let skip = html
        .find(r##"<a class="skip" href="#results">"##)
        .expect("a skip link");
    let target = html.find(r#"id="results""#).expect("its target");
    assert!(skip < html.find("data-facet").unwrap() && skip < target);
    assert!(html.contains(r#"rel="icon""#));
    let (s, svg) = get(&app, "/assets/favicon.svg").await;
    assert_eq!(s, StatusCode::OK);
    assert!(svg.starts_with("<svg"));
    for name in ["cairn-captions.csv", "cairn-acled.csv"] {
        assert!(html.contains(&format!(r#"download="{name}""#)), "{name}");
    }
    let css = get(&app, "/assets/app.css").await.1;
    assert!(css.contains("[hidden] { display: none !important; }"));
}

/// One archive for every case of the property.
fn shared() -> Arc<Archive> {
    static ONE: std::sync::OnceLock<(tempfile::TempDir, Arc<Archive>)> = std::sync::OnceLock::new();
    ONE.get_or_init(archive).1.clone()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// Any text typed in the search box gives the page (results or a friendly line),
    /// never an internal error nor a parser's own message.
    #[test]
    fn any_search_box_text_gives_a_page(q in prop_oneof![
        "\\PC{0,60}",
        "[\"()\\-:*^~+!'\\[\\]{}/\\\\ a-zA-Z0-9ANDORT]{0,40}",
    ]) {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        let app = cairn_server::router(shared());
        let uri = format!("/?{}", form_urlencoded::Serializer::new(String::new()).append_pair("q", &q).finish());
        let (s, html) = rt.block_on(get(&app, &uri));
        prop_assert_eq!(s, StatusCode::OK);
        prop_assert!(html.contains(r#"<strong id="total">"#), "{}", html);
        for raw in ["internal error", "Syntax Error", "syntax error", "Failed to deserialize", "tantivy"] {
            prop_assert!(!html.contains(raw), "{}: {}", raw, html);
        }
    }
}
