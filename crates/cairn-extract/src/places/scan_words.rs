//! Word tables the candidate scan reads: Arabic words after which a place follows,
//! verbs of being, parts of a place after a possessive, kind words of administrative
//! units, and the countries whose places are spelled in Latin letters.

use cairn_model::PlaceKind;

use crate::text::lowered;

/// Arabic prepositions and place-kind words after which a place name follows.
pub(super) const ARABIC_CUES: &[&str] = &[
    "في",
    "قرب",
    "بالقرب",
    "من",
    "مدينه",
    "مدينة",
    "بلده",
    "بلدة",
    "حي",
    "محافظه",
    "محافظة",
    "ريف",
    "مخيم",
    "شمال",
    "جنوب",
    "شرق",
    "غرب",
    "منطقه",
    "منطقة",
    "قريه",
    "قرية",
    "عند",
    "بلدات",
    "مدن",
    "بمدينة",
    "بمدينه",
    "ببلدة",
    "ببلده",
    "بمنطقة",
    "بمنطقه",
    "بقرية",
    "بقريه",
    "بمحافظة",
    "بمحافظه",
    "بريف",
    "بحي",
    "بمخيم",
    "وسط",
    "شمالي",
    "جنوبي",
    "شرقي",
    "غربي",
];

/// Whether an Arabic word says a place name follows (kind words with letters glued on
/// and the prepositions that place are read by [`super::arabic`]).
pub(super) fn is_arabic_cue(word: &str) -> bool {
    ARABIC_CUES.contains(&word) || super::arabic::is_cue(word)
}

pub(super) fn is_arabic(word: &str) -> bool {
    word.chars()
        .next()
        .is_some_and(|c| ('\u{0600}'..='\u{06FF}').contains(&c))
}

/// Verbs of being and their auxiliaries in the four Latin-script languages.
pub(super) fn is_copula(w: &str) -> bool {
    matches!(
        w,
        "is" | "was"
            | "has"
            | "had"
            | "remains"
            | "ist"
            | "war"
            | "bleibt"
            | "est"
            | "était"
            | "reste"
            | "es"
            | "fue"
            | "sigue"
    )
}

/// Countries whose places are named in Latin letters in their own languages, with one
/// settled spelling (Europe's Latin-script countries, the Americas, Australia and New
/// Zealand): a same-sounding name there is another place, not a transliteration.
pub(super) fn spelled_in_latin(cc: impl AsRef<[u8]>) -> bool {
    // Asked of every same-sounding candidate of every unknown name: a table, not a
    // chain of string comparisons.
    match cc.as_ref() {
        &[a @ b'A'..=b'Z', b @ b'A'..=b'Z'] => {
            LATIN_SPELLED[usize::from(a - b'A')] & (1 << (b - b'A')) != 0
        }
        _ => false,
    }
}

/// [`spelled_in_latin`]'s countries, by first letter, as bits of the second.
const LATIN_SPELLED: [u32; 26] = latin_spelled(&[
    "AD", "AT", "BE", "CH", "CZ", "DE", "DK", "EE", "ES", "FI", "FO", "FR", "GB", "HU", "IE", "IS",
    "IT", "LI", "LT", "LU", "LV", "MC", "MD", "MT", "NL", "NO", "PL", "PT", "RO", "SE", "SI", "SK",
    "SM", "VA", "US", "CA", "MX", "GT", "BZ", "HN", "SV", "NI", "CR", "PA", "CU", "DO", "HT", "JM",
    "PR", "BS", "BB", "TT", "CO", "VE", "EC", "PE", "BO", "CL", "AR", "UY", "PY", "BR", "GY", "SR",
    "AU", "NZ",
]);

const fn latin_spelled(codes: &[&str]) -> [u32; 26] {
    let mut t = [0u32; 26];
    let mut i = 0;
    while i < codes.len() {
        let b = codes[i].as_bytes();
        t[(b[0] - b'A') as usize] |= 1 << (b[1] - b'A');
        i += 1;
    }
    t
}

/// Kind words of administrative units that the shared kind table leaves out
/// (`Magwe Division`, `Bong County`, `Fukushima Prefecture`): no part of the name. A
/// county the gazetteer names with its kind word (`Sonoma County`) is found whole
/// first; one it names without is a province (Liberia's, Kenya's).
pub(super) fn admin_kind(word: &str) -> Option<PlaceKind> {
    match &*lowered(word) {
        "division" | "prefecture" | "county" => Some(PlaceKind::Admin1),
        _ => None,
    }
}

/// Compass adjectives (`northern`, `south-eastern`): a part of a place, not a name.
pub(super) fn is_direction_adjective(w: &str) -> bool {
    matches!(
        w,
        "northern"
            | "southern"
            | "eastern"
            | "western"
            | "northeastern"
            | "northwestern"
            | "southeastern"
            | "southwestern"
            | "north-eastern"
            | "north-western"
            | "south-eastern"
            | "south-western"
    )
}

/// Lower-case words after a possessive that name a part of the place
/// (`Kabul's old city`, `Khartoum's airport`).
pub(super) fn is_place_part(word: &str) -> bool {
    matches!(
        word,
        "old"
            | "airport"
            | "outskirts"
            | "suburbs"
            | "suburb"
            | "centre"
            | "center"
            | "downtown"
            | "port"
            | "countryside"
            | "central"
            | "main"
            | "historic"
            | "city"
            | "streets"
            | "largest"
            | "biggest"
    ) || is_direction_adjective(word)
}

/// Whether a folded name of several words opens with an Arabic head word that names a
/// kind of place (`tel`, `deir`, `kafr`, `jabal`, `ain`, `beit`, `khan`, `ras`, `wadi`,
/// `qasr` and their spellings) or the article: names whose spellings vary with the
/// transliteration, not names of other places.
pub(super) fn opens_with_arabic_head(folded: &str) -> bool {
    let Some((first, _)) = folded.split_once(' ') else {
        return false;
    };
    matches!(
        first,
        "tel"
            | "tell"
            | "tal"
            | "tall"
            | "deir"
            | "dayr"
            | "dair"
            | "der"
            | "kafr"
            | "kfar"
            | "kafar"
            | "jabal"
            | "jebel"
            | "jabel"
            | "ain"
            | "ayn"
            | "ein"
            | "beit"
            | "bayt"
            | "bait"
            | "khan"
            | "ras"
            | "wadi"
            | "qasr"
            | "kasr"
            | "al"
            | "el"
    )
}

/// Nouns after a name that make it a side in a game (`Senegal fans`, `Morocco players`,
/// `the Netherlands squad`).
pub(super) fn is_team_noun(word: &str) -> bool {
    matches!(
        &*lowered(word),
        "fans"
            | "supporters"
            | "players"
            | "player"
            | "squad"
            | "team"
            | "coach"
            | "goalkeeper"
            | "striker"
            | "forward"
            | "midfielder"
            | "defender"
            | "captain"
            | "teammates"
    )
}

#[cfg(test)]
mod latin_tests {
    use super::spelled_in_latin;

    #[test]
    fn the_table_holds_its_countries_and_nothing_else() {
        for cc in ["FR", "PL", "US", "NZ", "AD", "SR"] {
            assert!(spelled_in_latin(cc), "{cc}");
        }
        for cc in ["SY", "IQ", "UA", "CN", "fr", "F", "FRA", "", "Z@"] {
            assert!(!spelled_in_latin(cc), "{cc}");
        }
    }
}
