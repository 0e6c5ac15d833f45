//! Translations of one photograph: wires file the same picture with a caption in each
//! of their languages. Such captions share no words a near-duplicate check could see,
//! but they share what a photograph fixes: the photographer and agency, the day, the
//! place, and the numbers and names the caption reports. Two captions so alike are
//! linked as one photograph's captions, a link distinct from a variant: their texts
//! are never merged.
//!
//! Precision comes first: every field must be present and equal on both sides, and
//! the captions must report something beyond credit, day and place (a number, a name,
//! a toll), since one photographer files many different pictures of one place on one
//! day.

use cairn_model::{Count, Precision, Record, Span};

/// Whether `a` and `b` (records of two captions) are captions of one photograph in two
/// languages.
pub fn is_translation(a: &Record, b: &Record) -> bool {
    let (Some(la), Some(lb)) = (&a.lang, &b.lang) else {
        return false;
    };
    la != lb
        && same_credit(a, b)
        && same_day(a, b)
        && same_place(a, b)
        && same_tolls(a, b)
        && numbers(a) == numbers(b)
        && same_names(&a.persons, &b.persons)
        && same_names(&name_runs(a), &name_runs(b))
        && (has_anchor(a) || has_anchor(b))
        && similar_length(a, b)
}

/// The agency and the photographers, each present and equal.
fn same_credit(a: &Record, b: &Record) -> bool {
    let (Some(ca), Some(cb)) = (&a.credit, &b.credit) else {
        return false;
    };
    let agency = |c: &cairn_model::Credit| c.agency.as_deref().map(str::to_lowercase);
    agency(ca).is_some()
        && agency(ca) == agency(cb)
        && !ca.photographers.is_empty()
        && same_names(&ca.photographers, &cb.photographers)
}

fn same_day(a: &Record, b: &Record) -> bool {
    match (&a.date, &b.date) {
        (Some(x), Some(y)) => x.precision == Precision::Day && x.value == y.value,
        _ => false,
    }
}

fn same_place(a: &Record, b: &Record) -> bool {
    let id = |r: &Record| r.location.as_ref().and_then(|l| l.gazetteer_id.clone());
    id(a).is_some() && id(a) == id(b) && places(a) == places(b)
}

/// Every located place a caption mentions, by gazetteer id.
fn places(r: &Record) -> Vec<&str> {
    let mut ids: Vec<&str> = r
        .places
        .iter()
        .filter_map(|p| p.gazetteer_id.as_deref())
        .collect();
    ids.sort_unstable();
    ids.dedup();
    ids
}

/// Tolls agree where both captions give one (a toll read in one language may be missed
/// in another; its digits are still compared by [`numbers`]).
fn same_tolls(a: &Record, b: &Record) -> bool {
    let agree = |x: &Option<Count>, y: &Option<Count>| match (x, y) {
        (Some(x), Some(y)) => (x.low, x.high) == (y.low, y.high),
        _ => true,
    };
    agree(&a.casualties.killed, &b.casualties.killed)
        && agree(&a.casualties.injured, &b.casualties.injured)
}

/// Whether a caption reports something a second picture of the day would not share.
fn has_anchor(r: &Record) -> bool {
    let located_elsewhere = r.places.iter().any(|p| {
        r.location.as_ref().is_some_and(|l| {
            p.gazetteer_id.is_some()
                && p.gazetteer_id != l.gazetteer_id
                && !l.within.iter().any(|w| Some(w) == p.gazetteer_id.as_ref())
        })
    });
    !numbers(r).is_empty()
        || !r.persons.is_empty()
        || !name_runs(r).is_empty()
        || r.casualties.killed.is_some()
        || r.casualties.injured.is_some()
        || located_elsewhere
}

/// The numbers written in digits (any script, group separators of any language gone)
/// outside the credit and the date, sorted.
fn numbers(r: &Record) -> Vec<String> {
    let mut skip: Vec<Span> = Vec::new();
    skip.extend(r.credit.as_ref().map(|c| c.span));
    skip.extend(r.date.as_ref().map(|d| d.span));
    let text = &r.text;
    let mut out = Vec::new();
    let mut run = String::new();
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let inside = skip.iter().any(|s| s.start <= i && i < s.end);
        let digit = if inside { None } else { ascii_digit(c) };
        match digit {
            Some(d) => run.push(d),
            // A separator between digit groups (`1,200`, `1.200`, `1 200`).
            None if !run.is_empty()
                && matches!(c, ',' | '.' | '\u{a0}' | '\u{202f}' | '\u{66c}')
                && chars.peek().is_some_and(|&(_, n)| ascii_digit(n).is_some()) => {}
            None => {
                if !run.is_empty() {
                    out.push(std::mem::take(&mut run));
                }
            }
        }
    }
    if !run.is_empty() {
        out.push(run);
    }
    out.sort_unstable();
    out
}

