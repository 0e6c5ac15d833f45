//! To whom a caption attributes its claims ("according to", "selon", "según", "laut",
//! "بحسب").

use std::sync::LazyLock;

use cairn_model::Span;
use regex::Regex;

use crate::text::lowered;

static ACCORDING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\baccording to\s+(?:the\s+)?([^,.;:()]+?)(?:\s+(?:that|who|which)\b|[,.;:()]|$)",
    )
    .unwrap()
});
static WHAT_SAID: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\bwhat\s+((?:local\s+)?(?:activists|residents|witnesses|rebels|medics|officials|rescuers|monitors|doctors|the military|the army|state media|opposition activists|[A-Z][\w -]+?))\s+(?:said|say|says|described as|called)\b").unwrap()
});
static SUBJ_SAID: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b((?:local\s+)?(?:activists|residents|witnesses|medics|officials|rescuers|rescue workers|monitors|doctors|state media|state television|the monitor))\s+(?:said|say|says|reported|claimed)\b").unwrap()
});

/// "selon l'OSDH", "según el ministerio", "laut der Polizei", "nach Angaben des
/// Roten Kreuzes", "بحسب الدفاع المدني", "وفقاً لوزارة الصحة": the source runs to the
/// next punctuation mark or relative word.
static ACCORDING_OTHER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"(?:(?i:\bselon|\bsegún|\bde\s+acuerdo\s+con|\bnach\s+Angaben)\s+(?:(?i:l'|l’)|(?i:les|le|la|du|de\s+la|des|el|los|las|del|der|von)\s+)?",
        r"|(?:بحسب|حسب|وفقا\s+ل|وفقاً\s+ل|وفق)\s*(?:ما\s+(?:أفاد|ذكر|قال)(?:ت)?\s+)?)",
        r"(?P<src>[^,.;:()«»،؛]+?)(?:\s+(?:qui|que|quien|der|die|das|الذي|التي)\b|[,.;:()«»،؛]|$)",
    ))
    .unwrap()
});
/// "laut der Polizei", "Laut UN-Angaben": German nouns are capitalised, so the source is
/// the run of capitalised words (with genitives) after the article.
static LAUT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b[Ll]aut\s+(?:(?:dem|der|den|des)\s+)?(?P<src>\p{Lu}[\w-]*(?:\s+(?:des|der|von|für)\s+\p{Lu}[\w-]*|\s+\p{Lu}[\w-]*)*)").unwrap()
});
/// What [`ACCORDING_OTHER`] and [`LAUT`] need.
static ACCORDING_OTHER_NEEDS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new("(?i)selon|según|de acuerdo con|nach angaben|laut |بحسب|حسب|وفق").unwrap()
});

/// How many words a source named after "selon"/"según"/"laut"/"بحسب" may have.
const MAX_SOURCE_WORDS: usize = 8;

/// To whom the caption attributes its claims.
pub fn sources(text: &str, orgs: &[(String, Span)]) -> Vec<(String, Span)> {
    let mut out: Vec<(String, Span)> = Vec::new();
    let mut push = |name: &str, span: Span| {
        let name = name.trim();
        let lower = lowered(name);
        if name.is_empty()
            || [
                "they",
                "he",
                "she",
                "we",
                "it",
                "him",
                "them",
                "officials said",
            ]
            .contains(&&*lower)
        {
            return;
        }
        if !out.iter().any(|(n, _)| n.eq_ignore_ascii_case(name)) {
            out.push((name.to_string(), span));
        }
    };
    for c in ACCORDING.captures_iter(text) {
        let g = c.get(1).unwrap();
        push(g.as_str(), Span::new(g.start(), g.end()));
    }
    if ACCORDING_OTHER_NEEDS.is_match(text) {
        let found = ACCORDING_OTHER
            .captures_iter(text)
            .chain(LAUT.captures_iter(text));
        for c in found {
            let g = c.name("src").unwrap();
            if g.as_str().split_whitespace().count() <= MAX_SOURCE_WORDS {
                push(g.as_str(), Span::new(g.start(), g.end()));
            }
        }
    }
    for re in [&*WHAT_SAID, &*SUBJ_SAID] {
        for c in re.captures_iter(text) {
            let g = c.get(1).unwrap();
            push(g.as_str(), Span::new(g.start(), g.end()));
        }
    }
    // "the Syrian Observatory said": a named organisation speaking.
    for (name, span) in orgs {
        let after = &text[span.end..];
        if after.starts_with(" said")
            || after.starts_with(" says")
            || after.starts_with(" reported")
        {
            push(name, *span);
        }
    }
    out.sort_by_key(|(_, s)| s.start);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(t: &str) -> Vec<String> {
        sources(t, &[]).into_iter().map(|(n, _)| n).collect()
    }

    #[test]
    fn claims_in_each_language() {
        assert_eq!(
            names(
                "Un raid a fait 12 morts, selon l'Observatoire syrien des droits de l'homme (OSDH)."
            ),
            vec!["Observatoire syrien des droits de l'homme"]
        );
        assert_eq!(
            names("Murieron 8 personas, según el Ministerio de Salud de Gaza."),
            vec!["Ministerio de Salud de Gaza"]
        );
        assert_eq!(
            names("Laut der Polizei wurden drei Menschen verletzt."),
            vec!["Polizei"]
        );
        assert_eq!(
            names("Zwei Tote laut Angaben des Roten Kreuzes in Homs."),
            vec!["Angaben des Roten Kreuzes"]
        );
        assert_eq!(
            names("Nach Angaben des Roten Kreuzes, 40 Verletzte."),
            vec!["Roten Kreuzes"]
        );
        assert_eq!(
            names("مقتل 5 أشخاص بحسب الدفاع المدني، في حلب"),
            vec!["الدفاع المدني"]
        );
        assert_eq!(
            names("Des tentes à Rafah, selon les Nations unies."),
            vec!["Nations unies"]
        );
        assert_eq!(
            names("According to local officials, the bridge fell."),
            vec!["local officials"]
        );
        // "laut" as "loud" is no source.
        assert!(names("Die Musik war sehr laut und die Menge sang.").is_empty());
    }
}
