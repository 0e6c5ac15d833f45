//! Demonyms and the country each names (`Syrian`, `سوري`, `South Sudanese`): a demonym
//! gives the caption's places their country's context.

use std::sync::LazyLock;

use rustc_hash::FxHashMap;

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
    // More of French, Spanish and German, singular and plural, as captions write them.
    // (Not Spanish `siria`: spelled so it is the country's own name, `Alepo, Siria`.)
    ("syriens", "SY"),
    ("syriennes", "SY"),
    ("sirios", "SY"),
    ("sirias", "SY"),
    ("syrischer", "SY"),
    ("yéménite", "YE"),
    ("yéménites", "YE"),
    ("yemení", "YE"),
    ("yemeníes", "YE"),
    ("jemenitische", "YE"),
    ("jemenitischen", "YE"),
    ("irakien", "IQ"),
    ("irakienne", "IQ"),
    ("irakiens", "IQ"),
    ("iraquí", "IQ"),
    ("iraquíes", "IQ"),
    ("irakische", "IQ"),
    ("irakischen", "IQ"),
    ("libanais", "LB"),
    ("libanaise", "LB"),
    ("libanés", "LB"),
    ("libanesa", "LB"),
    ("libanesische", "LB"),
    ("libanesischen", "LB"),
    ("ukrainienne", "UA"),
    ("ukrainiens", "UA"),
    ("ucraniana", "UA"),
    ("ucranianos", "UA"),
    ("ostukrainische", "UA"),
    ("ostukrainischen", "UA"),
    ("palestinienne", "PS"),
    ("palestina", "PS"),
    ("palestinas", "PS"),
    ("gazaoui", "PS"),
    ("gazaouis", "PS"),
    ("gazatí", "PS"),
    ("gazatíes", "PS"),
    ("palästinensische", "PS"),
    ("palästinensischen", "PS"),
    ("israélienne", "IL"),
    ("israéliens", "IL"),
    ("israelíes", "IL"),
    ("israelischer", "IL"),
    ("afghane", "AF"),
    ("afghans", "AF"),
    ("afgano", "AF"),
    ("afganos", "AF"),
    ("afghanische", "AF"),
    ("afghanischen", "AF"),
    ("soudanais", "SD"),
    ("soudanaise", "SD"),
    ("sudanés", "SD"),
    ("sudanesa", "SD"),
    ("sudanesische", "SD"),
    ("sudanesischen", "SD"),
    ("burkinabé", "BF"),
    ("burkinabés", "BF"),
    ("burkinabè", "BF"),
    ("libyen", "LY"),
    ("libyenne", "LY"),
    ("libio", "LY"),
    ("libia", "LY"),
    ("libysche", "LY"),
    ("libyschen", "LY"),
    ("égyptien", "EG"),
    ("égyptienne", "EG"),
    ("egipcio", "EG"),
    ("egipcia", "EG"),
    ("ägyptische", "EG"),
    ("ägyptischen", "EG"),
    ("iranien", "IR"),
    ("iranienne", "IR"),
    ("iraní", "IR"),
    ("iranische", "IR"),
    ("iranischen", "IR"),
    ("turque", "TR"),
    ("turco", "TR"),
    ("turca", "TR"),
    ("türkische", "TR"),
    ("türkischen", "TR"),
];

/// Arabic demonyms, folded and without the article, feminine and plural endings
/// (`السورية`, `العراقيين`, `سورياً` → `سوري`, `عراقي`).
const ARABIC_DEMONYMS: &[(&str, &str)] = &[
    ("سوري", "SY"),
    ("عراقي", "IQ"),
    ("فلسطيني", "PS"),
    ("اسرائيلي", "IL"),
    ("لبناني", "LB"),
    ("يمني", "YE"),
    ("اوكراني", "UA"),
    ("تركي", "TR"),
    ("ليبي", "LY"),
    ("سوداني", "SD"),
    ("مصري", "EG"),
    ("اردني", "JO"),
    ("ايراني", "IR"),
    ("افغاني", "AF"),
];

/// The country of an Arabic demonym in any of its forms.
fn arabic_demonym_country(word: &str) -> Option<&'static str> {
    if !word.starts_with(|c: char| ('\u{0600}'..='\u{06FF}').contains(&c)) {
        return None;
    }
    let f = cairn_gazetteer::fold(word);
    // The alef of the accusative (`سورياً`) only with its tanween: `سوريا` is the
    // country, not its demonym.
    let accusative = word.contains('\u{064B}');
    let stem = ["ين", "ون", "ه", "ات"]
        .iter()
        .find_map(|s| f.strip_suffix(s))
        .or_else(|| f.strip_suffix('ا').filter(|_| accusative))
        .unwrap_or(&f);
    ARABIC_DEMONYMS
        .iter()
        .find(|(d, _)| *d == stem)
        .map(|(_, c)| *c)
}

/// [`DEMONYMS`] by demonym: every token of a caption is looked up.
static DEMONYM_COUNTRY: LazyLock<FxHashMap<&'static str, &'static str>> =
    LazyLock::new(|| DEMONYMS.iter().copied().collect());

pub(super) fn demonym_country(word: &str) -> Option<&'static str> {
    DEMONYM_COUNTRY
        .get(word)
        .copied()
        .or_else(|| arabic_demonym_country(word))
}

/// Demonyms of two words whose second alone names another country (`South Sudanese`
/// is not `Sudanese`), as (first word, second word, country).
const TWO_WORD_DEMONYMS: &[(&str, &str, &str)] = &[
    ("south", "sudanese", "SS"),
    ("south", "korean", "KR"),
    ("south", "koreans", "KR"),
    ("north", "korean", "KP"),
    ("north", "koreans", "KP"),
    ("south", "african", "ZA"),
    ("south", "africans", "ZA"),
    ("central", "african", "CF"),
    ("sri", "lankan", "LK"),
    ("east", "timorese", "TL"),
    ("north", "macedonian", "MK"),
];

/// The country of a demonym read with the word before it (lower case), when the two
/// make a demonym of their own: `South Sudanese`.
pub(super) fn two_word_demonym(before: &str, word: &str) -> Option<&'static str> {
    TWO_WORD_DEMONYMS
        .iter()
        .find(|(a, b, _)| *a == before && *b == word)
        .map(|(_, _, c)| *c)
}
