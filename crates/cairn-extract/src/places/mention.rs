//! A place mention and the caption's countries it is read in: the types every step of
//! the place reading shares (candidates, links, resolution, the language readers).

use cairn_gazetteer::PlaceId;
use cairn_model::{PlaceKind, Span};
use rustc_hash::FxHashMap;

use super::role::Role;

/// The caption's countries, weighted by how they are named.
pub(super) type Context<'a> = FxHashMap<&'a str, u32>;

/// A mention: a stretch of text that names (or seems to name) a place.
#[derive(Debug, Clone)]
pub(super) struct Mention {
    pub(super) span: Span,
    pub(super) text: String,
    pub(super) candidates: Vec<PlaceId>,
    /// Candidates from this index on are transliteration matches, not exact ones.
    pub(super) fuzzy_from: usize,
    pub(super) folded: String,
    pub(super) cue: bool,
    pub(super) hint: Option<PlaceKind>,
    pub(super) role: Role,
    /// Where the words that gave the role begin (for the location's reason).
    pub(super) cue_start: usize,
    /// Part of a longer run of capitals whose other words name no place
    /// (`Mohammed Homs`, `Lady Reading Hospital`): a person's or an institution's name.
    pub(super) partial: bool,
    /// `Homs's Khalidiya`: a possessive naming the place that holds the next mention.
    pub(super) container: bool,
    /// The mention that holds this one (`Y's X`, `X in Y`).
    pub(super) within: Option<usize>,
    /// `X, Country`: the country or province that follows.
    pub(super) followed_by: Option<PlaceId>,
    /// `X, south of Y`: placed by a relative-position phrase before the mention in `within`.
    pub(super) relative: bool,
    /// The compass point of a relative phrase that gives a bearing (`south of Y`,
    /// as (north, east) steps), not nearness.
    pub(super) bearing: Option<(i8, i8)>,
    pub(super) chosen: Option<PlaceId>,
}

impl Mention {
    /// Whether candidate number `i` is an exact (folded) match.
    pub(super) fn exact_at(&self, c: PlaceId) -> bool {
        // The first place `c` stands is before `fuzzy_from` exactly when the exact
        // matches hold it: only those are read.
        let exact = self.fuzzy_from.min(self.candidates.len());
        self.candidates[..exact].contains(&c)
    }
}
