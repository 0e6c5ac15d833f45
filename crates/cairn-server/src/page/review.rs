//! The "needs review" queue: captions nobody verified whose location is a guess, whose
//! record carries warnings, whose texts make conflicting claims, or that someone
//! disputed, with the count of each reason, each caption a link to its page and form.

use cairn_store::{REASONS, SearchResults};
use maud::{Markup, html};

use super::{State, layout};

/// The review filter of the whole queue.
pub(crate) const QUEUE_FILTER: &str = cairn_store::NEEDS_REVIEW;

/// How a review mark or reason reads.
pub(crate) fn review_label(mark: &str) -> String {
    match mark {
        "needs_review" => "needs review",
        "low_confidence" => "location is a guess",
        "warnings" => "has warnings",
        "conflict" => "texts disagree",
        "open_dispute" => "disputed",
        other => other,
    }
    .to_string()
}

/// Captions the queue lists on a page unless the query asks for another number.
pub(crate) const REVIEW_PAGE: usize = 50;

/// Where in the queue a page stands: its reason, the search filters that narrow it
/// (every link of the page keeps them), and which of its captions it lists.
pub(crate) struct Queue<'a> {
    pub(crate) reason: Option<&'a str>,
    pub(crate) filters: State,
    pub(crate) offset: usize,
    pub(crate) limit: usize,
}

impl Queue<'_> {
    /// The queue narrowed to `reason`, from `offset`, with this page's filters.
    fn link(&self, reason: Option<&str>, offset: usize) -> String {
        let mut ser = form_urlencoded::Serializer::new(String::new());
        if let Some(r) = reason {
            ser.append_pair("reason", r);
        }
        for (k, v) in self.filters.pairs.iter().filter(|(k, _)| *k != "review") {
            ser.append_pair(k, v);
        }
        if offset > 0 {
            ser.append_pair("offset", &offset.to_string());
        }
        let qs = ser.finish();
        if qs.is_empty() {
            "/review".into()
        } else {
            format!("/review?{qs}")
        }
    }
}

/// The queue, narrowed to its reason when one is chosen; `results` are the page's
/// matches with the whole queue's review facet counted.
pub(crate) fn review_page(results: &SearchResults, q: &Queue<'_>) -> Markup {
    let count = |r: &str| {
        results
            .facets
            .as_ref()
            .and_then(|f| f.review.iter().find(|c| c.value == r))
            .map_or(0, |c| c.count)
    };
    let reason = q.reason;
    let search = q
        .filters
        .with(&[("review", reason.unwrap_or(QUEUE_FILTER))]);
    let body = html! {
        main.review-page {
            h1 { "Needs review" }
            p.muted { "Captions nobody verified yet, by why they need a look. Verifying a caption takes it off the list." }
            nav.reasons aria-label="Reasons" {
                ul {
                    li {
                        @if reason.is_none() { strong aria-current="true" { "all" } } @else { a href=(q.link(None, 0)) { "all" } }
                    }
                    @for r in REASONS {
                        li {
                            @let label = review_label(r);
                            @if reason == Some(r) { strong aria-current="true" { (label) } }
                            @else { a href=(q.link(Some(r), 0)) { (label) } }
                            " " span.count data-reason=(r) { (count(r)) }
                        }
                    }
                }
            }
            p { span #total { (results.total) } " " (if results.total == 1 { "caption" } else { "captions" }) " · " a href=(search) { "open in search" } }
            ol.queue start=(q.offset + 1) {
                @for h in &results.hits {
                    li {
                        a href=(format!("/captions/{}", h.id)) { "#" (h.id) }
                        " " span.text dir="auto" { (h.text.chars().take(200).collect::<String>()) }
                        @if let Some(r) = &h.record {
                            @if !r.warnings.is_empty() { br; span.muted { (r.warnings.join("; ")) } }
                        }
                    }
                }
            }
            (pager(results.total, q))
        }
    };
    layout("Needs review", Some(&State::default()), body)
}

/// The way to the queue's pages before and after this one, when there are any.
fn pager(total: u64, q: &Queue<'_>) -> Markup {
    let limit = q.limit.max(1);
    let shown_to = (q.offset + limit).min(total as usize);
    let before = (q.offset > 0).then(|| q.link(q.reason, q.offset.saturating_sub(limit)));
    let after = ((q.offset + limit) < total as usize).then(|| q.link(q.reason, q.offset + limit));
    html! {
        @if before.is_some() || after.is_some() {
            nav.pager aria-label="Pages of the queue" {
                @if let Some(href) = &before { a rel="prev" href=(href) { "← previous" } " " }
                span.muted { (q.offset.min(shown_to) + 1) "–" (shown_to) " of " (total) }
                @if let Some(href) = &after { " " a rel="next" href=(href) { "next →" } }
            }
        }
    }
}
