//! How the index reads words: the plain analyzer of the `text` field (lowercased,
//! accents folded), the word pairs made from it, and one analyzer per language that
//! also stems (`bombardements` and `bombardement` are one word), so that a caption is
//! found by the forms of its words in its own language.

use tantivy::Index;
use tantivy::tokenizer::{
    AsciiFoldingFilter, Language, LowerCaser, RemoveLongFilter, SimpleTokenizer, Stemmer,
    TextAnalyzer, Token, TokenFilter, TokenStream, Tokenizer,
};
use unicode_normalization::char::is_combining_mark;

use super::arabic;
use super::schema::{LANGS, PAIR_TOKENIZER, TOKENIZER, lang_tokenizer};

/// Words longer than this (in bytes) are dropped: they are not words anyone searches.
const LONGEST_WORD: usize = 60;

/// Registers every analyzer of the schema on the index, and returns the `text` field's.
pub(crate) fn register(index: &Index) -> TextAnalyzer {
    let analyzer = TextAnalyzer::builder(SimpleTokenizer::default())
        .filter(RemoveLongFilter::limit(LONGEST_WORD))
        .filter(LowerCaser)
        .filter(AsciiFoldingFilter)
        .build();
    index.tokenizers().register(TOKENIZER, analyzer.clone());
    index.tokenizers().register(
        PAIR_TOKENIZER,
        TextAnalyzer::from(PairTokenizer(analyzer.clone())),
    );
    for code in LANGS {
        index
            .tokenizers()
            .register(&lang_tokenizer(code), lang_analyzer(code));
    }
    analyzer
}

/// The analyzer of a language's field: words (with their combining marks), lowercased,
/// folded to unaccented letters so that accents never matter, and stemmed (Arabic:
/// normalised and lightly stemmed).
pub(crate) fn lang_analyzer(code: &str) -> TextAnalyzer {
    let words = TextAnalyzer::builder(WordTokenizer::default())
        .filter(RemoveLongFilter::limit(LONGEST_WORD))
        .filter(LowerCaser);
    // Accents are folded before stemming, so that a word typed without its accents
    // stems as it does with them.
    let stemmer = match code {
        "ar" => {
            return words
                .filter(Rewrite(arabic::analyse))
                .filter(AsciiFoldingFilter)
                .filter(Rewrite(bare))
                .build();
        }
        "fr" => {
            return words
                .filter(AsciiFoldingFilter)
                .filter(Rewrite(elision))
                .filter(Stemmer::new(Language::French))
                .filter(Rewrite(bare))
                .build();
        }
        // Ukrainian has no stemmer of its own here: a light one of its case endings.
        "uk" => {
            return words
                .filter(Rewrite(super::cyrillic::stem))
                .filter(Rewrite(bare))
                .build();
        }
        // Turkish suffixes are read before the letters are folded (`Antakya'da`).
        "tr" => {
            return words
                .filter(Rewrite(bare))
                .filter(Stemmer::new(Language::Turkish))
                .filter(AsciiFoldingFilter)
                .build();
        }
        "ru" => {
            return words
                .filter(AsciiFoldingFilter)
                .filter(Stemmer::new(Language::Russian))
                .filter(Rewrite(super::cyrillic::russian))
                .filter(Rewrite(bare))
                .build();
        }
        "es" => Language::Spanish,
        "de" => Language::German,
        "it" => Language::Italian,
        "pt" => Language::Portuguese,
        "en" => {
            return words
                .filter(AsciiFoldingFilter)
                .filter(Rewrite(super::english::singular))
                .filter(Stemmer::new(Language::English))
                .filter(Rewrite(bare))
                .build();
        }
        _ => Language::English,
    };
    words
        .filter(AsciiFoldingFilter)
        .filter(Stemmer::new(stemmer))
        .filter(Rewrite(bare))
        .build()
}

/// French words the next one elides into (`l'hôpital`, `qu'il`): the word is the rest.
const ELIDED: [&str; 12] = [
    "l", "d", "j", "n", "s", "c", "m", "t", "qu", "jusqu", "lorsqu", "puisqu",
];

