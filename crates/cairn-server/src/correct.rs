//! Corrections from the caption page's form: what a posted form changes of the record
//! shown (only the boxes whose value differs, so a save touches only what the editor
//! changed), read and checked into the store's `Edit`; a place name is resolved with
//! the gazetteer, and one several places bear is answered with the choices.

use cairn_gazetteer::Gazetteer;
use cairn_model::{Place, Precision, Record};
use cairn_store::{Edit, MAX_NOTE_BYTES, Review};
use serde_json::{Value, json};

use axum::extract::{Extension, Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use cairn_store::{Role, Saved};

use crate::auth::Caller;
use crate::page::{EditForm, Outcome, Posted};
use crate::{ApiError, AppState, blocking, caption_response, page_error, parse_id};

/// Places offered for a name several places bear.
const CHOICES: usize = 8;

/// `POST /captions/{id}/edit`: an editor's form. Saved, the page is shown again at its
/// history; refused, the form is drawn again with why (a stale save: with the current
/// values).
pub(crate) async fn post_edit(
    State(s): State<AppState>,
    Extension(caller): Extension<Caller>,
    Path(raw): Path<String>,
    body: String,
) -> Response {
    let id = match parse_id(&raw) {
        Ok(id) => id,
        Err(e) => return page_error(e),
    };
    let pairs: Vec<(String, String)> = form_urlencoded::parse(body.as_bytes())
        .into_owned()
        .collect();
    let csrf = pairs
        .iter()
        .find(|(k, _)| k == "csrf")
        .map_or("", |(_, v)| v.as_str());
    let user = match caller.may_post(Role::Editor, csrf) {
        Ok(u) => u.name.clone(),
        // A form posted by nobody is refused as a reader's is.
        Err(ApiError::Unauthorized(_)) => {
            return page_error(ApiError::Forbidden(
                "log in as an editor to correct captions".into(),
            ));
        }
        Err(e) => return page_error(e),
    };
    let a = s.archive.clone();
    let current = blocking(move || {
        a.caption(id)?
            .ok_or_else(|| ApiError::NotFound(format!("no caption {id}")))
    })
    .await;
    let c = match current {
        Ok(c) => c,
        Err(e) => return page_error(e),
    };
    let posted = EditForm::posted(&EditForm::of(c.record.as_ref(), &c.review), &pairs);
    let again = |status, form: Option<EditForm>, outcome| {
        let posted = Posted {
            form,
            outcome: Some(outcome),
        };
        caption_response(&s, id, Default::default(), status, posted)
    };
    if posted.version != c.review.version {
        return again(
            StatusCode::CONFLICT,
            None,
            stale(id, posted.version, c.review.version),
        )
        .await;
    }
    let edit = match edit_of(&s.gazetteer, c.record.as_ref(), &c.review, &posted) {
        Ok(e) => e,
        Err(o @ Outcome::Choose(..)) => return again(StatusCode::OK, Some(posted), o).await,
        Err(o) => return again(StatusCode::BAD_REQUEST, Some(posted), o).await,
    };
    let version = posted.version;
    match crate::edit::save(&s, id, edit, user, version).await {
        Ok(Saved::Done(_)) => Redirect::to(&format!("/captions/{id}#history")).into_response(),
        Ok(Saved::Stale(r)) => {
            again(StatusCode::CONFLICT, None, stale(id, version, r.version)).await
        }
        Err(ApiError::BadRequest(m)) => {
            again(StatusCode::BAD_REQUEST, Some(posted), Outcome::Invalid(m)).await
        }
        Err(e) => page_error(e),
    }
}

/// Why a save made at version `at` was refused.
fn stale(id: i64, at: u64, now: u64) -> Outcome {
    Outcome::Stale(format!(
        "Not saved: caption {id} was changed by someone else after you opened it (your form was of version {at}, it is now at version {now}). The form below shows the current values; make your change again and save."
    ))
}

/// What `posted` changes of a caption shown as `record` with `review`, or why it
/// cannot be saved as it is.
pub(crate) fn edit_of(
    g: &Gazetteer,
    record: Option<&Record>,
    review: &Review,
    posted: &EditForm,
) -> Result<Edit, Outcome> {
    let drawn = EditForm::of(record, review);
    let r = record.cloned().unwrap_or_default();
    let mut edit = Edit::default();
    let mut put = |field: &str, v: Value| edit.fields.push((field.to_string(), v));
    if posted.photographers != drawn.photographers || posted.agency != drawn.agency {
        let mut credit = serde_json::to_value(&r.credit).unwrap_or(Value::Null);
        if credit.is_null() {
            credit = json!({});
        }
        credit["photographers"] = json!(split(&posted.photographers, ','));
        credit["agency"] = json!(Some(posted.agency.trim()).filter(|a| !a.is_empty()));
        put("credit", credit);
    }
    let dated = !posted.date.trim().is_empty();
    if posted.date.trim() != drawn.date || (dated && posted.precision != drawn.precision) {
        put("date", date(&posted.date, &posted.precision, &r)?);
    }
    if posted.location.trim() != drawn.location || !posted.location_id.is_empty() {
        let place = location(g, &posted.location, &posted.location_id, &r)?;
        put(
            "location",
            serde_json::to_value(place).unwrap_or(Value::Null),
        );
    }
    for (field, given, shown) in [
        ("casualties.killed", &posted.killed, &drawn.killed),
        ("casualties.injured", &posted.injured, &drawn.injured),
    ] {
        if given.trim() != shown {
            put(field, toll(field, given)?);
        }
    }
    let mut given: Vec<&String> = posted.event_types.iter().collect();
    let mut shown: Vec<&String> = drawn.event_types.iter().collect();
    given.sort();
    shown.sort();
    if given != shown {
        let known: Vec<&str> = cairn_extract::event_type_names().collect();
        if let Some(e) = posted
            .event_types
            .iter()
            .find(|e| !known.contains(&e.as_str()) && !drawn.event_types.contains(e))
        {
            return Err(Outcome::Invalid(format!(
                "{e:?} is not an ACLED sub-event type ({}).",
                known.join(", ")
            )));
        }
        put("event_types", json!(posted.event_types));
    }
    for (field, given, shown, sep) in [
        ("persons", &posted.persons, &drawn.persons, '\n'),
        (
            "organizations",
            &posted.organizations,
            &drawn.organizations,
            '\n',
        ),
    ] {
        if split(given, sep) != split(shown, sep) {
            put(field, json!(split(given, sep)));
        }
    }
    edit.verified = Some(posted.verified);
    edit.disputed = Some(posted.disputed);
    let note = posted.note.trim();
    if note.len() > MAX_NOTE_BYTES {
        return Err(Outcome::Invalid(format!(
            "The note is over {MAX_NOTE_BYTES} bytes; shorten it."
        )));
    }
    edit.note = (!note.is_empty()).then(|| note.to_string());
    Ok(edit)
}

/// The values of a list box, trimmed, empty ones left out.
fn split(s: &str, sep: char) -> Vec<String> {
    s.split(sep)
        .map(|x| x.trim().to_string())
        .filter(|x| !x.is_empty())
        .collect()
}

/// A date box and its precision as the record's date (null when empty); the words it
/// was read from stay those of the caption.
fn date(value: &str, precision: &str, r: &Record) -> Result<Value, Outcome> {
    let value = value.trim();
    if value.is_empty() {
        return Ok(Value::Null);
    }
    let (p, len) = match precision {
        "day" => (Precision::Day, 10),
        "month" => (Precision::Month, 7),
        "year" => (Precision::Year, 4),
        other => {
            return Err(Outcome::Invalid(format!(
                "{other:?} is no precision (day, month or year)."
            )));
        }
    };
    let day = match p {
        Precision::Day => value.to_string(),
        Precision::Month => format!("{value}-01"),
        Precision::Year => format!("{value}-01-01"),
    };
    if value.len() != len || day.parse::<jiff::civil::Date>().is_err() {
        return Err(Outcome::Invalid(format!(
            "The date {value:?} does not read as a {precision}: write YYYY-MM-DD, YYYY-MM or YYYY to match the precision."
        )));
    }
    let mut d = json!({ "value": value, "precision": p });
    if let Some(old) = &r.date {
        d["text"] = json!(old.text);
        d["span"] = json!(old.span);
    }
    Ok(d)
}

/// A toll box (`3`, `3-5`) as a count (null when empty).
fn toll(field: &str, given: &str) -> Result<Value, Outcome> {
    let given = given.trim();
    if given.is_empty() {
        return Ok(Value::Null);
    }
    let bad = || {
        Outcome::Invalid(format!(
            "{} {given:?} is not a number or a range as 3-5.",
            if field.ends_with("killed") {
                "Killed"
            } else {
                "Injured"
            }
        ))
    };
    let (low, high) = match given.split_once(['-', '–']) {
        Some((a, b)) => (a.trim(), Some(b.trim())),
        None => (given, None),
    };
    let low: u32 = low.parse().map_err(|_| bad())?;
    let high: Option<u32> = high.map(|h| h.parse().map_err(|_| bad())).transpose()?;
    if high.is_some_and(|h| h < low) {
        return Err(bad());
    }
    Ok(json!({ "low": low, "high": high }))
}

/// The place a location box names: the chosen gazetteer id, else the one place the
/// name means; several are offered as choices, none is an error. Empty: no location.
fn location(g: &Gazetteer, name: &str, chosen: &str, r: &Record) -> Result<Option<Place>, Outcome> {
    let name = name.trim();
    if chosen.is_empty() && name.is_empty() {
        return Ok(None);
    }
    let ids = if chosen.is_empty() {
        g.matches(name)
    } else {
        g.best_match(chosen).into_iter().collect()
    };
    match ids.as_slice() {
        [] => Err(Outcome::Invalid(format!(
            "No place {name:?} is in the gazetteer; try another spelling or the town's own name."
        ))),
        [id] => Ok(Some(place(g, *id, r))),
        many => {
            let list = many
                .iter()
                .take(CHOICES)
                .map(|&i| (g.entry(i).id.clone(), place_label(g, i)))
                .collect();
            Err(Outcome::Choose(
                format!("Several places are called {name:?}: choose one and save again."),
                list,
            ))
        }
    }
}

/// A place as a choice reads: its name, kind and what holds it.
fn place_label(g: &Gazetteer, id: cairn_gazetteer::PlaceId) -> String {
    let e = g.entry(id);
    let path = g.path(id);
    let within: Vec<&str> = path[..path.len() - 1]
        .iter()
        .rev()
        .map(|&p| g.entry(p).name.as_str())
        .collect();
    let mut label = format!("{} ({})", e.name, e.kind.as_str());
    if !within.is_empty() {
        label.push_str(", ");
        label.push_str(&within.join(", "));
    }
    label
}

/// The record's place of gazetteer entry `id`; the caption's words for the location
/// stay its own.
fn place(g: &Gazetteer, id: cairn_gazetteer::PlaceId, r: &Record) -> Place {
    let e = g.entry(id);
    let path = g.path(id);
    let old = r.location.as_ref();
    Place {
        name: e.name.clone(),
        text: old.map_or_else(|| e.name.clone(), |l| l.text.clone()),
        lat: e.lat,
        lon: e.lon,
        kind: e.kind,
        admin1: g.admin1_of(id).map(|a| g.entry(a).name.clone()),
        country: (!e.country.is_empty()).then(|| e.country.clone()),
        gazetteer_id: Some(e.id.clone()),
        span: old.map(|l| l.span).unwrap_or_default(),
        within: path[..path.len() - 1]
            .iter()
            .map(|&p| g.entry(p).id.clone())
            .collect(),
        confidence: None,
        reason: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form(pairs: &[(&str, &str)]) -> EditForm {
        let v: Vec<(String, String)> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        EditForm::posted(&EditForm::default(), &v)
    }

    #[test]
    fn only_the_boxes_changed_are_saved() {
        let g = Gazetteer::bundled();
        let r = Record {
            persons: vec!["Omar Haddad".into()],
            ..Default::default()
        };
        let review = Review::default();
        let mut posted = EditForm::of(Some(&r), &review);
        posted.killed = "4-6".into();
        posted.persons = "Omar Haddad\n\nLina Sabbagh ".into();
        let e = edit_of(&g, Some(&r), &review, &posted).unwrap();
        let fields: Vec<&str> = e.fields.iter().map(|(f, _)| f.as_str()).collect();
        assert_eq!(fields, ["casualties.killed", "persons"]);
        assert_eq!(e.fields[0].1, json!({"low": 4, "high": 6}));
        assert_eq!(e.fields[1].1, json!(["Omar Haddad", "Lina Sabbagh"]));
        assert_eq!(e.verified, Some(false));
        assert!(e.note.is_none());
    }

    #[test]
    fn a_bad_value_is_named_and_an_ambiguous_place_offers_choices() {
        let g = Gazetteer::bundled();
        let review = Review::default();
        let bad = form(&[("date", "2016-13-01"), ("precision", "day")]);
        assert!(
            matches!(edit_of(&g, None, &review, &bad), Err(Outcome::Invalid(m)) if m.contains("2016-13-01"))
        );
        let bad = form(&[("killed", "many")]);
        assert!(
            matches!(edit_of(&g, None, &review, &bad), Err(Outcome::Invalid(m)) if m.contains("many"))
        );
        let made_up = form(&[("event_types", "Street party")]);
        assert!(
            matches!(edit_of(&g, None, &review, &made_up), Err(Outcome::Invalid(m)) if m.contains("Street party"))
        );
        let strike = form(&[("event_types", "Air/drone strike")]);
        let e = edit_of(&g, None, &review, &strike).unwrap();
        assert_eq!(
            e.fields,
            [("event_types".to_string(), json!(["Air/drone strike"]))]
        );
        let aleppo = form(&[("location", "Aleppo")]);
        let Err(Outcome::Choose(_, list)) = edit_of(&g, None, &review, &aleppo) else {
            panic!("Aleppo is a city and a governorate");
        };
        assert!(list.len() > 1);
        let chosen = form(&[("location", "Aleppo"), ("location_id", &list[0].0)]);
        let e = edit_of(&g, None, &review, &chosen).unwrap();
        assert_eq!(e.fields[0].0, "location");
        assert_eq!(e.fields[0].1["gazetteer_id"], json!(list[0].0));
        assert_eq!(e.fields[0].1["country"], json!("SY"));
    }
}
