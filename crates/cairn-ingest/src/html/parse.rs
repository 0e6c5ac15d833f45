//! The tree of a page built by the HTML parser a piece of the page at a time, so that
//! the time given to the source can be looked at between pieces: the parser cannot be
//! stopped inside one, and a page whose shape costs it more than the bounds foresaw
//! (see `bounds`) must be given up instead of holding its thread for minutes.

use html5ever::tendril::{StrTendril, TendrilSink};
use scraper::{Html, HtmlTreeSink};

use super::bounds::OverBound;
use crate::limits::Deadline;

/// The bytes of the page given to the parser at a time: small enough that a piece of a
/// page at the bounds costs the parser a small part of a second.
const PIECE: usize = 16 * 1024;

/// The page's tree, as `Html::parse_document` builds it; with a deadline, an error once
/// it has passed.
pub(super) fn parse(html: &str, deadline: Option<Deadline>) -> Result<Html, OverBound> {
    let sink = HtmlTreeSink::new(Html::new_document());
    let mut parser = html5ever::driver::parse_document(sink, Default::default());
    let Some(deadline) = deadline else {
        return Ok(parser.one(html));
    };
    let mut rest = html;
    while !rest.is_empty() {
        let mut cut = rest.len().min(PIECE);
        while !rest.is_char_boundary(cut) {
            cut += 1;
        }
        let (piece, after) = rest.split_at(cut);
        parser.process(StrTendril::from_slice(piece));
        rest = after;
        if deadline.passed() {
            return Err(OverBound(deadline.message()));
        }
    }
    Ok(parser.finish())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn same_tree(page: &str) {
        let far = Some(Deadline::after(std::time::Duration::from_secs(3600)));
        let whole = Html::parse_document(page).html();
        assert_eq!(parse(page, far).unwrap().html(), whole);
    }

    #[test]
    fn a_page_read_in_pieces_makes_the_tree_read_whole() {
        // Pieces cut inside a tag, a character reference, a CR LF pair and a character.
        let mut page = String::from("<table><tr><td><p>Café<b>bold<i>repair</b>x</i>");
        while page.len() < 3 * PIECE {
            page.push_str("<div class=\"c\">Séance &amp; t\r\nwo<span title=x>é</div>");
        }
        for shift in 0..7 {
            same_tree(&format!("{}{page}", " ".repeat(shift)));
        }
    }

    #[test]
    fn a_passed_deadline_stops_the_parse() {
        let page = "<div>".repeat(PIECE);
        let past = Deadline::after(std::time::Duration::ZERO);
        let e = parse(&page, Some(past)).unwrap_err();
        assert!(e.0.contains("took longer than"), "{e}");
    }
}
