//! A search's query: its text, read in the query language or, when it does not read
//! as one, as plain words (and said so), each word matching the captions' own words,
//! their stemmed forms in every language the index stems, and, when it names a place,
//! the captions located there or naming it in any spelling; and its filters.

use std::ops::Bound;

use cairn_gazetteer::Gazetteer;
use tantivy::Term;
use tantivy::query::{
    AllQuery, BooleanQuery, Occur, PhraseQuery, Query, QueryParser, RangeQuery, TermQuery,
    TermSetQuery,
};
use tantivy::query_grammar::{Delimiter, UserInputAst, UserInputLeaf, UserInputLiteral};
use tantivy::schema::{Facet, Field, IndexRecordOption};

use super::SearchIndex;
use super::schema::parse_bound;
use crate::views::Filters;
use crate::{Error, Result};

/// The longest run of plain words looked up as one place name (`Bab al-Nairab`).
const MAX_NAME_WORDS: usize = 4;

/// A search's query, and what the searcher should be told about how its text was read.
pub(crate) struct Built {
    pub query: Box<dyn Query>,
    /// Set when the text was searched as plain words (it is not the query language).
    pub notice: Option<String>,
}

impl SearchIndex {
    fn term_any(&self, field: Field, values: &[String]) -> Option<Box<dyn Query>> {
        if values.is_empty() {
            return None;
        }
        let subs: Vec<(Occur, Box<dyn Query>)> = values
            .iter()
            .map(|v| {
                let t = Term::from_field_text(field, &v.to_lowercase());
                (
                    Occur::Should,
                    Box::new(TermQuery::new(t, IndexRecordOption::Basic)) as Box<dyn Query>,
                )
            })
            .collect();
        Some(Box::new(BooleanQuery::new(subs)))
    }

    /// The words of a text as the index sees them, each with its position.
    pub(crate) fn words(&self, text: &str) -> Vec<(usize, String)> {
        let mut analyzer = self.analyzer.clone();
        let mut stream = analyzer.token_stream(text);
        let mut words = Vec::new();
        while stream.advance() {
            let t = stream.token();
            words.push((t.position, t.text.clone()));
        }
        words
    }

