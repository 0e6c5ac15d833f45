//! Dates as Russian, Ukrainian, Turkish, Italian and Portuguese desks write them: month
//! names in the cases a date puts them in (`3 марта 2022 года`, `в апреле 2021 года`,
//! `14 листопада 2022 року`, `3 Mart 2022`, `12 feb. 2015`, `1º de maio de 2024`) and
//! years named by the word for year (`в 2014 году`, `2006 рік`). Tried only on a caption
//! that holds one of these months or a Cyrillic letter.

use std::sync::LazyLock;

use aho_corasick::AhoCorasick;
use cairn_model::Precision;
use regex::Regex;

use super::{Found, day_value};

/// Each month's written forms (lower case, any case a date puts it in), by number.
const MONTHS: &[(u8, &[&str])] = &[
    (
        1,
        &[
            "января",
            "январь",
            "январе",
            "янв",
            "січня",
            "січень",
            "січні",
            "ocak",
            "gennaio",
            "gen",
            "janeiro",
            "jan",
        ],
    ),
    (
        2,
        &[
            "февраля",
            "февраль",
            "феврале",
            "фев",
            "февр",
            "лютого",
            "лютий",
            "лютому",
            "şubat",
            "subat",
            "febbraio",
            "feb",
            "fevereiro",
            "fev",
        ],
    ),
    (
        3,
        &[
            "марта",
            "март",
            "марте",
            "мар",
            "березня",
            "березень",
            "березні",
            "mart",
            "marzo",
            "mar",
            "março",
            "marco",
        ],
    ),
    (
        4,
        &[
            "апреля",
            "апрель",
            "апреле",
            "апр",
            "квітня",
            "квітень",
            "квітні",
            "nisan",
            "aprile",
            "apr",
            "abril",
            "abr",
        ],
    ),
    (
        5,
        &[
            "мая",
            "май",
            "мае",
            "травня",
            "травень",
            "травні",
            "mayıs",
            "mayis",
            "maggio",
            "mag",
            "maio",
            "mai",
        ],
    ),
    (
        6,
        &[
            "июня",
            "июнь",
            "июне",
            "червня",
            "червень",
            "червні",
            "haziran",
            "giugno",
            "giu",
            "junho",
            "jun",
        ],
    ),
    (
        7,
        &[
            "июля",
            "июль",
            "июле",
            "липня",
            "липень",
            "липні",
            "temmuz",
            "luglio",
            "lug",
            "julho",
            "jul",
        ],
    ),
    (
        8,
        &[
            "августа",
            "август",
            "августе",
            "авг",
            "серпня",
            "серпень",
            "серпні",
            "ağustos",
            "agustos",
            "agosto",
            "ago",
        ],
    ),
    (
        9,
        &[
            "сентября",
            "сентябрь",
            "сентябре",
            "сен",
            "сент",
            "вересня",
            "вересень",
            "вересні",
            "eylül",
            "eylul",
            "settembre",
            "set",
            "setembro",
        ],
    ),
    (
        10,
        &[
            "октября",
            "октябрь",
            "октябре",
            "окт",
            "жовтня",
            "жовтень",
            "жовтні",
            "ekim",
            "ottobre",
            "ott",
            "outubro",
            "out",
        ],
    ),
    (
        11,
        &[
            "ноября",
            "ноябрь",
            "ноябре",
            "нояб",
            "ноя",
            "листопада",
            "листопад",
            "листопаді",
            "kasım",
            "kasim",
            "novembre",
            "nov",
            "novembro",
        ],
    ),
    (
        12,
        &[
            "декабря",
            "декабрь",
            "декабре",
            "дек",
            "грудня",
            "грудень",
            "грудні",
            "aralık",
            "aralik",
            "dicembre",
            "dic",
            "dezembro",
            "dez",
        ],
    ),
];

/// The month a written form names (any case of its letters, a full stop after it).
fn month_of(word: &str) -> Option<u8> {
    let lower = word.trim_end_matches('.').to_lowercase();
    // Turkish capitals: `İ` lower-cases to `i̇` in the general rules.
    let lower = lower.replace("i\u{307}", "i");
    MONTHS
        .iter()
        .find(|(_, forms)| forms.contains(&lower.as_str()))
        .map(|&(n, _)| n)
}

/// Whether a lower-case word is a month of these languages written in full (a short
/// form such as `mar` or `set` is a word as often), as place reading needs to tell a
/// closing dateline.
pub fn is_month(word: &str) -> bool {
    word.chars().count() > 3 && month_of(word).is_some()
}

/// Every month form, longest first, as an alternation a pattern can hold.
static MONTH_ALT: LazyLock<String> = LazyLock::new(|| {
    let mut forms: Vec<&str> = MONTHS.iter().flat_map(|(_, f)| f.iter().copied()).collect();
    forms.sort_by_key(|f| std::cmp::Reverse(f.chars().count()));
    forms.join("|")
});

