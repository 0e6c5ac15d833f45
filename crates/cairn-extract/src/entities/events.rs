//! ACLED sub-event types from the words of the scene sentence, in each language captions
//! are written in.

use std::sync::LazyLock;

use regex::RegexSet;

/// Each type's words in French, Spanish, German and Arabic (stems where the languages
/// inflect: German compounds, Arabic prefixes).
const OTHER_LANGUAGES: &[(&str, &str)] = &[
    (
        "Suicide bomb",
        r"attentat[- ]suicide|kamikaze|atentado\s+suicida|selbstmord(?:anschlag|attentat|attentäter)|انتحاري",
    ),
    (
        "Chemical weapon",
        r"armes?\s+chimiques?|attaque\s+chimique|armas?\s+químicas?|ataque\s+químico|giftgas|chemiewaffen|كيماوي|كيميائي",
    ),
    (
        "Air/drone strike",
        r"frappes?\s+aériennes?|raids?\s+aériens?|bombardements?\s+aériens?|frappes?\s+de\s+drones?|ataques?\s+aéreos?|bombardeos?\s+aéreos?|ataques?\s+con\s+drones?|luftangriff|drohnenangriff|fassbombe|غارة|غارات|قصف\s+جوي|طائرة\s+مسيرة|براميل\s+متفجرة",
    ),
    (
        "Shelling/artillery/missile attack",
        r"(?:^|$|[\s.,;:!?()\[\]\x22'’“”«»–—…/-])obus(?:^|$|[\s.,;:!?()\[\]\x22'’“”«»–—…/-])|tirs?\s+d'artillerie|pilonnage|roquettes|(?:^|$|[\s.,;:!?()\[\]\x22'’“”«»–—…/-])obuses(?:^|$|[\s.,;:!?()\[\]\x22'’“”«»–—…/-])|artillería|cohetes|misiles|beschuss|artillerie|granaten|raketenangriff|قصف\s+مدفعي|قذائف|صواريخ",
    ),
    (
        "Remote explosive/landmine/IED",
        r"voiture\s+piégée|engin\s+explosif|coche\s+bomba|artefacto\s+explosivo|minas?\s+terrestres?|autobombe|sprengfalle|landmine|sprengsatz|سيارة\s+مفخخة|عبوة\s+ناسفة|ألغام",
    ),
    (
        "Armed clash",
        r"(?:^|$|[\s.,;:!?()\[\]\x22'’“”«»–—…/-])combats(?:^|$|[\s.,;:!?()\[\]\x22'’“”«»–—…/-])|affrontements|accrochages|enfrentamientos|(?:^|$|[\s.,;:!?()\[\]\x22'’“”«»–—…/-])combates(?:^|$|[\s.,;:!?()\[\]\x22'’“”«»–—…/-])|kämpfe|gefechte|اشتباكات|معارك",
    ),
    (
        "Abduction/forced disappearance",
        r"enlèvement|secuestr|entführ|اختطاف",
    ),
    (
        "Attack",
        r"fusillade|tiroteo|schießerei|messerangriff|attaque\s+au\s+couteau|ataque\s+con\s+cuchillo|(?:^|$|[\s.,;:!?()\[\]\x22'’“”«»–—…/-])massacre(?:^|$|[\s.,;:!?()\[\]\x22'’“”«»–—…/-])|masacre|massaker|مجزرة|هجوم\s+مسلح",
    ),
    (
        "Looting/property destruction",
        r"pillage|saqueo|plünderung|نهب",
    ),
    (
        "Violent demonstration",
        r"émeute|disturbios|krawalle|ausschreitungen|أعمال\s+شغب",
    ),
    (
        "Protest with intervention",
        r"(?:manifest|protest|demonstr|مظاهر|احتجاج).*(?:gaz\s+lacrymogène|gases?\s+lacrimógenos?|tränengas|wasserwerfer|cañones?\s+de\s+agua|canons?\s+à\s+eau|الغاز\s+المسيل\s+للدموع)",
    ),
    (
        "Peaceful protest",
        r"(?:^|$|[\s.,;:!?()\[\]\x22'’“”«»–—…/-])manifestations?(?:^|$|[\s.,;:!?()\[\]\x22'’“”«»–—…/-])|(?:^|$|[\s.,;:!?()\[\]\x22'’“”«»–—…/-])manifestants?(?:^|$|[\s.,;:!?()\[\]\x22'’“”«»–—…/-])|(?:^|$|[\s.,;:!?()\[\]\x22'’“”«»–—…/-])manifestaci(?:ón|ones)|(?:^|$|[\s.,;:!?()\[\]\x22'’“”«»–—…/-])manifestantes(?:^|$|[\s.,;:!?()\[\]\x22'’“”«»–—…/-])|(?:^|$|[\s.,;:!?()\[\]\x22'’“”«»–—…/-])protestas?(?:^|$|[\s.,;:!?()\[\]\x22'’“”«»–—…/-])|demonstranten|kundgebung|(?:^|$|[\s.,;:!?()\[\]\x22'’“”«»–—…/-])proteste(?:^|$|[\s.,;:!?()\[\]\x22'’“”«»–—…/-])|مظاهرة|مظاهرات|احتجاج|متظاهر",
    ),
];

