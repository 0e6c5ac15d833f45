//! One document stored at a time, as an ingest stores each (the server's posted pages):
//! the near-duplicate index is kept between documents while no other writer changes
//! the archive, and made again from it when one did.

use cairn_extract::Extractor;
use cairn_model::Document;
use cairn_store::{ArchiveWriter, BatchSummary};

use crate::{NearClusterer, Options, Result, prepare};

/// Stores documents one by one, each in a transaction of its own.
#[derive(Debug)]
pub struct DocumentWriter {
    extractor: Extractor,
    near_threshold: Option<f32>,
    max_bucket: u8,
    /// The near-duplicate index of the archive as of the batch numbered alongside it.
    near: Option<(NearClusterer, i64)>,
}

impl DocumentWriter {
    /// A writer extracting with `extractor` and clustering as `opts` say (its other
    /// options concern reading inputs and batches, and play no part here).
    pub fn new(extractor: Extractor, opts: &Options) -> Self {
        DocumentWriter {
            extractor,
            near_threshold: opts.near_threshold,
            max_bucket: opts.max_bucket,
            near: None,
        }
    }

    /// Tells the writer that the batches after `before` up to `now` changed no
    /// caption's texts or grouping (saved corrections only): a near-duplicate index kept
    /// as of `before` stays, rather than being made again for the next document.
    pub fn carry_near(&mut self, before: i64, now: i64) {
        if let Some((_, at)) = &mut self.near {
            if *at == before {
                *at = now;
            }
        }
    }

    /// Stores `doc` and its captions in `archive` in one transaction.
    pub fn write(&mut self, archive: &mut ArchiveWriter, doc: Document) -> Result<BatchSummary> {
        let Some(threshold) = self.near_threshold else {
            let source = prepare(doc, &self.extractor);
            return Ok(archive.write_batch_with(&[source], &mut cairn_store::ExactOnly)?);
        };
        let seq = archive.last_batch()?;
        let near = match self.near.take() {
            Some((near, at)) if at == seq => near,
            _ => NearClusterer::load(archive, threshold, self.max_bucket)?,
        };
        let source = prepare(doc, &self.extractor);
        let mut near = near;
        let summary = archive.write_batch_with(&[source], &mut near);
        near.publish();
        // After a failed write the index may hold captions of the write rolled back:
        // it is let go, and made again for the next document.
        let summary = summary?;
        self.near = Some((near, archive.last_batch()?));
        Ok(summary)
    }
}
