//! What the index holds for each caption: its fields, the analyzers they are read
//! with, and the day numbers dates are indexed as.

use cairn_model::Precision;
use tantivy::schema::{
    FAST, FacetOptions, Field, INDEXED, IndexRecordOption, STORED, STRING, Schema,
    TextFieldIndexing, TextOptions,
};

use crate::days::epoch_days;
use crate::{Error, Result};

/// Bumped when the index schema or an analyzer changes; an index of another version is
/// rebuilt.
pub(crate) const SCHEMA_VERSION: u32 = 12;
/// The `text` field's analyzer: words lowercased, accents folded, nothing stemmed.
pub(crate) const TOKENIZER: &str = "cairn";
/// The `pairs` field's tokenizer, which the analyzers module registers under this name.
pub(crate) const PAIR_TOKENIZER: &str = "cairn_pairs";

/// The languages whose captions are also indexed stemmed (ISO 639-1), each in a field
/// `text_{code}` read with the analyzer `cairn_{code}`.
pub(crate) const LANGS: [&str; 10] = ["en", "fr", "es", "de", "ar", "ru", "uk", "it", "pt", "tr"];

#[derive(Debug, Clone, Copy)]
pub(crate) struct Fields {
    pub id: Field,
    pub text: Field,
    /// Each pair of neighbouring words of the text as one term (`car bomb`), so an
    /// exact phrase is a term lookup instead of a walk through word positions.
    pub pairs: Field,
    /// The text once more, stemmed in its own language, in the field of that
    /// language (in [`LANGS`] order); a caption of another language has none.
    pub text_lang: [Field; LANGS.len()],
    // Lowercase exact values, for filters.
    pub k_agency: Field,
    pub k_photographer: Field,
    pub k_country: Field,
    pub k_event: Field,
    pub k_lang: Field,
    pub k_review: Field,
    // Display values, for facet counts.
    pub f_agency: Field,
    pub f_photographer: Field,
    pub f_country: Field,
    pub f_event: Field,
    pub f_year: Field,
    pub f_place: Field,
    pub f_lang: Field,
    pub f_review: Field,
    pub date_start: Field,
    pub date_end: Field,
    pub killed: Field,
    pub lat: Field,
    pub lon: Field,
    /// The gazetteer ids of the places the caption names, whatever its spelling of
    /// them, so a place's name in a query finds the captions naming it in any other.
    pub k_named: Field,
    /// Each place the caption names with the words it names it by
    /// ([`super::spellings`]), so that a place's name in a query finds every caption
    /// writing any spelling the archive knows it by, named as a place or not.
    pub k_spelled: Field,
}

fn words_with_positions(tokenizer: &str) -> TextOptions {
    TextOptions::default().set_indexing_options(
        TextFieldIndexing::default()
            .set_tokenizer(tokenizer)
            .set_index_option(IndexRecordOption::WithFreqsAndPositions),
    )
}

/// The analyzer name of a language's field.
pub(crate) fn lang_tokenizer(code: &str) -> String {
    format!("cairn_{code}")
}

pub(crate) fn schema() -> (Schema, Fields) {
    let mut b = Schema::builder();
    let id = b.add_u64_field("id", INDEXED | STORED | FAST);
    let text = b.add_text_field("text", words_with_positions(TOKENIZER));
    let pairs = b.add_text_field(
        "pairs",
        TextOptions::default().set_indexing_options(
            TextFieldIndexing::default()
                .set_tokenizer(PAIR_TOKENIZER)
                .set_index_option(IndexRecordOption::WithFreqs),
        ),
    );
    let text_lang = LANGS.map(|code| {
        b.add_text_field(
            &format!("text_{code}"),
            words_with_positions(&lang_tokenizer(code)),
        )
    });
    let facet = || FacetOptions::default();
    let f = Fields {
        id,
        text,
        pairs,
        text_lang,
        k_agency: b.add_text_field("agency", STRING),
        k_photographer: b.add_text_field("photographer", STRING),
        k_country: b.add_text_field("country", STRING),
        k_event: b.add_text_field("event", STRING),
        k_lang: b.add_text_field("lang", STRING),
        k_review: b.add_text_field("review", STRING),
        f_agency: b.add_facet_field("f_agency", facet()),
        f_photographer: b.add_facet_field("f_photographer", facet()),
        f_country: b.add_facet_field("f_country", facet()),
        f_event: b.add_facet_field("f_event", facet()),
        f_year: b.add_facet_field("f_year", facet()),
        f_place: b.add_facet_field("f_place", facet()),
        f_lang: b.add_facet_field("f_lang", facet()),
        f_review: b.add_facet_field("f_review", facet()),
        date_start: b.add_i64_field("date_start", INDEXED | FAST),
        date_end: b.add_i64_field("date_end", INDEXED | FAST),
        killed: b.add_i64_field("killed", INDEXED | FAST),
        lat: b.add_f64_field("lat", INDEXED | FAST),
        lon: b.add_f64_field("lon", INDEXED | FAST),
        k_named: b.add_text_field("named", STRING),
        k_spelled: b.add_text_field("spelled", STRING),
    };
    (b.build(), f)
}

/// The first and last day a record's date covers (a month covers all its days).
pub(crate) fn date_extent(value: &str, precision: Precision) -> Option<(i64, i64)> {
    let parts: Vec<&str> = value.split('-').collect();
    let y: i16 = parts.first()?.parse().ok()?;
    let (start, end) = match precision {
        Precision::Day => {
            let d: jiff::civil::Date = value.parse().ok()?;
            (d, d)
        }
        Precision::Month => {
            let m: i8 = parts.get(1)?.parse().ok()?;
            let s = jiff::civil::Date::new(y, m, 1).ok()?;
            (s, s.last_of_month())
        }
        Precision::Year => (
            jiff::civil::Date::new(y, 1, 1).ok()?,
            jiff::civil::Date::new(y, 12, 31).ok()?,
        ),
    };
    Some((epoch_days(start), epoch_days(end)))
}

/// A date filter bound: `2016`, `2016-11` or `2016-11-06`; `end` picks the last day.
pub(crate) fn parse_bound(s: &str, end: bool) -> Result<i64> {
    let bad = || {
        Error::Query(format!(
            "{s:?} is not a date (use YYYY, YYYY-MM or YYYY-MM-DD)"
        ))
    };
    let precision = match s.len() {
        4 => Precision::Year,
        7 => Precision::Month,
        10 => Precision::Day,
        _ => return Err(bad()),
    };
    let (a, b) = date_extent(s, precision).ok_or_else(bad)?;
    Ok(if end { b } else { a })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn month_covers_its_days() {
        let (a, b) = date_extent("2016-11", Precision::Month).unwrap();
        assert_eq!(a, parse_bound("2016-11-01", false).unwrap());
        assert_eq!(b, parse_bound("2016-11-30", true).unwrap());
        assert_eq!(b - a, 29);
        assert!(parse_bound("2016-13", false).is_err());
        assert!(parse_bound("yesterday", false).is_err());
    }
}
