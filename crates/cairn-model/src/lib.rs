//! The caption record and the small types every stage of cairn shares.
//!
//! This crate is the contract between stages: readers produce [`Document`]s,
//! segmentation produces [`Segment`]s, extraction produces [`Record`]s. It holds
//! data only (serde), no behaviour that needs IO or another crate of ours.
#![warn(missing_docs)]

use serde::{Deserialize, Serialize};

/// A half-open byte range `[start, end)` into some UTF-8 text, serialised as `[start, end]`.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, Default,
)]
#[serde(from = "[usize; 2]", into = "[usize; 2]")]
pub struct Span {
    /// First byte of the range.
    pub start: usize,
    /// One past the last byte of the range.
    pub end: usize,
}

impl Span {
    /// A span from `start` to `end`.
    pub fn new(start: usize, end: usize) -> Self {
        debug_assert!(start <= end, "span start {start} after end {end}");
        Span { start, end }
    }
    /// Number of bytes covered.
    pub fn len(&self) -> usize {
        self.end - self.start
    }
    /// Whether the span covers nothing.
    pub fn is_empty(&self) -> bool {
        self.end == self.start
    }
    /// The span moved right by `by` bytes.
    pub fn shift(self, by: usize) -> Self {
        Span::new(self.start + by, self.end + by)
    }
    /// The text the span covers, if it lies on character boundaries inside `text`.
    pub fn slice<'a>(&self, text: &'a str) -> Option<&'a str> {
        text.get(self.start..self.end)
    }
}

impl From<[usize; 2]> for Span {
    fn from(a: [usize; 2]) -> Self {
        Span {
            start: a[0],
            end: a[1].max(a[0]),
        }
    }
}

impl From<Span> for [usize; 2] {
    fn from(s: Span) -> Self {
        [s.start, s.end]
    }
}

/// What kind of input a source was read as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SourceKind {
    /// Plain text, captions separated by blank lines.
    Text,
    /// An HTML page.
    Html,
    /// A record inside a WARC file.
    Warc,
    /// A line of a JSON Lines file.
    Jsonl,
    /// An image with embedded IPTC/XMP metadata.
    Image,
}

impl SourceKind {
    /// The lowercase name stored in the archive.
    pub fn as_str(&self) -> &'static str {
        match self {
            SourceKind::Text => "text",
            SourceKind::Html => "html",
            SourceKind::Warc => "warc",
            SourceKind::Jsonl => "jsonl",
            SourceKind::Image => "image",
        }
    }
    /// Parses the name stored in the archive.
    pub fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "text" => SourceKind::Text,
            "html" => SourceKind::Html,
            "warc" => SourceKind::Warc,
            "jsonl" => SourceKind::Jsonl,
            "image" => SourceKind::Image,
            _ => return None,
        })
    }
}

/// A caption's place in a document: its span in the document text and the caption text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Segment {
    /// Byte range in the document's decoded text.
    pub span: Span,
    /// The caption text with whitespace runs folded to one space.
    pub text: String,
}

/// One input document as read from a source, before segmentation.
#[derive(Debug, Clone)]
pub struct Document {
    /// Where it came from (`file:///...`, `stdin:`, a WARC target URI...).
    pub uri: String,
    /// How it was read.
    pub kind: SourceKind,
    /// The exact bytes of the source, kept in the archive.
    pub bytes: Vec<u8>,
    /// Lowercase hex sha256 of `bytes`.
    pub sha256: String,
    /// The decoded text that spans refer to.
    pub text: String,
    /// The character encoding the bytes were decoded from (`utf-8`, `utf-16le`...).
    pub encoding: String,
    /// Captions the reader already found (HTML, images...); `None` means "segment the text by blank lines".
    pub segments: Option<Vec<Segment>>,
    /// Problems met while reading that did not stop it.
    pub warnings: Vec<String>,
    /// Where inside a container it came from (JSON: WARC file, offset, date...).
    pub origin: Option<String>,
    /// Caption fields carried by the source itself (IPTC/XMP, JSON Lines fields); they
    /// take precedence over what extraction finds in the text.
    pub embedded: Option<Embedded>,
}

