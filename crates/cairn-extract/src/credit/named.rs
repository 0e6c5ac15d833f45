//! Whether a text may name an organisation of the table at all: one scan for every
//! written form at once, so that a reading which credits only such a name is spared on
//! the many texts that hold none.

use std::cell::RefCell;
use std::sync::LazyLock;

use aho_corasick::{AhoCorasick, MatchKind};

use super::orgs;

static FORMS: LazyLock<AhoCorasick> = LazyLock::new(|| {
    AhoCorasick::builder()
        .match_kind(MatchKind::Standard)
        .build(orgs::keys())
        .unwrap()
});

/// Words a credit marker may end on with a name glued after it (`Photo creditAFP`,
/// `تصويرAFP`): a name may start right after them.
const GLUED_AFTER: [&str; 3] = ["credit", "credits", "read"];

/// Whether some piece of `s` that the credit parser looks up may be a written form of
/// the table. Every such piece is a run of `s` between separators, spaces, punctuation
/// or a marker, so its lookup form (see [`orgs::key`]) stands in the lookup form of the
/// whole text with no letter or digit glued on either side. `false` means no lookup of
/// any piece of `s` can find an organisation.
pub fn may_name_one(s: &str) -> bool {
    FOLDED.with_borrow_mut(|folded| {
        fold_into(s, folded);
        let b = folded.as_bytes();
        FORMS.find_overlapping_iter(folded.as_str()).any(|m| {
            let closed = b.get(m.end()).is_none_or(|&c| {
                if c.is_ascii() {
                    !c.is_ascii_alphanumeric()
                } else {
                    !starts_alphanumeric(&folded[m.end()..])
                }
            });
            closed && opens_at(folded, m.start())
        })
    })
}

thread_local! {
    /// The lookup form of the text being scanned, kept per thread: every caption is
    /// scanned, and a buffer spares each scan an allocation.
    static FOLDED: RefCell<String> = const { RefCell::new(String::new()) };
}

/// Whether a name may start at byte `at` of `folded`: after no letter or digit, or
/// right after a marker's last word.
fn opens_at(folded: &str, at: usize) -> bool {
    let before = &folded[..at];
    let open = match before.as_bytes().last() {
        None => true,
        Some(&c) if c.is_ascii() => !c.is_ascii_alphanumeric(),
        Some(_) => !before
            .chars()
            .next_back()
            .is_some_and(char::is_alphanumeric),
    };
    open || GLUED_AFTER.iter().any(|w| before.ends_with(w)) || before.ends_with("تصوير")
}

fn starts_alphanumeric(s: &str) -> bool {
    s.chars().next().is_some_and(char::is_alphanumeric)
}

/// The lookup form of a whole text: each character lowered on its own, as
/// [`orgs::key`] lowers them, and each run of whitespace one space.
fn fold_into(s: &str, out: &mut String) {
    out.clear();
    let mut space = false;
    for c in s.chars() {
        if c.is_whitespace() {
            space = true;
            continue;
        }
        if space && !out.is_empty() {
            out.push(' ');
        }
        space = false;
        if c.is_ascii() {
            out.push(c.to_ascii_lowercase());
        } else {
            out.extend(c.to_lowercase());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_names_only_as_whole_words() {
        assert!(may_name_one("AP Photo/Jane Roe A man walks home"));
        assert!(may_name_one("REUTERS/Jo Roe"));
        assert!(may_name_one("Photo creditAFP"));
        assert!(may_name_one("A man  walks, Agence\tFrance-Presse says"));
        assert!(!may_name_one("A happy man walks through a gap in the wall"));
        assert!(!may_name_one(""));
    }

    #[test]
    fn every_form_of_the_table_is_found_alone() {
        for k in orgs::keys() {
            assert!(may_name_one(k), "{k}");
            assert!(may_name_one(&format!("x/{k} y")), "{k}");
        }
    }
}
