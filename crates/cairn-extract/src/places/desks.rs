//! Place grammar of Russian, Ukrainian, Turkish, Italian and Portuguese captions: the
//! prepositions that set a scene (`в`, `у`, `під`, `a`, `nella`, `em`, `perto de`), names
//! in Cyrillic read through their Latin spelling with the case ending folded (`в
//! Харькове`, `у Харкові`, `со Святогорском`), and Turkish case suffixes after an
//! apostrophe (`Hatay'da`, `Moskova’daki`).

use cairn_gazetteer::cyrillic::{exonym, spellings};
use cairn_gazetteer::{Gazetteer, PlaceId, fold};
use cairn_model::PlaceKind;

use super::role::Role;

/// The role a preposition of these languages gives the name after it. Words English
/// writes too (`in`, `a`, `do`) are left to the English reading.
pub(super) fn role(w: &str) -> Option<Role> {
    Some(match w {
        "в" | "во" | "у" | "nel" | "nella" | "nello" | "nei" | "nelle" | "em" | "no" | "na"
        | "nos" | "nas" => Role::In,
        "ad" | "presso" | "на" => Role::At,
        "под" | "під" | "возле" | "около" | "біля" | "поблизу" | "vicino" | "perto" | "próximo"
        | "proximo" | "pressi" => Role::Near,
        "из" | "із" | "зі" | "dalla" | "dal" => Role::Origin,
        "по" | "за" | "su" | "sulla" | "sul" | "para" | "da" => Role::Weak,
        _ => return None,
    })
}

/// The role a Russian or Ukrainian name in the genitive takes from the preposition
/// before the nouns that hold it (`на окраине Харькова`, `у спальному районі Сум`,
/// `в одном из храмов Курска`): as `outskirts of X` in English.
pub(super) fn genitive_role(before: &[&str]) -> Option<Role> {
    let cyrillic_word = |w: &str| w.chars().all(|c| is_cyrillic(c) && c.is_lowercase());
    // `Поселок Бородянка`: a settlement named as one.
    if before.first().is_some_and(|w| is_kind_noun(w)) {
        return Some(Role::In);
    }
    for (i, w) in before.iter().enumerate().take(4) {
        if i > 0 {
            if let Some(role) = role(w).filter(|_| w.chars().all(is_cyrillic)) {
                return Some(role.max(Role::Near).min(Role::In));
            }
        }
        if !cyrillic_word(w) {
            break;
        }
    }
    // `наслідки обстрілу Покровська`: a name in an oblique case after a noun is that
    // noun's place, as `of X` is in English.
    before
        .first()
        .is_some_and(|w| cyrillic_word(w))
        .then_some(Role::Weak)
}

/// The role of a mention once what its own language says is read: a Turkish case
/// suffix on the name or on the kind word after it (`Manavgat'ta`, in; `Gazze'den`,
/// from; `Eyüpsultan ilçesinde`, in) or the Italian `a` of a place (`a Mitilene`),
/// which English reads as an article. `after` is the text after the mention.
pub(super) fn adjusted_role(
    role: Role,
    before: &[&str],
    name: &str,
    after: &str,
    text: &str,
) -> Role {
    if role > Role::Bare {
        return role;
    }
    if let Some(r) = super::turkish::suffix_role(name).or_else(|| super::turkish::kind_role(after))
    {
        return r;
    }
    let italian_a = matches!(before.first(), Some(&"a" | &"ad"));
    if italian_a && crate::lang::detect(text) == Some("it") {
        return Role::At;
    }
    role
}

/// Whether a word before a name says a place follows.
pub(super) fn is_cue(w: &str) -> bool {
    role(w).is_some() || matches!(w, "города" | "міста" | "села" | "di")
}

/// Words for a settlement before its name, in the cases a caption puts them in.
fn is_kind_noun(w: &str) -> bool {
    const STEMS: &[&str] = &[
        "поселок",
        "посёлок",
        "поселк",
        "посёлк",
        "село",
        "селе",
        "села",
        "селі",
        "селом",
        "город",
        "місто",
        "міст",
        "селище",
        "деревн",
        "станиц",
        "пгт",
        "смт",
    ];
    STEMS.iter().any(|s| w.starts_with(s)) && w.chars().count() <= 9
}