/// The event types' names and, at the same positions, their patterns as one set: a
/// scene sentence is read once for all of them. A word's edge is the start or end of the
/// text, a space or a punctuation mark: a Unicode word boundary would keep the set's fast
/// automaton off any sentence with a non-ASCII character, and an ASCII one would end a
/// word before an accented letter ("march" in "marché").
static EVENTS: LazyLock<(Vec<&'static str>, RegexSet)> = LazyLock::new(|| {
    let rules: &[(&str, &str)] = &[
        (
            "Suicide bomb",
            r"(?i)(?:^|$|[\s.,;:!?()\[\]\x22'’“”«»–—…/-])suicide\s+(?:car\s+)?(?:bomb|bomber|bombers|bombing|bombings|attack|attacks|blast)(?:^|$|[\s.,;:!?()\[\]\x22'’“”«»–—…/-])",
        ),
        (
            "Chemical weapon",
            r"(?i)(?:^|$|[\s.,;:!?()\[\]\x22'’“”«»–—…/-])(?:chemical\s+(?:attack|weapons?|gas)|sarin|chlorine\s+(?:gas|attack))(?:^|$|[\s.,;:!?()\[\]\x22'’“”«»–—…/-])",
        ),
        (
            "Air/drone strike",
            r"(?i)(?:^|$|[\s.,;:!?()\[\]\x22'’“”«»–—…/-])(?:air\s?strikes?|air\s+raids?|barrel[\s-]bombs?|drone\s+(?:strikes?|attacks?)|warplanes?|bombing\s+raids?|aerial\s+(?:bombardment|bombing|attack)s?|vacuum\s+bombs?|helicopter\s+gunships?)(?:^|$|[\s.,;:!?()\[\]\x22'’“”«»–—…/-])",
        ),
        (
            "Shelling/artillery/missile attack",
            r"(?i)(?:^|$|[\s.,;:!?()\[\]\x22'’“”«»–—…/-])(?:shelling|shelled|artillery|mortars?|mortar\s+(?:fire|rounds?)|rocket\s+(?:fire|attacks?)|rockets?\s+(?:fired|hit|struck|landed)|missile\s+(?:strikes?|attacks?)|shells?\s+(?:fell|hit|landed|struck))(?:^|$|[\s.,;:!?()\[\]\x22'’“”«»–—…/-])",
        ),
        (
            "Remote explosive/landmine/IED",
            r"(?i)(?:^|$|[\s.,;:!?()\[\]\x22'’“”«»–—…/-])(?:car\s+bomb(?:ing)?s?|roadside\s+bombs?|IEDs?|improvised\s+explosive|land\s?mines?|booby[\s-]trap(?:ped)?|explosive\s+devices?|bomb\s+(?:blast|explosion|exploded))(?:^|$|[\s.,;:!?()\[\]\x22'’“”«»–—…/-])",
        ),
        (
            "Grenade",
            r"(?i)(?:^|$|[\s.,;:!?()\[\]\x22'’“”«»–—…/-])grenade\s+attacks?(?:^|$|[\s.,;:!?()\[\]\x22'’“”«»–—…/-])",
        ),
        (
            "Armed clash",
            r"(?i)(?:^|$|[\s.,;:!?()\[\]\x22'’“”«»–—…/-])(?:clash(?:es|ed)?|fighting|firefights?|gun\s?battles?|offensive|exchange\s+of\s+fire|street\s+battles?)(?:^|$|[\s.,;:!?()\[\]\x22'’“”«»–—…/-])",
        ),
        (
            "Abduction/forced disappearance",
            r"(?i)(?:^|$|[\s.,;:!?()\[\]\x22'’“”«»–—…/-])(?:kidnapp(?:ed|ing)|abduct(?:ed|ion))(?:^|$|[\s.,;:!?()\[\]\x22'’“”«»–—…/-])",
        ),
        (
            "Attack",
            r"(?i)(?:^|$|[\s.,;:!?()\[\]\x22'’“”«»–—…/-])(?:gunmen|militants?)\s+(?:attacked|opened\s+fire)|(?:^|$|[\s.,;:!?()\[\]\x22'’“”«»–—…/-])shot\s+dead(?:^|$|[\s.,;:!?()\[\]\x22'’“”«»–—…/-])|(?:^|$|[\s.,;:!?()\[\]\x22'’“”«»–—…/-])massacre(?:^|$|[\s.,;:!?()\[\]\x22'’“”«»–—…/-])|(?:^|$|[\s.,;:!?()\[\]\x22'’“”«»–—…/-])stabb(?:ed|ing)(?:^|$|[\s.,;:!?()\[\]\x22'’“”«»–—…/-])|(?:^|$|[\s.,;:!?()\[\]\x22'’“”«»–—…/-])ambush(?:ed)?(?:^|$|[\s.,;:!?()\[\]\x22'’“”«»–—…/-])",
        ),
        (
            "Looting/property destruction",
            r"(?i)(?:^|$|[\s.,;:!?()\[\]\x22'’“”«»–—…/-])(?:loot(?:ed|ing|ers)|torched|arson)(?:^|$|[\s.,;:!?()\[\]\x22'’“”«»–—…/-])",
        ),
        (
            "Violent demonstration",
            r"(?i)(?:^|$|[\s.,;:!?()\[\]\x22'’“”«»–—…/-])(?:riots?|rioters|rioting)(?:^|$|[\s.,;:!?()\[\]\x22'’“”«»–—…/-])",
        ),
        (
            "Protest with intervention",
            r"(?i)(?:^|$|[\s.,;:!?()\[\]\x22'’“”«»–—…/-])(?:protest|demonstrat)\w*(?:^|$|[\s.,;:!?()\[\]\x22'’“”«»–—…/-]).*(?:^|$|[\s.,;:!?()\[\]\x22'’“”«»–—…/-])(?:tear\s?gas|rubber\s+bullets|water\s+cannon|dispersed)(?:^|$|[\s.,;:!?()\[\]\x22'’“”«»–—…/-])",
        ),
        (
            "Peaceful protest",
            r"(?i:(?:^|$|[\s.,;:!?()\[\]\x22'’“”«»–—…/-])(?:protest(?:s|ers|ed|ing)?|demonstrat(?:ion|ions|ors|e|ed)|rall(?:y|ies)|sit-ins?)(?:^|$|[\s.,;:!?()\[\]\x22'’“”«»–—…/-]))|(?:^|$|[\s.,;:!?()\[\]\x22'’“”«»–—…/-])march(?:es|ed|ing)?(?:^|$|[\s.,;:!?()\[\]\x22'’“”«»–—…/-])",
        ),
    ];
    let names = rules.iter().map(|(n, _)| *n).collect();
    let set = RegexSet::new(rules.iter().map(|(name, r)| {
        match OTHER_LANGUAGES.iter().find(|(n, _)| n == name) {
            Some((_, words)) => format!("{r}|(?i:{words})"),
            None => (*r).to_string(),
        }
    }))
    .unwrap();
    (names, set)
});

