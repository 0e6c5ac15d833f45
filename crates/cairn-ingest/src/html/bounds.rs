//! The work one page may cost: how many attributes a tag may have, and how large a
//! page the tree builder is given, so that no page can exhaust a thread's stack or the
//! process's memory.
//!
//! The tokenizer of the one-pass reader (html5gum) handles an attribute with a
//! double-quoted value by calling the next state's function directly, and the last of
//! those states calls the first again for the next attribute: a tag's run of such
//! attributes nests one set of calls per attribute, and a tag of some thousands of them
//! overflows the stack (an abort, not a panic: nothing can catch it). [`quoted_run`]
//! finds the longest run any tag of a page could make before the tokenizer sees it.
//! The tree builder (html5ever through scraper) holds the whole page as nodes and
//! compares each new attribute of a tag with every earlier one, so it is given only
//! pages under [`MAX_TREE_ELEMENTS`] start tags and [`MAX_TREE_ATTRIBUTES`] attributes.
//! It also looks down its stack of open elements for most start tags, so a page's cost
//! to it grows with the square of its nesting: it is given only pages whose nesting, as
//! the tokens show it (`depth`), costs it less than [`MAX_TREE_NESTING`]. Whatever these
//! bounds miss, the time given to one source (`limits`) stops.

/// A tag with more attributes than this makes the page refused (no gallery page comes
/// near it; each attribute nests the tokenizer's calls, see the module's notes).
pub const MAX_TAG_ATTRIBUTES: usize = 1024;

/// A page that needs the tree builder is refused when it has more start tags than
/// this: each becomes a node (a table's cells more than one), held until the page is
/// read.
pub const MAX_TREE_ELEMENTS: usize = 200_000;

/// A page that needs the tree builder is refused when it has more attributes than this.
pub const MAX_TREE_ATTRIBUTES: usize = 1_000_000;

/// A page that needs the tree builder is refused when its start tags, each counted
/// with the number of elements open around it, sum to more than this: what a page of
/// some fifteen thousand nested elements sums to, a few seconds of the tree builder's
/// work, so that a page of ten thousand (which hostile pages have held, with captions
/// after them) is still read.
pub const MAX_TREE_NESTING: u64 = 125_000_000;

/// What a page is made of, as the tokenizer counted it.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct Shape {
    /// Start tags.
    pub elements: usize,
    /// Attributes of every tag.
    pub attributes: usize,
    /// The most elements open at once.
    pub deepest: usize,
    /// The start tags, each counted with the elements open around it.
    pub nesting: u64,
}

/// Why a page is not read: it passes one of the bounds above.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OverBound(pub String);

