//! A gallery page's captions read in one pass over its tokens, with no tree built, for
//! pages whose markup leaves nothing for a parser to repair.
//!
//! An HTML parser builds its tree from the tokens: most of the time each element holds
//! what lies between its start and end tags, and then the tree is the tokens' own
//! nesting. It is not when the page relies on the parser's repairs (an end tag left out,
//! a `<div>` opened inside a `<p>`, a second `<li>` opening inside the first, a table,
//! foreign markup...). This reader follows the tokens (html5gum, a tokenizer made to the
//! same standard as html5ever's, character references decoded the same way) and keeps
//! the stack of open elements itself; at the first token whose place in the tree would
//! not be where the tokens put it, it gives up, and the page goes to the tree builder
//! ([`super::render`] falls back on `scraper`). What it reads is what the tree walk reads
//! from the same page: same markup taken, same order, same text. Property tests hold the
//! two together over tag soup and over well-nested pages, a unit test checks that generated
//! gallery pages need no tree, and the `html` fuzz target compares `render` with
//! `render_by_tree` on any input.

use html5gum::emitters::callback::{CallbackEmitter, CallbackEvent};
use html5gum::{Span, Tokenizer};

use super::bounds::{MAX_TAG_ATTRIBUTES, OverBound, Shape};
use super::depth::Depth;
use super::names::{closes_p, is_heading, is_special, is_void, not_followed};
use super::{
    MAX_DEPTH, clean, image_caption, json_ld_script_captions, meta_caption, names_caption,
};

/// Pages nesting elements deeper than this go to the tree walk, which reads at most
/// [`MAX_DEPTH`] levels of ancestors and descendants: under it, both read everything.
const MAX_OPEN: usize = MAX_DEPTH - 56;

/// A caption of the page, in page order, as it is read.
enum Piece {
    /// Final text: an attribute's, cleaned.
    Done(String),
    /// An element's text as it is gathered (cleaned at the end).
    Text(String),
    /// A JSON-LD script's text as it is gathered (parsed at the end).
    Json(String),
}

/// An element on the stack of open elements.
struct Open {
    /// Where its name starts in `Reader::names` (the names of the stack, one after another).
    name_at: usize,
    /// Navigation, header or footer: what it holds is boilerplate.
    boiler: bool,
    /// `figcaption` or a caption class: what it holds is inside a caption.
    caption: bool,
    /// A script, style or noscript: its text is no element's text.
    raw: bool,
    /// It gathers its text into the last of `Reader::gathering`.
    gathers: bool,
}

/// The attributes the reader looks at.
const WANTED: [&[u8]; 9] = [
    b"role",
    b"property",
    b"name",
    b"content",
    b"type",
    b"data-caption",
    b"alt",
    b"title",
    b"class",
];
const ROLE: usize = 0;
const PROPERTY: usize = 1;
const NAME: usize = 2;
const CONTENT: usize = 3;
const TYPE: usize = 4;
const DATA_CAPTION: usize = 5;
const ALT: usize = 6;
const TITLE: usize = 7;
const CLASS: usize = 8;

/// A start tag's [`WANTED`] attributes, the first of each name (as the tokenizer keeps
/// them), in [`WANTED`]'s order.
#[derive(Default)]
struct Attrs {
    values: [Option<String>; WANTED.len()],
    /// Which of them the attribute being read is, if any.
    current: Option<usize>,
}

impl Attrs {
    fn get(&self, i: usize) -> Option<&str> {
        self.values[i].as_deref()
    }
}

/// Why reading stopped: the page needs the tree builder.
struct GiveUp;

#[derive(Default)]
struct Reader {
    pieces: Vec<Piece>,
    stack: Vec<Open>,
    names: Vec<u8>,
    /// Pieces of the open elements gathering their text, innermost last.
    gathering: Vec<usize>,
    /// The piece of the open JSON-LD script, if one is open.
    json: Option<usize>,
    /// Open elements of each kind.
    boiler: usize,
    captions: usize,
    paragraphs: usize,
    links: usize,
    /// `html`, `head`, `body` met (the parser merges a second one into the first).
    roots: [bool; 3],
    tag: Vec<u8>,
    attrs: Attrs,
}

impl Reader {
    fn top_name(&self) -> Option<&[u8]> {
        self.stack.last().map(|o| &self.names[o.name_at..])
    }

    fn name_of(&self, i: usize) -> &[u8] {
        let end = self
            .stack
            .get(i + 1)
            .map_or(self.names.len(), |o| o.name_at);
        &self.names[self.stack[i].name_at..end]
    }

    fn text(&mut self, s: &str) {
        if let Some(top) = self.stack.last()
            && top.raw
        {
            if let Some(j) = self.json
                && let Piece::Json(t) = &mut self.pieces[j]
            {
                t.push_str(s);
            }
            return;
        }
        for &g in &self.gathering {
            if let Piece::Text(t) = &mut self.pieces[g] {
                t.push_str(s);
            }
        }
    }

