//! What people do to captions: corrections of record fields, the verified and disputed
//! marks, notes, each save kept as append-only revisions.
//!
//! - `overlay`: the record shown, the extracted one with the corrections laid over it;
//! - `chain`: the revisions' hash chain;
//! - `save`: a save, refused when made against a version that is no longer current;
//! - `history`: a caption's revisions, the audit of everyone's, a caption's marks;
//! - `marks`: the review marks the index keeps, and why a caption needs review;
//! - `reextract`: records extracted again, corrections kept over them;
//! - `regroup`: a caption split in two, two captions merged, by hand.

pub(crate) mod chain;
mod history;
pub(crate) mod marks;
pub(crate) mod overlay;
mod reextract;
mod regroup;
mod save;

use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use marks::{DONE_MARKS, NEEDS_REVIEW, REASONS};
pub use overlay::CORRECTABLE;
pub use reextract::Reextracted;
pub use regroup::{Regroup, Regrouped};
pub(crate) use save::review_of;

/// A caption's review state.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Review {
    /// How many saves changed the caption: a save names the version it was made
    /// against, and is refused when another came first.
    pub version: u64,
    /// A person checked the record and found it right.
    pub verified: bool,
    /// A person found the record or the caption doubtful.
    pub disputed: bool,
    /// The fields people corrected.
    pub corrected: Vec<String>,
}

/// What one save asks for.
#[derive(Debug, Clone, Default)]
pub struct Edit {
    /// Record fields (or one member of one, `casualties.killed`) and their new values.
    pub fields: Vec<(String, Value)>,
    /// Mark the record verified, or take the mark away.
    pub verified: Option<bool>,
    /// Mark the record disputed, or take the mark away.
    pub disputed: Option<bool>,
    /// Why.
    pub note: Option<String>,
}

/// The longest note kept with a save, in bytes.
pub const MAX_NOTE_BYTES: usize = 4000;

/// What became of a save.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Saved {
    /// Stored (or nothing to change); the review state after it.
    Done(Review),
    /// Made against an older version: nothing was stored; the current state.
    Stale(Review),
}

/// One change to one field of one caption.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Revision {
    /// Its place in the history of the whole archive.
    pub id: i64,
    /// The caption changed.
    pub caption_id: i64,
    /// The caption's version this change made.
    pub version: u64,
    /// The record field, or `verified`, `disputed`, `note`.
    pub field: String,
    /// The value before (JSON).
    pub old_value: Value,
    /// The value after (JSON).
    pub new_value: Value,
    /// Who.
    pub user: String,
    /// When (RFC 3339).
    pub at: String,
    /// Why, when they said.
    pub note: Option<String>,
}
