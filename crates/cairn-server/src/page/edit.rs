//! The correction form of a caption's page, for editors: every correctable field as a
//! labelled box holding the record's current value, the verified and disputed marks and
//! a note. It posts with the session's CSRF token and the version it was drawn at, so
//! that a save made over someone else's is refused; a refused or unclear save draws the
//! form again with what was typed, and the message.

use cairn_model::Record;
use cairn_store::Review;
use maud::{Markup, html};

/// The form's values as text, as drawn or as posted.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct EditForm {
    pub version: u64,
    pub photographers: String,
    pub agency: String,
    pub date: String,
    pub precision: String,
    pub location: String,
    /// The gazetteer id chosen among the places a name could mean.
    pub location_id: String,
    pub killed: String,
    pub injured: String,
    pub event_types: Vec<String>,
    pub persons: String,
    pub organizations: String,
    pub verified: bool,
    pub disputed: bool,
    pub note: String,
}

/// A toll as the form writes it: `3`, or `3-5` for a range.
fn toll(c: Option<&cairn_model::Count>) -> String {
    match c {
        Some(c) => match c.high {
            Some(h) if h != c.low => format!("{}-{h}", c.low),
            _ => c.low.to_string(),
        },
        None => String::new(),
    }
}

impl EditForm {
    /// The form of a caption shown as `record` with `review`.
    pub(crate) fn of(record: Option<&Record>, review: &Review) -> Self {
        let r = record.cloned().unwrap_or_default();
        let credit = r.credit.as_ref();
        EditForm {
            version: review.version,
            photographers: credit
                .map(|c| c.photographers.join(", "))
                .unwrap_or_default(),
            agency: credit.and_then(|c| c.agency.clone()).unwrap_or_default(),
            date: r.date.as_ref().map(|d| d.value.clone()).unwrap_or_default(),
            precision: r
                .date
                .as_ref()
                .map_or("day", |d| d.precision.as_str())
                .to_string(),
            location: r
                .location
                .as_ref()
                .map(|l| l.name.clone())
                .unwrap_or_default(),
            location_id: String::new(),
            killed: toll(r.casualties.killed.as_ref()),
            injured: toll(r.casualties.injured.as_ref()),
            event_types: r.event_types.clone(),
            persons: r.persons.join("\n"),
            organizations: r.organizations.join("\n"),
            verified: review.verified,
            disputed: review.disputed,
            note: String::new(),
        }
    }

    /// The form as posted (`application/x-www-form-urlencoded` pairs) over the form as
    /// drawn: a box the post leaves out keeps its value; a checkbox left out is off.
    pub(crate) fn posted(drawn: &EditForm, pairs: &[(String, String)]) -> Self {
        let mut f = EditForm {
            location_id: String::new(),
            event_types: Vec::new(),
            verified: false,
            disputed: false,
            note: String::new(),
            ..drawn.clone()
        };
        for (k, v) in pairs {
            let v = v.clone();
            match k.as_str() {
                "version" => f.version = v.trim().parse().unwrap_or(u64::MAX),
                "photographers" => f.photographers = v,
                "agency" => f.agency = v,
                "date" => f.date = v,
                "precision" => f.precision = v,
                "location" => f.location = v,
                "location_id" => f.location_id = v,
                "killed" => f.killed = v,
                "injured" => f.injured = v,
                "event_types" => f.event_types.push(v),
                "persons" => f.persons = v,
                "organizations" => f.organizations = v,
                "verified" => f.verified = true,
                "disputed" => f.disputed = true,
                "note" => f.note = v,
                _ => {}
            }
        }
        f
    }
}

/// What the last post of the form came to, shown above it.
#[derive(Debug, Clone)]
pub(crate) enum Outcome {
    /// A value that cannot be saved (a date that does not read, a place unknown).
    Invalid(String),
    /// A place name several places bear: (gazetteer id, how it reads) of each.
    Choose(String, Vec<(String, String)>),
    /// Someone saved since the form was drawn: nothing was stored.
    Stale(String),
}

fn text_row(id: &str, label: &str, value: &str, hint: &str) -> Markup {
    html! {
        p.row {
            label for=(format!("edit-{id}")) { (label) }
            input id=(format!("edit-{id}")) type="text" name=(id) value=(value) aria-describedby=(format!("edit-{id}-hint"));
            small.hint id=(format!("edit-{id}-hint")) { (hint) }
        }
    }
}

fn lines_row(id: &str, label: &str, value: &str) -> Markup {
    html! {
        p.row {
            label for=(format!("edit-{id}")) { (label) }
            textarea id=(format!("edit-{id}")) name=(id) rows="3" aria-describedby=(format!("edit-{id}-hint")) { (value) }
            small.hint id=(format!("edit-{id}-hint")) { "one a line" }
        }
    }
}