    /// Whether a new `li` (or `dd`/`dt`, `items`) would close one already open.
    fn closes_item(&self, items: &[&[u8]]) -> bool {
        for i in (0..self.stack.len()).rev() {
            let name = self.name_of(i);
            if items.contains(&name) {
                return true;
            }
            if is_special(name) && !matches!(name, b"address" | b"div" | b"p") {
                return false;
            }
        }
        false
    }

    fn start(&mut self) -> Result<(), GiveUp> {
        let name = std::mem::take(&mut self.tag);
        let attrs = std::mem::take(&mut self.attrs);
        let r = self.start_element(&name, &attrs);
        self.tag = name;
        self.tag.clear();
        r
    }

    fn start_element(&mut self, name: &[u8], a: &Attrs) -> Result<(), GiveUp> {
        let caption_class = a.get(CLASS).is_some_and(names_caption);
        self.check_followed(name, a, caption_class)?;
        let gathers = self.take_captions(name, a, caption_class);
        if gathers {
            // An element with no end tag has no text (a `br`'s space is cleaned away).
            if !is_void(name) {
                self.gathering.push(self.pieces.len());
            }
            self.pieces.push(Piece::Text(String::new()));
        }
        if matches!(name, b"br" | b"p" | b"div" | b"li") {
            self.text(" ");
        }
        if is_void(name) {
            return Ok(());
        }
        self.open(name, a, caption_class, gathers);
        Ok(())
    }

    /// Gives up where the tree would not follow the tokens (an element the parser
    /// would move, repair or merge).
    fn check_followed(
        &mut self,
        name: &[u8],
        a: &Attrs,
        caption_class: bool,
    ) -> Result<(), GiveUp> {
        if not_followed(name) || self.stack.len() >= MAX_OPEN {
            return Err(GiveUp);
        }
        if self.paragraphs > 0 && closes_p(name) {
            return Err(GiveUp);
        }
        let repaired = match name {
            b"li" => self.closes_item(&[b"li"]),
            b"dd" | b"dt" => self.closes_item(&[b"dd", b"dt"]),
            b"a" => self.links > 0,
            b"nobr" | b"button" | b"form" => (0..self.stack.len()).any(|i| self.name_of(i) == name),
            _ => is_heading(name) && self.top_name().is_some_and(is_heading),
        };
        if repaired {
            return Err(GiveUp);
        }
        if let Some(r) = match name {
            b"html" => Some(0),
            b"head" => Some(1),
            b"body" => Some(2),
            _ => None,
        } {
            // A second one is merged into the first; these are met by the walk before
            // anything they hold, whenever the parser made them.
            if self.roots[r]
                || a.get(ROLE).is_some()
                || a.get(DATA_CAPTION).is_some()
                || caption_class
            {
                return Err(GiveUp);
            }
            self.roots[r] = true;
        }
        Ok(())
    }

    /// Takes the captions a start tag carries in its attributes; returns whether the
    /// element's text is a caption to gather.
    fn take_captions(&mut self, name: &[u8], a: &Attrs, caption_class: bool) -> bool {
        let mut gathers = false;
        match name {
            b"meta" => {
                let c = meta_caption(a.get(PROPERTY), a.get(NAME), a.get(CONTENT));
                self.pieces.extend(c.map(Piece::Done));
            }
            b"script" => {
                if a.get(TYPE) == Some("application/ld+json") {
                    self.json = Some(self.pieces.len());
                    self.pieces.push(Piece::Json(String::new()));
                }
            }
            _ if self.boiler > 0 => {}
            _ => {
                if let Some(c) = a.get(DATA_CAPTION) {
                    self.pieces.push(Piece::Done(clean(c)));
                }
                if name == b"figcaption" || (caption_class && self.captions == 0) {
                    gathers = true;
                } else if name == b"img" && !caption_class {
                    let c = image_caption(a.get(ALT), a.get(TITLE));
                    self.pieces.extend(c.map(Piece::Done));
                }
            }
        }
        gathers
    }

    /// Pushes an element that has an end tag onto the open stack.
    fn open(&mut self, name: &[u8], a: &Attrs, caption_class: bool, gathers: bool) {
        let open = Open {
            name_at: self.names.len(),
            boiler: matches!(name, b"nav" | b"footer" | b"header")
                || a.get(ROLE) == Some("navigation"),
            caption: name == b"figcaption" || caption_class,
            raw: matches!(name, b"script" | b"style" | b"noscript"),
            gathers,
        };
        self.names.extend_from_slice(name);
        self.boiler += usize::from(open.boiler);
        self.captions += usize::from(open.caption);
        self.paragraphs += usize::from(name == b"p");
        self.links += usize::from(name == b"a");
        self.stack.push(open);
    }

