//! How filter values read on the page: a language code as its name, the spellings of
//! one name that differ only in letter case as one value, and which values a filter
//! cannot match (an unknown language or event type), so that the page can say so.

use cairn_store::FacetCount;

use super::State;
use super::map::full_date;

/// The languages the extractor tells, by ISO 639-1 code, with their English names.
pub(crate) const LANGUAGES: [(&str, &str); 18] = [
    ("en", "English"),
    ("fr", "French"),
    ("es", "Spanish"),
    ("de", "German"),
    ("ar", "Arabic"),
    ("pt", "Portuguese"),
    ("it", "Italian"),
    ("nl", "Dutch"),
    ("tr", "Turkish"),
    ("ru", "Russian"),
    ("uk", "Ukrainian"),
    ("pl", "Polish"),
    ("fa", "Persian"),
    ("ur", "Urdu"),
    ("he", "Hebrew"),
    ("zh", "Chinese"),
    ("ja", "Japanese"),
    ("ko", "Korean"),
];

/// The word a place filter's chip reads with (`city Aleppo`, `province Aleppo`), so
/// that a city and the province of its name are told apart.
pub(crate) fn place_word(e: &cairn_gazetteer::Entry) -> &'static str {
    use cairn_model::PlaceKind;
    match e.kind {
        PlaceKind::Town if e.population >= 100_000 => "city",
        PlaceKind::Town => "town",
        PlaceKind::Admin1 => "province",
        PlaceKind::Admin2 => "district",
        PlaceKind::Region => "region",
        PlaceKind::Country => "country",
        PlaceKind::Neighbourhood => "neighbourhood",
        PlaceKind::Point => "place",
    }
}

/// A language code's English name, when it is one the extractor tells.
pub(crate) fn language_name(code: &str) -> Option<&'static str> {
    LANGUAGES
        .iter()
        .find(|(c, _)| c.eq_ignore_ascii_case(code.trim()))
        .map(|(_, n)| *n)
}

/// Facet values merged when they differ only in letter case (the filter ignores case,
/// so `ARIS MESSINIS` and `Aris Messinis` are one person), each shown in the spelling
/// most of its captions use, a spelling in mixed case before one in capitals among
/// equals; most frequent first again.
pub(crate) fn fold_case(values: &[FacetCount]) -> Vec<FacetCount> {
    // (folded, best spelling, its count, total)
    let mut groups: Vec<(String, &str, u64, u64)> = Vec::new();
    for v in values {
        let folded = v.value.to_lowercase();
        match groups.iter_mut().find(|g| g.0 == folded) {
            Some(g) => {
                g.3 += v.count;
                if (v.count, !shouting(&v.value)) > (g.2, !shouting(g.1)) {
                    g.1 = &v.value;
                    g.2 = v.count;
                }
            }
            None => groups.push((folded, &v.value, v.count, v.count)),
        }
    }
    let mut out: Vec<FacetCount> = groups
        .into_iter()
        .map(|(_, value, _, count)| FacetCount {
            value: value.to_string(),
            count,
        })
        .collect();
    out.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.value.cmp(&b.value)));
    out
}

/// A name written all in capitals (a wire's credit line), which reads worse than the
/// same name in mixed case.
fn shouting(s: &str) -> bool {
    s.chars().any(char::is_alphabetic) && !s.chars().any(char::is_lowercase)
}

/// Values of a filter that can match nothing, each with why: a language code the
/// extractor never gives, an event type it never reports.
pub(crate) fn impossible(key: &str, value: &str) -> Option<String> {
    match key {
        "lang" if language_name(value).is_none() => Some(format!(
            "lang {value:?} is not a language cairn tells; the codes are {}.",
            LANGUAGES.map(|(c, _)| c).join(", ")
        )),
        "event"
            if !cairn_extract::event_type_names().any(|e| e.eq_ignore_ascii_case(value.trim())) =>
        {
            Some(format!(
                "event {value:?} is not an event type cairn reports; the types are {}.",
                cairn_extract::event_type_names()
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        }
        _ => None,
    }
}

/// What the page says of a search's parameters before it runs: each value that can
/// match nothing, and a date range that ends before it starts.
pub(crate) fn warnings(s: &State) -> Vec<String> {
    let mut out: Vec<String> = s
        .pairs
        .iter()
        .filter_map(|(k, v)| impossible(k, v))
        .collect();
    if let (Some(from), Some(to)) = (s.get("from"), s.get("to")) {
        let (a, b) = (full_date(from, false), full_date(to, true));
        let dated = |d: &str| d.len() == 10 && d.as_bytes()[4] == b'-';
        if dated(&a) && dated(&b) && a > b {
            out.push(format!(
                "from {from} is later than to {to}: no date lies between them."
            ));
        }
    }
    out
}

/// What a source filter's chip names: a file by its name (a folder by its own, with
/// its slash), a web page by its address without the scheme, anything else as given.
pub(crate) fn source_name(uri: &str) -> String {
    if let Some(path) = uri.strip_prefix("file://") {
        let trimmed = path.trim_end_matches('/');
        let last = trimmed.rsplit('/').next().unwrap_or(trimmed);
        if last.is_empty() {
            return uri.to_string();
        }
        let slash = if trimmed.len() < path.len() { "/" } else { "" };
        return format!("{last}{slash}");
    }
    for scheme in ["https://", "http://"] {
        if let Some(rest) = uri.strip_prefix(scheme).filter(|r| !r.is_empty()) {
            return rest.to_string();
        }
    }
    uri.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fc(value: &str, count: u64) -> FacetCount {
        FacetCount {
            value: value.into(),
            count,
        }
    }

    #[test]
    fn spellings_that_differ_in_case_are_one_value_in_the_usual_spelling() {
        let folded = fold_case(&[
            fc("Lee Author", 2),
            fc("ARIS MESSINIS", 2),
            fc("Aris Messinis", 2),
            fc("aris messinis", 1),
        ]);
        assert_eq!(folded, vec![fc("Aris Messinis", 5), fc("Lee Author", 2)]);
    }

    #[test]
    fn a_source_is_named_by_its_file_or_address() {
        assert_eq!(
            source_name("file:///data/wires/afp-2016-11.html"),
            "afp-2016-11.html"
        );
        assert_eq!(source_name("file:///data/wires/"), "wires/");
        assert_eq!(
            source_name("https://news.example/gallery/aleppo"),
            "news.example/gallery/aleppo"
        );
        assert_eq!(source_name("file:///"), "file:///");
        assert_eq!(source_name("stdin"), "stdin");
    }

    #[test]
    fn unknown_languages_and_events_are_named() {
        assert_eq!(language_name("AR"), Some("Arabic"));
        assert!(impossible("lang", "xx").unwrap().contains("\"xx\""));
        assert_eq!(impossible("lang", "fr"), None);
        let event = cairn_extract::event_type_names().next().unwrap();
        assert_eq!(impossible("event", &event.to_lowercase()), None);
        assert!(impossible("event", "Picnic").is_some());
        assert_eq!(impossible("agency", "Nobody"), None);
    }
}
