//! Words at the edges of a run of capitals: dates that end it (`Sanaa July 5`) or head
//! it (`July 3 | Jenin`), prepositions that open it (`In Qayyara`), facilities that close
//! it (`Galway Racecourse`) and are no part of a place's name.

/// Month names: before a day's number they end a run of capitals.
pub(super) const MONTHS: &[&str] = &[
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
    "jan",
    "feb",
    "mar",
    "apr",
    "jun",
    "jul",
    "aug",
    "sep",
    "sept",
    "oct",
    "nov",
    "dec",
];

/// Weekday names, which end a run of capitals.
pub(super) const WEEKDAYS: &[&str] = &[
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
];

/// Prepositions that, capitalised at a sentence's start, open a run of capitals.
pub(super) const RUN_PREPOSITIONS: &[&str] = &[
    "in", "at", "near", "from", "outside", "inside", "on", "en", "à", "dans", "im", "bei",
];

/// Words after a name that make it a facility named after the place it stands in
/// (`Lusail stadium`, `Kabul Hamid Karzai International Airport`, `Galway Racecourse`),
/// unlike a hospital or a street, often named after a person or another city.
const FACILITIES: &[&str] = &[
    "stadium",
    "airport",
    "racecourse",
    "station",
    "airbase",
    "harbour",
    "harbor",
    "marketplace",
];

pub(super) fn is_facility_word(word: &str) -> bool {
    FACILITIES.iter().any(|w| word.eq_ignore_ascii_case(w))
}

/// Whether the text before a name is a date heading and its bar (`July 3 | Jenin ...`):
/// the name that follows is the caption's dateline.
pub(super) fn is_date_heading(before: &str) -> bool {
    let Some(date) = before.trim_end().strip_suffix('|') else {
        return false;
    };
    date.len() <= 24
        && date.split_whitespace().all(|w| {
            let w = w.trim_matches(|c: char| matches!(c, ',' | '.'));
            w.chars().all(|c| c.is_ascii_digit())
                || MONTHS.contains(&w.to_lowercase().as_str())
                || WEEKDAYS.contains(&w.to_lowercase().as_str())
        })
}
