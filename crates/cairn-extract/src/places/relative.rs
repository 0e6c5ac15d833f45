//! Phrases that place one place relative to another (`Qayyarah, south of Mosul`,
//! `Metochi village, near Epidaurus`, `Khazer, about 30 km east of Mosul`): the first,
//! more precise place is the scene and the second only its surroundings. The phrases are
//! a table, one language's grammar beside another's.

use std::sync::LazyLock;

/// Relative-position phrases, in lower case, as they stand just before the place that
/// gives the surroundings.
pub(super) const RELATIVE: &[&str] = &[
    // English.
    "north of",
    "south of",
    "east of",
    "west of",
    "northeast of",
    "northwest of",
    "southeast of",
    "southwest of",
    "north-east of",
    "north-west of",
    "south-east of",
    "south-west of",
    "near",
    "outside",
    "close to",
    "on the outskirts of",
    "in the outskirts of",
    "outskirts of",
    "on the edge of",
    "just outside",
    "not far from",
    // Spanish.
    "al norte de",
    "al sur de",
    "al este de",
    "al oeste de",
    "cerca de",
    "en las afueras de",
    // French.
    "au nord de",
    "au sud de",
    "à l'est de",
    "à l'ouest de",
    "près de",
    "en périphérie de",
    // German.
    "nördlich von",
    "südlich von",
    "östlich von",
    "westlich von",
    "nahe",
    "bei",
];

/// Words that may stand between a place and the relative phrase after it: its kind
/// (`Makhmour area, southeast of`), a distance (`about 30 kilometers (19 miles) east of`).
fn is_filler(w: &str) -> bool {
    super::lexicon::is_settlement_word(w)
        || super::lexicon::kind_hint(w).is_some()
        || w.chars().all(|c| c.is_ascii_digit() || c == '.')
        || matches!(
            w,
            "area"
                | "about"
                | "some"
                | "around"
                | "roughly"
                | "nearly"
                | "approximately"
                | "just"
                | "km"
                | "kms"
                | "kilometers"
                | "kilometres"
                | "kilometer"
                | "kilometre"
                | "miles"
                | "mile"
                | "mi"
                | "the"
                | "a"
                | "refugee"
                | "island"
                | "region"
        )
        || w.strip_suffix("km")
            .is_some_and(|n| n.chars().all(|c| c.is_ascii_digit()))
}

/// Whether the text between two places, `gap`, places the first relative to the second
/// (`, south of `, ` village, near `, `, about 30 km east of the city of `).
pub(super) fn is_relative_gap(gap: &str) -> bool {
    // Cheap test first: most gaps between two places are a comma or `in`.
    if gap.len() < 4 || gap.len() > 64 {
        return false;
    }
    let lower = gap.to_lowercase().replace('’', "'");
    // Direction adjectives say which part (`on the northeastern outskirts of`), not
    // whether the phrase places one place by another.
    let words: Vec<&str> = lower
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | '(' | ')' | '،'))
        .filter(|w| !w.is_empty() && !super::scan_words::is_direction_adjective(w))
        .collect();
    // What ends the gap may belong to the second place's name: an article, a kind,
    // an adjective of nationality (`the Yemeni capital`, `the city of`).
    let mut end = words.len();
    while end > 0 {
        let w = words[end - 1];
        let of_kind = w == "of"
            && end >= 2
            && matches!(words[end - 2], "city" | "town" | "village" | "province");
        if of_kind {
            end -= 2;
        } else if matches!(
            w,
            "the" | "la" | "le" | "el" | "der" | "die" | "capital" | "city" | "town" | "port"
        ) || super::lexicon::demonym_country(w).is_some()
        {
            end -= 1;
        } else {
            break;
        }
    }
    let words = &words[..end];
    PHRASES.iter().any(|phrase| {
        words.ends_with(phrase)
            && words[..words.len() - phrase.len()]
                .iter()
                .all(|w| is_filler(w))
    })
}

/// [`RELATIVE`], each phrase split into its words once.
static PHRASES: LazyLock<Vec<Vec<&'static str>>> =
    LazyLock::new(|| RELATIVE.iter().map(|p| p.split(' ').collect()).collect());

