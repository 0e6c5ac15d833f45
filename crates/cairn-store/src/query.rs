//! The query language on top of tantivy's grammar: how deep a query may nest (the
//! grammar and every walk over its tree recurse once per level, so an unbounded depth
//! overflows the stack), and trailing-`*` prefix terms (`alep*` finds `Aleppo`).

use tantivy::query_grammar::{Delimiter, UserInputAst, UserInputLeaf, UserInputLiteral};

use crate::{Error, Result};

/// The most words a text searched as plain words is read for (a pasted page is not a
/// search; its first words are).
pub(crate) const MAX_PLAIN_WORDS: usize = 64;

/// The deepest a query may nest groups `( … )` and `NOT`s inside one another.
pub const MAX_QUERY_DEPTH: usize = 32;

/// Groups and `NOT`s a query may hold in all, however they nest: a bound that does not
/// depend on reading quotes the way the grammar does, so no query can get past it to
/// recurse deeper than the stack allows.
const MAX_GROUPS: usize = 256;

/// Refuses a query that nests deeper than [`MAX_QUERY_DEPTH`], before the grammar
/// (which recurses once per level) reads it.
pub(crate) fn check_depth(query: &str) -> Result<()> {
    let too_deep = || {
        Error::Query(format!(
            "the query nests groups or NOTs more than {MAX_QUERY_DEPTH} deep"
        ))
    };
    let groups = query.matches('(').count() + query.matches("NOT").count();
    if groups > MAX_GROUPS {
        return Err(Error::Query(format!(
            "the query holds more than {MAX_GROUPS} groups and NOTs"
        )));
    }
    if depth(query) > MAX_QUERY_DEPTH {
        return Err(too_deep());
    }
    Ok(())
}

/// How deep a query nests, reading it as the grammar does: parentheses inside a quoted
/// phrase or after a backslash are text; each `NOT` counts one level until the group
/// it is in closes (it recurses until its operand ends, and counting it to the group's
/// end never counts less).
fn depth(query: &str) -> usize {
    // Per open group: the NOTs met in it so far.
    let mut levels: Vec<usize> = vec![0];
    let mut deepest = 0;
    let mut quote: Option<char> = None;
    let mut chars = query.char_indices().peekable();
    let mut word_start = true;
    while let Some((i, c)) = chars.next() {
        if c == '\\' {
            chars.next();
            word_start = false;
            continue;
        }
        if let Some(q) = quote {
            if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '"' | '\'' => quote = Some(c),
            '(' => levels.push(0),
            ')' if levels.len() > 1 => {
                levels.pop();
            }
            'N' if word_start && is_not(&query[i..]) => {
                if let Some(n) = levels.last_mut() {
                    *n += 1;
                }
            }
            _ => {}
        }
        word_start = c.is_whitespace() || matches!(c, '(' | ')' | '+' | '-');
        deepest = deepest.max(levels.len() - 1 + levels.iter().sum::<usize>());
    }
    deepest
}

fn is_not(s: &str) -> bool {
    s.strip_prefix("NOT")
        .is_some_and(|rest| rest.starts_with(|c: char| c.is_whitespace() || c == '('))
}

/// A query as the grammar should read it: typographic double quotes (`“air strike”`,
/// `„…“`, `«…»`) are quotes, and an apostrophe inside a word (`Ma'arrat`) is part of
/// the word, where the grammar would open a single-quoted phrase at it. The word keeps
/// an apostrophe the analyzers read as they read `'`.
pub(crate) fn typographic(query: &str) -> String {
    let chars: Vec<char> = query.chars().collect();
    let mut out = String::with_capacity(query.len());
    for (i, &c) in chars.iter().enumerate() {
        let word = |j: Option<usize>| {
            j.and_then(|j| chars.get(j))
                .is_some_and(|c| c.is_alphanumeric())
        };
        match c {
            '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{201F}' | '\u{00AB}' | '\u{00BB}' => {
                out.push('"')
            }
            '\'' if word(i.checked_sub(1)) && word(Some(i + 1)) => out.push('\u{2019}'),
            _ => out.push(c),
        }
    }
    out
}

/// Parses a query into tantivy's tree, its depth checked, with each trailing-`*` term
/// of one word made a prefix match of that word as the index analyses it (`words`);
/// `*` after a phrase of several words stays tantivy's phrase prefix.
pub(crate) fn parse(
    query: &str,
    text_field: &str,
    words: &dyn Fn(&str) -> Vec<String>,
) -> Result<UserInputAst> {
    check_depth(query)?;
    let ast = tantivy::query_grammar::parse_query(query).map_err(|_| {
        Error::Query("a quote, bracket or operator of the query language is left open".into())
    })?;
    rewrite(all_but(ast), text_field, words)
}

