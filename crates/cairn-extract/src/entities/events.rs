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
        r"\bobus\b|tirs?\s+d'artillerie|pilonnage|roquettes|\bobuses\b|artillería|cohetes|misiles|beschuss|artillerie|granaten|raketenangriff|قصف\s+مدفعي|قذائف|صواريخ",
    ),
    (
        "Remote explosive/landmine/IED",
        r"voiture\s+piégée|engin\s+explosif|coche\s+bomba|artefacto\s+explosivo|minas?\s+terrestres?|autobombe|sprengfalle|landmine|sprengsatz|سيارة\s+مفخخة|عبوة\s+ناسفة|ألغام",
    ),
    (
        "Armed clash",
        r"\bcombats\b|affrontements|accrochages|enfrentamientos|\bcombates\b|kämpfe|gefechte|اشتباكات|معارك",
    ),
    (
        "Abduction/forced disappearance",
        r"enlèvement|secuestr|entführ|اختطاف",
    ),
    (
        "Attack",
        r"fusillade|tiroteo|schießerei|messerangriff|attaque\s+au\s+couteau|ataque\s+con\s+cuchillo|\bmassacre\b|masacre|massaker|مجزرة|هجوم\s+مسلح",
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
        r"\bmanifestations?\b|\bmanifestants?\b|\bmanifestaci(?:ón|ones)\b|\bmanifestantes\b|\bprotestas?\b|demonstranten|kundgebung|\bproteste\b|مظاهرة|مظاهرات|احتجاج|متظاهر",
    ),
];

/// The event types' names and, at the same positions, their patterns as one set: a
/// scene sentence is read once for all of them.
static EVENTS: LazyLock<(Vec<&'static str>, RegexSet)> = LazyLock::new(|| {
    let rules: &[(&str, &str)] = &[
        (
            "Suicide bomb",
            r"(?i)\bsuicide\s+(?:car\s+)?(?:bomb|bomber|bombers|bombing|bombings|attack|attacks|blast)\b",
        ),
        (
            "Chemical weapon",
            r"(?i)\b(?:chemical\s+(?:attack|weapons?|gas)|sarin|chlorine\s+(?:gas|attack))\b",
        ),
        (
            "Air/drone strike",
            r"(?i)\b(?:air\s?strikes?|air\s+raids?|barrel[\s-]bombs?|drone\s+(?:strikes?|attacks?)|warplanes?|bombing\s+raids?|aerial\s+(?:bombardment|bombing|attack)s?|vacuum\s+bombs?|helicopter\s+gunships?)\b",
        ),
        (
            "Shelling/artillery/missile attack",
            r"(?i)\b(?:shelling|shelled|artillery|mortars?|mortar\s+(?:fire|rounds?)|rocket\s+(?:fire|attacks?)|rockets?\s+(?:fired|hit|struck|landed)|missile\s+(?:strikes?|attacks?)|shells?\s+(?:fell|hit|landed|struck))\b",
        ),
        (
            "Remote explosive/landmine/IED",
            r"(?i)\b(?:car\s+bomb(?:ing)?s?|roadside\s+bombs?|IEDs?|improvised\s+explosive|land\s?mines?|booby[\s-]trap(?:ped)?|explosive\s+devices?|bomb\s+(?:blast|explosion|exploded))\b",
        ),
        ("Grenade", r"(?i)\bgrenade\s+attacks?\b"),
        (
            "Armed clash",
            r"(?i)\b(?:clash(?:es|ed)?|fighting|firefights?|gun\s?battles?|offensive|exchange\s+of\s+fire|street\s+battles?)\b",
        ),
        (
            "Abduction/forced disappearance",
            r"(?i)\b(?:kidnapp(?:ed|ing)|abduct(?:ed|ion))\b",
        ),
        (
            "Attack",
            r"(?i)\b(?:gunmen|militants?)\s+(?:attacked|opened\s+fire)|\bshot\s+dead\b|\bmassacre\b|\bstabb(?:ed|ing)\b|\bambush(?:ed)?\b",
        ),
        (
            "Looting/property destruction",
            r"(?i)\b(?:loot(?:ed|ing|ers)|torched|arson)\b",
        ),
        (
            "Violent demonstration",
            r"(?i)\b(?:riots?|rioters|rioting)\b",
        ),
        (
            "Protest with intervention",
            r"(?i)\b(?:protest|demonstrat)\w*\b.*\b(?:tear\s?gas|rubber\s+bullets|water\s+cannon|dispersed)\b",
        ),
        (
            "Peaceful protest",
            r"(?i:\b(?:protest(?:s|ers|ed|ing)?|demonstrat(?:ion|ions|ors|e|ed)|rall(?:y|ies)|sit-ins?)\b)|\bmarch(?:es|ed|ing)?\b",
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
