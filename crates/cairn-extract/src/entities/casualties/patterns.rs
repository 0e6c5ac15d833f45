//! The phrasings of a toll in each language, and the marks of a toll that is not the
//! scene's. Each pattern names its parts: `h` the hedge, `n` the number, `k` the word
//! that says killed or injured, `f` the words between number and verb.

use std::sync::{LazyLock, OnceLock};

use regex::Regex;

/// Which count a toll word fills.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Killed,
    Injured,
}

impl Kind {
    /// The kind of a toll word in any of the five languages.
    pub fn of(word: &str) -> Kind {
        let w = crate::text::lowered(word);
        const INJURED: &[&str] = &[
            "injur",
            "wound",
            "hurt",
            "bless",
            "herid",
            "hiri",
            "verletz",
            "verwund",
            "إصاب",
            "اصاب",
            "جرح",
            "جريح",
            "مصاب",
            "ранен",
            "ранени",
            "поранен",
            "пострада",
            "постражда",
            "ferit",
            "ferend",
            "ferid",
            "feriu",
            "ferir",
            "ferind",
            "yaral",
        ];
        if INJURED.iter().any(|s| w.contains(s)) {
            Kind::Injured
        } else {
            Kind::Killed
        }
    }
}

/// One phrasing: the pattern (compiled when a caption first needs it, so English
/// captions never pay for the other languages'), the literals every match holds (so
/// most captions skip it), and the kind when the pattern fixes it.
pub struct Pattern {
    source: String,
    re: OnceLock<Regex>,
    pub needs: Regex,
    pub kind: Option<Kind>,
}

impl Pattern {
    pub fn re(&self) -> &Regex {
        self.re.get_or_init(|| Regex::new(&self.source).unwrap())
    }
}

const EN_NUM: &str = r"\d{1,3}(?:,\d{3})+|\d+|a\s+dozen|dozens|(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:-(?:one|two|three|four|five|six|seven|eight|nine))?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen";
const EN_HEDGE: &str = r"at\s+least|more\s+than|over|nearly|almost|about|around|some|up\s+to|as\s+many\s+as|roughly|approximately";
/// Digits as continental desks group thousands ("2.000", "1 400").
const INTL_DIGITS: &str = r"\d{1,3}(?:[.\x{a0}\x{202f} ]\d{3})+|\d+";
const FR_NUM: &str = r"des\s+dizaines|une\s+(?:dizaine|vingtaine|douzaine|centaine)|deux|trois|quatre|cinq|six|sept|huit|neuf|dix|onze|douze|treize|quatorze|quinze|seize|vingt|trente|quarante|cinquante|soixante|cent";
const FR_HEDGE: &str = r"au\s+moins|plus\s+de|près\s+de|environ|quelque|jusqu'à";
const ES_NUM: &str = r"decenas|una\s+(?:docena|decena)|dos|tres|cuatro|cinco|seis|siete|ocho|nueve|diez|once|doce|trece|catorce|quince|veinte|treinta|cuarenta|cincuenta|cien";
const ES_HEDGE: &str =
    r"al\s+menos|por\s+lo\s+menos|más\s+de|mas\s+de|cerca\s+de|unos|unas|casi|alrededor\s+de|hasta";
const DE_NUM: &str = r"Dutzende|ein\s+Dutzend|zwei|drei|vier|fünf|sechs|sieben|acht|neun|zehn|elf|zwölf|zwanzig|dreißig|vierzig|fünfzig|hundert";
const DE_HEDGE: &str = r"mindestens|mehr\s+als|über|rund|etwa|fast|knapp|bis\s+zu";
const AR_NUM: &str = r"[0-9\x{660}-\x{669}\x{6f0}-\x{6f9}]+(?:[,.\x{66c}][0-9\x{660}-\x{669}\x{6f0}-\x{6f9}]{3})*|العشرات|عشرات|اثنين|اثنان|ثلاثة|ثلاث|أربعة|أربع|خمسة|خمس|ستة|ست|سبعة|سبع|ثمانية|ثماني|تسعة|تسع|عشرة|عشر";
const AR_HEDGE: &str =
    r"ما\s+لا\s+يقل\s+عن|أكثر\s+من|اكثر\s+من|نحو|حوالي|حوالى|قرابة|ما\s+يزيد\s+(?:عن|على)";