    /// The phrases of a query that must match exactly (no slop, no prefix, on the
    /// text) and whose words are all neighbours once analysed, as their words. Empty
    /// when any phrase of the query has a slop, so that a phrase written twice, once
    /// with a slop, is never narrowed.
    pub(crate) fn exact_phrases(&self, query: &str) -> Vec<Vec<String>> {
        use tantivy::query_grammar::{UserInputAst, UserInputLeaf, UserInputLiteral};
        fn literals<'a>(ast: &'a UserInputAst, out: &mut Vec<&'a UserInputLiteral>) {
            match ast {
                UserInputAst::Clause(cs) => cs.iter().for_each(|(_, c)| literals(c, out)),
                UserInputAst::Boost(inner, _) => literals(inner, out),
                UserInputAst::Leaf(leaf) => {
                    if let UserInputLeaf::Literal(l) = leaf.as_ref() {
                        out.push(l);
                    }
                }
            }
        }
        let Ok(ast) = tantivy::query_grammar::parse_query(query) else {
            return Vec::new();
        };
        let mut lits = Vec::new();
        literals(&ast, &mut lits);
        if lits.iter().any(|l| l.slop > 0) {
            return Vec::new();
        }
        lits.iter()
            .filter(|l| !l.prefix && l.field_name.as_deref().is_none_or(|f| f == "text"))
            .filter_map(|l| {
                let words = self.words(&l.phrase);
                let neighbours = words.windows(2).all(|w| w[1].0 == w[0].0 + 1);
                (words.len() >= 2 && neighbours)
                    .then(|| words.into_iter().map(|(_, w)| w).collect())
            })
            .collect()
    }

    /// The query with each phrase query of `exact` answered from the word pairs: a
    /// two-word phrase is its pair's term; a longer one keeps its phrase check but
    /// only on the captions holding all its pairs.
    fn with_pairs(&self, q: Box<dyn Query>, exact: &[Vec<String>]) -> Box<dyn Query> {
        if let Some(b) = q.downcast_ref::<BooleanQuery>() {
            let clauses = b
                .clauses()
                .iter()
                .map(|(o, c)| (*o, self.with_pairs(c.box_clone(), exact)))
                .collect();
            let mut rewritten = BooleanQuery::new(clauses);
            rewritten.set_minimum_number_should_match(b.get_minimum_number_should_match());
            return Box::new(rewritten);
        }
        if let Some(p) = q.downcast_ref::<PhraseQuery>() {
            let words: Vec<String> = p
                .phrase_terms()
                .iter()
                .filter_map(|t| t.value().as_str().map(str::to_string))
                .collect();
            if p.field() == self.fields.text && exact.contains(&words) {
                let mut parts: Vec<Box<dyn Query>> = words
                    .windows(2)
                    .map(|w| {
                        let t =
                            Term::from_field_text(self.fields.pairs, &format!("{} {}", w[0], w[1]));
                        Box::new(TermQuery::new(t, IndexRecordOption::WithFreqs)) as Box<dyn Query>
                    })
                    .collect();
                if parts.len() == 1 {
                    return parts.remove(0);
                }
                parts.push(q);
                return Box::new(BooleanQuery::intersection(parts));
            }
        }
        q
    }

    /// The parser of query texts: words search the text and every language's field.
    fn parser(&self) -> QueryParser {
        let f = &self.fields;
        let mut fields = vec![f.text];
        fields.extend(f.text_lang);
        let mut parser = QueryParser::for_index(&self.index, fields);
        parser.set_conjunction_by_default();
        // The only regular expressions in a parsed query are the prefix matches
        // `crate::query` makes of trailing-`*` words; it refuses the users' own.
        parser.allow_regexes();
        parser
    }

    /// The query of a text: in the query language when it reads as one, else as plain
    /// words with a notice saying so. Never an error for the text alone.
    fn text_query(&self, query: &str) -> Result<(Box<dyn Query>, Option<String>)> {
        let query = &crate::query::typographic(query);
        match self.language_query(query) {
            Ok(q) => Ok((q, None)),
            Err(Error::Query(why)) => Ok(self.plain_query(query, &why)),
            Err(e) => Err(e),
        }
    }

    /// The text read in the query language.
    fn language_query(&self, query: &str) -> Result<Box<dyn Query>> {
        let words = |s: &str| self.words(s).into_iter().map(|(_, w)| w).collect();
        let ast = crate::query::parse(query, "text", &words)?;
        let ast = self.expand(ast);
        let q = self
            .parser()
            .build_query_from_user_input_ast(ast)
            .map_err(|e| Error::Query(crate::query::parser_reason(&e)))?;
        let exact = self.exact_phrases(query);
        Ok(if exact.is_empty() {
            q
        } else {
            self.with_pairs(q, &exact)
        })
    }

    /// The text as plain words: every run of characters between spaces that holds a
    /// word is required; quotes and brackets are read as the characters they are.
    fn plain_query(&self, query: &str, why: &str) -> (Box<dyn Query>, Option<String>) {
        let mut chunks: Vec<&str> = query
            .split_whitespace()
            .filter(|c| !self.words(c).is_empty() || !self.lang_words(c).is_empty())
            .take(crate::query::MAX_PLAIN_WORDS)
            .collect();
        // An operator left hanging (`smoke AND`) was meant as one, not as a word;
        // alone, it is the word.
        let operator = |c: &&str| matches!(*c, "AND" | "OR" | "NOT");
        if !chunks.iter().all(operator) {
            chunks.retain(|c| !operator(c));
        }
        if chunks.is_empty() {
            let notice =
                format!("{query:?} holds no words to search ({why}); showing every caption");
            return (Box::new(AllQuery), Some(notice));
        }
        let clause = chunks
            .iter()
            .map(|c| {
                (
                    None,
                    UserInputAst::Leaf(Box::new(UserInputLeaf::Literal(plain_literal(c)))),
                )
            })
            .collect();
        let ast = self.expand(UserInputAst::Clause(clause));
        let notice = format!("Searched as plain words: {} ({why})", chunks.join(" "));
        match self.parser().build_query_from_user_input_ast(ast) {
            Ok(q) => (q, Some(notice)),
            // Plain literals on the parser's own fields always build; should one not,
            // the search still answers, with nothing.
            Err(e) => (
                Box::new(BooleanQuery::new(Vec::new())),
                Some(format!("{notice}; {}", crate::query::parser_reason(&e))),
            ),
        }
    }

    /// The words of a text as the Arabic field reads them (a vowelled Arabic word is
    /// one word there, letters and marks to the plain analyzer).
    fn lang_words(&self, text: &str) -> Vec<String> {
        let mut analyzer = super::analyzers::lang_analyzer("ar");
        let mut stream = analyzer.token_stream(text);
        let mut words = Vec::new();
        while stream.advance() {
            words.push(stream.token().text.clone());
        }
        words
    }

    /// The query tree with every unfielded phrase made exact on the text (quotes mean
    /// the words as written, accents aside) and every name of a place, a word or a run
    /// of plain words, also matching the captions located in that place.
    fn expand(&self, ast: UserInputAst) -> UserInputAst {
        match ast {
            UserInputAst::Clause(cs) => UserInputAst::Clause(self.expand_clause(cs)),
            UserInputAst::Boost(inner, b) => UserInputAst::Boost(Box::new(self.expand(*inner)), b),
            UserInputAst::Leaf(leaf) => match *leaf {
                UserInputLeaf::Literal(mut l) if l.field_name.is_none() && !l.prefix => {
                    let name = l.phrase.clone();
                    if l.delimiter != Delimiter::None {
                        l.field_name = Some("text".into());
                    }
                    self.or_place(
                        UserInputAst::Leaf(Box::new(UserInputLeaf::Literal(l))),
                        &name,
                    )
                }
                other => UserInputAst::Leaf(Box::new(other)),
            },
        }
    }

    fn expand_clause(
        &self,
        cs: Vec<(Option<Occur>, UserInputAst)>,
    ) -> Vec<(Option<Occur>, UserInputAst)> {
        let mut out = Vec::with_capacity(cs.len());
        let mut cs = cs.into_iter().peekable();
        let mut pending: Vec<(Option<Occur>, UserInputAst)> = Vec::new();
        loop {
            // Gather a run of required plain words, then look its longest names up.
            while let Some((o, ast)) = cs.peek() {
                if matches!(o, None | Some(Occur::Must)) && plain_word(ast).is_some() {
                    pending.extend(cs.next());
                } else {
                    break;
                }
            }
            out.extend(self.expand_run(std::mem::take(&mut pending)));
            match cs.next() {
                Some((o, ast)) => out.push((o, self.expand(ast))),
                None => return out,
            }
        }
    }

    /// A run of required plain words, each run of two to [`MAX_NAME_WORDS`] of them
    /// that names a place (longest first) matched as those words or that place.
    fn expand_run(
        &self,
        run: Vec<(Option<Occur>, UserInputAst)>,
    ) -> Vec<(Option<Occur>, UserInputAst)> {
        let mut out = Vec::with_capacity(run.len());
        let mut i = 0;
        while i < run.len() {
            let longest = (2..=MAX_NAME_WORDS.min(run.len() - i)).rev().find_map(|n| {
                let name: Vec<&str> = run[i..i + n]
                    .iter()
                    .filter_map(|(_, a)| plain_word(a))
                    .collect();
                self.place_terms(&name.join(" ")).map(|p| (n, p))
            });
            match longest {
                Some((n, place)) => {
                    let words = run[i..i + n]
                        .iter()
                        .map(|(_, a)| (Some(Occur::Must), self.expand(a.clone())))
                        .collect();
                    let either = vec![
                        (Some(Occur::Should), UserInputAst::Clause(words)),
                        (Some(Occur::Should), places_leaf(place)),
                    ];
                    out.push((run[i].0, UserInputAst::Clause(either)));
                    i += n;
                }
                None => {
                    out.push((run[i].0, self.expand(run[i].1.clone())));
                    i += 1;
                }
            }
        }
        out
    }

    /// `ast`, or the captions located in the place `name` names.
    fn or_place(&self, ast: UserInputAst, name: &str) -> UserInputAst {
        let Some(place) = self.place_terms(name) else {
            return ast;
        };
        UserInputAst::Clause(vec![
            (Some(Occur::Should), ast),
            (Some(Occur::Should), places_leaf(place)),
        ])
    }

    /// The place a name names ([`super::named::place_of`]), as the terms that find
    /// it: its gazetteer path (the captions located in it or inside it), its id (the
    /// captions naming it, in whatever spelling) and the spellings the archive's
    /// captions write it in (for those that write one where no place was read).
    fn place_terms(&self, name: &str) -> Option<PlaceTerms> {
        let g: &Gazetteer = self.places();
        let p = super::named::place_of(g, name)?;
        let path: Vec<String> = g
            .path(p)
            .into_iter()
            .map(|q| g.entry(q).id.clone())
            .collect();
        let id = g.entry(p).id.clone();
        let searcher = self.reader.searcher();
        let names_it = |s: &str| g.named(s) == Some(p);
        let spellings = super::spellings::of(&searcher, self.fields.k_spelled, &id, names_it)
            .into_iter()
            .map(|s| {
                let one_word = self.words(&s).len() == 1;
                (s, one_word)
            })
            .collect();
        Some(PlaceTerms {
            path: Facet::from_path(path.iter().map(String::as_str)).to_string(),
            id,
            name: g.entry(p).name.clone(),
            spellings,
        })
    }

    /// The query for a text and filters. The source filter is not the index's: the
    /// caller resolves it to the captions seen on those sources (`captions`).
    pub fn build(&self, query: &str, filters: &Filters, captions: Option<&[u64]>) -> Result<Built> {
        let f = &self.fields;
        let mut must: Vec<(Occur, Box<dyn Query>)> = Vec::new();
        let mut notice = None;
        if !query.trim().is_empty() {
            let (q, n) = self.text_query(query)?;
            notice = n;
            must.push((Occur::Must, q));
        }
        for (field, values) in [
            (f.k_agency, &filters.agency),
            (f.k_photographer, &filters.photographer),
            (f.k_country, &filters.country),
            (f.k_event, &filters.event),
            (f.k_lang, &filters.lang),
            (f.k_review, &filters.review),
        ] {
            if let Some(q) = self.term_any(field, values) {
                must.push((Occur::Must, q));
            }
        }
        self.push_filters(&mut must, filters, captions)?;
        let query: Box<dyn Query> = match must.len() {
            0 => Box::new(AllQuery),
            1 => must
                .pop()
                .map_or_else(|| Box::new(AllQuery) as Box<dyn Query>, |(_, q)| q),
            _ => Box::new(BooleanQuery::new(must)),
        };
        Ok(Built { query, notice })
    }

    /// The place, date, source, toll and map filters.
    fn push_filters(
        &self,
        must: &mut Vec<(Occur, Box<dyn Query>)>,
        filters: &Filters,
        captions: Option<&[u64]>,
    ) -> Result<()> {
        let f = &self.fields;
        if !filters.place.is_empty() {
            let subs: Vec<(Occur, Box<dyn Query>)> = filters
                .place
                .iter()
                .map(|path| {
                    let t = Term::from_facet(
                        f.f_place,
                        &Facet::from_path(path.iter().map(String::as_str)),
                    );
                    (
                        Occur::Should,
                        Box::new(TermQuery::new(t, IndexRecordOption::Basic)) as Box<dyn Query>,
                    )
                })
                .collect();
            must.push((Occur::Must, Box::new(BooleanQuery::new(subs))));
        }
        if let Some(from) = &filters.from {
            let d = parse_bound(from, false)?;
            let t = Term::from_field_i64(f.date_start, d);
            must.push((
                Occur::Must,
                Box::new(RangeQuery::new(Bound::Included(t), Bound::Unbounded)),
            ));
        }
        if let Some(to) = &filters.to {
            let d = parse_bound(to, true)?;
            let t = Term::from_field_i64(f.date_end, d);
            must.push((
                Occur::Must,
                Box::new(RangeQuery::new(Bound::Unbounded, Bound::Included(t))),
            ));
        }
        if let Some(ids) = captions {
            // The captions seen on the filter's sources (looked up in the database).
            let terms = ids.iter().map(|&id| Term::from_field_u64(f.id, id));
            must.push((Occur::Must, Box::new(TermSetQuery::new(terms))));
        }
        if let Some(k) = filters.killed_min {
            let t = Term::from_field_i64(f.killed, i64::from(k));
            must.push((
                Occur::Must,
                Box::new(RangeQuery::new(Bound::Included(t), Bound::Unbounded)),
            ));
        }
        if let Some(bbox @ [west, south, east, north]) = filters.bbox {
            crate::query::check_bbox(bbox)?;
            let lat = RangeQuery::new(
                Bound::Included(Term::from_field_f64(f.lat, south)),
                Bound::Included(Term::from_field_f64(f.lat, north)),
            );
            let lon = RangeQuery::new(
                Bound::Included(Term::from_field_f64(f.lon, west)),
                Bound::Included(Term::from_field_f64(f.lon, east)),
            );
            must.push((Occur::Must, Box::new(lat)));
            must.push((Occur::Must, Box::new(lon)));
        }
        Ok(())
    }
}

