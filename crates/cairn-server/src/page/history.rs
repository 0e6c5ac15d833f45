//! A caption's review on its page: whether people verified or disputed its record,
//! which fields they corrected, and its history, each change with who made it, when,
//! the value before and after, and why.

use cairn_store::{Review, Revision};
use maud::{Markup, html};

/// A value of a revision as it reads: a list by its items, a place by its name and
/// country, a toll by its numbers, a date with its precision, a credit by its people
/// and agency; anything else as JSON.
fn value(v: &serde_json::Value) -> String {
    use serde_json::Value;
    let text = |v: Option<&Value>| v.and_then(Value::as_str).unwrap_or("").to_string();
    match v {
        Value::String(s) => s.clone(),
        Value::Null => "—".into(),
        Value::Array(items) if items.iter().all(Value::is_string) => {
            let names: Vec<String> = items.iter().map(|i| text(Some(i))).collect();
            if names.is_empty() {
                "—".into()
            } else {
                names.join(", ")
            }
        }
        Value::Object(m) if m.contains_key("lat") => {
            let mut s = text(m.get("name"));
            for k in ["admin1", "country"] {
                if let Some(x) = m.get(k).and_then(Value::as_str) {
                    s.push_str(", ");
                    s.push_str(x);
                }
            }
            s
        }
        Value::Object(m) if m.contains_key("low") => match (m.get("low"), m.get("high")) {
            (Some(l), Some(h)) if !h.is_null() && h != l => format!("{l}–{h}"),
            (Some(l), _) => l.to_string(),
            _ => v.to_string(),
        },
        Value::Object(m) if m.contains_key("precision") => {
            format!("{} ({})", text(m.get("value")), text(m.get("precision")))
        }
        Value::Object(m) if m.contains_key("photographers") => {
            let people = value(m.get("photographers").unwrap_or(&Value::Null));
            format!(
                "{people} / {}",
                value(m.get("agency").unwrap_or(&Value::Null))
            )
        }
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

    #[test]
    fn values_read_as_places_tolls_dates_and_lists() {
        let place = json!({"name": "Tyre", "admin1": "Liban-Sud", "country": "LB", "lat": 33.27, "lon": 35.19, "kind": "town", "span": [44, 48]});
        assert_eq!(value(&place), "Tyre, Liban-Sud, LB");
        assert_eq!(value(&json!({"low": 3, "high": 5, "text": ""})), "3–5");
        assert_eq!(value(&json!({"low": 3, "high": null})), "3");
        assert_eq!(
            value(&json!({"value": "2021-03", "precision": "month"})),
            "2021-03 (month)"
        );
        assert_eq!(
            value(&json!(["Ada Lind", "Sam Writer"])),
            "Ada Lind, Sam Writer"
        );
        assert_eq!(
            value(&json!({"photographers": ["Ada Lind"], "agency": "Reuters"})),
            "Ada Lind / Reuters"
        );
        assert_eq!(value(&json!(true)), "true");
    }
}
