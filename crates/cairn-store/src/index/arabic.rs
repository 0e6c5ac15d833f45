//! Arabic words as search compares them: one spelling for the letters writers vary
//! (the forms of alef, taa marbuta, alef maqsura, Persian kaf and yeh), no vowel signs
//! or tatweel, Western digits, and a light stemming that takes off the conjunction,
//! the article with its prepositions and the commonest suffixes, in the manner of the
//! "light" stemmers of Arabic retrieval (Larkey, Ballesteros and Connell), so that
//! `القصف`, `بالقصف` and `قصف` are one word.

/// Prefixes taken off a word (the article, alone or after a preposition or
/// conjunction), longest first; at least two letters must remain.
const PREFIXES: [&str; 6] = ["وال", "بال", "كال", "فال", "لل", "ال"];

/// Suffixes taken off in turn (pronouns, the dual, plurals, the relative ending),
/// each when at least two letters remain. Taa marbuta is already `ه` here.
const SUFFIXES: [&str; 8] = ["ها", "ان", "ات", "ون", "ين", "يه", "ه", "ي"];

/// One spelling of an Arabic letter, or `None` for a sign that is dropped.
fn normal(c: char) -> Option<char> {
    Some(match c {
        // Vowel signs, shadda, sukun, the small high signs and the dagger alef.
        '\u{610}'..='\u{61A}' | '\u{64B}'..='\u{65F}' | '\u{670}' | '\u{6D6}'..='\u{6ED}' => {
            return None;
        }
        '\u{640}' => return None, // tatweel
        'أ' | 'إ' | 'آ' | 'ٱ' => 'ا',
        'ة' => 'ه',
        'ى' | 'ی' | 'ې' => 'ي',
        'ک' => 'ك',
        '٠'..='٩' => char::from(b'0' + (c as u32 - '٠' as u32) as u8),
        '۰'..='۹' => char::from(b'0' + (c as u32 - '۰' as u32) as u8),
        _ => c,
    })
}

fn is_arabic(c: char) -> bool {
    matches!(c, '\u{600}'..='\u{6FF}' | '\u{750}'..='\u{77F}')
}

/// The search form of a lowercased word: normalised, then lightly stemmed when it is
/// Arabic; `false` (the word kept as it is) when it holds no Arabic letter.
pub(crate) fn analyse(word: &str, out: &mut String) -> bool {
    if word.is_ascii() || !word.chars().any(is_arabic) {
        return false;
    }
    let mut w: Vec<char> = word.chars().filter_map(normal).collect();
    stem(&mut w);
    out.extend(w);
    true
}

fn starts(w: &[char], affix: &str) -> bool {
    let n = affix.chars().count();
    w.len() >= n && w.iter().take(n).copied().eq(affix.chars())
}

fn ends(w: &[char], affix: &str) -> bool {
    let n = affix.chars().count();
    w.len() >= n && w[w.len() - n..].iter().copied().eq(affix.chars())
}

/// Takes off the conjunction `و`, one article prefix, then each suffix in turn.
fn stem(w: &mut Vec<char>) {
    if w.len() >= 4 && w[0] == 'و' {
        w.remove(0);
    }
    for p in PREFIXES {
        let n = p.chars().count();
        if starts(w, p) && w.len() >= n + 2 {
            w.drain(..n);
            break;
        }
    }
    for s in SUFFIXES {
        let n = s.chars().count();
        if ends(w, s) && w.len() >= n + 2 {
            w.truncate(w.len() - n);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn a(word: &str) -> String {
        let mut out = String::new();
        if analyse(word, &mut out) {
            out
        } else {
            word.to_string()
        }
    }

    #[test]
    fn spellings_writers_vary_are_one() {
        // Alef forms, taa marbuta and alef maqsura, vowel signs, tatweel.
        assert_eq!(a("أحمد"), a("احمد"));
        assert_eq!(a("إدلب"), a("ادلب"));
        assert_eq!(a("مدينة"), a("مدينه"));
        assert_eq!(a("مستشفى"), a("مستشفي"));
        assert_eq!(a("حَلَب"), "حلب");
        assert_eq!(a("حلـــب"), "حلب");
        assert_eq!(a("٢٠١٦"), "2016");
    }

    #[test]
    fn article_conjunction_and_suffixes_come_off() {
        assert_eq!(a("القصف"), "قصف");
        assert_eq!(a("بالقصف"), "قصف");
        assert_eq!(a("والقصف"), "قصف");
        assert_eq!(a("للمدنيين"), a("مدني"));
        assert_eq!(a("الغارات"), "غار");
        assert_eq!(a("غارة"), "غار");
        // Short words keep their letters.
        assert_eq!(a("ولد"), "ولد");
        assert_eq!(a("حلب"), "حلب");
        // Words of other scripts are left to the other filters.
        assert_eq!(a("aleppo"), "aleppo");
    }
}
