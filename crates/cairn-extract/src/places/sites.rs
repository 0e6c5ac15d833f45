//! The words of sites within a town: the kind word that ends a site's name (`Tahrir
//! Square`, `Yerablur cemetery`) and the words that may describe it before that kind
//! (`military cemetery`). A site the gazetteer lacks lies in the town that holds it.

/// Words that end the name of a site within a town (`Tahrir Square`, `Alaba market`):
/// a site the gazetteer lacks lies in the town that holds or follows it.
pub(super) fn is_site_word(word: &str) -> bool {
    [
        "square",
        "market",
        "bazaar",
        "souk",
        "villa",
        "plaza",
        "roundabout",
        "stadium",
        "park",
        "cemetery",
        "graveyard",
        "hospital",
        "mosque",
        "church",
        "cathedral",
        "shrine",
        "airport",
        "port",
        "harbour",
        "harbor",
        "station",
        "prison",
        "university",
        "bridge",
        "beach",
        "crossing",
        "checkpoint",
    ]
    .iter()
    .any(|w| word.eq_ignore_ascii_case(w))
}

/// Lower-case words that describe a site before its kind word (`military cemetery`,
/// `refugee camp`, `old city`).
pub(super) fn is_describing(word: &str) -> bool {
    [
        "military",
        "refugee",
        "displacement",
        "old",
        "main",
        "central",
        "public",
        "local",
        "children's",
        "general",
        "border",
        "makeshift",
        "tent",
        "transit",
        "former",
    ]
    .contains(&word)
}
