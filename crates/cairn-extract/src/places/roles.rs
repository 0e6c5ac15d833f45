//! The role a place mention plays in its sentence, read from the words before it: the
//! scene (`in X`, `at X`, `near X`), or only an origin, a border or a side.

use super::lexicon::CUES;
pub(super) use super::role::Role;

/// Words before a mention that say it is an origin, up to the start of its clause.
const ORIGIN_WORDS: &[&str] = &[
    "fled",
    "fleeing",
    "flee",
    "flees",
    "displaced",
    "evacuated",
    "escaped",
    "escaping",
    "returned",
    "arrived",
    "arriving",
    "deported",
    "expelled",
    "hometown",
    "native",
    "originally",
    "huyeron",
    "huyendo",
    "fuyant",
    "geflohen",
    "نزحوا",
    "النازحين",
];

/// Words skipped between a preposition and the name it governs.
const MODIFIERS: &[&str] = &[
    "the",
    "a",
    "an",
    "la",
    "le",
    "les",
    "l",
    "el",
    "los",
    "las",
    "der",
    "die",
    "das",
    "dem",
    "den",
    "northern",
    "southern",
    "eastern",
    "western",
    "central",
    "occupied",
    "besieged",
    "rebel-held",
    "war-torn",
    "embattled",
    "downtown",
    "nord",
    "sud",
    "norte",
];

/// How many of the words before a name (nearest first) are articles or modifiers.
pub(super) fn modifiers_before(before: &[&str]) -> usize {
    before.iter().take_while(|w| MODIFIERS.contains(w)).count()
}

/// Words before `of` (`de`, `von`) that put a place near the scene: `outskirts of X`.
const NEAR_OF: &[&str] = &[
    "outskirts",
    "north",
    "south",
    "east",
    "west",
    "northeast",
    "northwest",
    "southeast",
    "southwest",
    "edge",
    "suburbs",
    "nord",
    "sud",
    "norte",
    "sur",
    "afueras",
    "périphérie",
    "banlieue",
    "près",
    "proximité",
    "cerca",
    "alrededores",
    "außerhalb",
    "nördlich",
    "südlich",
    "östlich",
    "westlich",
    "süden",
    "norden",
    "osten",
    "westen",
    // Italian and Portuguese.
    "periferia",
    "dintorni",
    "pressi",
    "arredores",
    "subúrbio",
];

/// Words before `of` (`de`, `von`) that name the place as a settlement: `city of X`.
const KIND_OF: &[&str] = &[
    "city",
    "cities",
    "towns",
    "villages",
    "area",
    "town",
    "village",
    "province",
    "district",
    "neighbourhood",
    "neighborhood",
    "camp",
    "region",
    "capital",
    "island",
    "ville",
    "quartier",
    "ciudad",
    "barrio",
    "localidad",
    "provincia",
    "stadt",
];

/// The role an Arabic word before a name gives it: a preposition or a kind of place
/// (`في`, `بمدينة`, `قرب`, `من`).
fn arabic_role(w: &str) -> Option<Role> {
    let kind = [
        "مدينة",
        "مدينه",
        "بلدة",
        "بلده",
        "حي",
        "مخيم",
        "قرية",
        "قريه",
        "منطقة",
        "منطقه",
        "محافظة",
        "محافظه",
        "ريف",
        "وسط",
    ];
    Some(match w {
        "في" => Role::In,
        "عند" => Role::At,
        "قرب" | "بالقرب" | "شمال" | "جنوب" | "شرق" | "غرب" | "شمالي" | "جنوبي" | "شرقي"
        | "غربي" => Role::Near,
        "من" => Role::Origin,
        _ if kind.contains(&w) => Role::In,
        _ if w.strip_prefix('ب').is_some_and(|k| kind.contains(&k)) => Role::In,
        _ => return None,
    })
}

/// Prepositions that place what they govern: past one, earlier words speak of
/// another place.
fn is_locative(w: &str) -> bool {
    matches!(
        w,
        "in" | "at"
            | "near"
            | "outside"
            | "inside"
            | "à"
            | "au"
            | "en"
            | "dans"
            | "im"
            | "bei"
            | "في"
    )
}

