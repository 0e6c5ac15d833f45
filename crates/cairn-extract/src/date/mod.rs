//! Dates: every written form wire captions use, and the choice of the scene's date.

mod desks;
mod english;
mod intl;
mod years;

pub(crate) use desks::is_month as is_desk_month;
pub(crate) use intl::is_month_word;

use std::sync::LazyLock;

use cairn_model::{DateValue, Precision, Span};
use regex::Regex;

/// A date read from a stretch of text, before the text is cut out for the record.
pub struct Found {
    span: Span,
    value: String,
    precision: Precision,
}

impl Found {
    /// Adds a reading of `m` unless the value is none or an earlier (more precise)
    /// reading holds part of the same text.
    fn push(out: &mut Vec<Found>, m: regex::Match<'_>, value: Option<String>, p: Precision) {
        Self::push_span(out, m.start(), m.end(), value, p);
    }

    fn push_span(out: &mut Vec<Found>, start: usize, end: usize, v: Option<String>, p: Precision) {
        let Some(value) = v else { return };
        if out.iter().any(|d| start < d.span.end && d.span.start < end) {
            return;
        }
        out.push(Found {
            span: Span::new(start, end),
            value,
            precision: p,
        });
    }
}

fn day_value(y: i32, m: u8, d: u8) -> Option<String> {
    let date = jiff::civil::Date::new(
        i16::try_from(y).ok()?,
        i8::try_from(m).ok()?,
        i8::try_from(d).ok()?,
    )
    .ok()?;
    Some(date.to_string())
}

/// Whether `text` has four digits in a row (ASCII, Arabic-Indic or Persian): every form
/// [`find_all`] reads holds a year written so, so text without such a run has no date
/// and the searches are skipped.
fn has_year_digits(text: &str) -> bool {
    let mut run = 0;
    for c in text.chars() {
        if c.is_ascii_digit()
            || ('\u{660}'..='\u{669}').contains(&c)
            || ('\u{6f0}'..='\u{6f9}').contains(&c)
        {
            run += 1;
            if run == 4 {
                return true;
            }
        } else {
            run = 0;
        }
    }
    false
}

/// Every date written in `text`, in text order, without overlaps (the most precise
/// reading of a stretch of text wins).
pub fn find_all(text: &str) -> Vec<DateValue> {
    if !has_year_digits(text) {
        return Vec::new();
    }
    scan(text)
}

/// [`find_all`] without the check for a year's digits.
fn scan(text: &str) -> Vec<DateValue> {
    scan_languages(text, intl::languages(text))
}

/// [`scan`] trying the forms of the languages in `langs` only.
fn scan_languages(text: &str, langs: u8) -> Vec<DateValue> {
    let mut found: Vec<Found> = Vec::new();
    let runs = years::digit_runs(text);
    english::scan_days(text, &runs, &mut found);
    intl::scan_days(text, langs, &mut found);
    intl::scan_months(text, langs, &mut found);
    if desks::present(text) {
        desks::scan(text, &mut found);
    }
    english::scan_months_years(text, &runs, &mut found);
    let mut out: Vec<DateValue> = found
        .into_iter()
        .map(|f| DateValue {
            value: f.value,
            precision: f.precision,
            text: text[f.span.start..f.span.end].to_string(),
            span: f.span,
        })
        .collect();
    out.sort_by_key(|d| d.span.start);
    out
}

static TAKEN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(?:photo|picture|image|photograph)s?\s+(?:was\s+|were\s+)?(?:taken|made|shot)\b",
    )
    .unwrap()
});
/// Words that make a later sentence's date another event's.
static BACKGROUND_CUE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:who|which|since|ago|died|killed|born|anniversary|earlier|last|previous|before|after|invaded|invasion|launched|erupted|struck|broke\s+out|qui|lequel|laquelle|depuis|dernier|avant|anniversaire|avait|quien|quienes|desde|antes|hace|aniversario|había|welche|seit|zuvor|vorher|Jahrestag|hatte|منذ|قبل|ذكرى)\b").unwrap()
});
/// What makes a date of the scene's own sentence another event's, read in the clause
/// that leads to it: "since", a relative clause's verb right before it ("the boy, who
/// was rescued in March 2017, ..."), a birth or an anniversary.
static CLAUSE_CUE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:since|depuis|desde|seit|منذ|dal|dalla|dall'|від)\b|\b\p{L}+(?:вших|вшего|вшей|вшая|вший|вшие|вшим|вшими)\b|\b(?:ago|until|till|born|anniversary\s+of(?:\s+\w+){0,4})\s+(?:in\s+|on\s+)?$|\b(?:who|which|that)\s+(?:(?:was|were|had|has|have|been|is|are)\s+){0,2}\w+(?:\s+\w+)?\s+(?:in|on)\s+$").unwrap()
});

