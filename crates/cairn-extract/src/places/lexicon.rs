//! Word lists that place extraction reads: particles inside names, the words that
//! say a place follows and in what role, kind hints, stop words and demonyms.

use std::sync::LazyLock;

use cairn_model::PlaceKind;
use rustc_hash::{FxHashMap, FxHashSet};

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
];

/// Demonyms whose country gives context to place names.
pub(super) const DEMONYMS: &[(&str, &str)] = &[
    ("syrian", "SY"),
    ("syrians", "SY"),
    ("iraqi", "IQ"),
    ("iraqis", "IQ"),
    ("lebanese", "LB"),
    ("palestinian", "PS"),
    ("palestinians", "PS"),
    ("israeli", "IL"),
    ("israelis", "IL"),
    ("yemeni", "YE"),
    ("libyan", "LY"),
    ("sudanese", "SD"),
    ("afghan", "AF"),
    ("ukrainian", "UA"),
    ("ukrainians", "UA"),
    ("turkish", "TR"),
    ("iranian", "IR"),
    ("egyptian", "EG"),
    ("jordanian", "JO"),
    ("somali", "SO"),
    ("malian", "ML"),
    ("nigerian", "NG"),
    ("pakistani", "PK"),
    ("indian", "IN"),
    ("bangladeshi", "BD"),
    ("mexican", "MX"),
    ("haitian", "HT"),
    ("venezuelan", "VE"),
    ("colombian", "CO"),
    ("brazilian", "BR"),
    ("american", "US"),
    ("russian", "RU"),
    ("chinese", "CN"),
    ("french", "FR"),
    ("british", "GB"),
    ("german", "DE"),
    ("greek", "GR"),
    ("italian", "IT"),
    ("spanish", "ES"),
    ("dutch", "NL"),
    ("polish", "PL"),
    ("saudi", "SA"),
    ("qatari", "QA"),
    ("emirati", "AE"),
    ("kuwaiti", "KW"),
    ("ethiopian", "ET"),
    ("eritrean", "ER"),
    ("chadian", "TD"),
    ("congolese", "CD"),
    ("kenyan", "KE"),
    ("burmese", "MM"),
    ("rohingya", "MM"),
    ("israeli-occupied", "PS"),
    ("gazan", "PS"),
    ("gazans", "PS"),
    ("belarusian", "BY"),
    ("georgian", "GE"),
    ("armenian", "AM"),
    ("azerbaijani", "AZ"),
    ("japanese", "JP"),
    ("korean", "KR"),
    ("filipino", "PH"),
    ("indonesian", "ID"),
    ("australian", "AU"),
    ("canadian", "CA"),
    ("argentine", "AR"),
    ("argentinian", "AR"),
    ("chilean", "CL"),
    ("peruvian", "PE"),
    ("cuban", "CU"),
    ("moroccan", "MA"),
    ("algerian", "DZ"),
    ("tunisian", "TN"),
    ("senegalese", "SN"),
    ("nigerien", "NE"),
    ("burkinabe", "BF"),
    ("cameroonian", "CM"),
    ("syrien", "SY"),
    ("syrienne", "SY"),
    ("sirio", "SY"),
    ("syrische", "SY"),
    ("syrischen", "SY"),
    ("ukrainien", "UA"),
    ("ucraniano", "UA"),
    ("ukrainische", "UA"),
    ("ukrainischen", "UA"),
    ("palestinien", "PS"),
    ("palestiniens", "PS"),
    ("palestino", "PS"),
    ("palestinos", "PS"),
    ("israélien", "IL"),
    ("israelí", "IL"),
    ("israelische", "IL"),
    ("israelischen", "IL"),
];

/// [`STOP`] as a set: every run of capitals tried as a name has its words looked up.
static STOP_SET: LazyLock<FxHashSet<&'static str>> =
    LazyLock::new(|| STOP.iter().copied().collect());

pub(super) fn is_stop(word: &str) -> bool {
    STOP_SET.contains(word)
}

/// [`DEMONYMS`] by demonym: every token of a caption is looked up.
static DEMONYM_COUNTRY: LazyLock<FxHashMap<&'static str, &'static str>> =
    LazyLock::new(|| DEMONYMS.iter().copied().collect());

