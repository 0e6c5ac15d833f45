//! Corrections on the caption page through the router: log in with the page's form, the
//! user's name in the header, an editor's form (a place name several places bear asks
//! which, a save shows in the history and the review filters), a stale form refused
//! with the current values, a post without the CSRF token refused, no form for readers
//! and anonymous users and their posts refused, and the review queue's counts.

mod routed;

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use cairn_store::{Accounts, Role};
use http_body_util::BodyExt;
use routed::{archive_of, get, total};
use tower::ServiceExt;

const TEXTS: [&str; 3] = [
    "Boats wait at the pier in Tyre, Lebanon, March 3, 2021. REUTERS/Ada Lind",
    "Children queue for bread on Thursday. REUTERS/Ada Lind",
    "Volunteers clear snow from a road in Kharkiv, Ukraine, on January 9, 2023. AFP PHOTO / Ivan Poet",
];

async fn send(
    app: &axum::Router,
    req: Request<Body>,
) -> (StatusCode, axum::http::HeaderMap, String) {
    let res = app.clone().oneshot(req).await.unwrap();
    let (status, headers) = (res.status(), res.headers().clone());
    let body = res.into_body().collect().await.unwrap().to_bytes();
    (status, headers, String::from_utf8_lossy(&body).into_owned())
}

fn form(pairs: &[(&str, &str)]) -> String {
    let mut s = form_urlencoded::Serializer::new(String::new());
    for (k, v) in pairs {
        s.append_pair(k, v);
    }
    s.finish()
}

fn post(uri: &str, cookie: Option<&str>, body: String) -> Request<Body> {
    let mut b =
        Request::post(uri).header(header::CONTENT_TYPE, "application/x-www-form-urlencoded");
    if let Some(c) = cookie {
        b = b.header(header::COOKIE, c);
    }
    b.body(Body::from(body)).unwrap()
}

async fn page(app: &axum::Router, uri: &str, cookie: Option<&str>) -> (StatusCode, String) {
    let mut b = Request::get(uri);
    if let Some(c) = cookie {
        b = b.header(header::COOKIE, c);
    }
    let (s, _, body) = send(app, b.body(Body::empty()).unwrap()).await;
    (s, body)
}

/// Logs in through the page's form: the session cookie.
async fn login(app: &axum::Router, name: &str) -> String {
    let body = form(&[("name", name), ("password", &format!("{name}'s password"))]);
    let (s, h, _) = send(app, post("/login", None, body)).await;
    assert_eq!(s, StatusCode::SEE_OTHER);
    let set = h[header::SET_COOKIE].to_str().unwrap();
    set.split(';').next().unwrap().to_string()
}

