//! Place grammar of French, Spanish and German captions: kind words before a name (`la
//! ciudad portuaria de X`, `die ostukrainische Stadt X`), closing datelines (`Kiew, 25.
//! Februar.`) and inflected or compound forms of a known name (`Kiews`, `Gaza-Stadt`).

use cairn_gazetteer::{Gazetteer, PlaceId};
use cairn_model::{PlaceKind, Span};

use super::arabic;
use super::kind_phrase::{kind_phrase, kind_phrase_at, kind_role, unelided};
use super::role::Role;
use super::tokens::{Lower, Tok};

/// The kind a kind phrase or an Arabic kind word before a name gives it
/// (`province de X`, `Gebiet X`, `بمحافظة X`).
pub(super) fn hint_before(before: &[&str]) -> Option<PlaceKind> {
    if let Some((k, _)) = before.first().and_then(|w| arabic::kind_word(w)) {
        return Some(k);
    }
    let (at, _) = kind_phrase_at(before)?;
    super::lexicon::kind_hint(unelided(before[at]))
}

/// Whether the name at `span` opens a sentence that is only a place and a date (`...
/// zurückgezogen. Kiew, 25. Februar.`): the dateline German and other desks close with.
pub(super) fn is_closing_dateline(text: &str, span: Span) -> bool {
    let before = text[..span.start].trim_end();
    if !(before.is_empty() || before.ends_with(['.', '!', '?', '|'])) {
        return false;
    }
    let Some(rest) = text[span.end..].strip_prefix(", ") else {
        return false;
    };
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if !(1..=2).contains(&digits) {
        return false;
    }
    let rest = rest[digits..].trim_start_matches(['.', ' ']);
    let rest = rest.strip_prefix("de ").unwrap_or(rest);
    let month: String = rest
        .chars()
        .take_while(|c| c.is_alphabetic())
        .flat_map(char::to_lowercase)
        .collect();
    super::runs::MONTHS.contains(&month.as_str())
        || crate::date::is_month_word(&month)
        || crate::date::is_desk_month(&month)
}

/// The places of a name the gazetteer knows only in another form: Arabic with letters
/// glued on (`لبيروت`), a German genitive (`Kiews`), a German compound with `-Stadt`
/// or a Romance `ciudad de`, `ville de`, `franja de` (`Gaza-Stadt`, `Ciudad de Gaza`,
/// `Franja de Gaza`). The folded form
/// looked up is given with them; only well-known places are read so.
pub(super) fn inflected<'g>(
    g: &'g Gazetteer,
    word: &str,
    folded: &str,
) -> Option<(String, &'g [PlaceId])> {
    if let Some(found) = arabic::unglued_places(g, word) {
        return Some(found);
    }
    // `Franja de Gaza`, `Bande de Gaza`: the Spanish and French for a strip of land
    // before the name, the English after it.
    let strip = ["franja de ", "bande de "]
        .iter()
        .find_map(|p| folded.strip_prefix(p))
        .map(|stem| format!("{stem} strip"));
    // Spanish writes the Arabic `ج` as `y` (`Yabalia`), where the gazetteer has `j`.
    let jim = folded.strip_prefix('y').map(|rest| format!("j{rest}"));
    for name in strip.into_iter().chain(jim).chain(german_respelt(folded)) {
        let c = g.exact_folded(&name);
        if c.iter().any(|&id| arabic::well_known(g, id)) {
            return Some((name, c));
        }
    }
    let stems = [
        folded.strip_suffix(" stadt"),
        // `Mossoul-Ouest`, `Alep-Est`: a city's part by its bearing.
        [
            " ouest", " est", " nord", " sud", " oeste", " este", " norte", " sur",
        ]
        .iter()
        .find_map(|b| folded.strip_suffix(b)),
        folded.strip_prefix("ciudad de "),
        folded.strip_prefix("ville de "),
        folded
            .strip_suffix('s')
            .filter(|s| !s.contains(' ') && s.len() >= 4 && !s.ends_with('s')),
    ];
    stems.into_iter().flatten().find_map(|stem| {
        let c = g.exact_folded(stem);
        c.iter()
            .any(|&id| arabic::well_known(g, id))
            .then(|| (stem.to_string(), c))
    })
}