/// A checkbox for each ACLED sub-event type, and for any other type the record holds.
fn event_boxes(chosen: &[String]) -> Markup {
    let mut all: Vec<&str> = cairn_extract::event_type_names().collect();
    for c in chosen {
        if !all.contains(&c.as_str()) {
            all.push(c);
        }
    }
    html! {
        fieldset.events {
            legend { "Event types" }
            @for e in all {
                label.check {
                    input type="checkbox" name="event_types" value=(e) checked[chosen.iter().any(|c| c == e)];
                    " " (e)
                }
            }
        }
    }
}

/// The place choices of an ambiguous name, the first checked.
fn choices(list: &[(String, String)]) -> Markup {
    html! {
        fieldset.choices {
            legend { "Which place?" }
            @for (i, (id, label)) in list.iter().enumerate() {
                label.choice {
                    input type="radio" name="location_id" value=(id) checked[i == 0] autofocus[i == 0];
                    " " (label)
                }
            }
        }
    }
}

/// The correction form of caption `id`, filled with `f`, posting with `csrf`.
pub(crate) fn edit_form(id: i64, f: &EditForm, csrf: &str, outcome: Option<&Outcome>) -> Markup {
    let precisions = ["day", "month", "year"];
    html! {
        section.edit #edit {
            h2 { "Correct this record" }
            @match outcome {
                Some(Outcome::Invalid(m)) => p.error role="alert" { (m) },
                Some(Outcome::Stale(m)) => p.error.stale role="alert" { (m) },
                Some(Outcome::Choose(m, _)) => p.notice role="alert" { (m) },
                None => {},
            }
            form.edit method="post" action=(format!("/captions/{id}/edit")) {
                input type="hidden" name="csrf" value=(csrf);
                input type="hidden" name="version" value=(f.version);
                fieldset {
                    legend { "Credit" }
                    (text_row("photographers", "Photographers", &f.photographers, "comma-separated"))
                    (text_row("agency", "Agency", &f.agency, "the organisation the photographer shot for"))
                }
                fieldset {
                    legend { "When and where" }
                    (text_row("date", "Date", &f.date, "YYYY-MM-DD, YYYY-MM or YYYY; empty for none"))
                    p.row {
                        label for="edit-precision" { "Precision" }
                        select #edit-precision name="precision" {
                            @for p in precisions { option value=(p) selected[f.precision == p] { (p) } }
                        }
                    }
                    (text_row("location", "Location", &f.location, "a place of the gazetteer, by any of its names; empty for none"))
                    @if let Some(Outcome::Choose(_, list)) = outcome { (choices(list)) }
                }
                fieldset {
                    legend { "What happened" }
                    (text_row("killed", "Killed", &f.killed, "a number, or a range as 3-5; empty for none"))
                    (text_row("injured", "Injured", &f.injured, "a number, or a range as 3-5; empty for none"))
                (event_boxes(&f.event_types))
                    (lines_row("persons", "People", &f.persons))
                    (lines_row("organizations", "Organisations", &f.organizations))
                }
                fieldset {
                    legend { "Review" }
                    label.check { input type="checkbox" name="verified" value="1" checked[f.verified]; " verified" }
                    " "
                    label.check { input type="checkbox" name="disputed" value="1" checked[f.disputed]; " disputed" }
                    p.row {
                        label for="edit-note" { "Note" }
                        textarea #edit-note name="note" rows="2" maxlength=(cairn_store::MAX_NOTE_BYTES) { (f.note) }
                    }
                }
                button type="submit" { "Save" }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_posted_form_reads_back_as_drawn() {
        let r = Record {
            persons: vec!["Omar Haddad".into(), "Lina Sabbagh".into()],
            event_types: vec!["Air/drone strike".into()],
            ..Default::default()
        };
        let review = Review {
            version: 4,
            verified: true,
            ..Default::default()
        };
        let f = EditForm::of(Some(&r), &review);
        let html = edit_form(7, &f, "tok<en>", None).into_string();
        assert!(html.contains(r#"value="tok&lt;en&gt;""#), "{html}");
        assert!(html.contains(r#"name="version" value="4""#));
        assert!(html.contains("Omar Haddad\nLina Sabbagh</textarea>"));
        let pairs: Vec<(String, String)> = [
            ("version", "4"),
            ("persons", "Omar Haddad\nLina Sabbagh"),
            ("event_types", "Air/drone strike"),
            ("precision", "day"),
            ("verified", "1"),
        ]
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        assert_eq!(EditForm::posted(&EditForm::default(), &pairs), f);
        assert!(
            html.contains(r#"value="Air/drone strike" checked"#),
            "{html}"
        );
        // A box the post leaves out keeps its value; a checkbox left out is off.
        let only = [("killed".to_string(), "3".to_string())];
        let g = EditForm::posted(&f, &only);
        assert_eq!(g.persons, f.persons);
        assert_eq!(g.killed, "3");
        assert!(!g.verified && g.event_types.is_empty());
    }
}
