//! The scene: which of the caption's places is where the photo was taken, ranked by the
//! role each plays in its sentence (dateline, `in X, Country`, `in X`, `near X`, a place
//! named only as an origin or a border), with how sure the choice is and why.

use std::sync::LazyLock;

use aho_corasick::AhoCorasick;
use cairn_model::{Confidence, Place, PlaceKind, Span};

use super::links::is_qualifying_gap;
use super::mention::Mention;
use super::role::Role;
pub(super) use super::spot::Spot;

/// Whether mention `mi` opens the caption as a dateline (`GAZA CITY, Gaza Strip -`,
/// `MARIUPOL, UKRAINE - APRIL 2:`, `ALEP (Syrie) -`): nothing but a date or numbers
/// before it, and a dash, colon or bracket after it and the places qualifying it.
pub(super) fn is_dateline(text: &str, mentions: &[Mention], mi: usize) -> bool {
    let m = &mentions[mi];
    let before = &text[..m.span.start];
    if super::runs::is_date_heading(before) || super::intl::is_closing_dateline(text, m.span) {
        return true;
    }
    // `20.03 Lviv, Galicie Une mère ...`: a day and month heading the caption, then the
    // place, then the caption's first capital.
    if is_day_month(before)
        && text[m.span.end..]
            .trim_start()
            .starts_with(char::is_uppercase)
        || is_day_month(before) && text[m.span.end..].starts_with(',')
    {
        return true;
    }
    if before.chars().any(|c| c.is_lowercase()) || before.len() > 24 {
        return false;
    }
    let mut end = m.span.end;
    let mut n = mi + 1;
    while n < mentions.len() {
        let gap = text[end..mentions[n].span.start].trim();
        if gap != "," && gap != "(" && gap != "،" {
            break;
        }
        end = mentions[n].span.end;
        n += 1;
    }
    let after = text[end..].trim_start_matches([')', ' ']);
    let qualified = n > mi + 1;
    ["-", "–", "—", ":", "(", "،"]
        .iter()
        .any(|p| after.starts_with(p))
        // "Genoa, Italy A large section of ...": a headline place before the sentence.
        || (qualified
            && text[end..].starts_with(' ')
            && after.chars().next().is_some_and(char::is_uppercase))
        // "Kiev (Ukraine), 29 décembre |", "Lagos, 12 March": a place, then the date.
        || after
            .strip_prefix(',')
            .is_some_and(|r| r.trim_start().starts_with(|c: char| c.is_ascii_digit()))
        || (m
            .text
            .chars()
            .filter(|c| c.is_alphabetic())
            .all(char::is_uppercase)
            && m.text.chars().filter(|c| c.is_alphabetic()).count() >= 3
            && after.starts_with(','))
}

/// `20.03`, `3/4`: a day and a month alone, heading the caption.
fn is_day_month(before: &str) -> bool {
    let t = before.trim();
    let mut parts = t.split(['.', '/']);
    let (Some(d), Some(m), None) = (parts.next(), parts.next(), parts.next()) else {
        return false;
    };
    let num =
        |x: &str, max: u32| x.len() <= 2 && x.parse::<u32>().is_ok_and(|v| (1..=max).contains(&v));
    num(d, 31) && num(m, 31)
}

/// The reason's span: from the cue words to the end of the places that qualify the
/// mention (`in Douma, Syria`).
pub(super) fn reason_span(text: &str, mentions: &[Mention], mi: usize) -> Span {
    let m = &mentions[mi];
    // "in Qayyarah, south of Mosul": the phrase and the place it is placed by.
    if let Some(w) = m
        .within
        .filter(|&w| m.relative && mentions[w].chosen.is_some())
    {
        return Span::new(m.cue_start.min(m.span.start), mentions[w].span.end);
    }
    let mut end = m.span.end;
    let mut n = mi + 1;
    while n < mentions.len() && n <= mi + 2 {
        let gap = text[end..mentions[n].span.start].trim();
        // A possessive reaches only the place it holds, right after it.
        let held = mentions[mi].container && n == mi + 1 && matches!(gap, "'s" | "’s" | "'" | "’");
        if !(is_qualifying_gap(gap) || held) {
            break;
        }
        if mentions[n].chosen.is_none() {
            break;
        }
        end = mentions[n].span.end;
        n += 1;
    }
    Span::new(m.cue_start.min(m.span.start), end)
}

