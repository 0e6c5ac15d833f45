//! What the Cyrillic languages' analyzers add to stemming. Ukrainian has no stemmer in
//! the index's library: a light one takes the case endings of nouns off, and reads the
//! `і` a closed last syllable takes in the nominative as the `о` (`ї` as `є`) of the
//! other cases, so that `Харків`, `Харкова` and `Харкові` are one word, as are `Київ`
//! and `Києві`. The Russian stemmer reads `-ов` as an ending in the nominative
//! (`Харьков`) but not before a case ending (`Харькове`): it is taken off after it.

/// Case endings, longest first.
const ENDINGS: &[&str] = &[
    "ами", "ями", "ого", "ому", "ою", "ею", "ах", "ях", "ей", "ій", "ий", "ої", "ом", "ем", "а",
    "я", "у", "ю", "е", "і", "и", "о",
];

/// A stem keeps at least this many letters.
const SHORTEST_STEM: usize = 3;

/// The stem of a lower-case word; `false` when it is the word itself.
pub(crate) fn stem(word: &str, out: &mut String) -> bool {
    if !word.chars().any(|c| ('\u{400}'..='\u{4ff}').contains(&c)) {
        return false;
    }
    let stripped = ENDINGS
        .iter()
        .find_map(|e| {
            word.strip_suffix(e)
                .filter(|s| s.chars().count() >= SHORTEST_STEM)
        })
        .unwrap_or(word);
    let mut chars: Vec<char> = stripped.chars().collect();
    let vowels = "аеєиіїоуюя";
    let last_vowel = chars.iter().rposition(|c| vowels.contains(*c));
    if let Some(i) = last_vowel.filter(|&i| i + 1 < chars.len() && i > 0) {
        chars[i] = match chars[i] {
            'і' => 'о',
            'ї' => 'є',
            c => c,
        };
    }
    out.extend(chars);
    out != word
}

/// A Russian stem without a last `-ов`, `-ев` or `-ёв`; `false` when it has none.
pub(crate) fn russian(word: &str, out: &mut String) -> bool {
    let Some(rest) = ["ов", "ев", "ёв"].iter().find_map(|e| word.strip_suffix(e)) else {
        return false;
    };
    if rest.chars().count() < SHORTEST_STEM {
        return false;
    }
    out.push_str(rest);
    true
}

#[cfg(test)]
mod tests {
    use super::stem;

    fn stemmed(w: &str) -> String {
        let mut out = String::new();
        if stem(w, &mut out) {
            out
        } else {
            w.to_string()
        }
    }

    #[test]
    fn case_forms_of_a_name_are_one_stem() {
        assert_eq!(stemmed("харків"), stemmed("харкова"));
        assert_eq!(stemmed("харків"), stemmed("харкові"));
        assert_eq!(stemmed("київ"), stemmed("києві"));
        assert_eq!(stemmed("обстріл"), stemmed("обстрілу"));
        assert_eq!(stemmed("kharkiv"), "kharkiv");
    }
}