/// Every ACLED sub-event type the extractor can report.
pub fn event_type_names() -> impl Iterator<Item = &'static str> {
    EVENTS.0.iter().copied()
}

/// ACLED sub-event types of the scene sentence.
pub fn event_types(scene: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let (names, set) = &*EVENTS;
    let found = set.matches(scene);
    for (i, name) in names.iter().enumerate() {
        if *name == "Peaceful protest"
            && (out
                .iter()
                .any(|o| o == "Protest with intervention" || o == "Violent demonstration"))
        {
            continue;
        }
        if *name == "Remote explosive/landmine/IED" && out.iter().any(|o| o == "Suicide bomb") {
            continue;
        }
        if found.matched(i) {
            out.push((*name).to_string());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events() {
        assert_eq!(
            event_types("after a reported barrel bomb attack on Aleppo"),
            vec!["Air/drone strike"]
        );
        assert_eq!(
            event_types("following reported shelling in Harasta"),
            vec!["Shelling/artillery/missile attack"]
        );
        assert_eq!(
            event_types("during an offensive to take Idlib March 24, 2015"),
            vec!["Armed clash"]
        );
        assert!(event_types("during the I Love Damascus marathon").is_empty());
        assert_eq!(
            event_types("après une frappe aérienne sur un marché d'Idleb"),
            vec!["Air/drone strike"]
        );
        // "marché" is no march, "démarche" neither.
        assert!(event_types("un marché de Gaza et une démarche").is_empty());
        assert_eq!(
            event_types("tras los enfrentamientos en el centro de Trípoli"),
            vec!["Armed clash"]
        );
        assert_eq!(
            event_types("nach einem Luftangriff auf Charkiw"),
            vec!["Air/drone strike"]
        );
        assert_eq!(
            event_types("آثار غارة جوية على حي في حلب"),
            vec!["Air/drone strike"]
        );
        assert_eq!(
            event_types("Des manifestants dispersés au gaz lacrymogène à Alger"),
            vec!["Protest with intervention"]
        );
        assert_eq!(
            event_types("Eine Kundgebung vor dem Rathaus in Leipzig"),
            vec!["Peaceful protest"]
        );
        assert_eq!(
            event_types("Protesters march in Cairo"),
            vec!["Peaceful protest"]
        );
    }
}