/// Whether the text between two places links them as a chain through places the
/// gazetteer lacks (`X Village, Y Town in the city of `, `, Y County, `): the first lies
/// inside the second. Only names and kind words stand between, and a kind word among
/// them says they are places.
pub(super) fn is_chain_gap(gap: &str) -> bool {
    if gap.len() < 6 || gap.len() > 64 || !gap.contains(',') {
        return false;
    }
    let words: Vec<&str> = gap
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
        .collect();
    let mut end = words.len();
    // "in the city of": the last place's own kind phrase.
    if words[..end].ends_with(&["city", "of"]) || words[..end].ends_with(&["town", "of"]) {
        end -= 2;
    }
    if end > 0 && words[end - 1] == "the" {
        end -= 1;
    }
    let inside = end > 0 && words[end - 1] == "in";
    let names = &words[..end - usize::from(inside)];
    let is_kind = |w: &str| {
        super::lexicon::is_settlement_word(w)
            || super::lexicon::kind_hint(w).is_some()
            || ["county", "prefecture", "township", "municipality"]
                .iter()
                .any(|k| w.eq_ignore_ascii_case(k))
    };
    (inside || gap.trim_end().ends_with(','))
        && !names.is_empty()
        && names.len() <= 6
        && names.iter().any(|w| is_kind(w))
        && names
            .iter()
            .all(|w| is_kind(w) || w.starts_with(char::is_uppercase))
}

/// Compass directions, per language, in lower case: the words of a bearing (`south of`,
/// `al sur de`, `au nord de`, `südlich von`). English adjectives (`southern`) are read
/// by their stem.
pub(super) const DIRECTIONS: &[(&str, &[&str])] = &[
    (
        "en",
        &[
            "north",
            "south",
            "east",
            "west",
            "northeast",
            "northwest",
            "southeast",
            "southwest",
            "north-east",
            "north-west",
            "south-east",
            "south-west",
        ],
    ),
    (
        "es",
        &[
            "norte", "sur", "este", "oeste", "noreste", "noroeste", "sureste", "suroeste",
            "nordeste", "sudeste",
        ],
    ),
    (
        "fr",
        &[
            "nord",
            "sud",
            "est",
            "ouest",
            "nord-est",
            "nord-ouest",
            "sud-est",
            "sud-ouest",
        ],
    ),
    (
        "de",
        &[
            "nördlich",
            "südlich",
            "östlich",
            "westlich",
            "nordöstlich",
            "nordwestlich",
            "südöstlich",
            "südwestlich",
        ],
    ),
];

/// Whether a lower-case word is a compass direction in any language of the table.
pub(super) fn is_direction(w: &str) -> bool {
    DIRECTIONS.iter().any(|(_, words)| words.contains(&w))
}

/// The compass point a direction word names, as (north, east) steps of -1, 0 or 1:
/// `southwest` (-1, -1), `nordeste` (1, 1), `östlich` (0, 1). Every language of the
/// table opens a northern or southern point with `n` or `s`, and none of its western
/// words holds an eastern one but `ouest`, `oeste`: those are read first.
pub(super) fn compass(w: &str) -> Option<(i8, i8)> {
    if !is_direction(w) {
        return None;
    }
    let north = match w.chars().next() {
        Some('n') => 1,
        Some('s') => -1,
        _ => 0,
    };
    let east = if ["west", "ouest", "oeste"].iter().any(|x| w.contains(x)) {
        -1
    } else if ["east", "est", "öst"].iter().any(|x| w.contains(x)) {
        1
    } else {
        0
    };
    Some((north, east))
}

/// The compass bearing a relative gap gives (`south of`, `al sur de`): the place may
/// then lie well away from the one it is placed by, where `near` keeps it close.
pub(super) fn bearing(gap: &str) -> Option<(i8, i8)> {
    gap.split(|c: char| !c.is_alphabetic() && c != '-')
        .find_map(|w| {
            let w = w.to_lowercase();
            compass(&w).or_else(|| compass(w.trim_end_matches("ern")))
        })
}