/// A group of exclusions alone (`-gaza`) means every caption but those: the grammar
/// gives such a group nothing to exclude from, and the engine refuses it.
fn all_but(ast: UserInputAst) -> UserInputAst {
    use tantivy::query_grammar::Occur;
    match ast {
        UserInputAst::Clause(cs) => {
            let only_excluded =
                !cs.is_empty() && cs.iter().all(|(o, _)| *o == Some(Occur::MustNot));
            let mut cs: Vec<_> = cs.into_iter().map(|(o, c)| (o, all_but(c))).collect();
            if only_excluded {
                cs.push((
                    Some(Occur::Must),
                    UserInputAst::Leaf(Box::new(UserInputLeaf::All)),
                ));
            }
            UserInputAst::Clause(cs)
        }
        UserInputAst::Boost(inner, b) => UserInputAst::Boost(Box::new(all_but(*inner)), b),
        leaf => leaf,
    }
}

fn rewrite(
    ast: UserInputAst,
    text_field: &str,
    words: &dyn Fn(&str) -> Vec<String>,
) -> Result<UserInputAst> {
    Ok(match ast {
        UserInputAst::Clause(cs) => UserInputAst::Clause(
            cs.into_iter()
                .map(|(o, c)| Ok((o, rewrite(c, text_field, words)?)))
                .collect::<Result<_>>()?,
        ),
        UserInputAst::Boost(inner, b) => {
            UserInputAst::Boost(Box::new(rewrite(*inner, text_field, words)?), b)
        }
        UserInputAst::Leaf(leaf) => match *leaf {
            UserInputLeaf::Regex { .. } => {
                return Err(Error::Query(
                    "regular expressions are not supported; end a word with * to match its prefix"
                        .into(),
                ));
            }
            // `field:*` asks whether a field exists, which only fast fields can answer.
            UserInputLeaf::Exists { field } => {
                return Err(Error::Query(format!(
                    "{field}:* is not supported; search words instead"
                )));
            }
            UserInputLeaf::Literal(l) if l.prefix => prefix_leaf(l, text_field, words)?,
            // The grammar keeps a bare word's trailing `*` in the word itself.
            UserInputLeaf::Literal(mut l)
                if l.delimiter == Delimiter::None && l.phrase.ends_with('*') =>
            {
                l.phrase = l.phrase.trim_end_matches('*').to_string();
                prefix_leaf(l, text_field, words)?
            }
            other => UserInputAst::Leaf(Box::new(other)),
        },
    })
}

/// Why the query parser could not make a query of a parsed tree, in the user's terms.
pub(crate) fn parser_reason(e: &tantivy::query::QueryParserError) -> String {
    use tantivy::query::QueryParserError as E;
    match e {
        E::FieldDoesNotExist(f) => {
            format!("captions have no field {f:?} (search the text, or use the filters)")
        }
        other => other.to_string(),
    }
}

/// A literal written with a trailing `*`: one word becomes a match of every indexed
/// word starting with it.
fn prefix_leaf(
    l: UserInputLiteral,
    text_field: &str,
    words: &dyn Fn(&str) -> Vec<String>,
) -> Result<UserInputAst> {
    let ws = words(&l.phrase);
    match ws.as_slice() {
        [] => Err(Error::Query(format!(
            "{:?}*: a prefix needs at least one letter or digit",
            l.phrase
        ))),
        [word] => Ok(UserInputAst::Leaf(Box::new(UserInputLeaf::Regex {
            field: Some(l.field_name.unwrap_or_else(|| text_field.to_string())),
            pattern: format!("{}.*", escape(word)),
        }))),
        _ => Ok(UserInputAst::Leaf(Box::new(UserInputLeaf::from(l)))),
    }
}

/// `word` as a regular expression matching exactly itself.
fn escape(word: &str) -> String {
    let mut out = String::with_capacity(word.len());
    for c in word.chars() {
        if c.is_alphanumeric() {
            out.push(c);
        } else {
            out.push_str(&format!("\\x{{{:x}}}", c as u32));
        }
    }
    out
}

