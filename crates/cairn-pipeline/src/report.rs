//! What an ingest tells its caller: progress events as it goes, and the report at the
//! end.

use cairn_store::BatchSummary;

/// Progress, as the run goes.
#[derive(Debug, Clone)]
pub enum Event {
    /// The inputs are known.
    Planned {
        /// Files to read (stdin counts as one).
        inputs: u64,
        /// Their total size in bytes, where known.
        bytes: u64,
    },
    /// A source, or a part of a long one, was read and processed.
    Read {
        /// Its size (a part's share of it).
        bytes: u64,
        /// Captions found in it (in the part).
        captions: u64,
    },
    /// A source was read with a problem that did not stop it.
    Warning {
        /// Which source.
        source: String,
        /// What happened.
        message: String,
    },
    /// An input could not be ingested.
    Rejected {
        /// What went wrong, naming the input.
        message: String,
    },
    /// An input was passed over (a symbolic link not followed, a FIFO, a source an
    /// earlier run rejected).
    Skipped {
        /// What was passed over and why, naming it.
        message: String,
    },
    /// A batch is committed to the archive.
    Committed(BatchSummary),
}

/// What a run did.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct Report {
    /// Inputs named (files after expanding directories, stdin).
    pub inputs: u64,
    /// Inputs that could not be ingested.
    pub rejected: u64,
    /// Warnings about inputs that were ingested.
    pub warnings: u64,
    /// Sources stored.
    pub sources_added: u64,
    /// Sources already in the archive.
    pub sources_skipped: u64,
    /// Sources an earlier run rejected, skipped (see
    /// [`Options::retry_rejected`](crate::Options::retry_rejected)).
    pub rejected_before: u64,
    /// Caption occurrences stored.
    pub occurrences_added: u64,
    /// New distinct caption texts.
    pub variants_added: u64,
    /// New captions.
    pub captions_added: u64,
    /// New texts that joined an existing caption as near-duplicates.
    pub variants_joined: u64,
}

impl Report {
    pub(crate) fn add(&mut self, s: &BatchSummary) {
        self.sources_added += s.sources_added;
        self.sources_skipped += s.sources_skipped;
        self.occurrences_added += s.occurrences_added;
        self.variants_added += s.variants_added;
        self.captions_added += s.captions_added;
        self.variants_joined += s.variants_joined;
    }
}
