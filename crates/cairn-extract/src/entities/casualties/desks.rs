//! Tolls as Russian, Ukrainian, Turkish, Italian and Portuguese captions write them
//! (`погибли 12 человек`, `загинули 11 людей`, `12 kişi hayatını kaybetti`, `almeno otto
//! morti`, `oito mortos`), with each language's number words.

use super::patterns::{LB, Pattern, RB, WORD, after, before, pattern};

const RU_UK_HEDGE: &str = r"не\s+менее|по\s+меньшей\s+мере|более|больше|свыше|около|примерно|как\s+минимум|щонайменше|не\s+менше|понад|більше|близько|приблизно|майже|почти";
const RU_UK_NUM: &str = r"два|две|двое|двух|двох|дві|троє|трое|трех|трёх|трьох|три|четыре|четверо|чотири|чотирьох|пять|пятеро|п'ять|п’ятеро|п'ятьох|шесть|шестеро|шість|шістьох|семь|семеро|сім|сімох|восемь|вісім|девять|дев'ять|десять|десятки|десятков";
const IT_HEDGE: &str = r"almeno|più\s+di|oltre|circa|quasi|fino\s+a";
const IT_NUM: &str = r"due|tre|quattro|cinque|sei|sette|otto|nove|dieci|undici|dodici|tredici|quindici|venti|trenta|quaranta|cinquanta|cento|mille|decine|una\s+decina|una\s+dozzina";
const PT_HEDGE: &str = r"pelo\s+menos|ao\s+menos|mais\s+de|cerca\s+de|quase|até";
const PT_NUM: &str = r"dois|duas|três|tres|quatro|cinco|seis|sete|oito|nove|dez|onze|doze|quinze|vinte|trinta|quarenta|cinquenta|cem|mil|dezenas|uma\s+dezena";
const TR_HEDGE: &str = r"en\s+az|yaklaşık|en\s+az\s+olmak\s+üzere";
const TR_NUM: &str = r"iki|üç|dört|beş|altı|yedi|sekiz|dokuz|on|onlarca";

/// A number of these desks: digits with a thousand word after them (`6 тысяч`, `3 mila`)
/// or grouped, or a number word.
fn num(words: &str) -> String {
    format!(
        r"\d+\s+(?:тысяч[иа]?|тыс\.|тисяч[іи]?|mila|mil|bin)|\d{{1,3}}(?:[.\x{{a0}}\x{{202f}} ]\d{{3}})+|\d+|{words}"
    )
}

pub const NEEDS: &str = "(?i)погиб|убит|ранен|пострада|загин|загибл|поранен|вбит|мертв|morti|morte|uccis|uccid|ferit|ferend|cadaver|mort|ferid|matou|mataram|matando|morreram|hayatını|öldü|ölü|yaralı|yaraland";

/// The phrasings of the five languages.
pub fn patterns() -> Vec<Pattern> {
    let ru = num(RU_UK_NUM);
    let it = num(IT_NUM);
    let pt = num(PT_NUM);
    let tr = num(TR_NUM);
    vec![
        pattern(
            after(
                r"погибл[иоа]|погиб|убиты?|убито|ранены?|ранено|получили\s+ранения|пострадал[иоа]|загинул[иоа]|загинув|загинуло|поранено|поранені|постраждал[иоа]|вбито|вбиті",
                RU_UK_HEDGE,
                &ru,
            ),
            NEEDS,
            None,
        ),
        pattern(
            before(
                RU_UK_HEDGE,
                &ru,
                WORD,
                r"были|было|були|було|человек|людей|осіб",
                r"погибли|погибших|погибло|убиты|убитых|раненых|ранены|пострадавших|пострадали|загиблих|загинули|загинуло|поранених|поранені|постраждалих|вбитих",
            ),
            NEEDS,
            None,
        ),
        pattern(
            after(
                r"sono\s+mort[ie]|sono\s+stat[ie]\s+uccis[ie]|uccidendo|ferendone|ferendo|uccis[eoi]|morirono|(?:causato|provocato)\s+la\s+morte\s+di",
                IT_HEDGE,
                &it,
            ),
            NEEDS,
            None,
        ),
        pattern(
            before(
                IT_HEDGE,
                &it,
                WORD,
                r"sono|sono\s+state|sono\s+stati|rimaste|rimasti|stati|state|hanno|erano",
                r"mort[ie]|uccis[ie]|ferit[ie]|cadaveri|vittime",
            ),
            NEEDS,
            None,
        ),
        pattern(
            after(
                r"matou|mataram|matando|morreram|feriu|feriram|ferindo",
                PT_HEDGE,
                &pt,
            ),
            NEEDS,
            None,
        ),
        pattern(
            before(
                PT_HEDGE,
                &pt,
                WORD,
                r"foram|ficaram|estão|que",
                r"mort[oa]s|ferid[oa]s|morreram|vítimas",
            ),
            NEEDS,
            None,
        ),
        pattern(
            format!(
                r"(?i){LB}(?:(?P<h>{TR_HEDGE})\s+)?(?P<n>{tr})\s+(?:kişi(?:nin)?\s+)?(?P<k>hayatını\s+kaybetti|öldü|ölü|yaralı|yaralandı){RB}"
            ),
            NEEDS,
            None,
        ),
    ]
}

