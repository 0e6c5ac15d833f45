//! The captions of a whole document: which of its paragraphs or reader segments are
//! captions, their records, and the fields the source carries itself (IPTC/XMP, JSON
//! Lines) applied over what the text says. Used by `cairn ingest`, `cairn extract` and
//! the Python module alike, so all three give the same records.

use cairn_model::{Credit, DateValue, Embedded, Precision, Record, Segment, Span};

use crate::Extractor;
use crate::placeholder::{Placeholder, placeholder};

/// The captions of a document with their records, and what was skipped.
#[derive(Debug, Clone, Default)]
pub struct DocumentCaptions {
    /// Each caption with its record, in order.
    pub captions: Vec<(Segment, Record)>,
    /// Paragraphs left out (too long, or placeholder text), one message each.
    pub warnings: Vec<String>,
}

impl Extractor {
    /// Finds the captions of a document (the segments its reader found, else the
    /// paragraphs of `text`) and extracts each; fields the source carries itself
    /// (`embedded`) take precedence over the text's, which stay in the record's warnings.
    pub fn document(
        &self,
        segments: Option<Vec<Segment>>,
        text: &str,
        embedded: Option<&Embedded>,
    ) -> DocumentCaptions {
        let (segments, warnings) = document_segments(segments, text);
        let captions = segments
            .into_iter()
            .map(|seg| {
                let record = self.caption_record(&seg.text, embedded);
                (seg, record)
            })
            .collect();
        DocumentCaptions { captions, warnings }
    }

    /// The record of one caption of a document whose source carries `embedded` fields
    /// (what [`Extractor::document`] gives for it).
    pub fn caption_record(&self, caption: &str, embedded: Option<&Embedded>) -> Record {
        let mut record = self.extract(caption);
        if let Some(e) = embedded {
            apply_embedded(&mut record, e, self);
        }
        record
    }
}

/// The captions of a document, as [`Extractor::document`] finds them, without their
/// records (a caller that has seen a caption's text before need not extract it again),
/// and a warning for each paragraph left out.
pub fn document_segments(
    segments: Option<Vec<Segment>>,
    text: &str,
) -> (Vec<Segment>, Vec<String>) {
    let (segments, left_out) = caption_segments(segments, text);
    let warnings = left_out.iter().map(warning).collect();
    (segments, warnings)
}

/// Why a paragraph of a document is not one of its captions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LeftOut {
    /// Longer than [`MAX_CAPTION_BYTES`].
    TooLong,
    /// Text standing where a caption should be that says nothing of a photograph.
    Placeholder(Placeholder),
}

/// The warning that names a paragraph left out, its span and why.
fn warning((seg, why): &(Segment, LeftOut)) -> String {
    let (start, end) = (seg.span.start, seg.span.end);
    match why {
        LeftOut::TooLong => format!(
            "a paragraph of {} bytes at {start}..{end} is too long to be a caption (limit {MAX_CAPTION_BYTES}); skipped",
            seg.text.len()
        ),
        LeftOut::Placeholder(p) => format!(
            "the paragraph {:?} at {start}..{end} is placeholder text ({}), not a caption; kept with the source, not extracted",
            seg.text,
            p.describe()
        ),
    }
}

/// Applies the fields a source carries itself (IPTC/XMP, JSON Lines) to a record
/// extracted from its text: they take precedence; where the text says otherwise, both
/// are kept (the record's warnings name what the text said).
fn apply_embedded(record: &mut Record, e: &Embedded, extractor: &Extractor) {
    apply_embedded_credit(record, e);
    apply_embedded_date(record, e);
    apply_embedded_place(record, e, extractor);
}

