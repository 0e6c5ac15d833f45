//! The record people see: the extracted record with their corrections laid over it, a
//! field at a time. A correction names a field of the record as its JSON spells it
//! (`location`, `date`), or one member of such a field (`casualties.killed`,
//! `date.precision`); its value replaces what the extractor put there.

use cairn_model::Record;
use rusqlite::Connection;
use serde_json::{Value, json};

use crate::{Error, Result};

/// The record fields people may correct. The caption's text is the evidence and stays
/// as the sources hold it; warnings are the extractor's own.
pub const CORRECTABLE: &[&str] = &[
    "credit",
    "date",
    "location",
    "places",
    "casualties",
    "persons",
    "organizations",
    "event_types",
    "sources",
    "lang",
];

/// Checks that `field` names a correctable field or one member of one.
pub(crate) fn check_field(field: &str) -> Result<()> {
    let mut parts = field.split('.');
    let top = parts.next().unwrap_or_default();
    let member = parts.next();
    let known = CORRECTABLE.contains(&top)
        && parts.next().is_none()
        && member.is_none_or(|m| !m.is_empty() && m.len() <= 64);
    if known {
        Ok(())
    } else {
        Err(Error::Invalid(format!(
            "{field:?} is not a field that can be corrected (one of {}, or one member of one, as `casualties.killed`)",
            CORRECTABLE.join(", ")
        )))
    }
}

/// The value at `field` in a record's JSON (null when absent).
pub(crate) fn get(record: &Value, field: &str) -> Value {
    let mut v = record;
    for part in field.split('.') {
        match v.get(part) {
            Some(x) => v = x,
            None => return Value::Null,
        }
    }
    v.clone()
}

/// Puts `value` at `field` in a record's JSON, making the parent an object if it was
/// null (a member given to a field the extractor left empty).
pub(crate) fn set(record: &mut Value, field: &str, value: Value) {
    let (parent, last) = match field.split_once('.') {
        Some((top, member)) => {
            let slot = &mut record[top];
            if !slot.is_object() {
                *slot = Value::Object(Default::default());
            }
            (slot, member)
        }
        None => (record, field),
    };
    parent[last] = value;
}

/// Fills in what a person correcting `field` does not type: the span of the words a
/// value was read from (none: `[0, 0]`), the words themselves (`text`, `raw`: empty, or
/// a place's name), a credit's photographers (none). What is given is kept.
pub(crate) fn complete(field: &str, value: &mut Value) {
    fn fill(v: &mut Value, defaults: &[(&str, Value)]) {
        if let Value::Object(m) = v {
            for (k, d) in defaults {
                m.entry(k.to_string()).or_insert_with(|| d.clone());
            }
        }
    }
    fn place(v: &mut Value) {
        let name = v
            .get("name")
            .cloned()
            .unwrap_or(Value::String(String::new()));
        fill(v, &[("text", name), ("span", json!([0, 0]))]);
    }
    fn count(v: &mut Value) {
        fill(v, &[("text", json!("")), ("span", json!([0, 0]))]);
    }
    match field {
        "credit" => fill(
            value,
            &[
                ("raw", json!("")),
                ("photographers", json!([])),
                ("span", json!([0, 0])),
            ],
        ),
        "date" => fill(value, &[("text", json!("")), ("span", json!([0, 0]))]),
        "location" => place(value),
        "places" => value.as_array_mut().into_iter().flatten().for_each(place),
        "casualties" => {
            for k in ["killed", "injured"] {
                if let Some(c) = value.get_mut(k) {
                    count(c);
                }
            }
        }
        "casualties.killed" | "casualties.injured" => count(value),
        _ => {}
    }
}

/// A record's JSON read back, or what makes it no record (naming `field`).
pub(crate) fn to_record(json: Value, field: &str) -> Result<Record> {
    serde_json::from_value(json).map_err(|e| {
        Error::Invalid(format!(
            "the value given for {field:?} does not fit the record: {e}"
        ))
    })
}

