//! The element tables of the HTML standard's tree construction that the readers of a
//! page share: which elements have no end tag, which close an open `p`, which are
//! "special", which the one-pass reader leaves to the tree builder.

/// Elements the reader does not follow: tables and their parts (foster parenting),
/// forms' lists, foreign markup, templates, markers of the formatting list, elements whose
/// first newline the parser drops, and names the parser turns into others.
pub(super) fn not_followed(name: &[u8]) -> bool {
    matches!(
        name,
        b"table"
            | b"caption"
            | b"colgroup"
            | b"col"
            | b"tbody"
            | b"thead"
            | b"tfoot"
            | b"tr"
            | b"td"
            | b"th"
            | b"select"
            | b"option"
            | b"optgroup"
            | b"datalist"
            | b"frameset"
            | b"frame"
            | b"template"
            | b"svg"
            | b"math"
            | b"applet"
            | b"object"
            | b"marquee"
            | b"pre"
            | b"listing"
            | b"textarea"
            | b"plaintext"
            | b"noframes"
            | b"image"
            | b"isindex"
            | b"rb"
            | b"rp"
            | b"rt"
            | b"rtc"
            | b"search"
            | b"hgroup"
            | b"dialog"
            | b"selectedcontent"
    )
}

/// Elements with no end tag.
pub(super) fn is_void(name: &[u8]) -> bool {
    matches!(
        name,
        b"area"
            | b"base"
            | b"basefont"
            | b"bgsound"
            | b"br"
            | b"embed"
            | b"hr"
            | b"img"
            | b"input"
            | b"keygen"
            | b"link"
            | b"meta"
            | b"param"
            | b"source"
            | b"track"
            | b"wbr"
    )
}

/// Start tags that close an open `p` (the parser ends it before them).
pub(super) fn closes_p(name: &[u8]) -> bool {
    matches!(
        name,
        b"address"
            | b"article"
            | b"aside"
            | b"blockquote"
            | b"center"
            | b"details"
            | b"dir"
            | b"div"
            | b"dl"
            | b"fieldset"
            | b"figcaption"
            | b"figure"
            | b"footer"
            | b"header"
            | b"main"
            | b"menu"
            | b"nav"
            | b"ol"
            | b"p"
            | b"section"
            | b"summary"
            | b"ul"
            | b"h1"
            | b"h2"
            | b"h3"
            | b"h4"
            | b"h5"
            | b"h6"
            | b"form"
            | b"li"
            | b"dd"
            | b"dt"
            | b"hr"
            | b"xmp"
    )
}

/// The standard's "special" elements (HTML ones), which bound the search for an open
/// `li`, `dd` or `dt` that a new one closes.
pub(super) fn is_special(name: &[u8]) -> bool {
    not_followed(name)
        || is_void(name)
        || closes_p(name)
        || matches!(
            name,
            b"body"
                | b"button"
                | b"head"
                | b"html"
                | b"iframe"
                | b"noembed"
                | b"noscript"
                | b"script"
                | b"style"
                | b"title"
        )
}

pub(super) fn is_heading(name: &[u8]) -> bool {
    matches!(name, b"h1" | b"h2" | b"h3" | b"h4" | b"h5" | b"h6")
}
