//! The researcher's steps through the page after the first tour: several values of a
//! facet, "show all", names on chips, text that is not a query, exports, the map's
//! labels and points, the caption page's diff and way back, an Arabic caption, and a
//! phone's screen. Each step saves screenshots at the width it runs.

use std::path::Path;

use fantoccini::{Client, Locator};

use super::{cli_total, shot, shown_total, text_of, wait_url_change};

async fn attr(c: &Client, css: &str, name: &str) -> Option<String> {
    c.find(Locator::Css(css))
        .await
        .ok()?
        .attr(name)
        .await
        .ok()?
}

async fn js(c: &Client, script: &str) -> serde_json::Value {
    c.execute(script, vec![]).await.expect(script)
}

/// Every string the API gives in the located results' places for a search (names,
/// gazetteer names, ids): what the map's place labels may say.
async fn api_place_names(c: &Client, base: &str, query: &str) -> Vec<String> {
    c.goto(&format!("{base}/api/search?{query}&limit=100"))
        .await
        .unwrap();
    let body = js(c, "return document.body.innerText;").await;
    let v: serde_json::Value = serde_json::from_str(body.as_str().unwrap()).unwrap();
    let mut out = Vec::new();
    for hit in v["hits"].as_array().unwrap() {
        if let Some(loc) = hit["record"]["location"].as_object() {
            out.extend(loc.values().filter_map(|x| x.as_str()).map(String::from));
        }
    }
    assert!(!out.is_empty(), "no located result for {query}");
    out
}

/// Every map point's tap target is at least 44 px across on a screen the map spans
/// 390 px of, big enough for a finger.
async fn assert_points_tap_sized(c: &Client, what: &str) {
    for tap in c
        .find_all(Locator::Css("svg.world a.tap circle"))
        .await
        .unwrap()
    {
        let size = tap.rectangle().await.unwrap();
        let map = c
            .find(Locator::Css("svg.world"))
            .await
            .unwrap()
            .rectangle()
            .await
            .unwrap();
        assert!(
            size.2 >= 44.0 * map.2.min(390.0) / 390.0 - 0.5,
            "{what}: a point is {}px across, too small to tap",
            size.2
        );
    }
}

/// The largest map point no other point covers where a click lands.
pub async fn free_point(c: &Client) -> fantoccini::elements::Element {
    let free = js(
        c,
        "const ps = Array.from(document.querySelectorAll('svg.world a.point'));
         return ps.findIndex(a => { const r = a.querySelector('circle.dot').getBoundingClientRect();
           const x = r.x + r.width / 2, y = r.y + r.height / 2;
           return [[0, 0], [-2, -2], [2, 2], [-2, 2], [2, -2]].every(([dx, dy]) =>
             a.contains(document.elementFromPoint(x + dx, y + dy))); });",
    )
    .await
    .as_i64()
    .unwrap();
    assert!(free >= 0, "a point can be clicked");
    let points = c.find_all(Locator::Css("svg.world a.point")).await.unwrap();
    points[free as usize].clone()
}

/// Two values of one facet: the second stays offered after the first is checked, and
/// the total is the CLI's for both.
pub async fn two_values_of_a_facet(c: &Client, base: &str, data: &Path) {
    c.goto(&format!("{base}/?q=")).await.unwrap();
    let rows = c
        .find_all(Locator::Css(
            "section[data-facet=photographer] ul.first a.check",
        ))
        .await
        .unwrap();
    assert!(rows.len() >= 2, "at least two photographers");
    let second = rows[1].attr("data-value").await.unwrap().unwrap();
    let before = c.current_url().await.unwrap();
    rows[0].click().await.unwrap();
    wait_url_change(c, &before).await;
    // The other value is still there, unchecked, to be added.
    let css = format!("section[data-facet=photographer] a.check[data-value=\"{second}\"]");
    let other = c
        .find(Locator::Css(&css))
        .await
        .expect("the other value stays");
    assert_eq!(
        other.attr("aria-checked").await.unwrap().as_deref(),
        Some("false")
    );
    let before = c.current_url().await.unwrap();
    other.click().await.unwrap();
    let url = wait_url_change(c, &before).await;
    let chosen: Vec<String> = url
        .query_pairs()
        .filter(|(k, _)| k == "photographer")
        .map(|(_, v)| v.into_owned())
        .collect();
    assert_eq!(chosen.len(), 2, "{url}");
    let n = shown_total(c).await;
    assert_eq!(n, cli_total(data, &url));
    let checked = c
        .find_all(Locator::Css(
            "section[data-facet=photographer] ul.first a.check[aria-checked=true]",
        ))
        .await
        .unwrap();
    assert_eq!(checked.len(), 2);
    shot(c, "10-two-photographers-1400").await;
}