/// A name as English writes what German spells `dsch`, `sch`, `ch` and `j` (`Chan
/// Junis`, `Dschabalija` for Khan Yunis, Jabaliya), if it has any of them.
fn german_respelt(folded: &str) -> Option<String> {
    if !folded.contains(['j', 'c']) || !folded.is_ascii() {
        return None;
    }
    let s = folded
        .replace("dsch", "\u{1}")
        .replace("sch", "sh")
        .replace("ch", "kh")
        .replace('j', "y")
        .replace('\u{1}', "j");
    (s != folded).then_some(s)
}

/// Words that begin a building's or a site's name in Catalan, Spanish and French
/// (`Palau de la Generalitat`, `Plaza de Mayo`, `Parc des Princes`).
const BUILDING_HEADS: &[&str] = &[
    "palau",
    "palacio",
    "palais",
    "plaza",
    "plaça",
    "puerta",
    "estadio",
    "stade",
    "parc",
    "parque",
    "teatro",
    "théâtre",
    "museo",
    "musée",
    "iglesia",
    "església",
    "église",
    "catedral",
    "cathédrale",
    "mezquita",
    "mosquée",
    "universidad",
    "université",
    "avenida",
    "paseo",
    "torre",
    "castillo",
    "château",
    "gare",
    "estación",
    "aeropuerto",
    "aéroport",
    "puente",
    "pont",
];

/// Whether a one-word name is the head of a building's name that goes on after it
/// with `de`, `del`, `des`, `du` and a capital (`Palau de la Generalitat`).
pub(super) fn heads_a_building(name: &str, after: &str) -> bool {
    if !BUILDING_HEADS.contains(&name.to_lowercase().as_str()) {
        return false;
    }
    let mut words = after.split_whitespace();
    let mut w = words.next();
    if !matches!(w, Some("de" | "del" | "des" | "du" | "dels")) {
        return false;
    }
    w = words.next();
    if matches!(w, Some("la" | "l'" | "los" | "las" | "les")) {
        w = words.next();
    }
    w.is_some_and(|w| w.starts_with(char::is_uppercase))
}

/// Words that open the sentence describing the photo, in French, Spanish, German and
/// Arabic, after a caption that tells the story first (`En la imagen, ...`, `وفي هذه
/// الصورة نرى ...`): the English ones stand with the scene's choice.
pub(super) const PHOTO_MARKERS: &[&str] = &[
    "En la imagen, ",
    "En la foto, ",
    "En la fotografía, ",
    "En esta imagen, ",
    "Sur la photo, ",
    "Sur cette photo, ",
    "Sur cette image, ",
    "Sur l'image, ",
    "Sur l’image, ",
    "Auf dem Bild: ",
    "Auf dem Bild ist ",
    "Im Bild: ",
    "وفي هذه الصورة ",
    "في هذه الصورة ",
    "وفي الصورة ",
    "في الصورة ",
];

/// Where a name begins when French or Spanish writes the region's own kind noun before
/// it in lower case (`la bande de Gaza`, `la franja de Gaza`): the start of that noun,
/// when the gazetteer knows the name with it; else `None`.
pub(super) fn start_with_kind_noun(
    g: &Gazetteer,
    text: &str,
    toks: &[Tok],
    lower: &Lower<'_>,
    k: usize,
    end: usize,
) -> Option<usize> {
    if k < 2 || !matches!(lower.at(toks, k - 1), "de" | "del" | "du") {
        return None;
    }
    let noun = k - 2;
    let spaced = |a: usize| &text[toks[a].span.end..toks[a + 1].span.start] == " ";
    let w = lower.at(toks, noun);
    if toks[noun].cap || !spaced(noun) || !spaced(k - 1) || !w.chars().all(char::is_alphabetic) {
        return None;
    }
    let start = toks[noun].span.start;
    let known = g.exact(&text[start..toks[end].span.end]).iter().any(|&c| {
        matches!(
            g.entry(c).kind,
            PlaceKind::Region | PlaceKind::Admin1 | PlaceKind::Country
        )
    });
    known.then_some(start)
}

