//! Captions out of HTML gallery pages.
//!
//! Only markup made for captions is read: `figcaption`, elements whose class names a
//! caption, `data-caption` attributes, image `alt`/`title` long enough to be a caption,
//! `og:description`, and JSON-LD `ImageObject` captions. Navigation, headers and
//! footers are skipped, and so is everything else on the page. A caption shown more
//! than once (in the gallery, cut short with "...more", in a lightbox) gives one
//! occurrence per showing; deduplication makes them one caption.
//!
//! The text spans count in is the page's rendering: the captions in page order,
//! separated by blank lines (see [`render`]); it is rebuilt from the stored bytes.

use cairn_model::{Segment, Span, fold_whitespace};
use scraper::{ElementRef, Html, Node, Selector};

/// An `alt` or `title` needs this many words to be taken as a caption.
const MIN_ATTR_WORDS: usize = 8;
/// Elements nested deeper than this are not searched (hostile pages nest thousands).
const MAX_DEPTH: usize = 256;

fn words(s: &str) -> usize {
    s.split_whitespace().count()
}

/// The visible text of an element: text nodes in order, `<br>` as a space, scripts and
/// styles left out, whitespace folded.
fn element_text(e: ElementRef<'_>) -> String {
    let mut out = String::new();
    let mut stack: Vec<(ego_tree::NodeRef<'_, Node>, usize)> = vec![(*e, 0)];
    while let Some((node, depth)) = stack.pop() {
        match node.value() {
            Node::Text(t) => out.push_str(t),
            Node::Element(el) => {
                let name = el.name();
                if name == "br" {
                    out.push(' ');
                }
                if matches!(name, "script" | "style" | "noscript" | "template") {
                    continue;
                }
                if depth < MAX_DEPTH {
                    let children: Vec<_> = node.children().collect();
                    for c in children.into_iter().rev() {
                        stack.push((c, depth + 1));
                    }
                }
                if matches!(name, "p" | "div" | "li") {
                    out.push(' ');
                }
            }
            _ => {}
        }
    }
    clean(&out)
}

/// Folds whitespace and drops a trailing "more" link left by a cut-short caption
/// ("... more", "…more", "Read more").
fn clean(s: &str) -> String {
    let mut t = fold_whitespace(s);
    for tail in ["read more", "more", "see more", "show more"] {
        let lower = t.to_lowercase();
        if lower.ends_with(tail) {
            let cut = t.len() - tail.len();
            let before = t[..cut].trim_end();
            if before.ends_with("...") || before.ends_with('…') || tail != "more" {
                t = before.to_string();
                break;
            }
        }
    }
    t.trim().to_string()
}

fn in_boilerplate(e: ElementRef<'_>) -> bool {
    e.ancestors()
        .take(MAX_DEPTH)
        .filter_map(ElementRef::wrap)
        .any(|a| {
            matches!(a.value().name(), "nav" | "footer" | "header")
                || a.value().attr("role") == Some("navigation")
        })
}

fn is_caption_class(e: ElementRef<'_>) -> bool {
    e.value()
        .classes()
        .any(|c| c.to_ascii_lowercase().contains("caption"))
}

/// JSON-LD `ImageObject` captions anywhere in a JSON value.
fn json_ld_captions(v: &serde_json::Value, out: &mut Vec<String>, depth: usize) {
    if depth > 32 {
        return;
    }
    match v {
        serde_json::Value::Object(m) => {
            let is_image = match m.get("@type") {
                Some(serde_json::Value::String(t)) => t == "ImageObject",
                Some(serde_json::Value::Array(a)) => a.iter().any(|t| t == "ImageObject"),
                _ => false,
            };
            if is_image {
                if let Some(serde_json::Value::String(c)) =
                    m.get("caption").or_else(|| m.get("description"))
                {
                    out.push(clean(c));
                }
            }
            for (_, x) in m {
                json_ld_captions(x, out, depth + 1);
            }
        }
        serde_json::Value::Array(a) => {
            for x in a {
                json_ld_captions(x, out, depth + 1);
            }
        }
        _ => {}
    }
}

/// The captions of a page, in page order, and the text they make.
pub fn render(html: &str) -> (String, Vec<Segment>) {
    let doc = Html::parse_document(html);
    let mut captions: Vec<String> = Vec::new();
    let all = Selector::parse("*").expect("valid selector");
    for e in doc.select(&all) {
        let name = e.value().name();
        if name == "meta" {
            let prop = e
                .value()
                .attr("property")
                .or_else(|| e.value().attr("name"))
                .unwrap_or("");
            if prop == "og:description" {
                if let Some(c) = e.value().attr("content") {
                    let c = clean(c);
                    if words(&c) >= MIN_ATTR_WORDS {
                        captions.push(c);
                    }
                }
            }
            continue;
        }
        if name == "script" {
            if e.value().attr("type") == Some("application/ld+json") {
                let raw: String = e.text().collect();
                if let Ok(v) = serde_json::from_str::<serde_json::Value>(&raw) {
                    json_ld_captions(&v, &mut captions, 0);
                }
            }
            continue;
        }
        if in_boilerplate(e) {
            continue;
        }
        if let Some(c) = e.value().attr("data-caption") {
            captions.push(clean(c));
        }
        if name == "figcaption" {
            captions.push(element_text(e));
            continue;
        }
        if is_caption_class(e) {
            // The outermost caption element speaks for the ones inside it.
            let inside_caption = e
                .ancestors()
                .take(MAX_DEPTH)
                .filter_map(ElementRef::wrap)
                .any(|a| is_caption_class(a) || a.value().name() == "figcaption");
            if !inside_caption {
                captions.push(element_text(e));
            }
            continue;
        }
        if name == "img" {
            // alt and title often repeat each other: one occurrence per image.
            let alt = e.value().attr("alt").map(clean).unwrap_or_default();
            let title = e.value().attr("title").map(clean).unwrap_or_default();
            let best = if words(&alt) >= words(&title) {
                alt
            } else {
                title
            };
            if words(&best) >= MIN_ATTR_WORDS {
                captions.push(best);
            }
        }
    }
    let mut text = String::new();
    let mut segments = Vec::new();
    for c in captions.into_iter().filter(|c| !c.is_empty()) {
        if !text.is_empty() {
            text.push_str("\n\n");
        }
        let start = text.len();
        text.push_str(&c);
        segments.push(Segment {
            span: Span::new(start, text.len()),
            text: c,
        });
    }
    (text, segments)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gallery_captions_and_nothing_else() {
        let page = r##"<!doctype html><html><head>
          <meta property="og:description" content="Photos of the week">
          <script type="application/ld+json">{"@type":"ImageObject","caption":"A boy walks past a damaged building in Aleppo, Syria, on November 6, 2016."}</script>
          </head><body>
          <nav><div class="caption">Home | Galleries | About us and more links here</div></nav>
          <figure><img src="a.jpg" alt="short alt"><figcaption>A woman <em>carries</em> water<br>in Douma, Syria, on October 24, 2016. REUTERS/Bassam Khabieh</figcaption></figure>
          <div class="gallery-caption"><p>Rescuers search the rubble in Harasta, Syria… more</p></div>
          <a data-caption="Rescuers search the rubble in Harasta, Syria, on November 6, 2016. AFP" href="#"></a>
          <img src="b.jpg" alt="Children play in the snow in a camp for displaced people near Idlib, Syria, on January 9, 2017.">
          <footer><figcaption>Copyright notice of the site, all rights reserved to everyone</figcaption></footer>
          </body></html>"##;
        let (text, segs) = render(page);
        let got: Vec<&str> = segs.iter().map(|s| s.text.as_str()).collect();
        assert_eq!(
            got,
            [
                "A boy walks past a damaged building in Aleppo, Syria, on November 6, 2016.",
                "A woman carries water in Douma, Syria, on October 24, 2016. REUTERS/Bassam Khabieh",
                "Rescuers search the rubble in Harasta, Syria…",
                "Rescuers search the rubble in Harasta, Syria, on November 6, 2016. AFP",
                "Children play in the snow in a camp for displaced people near Idlib, Syria, on January 9, 2017.",
            ]
        );
        for s in &segs {
            assert_eq!(&text[s.span.start..s.span.end], s.text);
        }
    }

    #[test]
    fn deep_nesting_is_bounded() {
        let mut page = String::from("<html><body><figcaption>");
        for _ in 0..20_000 {
            page.push_str("<span>");
        }
        page.push_str("deep text");
        let (_, segs) = render(&page);
        assert!(segs.len() <= 1);
    }
}