/// A French word without the elided word before its apostrophe.
fn elision(word: &str, out: &mut String) -> bool {
    let Some((head, rest)) = word.split_once('\'') else {
        return false;
    };
    if !ELIDED.contains(&head) || rest.is_empty() {
        return false;
    }
    out.push_str(rest);
    true
}

/// Apostrophes inside words: the tokenizer keeps them (as `'`) so that the stemmers
/// see `'s` and elisions; a transliteration's (`Nu'man`) is dropped at the end.
fn is_apostrophe(c: char) -> bool {
    matches!(
        c,
        '\'' | '\u{2019}' | '\u{2018}' | '\u{2BC}' | '\u{2BB}' | '\u{2BF}' | '\u{2BE}'
    )
}

/// The word without its combining marks (accents written apart from their letter,
/// Arabic vowel signs) and apostrophes; `false` when it has none.
fn bare(word: &str, out: &mut String) -> bool {
    let dropped = |c: char| is_combining_mark(c) || is_apostrophe(c);
    if !word.chars().any(dropped) {
        return false;
    }
    out.extend(word.chars().filter(|&c| !dropped(c)));
    true
}

/// Letters, digits and the marks written on them (which the plain tokenizer takes for
/// word breaks, splitting a vowelled Arabic word into letters), and the tatweel.
fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || is_combining_mark(c) || c == '\u{640}'
}

/// Words as runs of [`is_word_char`], with an apostrophe between two letters kept
/// inside the word (as `'`).
#[derive(Clone, Default)]
pub(crate) struct WordTokenizer {
    token: Token,
}

pub(crate) struct WordStream<'a> {
    text: &'a str,
    at: usize,
    token: &'a mut Token,
}

impl Tokenizer for WordTokenizer {
    type TokenStream<'a> = WordStream<'a>;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> WordStream<'a> {
        self.token.reset();
        WordStream {
            text,
            at: 0,
            token: &mut self.token,
        }
    }
}

impl TokenStream for WordStream<'_> {
    fn advance(&mut self) -> bool {
        let rest = &self.text[self.at..];
        let Some(start) = rest.find(is_word_char) else {
            self.at = self.text.len();
            return false;
        };
        let from = self.at + start;
        let t = &mut *self.token;
        t.text.clear();
        let mut to = self.text.len();
        let mut chars = self.text[from..].char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            if is_word_char(c) {
                t.text.push(c);
            } else if is_apostrophe(c) && chars.peek().is_some_and(|&(_, n)| n.is_alphabetic()) {
                t.text.push('\'');
            } else {
                to = from + i;
                break;
            }
        }
        self.at = to;
        t.offset_from = from;
        t.offset_to = to;
        t.position = t.position.wrapping_add(1);
        true
    }

    fn token(&self) -> &Token {
        self.token
    }

    fn token_mut(&mut self) -> &mut Token {
        self.token
    }
}

/// A filter that rewrites each word with a function, which writes the new form into
/// its buffer and says whether there is one (`false` keeps the word as it is).
#[derive(Clone, Copy)]
pub(crate) struct Rewrite(pub fn(&str, &mut String) -> bool);

#[derive(Clone)]
pub(crate) struct RewriteFilter<T> {
    f: fn(&str, &mut String) -> bool,
    inner: T,
}

pub(crate) struct RewriteStream<T> {
    f: fn(&str, &mut String) -> bool,
    tail: T,
    buffer: String,
}

impl TokenFilter for Rewrite {
    type Tokenizer<T: Tokenizer> = RewriteFilter<T>;

    fn transform<T: Tokenizer>(self, inner: T) -> RewriteFilter<T> {
        RewriteFilter { f: self.0, inner }
    }
}

impl<T: Tokenizer> Tokenizer for RewriteFilter<T> {
    type TokenStream<'a> = RewriteStream<T::TokenStream<'a>>;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> Self::TokenStream<'a> {
        RewriteStream {
            f: self.f,
            tail: self.inner.token_stream(text),
            buffer: String::new(),
        }
    }
}