/// The embedded By-line, Credit and Source over the text's credit.
fn apply_embedded_credit(record: &mut Record, e: &Embedded) {
    // An embedded field has no position in the text.
    let no_span = Span::new(0, 0);
    if !e.byline.is_empty() || e.credit.is_some() || e.source.is_some() {
        let credit = record.credit.get_or_insert_with(|| Credit {
            raw: String::new(),
            photographers: Vec::new(),
            agency: None,
            distributor: None,
            span: no_span,
            flags: Vec::new(),
        });
        if !e.byline.is_empty() && credit.photographers != e.byline {
            if !credit.photographers.is_empty() {
                record.warnings.push(format!(
                    "embedded By-line {:?} differs from the text's credit {:?}; the embedded one is used",
                    e.byline, credit.photographers
                ));
            }
            credit.photographers = e.byline.clone();
        }
        if let Some(agency) = e.credit.as_ref().or(e.source.as_ref()) {
            if credit.agency.as_deref() != Some(agency.as_str()) {
                if let Some(old) = &credit.agency {
                    record.warnings.push(format!(
                        "embedded Credit {agency:?} differs from the text's agency {old:?}; the embedded one is used"
                    ));
                }
                credit.agency = Some(agency.clone());
            }
        }
        if let (Some(src), Some(cr)) = (&e.source, &e.credit) {
            if src != cr && credit.distributor.is_none() {
                credit.distributor = Some(src.clone());
            }
        }
    }
}

/// The embedded date over the text's, when it is a year, a month or a day.
fn apply_embedded_date(record: &mut Record, e: &Embedded) {
    // An embedded field has no position in the text.
    let no_span = Span::new(0, 0);
    if let Some(d) = &e.date {
        let precision = match d.len() {
            4 => Some(Precision::Year),
            7 => Some(Precision::Month),
            10 => Some(Precision::Day),
            _ => None,
        };
        if let Some(precision) = precision {
            if record.date.as_ref().map(|x| &x.value) != Some(d) {
                if let Some(old) = &record.date {
                    record.warnings.push(format!(
                        "embedded date {d} differs from the text's date {}; the embedded one is used",
                        old.value
                    ));
                }
                record.date = Some(DateValue {
                    value: d.clone(),
                    precision,
                    text: String::new(),
                    span: no_span,
                });
            }
        }
    }
}

/// The embedded city (or state) and country, resolved as the text's would be, over
/// the text's location.
fn apply_embedded_place(record: &mut Record, e: &Embedded, extractor: &Extractor) {
    // An embedded field has no position in the text.
    let no_span = Span::new(0, 0);
    if let Some(city) = e.city.as_ref().or(e.state.as_ref()) {
        let country = e
            .country
            .as_deref()
            .or(e.country_code.as_deref())
            .unwrap_or("");
        let probe = if country.is_empty() {
            format!("In {city}.")
        } else {
            format!("In {city}, {country}.")
        };
        if let Some(mut place) = extractor.extract(&probe).location {
            if record
                .location
                .as_ref()
                .and_then(|l| l.gazetteer_id.as_ref())
                != place.gazetteer_id.as_ref()
            {
                if let Some(old) = &record.location {
                    record.warnings.push(format!(
                        "embedded place {city:?} differs from the text's location {:?}; the embedded one is used",
                        old.name
                    ));
                }
                place.text = String::new();
                place.span = no_span;
                record.location = Some(place);
            }
        }
    }
}

/// The longest text taken as one caption.
pub const MAX_CAPTION_BYTES: usize = 16 * 1024;

/// The captions of a document: the segments its reader found (HTML, images) or the
/// paragraphs of its text; then, apart, the paragraphs that are not captions and why:
/// too long (over [`MAX_CAPTION_BYTES`]: a dump, a log, a book), which are not
/// extracted so that extraction time and memory stay bounded, or placeholder text
/// (`N/A`, a lone date or credit), which would merge unrelated photographs.
pub fn caption_segments(
    segments: Option<Vec<Segment>>,
    text: &str,
) -> (Vec<Segment>, Vec<(Segment, LeftOut)>) {
    let mut captions = Vec::new();
    let mut left_out = Vec::new();
    for seg in segments.unwrap_or_else(|| crate::segment(text)) {
        let why = if seg.text.len() > MAX_CAPTION_BYTES {
            Some(LeftOut::TooLong)
        } else {
            placeholder(&seg.text).map(LeftOut::Placeholder)
        };
        match why {
            Some(why) => left_out.push((seg, why)),
            None => captions.push(seg),
        }
    }
    (captions, left_out)
}