/// Caption fields a source carries beside its text (an image's IPTC-IIM or XMP, the
/// fields of a JSON Lines object).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Embedded {
    /// Caption-Abstract (IIM 2:120) or dc:description.
    pub caption: Option<String>,
    /// By-line (2:80) or dc:creator.
    pub byline: Vec<String>,
    /// Credit (2:110) or photoshop:Credit.
    pub credit: Option<String>,
    /// Source (2:115) or photoshop:Source.
    pub source: Option<String>,
    /// Date Created (2:55) or photoshop:DateCreated, as `YYYY-MM-DD` (or shorter).
    pub date: Option<String>,
    /// City (2:90) or photoshop:City.
    pub city: Option<String>,
    /// Province-State (2:95) or photoshop:State.
    pub state: Option<String>,
    /// Country name (2:101) or photoshop:Country.
    pub country: Option<String>,
    /// Country code (2:100) or Iptc4xmpCore:CountryCode.
    pub country_code: Option<String>,
}

/// The structured record of one caption (see `spec/caption-record.md`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct Record {
    /// The caption with whitespace runs folded to one space.
    pub text: String,
    /// The credit line, if any.
    pub credit: Option<Credit>,
    /// When the photograph was taken or the scene happened.
    pub date: Option<DateValue>,
    /// The most specific place of the scene.
    pub location: Option<Place>,
    /// Every place mentioned, in text order.
    pub places: Vec<Place>,
    /// Casualties of the event shown.
    pub casualties: Casualties,
    /// Named people (not the photographer).
    pub persons: Vec<String>,
    /// Named organisations (not the credit's agency).
    pub organizations: Vec<String>,
    /// ACLED sub-event types.
    pub event_types: Vec<String>,
    /// To whom the caption attributes its claims.
    pub sources: Vec<String>,
    /// What could not be resolved.
    pub warnings: Vec<String>,
    /// The caption's language, ISO 639-1 (`en`, `fr`, `es`, `ar`, `de`), when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lang: Option<String>,
}

/// What a credit says about how the photograph reached the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CreditFlag {
    /// Released by the body it shows or by one that is party to it (`SANA/Handout`).
    Handout,
    /// Shot by a pool photographer for several outlets.
    Pool,
    /// An archive picture (`(AP Photo/Name, File)`).
    File,
    /// A local freelance the agency does not name (`REUTERS/Stringer`, `STR/AFP`).
    Stringer,
}

impl CreditFlag {
    /// The lowercase name.
    pub fn as_str(&self) -> &'static str {
        match self {
            CreditFlag::Handout => "handout",
            CreditFlag::Pool => "pool",
            CreditFlag::File => "file",
            CreditFlag::Stringer => "stringer",
        }
    }
}

/// A credit line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Credit {
    /// The credit as written.
    pub raw: String,
    /// People who took the photograph.
    pub photographers: Vec<String>,
    /// The organisation the photographer shot for.
    pub agency: Option<String>,
    /// The organisation that passed it on.
    pub distributor: Option<String>,
    /// Where `raw` stands in the text.
    pub span: Span,
    /// Handout, pool, file or stringer, as the credit states them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub flags: Vec<CreditFlag>,
}

/// How precise a date is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Precision {
    /// A calendar day.
    Day,
    /// A month.
    Month,
    /// A year.
    Year,
}

impl Precision {
    /// The lowercase name.
    pub fn as_str(&self) -> &'static str {
        match self {
            Precision::Day => "day",
            Precision::Month => "month",
            Precision::Year => "year",
        }
    }
}

/// A date cut to its precision.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DateValue {
    /// ISO 8601 cut to the precision: `2016-11-06`, `2016-11`, `2016`.
    pub value: String,
    /// How much of `value` is known.
    pub precision: Precision,
    /// The words it was read from.
    pub text: String,
    /// Where `text` stands.
    pub span: Span,
}

/// What sort of place a gazetteer entry is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PlaceKind {
    /// A square, street, building.
    Point,
    /// A part of a town.
    Neighbourhood,
    /// Any populated place.
    Town,
    /// A second-level administrative division.
    Admin2,
    /// A first-level administrative division (province, governorate, state).
    Admin1,
    /// A named region that is not an administrative unit (Eastern Ghouta).
    Region,
    /// A country.
    Country,
}