/// Number words of the five languages, with their low value and whether they are
/// open-ended.
pub const WORDS: &[(&str, u32, bool)] = &[
    ("два", 2, false),
    ("две", 2, false),
    ("двое", 2, false),
    ("двух", 2, false),
    ("двох", 2, false),
    ("дві", 2, false),
    ("три", 3, false),
    ("трое", 3, false),
    ("троє", 3, false),
    ("трех", 3, false),
    ("трёх", 3, false),
    ("трьох", 3, false),
    ("четыре", 4, false),
    ("четверо", 4, false),
    ("чотири", 4, false),
    ("чотирьох", 4, false),
    ("пять", 5, false),
    ("пятеро", 5, false),
    ("п'ять", 5, false),
    ("п’ятеро", 5, false),
    ("п'ятьох", 5, false),
    ("шесть", 6, false),
    ("шестеро", 6, false),
    ("шість", 6, false),
    ("шістьох", 6, false),
    ("семь", 7, false),
    ("семеро", 7, false),
    ("сім", 7, false),
    ("сімох", 7, false),
    ("восемь", 8, false),
    ("вісім", 8, false),
    ("девять", 9, false),
    ("дев'ять", 9, false),
    ("десять", 10, false),
    ("десятки", 24, true),
    ("десятков", 24, true),
    ("due", 2, false),
    ("tre", 3, false),
    ("quattro", 4, false),
    ("cinque", 5, false),
    ("sei", 6, false),
    ("sette", 7, false),
    ("otto", 8, false),
    ("nove", 9, false),
    ("dieci", 10, false),
    ("undici", 11, false),
    ("dodici", 12, false),
    ("tredici", 13, false),
    ("quindici", 15, false),
    ("venti", 20, false),
    ("trenta", 30, false),
    ("quaranta", 40, false),
    ("cinquanta", 50, false),
    ("cento", 100, false),
    ("mille", 1000, false),
    ("decine", 24, true),
    ("una decina", 10, true),
    ("una dozzina", 12, false),
    ("dois", 2, false),
    ("duas", 2, false),
    ("três", 3, false),
    ("quatro", 4, false),
    ("seis", 6, false),
    ("sete", 7, false),
    ("oito", 8, false),
    ("dez", 10, false),
    ("doze", 12, false),
    ("vinte", 20, false),
    ("trinta", 30, false),
    ("quarenta", 40, false),
    ("cinquenta", 50, false),
    ("cem", 100, false),
    ("mil", 1000, false),
    ("dezenas", 24, true),
    ("uma dezena", 10, true),
    ("iki", 2, false),
    ("üç", 3, false),
    ("dört", 4, false),
    ("beş", 5, false),
    ("altı", 6, false),
    ("yedi", 7, false),
    ("sekiz", 8, false),
    ("dokuz", 9, false),
    ("onlarca", 24, true),
];

/// A count written as digits and a word for thousands (`6 тысяч`, `3 mila`).
pub fn thousands(folded: &str) -> Option<u32> {
    let (n, word) = folded.split_once(' ')?;
    let n: u32 = n.parse().ok()?;
    let word = word.to_lowercase();
    ["тысяч", "тыс.", "тисяч", "mila", "mil", "bin"]
        .iter()
        .any(|w| word.starts_with(w))
        .then(|| n.checked_mul(1000))
        .flatten()
}