/// Words that open a run of capitals at a sentence's start (`В Киеве`, `У Харкові`,
/// `Nella Striscia`, `Поселок Бородянка`) and are no part of the name.
pub(super) fn opens_run(g: &Gazetteer, w: &str) -> bool {
    matches!(
        w,
        "в" | "во" | "у" | "на" | "під" | "под" | "біля" | "из" | "із" | "nel" | "nella" | "em"
            | "no" | "na" | "ad"
    ) || is_kind_noun(w)
        // `Жители Донецка`: a Cyrillic sentence's first word, capitalised, that names no
        // place is no part of the name after it.
        || w.chars().any(is_cyrillic) && inflected(g, w, "").is_none()
}

/// The places of a name the gazetteer holds only in another spelling: a Cyrillic name
/// by its Latin transliteration, its case ending folded back to the nominative, or a
/// Turkish name with its case suffix. The folded form looked up comes with them.
pub(super) fn inflected(g: &Gazetteer, word: &str, after: &str) -> Option<(String, Vec<PlaceId>)> {
    if !word.chars().any(is_cyrillic) {
        return super::turkish::inflected(g, word);
    }
    // `Київська область`, `Киевской области`: a region named by its adjective.
    let unit = ["област", "обл.", "район", "округ", "край", "краю"];
    if unit
        .iter()
        .any(|u| after.trim_start().to_lowercase().starts_with(u))
    {
        return None;
    }
    let lower = word.to_lowercase();
    // `ГЕС`, `ЗСУ`: an abbreviation, no name.
    let abbreviation = word.chars().filter(|c| c.is_alphabetic()).count() >= 2
        && !word.chars().any(char::is_lowercase);
    // `Той`, `Там`: a short word opening a sentence spells some place too.
    let short = lower.chars().count() < 4;
    if (abbreviation || short) && exonym(&lower).is_none() {
        return None;
    }
    if is_adjective(&lower) {
        return None;
    }
    if let Some(found) = country_in_cyrillic(g, &lower) {
        return Some(found);
    }
    // Of the forms a case ending may hide, the best-known place: a form that is a
    // hamlet's name by chance (`Херсоні` read as written) loses to the city the
    // nominative names.
    let mut best: Option<(u64, String, Vec<PlaceId>)> = None;
    for n in nominatives(&lower) {
        if let Some(latin) = exonym(&n) {
            let f = fold(latin);
            let all = g.exact_folded(&f);
            let known: Vec<PlaceId> = all
                .iter()
                .copied()
                .filter(|&id| known_enough(g, id))
                .collect();
            let c = if known.is_empty() {
                all.to_vec()
            } else {
                known
            };
            return (!c.is_empty()).then_some((f, c));
        }
        for latin in spellings(&n) {
            let f = fold(&latin);
            // Only a place whose own name the spelling comes near: an alternate name
            // that a form happens to spell (`Рима` as Lima's `Rima`) is no reading.
            let c: Vec<PlaceId> = g
                .exact_folded(&f)
                .iter()
                .copied()
                .filter(|&id| {
                    known_enough(g, id) && sounds_near(&g.entry(id).folded, &f) && spelt_so(g, id)
                })
                .collect();
            let Some(weight) = c.iter().map(|&id| weight(g, id)).max() else {
                continue;
            };
            if best.as_ref().is_none_or(|(w, _, _)| weight > *w) {
                best = Some((weight, f, c));
            }
        }
    }
    best.map(|(_, _, c)| own_name(g, &c))
        .or_else(|| by_skeleton(g, &lower))
}

/// A country the gazetteer names in Cyrillic, under one of the forms a case ending may
/// hide (`в Польше`, `у Польщі`, `из Сирии`): countries' own names are held in Cyrillic,
/// where a town's Cyrillic name is read through its transliteration.
fn country_in_cyrillic(g: &Gazetteer, lower: &str) -> Option<(String, Vec<PlaceId>)> {
    nominatives(lower).into_iter().find_map(|n| {
        let f = fold(&n);
        let c: Vec<PlaceId> = g
            .exact_folded(&f)
            .iter()
            .copied()
            .filter(|&id| g.entry(id).kind == PlaceKind::Country)
            .collect();
        (!c.is_empty()).then_some((f, c))
    })
}