impl PlaceKind {
    /// The lowercase name.
    pub fn as_str(&self) -> &'static str {
        match self {
            PlaceKind::Point => "point",
            PlaceKind::Neighbourhood => "neighbourhood",
            PlaceKind::Town => "town",
            PlaceKind::Admin2 => "admin2",
            PlaceKind::Admin1 => "admin1",
            PlaceKind::Region => "region",
            PlaceKind::Country => "country",
        }
    }
    /// Parses the lowercase name.
    pub fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "point" => PlaceKind::Point,
            "neighbourhood" => PlaceKind::Neighbourhood,
            "town" => PlaceKind::Town,
            "admin2" => PlaceKind::Admin2,
            "admin1" => PlaceKind::Admin1,
            "region" => PlaceKind::Region,
            "country" => PlaceKind::Country,
            _ => return None,
        })
    }
    /// Smaller is more specific.
    pub fn specificity_rank(&self) -> u8 {
        match self {
            PlaceKind::Point => 0,
            PlaceKind::Neighbourhood => 1,
            PlaceKind::Town => 2,
            PlaceKind::Admin2 => 3,
            PlaceKind::Region => 4,
            PlaceKind::Admin1 => 5,
            PlaceKind::Country => 6,
        }
    }
}

/// A place mention resolved against the gazetteer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Place {
    /// The gazetteer's name for it.
    pub name: String,
    /// The words of the caption.
    pub text: String,
    /// Latitude in degrees (WGS84).
    pub lat: f64,
    /// Longitude in degrees (WGS84).
    pub lon: f64,
    /// What sort of place.
    pub kind: PlaceKind,
    /// Name of the first-level administrative division it lies in.
    pub admin1: Option<String>,
    /// ISO 3166-1 alpha-2 country code.
    pub country: Option<String>,
    /// `geonames:ID` or `cairn:slug`.
    pub gazetteer_id: Option<String>,
    /// Where `text` stands.
    pub span: Span,
    /// Ids of the places enclosing it, outermost first (country, admin1, town...).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub within: Vec<String>,
    /// How sure the choice of this place as the scene is (set on `location` only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confidence: Option<Confidence>,
    /// The words that made it the scene (`in Douma, Syria`; set on `location` only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// How sure a choice is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Confidence {
    /// A guess: the only place named, or one named as an origin.
    Low,
    /// A place the sentence sets the scene in, without a dateline or country.
    Medium,
    /// A dateline or `in X, Country`.
    High,
}

impl Confidence {
    /// The lowercase name.
    pub fn as_str(&self) -> &'static str {
        match self {
            Confidence::Low => "low",
            Confidence::Medium => "medium",
            Confidence::High => "high",
        }
    }
}

/// Casualty counts; a key is `null` when the caption gives none.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Casualties {
    /// People killed.
    pub killed: Option<Count>,
    /// People injured.
    pub injured: Option<Count>,
}

/// A count with its hedge.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Count {
    /// The lowest value the words allow.
    pub low: u32,
    /// The highest value, or `null` when open-ended ("at least").
    pub high: Option<u32>,
    /// The words it was read from.
    pub text: String,
    /// Where `text` stands.
    pub span: Span,
}

/// Abbreviations after which a period does not end a sentence.
const ABBREVIATIONS: &[&str] = &[
    "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec", "mr",
    "mrs", "ms", "dr", "st", "gen", "lt", "col", "sgt", "capt", "maj", "rep", "sen", "gov", "pres",
    "prof", "jr", "sr", "no", "vs", "etc", "inc", "co", "corp", "mt", "ft", "ave", "rev", "u.s",
    "u.n", "u.k", "a.m", "p.m", "d.c", "n.y", "l.a", "e.u",
];