/// The record of a caption whose extracted record is `extracted` (the canonical text's,
/// `None` when it has none) with `corrections` (field, JSON value) applied in order.
/// Stored values were checked when saved; one that no longer fits the record (its form
/// changed since) is passed over rather than hiding the caption.
pub(crate) fn apply(
    extracted: Option<Record>,
    text: &str,
    corrections: &[(String, String)],
) -> Option<Record> {
    if corrections.is_empty() {
        return extracted;
    }
    let base = extracted.unwrap_or_else(|| Record {
        text: text.to_string(),
        ..Record::default()
    });
    let Ok(mut json) = serde_json::to_value(&base) else {
        return Some(base);
    };
    for (field, value) in corrections {
        let Ok(value) = serde_json::from_str::<Value>(value) else {
            continue;
        };
        let before = json.clone();
        set(&mut json, field, value);
        if serde_json::from_value::<Record>(json.clone()).is_err() {
            json = before;
        }
    }
    Some(serde_json::from_value(json).unwrap_or(base))
}

/// A caption's corrections (field, JSON value), oldest first.
pub(crate) fn corrections_of(
    c: &Connection,
    caption: i64,
) -> rusqlite::Result<Vec<(String, String)>> {
    let mut stmt = c.prepare_cached(
        "SELECT field, value FROM correction WHERE caption_id = ?1 ORDER BY revision",
    )?;
    stmt.query_map([caption], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_member_is_set_inside_its_field_and_an_empty_field_becomes_an_object() {
        let mut r = json!({"casualties": {"killed": null}, "credit": null});
        set(&mut r, "casualties.killed", json!({"low": 3}));
        set(&mut r, "credit.agency", json!("Wire"));
        assert_eq!(get(&r, "casualties.killed"), json!({"low": 3}));
        assert_eq!(get(&r, "credit"), json!({"agency": "Wire"}));
        assert_eq!(get(&r, "date.value"), Value::Null);
    }

    #[test]
    fn what_a_person_does_not_type_is_filled_in_and_what_they_typed_is_kept() {
        let mut credit = json!({"agency": "Harbour Wire"});
        complete("credit", &mut credit);
        assert_eq!(
            credit,
            json!({"agency": "Harbour Wire", "raw": "", "photographers": [], "span": [0, 0]})
        );
        let mut killed = json!({"low": 4, "high": null, "text": "four"});
        complete("casualties.killed", &mut killed);
        assert_eq!(
            killed,
            json!({"low": 4, "high": null, "text": "four", "span": [0, 0]})
        );
        let mut place = json!({"name": "Tyre", "lat": 33.27, "lon": 35.2, "kind": "town"});
        complete("location", &mut place);
        assert_eq!(place["text"], "Tyre");
        let mut persons = json!(["A Name"]);
        complete("persons", &mut persons);
        assert_eq!(persons, json!(["A Name"]));
    }

    #[test]
    fn only_record_fields_and_their_members_can_be_corrected() {
        assert!(check_field("location").is_ok());
        assert!(check_field("casualties.killed").is_ok());
        for bad in [
            "text",
            "warnings",
            "location.name.x",
            "location.",
            "",
            "nope",
        ] {
            assert!(check_field(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn corrections_apply_in_order_over_the_extracted_record() {
        let extracted = Record {
            text: "A street after the storm.".into(),
            persons: vec!["Wrong Name".into()],
            ..Record::default()
        };
        let corrections = vec![
            ("persons".to_string(), r#"["Right Name"]"#.to_string()),
            ("lang".to_string(), r#""en""#.to_string()),
        ];
        let r = apply(Some(extracted.clone()), "", &corrections).unwrap();
        assert_eq!(r.persons, vec!["Right Name".to_string()]);
        assert_eq!(r.lang.as_deref(), Some("en"));
        assert_eq!(r.text, extracted.text);
        assert_eq!(
            apply(Some(extracted.clone()), "", &[]),
            Some(extracted.clone())
        );
        // A value that does not fit is passed over, the rest applied.
        let bad = vec![
            ("persons".to_string(), "7".to_string()),
            ("lang".to_string(), r#""fr""#.to_string()),
        ];
        let r = apply(Some(extracted.clone()), "", &bad).unwrap();
        assert_eq!(r.persons, extracted.persons);
        assert_eq!(r.lang.as_deref(), Some("fr"));
    }
}
