//! Whether two distinct photographs show one incident, and why.

use cairn_model::{Place, PlaceKind, Precision, Record};
use serde::Serialize;

use crate::evidence::{EventClass, Evidence};

/// One reason a link was made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    /// The same day.
    SameDay,
    /// A day within the other's month (or the same month).
    SameMonth,
    /// The same gazetteer place.
    SamePlace,
    /// One place lies within the other.
    WithinPlace,
    /// Two places closer than their kind allows.
    NearPlace,
    /// The same class of event.
    SameEvent,
    /// The same ACLED event type.
    SameEventType,
    /// The same facility or site named.
    SameFacility,
    /// The same person named.
    SamePerson,
    /// Both give a toll.
    BothTolls,
}

/// How two dates agree; `None` when they cannot be one incident.
fn dates(a: &Record, b: &Record) -> Option<Reason> {
    let (a, b) = (a.date.as_ref()?, b.date.as_ref()?);
    match (a.precision, b.precision) {
        (Precision::Day, Precision::Day) => (a.value == b.value).then_some(Reason::SameDay),
        (Precision::Year, _) | (_, Precision::Year) => None,
        _ => (a.value.get(..7)? == b.value.get(..7)?).then_some(Reason::SameMonth),
    }
}

/// Great-circle distance in kilometres.
pub(crate) fn km(a: &Place, b: &Place) -> f64 {
    let (la1, la2) = (a.lat.to_radians(), b.lat.to_radians());
    let dla = la2 - la1;
    let dlo = (b.lon - a.lon).to_radians();
    let h = (dla / 2.0).sin().powi(2) + la1.cos() * la2.cos() * (dlo / 2.0).sin().powi(2);
    2.0 * 6371.0 * h.sqrt().min(1.0).asin()
}

/// The farthest apart two places of this kind (the coarser of a pair) may stand and
/// still be one scene; `None`: only the same place or containment.
fn reach_km(kind: PlaceKind) -> Option<f64> {
    match kind {
        PlaceKind::Point | PlaceKind::Neighbourhood => Some(2.5),
        PlaceKind::Town => Some(10.0),
        PlaceKind::Admin2 => Some(25.0),
        PlaceKind::Region | PlaceKind::Admin1 | PlaceKind::Country => None,
    }
}

fn coarser(a: &Place, b: &Place) -> PlaceKind {
    if a.kind.specificity_rank() >= b.kind.specificity_rank() {
        a.kind
    } else {
        b.kind
    }
}

/// How two locations agree, and the coarser kind; `None` when they are apart.
fn places(a: &Record, b: &Record) -> Option<(Reason, PlaceKind)> {
    let (a, b) = (a.location.as_ref()?, b.location.as_ref()?);
    let kind = coarser(a, b);
    match (&a.gazetteer_id, &b.gazetteer_id) {
        (Some(x), Some(y)) if x == y => return Some((Reason::SamePlace, kind)),
        (Some(x), Some(y)) if b.within.contains(x) || a.within.contains(y) => {
            return Some((Reason::WithinPlace, kind));
        }
        _ => {}
    }
    // Two places of one kind under two ids are two places (a town and its neighbour)
    // unless they stand so close that they are one place named twice.
    let share = if a.kind == b.kind { 0.25 } else { 1.0 };
    (km(a, b) <= reach_km(kind)? * share).then_some((Reason::NearPlace, kind))
}

/// The evidence score two captions need, by the coarser place: a country-wide location
/// links only on strong evidence.
fn needed(kind: PlaceKind) -> u32 {
    match kind {
        PlaceKind::Point | PlaceKind::Neighbourhood | PlaceKind::Town => 2,
        PlaceKind::Admin2 | PlaceKind::Region | PlaceKind::Admin1 => 3,
        PlaceKind::Country => 4,
    }
}

/// Whether two classes of event can be one incident: the same class, or one unknown
/// beside violence or a protest (a follow-up or a celebration is never the incident).
fn compatible(a: EventClass, b: EventClass) -> bool {
    let unknown = |c: EventClass| c == EventClass::Unknown;
    let apart = |c: EventClass| matches!(c, EventClass::FollowUp | EventClass::Civil);
    a == b || (unknown(a) != unknown(b) && !apart(a) && !apart(b))
}

/// Whether both name facilities and none is shared.
fn sites_differ(a: &Evidence, b: &Evidence) -> bool {
    !a.facilities.is_empty()
        && !b.facilities.is_empty()
        && !a.facilities.iter().any(|f| b.facilities.contains(f))
}

/// Whether nothing sets the pair apart: dates and places agree, the events are
/// compatible and the sites do not differ. Every member of an incident must agree so
/// with every other (the guard against chaining).
pub fn agree(a: (&Record, &Evidence), b: (&Record, &Evidence)) -> bool {
    compatible(a.1.class, b.1.class)
        && !sites_differ(a.1, b.1)
        && dates(a.0, b.0).is_some()
        && places(a.0, b.0).is_some()
}

/// The reasons two photographs are one incident, or `None`.
pub fn link(a: (&Record, &Evidence), b: (&Record, &Evidence)) -> Option<Vec<Reason>> {
    let (ea, eb) = (a.1, b.1);
    if !agree(a, b) {
        return None;
    }
    let date = dates(a.0, b.0)?;
    let (place, kind) = places(a.0, b.0)?;
    let shared_facility = ea.facilities.iter().any(|f| eb.facilities.contains(f));
    let mut reasons = vec![date, place];
    let mut specific = 0;
    let mut score = 0;
    if shared_facility {
        reasons.push(Reason::SameFacility);
        specific += 2;
    }
    if ea.persons.iter().any(|p| eb.persons.contains(p)) {
        reasons.push(Reason::SamePerson);
        specific += 2;
    }
    if ea.class == eb.class && ea.class != EventClass::Unknown {
        reasons.push(Reason::SameEvent);
        score += 1;
    }
    if a.0.event_types.iter().any(|t| b.0.event_types.contains(t)) {
        reasons.push(Reason::SameEventType);
        score += 1;
    }
    if ea.toll && eb.toll {
        reasons.push(Reason::BothTolls);
        score += 1;
    }
    // A place or a date only roughly shared needs evidence specific to the scene.
    let rough =
        place == Reason::NearPlace || date == Reason::SameMonth || kind.specificity_rank() > 2;
    if rough && specific == 0 {
        return None;
    }
    (score + specific >= needed(kind)).then_some(reasons)
}
