//! Searches of a pattern that opens with a name and closes with a fixed end (`, 18,`,
//! `(L)`), made only in the stretch before each place its end stands: a name has no
//! literal to look for, and a pass over the whole caption tries it at every capital.
//!
//! A name holds only word characters, apostrophes, hyphens and spaces, so a match
//! starts after the last other character before its end, and the end is the first
//! such character after its start. Each match is the only one of its end, and one
//! whose end the scan of ends passed over (inside an earlier end) would have to
//! name nothing but that end's digits and spaces, which hold no capital.

use regex::{Captures, Regex};

/// Whether a byte can stand inside a name: any byte of a character outside ASCII (the
/// word characters and spaces of other scripts, taken all together), and the ASCII word
/// characters, apostrophe, hyphen and spaces.
fn in_name(b: u8) -> bool {
    !b.is_ascii()
        || b.is_ascii_alphanumeric()
        || matches!(
            b,
            b'_' | b'\'' | b'-' | b' ' | b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r'
        )
}

/// Where the stretch of name characters that ends at `at` starts.
fn name_start(text: &str, at: usize) -> usize {
    let b = text.as_bytes();
    b[..at]
        .iter()
        .rposition(|&c| !in_name(c))
        .map_or(0, |p| p + 1)
}

/// Calls `f` with each match of `re` in `text`, the same as `re.captures_iter(text)`
/// gives, for a pattern that is a name and then an end that `end` matches, with no
/// look-around after it.
pub fn for_each(re: &Regex, end: &Regex, text: &str, mut f: impl FnMut(Captures<'_>)) {
    let mut cursor = 0;
    for e in end.find_iter(text) {
        if e.start() < cursor {
            continue;
        }
        let from = name_start(text, e.start()).max(cursor);
        // The text is cut after the end, which changes nothing of a match of this end,
        // and the search still sees what stands before `from`.
        if let Some(c) = re.captures_at(&text[..e.end()], from) {
            cursor = e.end();
            f(c);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::entities::{AGED, AGED_END, POSITION, POSITION_END};

    type Spans = Vec<(usize, usize, usize, usize)>;

    fn spans(c: &Captures<'_>) -> (usize, usize, usize, usize) {
        let (m, g) = (c.get(0).unwrap(), c.get(1).unwrap());
        (m.start(), m.end(), g.start(), g.end())
    }

    /// The matches before the ends, and over the whole text, for each pattern.
    fn both(text: &str) -> Vec<(Spans, Spans)> {
        [(&*AGED, &*AGED_END), (&*POSITION, &*POSITION_END)]
            .into_iter()
            .map(|(re, end)| {
                let mut near = Vec::new();
                for_each(re, end, text, |c| near.push(spans(&c)));
                let whole = re.captures_iter(text).map(|c| spans(&c)).collect();
                (near, whole)
            })
            .collect()
    }

    #[test]
    fn ends_find_what_a_whole_pass_finds() {
        let text = "Nada Merhi, 18, and Hassan bin\tYoussef, aged 27, with Omar Ali\u{a0}(L), \
                    Ali, 3, 4, Sara al-Amin (2nd R) and Jo, 5,";
        for (near, whole) in both(text) {
            assert!(!whole.is_empty());
            assert_eq!(near, whole);
        }
    }

    proptest::proptest! {
        /// Searching before the ends finds the matches, and the names, of a whole pass.
        #[test]
        fn ends_lose_no_match(
            parts in proptest::collection::vec(proptest::sample::select(vec![
                "Omar", "Ali", "al-", "bin ", "Hassan", "’s", " ", "  ", "\u{a0}", "\t", ", ",
                ",", "18", "7", "aged ", "(L)", "(left)", "(2nd R)", "(", ")", ".", "x", "A",
                "-", "é", "Émile", ";",
            ]), 0..16)
        ) {
            let text: String = parts.concat();
            for (near, whole) in both(&text) {
                proptest::prop_assert_eq!(near, whole, "{:?}", text);
            }
        }
    }

    #[test]
    fn a_name_stretch_stops_at_punctuation_only() {
        let t = "Seen: Ali al-Hassan’s son\u{a0}Omar, 18,";
        assert_eq!(name_start(t, t.find(", 18").unwrap()), 5);
        assert_eq!(name_start("Omar", 4), 0);
    }
}
