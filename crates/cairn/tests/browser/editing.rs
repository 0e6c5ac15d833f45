//! Corrections in the browser: a reader logs in and finds no form (and a post of one
//! refused); an editor logs in, sees their name in the header, corrects a caption's
//! location (choosing among the places the name means) and marks it verified, and the
//! map, the facets and the history change; a post without the CSRF token and a stale
//! form are refused.

use std::path::Path;
use std::time::{Duration, Instant};

use fantoccini::{Client, Locator};

use super::common::cairn;
use super::{shot, shown_total, text_of};

/// Captions of two towns of Syria and one of Lebanon, and one of nowhere in
/// particular, our own sentences.
pub const TEXTS: &str = "Fishermen mend their nets at the harbour in Tyre, Lebanon, on March 3, 2021. REUTERS/Ada Lind\n\n\
Rescuers search the rubble of a school in Aleppo, Syria, on November 24, 2016. AFP PHOTO / Sam Writer\n\n\
A man walks past shuttered shops in Homs, Syria, on May 3, 2016. AFP PHOTO / Sam Writer\n\n\
Children queue for bread on Thursday. REUTERS/Ada Lind\n";

/// Adds the accounts the steps log in with.
pub fn accounts(data: &Path) {
    for (name, role) in [("eddie", "editor"), ("rita", "reader")] {
        let out = cairn(data)
            .args(["users", "add", name, "--role", role])
            .write_stdin(format!("{name} keeps the archive\n"))
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
    }
}

async fn js(c: &Client, script: &str) -> serde_json::Value {
    c.execute(script, vec![]).await.expect(script)
}

/// Logs in with the page's form.
async fn log_in(c: &Client, base: &str, name: &str) {
    c.goto(&format!("{base}/login")).await.unwrap();
    let field = |css: &'static str| c.find(Locator::Css(css));
    field("#login-name")
        .await
        .unwrap()
        .send_keys(name)
        .await
        .unwrap();
    field("#login-password")
        .await
        .unwrap()
        .send_keys(&format!("{name} keeps the archive"))
        .await
        .unwrap();
    field("form.login button")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    c.wait()
        .for_element(Locator::Css("main.search-page"))
        .await
        .unwrap();
    assert_eq!(text_of(c, "header .account .user").await, name);
}

