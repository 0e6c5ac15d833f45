//! The web page: server-rendered HTML (maud escapes every value, so captions are data,
//! never markup), working before any script runs; `app.js` only adds brushing on the
//! timeline, zoom and pan on the map, the facet filter boxes, the copy-link button and
//! the `/` shortcut. The page's whole state is its query string: the same parameters as
//! `/api/search`.

mod caption;
mod edit;
mod facets;
mod history;
mod login;
mod map;
mod names;
mod results;
mod review;
mod series;
mod text;
mod view;

pub(crate) use caption::{Posted, caption_page, first_seen, source_page};
pub(crate) use edit::{EditForm, Outcome};
pub(crate) use login::{VIEWER, Viewer, login_page};
pub(crate) use results::search_page;
pub(crate) use review::{QUEUE_FILTER, Queue, REVIEW_PAGE, review_label, review_page};
pub(crate) use view::{SearchView, search_view};

use maud::{DOCTYPE, Markup, html};

/// Hits per page unless the page asks for another size.
const PAGE_SIZE: usize = 20;
/// The page sizes offered.
const PAGE_SIZES: [usize; 4] = [10, 20, 50, 100];

/// `1 caption`, `2 captions`.
pub(crate) fn plural(n: u64, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// The page's parameters as (key, value) pairs in a fixed order, a key repeated for
/// each of its values, for links that change some of them.
#[derive(Debug, Clone, Default)]
pub(crate) struct State {
    pairs: Vec<(&'static str, String)>,
}

impl State {
    pub fn from_params(p: &crate::SearchParams) -> Self {
        let mut pairs: Vec<(&'static str, String)> = Vec::new();
        let mut put = |k: &'static str, v: Option<&String>| {
            if let Some(v) = v.filter(|v| !v.trim().is_empty()) {
                pairs.push((k, v.clone()));
            }
        };
        put("q", Some(&p.q));
        for (k, vs) in [
            ("agency", &p.agency),
            ("photographer", &p.photographer),
            ("place", &p.place),
            ("country", &p.country),
            ("event", &p.event),
            ("lang", &p.lang),
        ] {
            for v in vs {
                put(k, Some(v));
            }
        }
        put("from", p.from.as_ref());
        put("to", p.to.as_ref());
        put("killed_min", p.killed_min.map(|k| k.to_string()).as_ref());
        put("bbox", p.bbox.as_ref());
        for v in &p.source {
            put("source", Some(v));
        }
        for v in &p.review {
            put("review", Some(v));
        }
        put("sort", p.sort.as_ref());
        put("split", p.split.as_ref());
        put("limit", p.limit.map(|k| k.to_string()).as_ref());
        State { pairs }
    }

    /// The first value of a key.
    fn get(&self, k: &str) -> Option<&str> {
        self.values(k).next()
    }

    /// Every value of a key.
    fn values<'a>(&'a self, k: &str) -> impl Iterator<Item = &'a str> + 'a {
        let k = k.to_owned();
        self.pairs
            .iter()
            .filter(move |(key, _)| *key == k)
            .map(|(_, v)| v.as_str())
    }

    fn link(pairs: &[(&'static str, String)]) -> String {
        let mut ser = form_urlencoded::Serializer::new(String::new());
        for (k, v) in pairs {
            ser.append_pair(k, v);
        }
        let qs = ser.finish();
        if qs.is_empty() {
            "/".to_string()
        } else {
            format!("/?{qs}")
        }
    }

    /// A link to this view with `changes` applied (every value of each key replaced; an
    /// empty value removes the key); paging starts again.
    fn with(&self, changes: &[(&'static str, &str)]) -> String {
        let mut pairs = self.pairs.clone();
        for (k, v) in changes {
            pairs.retain(|(key, _)| key != k);
            if !v.is_empty() {
                pairs.push((k, v.to_string()));
            }
        }
        Self::link(&pairs)
    }

    /// A link with one value of a repeated key added, or removed when it is there.
    fn toggle(&self, k: &'static str, v: &str) -> String {
        let mut pairs = self.pairs.clone();
        let before = pairs.len();
        pairs.retain(|(key, val)| !(*key == k && val == v));
        if pairs.len() == before {
            pairs.push((k, v.to_string()));
        }
        Self::link(&pairs)
    }

    fn page(&self, offset: usize) -> String {
        let base = self.with(&[]);
        let sep = if base.contains('?') { '&' } else { '?' };
        if offset == 0 {
            base
        } else {
            format!("{base}{sep}offset={offset}")
        }
    }

    /// This view's query string without the leading `/`, for links that come back.
    fn query_string(&self) -> String {
        self.with(&[]).trim_start_matches('/').to_string()
    }
}

/// The search box, keeping the filters when the text changes.
fn search_form(state: &State, autofocus: bool) -> Markup {
    html! {
        form.search method="get" action="/" role="search" {
            input type="search" name="q" value=(state.get("q").unwrap_or("")) placeholder="Search captions (words, \"phrases\", -exclusions)" aria-label="Search captions" autofocus[autofocus];
            @for (k, v) in &state.pairs {
                @if *k != "q" { input type="hidden" name=(k) value=(v); }
            }
            button type="submit" { "Search" }
        }
    }
}

/// Every page's frame. Pages other than the search page carry a search box in the
/// header, holding the search they were reached from.
fn layout(title: &str, header_search: Option<&State>, body: Markup) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) " · cairn" }
                link rel="stylesheet" href="/assets/app.css";
                link rel="icon" type="image/svg+xml" href="/assets/favicon.svg";
                script src="/assets/app.js" defer {}
            }
            body {
                header.top {
                    a.brand href="/" { "cairn" }
                    @if let Some(s) = header_search {
                        (search_form(s, false))
                    } @else {
                        span.tagline { "news photo captions, deduplicated and searchable" }
                    }
                    (login::account(&Viewer::current()))
                }
                (body)
                footer {
                    "Places: GeoNames (CC BY 4.0). Map: Natural Earth (public domain). "
                    a href="/api/openapi.json" { "API" }
                }
            }
        }
    }
}

fn field(name: &str, value: Markup) -> Markup {
    html! { tr { th scope="row" { (name) } td { (value) } } }
}

/// A page for an error, in the page's own frame.
pub(crate) fn error_page(status: u16, message: &str) -> Markup {
    layout(
        "Error",
        Some(&State::default()),
        html! {
            main {
                h1 { "Error " (status) }
                p.error role="alert" { (message) }
                p { a href="/" { "← search" } }
            }
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_change_one_parameter_and_keep_the_rest() {
        let s = State {
            pairs: vec![("q", "harasta".into()), ("agency", "AFP".into())],
        };
        assert_eq!(s.with(&[]), "/?q=harasta&agency=AFP");
        assert_eq!(s.with(&[("agency", "")]), "/?q=harasta");
        assert_eq!(
            s.with(&[("agency", "Reuters & Co")]),
            "/?q=harasta&agency=Reuters+%26+Co"
        );
        assert_eq!(s.page(20), "/?q=harasta&agency=AFP&offset=20");
    }

    #[test]
    fn a_facet_value_is_added_beside_the_others_and_removed_alone() {
        let s = State {
            pairs: vec![("agency", "AFP".into())],
        };
        assert_eq!(s.toggle("agency", "Reuters"), "/?agency=AFP&agency=Reuters");
        assert_eq!(s.toggle("agency", "AFP"), "/");
    }

    #[test]
    fn one_is_singular() {
        assert_eq!(plural(1, "caption"), "1 caption");
        assert_eq!(plural(0, "caption"), "0 captions");
    }
}
