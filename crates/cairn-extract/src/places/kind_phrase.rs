//! Kind phrases before a name in French, Spanish, Italian, Portuguese and German (`le
//! camp de X`, `nel cimitero di X`, `die ostukrainische Stadt X`): how many words they
//! take and the role they leave the name.

use super::role::Role;

/// German kind nouns (lower case): they stand right before the name (`Stadt Sudscha`).
const GERMAN_KINDS: &[&str] = &[
    "stadt",
    "hauptstadt",
    "hafenstadt",
    "grenzstadt",
    "großstadt",
    "kleinstadt",
    "dorf",
    "ort",
    "ortschaft",
    "gemeinde",
    "gebiet",
    "region",
    "provinz",
    "bezirk",
    "kreis",
    "stadtteil",
    "stadtviertel",
    "viertel",
    "vorort",
    "flüchtlingslager",
    "lager",
    "siedlung",
    "oblast",
];

/// Whether a lower-case word is a German kind noun (`stadt`, `gebiet`).
pub(super) fn is_german_kind(w: &str) -> bool {
    GERMAN_KINDS.contains(&w)
}

/// French, Spanish, Italian and Portuguese kind nouns: they stand before `de` (`di`,
/// `do`, `da`) and the name (`barrio de X`, `città di X`, `bairro do X`).
const ROMANCE_KINDS: &[&str] = &[
    "ciudad",
    "localidad",
    "pueblo",
    "poblado",
    "aldea",
    "barrio",
    "provincia",
    "región",
    "municipio",
    "distrito",
    "campo",
    "campamento",
    "capital",
    "ville",
    "village",
    "localité",
    "quartier",
    "district",
    "province",
    "région",
    "camp",
    "commune",
    "capitale",
    "bourg",
    // Sites named by the place they are in (`l'hôpital de Bangui`, `el puerto de
    // Hodeida`, `la prison de Saydnaya`).
    "hôpital",
    "hospital",
    "école",
    "escuela",
    "prison",
    "cárcel",
    "stade",
    "estadio",
    "marché",
    "mercado",
    "université",
    "universidad",
    "aéroport",
    "aeropuerto",
    "port",
    "puerto",
    "gare",
    "estación",
    "cimetière",
    "cementerio",
    // Italian.
    "città",
    "cittadina",
    "paese",
    "villaggio",
    "quartiere",
    "regione",
    "distretto",
    "comune",
    "ospedale",
    "scuola",
    "carcere",
    "prigione",
    "stadio",
    "mercato",
    "università",
    "aeroporto",
    "porto",
    "stazione",
    "cimitero",
    // Portuguese.
    "cidade",
    "vila",
    "aldeia",
    "bairro",
    "província",
    "região",
    "município",
    "escola",
    "prisão",
    "estádio",
    "universidade",
    "estação",
    "cemitério",
];

/// Words between a kind noun and `de` that say what kind of camp or town it is; any
/// adjective may stand there too, but not a word that places.
const KIND_QUALIFIERS: &[&str] = &[
    "de",
    "des",
    "refugiados",
    "desplazados",
    "réfugiés",
    "déplacés",
    "profughi",
    "rifugiati",
    "sfollati",
    "deslocados",
];

fn is_article(w: &str) -> bool {
    matches!(
        w,
        "la" | "le"
            | "les"
            | "el"
            | "los"
            | "las"
            | "un"
            | "une"
            | "una"
            | "der"
            | "die"
            | "das"
            | "dem"
            | "den"
            | "des"
            | "ein"
            | "eine"
            | "einer"
            | "einem"
            | "il"
            | "lo"
            | "i"
            | "gli"
            | "uno"
            | "o"
            | "os"
            | "um"
            | "uma"
    )
}

/// How many of the words before a name (lower case, nearest first) make a kind phrase:
/// `de` + qualifiers + a Romance kind noun + articles, or a German kind noun +
/// adjectives + articles. `None` when they do not.
pub(super) fn kind_phrase(before: &[&str]) -> Option<usize> {
    kind_phrase_at(before).map(|(_, n)| n)
}

/// A word without the elided article written onto it (`l'hôpital` → `hôpital`).
pub(super) fn unelided(w: &str) -> &str {
    ["l'", "l’"]
        .iter()
        .find_map(|p| w.strip_prefix(p))
        .unwrap_or(w)
}

/// [`kind_phrase`] with where its kind noun stands.
pub(super) fn kind_phrase_at(before: &[&str]) -> Option<(usize, usize)> {
    let first = *before.first()?;
    let kind_at = if GERMAN_KINDS.contains(&first) {
        0
    } else if matches!(first, "de" | "du" | "del" | "d" | "di" | "do" | "da") {
        (1..before.len().min(5)).find(|&i| ROMANCE_KINDS.contains(&unelided(before[i])))?
    } else {
        return None;
    };
    // Between `de` and the kind noun: qualifiers and adjectives, never a preposition
    // (`região do Vale do X` is a valley's region, not X's).
    if before[1.min(kind_at)..kind_at].iter().any(|w| {
        !KIND_QUALIFIERS.contains(w)
            && (super::lexicon::CUES.contains(w)
                || matches!(
                    *w,
                    "do" | "da" | "di" | "del" | "della" | "du" | "dos" | "das"
                ))
    }) {
        return None;
    }
    let mut n = kind_at + 1;
    // German adjectives (`die ostukrainische Stadt`) and the articles of either.
    while let Some(w) = before.get(n) {
        let adjective = kind_at == 0
            && n < kind_at + 3
            && w.ends_with(['e', 'n', 'r', 's'])
            && !super::lexicon::CUES.contains(w)
            && !is_article(w);
        if !(is_article(w) || adjective || ROMANCE_KINDS.contains(w) && kind_at > 0) {
            break;
        }
        n += 1;
    }
    Some((kind_at, n))
}

/// The role of a name after a kind phrase, given the role of what stands before the
/// phrase: a place named as a town is in the scene unless the words before make it an
/// origin, a border, a side or only near.
pub(super) fn kind_role(outer: Role) -> Role {
    match outer {
        Role::Origin | Role::Border | Role::Team | Role::Near | Role::Name => outer,
        _ => Role::In,
    }
}