/// French and Spanish nouns of a site, written in lower case before the site's own name
/// and then `de` and the place that holds it (`l'hôpital Nasser de Khan Younès`, `la
/// plaza Tahrir de El Cairo`).
const SITE_NOUNS: &[&str] = &[
    "hôpital",
    "hospital",
    "clinique",
    "clínica",
    "camp",
    "campo",
    "campamento",
    "place",
    "plaza",
    "stade",
    "estadio",
    "mosquée",
    "mezquita",
    "église",
    "iglesia",
    "école",
    "escuela",
    "marché",
    "mercado",
    "quartier",
    "barrio",
    "prison",
    "cárcel",
    "université",
    "universidad",
    "rue",
    "calle",
    "avenue",
    "avenida",
];

/// `l'hôpital Nasser de Khan Younès`: a run of capitals whose first names are a site's
/// (after a site noun in lower case) and whose names after `de` are the place that holds
/// it. The site is where that place is: the role the words before the site noun give it,
/// with where the site noun stands and where the `de` ends (what stands before it is the
/// site's name). `None` when the run is not so made: its last mention must stand after
/// its `de` and reach its end.
pub(super) fn site_of_place(
    text: &str,
    toks: &[Tok],
    lower: &Lower<'_>,
    (i, j): (usize, usize),
    mentions: &[super::mention::Mention],
) -> Option<(Role, usize, usize)> {
    let noun = i.checked_sub(1)?;
    let w = lower.at(toks, noun);
    let w = ["l'", "l’", "d'", "d’"]
        .iter()
        .find_map(|p| w.strip_prefix(p))
        .unwrap_or(w);
    if toks[noun].cap || !SITE_NOUNS.contains(&w) {
        return None;
    }
    let de = (i + 1..j).find(|&p| matches!(lower.at(toks, p), "de" | "del" | "du"))?;
    let place = mentions.last()?;
    if place.span.start <= toks[de].span.end || place.span.end != toks[j].span.end {
        return None;
    }
    // The words before the site noun, nearest first, up to its clause's start.
    let mut before: Vec<&str> = Vec::new();
    let mut t = noun;
    while t > 0 && before.len() < 6 {
        let gap = &text[toks[t - 1].span.end..toks[t].span.start];
        if gap.contains(['.', ';', ':', '(', '|']) {
            break;
        }
        t -= 1;
        before.push(match lower.at(toks, t) {
            "l'" | "l’" => "le",
            "d'" | "d’" => "de",
            w => w,
        });
    }
    if w != lower.at(toks, noun) {
        // The elided article (`l'hôpital`) stands nearest.
        before.insert(0, "le");
    }
    let role = kind_role(super::roles::role_of(&before));
    Some((role, toks[noun].span.start, toks[de].span.end))
}

/// Whether the name at `start` follows a French or Spanish kind phrase (`le camp de`,
/// `la ciudad de`, `le village d'`): the name is then the whole run of capitals after it,
/// and a match on its first words is another place (`Hassan` of `camp de Hassan Sham` is
/// a city in India).
pub(super) fn after_romance_kind(text: &str, start: usize) -> bool {
    let before = text[..start].trim_end();
    let elided = before.ends_with("d'") || before.ends_with("d’");
    let bare = |w: &str| {
        let w = w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'' && c != '’');
        let w = ["l'", "l’", "d'", "d’"]
            .iter()
            .find_map(|p| w.strip_prefix(p))
            .unwrap_or(w);
        w.to_lowercase()
    };
    // Asked for every sub-run: the word just before, which must be `de`, is read
    // first, and the phrase only when it is.
    let de_before = elided
        || before
            .split_whitespace()
            .next_back()
            .filter(|w| !w.ends_with(['.', ';', ':', ',']))
            .is_some_and(|w| matches!(bare(w).as_str(), "de" | "du" | "del"));
    if !de_before {
        return false;
    }
    let mut words: Vec<String> = Vec::new();
    let mut rest = before;
    for elided in ["d'", "d’"] {
        if let Some(r) = before.strip_suffix(elided) {
            words.push("de".to_string());
            rest = r;
        }
    }
    words.extend(
        rest.split_whitespace()
            .rev()
            .take(6)
            .take_while(|w| !w.ends_with(['.', ';', ':', ',']))
            .map(bare),
    );
    let refs: Vec<&str> = words.iter().map(String::as_str).collect();
    refs.first()
        .is_some_and(|w| matches!(*w, "de" | "du" | "del"))
        && kind_phrase(&refs).is_some()
}
