//! Word lists that place extraction reads: particles inside names, the words that
//! say a place follows, kind hints, names that are not places, stop words and demonyms.

use std::sync::LazyLock;

use cairn_model::PlaceKind;
use rustc_hash::FxHashSet;

pub(super) use super::demonyms::demonym_country;

use crate::text::lowered;

/// Lower-case words that may stand inside a place name.
/// (Not the bare `an`, `as`, `at`, `en`: in English, French and Spanish those stand between
/// two names far more often than inside one: `the Kumbh Mela at Haridwar`, `Homs en Siria`.)
pub(super) const PARTICLES: &[&str] = &[
    "al", "el", "ad", "ash", "ar", "az", "al-", "el-", "an-", "ad-", "as-", "ash-", "ar-", "at-",
    "az-", "bin", "ibn", "de", "del", "la", "le", "du", "da", "di", "of", "sur",
];

/// Words before a mention that say "a place follows".
pub(super) const CUES: &[&str] = &[
    "in",
    "of",
    "near",
    "at",
    "outside",
    "from",
    "to",
    "into",
    "across",
    "around",
    "toward",
    "towards",
    "between",
    "inside",
    "through",
    "on",
    "over",
    "within",
    "via",
    "capital",
    "and",
    "past",
    "beyond",
    "north",
    "south",
    "east",
    "west",
    "northeast",
    "northwest",
    "southeast",
    "southwest",
    "northern",
    "southern",
    "eastern",
    "western",
    "central",
    // French, Spanish, German: the prepositions that set a scene, and `of`.
    "de",
    "du",
    "del",
    "von",
    "à",
    "au",
    "aux",
    "dans",
    "près",
    "en",
    "cerca",
    "im",
    "bei",
    "nahe",
    "nach",
    "desde",
    "hacia",
    "vers",
    "auf",
    "um",
    "sobre",
    "unweit",
    "zwischen",
    "entre",
    "des",
];

/// Words after a run of capitals that make it a settlement's name ("Tal Samin village").
pub(super) fn is_settlement_word(word: &str) -> bool {
    // As `word.to_lowercase()` would compare, without making it: the only non-ASCII
    // letter that lower-cases to an ASCII one is the Kelvin sign, and none of these words
    // has a k.
    [
        "village",
        "town",
        "hamlet",
        "neighbourhood",
        "neighborhood",
        "district",
        "camp",
    ]
    .iter()
    .any(|w| word.eq_ignore_ascii_case(w))
}

/// Words after a mention that say what kind of place it is.
pub(super) fn kind_hint(word: &str) -> Option<PlaceKind> {
    Some(match &*lowered(word) {
        "province" | "governorate" | "countryside" | "state" | "region" | "provinces" => {
            PlaceKind::Admin1
        }
        "city" | "town" | "village" | "suburbs" | "suburb" | "camp" | "outskirts" => {
            PlaceKind::Town
        }
        "neighbourhood" | "neighborhood" | "district" | "quarter" => PlaceKind::Neighbourhood,
        // The kind nouns of German, Spanish, French, Italian and Portuguese, which stand
        // before the name and in German with a capital (`Stadt Sudscha`, `Ciudad de
        // Gaza`, `regione di Donetsk`).
        "provinz" | "gebiet" | "bezirk" | "oblast" | "provincia" | "región" | "région"
        | "gouvernorat" | "gobernación" | "regione" | "região" | "província" => {
            PlaceKind::Admin1
        }
        "stadt" | "hauptstadt" | "dorf" | "vorort" | "ciudad" | "ville" | "pueblo" | "poblado"
        | "localidad" | "aldea" | "campo" | "flüchtlingslager" | "lager" | "zeltlager"
        | "hafenstadt" | "grenzstadt" | "großstadt" | "kleinstadt" | "ort" | "ortschaft"
        | "gemeinde" | "siedlung" | "città" | "cittadina" | "villaggio" | "paese" | "cidade"
        | "vila" | "aldeia" => PlaceKind::Town,
        "stadtteil" | "stadtviertel" | "viertel" | "barrio" | "quartier" | "quartiere"
        | "bairro" => PlaceKind::Neighbourhood,
        "square" | "street" | "road" | "mosque" | "hospital" | "bridge" => PlaceKind::Point,
        _ => return None,
    })
}