/// A bbox filter `[west, south, east, north]` must be finite degrees within the globe,
/// its south not north of its north.
pub(crate) fn check_bbox([west, south, east, north]: [f64; 4]) -> Result<()> {
    let bad = |why: &str| {
        Err(Error::Query(format!(
            "bbox {west},{south},{east},{north}: {why}"
        )))
    };
    if ![west, south, east, north].iter().all(|v| v.is_finite()) {
        return bad("every bound must be a finite number");
    }
    if ![south, north].iter().all(|v| (-90.0..=90.0).contains(v)) {
        return bad("south and north are latitudes, from -90 to 90");
    }
    if ![west, east].iter().all(|v| (-180.0..=180.0).contains(v)) {
        return bad("west and east are longitudes, from -180 to 180");
    }
    if south > north {
        return bad("south lies north of north");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typographic_quotes_are_quotes_and_apostrophes_stay_in_words() {
        assert_eq!(typographic("“air strike” Gaza"), "\"air strike\" Gaza");
        assert_eq!(typographic("Ma'arrat al-Numan"), "Ma\u{2019}arrat al-Numan");
        assert_eq!(typographic("'Aleppo' a'"), "'Aleppo' a'");
        tantivy::query_grammar::parse_query(&typographic("Ma'arrat")).unwrap();
    }

    #[test]
    fn a_lone_exclusion_keeps_everything_else() {
        let ast = parse("-gaza", "text", &|w| vec![w.to_lowercase()]).unwrap();
        let UserInputAst::Clause(cs) = ast else {
            panic!("a clause")
        };
        assert!(
            cs.iter().any(
                |(_, c)| matches!(c, UserInputAst::Leaf(l) if matches!(**l, UserInputLeaf::All))
            )
        );
        let ast = parse("smoke -gaza", "text", &|w| vec![w.to_lowercase()]).unwrap();
        let UserInputAst::Clause(cs) = ast else {
            panic!("a clause")
        };
        assert_eq!(cs.len(), 2, "a query with a word to keep is left as it is");
    }

    #[test]
    fn depth_counts_groups_and_nots_but_not_quoted_text() {
        assert_eq!(depth("a b"), 0);
        assert_eq!(depth("(a (b c)) (d)"), 2);
        assert_eq!(depth("\"((((\" a"), 0);
        assert_eq!(depth("\\(\\(a"), 0);
        assert_eq!(depth("NOT NOT a"), 2);
        assert_eq!(depth("(NOT (NOT a))"), 4);
        assert_eq!(depth("NOTE a"), 0);
        assert_eq!(depth(&format!("{}a{}", "(".repeat(40), ")".repeat(40))), 40);
    }

    #[test]
    fn deep_queries_are_refused_before_parsing() {
        let deep = format!("{}a{}", "(".repeat(10_000), ")".repeat(10_000));
        let e = check_depth(&deep).unwrap_err().to_string();
        assert!(e.contains("256 groups"), "{e}");
        let deep = format!("{}a{}", "(".repeat(33), ")".repeat(33));
        let e = check_depth(&deep).unwrap_err().to_string();
        assert!(e.contains("32 deep"), "{e}");
        let ok = format!("{}a{}", "(".repeat(32), ")".repeat(32));
        check_depth(&ok).unwrap();
        // Quotes cannot hide real groups: the count of all of them is bounded too.
        let sneaky = "((((\"))))\"".repeat(100);
        assert!(check_depth(&sneaky).is_err());
    }

    #[test]
    fn the_grammar_reads_the_most_groups_allowed_on_a_small_stack() {
        // Every group allowed at all, nested, parses on a stack smaller than a
        // blocking thread's, so the count bound alone keeps the parser safe.
        let q = format!("{}a{}", "(".repeat(MAX_GROUPS), ")".repeat(MAX_GROUPS));
        std::thread::Builder::new()
            .stack_size(1 << 20)
            .spawn(move || tantivy::query_grammar::parse_query(&q).is_ok())
            .unwrap()
            .join()
            .unwrap();
    }

    #[test]
    fn bbox_bounds_are_finite_degrees() {
        check_bbox([-10.0, 30.0, 40.0, 45.0]).unwrap();
        for b in [
            [f64::NAN, 0.0, 1.0, 1.0],
            [0.0, f64::INFINITY, 1.0, 1.0],
            [0.0, -91.0, 1.0, 1.0],
            [0.0, 0.0, 181.0, 1.0],
            [0.0, 10.0, 1.0, 5.0],
        ] {
            assert!(matches!(check_bbox(b), Err(Error::Query(_))), "{b:?}");
        }
    }

    #[test]
    fn escape_keeps_letters_and_hexes_the_rest() {
        assert_eq!(escape("aleppo"), "aleppo");
        assert_eq!(escape("a.b"), "a\\x{2e}b");
        assert_eq!(escape("ḥalab"), "ḥalab");
    }
}
