//! How an ingest runs: its options and the defaults callers share.

/// How to run.
#[derive(Debug, Clone)]
pub struct Options {
    /// Sources per transaction.
    pub batch_sources: usize,
    /// Source bytes per transaction (a batch closes at whichever limit comes first).
    pub batch_bytes: usize,
    /// Near-duplicate threshold; `None` merges exact duplicates only.
    pub near_threshold: Option<f32>,
    /// How many distinct texts an LSH key finds ([`cairn_dedup::MAX_BUCKET`]; tests
    /// lower it so that the limit matters on a small corpus).
    pub max_bucket: u8,
    /// How to read JSON Lines.
    pub read: cairn_ingest::ReadOptions,
    /// The least input for a bulk write ([`cairn_store::ArchiveWriter::begin_bulk`]); it must
    /// also be at least half as much again as the archive holds.
    pub bulk_min_bytes: u64,
    /// A source with more captions than this (a long text file) is extracted and handed
    /// to the writer this many captions at a time, all stored in one transaction: the
    /// records of the whole source are never in memory together. A batch of sources is
    /// also cut before it would pass this many captions.
    pub part_captions: usize,
    /// Follow symbolic links inside directories (else each is passed over with a
    /// warning).
    pub follow_links: bool,
    /// Read again the sources an earlier run rejected (else each is skipped, with a
    /// warning saying why it was rejected).
    pub retry_rejected: bool,
    /// The time one source may take to render; one that takes longer is rejected
    /// ([`cairn_ingest::render_within`]).
    pub source_time: std::time::Duration,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            batch_sources: BATCH_SOURCES,
            batch_bytes: 32 * 1024 * 1024,
            near_threshold: Some(cairn_dedup::DEFAULT_THRESHOLD),
            max_bucket: cairn_dedup::MAX_BUCKET as u8,
            read: cairn_ingest::ReadOptions::default(),
            bulk_min_bytes: BULK_MIN_BYTES,
            part_captions: PART_CAPTIONS,
            follow_links: false,
            retry_rejected: false,
            source_time: cairn_ingest::SOURCE_TIME,
        }
    }
}

/// Captions of a source extracted and stored at a time, by default
/// ([`Options::part_captions`]).
pub const PART_CAPTIONS: usize = 16_384;

/// The least input for a bulk write by default ([`Options::bulk_min_bytes`]).
pub const BULK_MIN_BYTES: u64 = 16 * 1024 * 1024;

/// Sources per transaction unless asked otherwise ([`Options::batch_sources`]).
pub const BATCH_SOURCES: usize = 1024;

/// The stack a caller should give the threads that read and prepare sources (rayon's
/// pool: `cairn ingest` builds its global pool so): far more than any reader needs
/// (their depth and attribute bounds keep them shallow), so that a recursion no bound
/// foresaw meets its limit only well past them. Only the pages a thread touches count in
/// memory.
pub const PREPARE_STACK: usize = 64 << 20;