/// Capitalised words that are not place names however many villages bear them.
pub(super) const STOP: &[&str] = &[
    "a",
    "an",
    "the",
    "this",
    "that",
    "these",
    "those",
    "in",
    "on",
    "at",
    "of",
    "he",
    "she",
    "it",
    "they",
    "we",
    "his",
    "her",
    "their",
    "its",
    "photo",
    "picture",
    "image",
    "file",
    "members",
    "member",
    "people",
    "man",
    "woman",
    "men",
    "women",
    "boy",
    "girl",
    "children",
    "child",
    "police",
    "army",
    "forces",
    "president",
    "minister",
    "prime",
    "king",
    "queen",
    "pope",
    "general",
    "officer",
    "soldier",
    "soldiers",
    "rebel",
    "rebels",
    "fighter",
    "fighters",
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
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
    // Month abbreviations (`on Sept. 5`): never a place's name alone.
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
    "islamic",
    "muslim",
    "muslims",
    "christian",
    "christians",
    "jewish",
    "government",
    "state",
    "opposition",
    "regime",
    "democratic",
    "free",
    "national",
    "new",
    "old",
    "north",
    "south",
    "east",
    "west",
    "central",
    "day",
    "night",
    "world",
    "war",
    "street",
    "square",
    "road",
    "city",
    "town",
    "village",
    "province",
    "district",
    "area",
    "camp",
    "river",
    "mount",
    "lake",
    "sea",
    "gulf",
    "bay",
    "island",
    "islands",
    "valley",
    "red",
    "white",
    "black",
    "green",
    "blue",
    "house",
    "church",
    "mosque",
    "school",
    "hospital",
    "university",
    "market",
    "eid",
    "ramadan",
    "christmas",
    "easter",
    "olympic",
    "olympics",
    "games",
    "marathon",
    "love",
    "after",
    "before",
    "during",
    "while",
    "as",
    "when",
    "where",
    "there",
    "here",
    "some",
    "many",
    "more",
    "most",
    "other",
    "others",
    "one",
    "two",
    "three",
    "security",
    "civil",
    "defence",
    "defense",
    "health",
    "ministry",
    "council",
    "court",
    "party",
    "movement",
    "front",
    "brigade",
    "union",
    "nations",
    "united",
    "international",
    "human",
    "rights",
    "observatory",
    "helmets",
    "doctors",
    "mr",
    "mrs",
    "ms",
    "dr",
    "st",
    "sgt",
    "lt",
    "capt",
    "col",
    "gen",
    "republic",
    "kingdom",
    "federal",
    "sheikh",
    "imam",
    "saint",
    "santa",
    "san",
    "god",
    "allah",
    "jesus",
    "sham",
    "liberty",
    "victory",
    "independence",
    "freedom",
    "hope",
    "peace",
    "justice",
    // Day and month names of French, Spanish and German captions.
    "lundi",
    "mardi",
    "mercredi",
    "jeudi",
    "vendredi",
    "samedi",
    "dimanche",
    "lunes",
    "martes",
    "miércoles",
    "jueves",
    "viernes",
    "sábado",
    "domingo",
    "montag",
    "dienstag",
    "mittwoch",
    "donnerstag",
    "freitag",
    "samstag",
    "sonntag",
    "janvier",
    "février",
    "avril",
    "juin",
    "juillet",
    "août",
    "enero",
    "febrero",
    "marzo",
    "abril",
    "mayo",
    "junio",
    "julio",
    "agosto",
    "januar",
    "februar",
    "märz",
    "mai",
    "juni",
    "juli",
    "oktober",
    "dezember",
    "foto",
    "bild",
    "photos",
    "family",
    "families",
    "downtown",
    "golfe",
    "cover",
    "villa",
    "golfo",
    "chapel",
    "palace",
    "castle",
    "abbey",
    "temple",
    "cathedral",
    "shrine",
    "monastery",
    "basilica",
    "uptown",
    "midtown",
    "shi'ite",
    "shiite",
    "shi'ites",
    "shiites",
    "sunni",
    "sunnis",
    "shia",
    "kurds",
    "yazidi",
    "yazidis",
    "alawite",
    "alawites",
    "druze",
    "clan",
    "tribe",
    // Arabic words, folded (article off, taa marbuta as `ه`), that name no place on
    // their own: "the city", "the capital", "the picture", "scene", "areas".
    "مدينه",
    "عاصمه",
    "صوره",
    "مشهد",
    "مناطق",
    "منطقه",
    "بلاد",
    "حدود",
    "دوله",
    // Kind words with the article, spoken of (`في الحي`, "in the neighbourhood"):
    // `حي` is also a town in Iraq.
    "حي",
    "احياء",
    "مخيم",
    "مخيمات",
    "قريه",
    "قري",
    "بلده",
    "ضاحيه",
    "محافظه",
    "ريف",
    "مستشفي",
    "شارع",
    "سوق",
    "مركز",
    // "house", "his house", "houses", "school", "mosque": where people are, and
    // towns' names abroad (Al Manzalah).
    "منزل",
    "منزله",
    "منازل",
    "بيت",
    "مدرسه",
    "مسجد",
    // "siege", "classroom": common words that are towns abroad (Hisar, Es Saff).
    "حصار",
    "صف",
    // Institutions written with a capital in French, Spanish and German, named like
    // towns (`el Congreso`, `El Congreso` in Mexico).
    "congreso",
    "congrès",
    "senado",
    "sénat",
    "parlamento",
    "parlement",
    "gobierno",
    "gouvernement",
    "bundestag",
    "bundeswehr",
    // German articles, capitalised when they open a sentence (`Die Stadt Bachmut`).
    "die",
    "der",
    "das",
    "dem",
    "den",
    "ein",
    "eine",
    "einer",
    // Sports leagues named before a number or a season (`en Ligue 1`, `en la Liga`).
    "ligue",
    "liga",
    "bundesliga",
];

