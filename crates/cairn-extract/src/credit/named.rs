//! Whether a text may name an organisation of the table at all, so that a reading which
//! credits only such a name is spared on the many texts that hold none. The text is read
//! word by word: each word that opens a written form of the table is checked against the
//! forms it opens.

use std::cell::RefCell;
use std::sync::LazyLock;

use rustc_hash::FxHashMap;

use super::orgs;

/// The written forms of the table (in lookup form) by their first word: the letters and
/// digits they open on, up to their first other character.
static BY_FIRST_WORD: LazyLock<FxHashMap<&'static str, Vec<&'static str>>> = LazyLock::new(|| {
    let mut by: FxHashMap<&'static str, Vec<&'static str>> = FxHashMap::default();
    for k in orgs::keys() {
        by.entry(first_word(k)).or_default().push(k);
    }
    by
});

/// Words a credit marker may end on with a name glued after it (`Photo creditAFP`,
/// `تصويرAFP`): a name may start right after them, inside a word.
const GLUED_AFTER: [&str; 4] = ["credit", "credits", "read", "تصوير"];

/// Whether some piece of `s` that the credit parser looks up may be a written form of
/// the table. Every such piece is a run of `s` between separators, spaces, punctuation
/// or a marker, so its lookup form (see [`orgs::key`]) stands in the lookup form of the
/// whole text with no letter or digit glued on either side, or right after a marker's
/// last word. `false` means no lookup of any piece of `s` can find an organisation.
pub fn may_name_one(s: &str) -> bool {
    FOLDED.with_borrow_mut(|folded| {
        orgs::key_into(s, folded);
        let text = folded.as_str();
        words(text).any(|(start, end)| {
            forms_at(text, start, end)
                || glue_ends(&text[start..end]).any(|q| forms_at(text, start + q, end))
        })
    })
}

thread_local! {
    /// The lookup form of the text being scanned, kept per thread: every caption is
    /// scanned, and a buffer spares each scan an allocation.
    static FOLDED: RefCell<String> = const { RefCell::new(String::new()) };
}

/// Whether a written form of the table starts at byte `at` of `text`, whose word (its
/// letters and digits) runs to `end`, and ends before a letter or digit.
fn forms_at(text: &str, at: usize, end: usize) -> bool {
    BY_FIRST_WORD.get(&text[at..end]).is_some_and(|forms| {
        forms.iter().any(|f| {
            text[at..].starts_with(f) && !text[at + f.len()..].starts_with(char::is_alphanumeric)
        })
    })
}

/// Where a name may start inside `word`, right after one of [`GLUED_AFTER`] and
/// before the word's end.
fn glue_ends(word: &str) -> impl Iterator<Item = usize> + '_ {
    let b = word.as_bytes();
    // Each glue word opens on one of these bytes (`ت` on 0xD8): most positions of most
    // words are passed over with one comparison.
    (0..b.len())
        .filter(|&i| matches!(b[i], b'c' | b'r' | 0xD8))
        .flat_map(move |i| {
            GLUED_AFTER
                .iter()
                .filter(move |g| b[i..].starts_with(g.as_bytes()))
                .map(move |g| i + g.len())
        })
        .filter(move |&q| q < b.len())
}

/// The byte ranges of the words of `text`: its longest runs of letters and digits.
fn words(text: &str) -> impl Iterator<Item = (usize, usize)> + '_ {
    let mut chars = text.char_indices().peekable();
    std::iter::from_fn(move || {
        let (start, _) = chars.find(|&(_, c)| c.is_alphanumeric())?;
        let mut end = text.len();
        while let Some(&(i, c)) = chars.peek() {
            if !c.is_alphanumeric() {
                end = i;
                break;
            }
            chars.next();
        }
        Some((start, end))
    })
}

/// The letters and digits a written form opens on.
fn first_word(form: &str) -> &str {
    let end = form
        .char_indices()
        .find(|&(_, c)| !c.is_alphanumeric())
        .map_or(form.len(), |(i, _)| i);
    &form[..end]
}

#[cfg(test)]
mod tests {
    use aho_corasick::{AhoCorasick, MatchKind};
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn finds_names_only_as_whole_words() {
        assert!(may_name_one("AP Photo/Jane Roe A man walks home"));
        assert!(may_name_one("REUTERS/Jo Roe"));
        assert!(may_name_one("Photo creditAFP"));
        assert!(may_name_one("xphotocreditsafp"));
        assert!(may_name_one("A man  walks, Agence\tFrance-Presse says"));
        assert!(!may_name_one("A happy man walks through a gap in the wall"));
        assert!(!may_name_one("Reutersx and APx"));
        assert!(!may_name_one(""));
    }

    #[test]
    fn every_form_of_the_table_is_found_alone() {
        for k in orgs::keys() {
            assert!(may_name_one(k), "{k}");
            assert!(may_name_one(&format!("x/{k} y")), "{k}");
        }
    }

    /// The scan as first written: every occurrence of every form, with its neighbours
    /// checked.
    fn may_name_one_plain(s: &str) -> bool {
        let ac = AhoCorasick::builder()
            .match_kind(MatchKind::Standard)
            .build(orgs::keys())
            .unwrap();
        let mut folded = String::new();
        orgs::key_into(s, &mut folded);
        ac.find_overlapping_iter(folded.as_str()).any(|m| {
            let before = &folded[..m.start()];
            let open = !before
                .chars()
                .next_back()
                .is_some_and(char::is_alphanumeric)
                || GLUED_AFTER.iter().any(|g| before.ends_with(g));
            open && !folded[m.end()..].starts_with(char::is_alphanumeric)
        })
    }

    proptest! {
        #[test]
        fn word_scan_finds_what_every_occurrence_gives(
            s in "(AFP|afp|AP|ap|EPA-EFE|Getty Images|getty  images|the|The|credit|credits|read|تصوير|رويترز|x|é|É|İ|1|2|/|-|\\.|,|\\(| |\t|\u{a0})*"
        ) {
            prop_assert_eq!(may_name_one(&s), may_name_one_plain(&s));
        }
    }
}
