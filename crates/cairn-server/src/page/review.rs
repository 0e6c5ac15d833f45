//! The "needs review" queue: captions nobody verified whose location is a guess, whose
//! record carries warnings, whose texts make conflicting claims, or that someone
//! disputed, with the count of each reason, each caption a link to its page and form.

use cairn_store::{REASONS, SearchResults};
use maud::{Markup, html};

use super::{State, layout, plural};

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

/// The queue, narrowed to `reason` when one is chosen; `results` are the matches with
/// their review facet counted.
pub(crate) fn review_page(results: &SearchResults, reason: Option<&str>) -> Markup {
    let count = |r: &str| {
        results
            .facets
            .as_ref()
            .and_then(|f| f.review.iter().find(|c| c.value == r))
            .map_or(0, |c| c.count)
    };
    let search = State {
        pairs: vec![("review", reason.unwrap_or(QUEUE_FILTER).to_string())],
    };
    let body = html! {
        main.review-page {
            h1 { "Needs review" }
            p.muted { "Captions nobody verified yet, by why they need a look. Verifying a caption takes it off the list." }
            nav.reasons aria-label="Reasons" {
                ul {
                    li {
                        @if reason.is_none() { strong aria-current="true" { "all" } } @else { a href="/review" { "all" } }
                    }
                    @for r in REASONS {
                        li {
                            @let label = review_label(r);
                            @if reason == Some(r) { strong aria-current="true" { (label) } }
                            @else { a href=(format!("/review?reason={r}")) { (label) } }
                            " " span.count data-reason=(r) { (count(r)) }
                        }
                    }
                }
            }
            p { span #total { (results.total) } " " (if results.total == 1 { "caption" } else { "captions" }) " · " a href=(search.with(&[])) { "open in search" } }
            ol.queue {
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
            @if results.total > results.hits.len() as u64 {
                p.muted { "The first " (plural(results.hits.len() as u64, "caption")) " are listed; narrow by a reason, or open the list in search." }
            }
        }
    };
    layout("Needs review", Some(&State::default()), body)
}
