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
