//! Places as the news spells them (`Raqqa`, not the gazetteer's `Ar Raqqah`), with the
//! country or territory a desk names after them. A place is used only where the
//! gazetteer knows it under that spelling in that country, so a generated caption
//! always resolves to the spot it names.

use cairn_gazetteer::Gazetteer;

/// A place a caption can be set in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Spot {
    /// The town as wire captions spell it.
    pub(crate) name: &'static str,
    /// What follows it: a country, or a territory such as `Gaza Strip`.
    pub(crate) area: &'static str,
}

/// Spellings common in English-language wire captions, by ISO country code.
const SPELLINGS: &[(&str, &str, &[&str])] = &[
    (
        "SY",
        "Syria",
        &[
            "Aleppo",
            "Idlib",
            "Douma",
            "Raqqa",
            "Deir ez-Zor",
            "Homs",
            "Hama",
            "Daraa",
            "Qamishli",
            "Manbij",
            "Afrin",
            "Kobani",
            "Saraqeb",
            "Harasta",
            "Jisr al-Shughur",
            "Maarat al-Numan",
            "Latakia",
            "Tartus",
            "Palmyra",
            "Azaz",
        ],
    ),
    (
        "IQ",
        "Iraq",
        &[
            "Mosul", "Baghdad", "Fallujah", "Ramadi", "Tikrit", "Kirkuk", "Basra", "Erbil",
            "Samarra", "Baquba",
        ],
    ),
    (
        "UA",
        "Ukraine",
        &[
            "Kyiv",
            "Kharkiv",
            "Mariupol",
            "Bakhmut",
            "Odesa",
            "Kherson",
            "Zaporizhzhia",
            "Dnipro",
            "Kramatorsk",
            "Sloviansk",
        ],
    ),
    (
        "YE",
        "Yemen",
        &["Sanaa", "Aden", "Taiz", "Hodeidah", "Marib", "Saada"],
    ),
    (
        "AF",
        "Afghanistan",
        &[
            "Kabul",
            "Kandahar",
            "Herat",
            "Jalalabad",
            "Kunduz",
            "Lashkar Gah",
        ],
    ),
    (
        "LY",
        "Libya",
        &["Tripoli", "Benghazi", "Misrata", "Sirte", "Derna"],
    ),
    (
        "SD",
        "Sudan",
        &[
            "Khartoum",
            "Omdurman",
            "El Fasher",
            "Nyala",
            "Port Sudan",
            "Geneina",
        ],
    ),
    (
        "LB",
        "Lebanon",
        &["Beirut", "Sidon", "Tyre", "Baalbek", "Nabatieh"],
    ),
    (
        "PS",
        "Gaza Strip",
        &[
            "Gaza City",
            "Khan Younis",
            "Rafah",
            "Deir al-Balah",
            "Jabalia",
        ],
    ),
    (
        "PS",
        "West Bank",
        &["Jenin", "Nablus", "Hebron", "Ramallah"],
    ),
    (
        "SO",
        "Somalia",
        &["Mogadishu", "Kismayo", "Baidoa", "Beledweyne"],
    ),
    (
        "ML",
        "Mali",
        &["Bamako", "Gao", "Timbuktu", "Mopti", "Kidal"],
    ),
    (
        "MM",
        "Myanmar",
        &[
            "Yangon",
            "Mandalay",
            "Naypyitaw",
            "Sittwe",
            "Myitkyina",
            "Lashio",
        ],
    ),
];

/// The spots the gazetteer knows, in the table's order.
pub(crate) fn spots(gazetteer: &Gazetteer) -> Vec<Spot> {
    let mut out = Vec::new();
    for (cc, area, names) in SPELLINGS {
        for name in *names {
            let known = gazetteer
                .matches(name)
                .into_iter()
                .any(|id| gazetteer.entry(id).country == *cc);
            if known {
                out.push(Spot { name, area });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn most_news_spellings_resolve_in_their_country() {
        let g = Gazetteer::bundled();
        let all: usize = SPELLINGS.iter().map(|(_, _, n)| n.len()).sum();
        let known = spots(&g);
        let missing: Vec<&str> = SPELLINGS
            .iter()
            .flat_map(|(_, _, n)| n.iter().copied())
            .filter(|n| !known.iter().any(|s| s.name == *n))
            .collect();
        assert!(
            known.len() * 10 >= all * 9,
            "the gazetteer lacks {missing:?}"
        );
        assert!(known.iter().any(|s| s.name == "Raqqa"));
    }
}