const EN_NEEDS: &str = "(?i)kill|dead|died|injur|wound|hurt|shot|bodies|toll|number of|execut|lives of|their lives|claim";
const FR_NEEDS: &str = "(?i)mort|tué|bless|décéd|péri|tuant|la vie";
const ES_NEEDS: &str = "(?i)muert|fallec|herid|asesin|mató|mataron|matando|murieron|hiri|la vida";
const DE_NEEDS: &str = "(?i)tote|todesopfer|getötet|verletz|verwund|ums leben|tötete|starben";
const AR_NEEDS: &str = "قتل|مقتل|استشهاد|إصاب|اصاب|جرح|قتيل|شهيد|شهداء|مصاب|حصيلة";

/// Edges of a word that the regex engine's fast automata can check on any text (a
/// Unicode word boundary makes them give up on non-ASCII text): the edges of ASCII words,
/// and a consumed space or punctuation mark for the rest (small classes, so the patterns
/// compile quickly).
pub(super) const LB: &str = r#"(?:^|[\s.,;:!?()\[\]"'«»“”‘’/–—،؛؟-])"#;
pub(super) const RB: &str = r#"(?:$|[\s.,;:!?()\[\]"'«»“”‘’/–—،؛؟-])"#;
/// A word between a number and its toll word, in any script.
pub(super) const WORD: &str = r#"[^\s\d.,;:!?()\[\]"«»“”،؛؟]+"#;

pub(super) fn pattern(re: String, needs: &str, kind: Option<Kind>) -> Pattern {
    Pattern {
        source: re,
        re: OnceLock::new(),
        needs: Regex::new(needs).unwrap(),
        kind,
    }
}

/// Number, then verb: "at least 12 people were killed", "au moins 33 morts".
pub(super) fn before(hedge: &str, num: &str, filler_word: &str, aux: &str, word: &str) -> String {
    // English words are ASCII: their edges are ASCII word boundaries, cheaper to find.
    let (lb, rb) = if hedge == EN_HEDGE {
        (r"(?-u:\b)", r"(?-u:\b)")
    } else {
        (LB, RB)
    };
    format!(
        r"(?i){lb}(?:(?P<h>{hedge})\s+)?(?P<n>{num})\s+(?P<f>(?:{filler_word}\s+){{0,3}}?)(?:(?:{aux})\s+)*(?P<k>{word}){rb}"
    )
}

/// Verb, then number: "killing at least 40", "tuant cinq", "مقتل 19".
pub(super) fn after(verb: &str, hedge: &str, num: &str) -> String {
    format!(r"(?i){LB}(?P<k>{verb})\s+(?:(?P<h>{hedge})\s+)?(?P<n>{num}){RB}")
}

/// The phrasings of English, French, Spanish, German and Arabic, English first.
pub fn phrasings() -> Vec<Pattern> {
    let mut all = english();
    all.extend(other_languages());
    all
}

/// English phrasings.
fn english() -> Vec<Pattern> {
    vec![
        pattern(
            before(
                EN_HEDGE,
                EN_NUM,
                "(?:of\\s+)?[a-z]+",
                r"were|was|have\s+been|had\s+been|are|been|reportedly|later",
                r"killed|dead|died|injured|wounded|hurt|shot\s+(?:to\s+death|dead)|bodies|lost\s+their\s+lives|(?:being\s+)?treated\s+for\s+(?:their\s+)?(?:wounds|injuries)|recover(?:ing|ed)?\s+from\s+(?:their\s+)?(?:wounds|injuries)",
            ),
            EN_NEEDS,
            None,
        ),
        pattern(
            after(
                r"killing|kills|killed|wounding|wounded|injuring|injured|executed|execution\s+of|(?:claiming|claimed|took|taking)\s+the\s+lives\s+of",
                EN_HEDGE,
                EN_NUM,
            ),
            EN_NEEDS,
            None,
        ),
        pattern(
            format!(
                r"(?i)(?-u:\b)(?P<k>claim(?:ed|ing|s))\s+(?:(?P<h>{EN_HEDGE})\s+)?(?P<n>{EN_NUM})\s+lives(?-u:\b)"
            ),
            EN_NEEDS,
            Some(Kind::Killed),
        ),
        pattern(
            format!(
                r"(?i)(?-u:\b)(?:leaving|left)\s+(?:(?P<h>{EN_HEDGE})\s+)?(?P<n>{EN_NUM})\s+(?:[a-z]+\s+){{0,2}}?(?P<k>dead|injured|wounded)(?-u:\b)"
            ),
            EN_NEEDS,
            None,
        ),
        pattern(
            format!(
                r"(?i)(?-u:\b)(?P<k>death\s+toll|number\s+of\s+(?:dead|deaths|fatalities|people\s+killed|wounded|injured))\s+(?:[\w-]+\s+){{0,12}}?(?:to|of|at|reached)\s+(?:(?P<h>{EN_HEDGE})\s+)?(?P<n>{EN_NUM})(?-u:\b)"
            ),
            EN_NEEDS,
            None,
        ),
    ]
}