/// The clause of sentence `s` that leads to `d`.
fn clause_before<'a>(text: &'a str, s: Span, d: &DateValue) -> &'a str {
    let before = &text[s.start..d.span.start];
    let clause = before.rfind([',', ';', '(', '|', '—']).map_or(before, |p| {
        let mark = before[p..].chars().next().map_or(1, char::len_utf8);
        &before[p + mark..]
    });
    // "who was rescued in March 2017": the relative clause may hold a comma-free run.
    if clause.trim().is_empty() {
        before
    } else {
        clause
    }
}

/// Whether the clause leading to `d` in sentence `s` marks it as another event's date.
fn background_clause(text: &str, s: Span, d: &DateValue) -> bool {
    let before = &text[s.start..d.span.start];
    // "A picture released by the agency (SANA) on ...": the release, not the scene.
    CLAUSE_CUE.is_match(clause_before(text, s, d)) || RELEASED.is_match(before)
}

/// What makes a date give way to another of the same sentence: a clause that leads up to
/// the scene ("after the storm of March 2, 2018, ..."), or a participle that tells the
/// subject's past ("A boy rescued on January 4, 2017 plays ... on February 2, 2017").
static SIDE_CUE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:after|before|following|ahead\s+of|prior\s+to|après|avant|tras|después\s+de|antes\s+de|nachdem|بعد|قبل)\b|^\s*(?:an?|the)\s+(?:[a-z-]+\s+){0,3}?[a-z]+ed\s+(?:on|in)\s+$").unwrap()
});

static RELEASED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:released|published|issued|distributed|provided)\s+by\s+[^,;]{0,80}?\s+(?:on|in)\s+$").unwrap()
});

/// Chooses the scene's date: a "photo taken" date first, then the most precise date of
/// the opening sentence not in a background clause, then a later sentence's date when
/// nothing marks it as another event's; a date inside the credit (publication) only as a
/// last resort.
pub fn choose(
    text: &str,
    sentences: &[Span],
    credit: Option<Span>,
    warnings: &mut Vec<String>,
) -> Option<DateValue> {
    let all = find_all(text);
    let in_credit =
        |d: &DateValue| credit.is_some_and(|c| d.span.start >= c.start && d.span.end <= c.end);
    let scene: Vec<&DateValue> = all.iter().filter(|d| !in_credit(d)).collect();
    let sentence_of = |d: &DateValue| {
        sentences
            .iter()
            .position(|s| d.span.start >= s.start && d.span.start < s.end)
    };
    // "Picture taken October 18, 2012", "In this photo taken on ...".
    for d in &scene {
        if let Some(si) = sentence_of(d) {
            let s = sentences[si];
            if TAKEN.is_match(&text[s.start..d.span.start]) {
                return Some((*d).clone());
            }
        }
    }
    let mut background = |d: &DateValue, s: Span, cue: &Regex| {
        let is = background_clause(text, s, d) || cue.is_match(&text[s.start..d.span.start]);
        if is {
            warnings.push(format!(
                "date {:?} belongs to a background clause; not used",
                d.text
            ));
        }
        is
    };
    let firsts: Vec<&DateValue> = scene
        .iter()
        .copied()
        .filter(|d| sentence_of(d) == Some(0))
        .filter(|d| !background(d, sentences[0], &NEVER))
        .collect();
    // A date in a side clause gives way to another of the sentence, when there is one.
    let side = |d: &DateValue| SIDE_CUE.is_match(clause_before(text, sentences[0], d));
    let first = firsts
        .iter()
        .filter(|d| !side(d))
        .min_by_key(|d| d.precision)
        .or_else(|| firsts.iter().min_by_key(|d| d.precision));
    if let Some(b) = first {
        return Some((*b).clone());
    }
    for d in &scene {
        let Some(si) = sentence_of(d) else { continue };
        // A date alone in brackets at the end (`... ended." (10/01/2016)`) is the
        // picture's closing note, not a word of the sentence it is glued to.
        if si == 0 || (!closing_note(text, d) && background(d, sentences[si], &BACKGROUND_CUE)) {
            continue;
        }
        return Some((*d).clone());
    }
    if let Some(d) = all.iter().find(|d| in_credit(d)) {
        warnings.push(format!(
            "date {:?} is the credit's publication date; no scene date",
            d.text
        ));
        return Some(d.clone());
    }
    None
}