async fn log_out(c: &Client) {
    c.find(Locator::Css("form.logout button"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    c.wait()
        .for_element(Locator::Css("header .account a[href='/login']"))
        .await
        .unwrap();
}

/// The id of the caption a search finds first.
async fn first_hit(c: &Client, base: &str, q: &str) -> i64 {
    c.goto(&format!("{base}/?q={q}")).await.unwrap();
    let href = c
        .find(Locator::Css("li.hit .prov a"))
        .await
        .unwrap()
        .attr("href")
        .await
        .unwrap()
        .unwrap();
    href.trim_start_matches("/captions/")
        .split('?')
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

/// A form post to `path` from the page, with `body`: the status.
async fn post_from_page(c: &Client, path: &str, body: &str) -> u64 {
    let script = format!(
        "return fetch({path:?}, {{method: 'POST', headers: {{'Content-Type': 'application/x-www-form-urlencoded'}}, body: {body:?}, redirect: 'manual'}}).then(r => r.status);"
    );
    js(c, &script).await.as_u64().unwrap()
}

/// The map's points, as their labels read.
async fn points(c: &Client) -> Vec<String> {
    let mut out = Vec::new();
    for p in c.find_all(Locator::Css("a.point")).await.unwrap() {
        out.push(p.attr("aria-label").await.unwrap().unwrap_or_default());
    }
    out
}

/// A facet value's count on the search page.
async fn facet_count(c: &Client, facet: &str, value: &str) -> Option<u64> {
    let css = format!("section[data-facet={facet}] a[data-value='{value}']");
    let row = c.find(Locator::Css(&css)).await.ok()?;
    let li = row.find(Locator::XPath("..")).await.unwrap();
    let n = li
        .find(Locator::Css(".count"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    n.parse().ok()
}

/// The search page once it shows `want` captions (a save reaches the index a moment
/// later).
async fn until_total(c: &Client, url: &str, want: u64) {
    let t = Instant::now();
    loop {
        c.goto(url).await.unwrap();
        let n = shown_total(c).await;
        if n == want || t.elapsed() > Duration::from_secs(10) {
            assert_eq!(n, want, "{url}");
            return;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

pub async fn a_reader_has_no_form(c: &Client, base: &str) {
    let id = first_hit(c, base, "Tyre").await;
    c.goto(&format!("{base}/captions/{id}")).await.unwrap();
    assert!(c.find(Locator::Css("form.edit")).await.is_err());
    log_in(c, base, "rita").await;
    c.goto(&format!("{base}/captions/{id}")).await.unwrap();
    assert!(c.find(Locator::Css("form.edit")).await.is_err());
    // Her own session's token does not make her an editor.
    let csrf = c
        .find(Locator::Css("form.logout input[name=csrf]"))
        .await
        .unwrap()
        .attr("value")
        .await
        .unwrap()
        .unwrap();
    let body = format!("csrf={csrf}&version=0&verified=1");
    let path = format!("/captions/{id}/edit");
    assert_eq!(post_from_page(c, &path, &body).await, 403);
    log_out(c).await;
}

pub async fn an_editor_corrects_a_location(c: &Client, base: &str, data: &Path) {
    let id = first_hit(c, base, "Tyre").await;
    log_in(c, base, "eddie").await;
    c.goto(&format!("{base}/")).await.unwrap();
    let before = points(c).await;
    assert!(
        before.iter().any(|p| p.contains("near 33.2")),
        "Tyre on the map: {before:?}"
    );
    assert_eq!(facet_count(c, "country", "SY").await, Some(2));
    assert_eq!(facet_count(c, "review", "verified").await, None);

    c.goto(&format!("{base}/captions/{id}")).await.unwrap();
    let form = c.find(Locator::Css("form.edit")).await.unwrap();
    // A post without the CSRF token changes nothing.
    let path = format!("/captions/{id}/edit");
    assert_eq!(
        post_from_page(c, &path, "version=0&location=Aleppo").await,
        403
    );
    let location = form.find(Locator::Css("#edit-location")).await.unwrap();
    location.clear().await.unwrap();
    location.send_keys("Aleppo").await.unwrap();
    form.find(Locator::Css("input[name=verified]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    form.find(Locator::Css("#edit-note"))
        .await
        .unwrap()
        .send_keys("the harbour is the photographer's error; the school is in Aleppo")
        .await
        .unwrap();
    shot(c, "20-edit-form").await;
    form.find(Locator::Css("button[type=submit]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    // Aleppo is a city and a governorate: the form asks which.
    let first = c
        .wait()
        .for_element(Locator::Css("fieldset.choices input[type=radio]"))
        .await
        .unwrap();
    assert_eq!(
        first.prop("checked").await.unwrap().as_deref(),
        Some("true")
    );
    shot(c, "21-edit-choices").await;
    c.find(Locator::Css("form.edit button[type=submit]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    c.wait()
        .for_element(Locator::Css("table.history"))
        .await
        .unwrap();
    let history = text_of(c, "table.history").await;
    assert!(
        history.contains("location") && history.contains("verified"),
        "{history}"
    );
    assert!(history.contains("eddie") && history.contains("photographer's error"));
    assert!(text_of(c, "table.record").await.contains("Aleppo"));
    shot(c, "22-history").await;

    // The map and the facets follow.
    until_total(c, &format!("{base}/?review=verified"), 1).await;
    until_total(c, &format!("{base}/?country=SY"), 3).await;
    c.goto(&format!("{base}/")).await.unwrap();
    let after = points(c).await;
    assert!(!after.iter().any(|p| p.contains("near 33.2")), "{after:?}");
    assert_eq!(facet_count(c, "country", "SY").await, Some(3));
    assert_eq!(facet_count(c, "review", "verified").await, Some(1));
    shot(c, "23-facets-after").await;

    // A form drawn before someone else's save is refused with the current values.
    c.goto(&format!("{base}/captions/{id}")).await.unwrap();
    let out = cairn(data)
        .args([
            "correct",
            &id.to_string(),
            "--as",
            "eddie",
            "--set",
            "persons=[\"Ada Lind\"]",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    c.find(Locator::Css("#edit-killed"))
        .await
        .unwrap()
        .send_keys("4")
        .await
        .unwrap();
    c.find(Locator::Css("form.edit button[type=submit]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    c.wait().for_element(Locator::Css("p.stale")).await.unwrap();
    let refused = text_of(c, "p.stale").await;
    assert!(refused.contains("Not saved"), "{refused}");
    let persons = c
        .find(Locator::Css("#edit-persons"))
        .await
        .unwrap()
        .prop("value")
        .await
        .unwrap();
    assert_eq!(persons.as_deref(), Some("Ada Lind"), "the current values");
    shot(c, "24-stale").await;

    // The queue is reached from the header; a verified caption is not in it.
    c.find(Locator::Css("header .account a[href='/review']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    c.wait()
        .for_element(Locator::Css("main.review-page"))
        .await
        .unwrap();
    let listed = c.find_all(Locator::Css("ol.queue a")).await.unwrap();
    let total: usize = text_of(c, "#total").await.parse().unwrap();
    assert!(total >= 1, "the caption of nowhere has warnings");
    assert_eq!(listed.len(), total);
    for a in listed {
        let href = a.attr("href").await.unwrap().unwrap();
        assert_ne!(href, format!("/captions/{id}"));
    }
    shot(c, "25-review").await;
}