/// The value of the first input named `name` in a page.
fn input(html: &str, name: &str) -> String {
    let at = html
        .find(&format!(r#"name="{name}" value=""#))
        .unwrap_or_else(|| panic!("no {name} in {html}"));
    let rest = &html[at + name.len() + 15..];
    rest[..rest.find('"').unwrap()].to_string()
}

/// The search page of `uri` once it shows `want` captions (the index is reloaded a
/// moment after a save).
async fn until_total(app: &axum::Router, uri: &str, want: u64) -> String {
    let t = std::time::Instant::now();
    loop {
        let (_, html) = get(app, uri).await;
        if total(&html) == want || t.elapsed() > std::time::Duration::from_secs(10) {
            assert_eq!(total(&html), want, "{uri}");
            return html;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

fn setup() -> (tempfile::TempDir, axum::Router) {
    let (d, a) = archive_of(&TEXTS);
    let acc = Accounts::open(d.path()).unwrap();
    for (name, role) in [("rita", Role::Reader), ("eddie", Role::Editor)] {
        acc.add_user(name, role, &format!("{name}'s password"))
            .unwrap();
    }
    let app = cairn_server::router_with(a, &cairn_server::ServeOptions::default());
    (d, app)
}

#[tokio::test]
async fn an_editor_corrects_a_caption_from_its_page() {
    let (_d, app) = setup();
    let (s, login_page) = page(&app, "/login", None).await;
    assert_eq!(s, StatusCode::OK);
    assert!(login_page.contains(r#"<label for="login-name">"#));
    let eddie = login(&app, "eddie").await;
    let (_, html) = page(&app, "/captions/1", Some(&eddie)).await;
    assert!(
        html.contains(r#"<span class="user" title="logged in as a editor">eddie</span>"#)
            || html.contains(">eddie</span>"),
        "{html}"
    );
    assert!(html.contains("Log out"));
    assert!(html.contains(r#"<form class="edit""#), "{html}");
    let csrf = input(&html, "csrf");
    let version = input(&html, "version");
    assert_eq!(version, "0");

    // Without the CSRF token: refused, nothing stored.
    let body = form(&[("version", "0"), ("location", "Aleppo"), ("verified", "1")]);
    let (s, _, _) = send(&app, post("/captions/1/edit", Some(&eddie), body)).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    let (_, api) = get(&app, "/api/captions/1/history").await;
    assert_eq!(api, "[]");

    // A name several places bear: the choices, nothing stored yet.
    let body = form(&[
        ("csrf", &csrf),
        ("version", "0"),
        ("location", "Aleppo"),
        ("precision", "day"),
        ("date", "2021-03-03"),
        ("verified", "1"),
    ]);
    let (s, _, html) = send(&app, post("/captions/1/edit", Some(&eddie), body)).await;
    assert_eq!(s, StatusCode::OK);
    assert!(html.contains("Several places are called"), "{html}");
    let choice = input(&html, "location_id");
    assert!(choice.starts_with("geonames:"), "{choice}");
    let body = form(&[
        ("csrf", &csrf),
        ("version", "0"),
        ("location", "Aleppo"),
        ("location_id", &choice),
        ("precision", "day"),
        ("date", "2021-03-03"),
        ("verified", "1"),
        ("note", "the pier is in a photo of Aleppo's port"),
    ]);
    let (s, h, _) = send(&app, post("/captions/1/edit", Some(&eddie), body)).await;
    assert_eq!(s, StatusCode::SEE_OTHER);
    assert_eq!(h[header::LOCATION], "/captions/1#history");

    // The page shows the place, the mark and the history with who and why.
    let (_, html) = page(&app, "/captions/1", Some(&eddie)).await;
    assert!(
        html.contains(r#"<span class="badge verified">verified</span>"#),
        "{html}"
    );
    let history = &html[html.find(r#"<table class="history">"#).unwrap()..];
    assert!(
        history.contains("<td>location</td>") && history.contains("<td>verified</td>"),
        "{history}"
    );
    assert!(history.contains("eddie") && history.contains("Aleppo's port"));
    // The search page filters and counts by the mark, once the index is reloaded.
    let search = until_total(&app, "/?review=verified", 1).await;
    assert!(search.contains(r#"data-facet="review""#), "{search}");
    until_total(&app, "/?country=SY", 1).await;

    // A form drawn at version 0 is now stale: refused, with the current values.
    let body = form(&[
        ("csrf", &csrf),
        ("version", "0"),
        ("location", "Tyre"),
        ("precision", "day"),
    ]);
    let (s, _, html) = send(&app, post("/captions/1/edit", Some(&eddie), body)).await;
    assert_eq!(s, StatusCode::CONFLICT);
    assert!(html.contains("Not saved"), "{html}");
    assert!(html.contains(r#"name="location" value="Aleppo""#), "{html}");
    assert_eq!(input(&html, "version"), "1");
    let (_, api) = get(&app, "/api/captions/1").await;
    assert!(api.contains(r#""gazetteer_id":""#) && api.contains("Aleppo"));
}

#[tokio::test]
async fn readers_and_anonymous_users_have_no_form_and_cannot_post_one() {
    let (_d, app) = setup();
    let rita = login(&app, "rita").await;
    let (_, html) = page(&app, "/captions/1", Some(&rita)).await;
    assert!(html.contains(">rita</span>"), "{html}");
    assert!(!html.contains(r#"<form class="edit""#));
    let csrf = input(&html, "csrf");
    let body = form(&[("csrf", &csrf), ("version", "0"), ("verified", "1")]);
    let (s, _, _) = send(&app, post("/captions/1/edit", Some(&rita), body.clone())).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    let (_, html) = page(&app, "/captions/1", None).await;
    assert!(!html.contains(r#"<form class="edit""#));
    assert!(html.contains(r#"<a href="/login">Log in</a>"#));
    let (s, _, _) = send(&app, post("/captions/1/edit", None, body)).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    let (_, api) = get(&app, "/api/captions/1/history").await;
    assert_eq!(api, "[]");
    // Logging out ends the session.
    let (s, _, _) = send(&app, post("/logout", Some(&rita), form(&[("csrf", &csrf)]))).await;
    assert_eq!(s, StatusCode::SEE_OTHER);
    let (_, html) = page(&app, "/captions/1", Some(&rita)).await;
    assert!(!html.contains(">rita</span>"));
}

#[tokio::test]
async fn the_review_queue_counts_each_reason_and_links_each_caption() {
    let (_d, app) = setup();
    let (_, api) = get(&app, "/api/search?review=needs_review&facets=1").await;
    let v: serde_json::Value = serde_json::from_str(&api).unwrap();
    let queued = v["total"].as_u64().unwrap();
    assert!(queued >= 1, "the undated, unplaced caption at least: {api}");
    let (s, html) = get(&app, "/review").await;
    assert_eq!(s, StatusCode::OK);
    assert!(
        html.contains(&format!(r#"<span id="total">{queued}</span>"#)),
        "{html}"
    );
    for c in v["facets"]["review"].as_array().unwrap() {
        let (r, n) = (c["value"].as_str().unwrap(), c["count"].as_u64().unwrap());
        if cairn_store::REASONS.contains(&r) {
            assert!(
                html.contains(&format!(r#"data-reason="{r}">{n}</span>"#)),
                "{r} {n}"
            );
        }
    }
    for h in v["hits"].as_array().unwrap() {
        assert!(html.contains(&format!(r#"href="/captions/{}""#, h["id"])));
    }
    let (s, _) = get(&app, "/api/search?review=perfect").await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn with_require_login_the_refusal_offers_the_login_form() {
    let (d, a) = archive_of(&TEXTS);
    Accounts::open(d.path())
        .unwrap()
        .add_user("eddie", Role::Editor, "eddie's password")
        .unwrap();
    let opts = cairn_server::ServeOptions {
        require_login: true,
        ..Default::default()
    };
    let app = cairn_server::router_with(a, &opts);
    let (s, html) = get(&app, "/captions/1").await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
    assert!(html.contains(r#"<a href="/login">Log in</a>"#), "{html}");
    let (s, _) = get(&app, "/login").await;
    assert_eq!(s, StatusCode::OK);
    let eddie = login(&app, "eddie").await;
    let (s, html) = page(&app, "/captions/1", Some(&eddie)).await;
    assert_eq!(s, StatusCode::OK);
    assert!(html.contains(r#"<form class="edit""#));
}
