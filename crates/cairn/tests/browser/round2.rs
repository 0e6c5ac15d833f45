//! The page's second round of steps: the keyboard alone reaches a caption from the
//! search box in a few presses, the "show all" box hides what it filters out, the
//! language is a filter every link keeps, a place's names in four scripts find the
//! same captions, and a phone shows results before the map.

use std::time::{Duration, Instant};

use fantoccini::{Client, Locator};

use super::{shot, shown_total, wait_url_change};

const TAB: &str = "\u{E004}";
const ENTER: &str = "\u{E007}";

async fn js(c: &Client, script: &str) -> serde_json::Value {
    c.execute(script, vec![]).await.expect(script)
}

/// Presses a key on the focused element.
async fn press(c: &Client, key: &str) {
    c.active_element()
        .await
        .unwrap()
        .send_keys(key)
        .await
        .unwrap();
}

/// What the focused element is: its class and its link.
async fn focused(c: &Client) -> (String, String) {
    let v = js(
        c,
        "const e = document.activeElement; return [e.className || e.tagName, e.getAttribute('href') || ''];",
    )
    .await;
    (
        v[0].as_str().unwrap_or("").to_string(),
        v[1].as_str().unwrap_or("").to_string(),
    )
}

/// From the search box to a caption's page with the keyboard alone, in at most ten
/// presses: Tab to the skip link, Enter, Tab to the first caption's link, Enter.
pub async fn keyboard_reaches_a_caption(c: &Client, base: &str) {
    c.goto(&format!("{base}/?q=Aleppo")).await.unwrap();
    let mut presses = 0;
    while focused(c).await.0 != "skip" {
        assert!(presses < 4, "the skip link is not near the search box");
        press(c, TAB).await;
        presses += 1;
    }
    press(c, ENTER).await;
    presses += 1;
    while !focused(c).await.1.starts_with("/captions/") {
        assert!(presses < 9, "no caption link after {presses} presses");
        press(c, TAB).await;
        presses += 1;
    }
    let before = c.current_url().await.unwrap();
    press(c, ENTER).await;
    presses += 1;
    let url = wait_url_change(c, &before).await;
    assert!(url.path().starts_with("/captions/"), "{url}");
    assert!(presses <= 10, "{presses} presses");
    shot(c, "30-keyboard-caption-1400").await;
}

/// The filter box of "show all" hides the values it filters out, as drawn.
pub async fn show_all_box_hides_rows(c: &Client, base: &str) {
    c.goto(&format!("{base}/?q=")).await.unwrap();
    c.find(Locator::Css(
        "section[data-facet=photographer] details.all summary",
    ))
    .await
    .unwrap()
    .click()
    .await
    .unwrap();
    let boxed = c
        .find(Locator::Css(
            "section[data-facet=photographer] input.filter",
        ))
        .await
        .unwrap();
    boxed.send_keys("zzqx").await.unwrap();
    let shown = js(
        c,
        "return Array.from(document.querySelectorAll('section[data-facet=photographer] ul.every li')).filter(li => li.getClientRects().length > 0).length;",
    )
    .await;
    assert_eq!(shown.as_u64(), Some(0), "rows filtered out are not drawn");
    shot(c, "31-show-all-filtered-1400").await;
}

/// The language facet filters, and a facet clicked afterwards keeps the language.
pub async fn language_is_kept(c: &Client, base: &str) {
    c.goto(&format!("{base}/?q=")).await.unwrap();
    let lang = c
        .find(Locator::Css("section[data-facet=lang] a.check"))
        .await
        .expect("a language facet");
    let count: u64 = js(
        c,
        "return Number(document.querySelector('section[data-facet=lang] li .count').textContent);",
    )
    .await
    .as_u64()
    .unwrap();
    let before = c.current_url().await.unwrap();
    lang.click().await.unwrap();
    let url = wait_url_change(c, &before).await;
    assert!(url.query().unwrap_or("").contains("lang="), "{url}");
    assert_eq!(shown_total(c).await, count);
    let before = url;
    c.find(Locator::Css("section[data-facet=agency] a.check"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let url = wait_url_change(c, &before).await;
    assert!(url.query().unwrap_or("").contains("lang="), "{url}");
    for a in c.find_all(Locator::Css(".exports a.button")).await.unwrap() {
        let href = a.attr("href").await.unwrap().unwrap();
        assert!(href.contains("lang="), "{href}");
    }
    shot(c, "32-language-kept-1400").await;
}

/// A place's names in Latin, French, Arabic and Cyrillic spelling find as many
/// captions as one another, as a place filter and as search words.
pub async fn one_place_in_four_scripts(c: &Client, base: &str) {
    let names = ["Aleppo", "Alep", "حلب", "Алеппо"];
    for key in ["place", "q"] {
        let mut totals = Vec::new();
        for name in names {
            let value: String = url::form_urlencoded::byte_serialize(name.as_bytes()).collect();
            c.goto(&format!("{base}/?{key}={value}")).await.unwrap();
            totals.push(shown_total(c).await);
        }
        assert!(totals[0] > 0, "{key}: {totals:?}");
        assert!(totals.iter().all(|&n| n == totals[0]), "{key}: {totals:?}");
    }
    shot(c, "33-aleppo-in-cyrillic-1400").await;
}

/// On a phone the first result stands above the timeline and the map.
pub async fn phone_shows_results_first(c: &Client, base: &str) {
    c.set_window_size(390, 844).await.unwrap();
    c.goto(&format!("{base}/?q=Aleppo")).await.unwrap();
    let t = Instant::now();
    let tops = loop {
        let v = js(
            c,
            "const y = s => { const e = document.querySelector(s); return e ? e.getBoundingClientRect().top : null; }; return [y('li.hit'), y('section.map'), y('section.timeline')];",
        )
        .await;
        if v[0].is_number() || t.elapsed() > Duration::from_secs(5) {
            break v;
        }
    };
    let hit = tops[0].as_f64().expect("a hit");
    for other in [&tops[1], &tops[2]] {
        if let Some(y) = other.as_f64() {
            assert!(
                hit < y,
                "the first result ({hit}) comes after the map or timeline ({y})"
            );
        }
    }
    shot(c, "33-phone-results-first-390").await;
    c.set_window_size(1400, 1000).await.unwrap();
}
