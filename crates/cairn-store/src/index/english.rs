//! What the English analyzer adds to stemming: the plurals English does not make with
//! `-s` (`children`, `women`, `gunmen`, `crises`), read as their singular before the
//! stemmer, which knows only the regular ones. Forms that are also other words
//! (`lives`, `leaves`, `people`) are left to the stemmer.

/// Irregular plurals news captions write, with their singular.
const IRREGULAR: &[(&str, &str)] = &[
    ("children", "child"),
    ("women", "woman"),
    ("men", "man"),
    ("gunmen", "gunman"),
    ("policemen", "policeman"),
    ("policewomen", "policewoman"),
    ("servicemen", "serviceman"),
    ("servicewomen", "servicewoman"),
    ("firemen", "fireman"),
    ("fishermen", "fisherman"),
    ("spokesmen", "spokesman"),
    ("tribesmen", "tribesman"),
    ("militiamen", "militiaman"),
    ("countrymen", "countryman"),
    ("crises", "crisis"),
    ("feet", "foot"),
    ("teeth", "tooth"),
    ("wives", "wife"),
    ("knives", "knife"),
    ("thieves", "thief"),
    ("halves", "half"),
];

/// The singular of a lower-case irregular plural, its possessive kept (`children's`,
/// `child's`); `false` for any other word.
pub(crate) fn singular(word: &str, out: &mut String) -> bool {
    let (base, tail) = match word.strip_suffix("'s") {
        Some(base) => (base, "'s"),
        None => (word, ""),
    };
    let Some((_, one)) = IRREGULAR.iter().find(|(many, _)| *many == base) else {
        return false;
    };
    out.push_str(one);
    out.push_str(tail);
    true
}

#[cfg(test)]
mod tests {
    use super::singular;

    fn one(word: &str) -> String {
        let mut out = String::new();
        if singular(word, &mut out) {
            out
        } else {
            word.to_string()
        }
    }

    #[test]
    fn irregular_plurals_read_as_their_singular() {
        assert_eq!(one("children"), "child");
        assert_eq!(one("children's"), "child's");
        assert_eq!(one("gunmen"), "gunman");
        // Words that only end like a plural are themselves.
        assert_eq!(one("yemen"), "yemen");
        assert_eq!(one("omen"), "omen");
        assert_eq!(one("child"), "child");
    }
}