/// "3 марта 2022 года", "14 листопада 2022 року", "3 Mart 2022", "12 feb. 2015",
/// "1º de maio de 2024", "il 4 marzo 2022".
static DAY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"(?i)(?:^|[^\p{{L}}\p{{N}}])([0-9]{{1,2}})(?:º|°|o)?\s+(?:de\s+)?({})\.?,?\s+(?:de\s+|del\s+)?([0-9]{{4}})(?:$|[^\p{{N}}])",
        *MONTH_ALT
    ))
    .unwrap()
});

/// "в апреле 2021 года", "Червень 2022 рік", "Nisan (April) 2014", "ad agosto 2005",
/// "em março de 2020".
static MONTH_YEAR: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"(?i)(?:^|[^\p{{L}}\p{{N}}.])({})\.?\s+(?:\([A-Za-z]+\)\s+)?(?:de\s+|del\s+)?([0-9]{{4}})(?:\s+(?:года|году|г\.|року|рік|р\.))?(?:$|[^\p{{N}}])",
        *MONTH_ALT
    ))
    .unwrap()
});

/// "в 2014 году", "у 2014 році", "2015 год", "2006 рік": a year the word for year names.
static YEAR: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:^|[^\p{L}\p{N}])(?:(?:[вВуУ]\s+)((?:19|20)[0-9]{2})\s+(?:году|році)|((?:19|20)[0-9]{2})\s+(?:год|рік))(?:$|[^\p{L}\p{N}])")
        .unwrap()
});

/// Words only these languages' dates hold, to pass over the patterns in other captions.
static GATE: LazyLock<AhoCorasick> = LazyLock::new(|| {
    let mut words: Vec<String> = MONTHS
        .iter()
        .flat_map(|(_, f)| f.iter())
        .filter(|f| f.chars().count() >= 4 && f.is_ascii())
        .map(|f| f.to_string())
        .collect();
    // Turkish months with letters ASCII case folding does not reach, in capitals.
    words.extend(
        [
            "Şubat", "Mayıs", "Ağustos", "Eylül", "Kasım", "Aralık", "mayıs", "şubat",
        ]
        .map(String::from),
    );
    words.extend(["ağustos", "eylül", "kasım", "aralık", "março"].map(String::from));
    AhoCorasick::builder()
        .ascii_case_insensitive(true)
        .build(words)
        .unwrap()
});

/// Whether `text` may hold a date of these languages.
pub fn present(text: &str) -> bool {
    text.chars().any(|c| ('\u{400}'..='\u{4ff}').contains(&c)) || GATE.is_match(text)
}

/// Every day, month and year of these languages in `text`.
pub fn scan(text: &str, out: &mut Vec<Found>) {
    for c in DAY.captures_iter(text) {
        let (d, m, y) = (c.get(1).unwrap(), c.get(2).unwrap(), c.get(3).unwrap());
        let v = match (
            d.as_str().parse::<u8>(),
            month_of(m.as_str()),
            y.as_str().parse(),
        ) {
            (Ok(d), Some(m), Ok(y)) => day_value(y, m, d),
            _ => None,
        };
        Found::push_span(out, d.start(), y.end(), v, Precision::Day);
    }
    for c in MONTH_YEAR.captures_iter(text) {
        let (m, y) = (c.get(1).unwrap(), c.get(2).unwrap());
        // A short form alone (`mar`, `set`, `out`) is a word as often as a month: a month
        // and a year stand so only in full.
        if m.as_str().chars().count() <= 3 {
            continue;
        }
        let v = match (month_of(m.as_str()), y.as_str().parse::<u32>()) {
            (Some(m), Ok(y)) if (1000..3000).contains(&y) => Some(format!("{y:04}-{m:02}")),
            _ => None,
        };
        Found::push_span(out, m.start(), y.end(), v, Precision::Month);
    }
    for c in YEAR.captures_iter(text) {
        let Some(y) = c.get(1).or_else(|| c.get(2)) else {
            continue;
        };
        Found::push_span(
            out,
            y.start(),
            y.end(),
            Some(y.as_str().into()),
            Precision::Year,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::month_of;

    #[test]
    fn month_forms() {
        assert_eq!(month_of("марта"), Some(3));
        assert_eq!(month_of("Листопада"), Some(11));
        assert_eq!(month_of("MAYIS"), Some(5));
        assert_eq!(month_of("Mayıs"), Some(5));
        assert_eq!(month_of("feb."), Some(2));
        assert_eq!(month_of("Fevereiro"), Some(2));
        assert_eq!(month_of("house"), None);
    }
}
