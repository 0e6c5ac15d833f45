//! The page's third round of steps: the timeline split by agency, one series an
//! agency, chosen by a link and kept in the URL; the map's tap targets at least 44 px
//! on a phone; the map panned and zoomed from the keyboard.

use std::time::{Duration, Instant};

use fantoccini::{Client, Locator};

use super::{shot, wait_url_change};

async fn js(c: &Client, script: &str) -> serde_json::Value {
    c.execute(script, vec![]).await.expect(script)
}

/// Waits until `script` returns something other than null.
async fn js_until(c: &Client, script: &str) -> serde_json::Value {
    let t = Instant::now();
    loop {
        let v = js(c, script).await;
        if !v.is_null() || t.elapsed() > Duration::from_secs(5) {
            return v;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The split control's "agency" link draws one series for each of the most frequent
/// agencies of the search (as its agency facet counts them), kept in the URL.
pub async fn timeline_split_by_agency(c: &Client, base: &str) {
    c.goto(&format!("{base}/?q=&sort=date")).await.unwrap();
    let before = c.current_url().await.unwrap();
    c.find(Locator::Css("nav.split-by a[href*='split=agency']"))
        .await
        .expect("a link that splits the timeline by agency")
        .click()
        .await
        .unwrap();
    let url = wait_url_change(c, &before).await;
    let split: Vec<String> = url
        .query_pairs()
        .filter(|(k, _)| k == "split")
        .map(|(_, v)| v.into_owned())
        .collect();
    assert_eq!(split, ["agency"], "{url}");
    assert!(url.query().unwrap().contains("sort=date"), "{url}");
    let v = js_until(
        c,
        "const s = document.querySelector('section.timeline.split'); if (!s) return null; \
         const series = new Set(Array.from(s.querySelectorAll('svg rect.part')).map(r => r.dataset.series)); \
         const legend = Array.from(s.querySelectorAll('ul.series-legend li')).map(li => li.textContent.trim()); \
         const agencies = Array.from(document.querySelectorAll('section[data-facet=agency] ul.first a.check')).map(a => a.dataset.value); \
         return [Array.from(series), legend, agencies];",
    )
    .await;
    let series: Vec<&str> = v[0]
        .as_array()
        .expect("the split timeline")
        .iter()
        .filter_map(|s| s.as_str())
        .filter(|s| *s != "other")
        .collect();
    let legend = v[1].as_array().unwrap();
    let agencies: Vec<&str> = v[2]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|s| s.as_str())
        .collect();
    assert!(series.len() >= 2, "one series an agency: {series:?}");
    assert!(series.len() <= 5, "{series:?}");
    // The series are the search's most frequent agencies, each in the legend.
    for s in &series {
        assert!(agencies[..series.len()].contains(s), "{s} in {agencies:?}");
        assert!(
            legend.iter().any(|l| l.as_str().unwrap().starts_with(s)),
            "{s} in {legend:?}"
        );
    }
    shot(c, "40-timeline-split-by-agency").await;
    // Back to one series.
    let before = c.current_url().await.unwrap();
    c.find(Locator::Css("nav.split-by a:not([href*='split='])"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let url = wait_url_change(c, &before).await;
    assert!(!url.query().unwrap_or("").contains("split="), "{url}");
    assert!(
        c.find(Locator::Css("section.timeline.split"))
            .await
            .is_err()
    );
}

/// On a 390 px phone every map group and map button is a target at least 44 px across.
pub async fn map_tap_targets_on_a_phone(c: &Client, base: &str) {
    c.set_window_size(390, 844).await.unwrap();
    c.goto(&format!("{base}/?q=")).await.unwrap();
    let v = js_until(
        c,
        "const svg = document.querySelector('svg.world'); if (!svg) return null; \
         svg.scrollIntoView(); \
         const size = e => { const r = e.getBoundingClientRect(); return [r.width, r.height]; }; \
         return [Array.from(svg.querySelectorAll('a.tap circle')).map(size), \
                 Array.from(document.querySelectorAll('.map-tools button')).map(size), \
                 svg.querySelectorAll('a.point').length, size(svg)];",
    )
    .await;
    let taps = v[0].as_array().expect("the map");
    assert_eq!(
        taps.len() as u64,
        v[2].as_u64().unwrap(),
        "a target a group"
    );
    assert!(!taps.is_empty());
    assert!(v[3][0].as_f64().unwrap() <= 390.0, "{v}");
    for t in taps.iter().chain(v[1].as_array().unwrap()) {
        let (w, h) = (t[0].as_f64().unwrap(), t[1].as_f64().unwrap());
        assert!(w >= 44.0 && h >= 44.0, "a target of {w:.1}×{h:.1} px");
    }
    shot(c, "41-map-targets-390").await;
    c.set_window_size(1400, 1000).await.unwrap();
}

/// With the map focused, the arrow keys pan it by a fifth of the view and + zooms in.
pub async fn map_pans_from_the_keyboard(c: &Client, base: &str) {
    c.goto(&format!("{base}/?q=")).await.unwrap();
    let view = || async {
        let v = js(
            c,
            "return document.querySelector('svg.world').getAttribute('viewBox');",
        )
        .await;
        let n: Vec<f64> = v
            .as_str()
            .unwrap()
            .split(' ')
            .map(|x| x.parse().unwrap())
            .collect();
        n
    };
    let map = c.find(Locator::Css("svg.world")).await.unwrap();
    js(c, "document.querySelector('svg.world').focus();").await;
    let focused = js(c, "return document.activeElement.matches('svg.world');").await;
    assert_eq!(focused, true, "the map takes the focus");
    let start = view().await;
    for (key, dx, dy) in [
        ("\u{E014}", 1.0, 0.0), // Right
        ("\u{E015}", 1.0, 1.0), // Down
        ("\u{E012}", 0.0, 1.0), // Left
        ("\u{E013}", 0.0, 0.0), // Up
    ] {
        map.send_keys(key).await.unwrap();
        let now = view().await;
        let want = [
            start[0] + dx * start[2] / 5.0,
            start[1] + dy * start[3] / 5.0,
        ];
        assert!(
            (now[0] - want[0]).abs() < 1e-3 && (now[1] - want[1]).abs() < 1e-3,
            "after {key:?}: {now:?}, wanted {want:?}"
        );
        assert!((now[2] - start[2]).abs() < 1e-3, "a pan keeps the zoom");
    }
    map.send_keys("+").await.unwrap();
    let zoomed = view().await;
    assert!((zoomed[2] - start[2] / 2.0).abs() < 1e-3, "{zoomed:?}");
    shot(c, "42-map-keyboard-zoomed").await;
}