/// "show all N" lists every value, and its box filters the list.
pub async fn show_all_and_filter(c: &Client, base: &str) {
    c.goto(&format!("{base}/?q=")).await.unwrap();
    let Ok(summary) = c
        .find(Locator::Css(
            "section[data-facet=photographer] details.all summary",
        ))
        .await
    else {
        panic!("the demo has more photographers than the first values shown");
    };
    let label = summary.text().await.unwrap();
    let n: usize = label.trim_start_matches("show all ").parse().expect(&label);
    summary.click().await.unwrap();
    let all = c
        .find_all(Locator::Css("section[data-facet=photographer] ul.every li"))
        .await
        .unwrap();
    assert_eq!(all.len(), n.min(1000), "every value is listed");
    let first = text_of(c, "section[data-facet=photographer] ul.every li .name").await;
    let want: String = first.chars().take(4).collect();
    let boxed = c
        .find(Locator::Css(
            "section[data-facet=photographer] input.filter",
        ))
        .await
        .unwrap();
    boxed.send_keys(&want).await.unwrap();
    let shown = js(
        c,
        "return Array.from(document.querySelectorAll('section[data-facet=photographer] ul.every li')).filter(li => !li.hidden).map(li => li.querySelector('.name').textContent);",
    )
    .await;
    let shown = shown.as_array().unwrap();
    assert!(!shown.is_empty() && shown.len() <= n);
    for s in shown {
        assert!(
            s.as_str()
                .unwrap()
                .to_lowercase()
                .contains(&want.to_lowercase()),
            "{s} does not hold {want}"
        );
    }
    shot(c, "11-show-all-1400").await;
}

