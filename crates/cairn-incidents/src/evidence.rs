//! What a caption's words say about its scene, read once per caption: the kind of event
//! (a follow-up funeral is not the attack), the facilities named, the people named.

use cairn_model::Record;

/// The class of event a caption shows; two classes that differ never link.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum EventClass {
    /// Nothing in the words or the event types says what happened.
    Unknown,
    /// Strikes, shelling, bombs, clashes, attacks.
    Violence,
    /// Protests and demonstrations.
    Protest,
    /// Funerals and burials: a follow-up of an incident, never the incident itself.
    FollowUp,
    /// Weddings, festivals, celebrations.
    Civil,
}

/// Words that make a caption a follow-up, a civil event, a protest or violence, in the
/// order they are tried: a funeral of strike victims names the strike too.
const CLASS_WORDS: &[(EventClass, &[&str])] = &[
    (
        EventClass::FollowUp,
        &[
            "funeral", "funerals", "mourners", "mourn", "mourning", "burial", "buried", "coffin",
            "coffins", "graves",
        ],
    ),
    (
        EventClass::Civil,
        &[
            "wedding",
            "festival",
            "celebration",
            "celebrations",
            "celebrate",
            "celebrating",
            "concert",
            "bride",
            "groom",
        ],
    ),
    (
        EventClass::Protest,
        &[
            "protest",
            "protests",
            "protesters",
            "protestors",
            "demonstration",
            "demonstrators",
            "rally",
            "marchers",
        ],
    ),
    (
        EventClass::Violence,
        &[
            "strike",
            "strikes",
            "airstrike",
            "airstrikes",
            "shelling",
            "bomb",
            "bombing",
            "blast",
            "explosion",
            "rocket",
            "rockets",
            "missile",
            "missiles",
            "attack",
            "clashes",
            "raid",
            "drone",
            "shell",
            "shells",
        ],
    ),
];

/// Facility and site words: the same one in two captions is specific evidence, two
/// different ones are evidence against. Synonyms map to one word.
const FACILITIES: &[(&str, &str)] = &[
    ("market", "market"),
    ("marketplace", "market"),
    ("souk", "market"),
    ("bazaar", "market"),
    ("hospital", "hospital"),
    ("clinic", "clinic"),
    ("school", "school"),
    ("mosque", "mosque"),
    ("church", "church"),
    ("bakery", "bakery"),
    ("checkpoint", "checkpoint"),
    ("bridge", "bridge"),
    ("station", "station"),
    ("camp", "camp"),
    ("factory", "factory"),
    ("refinery", "refinery"),
    ("port", "port"),
    ("airport", "airport"),
    ("square", "square"),
    ("university", "university"),
    ("stadium", "stadium"),
    ("hotel", "hotel"),
    ("shelter", "shelter"),
    ("prison", "prison"),
    ("convoy", "convoy"),
    ("ministry", "ministry"),
    ("embassy", "embassy"),
    ("courthouse", "courthouse"),
    ("parliament", "parliament"),
];

/// Words that say the wounded are being cared for, and the places they are cared in.
const TREATED: &[&str] = &["treated", "treatment", "treating", "admitted"];
const CARE: &[&str] = &["hospital", "clinic"];

/// ACLED types that describe violence; any of them makes a caption `Violence` when its
/// words name no class.
const VIOLENT_TYPES: &[&str] = &[
    "Air/drone strike",
    "Shelling/artillery/missile attack",
    "Remote explosive/landmine/IED",
    "Suicide bomb",
    "Armed clash",
    "Attack",
    "Chemical weapon",
];

/// What one caption offers to linking.
#[derive(Debug, Clone, PartialEq)]
pub struct Evidence {
    /// The class of event.
    pub class: EventClass,
    /// Facility words, canonical, sorted and distinct.
    pub facilities: Vec<&'static str>,
    /// Named people, lower-cased, sorted and distinct.
    pub persons: Vec<String>,
    /// Whether the caption gives a toll of killed or injured.
    pub toll: bool,
}

/// Lower-case words of a text (letters and digits).
pub(crate) fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
}

impl Evidence {
    /// Reads a record's evidence.
    pub fn of(record: &Record) -> Evidence {
        let ws: Vec<String> = words(&record.text).collect();
        let has = |list: &[&str]| ws.iter().any(|w| list.contains(&w.as_str()));
        let class = CLASS_WORDS
            .iter()
            .find(|(_, list)| has(list))
            .map(|(c, _)| *c)
            .or_else(|| {
                let violent = record
                    .event_types
                    .iter()
                    .any(|t| VIOLENT_TYPES.contains(&t.as_str()));
                let protest = record
                    .event_types
                    .iter()
                    .any(|t| t.contains("rotest") || t.contains("emonstration"));
                (protest.then_some(EventClass::Protest)).or(violent.then_some(EventClass::Violence))
            })
            .unwrap_or(EventClass::Unknown);
        // Where the wounded are treated is not where they were hit.
        let treated = has(TREATED);
        let mut facilities: Vec<&'static str> = FACILITIES
            .iter()
            .filter(|(w, _)| ws.iter().any(|x| x == w))
            .filter(|(_, c)| !(treated && CARE.contains(c)))
            .map(|(_, c)| *c)
            .collect();
        facilities.sort_unstable();
        facilities.dedup();
        let mut persons: Vec<String> = record.persons.iter().map(|p| p.to_lowercase()).collect();
        persons.sort();
        persons.dedup();
        let toll = record.casualties.killed.is_some() || record.casualties.injured.is_some();
        Evidence {
            class,
            facilities,
            persons,
            toll,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(text: &str) -> Record {
        Record {
            text: text.into(),
            ..Record::default()
        }
    }

    #[test]
    fn a_funeral_of_strike_victims_is_a_follow_up() {
        let e = Evidence::of(&rec(
            "Mourners carry the coffins of people killed in an air strike on the market.",
        ));
        assert_eq!(e.class, EventClass::FollowUp);
        assert_eq!(e.facilities, vec!["market"]);
    }

    #[test]
    fn synonyms_name_one_facility() {
        let a = Evidence::of(&rec("Smoke rises over the souk after a strike."));
        let b = Evidence::of(&rec("Rescuers search the marketplace after the strike."));
        assert_eq!(a.facilities, b.facilities);
        assert_eq!(a.class, EventClass::Violence);
    }

    #[test]
    fn the_hospital_the_wounded_are_treated_in_is_not_the_site() {
        let e = Evidence::of(&rec(
            "A wounded man is treated at a hospital after the strike.",
        ));
        assert!(e.facilities.is_empty());
        let e = Evidence::of(&rec(
            "Rescuers search the rubble of a hospital hit by a strike.",
        ));
        assert_eq!(e.facilities, vec!["hospital"]);
    }

    #[test]
    fn event_types_give_the_class_words_do_not() {
        let mut r = rec("Residents gather in the street.");
        assert_eq!(Evidence::of(&r).class, EventClass::Unknown);
        r.event_types = vec!["Peaceful protest".into()];
        assert_eq!(Evidence::of(&r).class, EventClass::Protest);
    }
}