/// Names as any language writes them: runs of two or more capitalised words (not
/// acronyms) outside the credit, the date and the places, whose names differ between
/// languages. `Le jeune Ahmad Darwish est soigné` gives `Ahmad Darwish`.
fn name_runs(r: &Record) -> Vec<String> {
    let mut skip: Vec<Span> = r.places.iter().map(|p| p.span).collect();
    skip.extend(r.location.as_ref().map(|l| l.span));
    skip.extend(r.credit.as_ref().map(|c| c.span));
    skip.extend(r.date.as_ref().map(|d| d.span));
    let text = &r.text;
    let mut out = Vec::new();
    let mut run: Vec<&str> = Vec::new();
    let mut flush = |run: &mut Vec<&str>| {
        if run.len() >= 2 {
            out.push(run.join(" "));
        }
        run.clear();
    };
    let mut at = 0;
    for word in text.split(' ') {
        let start = at;
        at += word.len() + 1;
        let inside = skip.iter().any(|s| s.start <= start && start < s.end);
        let bare = word.trim_matches(|c: char| !c.is_alphanumeric());
        let capitalised = bare.chars().next().is_some_and(char::is_uppercase)
            && bare.chars().any(char::is_lowercase);
        if inside || !capitalised {
            flush(&mut run);
            continue;
        }
        run.push(bare);
        // A name ends at a comma or a full stop after it.
        if word.ends_with([',', '.', ';', ':', ')']) {
            flush(&mut run);
        }
    }
    flush(&mut run);
    out
}

/// The ASCII digit of a decimal digit in Latin, Arabic-Indic or Persian script.
fn ascii_digit(c: char) -> Option<char> {
    let base = match c {
        '0'..='9' => '0',
        '\u{660}'..='\u{669}' => '\u{660}',
        '\u{6f0}'..='\u{6f9}' => '\u{6f0}',
        _ => return None,
    };
    char::from_digit(c as u32 - base as u32, 10)
}

/// Whether two lists name the same people (bodies are left out: their names are
/// translated, so they cannot be compared). Names in Latin script compare by
/// their letters without case or marks; a name in another script cannot be checked
/// against a Latin one, so lists in two scripts must at least be as long.
fn same_names(a: &[String], b: &[String]) -> bool {
    let keys = |v: &[String]| {
        let mut k: Vec<String> = v.iter().map(|n| name_key(n)).collect();
        k.sort_unstable();
        k.dedup();
        k
    };
    let latin = |v: &[String]| v.iter().all(|n| n.chars().all(|c| !is_arabic(c)));
    if latin(a) && latin(b) {
        keys(a) == keys(b)
    } else {
        keys(a).len() == keys(b).len()
    }
}

fn is_arabic(c: char) -> bool {
    ('\u{600}'..='\u{6ff}').contains(&c) || ('\u{750}'..='\u{77f}').contains(&c)
}

/// A name's letters, lower-case, without marks or anything else.
fn name_key(name: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    name.nfkd()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// Translations run to comparable lengths; a caption several times the other's length
/// tells a different story.
fn similar_length(a: &Record, b: &Record) -> bool {
    let len = |r: &Record| {
        let credit = r.credit.as_ref().map_or(0, |c| c.span.end - c.span.start);
        r.text.chars().count().saturating_sub(credit).max(1) as f64
    };
    let ratio = len(a) / len(b);
    (0.5..=2.0).contains(&ratio)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(text: &str) -> Record {
        Record {
            text: text.to_string(),
            ..Record::default()
        }
    }

    #[test]
    fn numbers_read_alike_in_every_script_and_grouping() {
        let n = |t: &str| numbers(&record(t));
        assert_eq!(n("1,200 displaced and 7 dead"), vec!["1200", "7"]);
        assert_eq!(n("1.200 Vertriebene, 7 Tote"), vec!["1200", "7"]);
        assert_eq!(n("\u{661}\u{662}\u{660}\u{660} \u{667}"), vec!["1200", "7"]);
        assert_eq!(n("no digits here"), Vec::<String>::new());
    }

    #[test]
    fn names_are_runs_of_capitalised_words() {
        let r = record("Le jeune Ahmad Darwish est soigné. Des secouristes de la ONG aident.");
        assert_eq!(name_runs(&r), vec!["Ahmad Darwish"]);
        assert!(same_names(
            &["KARIM NASSER".into()],
            &["Karim Nasser".into()]
        ));
        assert!(!same_names(
            &["Karim Nasser".into()],
            &["Lina Saleh".into()]
        ));
    }
}