/// French, Spanish, German and Arabic phrasings.
fn other_languages() -> Vec<Pattern> {
    let fr_num = format!("{INTL_DIGITS}|{FR_NUM}");
    let es_num = format!("{INTL_DIGITS}|{ES_NUM}");
    let de_num = format!("{INTL_DIGITS}|{DE_NUM}");
    vec![
        pattern(
            before(
                FR_HEDGE,
                &fr_num,
                WORD,
                r"ont|a|avaient|sont|été|auraient|ayant",
                r"morts?|tué(?:e|s|es)?|blessé(?:e|s|es)?|décédé(?:e|s|es)?|trouvé\s+la\s+mort|péri",
            ),
            FR_NEEDS,
            None,
        ),
        pattern(
            after(
                r"tuant|blessant|tué|blessé|coûté\s+la\s+vie\s+à",
                FR_HEDGE,
                &fr_num,
            ),
            FR_NEEDS,
            None,
        ),
        pattern(
            before(
                ES_HEDGE,
                &es_num,
                WORD,
                r"han|fueron|resultaron|habían|quedaron|murieron",
                r"muert[oa]s?|fallecid[oa]s|herid[oa]s|asesinad[oa]s",
            ),
            ES_NEEDS,
            None,
        ),
        pattern(
            after(
                r"mató\s+a|mataron\s+a|matando\s+a|murieron|fallecieron|hirió\s+a|hiriendo\s+a|asesinó\s+a|resultaron\s+(?:muert|herid)[oa]s|costó\s+la\s+vida\s+a",
                ES_HEDGE,
                &es_num,
            ),
            ES_NEEDS,
            None,
        ),
        pattern(
            before(
                DE_HEDGE,
                &de_num,
                WORD,
                r"wurden|sind|waren|seien|wurde|kamen",
                r"Tote|Toten|Todesopfer|getötet|Verletzte|Verletzten|verletzt|Verwundete|verwundet|ums\s+Leben",
            ),
            DE_NEEDS,
            None,
        ),
        pattern(
            after(
                r"tötete|töteten|verletzte|verletzten|starben",
                DE_HEDGE,
                &de_num,
            ),
            DE_NEEDS,
            None,
        ),
        pattern(
            format!(
                r"{LB}(?P<k>[وبل]?(?:مقتل|قتل|استشهاد|إصابة|اصابة|جرح))\s+(?:(?P<h>{AR_HEDGE})\s+)?(?P<n>{AR_NUM}){RB}"
            ),
            AR_NEEDS,
            None,
        ),
        // "the toll rose to 45": "ارتفعت حصيلة القتلى إلى 45", "la cifra de muertos
        // asciende a 45", "die Zahl der Toten stieg auf 45".
        pattern(
            format!(
                r"{LB}(?P<k>(?:حصيلة|عدد)\s+(?:القتلى|الضحايا|الشهداء|الوفيات|الجرحى|المصابين))\s+(?:\S+\s+){{0,8}}?(?:إلى|الى|بلغت|بلغ)\s+(?:(?P<h>{AR_HEDGE})\s+)?(?P<n>{AR_NUM}){RB}"
            ),
            AR_NEEDS,
            None,
        ),
        pattern(
            format!(
                r"(?i){LB}(?P<k>(?:cifra|n[úu]mero|balance)\s+de\s+(?:muertos|fallecidos|heridos))\s+(?:\S+\s+){{0,8}}?(?:a|en|de)\s+(?:(?P<h>{ES_HEDGE})\s+)?(?P<n>{es_num}){RB}"
            ),
            ES_NEEDS,
            None,
        ),
        pattern(
            format!(
                r"(?i){LB}(?P<k>Zahl\s+der\s+(?:Toten|Todesopfer|Verletzten))\s+(?:\S+\s+){{0,8}}?(?:auf|bei)\s+(?:(?P<h>{DE_HEDGE})\s+)?(?P<n>{de_num}){RB}"
            ),
            DE_NEEDS,
            None,
        ),
        pattern(
            before(
                AR_HEDGE,
                AR_NUM,
                WORD,
                "قد",
                "قتلى|قتيلا|قتيلاً|قتيل|شهيدا|شهيداً|شهداء|جرحى|جريحا|جريحاً|مصابا|مصاباً|مصابين",
            ),
            AR_NEEDS,
            None,
        ),
    ]
}