/// Whether the text between two mentions places the first by a bearing from the second
/// (`Qayyara, al sur de Mosul`, `Irpin, nordwestlich von Kiew`): a comma, perhaps `al`,
/// `au`, `à l'`, a direction word, then `de`, `del`, `du`, `von`.
fn is_comma_bearing_gap(gap: &str) -> bool {
    let Some(rest) = gap.trim().strip_prefix(',') else {
        return false;
    };
    let words: Vec<String> = rest
        .split(|c: char| c.is_whitespace() || c == '\'' || c == '’')
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    let words = match words.first() {
        Some(&("al" | "au" | "à" | "a")) => &words[1..],
        _ => &words[..],
    };
    let words = match words.first() {
        Some(&"l") => &words[1..],
        _ => words,
    };
    matches!(
        words,
        [d, "de" | "del" | "du" | "von" | "vom"] | [d, "de", "la"] if is_direction(d)
    )
}

/// `X, al sur de Y`: `Y` is only where `X` is measured from; its role (`near`, read
/// from `sur de`) is the weak one of a place spoken of, so that `X` is the scene.
pub(super) fn relative_positions(text: &str, mentions: &mut [super::mention::Mention]) {
    for m in 1..mentions.len() {
        let gap = &text[mentions[m - 1].span.end..mentions[m].span.start];
        if mentions[m].role == super::role::Role::Near
            && mentions[m - 1].role.is_scene()
            && mentions[m - 1].chosen.is_some()
            && is_comma_bearing_gap(gap)
        {
            mentions[m].role = super::role::Role::Weak;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{bearing, is_chain_gap, is_comma_bearing_gap, is_relative_gap};

    #[test]
    fn chain_gaps() {
        for gap in [
            " Village, Zzyx Town in the city of ",
            ", Zzyx County, ",
            " village, Zzyx district, ",
        ] {
            assert!(is_chain_gap(gap), "{gap:?}");
        }
        for gap in [
            ", ",
            " in ",
            ", Zzyx, ",
            ", where people from ",
            " and Zzyx County in ",
        ] {
            assert!(!is_chain_gap(gap), "{gap:?}");
        }
    }

    #[test]
    fn relative_gaps() {
        for gap in [
            ", south of ",
            " area, southeast of ",
            ", about 30 kilometers (19 miles) east of ",
            " village, near ",
            ", on the outskirts of ",
            ", just outside the northern city of ",
            ", al sur de ",
            " near ",
            ", on the northeastern outskirts of the capital ",
            ", south of the Yemeni capital ",
        ] {
            assert!(is_relative_gap(gap), "{gap:?}");
        }
        for gap in [
            ", ",
            " in ",
            " and ",
            ", where people fled from ",
            " south ",
        ] {
            assert!(!is_relative_gap(gap), "{gap:?}");
        }
    }

    #[test]
    fn bearings_in_every_language() {
        for gap in [
            ", south of ",
            " southwest of ",
            ", al noroeste de ",
            ", au sud-est de ",
            ", südlich von ",
        ] {
            assert!(bearing(gap).is_some(), "{gap:?}");
        }
        for gap in [", near ", ", cerca de ", ", près de ", " nahe "] {
            assert!(bearing(gap).is_none(), "{gap:?}");
        }
    }

    #[test]
    fn compass_points_in_every_language() {
        use super::compass;
        for (w, point) in [
            ("southwest", (-1, -1)),
            ("north-east", (1, 1)),
            ("west", (0, -1)),
            ("este", (0, 1)),
            ("oeste", (0, -1)),
            ("noroeste", (1, -1)),
            ("sudeste", (-1, 1)),
            ("ouest", (0, -1)),
            ("nord-est", (1, 1)),
            ("sud", (-1, 0)),
            ("östlich", (0, 1)),
            ("nordwestlich", (1, -1)),
            ("südlich", (-1, 0)),
        ] {
            assert_eq!(compass(w), Some(point), "{w}");
        }
        assert_eq!(compass("near"), None);
        assert_eq!(bearing(", about 30 km southwest of "), Some((-1, -1)));
    }

    #[test]
    fn comma_bearings() {
        for gap in [
            ", al sur de ",
            ", au nord de ",
            ", à l'ouest de ",
            ", nordwestlich von ",
            ", al este de la ",
        ] {
            assert!(is_comma_bearing_gap(gap), "{gap:?}");
        }
        for gap in [", cerca de ", " al sur de ", ", en ", ", der "] {
            assert!(!is_comma_bearing_gap(gap), "{gap:?}");
        }
    }
}
