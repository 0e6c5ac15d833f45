//! Russian or Ukrainian: the two Cyrillic languages desks write in share most words and
//! letters, and letter statistics over a short caption full of names confuse them. Each
//! has letters the other lacks and function words of its own; a caption's count of both
//! tells them apart.

/// Letters only Ukrainian writes.
const UKRAINIAN_LETTERS: &[char] = &['і', 'ї', 'є', 'ґ', 'І', 'Ї', 'Є', 'Ґ'];

/// Letters only Russian writes.
const RUSSIAN_LETTERS: &[char] = &['ы', 'э', 'ъ', 'ё', 'Ы', 'Э', 'Ъ', 'Ё'];

/// Frequent short words of one language the other spells otherwise.
const UKRAINIAN_WORDS: &[&str] = &[
    "і",
    "й",
    "та",
    "що",
    "у",
    "з",
    "від",
    "під",
    "після",
    "року",
    "рік",
    "це",
    "як",
    "його",
    "які",
    "який",
    "яка",
    "де",
    "біля",
    "час",
];
const RUSSIAN_WORDS: &[&str] = &[
    "и",
    "что",
    "с",
    "от",
    "под",
    "после",
    "года",
    "год",
    "это",
    "как",
    "его",
    "которые",
    "который",
    "которая",
    "где",
    "около",
    "время",
    "во",
    "со",
];

/// Fewer Cyrillic letters than this say too little.
const MIN_LETTERS: usize = 12;

/// `ru` or `uk` when the caption is mostly written in Cyrillic letters, else `None`.
pub(super) fn language(text: &str) -> Option<&'static str> {
    // Each Cyrillic letter takes two bytes outside ASCII.
    if text.bytes().filter(|b| !b.is_ascii()).count() < 2 * MIN_LETTERS {
        return None;
    }
    let (mut cyr, mut letters, mut uk, mut ru) = (0usize, 0usize, 0usize, 0usize);
    for c in text.chars().filter(|c| c.is_alphabetic()) {
        letters += 1;
        cyr += usize::from(('\u{400}'..='\u{4ff}').contains(&c));
        uk += usize::from(UKRAINIAN_LETTERS.contains(&c));
        ru += usize::from(RUSSIAN_LETTERS.contains(&c));
    }
    if cyr < MIN_LETTERS || 2 * cyr < letters {
        return None;
    }
    for w in text
        .split(|c: char| !c.is_alphabetic())
        .filter(|w| !w.is_empty())
    {
        let w = w.to_lowercase();
        uk += usize::from(UKRAINIAN_WORDS.contains(&w.as_str()));
        ru += usize::from(RUSSIAN_WORDS.contains(&w.as_str()));
    }
    Some(if uk > ru { "uk" } else { "ru" })
}

#[cfg(test)]
mod tests {
    use super::language;

    #[test]
    fn russian_and_ukrainian() {
        assert_eq!(
            language("Жители осматривают дом, разрушенный обстрелом в Харькове, 3 марта 2022 года"),
            Some("ru")
        );
        assert_eq!(
            language(
                "Мешканці оглядають будинок, зруйнований обстрілом у Харкові, 3 березня 2022 року"
            ),
            Some("uk")
        );
        // A Ukrainian page's label before a Russian caption.
        assert_eq!(
            language("Копірайт зображення Jane Roe. Эти люди стоят в очереди за хлебом в Киеве"),
            Some("ru")
        );
        assert_eq!(language("Residents inspect a house in Kharkiv"), None);
    }
}