/// Chips read as names: a country by its name, the map's box as "map area".
pub async fn chips_are_names(c: &Client, base: &str) {
    c.goto(&format!("{base}/?q=")).await.unwrap();
    let country = c
        .find(Locator::Css("section[data-facet=country] a.check"))
        .await
        .unwrap();
    let code = country.attr("data-value").await.unwrap().unwrap();
    let name = country
        .find(Locator::Css(".name"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert_ne!(name, code, "the facet shows the country's name");
    assert!(name.len() > 2, "{name}");
    let before = c.current_url().await.unwrap();
    country.click().await.unwrap();
    wait_url_change(c, &before).await;
    let chip = text_of(c, "ul.active li").await;
    assert!(
        chip.contains(&name) && !chip.contains(&format!(" {code} ")),
        "{chip}"
    );
    // A map point adds a box, read as "map area".
    let before = c.current_url().await.unwrap();
    let point = free_point(c).await;
    point
        .find(Locator::Css("circle.dot"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_url_change(c, &before).await;
    let chips = text_of(c, "ul.active").await;
    assert!(chips.contains("map area"), "{chips}");
    assert!(!chips.contains("bbox"), "{chips}");
    shot(c, "12-chips-1400").await;
}

/// Text that does not read as a query is searched as words, with one friendly line.
pub async fn forgiving_search(c: &Client, base: &str) {
    for q in [
        "Ma'arrat al-Numan",
        "(Aleppo",
        "\"Aleppo",
        "AND",
        "-",
        "time: 10",
    ] {
        let url = url::Url::parse_with_params(&format!("{base}/"), &[("q", q)]).unwrap();
        c.goto(url.as_str()).await.unwrap();
        assert!(
            c.find(Locator::Css("p.error")).await.is_err(),
            "{q}: no error is shown"
        );
        let _ = shown_total(c).await;
    }
    let url = url::Url::parse_with_params(&format!("{base}/"), &[("q", "(Aleppo")]).unwrap();
    c.goto(url.as_str()).await.unwrap();
    let notice = text_of(c, "p.notice").await;
    assert!(notice.contains("plain words"), "{notice}");
    assert!(shown_total(c).await > 0);
    let marked = text_of(c, "li.hit mark.term").await;
    assert_eq!(marked.to_lowercase(), "aleppo");
    shot(c, "13-forgiving-1400").await;
}

/// Exports of the current search in four formats, each answering, and the copy button.
pub async fn exports_and_copy(c: &Client, base: &str) {
    c.goto(&format!("{base}/?q=Aleppo")).await.unwrap();
    let links = c.find_all(Locator::Css(".exports a.button")).await.unwrap();
    let mut formats = Vec::new();
    for l in &links {
        let href = l.attr("href").await.unwrap().unwrap();
        assert!(href.contains("q=Aleppo"), "{href}");
        formats.push(l.attr("data-format").await.unwrap().unwrap());
        let status = c
            .execute_async(
                "const [u, done] = arguments; fetch(u).then(r => done(r.status));",
                vec![serde_json::json!(href)],
            )
            .await
            .unwrap();
        assert_eq!(status, serde_json::json!(200), "{href}");
    }
    assert_eq!(formats, ["csv", "geojson", "acled-csv", "jsonl"]);
    let copy = c.find(Locator::Css("button.copy")).await.unwrap();
    assert!(
        copy.is_displayed().await.unwrap(),
        "the script shows the copy button"
    );
    copy.click().await.unwrap();
    let mut said = String::new();
    for _ in 0..40 {
        said = copy.text().await.unwrap();
        if said != "Copy link" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(
        said == "Link copied" || said.starts_with("Copy failed"),
        "{said}"
    );
}

/// The map: names at the view's scale, zoom and reset, a scale bar, and each point
/// inside the box of the captions it stands for.
pub async fn map_labels_points_and_zoom(c: &Client, base: &str) {
    c.goto(&format!("{base}/?q=")).await.unwrap();
    let countries = c
        .find_all(Locator::Css("svg.world text.country"))
        .await
        .unwrap();
    assert!(!countries.is_empty(), "country names on the map");
    assert!(text_of(c, "svg.world g.scale text").await.ends_with("km"));
    let points = c.find_all(Locator::Css("svg.world a.point")).await.unwrap();
    for p in &points {
        let href = p.attr("href").await.unwrap().unwrap();
        let url = url::Url::parse(&format!("{base}{href}")).unwrap();
        let bbox: Vec<f64> = url
            .query_pairs()
            .find(|(k, _)| k == "bbox")
            .unwrap()
            .1
            .split(',')
            .map(|x| x.parse().unwrap())
            .collect();
        let dot = p.find(Locator::Css("circle.dot")).await.unwrap();
        let lon = dot
            .attr("cx")
            .await
            .unwrap()
            .unwrap()
            .parse::<f64>()
            .unwrap()
            - 180.0;
        let lat = 90.0
            - dot
                .attr("cy")
                .await
                .unwrap()
                .unwrap()
                .parse::<f64>()
                .unwrap();
        let eps = 1e-3;
        assert!(
            lon >= bbox[0] - eps
                && lon <= bbox[2] + eps
                && lat >= bbox[1] - eps
                && lat <= bbox[3] + eps,
            "the point {lat},{lon} lies outside its captions' box {bbox:?}"
        );
    }
    assert_points_tap_sized(c, "the map").await;
    let start = attr(c, "svg.world", "viewBox").await.unwrap();
    c.find(Locator::Css(".map-tools button[data-zoom=in]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let zoomed = attr(c, "svg.world", "viewBox").await.unwrap();
    let width = |vb: &str| vb.split(' ').nth(2).unwrap().parse::<f64>().unwrap();
    assert!(width(&zoomed) < width(&start) * 0.6, "{start} → {zoomed}");
    shot(c, "14-map-zoomed-1400").await;
    c.find(Locator::Css(".map-tools button[data-zoom=reset]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let back = attr(c, "svg.world", "viewBox").await.unwrap();
    assert!(
        (width(&back) - width(&start)).abs() < 1e-3,
        "{start} → {back}"
    );
    // One place: the view is close enough to name it, and its country.
    let api = api_place_names(c, base, "q=Aleppo&place=Aleppo").await;
    c.goto(&format!("{base}/?q=Aleppo&place=Aleppo"))
        .await
        .unwrap();
    let places = js(c, "return Array.from(document.querySelectorAll('svg.world text')).filter(t => t.getAttribute('visibility') !== 'hidden').map(t => t.textContent);").await;
    let names: Vec<&str> = places
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|v| v.as_str())
        .collect();
    assert!(names.contains(&"Syria"), "{names:?}");
    // The place labels name where the groups stand: Aleppo or a quarter inside it.
    let shown = js(c, "return Array.from(document.querySelectorAll('svg.world text.place')).filter(t => t.getAttribute('visibility') !== 'hidden').map(t => t.textContent);").await;
    assert!(
        shown
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|v| v.as_str())
            .any(|n| api.iter().any(|a| a == n)),
        "{shown} not among the results' places {api:?}"
    );
    shot(c, "15-map-one-place-1400").await;
}

/// A caption page: a search box holding the search, the way back to it, fields that
/// link to the filtered search, and a variant's differences marked.
pub async fn caption_page_keeps_the_search(c: &Client, base: &str) {
    c.goto(&format!("{base}/?q=Aleppo")).await.unwrap();
    // A caption with more than one variant, if the page lists one.
    let with_variants = js(
        c,
        "const h = Array.from(document.querySelectorAll('li.hit')).find(li => { const v = li.querySelector('.variants'); return v && !v.textContent.startsWith('1 '); }); return h ? h.querySelector('.prov a').getAttribute('href') : document.querySelector('li.hit .prov a').getAttribute('href');",
    )
    .await;
    let href = with_variants.as_str().unwrap().to_string();
    assert!(href.contains("?q=Aleppo"), "{href}");
    c.goto(&format!("{base}{href}")).await.unwrap();
    let boxed = attr(c, "header form.search input[name=q]", "value").await;
    assert_eq!(boxed.as_deref(), Some("Aleppo"));
    let back = attr(c, "a.back", "href").await.unwrap();
    assert_eq!(back, "/?q=Aleppo");
    let links = c.find_all(Locator::Css("table.record td a")).await.unwrap();
    assert!(!links.is_empty(), "fields link to the filtered search");
    let variants = c.find_all(Locator::Css("li.variant")).await.unwrap();
    if variants.len() > 1 {
        let marks = c
            .find_all(Locator::Css("li.variant ins, li.variant del"))
            .await
            .unwrap();
        assert!(!marks.is_empty(), "a variant's differences are marked");
    }
    shot(c, "16-caption-1400").await;
    let before = c.current_url().await.unwrap();
    c.find(Locator::Css("a.back"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let url = wait_url_change(c, &before).await;
    assert_eq!(url.query(), Some("q=Aleppo"));
}

/// A caption with two texts: its card says so, and its page marks the word between them.
pub async fn variants_are_diffed(c: &Client, base: &str) {
    c.goto(&format!("{base}/?q=wounded+child+Douma"))
        .await
        .unwrap();
    assert_eq!(shown_total(c).await, 1, "the two texts are one caption");
    assert_eq!(text_of(c, "li.hit .variants").await, "2 variants");
    c.find(Locator::Css("li.hit .prov a"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    c.find(Locator::Css("main.caption-page")).await.unwrap();
    let marked: Vec<String> = {
        let mut v = Vec::new();
        for e in c
            .find_all(Locator::Css("li.variant ins, li.variant del"))
            .await
            .unwrap()
        {
            v.push(e.text().await.unwrap());
        }
        v
    };
    assert_eq!(marked, ["the"], "the one word between the texts");
    shot(c, "19-variant-diff-1400").await;
}

/// An Arabic caption reads right to left, its evidence still marked.
pub async fn arabic_reads_right_to_left(c: &Client, base: &str) {
    let url = url::Url::parse_with_params(&format!("{base}/"), &[("q", "مدرسة")]).unwrap();
    c.goto(url.as_str()).await.unwrap();
    assert_eq!(shown_total(c).await, 1);
    let rtl = js(
        c,
        "return document.querySelector('li.hit p.text').matches(':dir(rtl)');",
    )
    .await;
    assert_eq!(
        rtl,
        serde_json::json!(true),
        "the caption runs right to left"
    );
    let marks = c
        .find_all(Locator::Css("li.hit p.text mark.ev"))
        .await
        .unwrap();
    assert!(
        !marks.is_empty(),
        "evidence is marked in the Arabic caption"
    );
    shot(c, "17-arabic-1400").await;
    c.find(Locator::Css("li.hit .prov a"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    c.find(Locator::Css("main.caption-page")).await.unwrap();
    let rtl = js(
        c,
        "return document.querySelector('p.text.big').matches(':dir(rtl)');",
    )
    .await;
    assert_eq!(rtl, serde_json::json!(true));
    shot(c, "18-arabic-caption-1400").await;
}

/// The captions a search page lists, with up to 100 on the page.
async fn listed(c: &Client, base: &str, q: &str) -> Vec<String> {
    let url =
        url::Url::parse_with_params(&format!("{base}/"), &[("q", q), ("limit", "100")]).unwrap();
    c.goto(url.as_str()).await.unwrap();
    let texts = js(
        c,
        "return Array.from(document.querySelectorAll('li.hit p.text')).map(p => p.textContent);",
    )
    .await;
    texts
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|v| v.as_str().map(String::from))
        .collect()
}

/// A place is found by any of its names: `Alep` lists the English, French and Arabic
/// captions of Aleppo, and `Dūmā`, `Duma` and `Douma` the same captions.
pub async fn places_by_any_name(c: &Client, base: &str) {
    for q in ["Alep", "حلب", "Aleppo"] {
        let texts = listed(c, base, q).await;
        assert!(
            texts.iter().any(|t| t.contains("Aleppo")),
            "{q}: no English caption of Aleppo"
        );
        assert!(
            texts.iter().any(|t| t.contains("à Alep,")),
            "{q}: no French caption of Aleppo"
        );
        assert!(
            texts.iter().any(|t| t.contains("في حلب")),
            "{q}: no Arabic caption of Aleppo"
        );
    }
    shot(c, "25-alep-1400").await;
    // The French caption's page lists its English translation, and the link leads there.
    c.find(Locator::XPath(
        "//li[contains(@class,'hit')][.//p[contains(@class,'text')][contains(., 'Al-Amal, détruite')]]//div[contains(@class,'prov')]//a",
    ))
    .await
    .unwrap()
    .click()
    .await
    .unwrap();
    let shown = text_of(c, "ul.translations").await;
    assert!(
        shown.contains("The headmaster, Omar Haddad, shows the Al-Amal school"),
        "{shown}"
    );
    shot(c, "26-translations-1400").await;
    c.find(Locator::Css("ul.translations a"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let big = text_of(c, "p.text.big").await;
    assert!(big.starts_with("The headmaster"), "{big}");
    let douma = listed(c, base, "Douma").await;
    assert!(!douma.is_empty());
    for q in ["Dūmā", "Duma"] {
        let mut got = listed(c, base, q).await;
        let mut want = douma.clone();
        got.sort();
        want.sort();
        assert_eq!(got, want, "{q} finds what Douma finds");
    }
}

/// A 400 px screen: a "Filters" button opens the facets, and nothing scrolls sideways.
pub async fn phone_filters_button(c: &Client, base: &str) {
    c.set_window_size(400, 860).await.unwrap();
    let fits = "return document.documentElement.scrollWidth <= window.innerWidth;";
    for (path, name) in [("/?q=", "20-home-400"), ("/?q=Aleppo", "21-search-400")] {
        c.goto(&format!("{base}{path}")).await.unwrap();
        assert_eq!(
            js(c, fits).await,
            serde_json::json!(true),
            "{path} scrolls sideways"
        );
        assert_points_tap_sized(c, path).await;
        shot(c, name).await;
    }
    let facets = c.find(Locator::Css("aside.facets")).await.unwrap();
    assert!(
        !facets.is_displayed().await.unwrap(),
        "facets wait behind the button"
    );
    c.find(Locator::Css("a.filters-toggle"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let facets = c.find(Locator::Css("aside.facets")).await.unwrap();
    assert!(
        facets.is_displayed().await.unwrap(),
        "the button opens the facets"
    );
    assert_eq!(js(c, fits).await, serde_json::json!(true));
    shot(c, "22-filters-open-400").await;
    let href = attr(c, "li.hit .prov a", "href").await;
    c.goto(&format!("{base}/?q=Aleppo#")).await.unwrap();
    if let Some(href) = href {
        c.goto(&format!("{base}{href}")).await.unwrap();
        assert_eq!(
            js(c, fits).await,
            serde_json::json!(true),
            "the caption page fits"
        );
        shot(c, "23-caption-400").await;
    }
    let url = url::Url::parse_with_params(&format!("{base}/"), &[("q", "مدرسة")]).unwrap();
    c.goto(url.as_str()).await.unwrap();
    assert_eq!(js(c, fits).await, serde_json::json!(true));
    shot(c, "24-arabic-400").await;
}