/// Whether the clause before a name makes it an origin: a flight word or `from` before
/// any locative preposition (`displaced from the port city of Hodeidah`), or a home
/// left (`who fled his home in Hodeidah`). A home gone back to (`returned to their home
/// in Raqqa`) is a destination, and a bare `from` does not make a house one left
/// (`jumps from the roof of his house near X`).
fn is_origin(before: &[&str]) -> bool {
    let home = |w: &str| matches!(w, "home" | "homes" | "house" | "houses" | "hometown");
    let (rest, left_home) = match before.first() {
        Some(&w) if is_locative(w) => {
            if !before.get(1).is_some_and(|w| home(w)) {
                return false;
            }
            (&before[2..], true)
        }
        Some(_) => (&before[1..], false),
        None => return false,
    };
    for (i, w) in rest.iter().take(7).enumerate() {
        // "from their home in X" leaves it; "from the roof of his house near X" does not.
        if ORIGIN_WORDS.contains(w) || (*w == "from" && (!left_home || i < 2)) {
            return true;
        }
        // "from a wildfire on the island of X": `from` governs another thing.
        if is_locative(w) || is_destination(w) || *w == "on" {
            return false;
        }
    }
    false
}

/// Prepositions of a destination: what a flight word governs past one is where people
/// went, not where they came from.
fn is_destination(w: &str) -> bool {
    matches!(w, "to" | "into" | "toward" | "towards")
}

/// Words for a sporting fixture, whose `between X and Y` names teams.
fn is_fixture(w: &str) -> bool {
    matches!(
        w,
        "match"
            | "game"
            | "final"
            | "semifinal"
            | "semi-final"
            | "quarterfinal"
            | "quarter-final"
            | "friendly"
            | "fixture"
            | "derby"
            | "qualifier"
            | "playoff"
            | "play-off"
    )
}

/// `the match between X and Y`: both names are teams.
fn is_team(before: &[&str]) -> bool {
    let between = match before.first() {
        Some(&"between") => Some(0),
        Some(&"and") => before.iter().take(5).position(|w| *w == "between"),
        _ => None,
    };
    between.is_some_and(|b| before[b + 1..].iter().take(3).any(|w| is_fixture(w)))
}

/// Whether the words just before a name make it a side in a game: `against X`, `vs X`,
/// `beat X`, `take on X`, `draw with X` (nearest first, articles skipped).
fn is_team_verb(before: &[&str]) -> bool {
    let w = |i: usize| before.get(i).copied().unwrap_or("");
    matches!(
        w(0),
        "against" | "vs" | "v" | "beat" | "beats" | "beating" | "defeated" | "versus"
    ) || (w(0) == "on" && matches!(w(1), "take" | "takes" | "took" | "taking"))
        || (w(0) == "with" && matches!(w(1), "draw" | "draws" | "drew" | "drawn" | "tie"))
}

/// Whether the words between two names make both sides in a game (`X take on Y`, `X
/// face Y`, `X v Y`, `X drew with Y`): nothing but a game's verbs and an article.
pub(super) fn is_fixture_gap(gap: &str) -> bool {
    // Asked of every gap between two mentions, most of them long: more than four
    // words is no fixture, known before any word is lowered.
    if gap.split_whitespace().nth(4).is_some() {
        return false;
    }
    let words: Vec<String> = gap
        .split_whitespace()
        .map(|w| w.trim_end_matches('.').to_lowercase())
        .collect();
    let verb = |w: &str| {
        matches!(
            w,
            "take"
                | "takes"
                | "took"
                | "taking"
                | "face"
                | "faces"
                | "faced"
                | "facing"
                | "play"
                | "plays"
                | "played"
                | "playing"
                | "beat"
                | "beats"
                | "defeated"
                | "v"
                | "vs"
                | "versus"
                | "against"
                | "draw"
                | "drew"
                | "host"
                | "hosts"
                | "hosted"
        )
    };
    !words.is_empty()
        && words.len() <= 4
        && words.iter().any(|w| verb(w))
        && words
            .iter()
            .all(|w| verb(w) || matches!(w.as_str(), "on" | "with" | "the"))
}

/// Whether a capitalised place after `to` (`to the Zzyx settlement`, `to Zzyx camp`)
/// names where people went: the caption names a destination, so an origin is no scene
/// even when the gazetteer lacks the destination.
pub(super) fn names_destination(text: &str) -> bool {
    let words: Vec<&str> = text.split_whitespace().collect();
    words.iter().enumerate().any(|(i, w)| {
        if !matches!(*w, "to" | "into") {
            return false;
        }
        let mut k = i + 1;
        if words.get(k).is_some_and(|w| *w == "the") {
            k += 1;
        }
        let start = k;
        while k < words.len() && k < start + 4 && words[k].starts_with(char::is_uppercase) {
            k += 1;
        }
        k > start
            && words.get(k).is_some_and(|w| {
                let w = w.trim_end_matches(|c: char| !c.is_alphabetic());
                matches!(
                    w,
                    "camp" | "camps" | "settlement" | "shelter" | "village" | "town" | "site"
                )
            })
    })
}

