//! A caption's translations: the captions of the same photograph in other languages.
//! They are found among the stored captions with the same agency, photographer and day
//! (the index answers that), and linked where `cairn_dedup::is_translation` says the
//! records agree; a translation ingested later is linked without rewriting anything.

use cairn_model::{Precision, Record};

use crate::views::{Filters, SearchRequest, TranslationRef};
use crate::{Archive, Result};

/// Captions of one credit and day looked at for translations; a photographer files
/// fewer pictures than this in a day.
const CANDIDATES: usize = 200;

impl Archive {
    /// The translations of caption `id`, whose canonical record is `record`.
    pub(crate) fn translations(&self, id: i64, record: &Record) -> Result<Vec<TranslationRef>> {
        let (Some(credit), Some(date)) = (&record.credit, &record.date) else {
            return Ok(Vec::new());
        };
        let (Some(agency), Some(photographer)) = (&credit.agency, credit.photographers.first())
        else {
            return Ok(Vec::new());
        };
        if date.precision != Precision::Day || record.lang.is_none() {
            return Ok(Vec::new());
        }
        let req = SearchRequest {
            filters: Filters {
                agency: vec![agency.clone()],
                photographer: vec![photographer.clone()],
                from: Some(date.value.clone()),
                to: Some(date.value.clone()),
                ..Filters::default()
            },
            limit: CANDIDATES,
            ..SearchRequest::default()
        };
        let hits = self.search(&req)?.hits;
        Ok(hits
            .into_iter()
            .filter(|h| h.id != id)
            .filter_map(|h| {
                let other = h.record?;
                let linked = cairn_dedup::is_translation(record, &other);
                linked.then_some(TranslationRef {
                    id: h.id,
                    lang: other.lang,
                    text: h.text,
                })
            })
            .collect())
    }
}