impl<T: TokenStream> TokenStream for RewriteStream<T> {
    fn advance(&mut self) -> bool {
        if !self.tail.advance() {
            return false;
        }
        self.buffer.clear();
        let token = self.tail.token_mut();
        if (self.f)(&token.text, &mut self.buffer) {
            std::mem::swap(&mut token.text, &mut self.buffer);
        }
        true
    }

    fn token(&self) -> &Token {
        self.tail.token()
    }

    fn token_mut(&mut self) -> &mut Token {
        self.tail.token_mut()
    }
}

/// The `pairs` field's tokens: `first second` for each two words of the text analyzer
/// that are neighbours (a word it drops, such as an over-long one, leaves no pair
/// across it). The field is given the caption's text once; before, each pair was made
/// as a string of its own and given as a value of its own.
#[derive(Clone)]
pub(crate) struct PairTokenizer(TextAnalyzer);

pub(crate) struct PairStream<'a> {
    words: tantivy::tokenizer::BoxTokenStream<'a>,
    /// The last word read: its position and where it starts (its text in `last_text`).
    last: Option<(usize, usize)>,
    last_text: String,
    /// Pairs made so far (each pair's position).
    pairs: usize,
    token: tantivy::tokenizer::Token,
}

impl tantivy::tokenizer::Tokenizer for PairTokenizer {
    type TokenStream<'a> = PairStream<'a>;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> PairStream<'a> {
        PairStream {
            words: self.0.token_stream(text),
            last: None,
            last_text: String::new(),
            pairs: 0,
            token: tantivy::tokenizer::Token::default(),
        }
    }
}

impl tantivy::tokenizer::TokenStream for PairStream<'_> {
    fn advance(&mut self) -> bool {
        while self.words.advance() {
            let word = self.words.token();
            let pair = matches!(self.last, Some((at, _)) if word.position == at + 1);
            if pair {
                let t = &mut self.token;
                t.text.clear();
                t.text.push_str(&self.last_text);
                t.text.push(' ');
                t.text.push_str(&word.text);
                t.offset_from = self.last.map_or(0, |(_, from)| from);
                t.offset_to = word.offset_to;
                t.position = self.pairs;
                self.pairs += 1;
            }
            self.last = Some((word.position, word.offset_from));
            self.last_text.clear();
            self.last_text.push_str(&word.text);
            if pair {
                return true;
            }
        }
        false
    }

    fn token(&self) -> &tantivy::tokenizer::Token {
        &self.token
    }

    fn token_mut(&mut self) -> &mut tantivy::tokenizer::Token {
        &mut self.token
    }
}

#[cfg(test)]
mod tests {
    use super::super::SearchIndex;
    use super::*;
    use proptest::prelude::*;

    const WORDS: [&str; 5] = ["car", "bomb", "Car", "market", "blast"];

    /// The words a language's analyzer makes of a text.
    fn analysed(code: &str, text: &str) -> Vec<String> {
        let mut a = lang_analyzer(code);
        let mut stream = a.token_stream(text);
        let mut out = Vec::new();
        while stream.advance() {
            out.push(stream.token().text.clone());
        }
        out
    }