/// The best-known place of `c` under its own folded name, with every place of that name:
/// a transliteration is read as the name it stands for.
fn own_name(g: &Gazetteer, c: &[PlaceId]) -> (String, Vec<PlaceId>) {
    let best = c.iter().copied().max_by_key(|&id| weight(g, id));
    let folded = best.map_or_else(String::new, |id| g.entry(id).folded.clone());
    let all = g.exact_folded(&folded);
    if all.is_empty() {
        return (folded, c.to_vec());
    }
    (
        folded,
        all.iter()
            .copied()
            .filter(|&id| known_enough(g, id))
            .collect(),
    )
}

/// A city or unit whose Latin name sounds as a nominative of `lower` does: the Russian
/// name of a Ukrainian city (`Харькова` of `Харьков`, the gazetteer's `Kharkiv`) differs
/// from the Ukrainian one in its vowels only. Only well-known places are read so.
fn by_skeleton(g: &Gazetteer, lower: &str) -> Option<(String, Vec<PlaceId>)> {
    let mut best: Option<(u64, PlaceId)> = None;
    for n in nominatives(lower) {
        for latin in spellings(&n) {
            let f = fold(&latin);
            for &id in g.fuzzy_folded(&f) {
                let w = weight(g, id);
                if sounds_near(&g.entry(id).folded, &f)
                    && writes_cyrillic(g, id)
                    && w >= 20_000
                    && best.is_none_or(|(bw, _)| w > bw)
                {
                    best = Some((w, id));
                }
            }
        }
    }
    let (_, id) = best?;
    Some(own_name(g, &[id]))
}

/// Whether a spelling comes near a place's own folded name: it opens as the name does
/// and differs from it by a vowel or two. Skeletons and alternate names of short names
/// meet by chance otherwise.
fn sounds_near(own: &str, spelling: &str) -> bool {
    own.chars().take(3).eq(spelling.chars().take(3))
        && own.chars().count().abs_diff(spelling.chars().count()) <= 2
}

/// Whether a place may be meant by a Cyrillic name spelt out letter by letter: one in a
/// country that writes Cyrillic, or a place known well enough abroad to have a Cyrillic
/// name of its own (a common word, `День`, spells some small town elsewhere).
fn spelt_so(g: &Gazetteer, id: PlaceId) -> bool {
    writes_cyrillic(g, id) || weight(g, id) >= 100_000
}

/// Whether a place is named in the script of its own country (`Покровська` of Pokrovsk):
/// a caption written so is written where the place is, and names no foreign town in
/// passing.
pub(super) fn in_its_own_script(g: &Gazetteer, text: &str, id: PlaceId) -> bool {
    text.chars().any(is_cyrillic) && writes_cyrillic(g, id)
}

/// Whether a place lies in a country that writes Cyrillic.
fn writes_cyrillic(g: &Gazetteer, id: PlaceId) -> bool {
    const CYRILLIC_COUNTRIES: &[&str] = &[
        "UA", "RU", "BY", "KZ", "KG", "TJ", "MN", "BG", "RS", "MK", "ME", "BA",
    ];
    CYRILLIC_COUNTRIES.contains(&g.entry(id).country.as_str())
}

/// How well-known a place is: a country or a province counts as a city of a million.
fn weight(g: &Gazetteer, id: PlaceId) -> u64 {
    let e = g.entry(id);
    match e.kind {
        PlaceKind::Country | PlaceKind::Admin1 | PlaceKind::Region => e.population.max(1_000_000),
        _ => e.population,
    }
}

