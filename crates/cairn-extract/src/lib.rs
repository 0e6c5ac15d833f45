//! From caption text to structured record: segmentation of pages into captions, and
//! extraction of credit, date, places, casualties, people, organisations, event types
//! and sources, each with the byte span it was read from.
//!
//! Pure: no IO. The gazetteer is passed in.
#![warn(missing_docs)]

pub mod confidence;
mod credit;
mod date;
mod document;
mod entities;
mod lang;
mod placeholder;
mod places;
pub mod segment;
mod text;

use std::sync::Arc;

use cairn_gazetteer::Gazetteer;
use cairn_model::{Casualties, Record, Span, fold_whitespace};

pub use document::{
    DocumentCaptions, LeftOut, MAX_CAPTION_BYTES, caption_segments, document_segments,
};
pub use entities::event_type_names;
pub use placeholder::{Placeholder, placeholder};
pub use segment::segment;

/// Extracts records from caption texts. Cheap to clone and share between threads.
#[derive(Debug, Clone)]
pub struct Extractor {
    gazetteer: Arc<Gazetteer>,
}

impl Extractor {
    /// An extractor over a gazetteer.
    pub fn new(gazetteer: Arc<Gazetteer>) -> Self {
        Extractor { gazetteer }
    }

    /// An extractor over the bundled gazetteer.
    pub fn bundled() -> Self {
        Self::new(Gazetteer::bundled())
    }

    /// The gazetteer in use.
    pub fn gazetteer(&self) -> &Gazetteer {
        &self.gazetteer
    }

    /// The record of one caption. Spans are byte offsets into the record's `text` (the
    /// caption with whitespace runs folded).
    pub fn extract(&self, caption: &str) -> Record {
        self.extract_with_evidence(caption).0
    }

    /// The record of one caption, and what the location's confidence model read of it
    /// ([`confidence::FEATURES`]; `None` without a location chosen by the scene rules):
    /// what the model is trained on.
    pub fn extract_with_evidence(&self, caption: &str) -> (Record, Option<Vec<f64>>) {
        let text = fold_whitespace(caption);
        let sentences = text::sentences(&text);
        let mut warnings = Vec::new();
        let mut mask = text::Mask::default();

        let credit = credit::find(&text);
        let credit_span = credit.as_ref().map(|c| c.credit.span);
        note_credit(credit.as_ref(), &text, &mut mask, &mut warnings);
        let date = date::choose(&text, &sentences, credit_span, &mut warnings);

        let mut orgs = entities::organizations(&text, &mask);
        orgs.retain(|(_, s)| !places::names_admin_unit(&self.gazetteer, &text, *s));
        mask_organizations(&text, &orgs, &mut mask);
        let photographers: Vec<String> = credit
            .as_ref()
            .map(|c| c.credit.photographers.clone())
            .unwrap_or_default();
        let mut persons = entities::persons(&text, &mask, &photographers);
        persons.retain(|(n, _)| !places::names_big_place(&self.gazetteer, n));
        for (_, s) in &persons {
            mask.add(*s);
        }
        let place_mask = unquoted(&mask, &text);
        let scene = scene_of(&sentences, credit_span, text.len());
        let found = places::Resolver::new(&self.gazetteer).find(&text, &place_mask, scene);
        warnings.extend(found.warnings);
        let mut credit_mask = text::Mask::default();
        if let Some(c) = credit_span {
            credit_mask.add(c);
        }
        let (killed, injured, cas_warnings) = entities::casualties(&text, &sentences, &credit_mask);
        warnings.extend(cas_warnings);
        let event_types = entities::event_types(&text[scene.start..scene.end]);
        let sources = entities::sources(&text, &orgs);

        let organizations = distinct_names(&orgs);
        let lang = lang::detect(&text).map(String::from);
        if found.location.is_none() && !text.is_empty() {
            warnings.push("no location found".to_string());
        }
        let record = Record {
            credit: credit.map(|c| c.credit),
            date,
            location: found.location,
            places: found.places,
            casualties: Casualties { killed, injured },
            persons: persons.into_iter().map(|(n, _)| n).collect(),
            organizations,
            event_types,
            sources: sources.into_iter().map(|(n, _)| n).collect(),
            warnings,
            text,
            lang,
        };
        (record, found.evidence)
    }
}

/// Masks the credit line found, and notes its warnings (or that there is none).
fn note_credit(
    credit: Option<&credit::Found>,
    text: &str,
    mask: &mut text::Mask,
    warnings: &mut Vec<String>,
) {
    match credit {
        Some(c) => {
            mask.add(c.credit.span);
            warnings.extend(c.warnings.iter().cloned());
        }
        None if !text.is_empty() => warnings.push("no credit line found".to_string()),
        None => {}
    }
}

/// Masks each organisation found, with the parenthesis after it when that is its
/// other name.
fn mask_organizations(text: &str, orgs: &[(String, Span)], mask: &mut text::Mask) {
    for (_, s) in orgs {
        mask.add(*s);
        // "Jaish al-Islam (Islam Army)", "Syrian Democratic Forces (SDF)": the
        // parenthesis is the organisation's other name.
        let after = &text[s.end..];
        if after.starts_with(" (") {
            if let Some(close) = after.find(')') {
                mask.add(Span::new(s.end, s.end + close + 1));
            }
        }
    }
}

/// `mask` with the quoted passages of `text` masked too (a place named in a quote
/// is not where the photo was taken).
fn unquoted(mask: &text::Mask, text: &str) -> text::Mask {
    let mut place_mask = mask.clone();
    for q in text::quoted(text) {
        place_mask.add(q);
    }
    place_mask
}

/// The sentence that describes the scene: the first that is not the credit line, else
/// the whole text.
fn scene_of(sentences: &[Span], credit_span: Option<Span>, len: usize) -> Span {
    sentences
        .iter()
        .copied()
        .find(|s| credit_span.is_none_or(|c| s.start < c.start || s.end > c.end))
        .unwrap_or(Span::new(0, len))
}

/// The names found, each once, in the order first found.
fn distinct_names(found: &[(String, Span)]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for (o, _) in found {
        if !names.contains(o) {
            names.push(o.clone());
        }
    }
    names
}