/// Sentence spans of `text`: a sentence ends at `.`, `!` or `?` followed by a space and an
/// upper-case letter, a digit, a quote or an opening parenthesis, unless the period closes
/// an abbreviation or an initial.
pub fn sentences(text: &str) -> Vec<Span> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if matches!(c, b'.' | b'!' | b'?') && i + 2 < b.len() && b[i + 1] == b' ' {
            let next = text[i + 2..].chars().next().unwrap_or(' ');
            let starts_new = next.is_uppercase()
                || next.is_ascii_digit()
                || matches!(next, '"' | '“' | '(' | '\'' | '‘');
            let word_start = text[..i]
                .rfind(|ch: char| ch.is_whitespace() || ch == '(')
                .map(|p| p + 1)
                .unwrap_or(0);
            let word = text[word_start..i].to_ascii_lowercase();
            let abbrev = c == b'.'
                && (ABBREVIATIONS.contains(&word.as_str())
                    || (word.chars().count() == 1 && word.chars().all(char::is_alphabetic)));
            if starts_new && !abbrev {
                out.push(Span::new(start, i + 1));
                start = i + 2;
                i += 2;
                continue;
            }
        }
        i += 1;
    }
    if start < text.len() {
        out.push(Span::new(start, text.len()));
    }
    out
}

/// Folds every whitespace run to one space and trims both ends: the `text` convention
/// of the record ("whitespace runs folded to one space, nothing else changed").
pub fn fold_whitespace(s: &str) -> String {
    if !s.is_ascii() {
        return fold_unicode_whitespace(s);
    }
    // ASCII text (most captions): bytes. The whitespace set is `char::is_whitespace`'s
    // for ASCII (vertical tab included). Text already folded (most of it) is copied.
    let is_space = |b: u8| matches!(b, b'\t' | b'\n' | b'\x0B' | b'\x0C' | b'\r' | b' ');
    let mut after_space = true;
    let mut folded = true;
    for b in s.bytes() {
        if b == b' ' {
            folded &= !after_space;
            after_space = true;
        } else {
            folded &= !is_space(b);
            after_space = false;
        }
    }
    if folded && (!after_space || s.is_empty()) {
        return s.to_owned();
    }
    let mut out = String::with_capacity(s.len());
    let mut gap = false;
    for b in s.bytes() {
        if is_space(b) {
            gap = !out.is_empty();
        } else {
            if gap {
                out.push(' ');
                gap = false;
            }
            out.push(char::from(b));
        }
    }
    out
}

/// [`fold_whitespace`] for any text.
fn fold_unicode_whitespace(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for word in s.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The ASCII path folds as the general one does, and folding twice changes
        /// nothing.
        #[test]
        fn whitespace_folds_the_same_on_both_paths(
            s in prop_oneof![
                "[ \t\n\r\x0B\x0Ca-c.]{0,40}",
                "[ \t\na-c\u{a0}\u{2003}é]{0,40}",
            ]
        ) {
            let folded = fold_whitespace(&s);
            prop_assert_eq!(&folded, &fold_unicode_whitespace(&s));
            prop_assert_eq!(fold_whitespace(&folded), folded.clone());
            if s.is_ascii() {
                prop_assert_eq!(folded, s.split_whitespace().collect::<Vec<_>>().join(" "));
            }
        }
    }

    #[test]
    fn sentence_split_respects_abbreviations() {
        let t = "A man in Nov. 6, 2016 walks. He runs past J. Smith. (Photo by X/AFP)";
        let s: Vec<&str> = sentences(t).iter().map(|s| &t[s.start..s.end]).collect();
        assert_eq!(
            s,
            vec![
                "A man in Nov. 6, 2016 walks.",
                "He runs past J. Smith.",
                "(Photo by X/AFP)"
            ]
        );
    }

    #[test]
    fn span_serialises_as_pair() {
        let s = Span::new(3, 9);
        assert_eq!(serde_json::to_string(&s).unwrap(), "[3,9]");
        let back: Span = serde_json::from_str("[3,9]").unwrap();
        assert_eq!(back, s);
    }

    #[test]
    fn empty_record_has_null_casualty_keys() {
        let r = Record {
            text: "x".into(),
            ..Default::default()
        };
        let v = serde_json::to_value(&r).unwrap();
        assert!(v["casualties"]["killed"].is_null());
        assert!(v["credit"].is_null());
        assert_eq!(v["places"], serde_json::json!([]));
    }
}