/// Chooses the scene among `spots` (in text order): a place in the scene sentence (or
/// the dateline) before others, then by tier, then the most specific, then the role, then
/// one qualified by a larger place (`in Windsor, Britain`), then the first. Sets its
/// confidence (the model's level, see `crate::confidence`) and reason; a low one gets a
/// warning. Returns the place and the features the model read.
pub(super) fn choose(
    text: &str,
    spots: &[Spot],
    scene: Span,
    warnings: &mut Vec<String>,
) -> Option<(Place, Vec<f64>)> {
    // "... Above, people who were evacuated ...": the sentence that says it describes
    // the photo is the scene's, whatever the story before it.
    let scene = photo_sentence(text).unwrap_or(scene);
    let in_scene = |s: &Spot| {
        s.dateline || (s.place.span.start >= scene.start && s.place.span.end <= scene.end)
    };
    // A place named only inside another name (`China National Day`), as a side in a
    // game or as a border is never the scene: better none than a team's country. Nor is
    // an origin when the caption names where people went (`fled ... to the Zzyx
    // settlement`), even a destination the gazetteer lacks.
    let destination = std::cell::OnceCell::new();
    let scene_spots = spots
        .iter()
        .enumerate()
        .filter(|(_, s)| !s.passing)
        .filter(|(_, s)| match s.role {
            Role::Name | Role::Team | Role::Border => false,
            Role::Origin => !*destination.get_or_init(|| super::roles::names_destination(text)),
            _ => true,
        });
    let best = scene_spots.max_by(|(ia, a), (ib, b)| {
        let key = |i: usize, s: &Spot| {
            (
                in_scene(s),
                s.tier(),
                std::cmp::Reverse(s.specificity()),
                s.dateline,
                s.role.rank(),
                s.qualified,
                std::cmp::Reverse(i),
            )
        };
        key(*ia, a).cmp(&key(*ib, b))
    })?;
    let spot = refined(spots, best.1);
    let spot = inner_of_part(spots, spot);
    let mut place = spot.place.clone();
    let rule = spot.confidence(in_scene(spot));
    let x = super::evidence::features(text, spot, spots, in_scene(spot), rule);
    let model = crate::confidence::Model::bundled();
    // A place read only by a spelling match is never `high`; one located at what encloses
    // it is a guess at the point.
    // A place named only as an origin, a border, a side or inside another name is a
    // guess whatever else is known of it.
    let confidence = if spot.fallback || !spot.role.is_scene() {
        Confidence::Low
    } else {
        model.level(model.probability(&x), crate::confidence::may_be_high(&x))
    };
    place.confidence = Some(confidence);
    let r = spot.reason;
    let reason = text.get(r.start..r.end).unwrap_or(&place.text);
    place.reason = Some(reason.to_string());
    if confidence == Confidence::Low {
        let why = match spot.role {
            Role::Origin => "named only as where people came from",
            Role::Border => "named only as a border",
            Role::Team => "named only as a team or side",
            Role::Name => "named only within another name",
            _ if spot.fallback => "located at the enclosing place",
            _ => "no word in the caption sets the scene there",
        };
        warnings.push(format!("location {:?} is uncertain: {why}", place.name));
    }
    Some((place, x))
}

/// A country the scene sentence names only in passing (`people have made it to X
/// since ...`) gives way to a place inside it that another sentence sets the scene in
/// (`living in a camp outside the city of Y`): the background comes first, the photo
/// after.
fn refined<'s>(spots: &'s [Spot], best: &'s Spot) -> &'s Spot {
    if best.dateline
        || best.fallback
        || best.place.kind != PlaceKind::Country
        || best.role >= Role::Near
    {
        return best;
    }
    spots
        .iter()
        .find(|s| {
            s.role >= Role::Near
                && !s.surroundings
                && !s.fallback
                && s.place.kind != PlaceKind::Country
                && s.place.country == best.place.country
        })
        .unwrap_or(best)
}

/// A region named only by a part of it or as near the scene (`au sud de la bande de
/// Gaza`) gives way to a town the caption sets the scene in (`dans le camp de Rafah`)
/// that lies within reach of the region's point: the region says where the town is,
/// the town says where the photo is.
fn inner_of_part<'s>(spots: &'s [Spot], best: &'s Spot) -> &'s Spot {
    let broad = matches!(best.place.kind, PlaceKind::Region | PlaceKind::Admin1);
    if !broad || best.dateline || best.fallback || best.role > Role::Near {
        return best;
    }
    spots
        .iter()
        .find(|s| {
            matches!(s.role, Role::In | Role::At)
                && !s.surroundings
                && !s.fallback
                && matches!(s.place.kind, PlaceKind::Town | PlaceKind::Neighbourhood)
                && s.place.country == best.place.country
                && cairn_gazetteer::haversine_km(
                    s.place.lat,
                    s.place.lon,
                    best.place.lat,
                    best.place.lon,
                ) < 60.0
        })
        .unwrap_or(best)
}

/// Words that open the sentence describing the photo in a caption that tells a story
/// first (`Above, people ...`, `Pictured: ...`).
const PHOTO_MARKERS: &[&str] = &[
    "Above, ",
    "Above: ",
    "Pictured, ",
    "Pictured: ",
    "In the photo, ",
];

/// Every photo marker in one automaton: most captions hold none, and one pass over the
/// text says so where a search per marker read the text once for each.
static ANY_PHOTO_MARKER: LazyLock<AhoCorasick> = LazyLock::new(|| {
    AhoCorasick::new(PHOTO_MARKERS.iter().chain(super::intl::PHOTO_MARKERS))
        .expect("photo markers build an automaton")
});

/// The span of a sentence opened by a photo marker, if any.
fn photo_sentence(text: &str) -> Option<Span> {
    if !ANY_PHOTO_MARKER.is_match(text) {
        return None;
    }
    PHOTO_MARKERS
        .iter()
        .chain(super::intl::PHOTO_MARKERS)
        .find_map(|marker| {
            let p = text.find(marker)?;
            let opens = p == 0 || text[..p].trim_end().ends_with(['.', '!', '?', ')']);
            opens.then(|| {
                let end = text[p..].find(". ").map_or(text.len(), |e| p + e + 1);
                Span::new(p, end)
            })
        })
}