/// [`STOP`] as a set: every run of capitals tried as a name has its words looked up.
static STOP_SET: LazyLock<FxHashSet<&'static str>> =
    LazyLock::new(|| STOP.iter().copied().collect());

pub(super) fn is_stop(word: &str) -> bool {
    STOP_SET.contains(word)
}

/// Words for a border, in the four languages: a demonym next to one (`la frontière
/// turque`, `الحدود التركية`, `the Turkish border`) names the neighbour across it, not
/// the caption's country.
pub(super) fn is_border_word(word: &str) -> bool {
    matches!(
        word,
        "border"
            | "borders"
            | "frontière"
            | "frontières"
            | "frontera"
            | "fronteras"
            | "grenze"
            | "الحدود"
            | "حدود"
            | "بالحدود"
    )
}

/// Countries' names in another language that are also common words or a city's name
/// (folded): `مالي` is Mali and "financial", `عمان` Oman and Amman. They give no
/// context.
pub(super) fn is_country_homograph(folded: &str) -> bool {
    matches!(folded, "مالي" | "عمان")
}

/// Words after a name that make it an institution or a street named after someone or
/// something (`Nasser Hospital`, `Damascus Street`): not the place of that name.
pub(super) fn is_named_after_word(word: &str) -> bool {
    // A family is named whatever the case; an institution or a street only with its
    // capital (`a Baghdad street`, `the Khan Younis hospital` are in those places).
    if ["family", "families", "clan", "tribe"]
        .iter()
        .any(|w| word.eq_ignore_ascii_case(w))
    {
        return true;
    }
    word.starts_with(|c: char| c.is_uppercase())
        && [
            "hospital",
            "chapel",
            "palace",
            "cathedral",
            "street",
            "st",
            "road",
            "avenue",
            "boulevard",
            "school",
            "university",
            "college",
            "mosque",
            "church",
            "highway",
            "square",
            "club",
            "fc",
            "brigade",
            "brigades",
            "battalion",
            "company",
            "hotel",
            "institute",
            "foundation",
            "prize",
            "award",
        ]
        .iter()
        .any(|w| word.eq_ignore_ascii_case(w))
}
