//! How deep the tree builder's stack of open elements grows on a page, estimated from the
//! page's tokens in one linear pass, and the work that depth costs the tree builder.
//!
//! The tree builder (html5ever) looks down its stack of open elements for most start tags
//! (whether a `p` is open that the tag closes, whether a formatting element is still
//! open), so what a page costs it grows with the sum, over the start tags, of the depth
//! each is opened at: tens of thousands of nested `div`s cost it minutes. [`Depth`]
//! follows the tokens with a stack of its own that closes what the tree builder closes
//! in the common cases (an end tag closes up to its element; a `p`, `li`, `a`, a cell...
//! closes an open one of its name; a block closes an open `p`), each token in constant
//! time amortised, so that such a page is refused before the tree builder is given it.
//! It is an estimate, meant not to refuse pages whose tags are merely left unclosed; a
//! shape it misses is stopped by the time budget of a source.

use rustc_hash::FxHashMap;

use super::names::{closes_p, is_void};

/// Distinct tag names given an id of their own; the rest share one, so that a page of
/// made-up names cannot grow the table.
const NAMES: u16 = 1024;

/// The stack of open elements as the tokens build it, and what it cost.
#[derive(Default)]
pub(super) struct Depth {
    ids: FxHashMap<Vec<u8>, u16>,
    open: Vec<u16>,
    /// Open elements of each name id.
    counts: Vec<u32>,
    /// The most elements open at once.
    pub(super) deepest: usize,
    /// The sum, over start tags, of the elements open when each was opened.
    pub(super) work: u64,
}

impl Depth {
    fn id(&mut self, name: &[u8]) -> u16 {
        if let Some(&id) = self.ids.get(name) {
            return id;
        }
        if self.ids.len() >= usize::from(NAMES) {
            return NAMES;
        }
        let id = self.ids.len() as u16;
        self.ids.insert(name.to_vec(), id);
        id
    }

    /// Closes the innermost open element of name `id` and all opened after it.
    fn close(&mut self, id: u16) {
        if self.counts.get(usize::from(id)).is_none_or(|&n| n == 0) {
            return;
        }
        while let Some(top) = self.open.pop() {
            self.counts[usize::from(top)] -= 1;
            if top == id {
                break;
            }
        }
    }

    /// A start tag.
    pub(super) fn start(&mut self, name: &[u8]) {
        if is_void(name) || matches!(name, b"html" | b"head" | b"body") {
            return;
        }
        if closes_p(name) {
            let p = self.id(b"p");
            self.close(p);
        }
        let id = self.id(name);
        if closes_its_like(name) {
            self.close(id);
        }
        if self.counts.len() <= usize::from(id) {
            self.counts.resize(usize::from(id) + 1, 0);
        }
        self.counts[usize::from(id)] += 1;
        self.open.push(id);
        self.deepest = self.deepest.max(self.open.len());
        self.work += self.open.len() as u64;
    }

    /// An end tag: closes its element, if one is open.
    pub(super) fn end(&mut self, name: &[u8]) {
        if let Some(&id) = self.ids.get(name) {
            self.close(id);
        }
    }
}

/// Elements a start tag of the same name closes when one is open (end tags that may be
/// left out, and elements that cannot hold their like).
fn closes_its_like(name: &[u8]) -> bool {
    matches!(
        name,
        b"p" | b"li"
            | b"dd"
            | b"dt"
            | b"a"
            | b"button"
            | b"nobr"
            | b"form"
            | b"option"
            | b"optgroup"
            | b"tr"
            | b"td"
            | b"th"
            | b"rb"
            | b"rp"
            | b"rt"
            | b"rtc"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn depth_of(tags: &[&str]) -> (usize, u64) {
        let mut d = Depth::default();
        for t in tags {
            match t.strip_prefix('/') {
                Some(name) => d.end(name.as_bytes()),
                None => d.start(t.as_bytes()),
            }
        }
        (d.deepest, d.work)
    }

    #[test]
    fn nesting_is_counted_and_left_open_tags_are_not() {
        let nested: Vec<&str> = std::iter::repeat_n("div", 1000).collect();
        assert_eq!(depth_of(&nested), (1000, 1000 * 1001 / 2));
        // Paragraphs, items, cells and links left open close one another.
        let open: Vec<&str> = ["p", "li", "td", "a", "img", "dd"]
            .iter()
            .copied()
            .cycle()
            .take(6000)
            .collect();
        assert!(depth_of(&open).0 <= 5, "{:?}", depth_of(&open));
        // An end tag closes what was left open inside its element.
        let spans: Vec<&str> = ["div", "span", "b", "/div"]
            .iter()
            .copied()
            .cycle()
            .take(4000)
            .collect();
        assert_eq!(depth_of(&spans).0, 3);
    }

    #[test]
    fn made_up_names_share_one_id() {
        let names: Vec<String> = (0..5000).map(|i| format!("x{i}")).collect();
        let mut d = Depth::default();
        for n in &names {
            d.start(n.as_bytes());
        }
        assert_eq!(d.deepest, 5000);
        assert!(d.ids.len() <= usize::from(NAMES));
        for n in names.iter().rev() {
            d.end(n.as_bytes());
        }
        assert!(d.open.len() < 5000);
    }
}
