//! The captions of a whole document: which of its paragraphs or reader segments are
//! captions, their records, and the fields the source carries itself (IPTC/XMP, JSON
//! Lines) applied over what the text says. Used by `cairn ingest`, `cairn extract` and
//! the Python module alike, so all three give the same records.

use cairn_model::{Credit, DateValue, Embedded, Precision, Record, Segment, Span};

use crate::Extractor;

/// The captions of a document with their records, and what was skipped.
#[derive(Debug, Clone, Default)]
pub struct DocumentCaptions {
    /// Each caption with its record, in order.
    pub captions: Vec<(Segment, Record)>,
    /// Paragraphs left out (too long to be captions), one message each.
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
    let (segments, too_long) = caption_segments(segments, text);
    let warnings = too_long
        .iter()
        .map(|seg| {
            format!(
                "a paragraph of {} bytes at {}..{} is too long to be a caption (limit {MAX_CAPTION_BYTES}); skipped",
                seg.text.len(),
                seg.span.start,
                seg.span.end
            )
        })
        .collect();
    (segments, warnings)
}

/// Applies the fields a source carries itself (IPTC/XMP, JSON Lines) to a record
/// extracted from its text: they take precedence; where the text says otherwise, both
/// are kept (the record's warnings name what the text said).
fn apply_embedded(record: &mut Record, e: &Embedded, extractor: &Extractor) {
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
/// paragraphs of its text; then, apart, the paragraphs too long to be captions (over
/// [`MAX_CAPTION_BYTES`]: a dump, a log, a book), which are not extracted, so that
/// extraction time and memory stay bounded.
pub fn caption_segments(
    segments: Option<Vec<Segment>>,
    text: &str,
) -> (Vec<Segment>, Vec<Segment>) {
    segments
        .unwrap_or_else(|| crate::segment(text))
        .into_iter()
        .partition(|s| s.text.len() <= MAX_CAPTION_BYTES)
}
