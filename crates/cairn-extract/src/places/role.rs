//! The role a place mention plays in its sentence: shared by every reader of roles
//! (English, the other languages, Arabic) without their depending on one another.

/// The role a mention plays in its sentence, read from the words around it: what makes a
/// place the scene, or only a place talked about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Role {
    /// Where people came from (`refugees from X`, `fled X`): not where the photo is.
    Origin,
    /// A border named by a neighbour (`near the border with Chad`).
    Border,
    /// A team or side (`against Senegal`).
    Team,
    /// Part of another name: an event's, an organisation's (`China National Day`).
    Name,
    /// Named without a locative word.
    Bare,
    /// After a weak locative word (`of`, `to`, `across`).
    Weak,
    /// Near the scene (`near X`, `outskirts of X`, `north of X`).
    Near,
    /// At a place (`at X hospital`, `at X camp`).
    At,
    /// In a place (`in X`, `à X`, `en X`, `في X`).
    In,
}

impl Role {
    /// The rank of the role among places of the scene: `at X` sets it as `in X` does.
    pub(super) fn rank(self) -> Role {
        if self == Role::At { Role::In } else { self }
    }

    /// Whether a place in this role can be the scene.
    pub(super) fn is_scene(self) -> bool {
        self >= Role::Bare
    }
}