pub(super) fn demonym_country(word: &str) -> Option<&'static str> {
    DEMONYM_COUNTRY.get(word).copied()
}

/// The role a mention plays in its sentence, read from the words around it: what makes a
/// place the scene, or only a place talked about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Role {
    /// Where people came from (`refugees from X`, `fled X`): not where the photo is.
    Origin,
    /// A border named by a neighbour (`near the border with Chad`).
    Border,
    /// A team or side (`against Senegal`).
    Team,
    /// Part of another name: an event's, an organisation's (`China National Day`).
    Name,
    /// Named without a locative word.
    Bare,
    /// After a weak locative word (`of`, `to`, `across`).
    Weak,
    /// Near the scene (`near X`, `outskirts of X`, `north of X`).
    Near,
    /// At a place (`at X hospital`, `at X camp`).
    At,
    /// In a place (`in X`, `à X`, `en X`, `في X`).
    In,
}

impl Role {
    /// The rank of the role among places of the scene: `at X` sets it as `in X` does.
    pub(super) fn rank(self) -> Role {
        if self == Role::At { Role::In } else { self }
    }

    /// Whether a place in this role can be the scene.
    pub(super) fn is_scene(self) -> bool {
        self >= Role::Bare
    }
}

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
    "sur",
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
];

/// Words before `of` (`de`, `von`) that name the place as a settlement: `city of X`.
const KIND_OF: &[&str] = &[
    "city",
    "town",
    "village",
    "province",
    "district",
    "neighbourhood",
    "neighborhood",
    "camp",
    "region",
    "capital",
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
/// left (`who fled his home in Hodeidah`).
fn is_origin(before: &[&str]) -> bool {
    let home = |w: &str| matches!(w, "home" | "homes" | "house" | "houses" | "hometown");
    let rest = match before.first() {
        Some(&w) if is_locative(w) => {
            if !before.get(1).is_some_and(|w| home(w)) {
                return false;
            }
            &before[2..]
        }
        Some(_) => &before[1..],
        None => return false,
    };
    for w in rest.iter().take(7) {
        if ORIGIN_WORDS.contains(w) || *w == "from" {
            return true;
        }
        if is_locative(w) {
            return false;
        }
    }
    false
}

/// The role of a mention, given the words before it in lower case, nearest first, up to
/// the start of its clause.
pub(super) fn role_of(before: &[&str]) -> Role {
    // Articles and the adjectives that stand between a preposition and a name ("in the
    // besieged Douma") say nothing of the role.
    let skip = modifiers_before(before);
    let before = &before[skip..];
    let w = |i: usize| before.get(i).copied().unwrap_or("");
    if let Some(role) = arabic_role(w(0)) {
        return role;
    }
    if w(0) == "from" || w(0) == "de" && ORIGIN_WORDS.contains(&w(1)) || is_origin(before) {
        return Role::Origin;
    }
    if (w(0) == "with" || w(0) == "of") && w(1) == "border" {
        return Role::Border;
    }
    if matches!(
        w(0),
        "against" | "vs" | "v" | "beat" | "beats" | "defeated" | "versus"
    ) || (w(0) == "on" && w(1) == "take")
    {
        return Role::Team;
    }
    match w(0) {
        "in" | "à" | "au" | "aux" | "en" | "im" | "dans" | "inside" | "within" | "في" => {
            Role::In
        }
        "at" | "bei" | "عند" => Role::At,
        "near" | "outside" | "près" | "cerca" | "nahe" | "around" | "قرب" | "بالقرب" => {
            Role::Near
        }
        "nearby" if w(1) == "in" => Role::In,
        "of" | "de" | "del" | "du" | "des" | "von" if NEAR_OF.contains(&w(1)) => Role::Near,
        // "the besieged town of Douma", "la ciudad de Ataq": a place named as one.
        "of" | "de" | "del" | "du" | "von" if KIND_OF.contains(&w(1)) => Role::In,
        "" => Role::Bare,
        x if CUES.contains(&x) => Role::Weak,
        _ => Role::Bare,
    }
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