    #[test]
    fn each_language_stems_its_own_words_and_folds_accents() {
        assert_eq!(
            analysed("fr", "bombardements"),
            analysed("fr", "bombardement")
        );
        assert_eq!(analysed("fr", "évacuées"), analysed("fr", "EVACUEES"));
        assert_eq!(analysed("fr", "l'hôpital d’Alep"), ["hopital", "alep"]);
        assert_eq!(analysed("es", "bombardeos"), analysed("es", "bombardeo"));
        assert_eq!(analysed("de", "Angriffe"), analysed("de", "Angriff"));
        assert_eq!(analysed("de", "Straßen"), analysed("de", "Strassen"));
        // The later desks: a name in its cases is one word.
        assert_eq!(analysed("ru", "в Харькове"), analysed("ru", "в Харьков"));
        assert_eq!(analysed("uk", "у Харкові"), analysed("uk", "у Харків"));
        assert_eq!(
            analysed("it", "bombardamenti"),
            analysed("it", "bombardamento")
        );
        assert_eq!(analysed("pt", "bombardeios"), analysed("pt", "bombardeio"));
        assert_eq!(analysed("tr", "Antakya'da"), analysed("tr", "Antakya"));
        assert_eq!(analysed("en", "Aleppo's bombings"), ["aleppo", "bomb"]);
        // English plurals not made with `-s` too; other languages keep such words.
        assert_eq!(
            analysed("en", "children women"),
            analysed("en", "child woman")
        );
        assert_eq!(
            analysed("en", "the children's"),
            analysed("en", "the child")
        );
        assert_ne!(analysed("de", "Men"), analysed("de", "Man"));
        assert_ne!(analysed("fr", "feet"), analysed("fr", "foot"));
        // A transliteration's apostrophe is not a word break; nor is a combining mark.
        assert_eq!(analysed("en", "Nu'man"), analysed("en", "Numan"));
        assert_eq!(analysed("en", "Nu\u{2BF}man"), analysed("en", "Numan"));
        assert_eq!(analysed("en", "Due\u{301}"), analysed("en", "due"));
        // Arabic: one word with its vowel signs, normalised and stemmed.
        assert_eq!(analysed("ar", "بالقَصْف على حلب"), ["قصف", "عل", "حلب"]);
        // Positions count words, so phrases keep working.
        let mut a = lang_analyzer("fr");
        let mut stream = a.token_stream("un, deux ; trois");
        let mut positions = Vec::new();
        while stream.advance() {
            positions.push(stream.token().position);
        }
        assert_eq!(positions, [0, 1, 2]);
    }

    /// The pairs of a text by their definition: the analyzer's words, each with the
    /// next when it is its neighbour.
    fn pairs_by_definition(index: &SearchIndex, text: &str) -> Vec<String> {
        index
            .words(text)
            .windows(2)
            .filter(|w| w[1].0 == w[0].0 + 1)
            .map(|w| format!("{} {}", w[0].1, w[1].1))
            .collect()
    }

    /// The terms the `pairs` field's tokenizer makes of a text.
    fn pair_tokens(index: &SearchIndex, text: &str) -> Vec<String> {
        let mut pairs = index.index.tokenizers().get(PAIR_TOKENIZER).unwrap();
        let mut stream = pairs.token_stream(text);
        let mut out = Vec::new();
        while stream.advance() {
            out.push(stream.token().text.clone());
        }
        out
    }

    #[test]
    fn pair_tokens_skip_dropped_words() {
        let dir = tempfile::tempdir().unwrap();
        let index = SearchIndex::open_or_create(dir.path()).unwrap();
        let long = "x".repeat(70);
        assert_eq!(
            pair_tokens(&index, &format!("Car bomb in {long} Aleppo's MARKET, Ünye")),
            ["car bomb", "bomb in", "aleppo s", "s market", "market unye"]
        );
        assert!(pair_tokens(&index, "one").is_empty());
        assert!(pair_tokens(&index, "").is_empty());
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// The tokenizer makes exactly the pairs of the definition, in order, from any
        /// text (punctuation, other scripts, over-long words).
        #[test]
        fn pair_tokens_are_the_neighbouring_words(
            parts in proptest::collection::vec(
                prop_oneof![
                    4 => (0..WORDS.len()).prop_map(|i| WORDS[i].to_string()),
                    1 => Just("x".repeat(70)),
                    3 => "\\PC{0,12}",
                ],
                0..12,
            ),
        ) {
            let dir = tempfile::tempdir().unwrap();
            let index = SearchIndex::open_or_create(dir.path()).unwrap();
            let text = parts.join(" ");
            prop_assert_eq!(pair_tokens(&index, &text), pairs_by_definition(&index, &text));
        }
    }
}
