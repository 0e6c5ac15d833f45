//! What the confidence model reads of a chosen place (`crate::confidence::FEATURES`, in
//! that order): the scene choice's own reading of it, and how it agrees with the
//! caption's other places.

use cairn_model::{Confidence, PlaceKind};

use super::role::Role;
use super::spot::Spot;

/// The feature vector of `spot`, chosen among `spots`, with the hand rule's level `rule`.
pub(super) fn features(
    text: &str,
    spot: &Spot,
    spots: &[Spot],
    in_scene: bool,
    rule: Confidence,
) -> Vec<f64> {
    let b = |v: bool| f64::from(u8::from(v));
    let role = spot.role.rank();
    let kind = spot.place.kind;
    let others: Vec<&Spot> = spots
        .iter()
        .filter(|s| s.place.span != spot.place.span)
        .collect();
    let same = others
        .iter()
        .filter(|s| s.place.country == spot.place.country)
        .count();
    let share = if others.is_empty() {
        0.0
    } else {
        same as f64 / others.len() as f64
    };
    let mut countries: Vec<&Option<String>> = spots.iter().map(|s| &s.place.country).collect();
    countries.sort();
    countries.dedup();
    let population = spot.population as f64;
    // `Tokyo's Kameido`, `Seoul's Guryong village`, `X camp`: the photo stands at a site
    // of the place, whose point is the place's own.
    let after = text.get(spot.place.span.end..).unwrap_or_default();
    let next = after
        .trim_start_matches(['\'', '’', 's'])
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .trim_matches(|c: char| !c.is_alphabetic())
        .to_lowercase();
    let site = super::sites::is_site_word(&next) || super::lexicon::is_settlement_word(&next);
    let possessive = after.starts_with("'s ") || after.starts_with("’s ");
    // `Guryong village in Seoul`: a site the gazetteer lacks, located at this place.
    let holds_unknown = spots
        .iter()
        .any(|s| s.fallback && s.place.gazetteer_id == spot.place.gazetteer_id && !spot.fallback);
    vec![
        1.0,
        b(spot.dateline),
        b(spot.qualified),
        b(spot.fallback),
        b(spot.exact),
        b(spot.hinted),
        b(in_scene),
        b(spot.surroundings),
        b(role == Role::In),
        b(role == Role::Near),
        b(role == Role::Weak),
        b(role == Role::Bare),
        b(!role.is_scene()),
        b(kind == PlaceKind::Country),
        b(matches!(kind, PlaceKind::Admin1 | PlaceKind::Admin2)),
        b(kind == PlaceKind::Region),
        b(kind == PlaceKind::Town),
        b(matches!(kind, PlaceKind::Neighbourhood | PlaceKind::Point)),
        (population + 1.0).log10() / 7.0,
        share,
        b(others.is_empty()),
        b(countries.len() >= 3),
        b(spot
            .place
            .gazetteer_id
            .as_deref()
            .is_some_and(|id| id.starts_with("cairn:"))),
        b(rule == Confidence::High),
        b(rule == Confidence::Medium),
        b(site),
        b(possessive),
        spots.len().min(6) as f64 / 6.0,
        b(holds_unknown),
    ]
}
