//! A caption's review on its page: whether people verified or disputed its record,
//! which fields they corrected, and its history, each change with who made it, when,
//! the value before and after, and why.

use cairn_store::{Review, Revision};
use maud::{Markup, html};

/// A value of a revision as it reads (JSON, strings without their quotes).
fn value(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Null => "—".into(),
        other => other.to_string(),
    }
}

/// The marks and the history, newest change first.
pub(crate) fn review_section(review: &Review, history: &[Revision]) -> Markup {
    html! {
        section.review #history {
            h2 { "Review and history" }
            p.marks {
                @if review.verified { span.badge.verified { "verified" } " " }
                @if review.disputed { span.badge.disputed { "disputed" } " " }
                @if review.corrected.is_empty() {
                    span.muted { "as extracted, not corrected" }
                } @else {
                    "corrected: " (review.corrected.join(", "))
                }
                span.muted { " · version " (review.version) }
            }
            @if !history.is_empty() {
                table.history {
                    thead { tr { th { "when" } th { "who" } th { "field" } th { "before" } th { "after" } th { "why" } } }
                    tbody {
                        @for r in history.iter().rev() {
                            tr {
                                td { time datetime=(r.at) { (r.at.get(..16).unwrap_or(&r.at).replace('T', " ")) } }
                                td { (r.user) }
                                td { (r.field) }
                                td { del dir="auto" { (value(&r.old_value)) } }
                                td { ins dir="auto" { (value(&r.new_value)) } }
                                td dir="auto" { (r.note.as_deref().unwrap_or("")) }
                            }
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_history_shows_each_change_escaped_newest_first() {
        let rev = |id: i64, new: serde_json::Value, note: &str| Revision {
            id,
            caption_id: 1,
            version: id as u64,
            field: "persons".into(),
            old_value: json!([]),
            new_value: new,
            user: "eddie".into(),
            at: "2026-01-02T03:04:05Z".into(),
            note: Some(note.into()),
        };
        let review = Review {
            version: 2,
            verified: true,
            disputed: false,
            corrected: vec!["persons".into()],
        };
        let h = [
            rev(1, json!(["First"]), "<script>x</script>"),
            rev(2, json!(["Second"]), "again"),
        ];
        let html = review_section(&review, &h).into_string();
        assert!(html.contains("verified"));
        assert!(html.contains("corrected: persons"));
        assert!(!html.contains("<script>"));
        assert!(html.find("Second").unwrap() < html.find("First").unwrap());
    }
}