/// What every pattern of [`phrasings`] and of `more` needs one of: most captions count
/// no dead or injured, and their text is not searched further.
pub fn count_needs(more: &[&str]) -> Regex {
    let all = [EN_NEEDS, FR_NEEDS, ES_NEEDS, DE_NEEDS]
        .iter()
        .chain(more)
        .map(|n| n.trim_start_matches("(?i)"))
        .chain([AR_NEEDS])
        .collect::<Vec<_>>()
        .join("|");
    Regex::new(&format!("(?i){all}")).unwrap()
}

/// "two men and four children were killed": a list of counted people.
pub static SUM: LazyLock<Regex> = LazyLock::new(|| {
    let part = format!(r"(?:{EN_NUM}|an?)\s+(?:[a-z-]+\s+){{0,2}}?[a-z-]+");
    Regex::new(&format!(
        r"(?i)(?-u:\b)(?P<list>(?:{part}(?:\s*,\s*|\s+and\s+|,\s+and\s+))+{part})\s+(?:were|have\s+been|had\s+been)\s+(?P<k>killed|injured|wounded|hurt|shot\s+dead)(?-u:\b)"
    ))
    .unwrap()
});

/// "The dead include two men, three women and a child": a list of the dead, summed.
pub static DEAD_LIST: LazyLock<Regex> = LazyLock::new(|| {
    let part = format!(r"(?:{EN_NUM}|an?)\s+(?:[a-z-]+\s+){{0,2}}?[a-z-]+");
    Regex::new(&format!(
        r"(?i)(?-u:\b)(?:the\s+)?(?P<k>dead|victims|wounded|injured)\s+(?:include[sd]?|were|are)\s+(?P<list>(?:{part}(?:\s*,\s*|\s+and\s+|,\s+and\s+))+{part})(?-u:\b)"
    ))
    .unwrap()
});

/// A war's or a country's running total, in any of the five languages.
pub static BACKGROUND: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"(?i)\b(?:war|conflict|uprising|revolution)\s+(?:that|which)\s+(?:has|have|had)\b",
        r"|\bnationwide\b|\bcountrywide\b|\b(?:across|throughout)\s+the\s+(?:country|nation)\b|\bsince\s+(?:the\s+(?:start|beginning|war|conflict)|20\d\d|19\d\d)\b",
        r"|\bso\s+far\b|\bin\s+total\b|\bsince\s+it\s+began\b",

        r"|\bsince\s+(?:mid-|early\s+|late\s+)?(?:January|February|March|April|May|June|July|August|September|October|November|December)\b",
        r"|\bevery\s+(?:day|week|month|year)\b|\bper\s+(?:day|week|month)\b|\ban\s+average\s+of\b",
        r"|\b(?:guerre|conflit)\s+qui\b|\bdepuis\s+(?:le\s+début|le\s+\d|\d)",
        r"|\bguerra\s+que\b|\bdesde\s+(?:el\s+(?:inicio|comienzo)|que\s+comenz)",
        r"|\bseit\s+(?:Beginn|Kriegsbeginn|Ausbruch)|منذ\s+(?:بدء|بداية|اندلاع)",
    ))
    .unwrap()
});

/// Words before a toll that make it another event's, one the scene is compared with
/// ("a similar attack in March killed 30", "the deadliest since a bombing that killed
/// 170"). After the toll they compare the scene's own event, and are not read.
pub static COMPARED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"(?i)\b(?:similar|previous|earlier)\s+(?:attack|strike|bombing|blast|raid|massacre|quake|earthquake)\b",
        r"|\b(?:deadliest|worst|bloodiest)\s+(?:\w+\s+){0,2}since\b",
    ))
    .unwrap()
});

/// A sentence that turns to another event: "Elsewhere, ...", "Meanwhile, ...".
pub static ELSEWHERE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^\W*(?:elsewhere|meanwhile|separately|in\s+a\s+separate|in\s+another|ailleurs|par\s+ailleurs|en\s+otro|por\s+otra\s+parte|unterdessen|andernorts)\b").unwrap()
});

/// A toll told in the perfect, as running totals are.
pub static PERFECT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:has|have)\s+(?:\w+\s+){0,2}?(?:killed|died|left)\b|\bont\s+(?:été\s+tués|tué|trouvé\s+la\s+mort|péri)|\bhan?\s+(?:matado|muerto|fallecido)").unwrap()
});