impl std::fmt::Display for OverBound {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Refuses a page where a tag could hold a run of more than [`MAX_TAG_ATTRIBUTES`]
/// attributes with double-quoted values (what nests the tokenizer's calls).
pub(crate) fn check_quoted_runs(html: &str) -> Result<(), OverBound> {
    // Each attribute of a run takes two quotes: a page with few cannot hold a long run,
    // and most pages are answered by this count alone.
    let quotes = html.bytes().filter(|&b| b == b'"').count();
    if quotes / 2 <= MAX_TAG_ATTRIBUTES {
        return Ok(());
    }
    let run = quoted_run(html.as_bytes());
    if run > MAX_TAG_ATTRIBUTES {
        return Err(OverBound(format!(
            "a tag with more than {MAX_TAG_ATTRIBUTES} attributes (a run of {run}); \
             over the bound of attributes per tag, page not read"
        )));
    }
    Ok(())
}

/// Refuses a page for the tree builder when it is larger than the tree bounds.
pub(crate) fn check_tree(shape: Shape) -> Result<(), OverBound> {
    if shape.elements > MAX_TREE_ELEMENTS {
        return Err(OverBound(format!(
            "{} elements in a page the HTML parser must repair; over the bound of \
             {MAX_TREE_ELEMENTS} for such pages, page not read",
            shape.elements
        )));
    }
    if shape.attributes > MAX_TREE_ATTRIBUTES {
        return Err(OverBound(format!(
            "{} attributes in a page the HTML parser must repair; over the bound of \
             {MAX_TREE_ATTRIBUTES} for such pages, page not read",
            shape.attributes
        )));
    }
    if shape.nesting > MAX_TREE_NESTING {
        return Err(OverBound(format!(
            "elements nested {} deep in a page the HTML parser must repair; over the \
             bound of nesting for such pages, page not read",
            shape.deepest
        )));
    }
    Ok(())
}

/// The states of the tokenizer that call one another directly, in the order of an
/// attribute `name="value"`; `Before` is also after the whitespace that follows one.
#[derive(Clone, Copy)]
enum St {
    Before,
    Name,
    BeforeValue,
    Value,
    AfterValue,
}

const STATES: [St; 5] = [
    St::Before,
    St::Name,
    St::BeforeValue,
    St::Value,
    St::AfterValue,
];

fn is_space(b: u8) -> bool {
    // The tokenizer reads a carriage return as a newline.
    matches!(b, b'\t' | b'\n' | b'\x0C' | b'\r' | b' ')
}

/// Where the tokenizer goes from `s` on byte `b` while it keeps calling deeper, or
/// `None` where it returns (the run ends). `Some((next, one_more))`: `one_more` when an
/// attribute's value starts.
fn step(s: St, b: u8) -> Option<(St, bool)> {
    match s {
        St::Before if is_space(b) => Some((St::Before, false)),
        St::Before if matches!(b, b'/' | b'>' | b'=') => None,
        St::Before => Some((St::Name, false)),
        St::Name if is_space(b) || matches!(b, b'/' | b'>') => None,
        St::Name if b == b'=' => Some((St::BeforeValue, false)),
        St::Name => Some((St::Name, false)),
        St::BeforeValue if is_space(b) => Some((St::BeforeValue, false)),
        St::BeforeValue if b == b'"' => Some((St::Value, true)),
        St::BeforeValue => None,
        St::Value if b == b'"' => Some((St::AfterValue, false)),
        St::Value if b == b'&' => None,
        St::Value => Some((St::Value, false)),
        St::AfterValue if is_space(b) => Some((St::Before, false)),
        St::AfterValue => None,
    }
}

/// The longest run of attributes with double-quoted values the tokenizer could nest
/// calls for anywhere in `bytes`: every state is taken as a possible start at every
/// byte, and the longest run reaching each state is carried along (one pass, five
/// counters), so the answer bounds what any tag of the page makes.
pub(crate) fn quoted_run(bytes: &[u8]) -> usize {
    let mut runs = [0usize; 5];
    let mut best = 0;
    for &b in bytes {
        let mut next = [0usize; 5];
        for (i, &s) in STATES.iter().enumerate() {
            if let Some((to, one_more)) = step(s, b) {
                let n = runs[i] + usize::from(one_more);
                let j = to as usize;
                next[j] = next[j].max(n);
            }
        }
        best = best.max(next[St::Value as usize]);
        runs = next;
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tag(n: usize, sep: &str) -> String {
        let mut s = String::from("<p");
        for i in 0..n {
            s.push_str(&format!("{sep}a{i}=\"v\""));
        }
        s.push_str(">x</p>");
        s
    }

    #[test]
    fn runs_are_counted_as_the_tokenizer_nests_them() {
        assert_eq!(quoted_run(tag(10, " ").as_bytes()), 10);
        assert_eq!(quoted_run(tag(10, "\n\t").as_bytes()), 10);
        assert_eq!(quoted_run(b"<p a = \"v\" b=\"w\">"), 2);
        // A character reference, a single-quoted or unquoted value, or a `/` ends a run.
        assert_eq!(quoted_run(b"<p a=\"v\" b=\"&amp;\" c=\"w\" d=\"x\">"), 2);
        assert_eq!(quoted_run(b"<p a=\"v\" b='w' c=\"x\">"), 1);
        assert_eq!(quoted_run(b"<p a=\"v\" / b=\"w\">"), 1);
        assert_eq!(quoted_run(b"no attributes at all \"quoted\" text"), 1);
    }

    #[test]
    fn a_tag_of_many_quoted_attributes_is_refused_and_ordinary_pages_are_not() {
        let poison = tag(8000, " ");
        let e = check_quoted_runs(&poison).unwrap_err();
        assert!(e.0.contains("more than 1024 attributes"), "{e}");
        let mut page = String::new();
        for i in 0..5000 {
            page.push_str(&format!("<img class=\"c{i}\" alt=\"x\" src=\"{i}.jpg\">\n"));
        }
        assert_eq!(check_quoted_runs(&page), Ok(()));
        // The same number of attributes in single quotes nests nothing.
        assert_eq!(check_quoted_runs(&poison.replace('"', "'")), Ok(()));
    }

    #[test]
    fn a_tag_at_the_bound_is_read_on_a_small_stack() {
        // The tokenizer nests calls per attribute: at the bound they must fit well
        // inside a thread's default stack (2 MiB), here in a quarter of it.
        let page = format!("<html><body>{}</body></html>", tag(MAX_TAG_ATTRIBUTES, " "));
        let read = std::thread::Builder::new()
            .stack_size(512 * 1024)
            .spawn(move || crate::html::try_render(&page).is_ok())
            .unwrap()
            .join()
            .unwrap();
        assert!(read);
    }
}