/// Whether a word is an adjective made of a place's name (`Киевской`, `Київська`,
/// `Михайловской`): a region's or a street's name, not the town's.
fn is_adjective(lower: &str) -> bool {
    const ADJECTIVE_ENDINGS: &[&str] = &[
        "ий", "ый", "ой", "ая", "ое", "ие", "ых", "ого", "ому", "ом", "ую", "ей", "ій", "ої", "ою",
        "их", "ім", "ий", "ьому",
    ];
    ADJECTIVE_ENDINGS.iter().any(|e| {
        lower.strip_suffix(e).is_some_and(|stem| {
            ["ск", "цк", "ськ", "зьк", "цьк"]
                .iter()
                .any(|s| stem.ends_with(s))
        })
    })
}

fn is_cyrillic(c: char) -> bool {
    ('\u{400}'..='\u{4ff}').contains(&c)
}

/// A transliterated name matches many a hamlet by chance: only a town of some size or a
/// unit is read so.
fn known_enough(g: &Gazetteer, id: PlaceId) -> bool {
    let e = g.entry(id);
    e.population >= 2_000 || !matches!(e.kind, PlaceKind::Town)
}

/// Case endings of Russian and Ukrainian nouns, longest first.
const ENDINGS: &[&str] = &[
    "ами", "ями", "ого", "ому", "ом", "ем", "ой", "ей", "ою", "ею", "ах", "ях", "ові", "еві", "а",
    "я", "у", "ю", "е", "і", "и", "ы",
];

/// Nominative endings a stem may take back.
const NOMINATIVE: &[&str] = &["", "а", "я", "ь", "и", "ы", "е", "о"];

/// The forms a Cyrillic name may have in the nominative, the name as written first.
fn nominatives(lower: &str) -> Vec<String> {
    let mut out = vec![lower.to_string()];
    // A plural name in the genitive has no ending left (`Сум` of `Суми`).
    if lower.ends_with(|c: char| !"аеєиіїоуюяыэь".contains(c)) {
        out.extend(["и", "ы"].map(|n| format!("{lower}{n}")));
    }
    for e in ENDINGS {
        let Some(stem) = lower.strip_suffix(e) else {
            continue;
        };
        if stem.chars().count() < 2 {
            continue;
        }
        for n in NOMINATIVE {
            out.push(format!("{stem}{n}"));
        }
        // Ukrainian closes a last syllable's `о` or `е` to `і` in the nominative
        // (`Харкова` → `Харків`, `Ірпеня` → `Ірпінь`, `Києва` → `Київ`).
        if let Some(closed) = closed_syllable(stem) {
            out.push(closed.clone());
            out.push(format!("{closed}ь"));
        }
    }
    out.dedup();
    out
}

/// `stem` with its last vowel closed to `і` (`є` to `ї`), when that vowel is `о`, `е`
/// or `є` and only consonants follow it.
fn closed_syllable(stem: &str) -> Option<String> {
    let chars: Vec<char> = stem.chars().collect();
    let at = chars.iter().rposition(|c| "аеєиіїоуюяыэ".contains(*c))?;
    let to = match chars[at] {
        'о' | 'е' => 'і',
        'є' => 'ї',
        _ => return None,
    };
    if at + 1 == chars.len() {
        return None;
    }
    let mut out: String = chars[..at].iter().collect();
    out.push(to);
    out.extend(&chars[at + 1..]);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn case_endings_fold_back() {
        assert!(nominatives("харькове").contains(&"харьков".to_string()));
        assert!(nominatives("харкові").contains(&"харків".to_string()));
        assert!(nominatives("бородянке").contains(&"бородянка".to_string()));
        assert!(nominatives("ірпені").contains(&"ірпінь".to_string()));
        assert!(nominatives("києва").contains(&"київ".to_string()));
        assert!(nominatives("сум").contains(&"сум".to_string()));
    }

    #[test]
    fn adjectives_are_no_towns() {
        for w in [
            "киевской",
            "київської",
            "михайловской",
            "донецкой",
            "харківській",
        ] {
            assert!(is_adjective(w), "{w}");
        }
        for w in [
            "харькове",
            "курска",
            "києві",
            "бородянке",
            "одессе",
            "донецка",
            "харковом",
        ] {
            assert!(!is_adjective(w), "{w}");
        }
    }
}
