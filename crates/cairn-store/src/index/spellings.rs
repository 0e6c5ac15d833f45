//! The words an archive's captions name each place by. Indexing keeps, for each place a
//! caption names, a term of the place's id and the caption's own words for it (`Kiev`,
//! `غزة`, `Газой`); a search for a place reads back every spelling the index holds for
//! it and searches the text for each, so that all the place's names find one set of
//! captions, those that write a name without it being read as the place included.

use std::collections::BTreeSet;

use tantivy::Searcher;
use tantivy::schema::Field;

/// Between a place's id and a spelling: no id or word holds it.
const SEP: char = '\u{1f}';
/// The character after [`SEP`], which ends the range of one place's terms.
const AFTER_SEP: char = '\u{20}';
/// The longest spelling kept, in characters: longer "names" are phrases of a
/// description, not a spelling worth searching as a name.
const MAX_CHARS: usize = 48;
/// The most spellings of one place a query searches for, so that a query stays small.
const MAX_SPELLINGS: usize = 64;
/// The most terms of one place read: a place the archive names often is also written
/// in many words that are not its name (an unknown site placed at it).
const MAX_READ: usize = 4096;

/// The index term for a place a caption names by `words`, if they are a spelling
/// worth keeping.
pub(crate) fn term(id: &str, words: &str) -> Option<String> {
    let words = words.split_whitespace().collect::<Vec<_>>().join(" ");
    let words = words.to_lowercase();
    let letters = words.chars().filter(|c| c.is_alphabetic()).count();
    if letters < 2 || words.chars().count() > MAX_CHARS || id.contains(SEP) {
        return None;
    }
    Some(format!("{id}{SEP}{words}"))
}

/// The spellings the index holds for the place `id` that `is_name` takes as a name of
/// it (the words of a site placed there are not), in order, at most [`MAX_SPELLINGS`].
pub(crate) fn of(
    searcher: &Searcher,
    field: Field,
    id: &str,
    is_name: impl Fn(&str) -> bool,
) -> Vec<String> {
    let from = format!("{id}{SEP}");
    let to = format!("{id}{AFTER_SEP}");
    let mut found = BTreeSet::new();
    let mut read = 0;
    for segment in searcher.segment_readers() {
        // A segment that cannot be read here fails the search itself; its spellings
        // are only an addition.
        let Ok(inverted) = segment.inverted_index(field) else {
            continue;
        };
        let range = inverted
            .terms()
            .range()
            .ge(from.as_bytes())
            .lt(to.as_bytes());
        let Ok(mut stream) = range.into_stream() else {
            continue;
        };
        while read < MAX_READ && stream.advance() {
            read += 1;
            if let Some(word) = std::str::from_utf8(stream.key())
                .ok()
                .and_then(|k| k.get(from.len()..))
            {
                found.insert(word.to_string());
            }
        }
    }
    found
        .into_iter()
        .filter(|w| is_name(w))
        .take(MAX_SPELLINGS)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spelling_is_its_words_in_lower_case() {
        assert_eq!(
            term("geonames:1", "  GAZA\n City "),
            Some("geonames:1\u{1f}gaza city".into())
        );
        assert_eq!(
            term("geonames:1", "غزة"),
            Some("geonames:1\u{1f}غزة".into())
        );
        assert_eq!(term("geonames:1", "7"), None);
        assert_eq!(term("geonames:1", &"word ".repeat(20)), None);
    }
}