/// Whether the clause before a name makes it the aim of an offensive (`to retake`,
/// `the battle to recapture`) before any locative preposition.
fn is_objective(before: &[&str]) -> bool {
    for w in before.iter().take(5) {
        if matches!(
            *w,
            "retake" | "recapture" | "reclaim" | "liberate" | "retaking" | "recapturing"
        ) {
            return true;
        }
        if is_locative(w) {
            return false;
        }
    }
    false
}

/// A unit of distance, as in `35km from`.
fn is_distance(w: &str) -> bool {
    let unit = w.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
    matches!(
        unit,
        "km" | "kms" | "kilometers" | "kilometres" | "miles" | "mile" | "metres" | "meters"
    )
}

/// The role of a mention, given the words before it in lower case, nearest first, up to
/// the start of its clause.
pub(super) fn role_of(before: &[&str]) -> Role {
    // Articles and the adjectives that stand between a preposition and a name ("in the
    // besieged Douma") say nothing of the role.
    let skip = modifiers_before(before);
    let before = &before[skip..];
    let w = |i: usize| before.get(i).copied().unwrap_or("");
    if let Some(n) = super::kind_phrase::kind_phrase(before) {
        return super::kind_phrase::kind_role(role_of(&before[n..]));
    }
    if let Some(role) = super::arabic::role(before).or_else(|| arabic_role(w(0))) {
        return role;
    }
    // "near the military airbase Vasylkiv", "from the town Sukhodilsk": a kind of place
    // (and an adjective) set before the name; the words before them give the role.
    if KIND_OF.contains(&w(0)) || matches!(w(0), "airbase" | "base" | "camp") {
        let rest = &before[1..];
        let adjective = usize::from(
            rest.first()
                .is_some_and(|a| !CUES.contains(a) && modifiers_before(&rest[1..]) > 0),
        );
        return role_of(&rest[adjective..]);
    }
    if is_team(before) {
        return Role::Team;
    }
    // "to retake the city of Mosul": the aim of an offensive, not where it is seen.
    if is_objective(before) {
        return Role::Weak;
    }
    // "20 miles (35km) from Mekelle": a distance, not an origin.
    if w(0) == "from" && is_distance(w(1)) {
        return Role::Near;
    }
    // "who fled Homs": the place a flight verb governs is left behind.
    let fled = matches!(
        w(0),
        "fled" | "flee" | "flees" | "fleeing" | "escaped" | "escaping"
    );
    if fled || w(0) == "from" || w(0) == "de" && ORIGIN_WORDS.contains(&w(1)) || is_origin(before) {
        return Role::Origin;
    }
    if (w(0) == "with" || w(0) == "of") && w(1) == "border" {
        return Role::Border;
    }
    if is_team_verb(before) {
        return Role::Team;
    }
    match w(0) {
        "in" | "à" | "au" | "aux" | "en" | "im" | "dans" | "inside" | "within" | "في" => {
            Role::In
        }
        "at" | "bei" | "عند" => Role::At,
        // "les bombardements sur Alep": French `sur` places what is struck (before a
        // name, Spanish `sur` is never a direction: that is `al sur de`).
        "sur" => Role::Weak,
        "near" | "outside" | "près" | "cerca" | "nahe" | "around" | "قرب" | "بالقرب" => {
            Role::Near
        }
        "nearby" if w(1) == "in" => Role::In,
        "of" | "de" | "del" | "du" | "des" | "von" | "di" | "della" | "do" | "da"
            if NEAR_OF.contains(&w(1)) =>
        {
            Role::Near
        }
        // "the besieged town of Douma", "la ciudad de Ataq": a place named as one.
        "of" | "de" | "del" | "du" | "von" if KIND_OF.contains(&w(1)) => Role::In,
        "" => Role::Bare,
        x if CUES.contains(&x) => Role::Weak,
        // Last, so that no English reading of a short word is overruled.
        x => super::desks::role(x)
            .or_else(|| super::desks::genitive_role(before))
            .unwrap_or(Role::Bare),
    }
}