/// A plain word of a query: an unfielded bare literal.
fn plain_word(ast: &UserInputAst) -> Option<&str> {
    match ast {
        UserInputAst::Leaf(leaf) => match leaf.as_ref() {
            UserInputLeaf::Literal(l)
                if l.field_name.is_none() && !l.prefix && l.delimiter == Delimiter::None =>
            {
                Some(&l.phrase)
            }
            _ => None,
        },
        _ => None,
    }
}

fn plain_literal(word: &str) -> UserInputLiteral {
    UserInputLiteral {
        field_name: None,
        phrase: word.to_string(),
        delimiter: Delimiter::None,
        slop: 0,
        prefix: false,
    }
}

/// What finds a place: its facet path (as text), its gazetteer id, its name and the
/// archive's spellings of it (each with whether it is one word).
struct PlaceTerms {
    path: String,
    id: String,
    name: String,
    spellings: Vec<(String, bool)>,
}

/// The captions located in or inside a place, or naming it.
fn places_leaf(place: PlaceTerms) -> UserInputAst {
    let set = |field: &str, value: String| {
        (
            Some(Occur::Should),
            UserInputAst::Leaf(Box::new(UserInputLeaf::Set {
                field: Some(field.into()),
                elements: vec![value],
            })),
        )
    };
    // The gazetteer's own name in the text too, so that `Kiev` finds what `Kyiv` does
    // where the caption names a part of it (`Kyiv region`) the place is not.
    let name = UserInputLiteral {
        field_name: Some("text".into()),
        phrase: place.name,
        delimiter: Delimiter::DoubleQuotes,
        slop: 0,
        prefix: false,
    };
    let literal = |l: UserInputLiteral| {
        (
            Some(Occur::Should),
            UserInputAst::Leaf(Box::new(UserInputLeaf::Literal(l))),
        )
    };
    let mut either = vec![
        set("f_place", place.path),
        set("named", place.id),
        literal(name),
    ];
    // A one-word spelling is read as the query's own words are (stemmed in each
    // language too), so that a name the query writes finds nothing its spelling in
    // another script does not; a longer one is a phrase.
    either.extend(place.spellings.into_iter().map(|(words, one_word)| {
        if one_word {
            literal(plain_literal(&words))
        } else {
            literal(UserInputLiteral {
                field_name: Some("text".into()),
                phrase: words,
                delimiter: Delimiter::DoubleQuotes,
                slop: 0,
                prefix: false,
            })
        }
    }));
    UserInputAst::Clause(either)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::IndexDoc;
    use crate::stop::Stop;
    use proptest::prelude::*;

    const WORDS: [&str; 5] = ["car", "bomb", "Car", "market", "blast"];

    /// A word of the vocabulary, or one too long for the analyzer (it is dropped and
    /// leaves a gap in the positions).
    fn word() -> impl Strategy<Value = String> {
        prop_oneof![
            8 => (0..WORDS.len()).prop_map(|i| WORDS[i].to_string()),
            1 => Just("x".repeat(70)),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// A phrase answered from the word pairs finds exactly the captions that
        /// tantivy's phrase query (word positions) finds, and the query is indeed
        /// rewritten when its words are neighbours.
        #[test]
        fn pairs_answer_phrases_like_positions(
            texts in proptest::collection::vec(proptest::collection::vec(word(), 0..8), 1..30),
            phrase in proptest::collection::vec(word(), 2..5),
            slop in prop_oneof![4 => Just(0u32), 1 => 1u32..3],
        ) {
            let dir = tempfile::tempdir().unwrap();
            let index = SearchIndex::open_or_create(dir.path()).unwrap();
            let mut w = index.writer().ok().unwrap();
            for (i, t) in texts.iter().enumerate() {
                index.add(&w, IndexDoc {
                    id: i as u64,
                    text: t.join(" ").into(),
                    record: None,
                    marks: Vec::new(),
                }, true).unwrap();
            }
            index.commit(&mut w, 0).unwrap();
            let query = if slop == 0 {
                format!("\"{}\"", phrase.join(" "))
            } else {
                format!("\"{}\"~{slop}", phrase.join(" "))
            };
            let rewritten = index.build(&query, &Filters::default(), None).unwrap();
            let mut parser = QueryParser::for_index(&index.index, vec![index.fields.text]);
            parser.set_conjunction_by_default();
            let plain = parser.parse_query(&query).unwrap();
            prop_assert_eq!(
                index.all_matches(rewritten.query.as_ref(), &Stop::new()).unwrap(),
                index.all_matches(plain.as_ref(), &Stop::new()).unwrap(),
                "{}", &query
            );
            // Rewritten when there is no slop and the kept words (the over-long
            // ones are dropped) are at least two and neighbours.
            let kept: Vec<usize> = (0..phrase.len()).filter(|&i| phrase[i].len() <= 60).collect();
            let neighbours = kept.len() >= 2 && kept.windows(2).all(|k| k[1] == k[0] + 1);
            prop_assert_eq!(!index.exact_phrases(&query).is_empty(), slop == 0 && neighbours);
        }
    }
}