/// Whether `d` stands alone in the brackets that end the text.
fn closing_note(text: &str, d: &DateValue) -> bool {
    let before = text[..d.span.start].trim_end();
    let after = text[d.span.end..].trim();
    before.ends_with('(')
        && after
            .strip_prefix(')')
            .is_some_and(|r| r.trim_matches('.').is_empty())
}

/// A pattern that matches nothing: the opening sentence's dates are judged by their
/// clause alone.
static NEVER: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"[^\s\S]").unwrap());

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::sentences;

    fn value(text: &str) -> Option<(String, Precision)> {
        let s = sentences(text);
        let credit = crate::credit::find(text).map(|c| c.credit.span);
        choose(text, &s, credit, &mut Vec::new()).map(|d| {
            assert_eq!(&text[d.span.start..d.span.end], d.text);
            (d.value, d.precision)
        })
    }

    fn day(v: &str) -> Option<(String, Precision)> {
        Some((v.to_string(), Precision::Day))
    }

    fn year(v: &str) -> Option<(String, Precision)> {
        Some((v.to_string(), Precision::Year))
    }

    #[test]
    fn forms() {
        assert_eq!(
            value("Seen in Homs on November 6, 2016."),
            day("2016-11-06")
        );
        assert_eq!(value("Seen in Homs on Nov. 6, 2016."), day("2016-11-06"));
        assert_eq!(value("Seen Sept. 20, 2012 in Homs."), day("2012-09-20"));
        assert_eq!(value("Seen on 6 November 2016 in Homs."), day("2016-11-06"));
        assert_eq!(
            value("Seen in Homs on the 3rd of January, 2024."),
            day("2024-01-03")
        );
        assert_eq!(
            value("In this photo taken on Wednesday, February 17, 2016, a man."),
            day("2016-02-17")
        );
        assert_eq!(value("Seen 2016-11-06 in Homs."), day("2016-11-06"));
        assert_eq!(
            value("Seen in Homs in November 2016."),
            Some(("2016-11".into(), Precision::Month))
        );
        assert_eq!(
            value("NAIROBI, Kenya, Aug. 11, 1998 -- A man walks."),
            day("1998-08-11")
        );
        assert_eq!(
            value("A man walks. REUTERS/X. Photo taken October 18, 2012."),
            day("2012-10-18")
        );
        assert_eq!(value("A man walks on Wednesday in Homs."), None);
        assert_eq!(value("Seen on February 30, 2016."), None);
    }

    #[test]
    fn numeric_and_dateline_forms() {
        // Day-first unless the calendar forbids it.
        assert_eq!(
            value("12/02/2021 - A protester in Yangon."),
            day("2021-02-12")
        );
        assert_eq!(value("Riot police in Minsk. 07.03.2019"), day("2019-03-07"));
        assert_eq!(value("A flooded road. 06.13.2018"), day("2018-06-13"));
        assert_eq!(
            value("Paris, France - 25.06.2018 A march."),
            day("2018-06-25")
        );
        assert_eq!(
            value("Students march in Quito. 9-Apr-2014."),
            day("2014-04-09")
        );
        assert_eq!(
            value("Troops rest near Kherson, Oct, 20, 2022."),
            day("2022-10-20")
        );
        assert_eq!(
            value("Troops rest near Kherson, March, 4, 2016."),
            day("2016-03-04")
        );
        assert_eq!(value("A market in Sanaa, Nov.15, 2016."), day("2016-11-15"));
        assert_eq!(
            value("A boy at the door. (Ann Kell, The Daily Item - May 15,2013)"),
            day("2013-05-15")
        );
        assert_eq!(
            value("KHARKIV, UKRAINE - MAY 9: Women lay flowers on May 9, 2022 in Kharkiv."),
            day("2022-05-09")
        );
        assert_eq!(
            value(
                "KABUL, AFGHANISTAN - JAN 12: A vendor waits. Kabul, 2019. (Photo by X/Getty Images)"
            ),
            day("2019-01-12")
        );
        assert_eq!(
            value("GAZA CITY, GAZA - OCTOBER 9, 2023: Smoke rises. (Photo by X/Getty Images)"),
            day("2023-10-09")
        );
        assert_eq!(
            value("Rescuers at the site. (April 19. 1995, X)"),
            day("1995-04-19")
        );
        // A dateline with no year anywhere is no date; a copyright's year is not one.
        assert_eq!(
            value("KABUL, AFGHANISTAN - JAN 12: A vendor waits. © 2019 X"),
            None
        );
        assert_eq!(value("Sudan, 2021: A girl carries water."), year("2021"));
        assert_eq!(
            value("A girl carries water near Kassala. Sudan. 2021."),
            year("2021")
        );
    }

    #[test]
    fn background_dates_are_not_the_scene() {
        assert_eq!(
            value("The girl, who was found in May 2019, plays in Idlib on June 2, 2020."),
            day("2020-06-02")
        );
        assert_eq!(
            value("Families have sheltered in Rafah since October 7, 2023. Rafah. 2024."),
            year("2024")
        );
        assert_eq!(
            value("Families have sheltered in Rafah since the storm struck in June 2021."),
            None
        );
        assert_eq!(
            value("A man whose house was hit waits in Mosul on June 2, 2017."),
            day("2017-06-02")
        );
    }

    #[test]
    fn the_scene_is_the_later_date_after_a_side_clause() {
        assert_eq!(
            value(
                "After the flood of May 2, 2019, families bail out homes in Beira on May 6, 2019."
            ),
            day("2019-05-06")
        );
        assert_eq!(
            value("A girl freed on January 4, 2017 plays at home in Mosul on February 2, 2017."),
            day("2017-02-02")
        );
        // The scene's own date first stays the date.
        assert_eq!(
            value("Men sweep glass on March 3, 2018, a day after the raid of March 2, 2018."),
            day("2018-03-03")
        );
        // A closing date in brackets, whatever the sentence it is glued to says.
        assert_eq!(
            value("A man waits. His son, who was taken, never came home.\" (10/21/2016)"),
            day("2016-10-21")
        );
        // A side clause's date alone is still the only date given.
        assert_eq!(
            value("After the flood of May 2, 2019, families bail out homes in Beira."),
            day("2019-05-02")
        );
        // A Getty dateline, its year at the end of the text.
        assert_eq!(
            value(
                "ODESA, UKRAINE - APRIL 2: A man walks past a burnt bus in Odesa, Ukraine, 2015."
            ),
            day("2015-04-02")
        );
    }

    #[test]
    fn other_languages() {
        assert_eq!(
            value("Des enfants jouent dans une rue d'Alep, le 3 mars 2015. (AFP / X)"),
            day("2015-03-03")
        );
        assert_eq!(
            value("Montréal (Québec), 1er juin 2018 | Une rue."),
            day("2018-06-01")
        );
        assert_eq!(
            value("Des soldats en patrouille près de Gao, en février 2020."),
            Some(("2020-02".into(), Precision::Month))
        );
        assert_eq!(
            value("Un hombre camina en Mosul, el sábado 2 de julio de 2016. EFE/X"),
            day("2016-07-02")
        );
        assert_eq!(
            value("Una calle de Kiev en marzo de 2022."),
            Some(("2022-03".into(), Precision::Month))
        );
        assert_eq!(
            value("Ein Mann steht am 3. März 2022 vor seinem Haus in Butscha."),
            day("2022-03-03")
        );
        assert_eq!(
            value("Aufgenommen am 14. Oktober 2023 in Sderot."),
            day("2023-10-14")
        );
        assert_eq!(value("رجل يسير في حمص - 12 مارس 2017."), day("2017-03-12"));
        assert_eq!(value("أطفال في إدلب، 5 آذار/مارس 2020"), day("2020-03-05"));
        assert_eq!(
            value("أطفال في إدلب، \u{665} تشرين الأول \u{662}\u{660}\u{661}\u{669}"),
            day("2019-10-05")
        );
        assert_eq!(
            value("أطفال في إدلب، \u{6f5} أيار \u{6f2}\u{6f0}\u{6f1}\u{6f9}"),
            day("2019-05-05")
        );
        assert_eq!(
            value("Une rue d'Alep, le 3 nov. 2016. (AFP / X)"),
            day("2016-11-03")
        );
        assert_eq!(
            value("Ein Markt in Kiew, 24. Nov. 2022."),
            day("2022-11-24")
        );
        assert_eq!(
            value("Ein Markt in Kiew, 24. November 2022."),
            day("2022-11-24")
        );
        assert_eq!(
            value("Un mercado en Gaza, 3 de ABRIL de 2024."),
            day("2024-04-03")
        );
        // A day without a year is no date.
        assert_eq!(value("Une rue d'Alep, le 3 mars. (AFP / X)"), None);
        assert_eq!(value("Ein Mann steht am 3. März vor seinem Haus."), None);
    }

    #[test]
    fn years_are_ascii_digits() {
        // Arabic-Indic digits: "in 20٢٣" was read as the year "20٢٣".
        assert_eq!(value("Seen in Homs in 20\u{662}\u{663}."), None);
        assert_eq!(value("Seen in Homs on June 5, 2\u{660}14."), None);
        assert_eq!(
            value("Seen in Homs in 2023."),
            Some(("2023".into(), Precision::Year))
        );
    }

    proptest::proptest! {
        /// Skipping text without four digits in a row loses no date.
        #[test]
        fn the_digit_check_loses_no_date(
            parts in proptest::collection::vec(proptest::sample::select(vec![
                "in ", "during ", " - ", "June ", "Sept. ", "5 ", "12th ", "2014", "201", "1999",
                "20", "14", "-", "/", "3/4/", "2020-01-02", ", ", "Homs ", "\u{663}", "x",
                "May", "7", "0", " ", ".",
            ]), 0..14)
        ) {
            let text: String = parts.concat();
            let all = find_all(&text);
            let scanned = scan(&text);
            proptest::prop_assert_eq!(all.len(), scanned.len());
            for (a, b) in all.iter().zip(&scanned) {
                proptest::prop_assert_eq!((&a.value, a.span), (&b.value, b.span));
            }
        }
    }

    proptest::proptest! {
        /// Choosing never cuts text inside a character, whatever marks stand around
        /// the dates.
        #[test]
        fn choosing_never_panics(
            parts in proptest::collection::vec(proptest::sample::select(vec![
                "JANUARY 5, 2020", " — ", "—", "، ", "،", "5 مارس 2017", " since ", " who was seen in ",
                "le 3 mars 2015", "(", "|", "é", ", ", ". ", "Homs", " on ", "2019", "©", ":",
                "am 4. März 2022", "\u{662}\u{660}\u{661}\u{669}", " - ", "MAY 9:",
            ]), 0..12)
        ) {
            let text: String = parts.concat();
            let s = sentences(&text);
            let d = choose(&text, &s, None, &mut Vec::new());
            if let Some(d) = d {
                proptest::prop_assert_eq!(&text[d.span.start..d.span.end], d.text);
            }
        }
    }

    proptest::proptest! {
        /// Trying only the languages whose month names the text holds loses no date.
        #[test]
        fn the_language_check_loses_no_date(
            parts in proptest::collection::vec(proptest::sample::select(vec![
                "le ", "1er ", "3 ", "24. ", "de ", "del ", "Nov. ", "nov. ", "novembre ",
                "noviembre ", "November ", "März ", "mars ", "Mars", "mai ", "main ", "julio ",
                "Juli ", "أبريل ", "تموز/يوليو ", "\u{662}\u{664} ", "2016", "en ", "im ",
                "في ", "x", " ", ", ", "ABRIL ", "Okt. ", "déc. ", "AOÛT ", "MÄRZ ",
            ]), 0..10)
        ) {
            let text: String = parts.concat();
            let gated: Vec<_> = scan(&text).into_iter().map(|d| (d.value, d.span)).collect();
            let all: Vec<_> = scan_languages(&text, u8::MAX)
                .into_iter()
                .map(|d| (d.value, d.span))
                .collect();
            proptest::prop_assert_eq!(gated, all);
        }
    }

    #[test]
    fn scene_beats_publication_and_background() {
        assert_eq!(
            value(
                "A boy in Aleppo, Oct. 2, 2012. (Manu Brabo, Associated Press - October 3, 2012)"
            ),
            day("2012-10-02")
        );
        assert_eq!(
            value("A boy in Aleppo. (Manu Brabo, Associated Press - October 3, 2012)"),
            day("2012-10-03")
        );
        assert_eq!(
            value(
                "Mourners carry a coffin in Gaza. He was the brother of a man who died in combat on August 24, 2014."
            ),
            None
        );
        // The war's or the disaster's start, told after the scene, is background.
        assert_eq!(
            value("Soldiers rest near Izium. Russia invaded Ukraine on 24 February 2022."),
            None
        );
        assert_eq!(
            value(
                "Rescuers dig in Adiyaman. The earthquake struck the region on February 6, 2023."
            ),
            None
        );
    }
}
