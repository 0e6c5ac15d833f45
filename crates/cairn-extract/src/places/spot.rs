//! A place found in the caption as the scene choice reads it: resolved or fallen back to
//! what encloses it, with its mention's role, and the hand rule's tier and confidence.

use cairn_model::{Confidence, Place, PlaceKind, Span};

use super::role::Role;

/// A resolved or fallen-back place with what the scene choice reads of its mention.
pub(super) struct Spot {
    pub(super) place: Place,
    pub(super) role: Role,
    pub(super) dateline: bool,
    /// `X, Country` or `Y's X`: the mention is placed by what follows or holds it.
    pub(super) qualified: bool,
    /// Named only as the surroundings of a more precise place (`Mosul` in `Qayyarah,
    /// south of Mosul`).
    pub(super) surroundings: bool,
    /// Located at the enclosing place because the gazetteer lacks the named one.
    pub(super) fallback: bool,
    pub(super) exact: bool,
    pub(super) hinted: bool,
    /// The words that gave the role, up to the end of what qualifies it.
    pub(super) reason: Span,
    /// A small town named in passing, outside the caption's countries: no scene.
    pub(super) passing: bool,
    /// The gazetteer's population of the place (0 when unknown).
    pub(super) population: u64,
}

impl Spot {
    /// Coarse rank: demoted roles, bare names, then places set as the scene.
    pub(super) fn tier(&self) -> u8 {
        if self.dateline {
            2
        } else if !self.role.is_scene() {
            0
        } else if self.surroundings {
            1
        } else if self.role > Role::Bare || self.hinted || self.qualified {
            2
        } else {
            1
        }
    }

    pub(super) fn specificity(&self) -> u8 {
        if self.fallback {
            PlaceKind::Town.specificity_rank()
        } else {
            self.place.kind.specificity_rank()
        }
    }

    /// The hand-written rule's level, one of the confidence model's features.
    pub(super) fn confidence(&self, in_scene: bool) -> Confidence {
        let c = if self.fallback || self.tier() < 2 {
            Confidence::Low
        } else if self.dateline || (self.qualified && matches!(self.role, Role::In | Role::At)) {
            Confidence::High
        } else if self.role >= Role::Near || self.hinted {
            Confidence::Medium
        } else {
            Confidence::Low
        };
        if !in_scene || !self.exact {
            c.min(Confidence::Medium)
        } else {
            c
        }
    }
}