    fn end(&mut self, name: &[u8]) -> Result<(), GiveUp> {
        // Only the innermost open element may end: any other end tag makes the parser
        // close elements, open one, or ignore it.
        if self.top_name() != Some(name) {
            return Err(GiveUp);
        }
        let open = self.stack.pop().expect("a top");
        self.names.truncate(open.name_at);
        self.boiler -= usize::from(open.boiler);
        self.captions -= usize::from(open.caption);
        self.paragraphs -= usize::from(name == b"p");
        self.links -= usize::from(name == b"a");
        if open.gathers {
            self.gathering.pop();
        }
        if name == b"script" {
            self.json = None;
        }
        Ok(())
    }
}

/// How a page the reader could not follow ends: it needs the tree builder (with the
/// page's shape, counted to its end, to bound the tree), or it passes a bound.
pub(super) enum NotRead {
    /// The page needs the tree builder.
    NeedsTree(Shape),
    /// A tag has more attributes than [`MAX_TAG_ATTRIBUTES`].
    OverBound(OverBound),
}

/// The captions of `html` in page order, or why the page needs the tree builder. A page
/// the reader cannot follow is still tokenized to its end, counting its elements,
/// attributes and nesting, so that the tree builder is given only pages it can hold.
pub(super) fn captions(html: &str) -> Result<Vec<String>, NotRead> {
    let mut r = Reader::default();
    // The tree builder drops some NULs the tokenizer hands over.
    let mut failed = html.contains('\0');
    let mut shape = Shape::default();
    let mut tag_attributes = 0usize;
    let mut over = false;
    let mut depth = Depth::default();
    {
        let mut emitter = CallbackEmitter::new(|event: CallbackEvent<'_>, _: Span<()>| {
            match &event {
                CallbackEvent::OpenStartTag { name } => {
                    shape.elements += 1;
                    tag_attributes = 0;
                    depth.start(name);
                }
                CallbackEvent::EndTag { name } => depth.end(name),
                CallbackEvent::AttributeName { .. } => {
                    shape.attributes += 1;
                    tag_attributes += 1;
                    if tag_attributes > MAX_TAG_ATTRIBUTES {
                        over = true;
                        return Some(());
                    }
                }
                _ => {}
            }
            if failed {
                return None;
            }
            failed = r.event(event).is_err();
            None
        });
        emitter.naively_switch_states(true);
        for stop in Tokenizer::new_with_emitter(html, emitter) {
            if stop.is_ok() {
                break;
            }
        }
    }
    if over {
        return Err(NotRead::OverBound(OverBound(format!(
            "a tag with more than {MAX_TAG_ATTRIBUTES} attributes; over the bound of \
             attributes per tag, page not read"
        ))));
    }
    if failed {
        (shape.deepest, shape.nesting) = (depth.deepest, depth.work);
        return Err(NotRead::NeedsTree(shape));
    }
    let mut out = Vec::with_capacity(r.pieces.len());
    for p in r.pieces {
        match p {
            Piece::Done(s) => out.push(s),
            Piece::Text(t) => out.push(clean(&t)),
            Piece::Json(raw) => json_ld_script_captions(&raw, &mut out),
        }
    }
    Ok(out)
}

impl Reader {
    /// Follows one token; an error when the page needs the tree builder.
    fn event(&mut self, event: CallbackEvent<'_>) -> Result<(), GiveUp> {
        match event {
            CallbackEvent::OpenStartTag { name } => {
                self.tag.clear();
                self.tag.extend_from_slice(name);
                self.attrs = Attrs::default();
                Ok(())
            }
            CallbackEvent::AttributeName { name } => {
                // The first of a name counts (the parser drops the others); one with
                // no value has no value event.
                let a = &mut self.attrs;
                a.current = WANTED
                    .iter()
                    .position(|w| *w == name)
                    .filter(|&i| a.values[i].is_none());
                if let Some(i) = a.current {
                    a.values[i] = Some(String::new());
                }
                Ok(())
            }
            CallbackEvent::AttributeValue { value } => match self.attrs.current {
                Some(i) => std::str::from_utf8(value)
                    .map(|v| self.attrs.values[i] = Some(v.to_owned()))
                    .map_err(|_| GiveUp),
                None => Ok(()),
            },
            CallbackEvent::CloseStartTag { .. } => self.start(),
            CallbackEvent::EndTag { name } => self.end(name),
            CallbackEvent::String { value } => match std::str::from_utf8(value) {
                Ok(s) => {
                    self.text(s);
                    Ok(())
                }
                Err(_) => Err(GiveUp),
            },
            CallbackEvent::Comment { .. }
            | CallbackEvent::Doctype { .. }
            | CallbackEvent::Error { .. } => Ok(()),
        }
    }
}
