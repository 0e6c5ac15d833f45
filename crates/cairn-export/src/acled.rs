//! ACLED's event CSV: its columns, its event and precision codes, and a caption's row.

use cairn_gazetteer::{Gazetteer, reader_name};
use cairn_model::{PlaceKind, Precision};
use cairn_store::ExportedCaption;

use crate::formula::text_cell;
use crate::{country_name, join};

/// The columns of [`Format::AcledCsv`], ACLED's names.
pub const ACLED_COLUMNS: [&str; 14] = [
    "event_date",
    "time_precision",
    "event_type",
    "sub_event_type",
    "actor1",
    "location",
    "admin1",
    "country",
    "latitude",
    "longitude",
    "geo_precision",
    "source",
    "notes",
    "fatalities",
];

/// ACLED's event type of one of its sub-event types.
pub fn acled_event_type(sub_event: &str) -> Option<&'static str> {
    Some(match sub_event {
        "Armed clash" | "Government regains territory" | "Non-state actor overtakes territory" => {
            "Battles"
        }
        "Chemical weapon"
        | "Air/drone strike"
        | "Suicide bomb"
        | "Shelling/artillery/missile attack"
        | "Remote explosive/landmine/IED"
        | "Grenade" => "Explosions/Remote violence",
        "Sexual violence" | "Attack" | "Abduction/forced disappearance" => {
            "Violence against civilians"
        }
        "Peaceful protest" | "Protest with intervention" | "Excessive force against protesters" => {
            "Protests"
        }
        "Violent demonstration" | "Mob violence" => "Riots",
        "Agreement"
        | "Arrests"
        | "Change to group/activity"
        | "Disrupted weapons use"
        | "Headquarters or base established"
        | "Looting/property destruction"
        | "Non-violent transfer of territory"
        | "Other" => "Strategic developments",
        _ => return None,
    })
}

/// ACLED's time precision: 1 = the day is known, 2 = within a week, 3 = only the month
/// (or a wider period).
pub fn acled_time_precision(p: Precision) -> u8 {
    match p {
        Precision::Day => 1,
        Precision::Month | Precision::Year => 3,
    }
}

/// ACLED's geographic precision: 1 = the town (or a place inside it), 2 = a district or
/// named region, 3 = only the province or country.
pub fn acled_geo_precision(k: PlaceKind) -> u8 {
    match k {
        PlaceKind::Point | PlaceKind::Neighbourhood | PlaceKind::Town => 1,
        PlaceKind::Admin2 | PlaceKind::Region => 2,
        PlaceKind::Admin1 | PlaceKind::Country => 3,
    }
}

/// The first day of a record's date (ACLED wants a full date; the precision column says
/// how much of it is known).
pub(crate) fn first_day(value: &str, p: Precision) -> String {
    match p {
        Precision::Day => value.to_string(),
        Precision::Month => format!("{value}-01"),
        Precision::Year => format!("{value}-01-01"),
    }
}

/// A caption's ACLED row; `None` when it tells no event (an ACLED row is an event).
pub(crate) fn acled_row(c: &ExportedCaption, g: &Gazetteer) -> Option<Vec<String>> {
    let r = c.record.as_ref();
    let loc = r.and_then(|r| r.location.as_ref());
    let date = r.and_then(|r| r.date.as_ref());
    let sub_event = r?.event_types.first()?.clone();
    let event_type = acled_event_type(&sub_event)?;
    // The reporting source: the agency of the credit, then whoever the caption cites.
    let mut source: Vec<String> = Vec::new();
    if let Some(credit) = r.and_then(|r| r.credit.as_ref()) {
        source.extend(credit.agency.iter().cloned());
        source.extend(credit.distributor.iter().cloned());
    }
    if let Some(r) = r {
        for s in &r.sources {
            if !source.contains(s) {
                source.push(s.clone());
            }
        }
    }
    // An unknown toll is no toll of 0: the cell stays empty.
    let fatalities = r
        .and_then(|r| r.casualties.killed.as_ref())
        .map(|k| k.low.to_string())
        .unwrap_or_default();
    let t = |v: Option<String>| text_cell(v.unwrap_or_default());
    Some(vec![
        t(date.map(|d| first_day(&d.value, d.precision))),
        date.map(|d| acled_time_precision(d.precision).to_string())
            .unwrap_or_default(),
        text_cell(event_type.to_string()),
        text_cell(sub_event),
        String::new(),
        // The place as readers write it; the gazetteer's id is in the CSV export.
        t(loc.map(|l| reader_name(&l.name, &l.text).to_string())),
        t(loc.and_then(|l| l.admin1.clone())),
        t(loc
            .and_then(|l| l.country.as_deref())
            .map(|cc| country_name(g, cc))),
        loc.map(|l| format!("{:.4}", l.lat)).unwrap_or_default(),
        loc.map(|l| format!("{:.4}", l.lon)).unwrap_or_default(),
        loc.map(|l| acled_geo_precision(l.kind).to_string())
            .unwrap_or_default(),
        text_cell(join(&source)),
        text_cell(c.text.clone()),
        fatalities,
    ])
}
