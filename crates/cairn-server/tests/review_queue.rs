//! The review queue a page at a time: following its "next" links lists every queued
//! caption once, each link keeping the reason and the search filters the queue was
//! narrowed by.

mod routed;

use std::collections::BTreeSet;

use axum::http::StatusCode;
use routed::{archive_of, get};

const TEXTS: [&str; 6] = [
    "Children queue for bread on Thursday. REUTERS/Ada Lind",
    "A woman carries water past the ruins of her house on Monday. AFP PHOTO / Omar Haddad",
    "Fishermen mend their nets before the storm season. AP Photo/Lena Brandt",
    "Firefighters rest after a night at the warehouse blaze. REUTERS/Ada Lind",
    "Pupils sit their exams in a tent school. AFP PHOTO / Omar Haddad",
    "Les enfants jouent dans la rue après la pluie. AFP PHOTO / Omar Haddad",
];

fn attr_link(html: &str, rel: &str) -> Option<String> {
    let marker = format!(r#"rel="{rel}" href=""#);
    let at = html.find(&marker)? + marker.len();
    let href = html[at..].split('"').next()?;
    Some(href.replace("&amp;", "&"))
}

/// The captions a queue page lists.
fn listed(html: &str) -> Vec<i64> {
    let queue = html.split(r#"<ol class="queue""#).nth(1).unwrap_or("");
    let queue = queue.split("</ol>").next().unwrap_or("");
    queue
        .split(r#"href="/captions/"#)
        .skip(1)
        .map(|s| s.split('"').next().unwrap().parse().unwrap())
        .collect()
}

async fn api_queue(app: &axum::Router, query: &str) -> (BTreeSet<i64>, serde_json::Value) {
    let (s, body) = get(app, &format!("/api/search?limit=200&facets=1&{query}")).await;
    assert_eq!(s, StatusCode::OK, "{body}");
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    let ids = v["hits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["id"].as_i64().unwrap())
        .collect();
    (ids, v)
}

/// Follows the queue's "next" links from `first`; every link must keep `kept`.
async fn walk(app: &axum::Router, first: &str, kept: &[&str]) -> (Vec<i64>, usize) {
    let (mut seen, mut pages) = (Vec::new(), 0);
    let mut next = Some(first.to_string());
    while let Some(uri) = next {
        let (s, html) = get(app, &uri).await;
        assert_eq!(s, StatusCode::OK, "{uri}: {html}");
        pages += 1;
        seen.extend(listed(&html));
        next = attr_link(&html, "next");
        if let Some(n) = &next {
            for k in kept {
                assert!(n.contains(k), "{n} lost {k}");
            }
        }
        if pages > 1 {
            let prev = attr_link(&html, "prev").expect("a later page links back");
            for k in kept {
                assert!(prev.contains(k), "{prev} lost {k}");
            }
        }
        assert!(pages <= TEXTS.len(), "the pages do not end");
    }
    (seen, pages)
}

#[tokio::test]
async fn the_queue_pages_through_every_caption_keeping_its_filters() {
    let (_d, a) = archive_of(&TEXTS);
    let app = cairn_server::router(a);
    let (want, _) = api_queue(&app, "review=needs_review&lang=en").await;
    assert!(want.len() >= 3, "the undated, unplaced English captions");
    let (seen, pages) = walk(&app, "/review?lang=en&limit=2", &["lang=en", "limit=2"]).await;
    assert_eq!(pages, want.len().div_ceil(2));
    assert_eq!(seen.len(), want.len(), "each caption listed once: {seen:?}");
    assert_eq!(seen.into_iter().collect::<BTreeSet<_>>(), want);
    // The filter narrows the queue: the French caption is not in the English one.
    let (all, _) = api_queue(&app, "review=needs_review").await;
    assert!(all.len() > want.len(), "the French caption is queued too");
}

#[tokio::test]
async fn a_reason_stays_chosen_from_page_to_page() {
    let (_d, a) = archive_of(&TEXTS);
    let app = cairn_server::router(a);
    let (_, v) = api_queue(&app, "review=needs_review&lang=en").await;
    let reason = v["facets"]["review"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| cairn_store::REASONS.contains(&c["value"].as_str().unwrap()))
        .max_by_key(|c| c["count"].as_u64().unwrap())
        .map(|c| c["value"].as_str().unwrap().to_string())
        .expect("a reason the English captions are queued for");
    let (want, _) = api_queue(&app, &format!("review={reason}&lang=en")).await;
    assert!(want.len() >= 2, "{reason} holds two captions at least");
    let first = format!("/review?reason={reason}&lang=en&limit=1");
    let kept = [format!("reason={reason}"), "lang=en".to_string()];
    let kept: Vec<&str> = kept.iter().map(String::as_str).collect();
    let (seen, pages) = walk(&app, &first, &kept).await;
    assert_eq!(pages, want.len());
    assert_eq!(seen.into_iter().collect::<BTreeSet<_>>(), want);
    // The reason links keep the filters and start again at the first page.
    let (_, html) = get(&app, &format!("{first}&offset=1")).await;
    let all = r#"<a href="/review?lang=en&amp;limit=1">all</a>"#;
    assert!(html.contains(all), "{html}");
}
