//! Rendering: a raw source made a document (decoded text, the captions found in it with
//! their spans, embedded fields). Deterministic, so the text spans count in can always
//! be rebuilt from the stored bytes.

use cairn_model::{Document, Embedded, Segment, SourceKind, Span};

use crate::limits::Deadline;
use crate::{
    Error, Format, RawSource, Result, decode_as, decode_source, detect, html, image, sniff_binary,
};

fn one_segment(text: &str) -> Vec<Segment> {
    let t = cairn_model::fold_whitespace(text);
    if t.trim().is_empty() {
        return Vec::new();
    }
    vec![Segment {
        span: Span::new(0, text.len()),
        text: t.trim().to_string(),
    }]
}

/// Turns a raw source into a document: decoded text, captions with spans, embedded
/// fields, warnings. The text is decoded from the encoding the source declares or, when
/// it declares none and is not UTF-8, the one its bytes look like ([`decode_source`]).
pub fn render(raw: RawSource) -> Result<Document> {
    render_decoded(raw, None, None)
}

/// [`render`] at ingest: a source that takes longer than `given` to render is rejected
/// (an [`Error::Bad`] saying so), so that one page of a shape that costs a parser more
/// than its bounds foresaw cannot stall the ingest. Stored sources are rendered again
/// without it ([`render_as_stored`]): what was stored is always read.
pub fn render_within(raw: RawSource, given: std::time::Duration) -> Result<Document> {
    render_decoded(raw, None, Some(Deadline::after(given)))
}

/// [`render`] of a stored source, decoded in the encoding recorded when it was stored
/// (its source row's `encoding`), so that the text its spans count in is the one they
/// were made in, whichever version of the reader stored it.
pub fn render_as_stored(raw: RawSource, encoding: &str) -> Result<Document> {
    render_decoded(raw, Some(encoding), None)
}

/// The charset of a WARC record's HTTP `Content-Type`, from the source's origin.
fn transport_charset(origin: Option<&str>) -> Option<String> {
    let o: serde_json::Value = serde_json::from_str(origin?).ok()?;
    let ct = o.get("content_type")?.as_str()?;
    ct.split(';').skip(1).find_map(|p| {
        let (k, v) = p.split_once('=')?;
        k.trim()
            .eq_ignore_ascii_case("charset")
            .then(|| v.trim().trim_matches(['"', '\'']).to_string())
    })
}

/// What rendering found in a source's bytes: its text, the encoding it was decoded
/// from, the captions in it and any embedded fields.
type Rendered = (String, &'static str, Option<Vec<Segment>>, Option<Embedded>);

fn render_decoded(
    raw: RawSource,
    recorded: Option<&str>,
    deadline: Option<Deadline>,
) -> Result<Document> {
    let RawSource {
        uri,
        name,
        kind,
        bytes,
        sha256,
        origin,
    } = raw;
    if bytes.is_empty() {
        return Err(Error::Empty { path: name });
    }
    let mut warnings = Vec::new();
    if kind == SourceKind::Warc {
        warnings = crate::warc::origin_warnings(origin.as_deref());
    }
    let (text, encoding, segments, embedded) = match kind {
        SourceKind::Text | SourceKind::Html | SourceKind::Warc => render_text(
            kind,
            &bytes,
            &name,
            origin.as_deref(),
            recorded,
            deadline,
            &mut warnings,
        )?,
        SourceKind::Jsonl => render_jsonl(&bytes, &name, origin.as_deref())?,
        SourceKind::Image => render_image(&bytes, name, &mut warnings)?,
    };
    Ok(Document {
        uri,
        kind,
        bytes,
        sha256,
        text,
        encoding: encoding.to_string(),
        segments,
        warnings,
        origin,
        embedded,
    })
}

/// A text, HTML or web-archive source: decoded, and its caption markup read when it
/// is a page.
fn render_text(
    kind: SourceKind,
    bytes: &[u8],
    name: &str,
    origin: Option<&str>,
    recorded: Option<&str>,
    deadline: Option<Deadline>,
    warnings: &mut Vec<String>,
) -> Result<Rendered> {
    let html = kind == SourceKind::Html
        || (kind == SourceKind::Warc && detect(&bytes[..bytes.len().min(4096)]) == Format::Html);
    if !html {
        if let Some(what) = sniff_binary(bytes) {
            return Err(Error::Binary {
                path: name.to_string(),
                what,
            });
        }
    }
    let d = match recorded {
        Some(enc) => decode_as(bytes, enc),
        None => decode_source(bytes, transport_charset(origin).as_deref(), html),
    };
    warnings.extend(d.warnings);
    if html {
        let (text, segments) =
            html::try_render_until(&d.text, deadline).map_err(|e| Error::Bad {
                path: name.to_string(),
                message: e.to_string(),
            })?;
        if segments.is_empty() {
            warnings.push("no captions found in the page's caption markup".into());
        }
        Ok((text, d.encoding, Some(segments), None))
    } else {
        Ok((d.text, d.encoding, None, None))
    }
}

/// One JSON Lines record: the caption from its text field, the date from its date
/// field when one was named.
fn render_jsonl(bytes: &[u8], name: &str, origin: Option<&str>) -> Result<Rendered> {
    let o: serde_json::Value = origin
        .and_then(|o| serde_json::from_str(o).ok())
        .unwrap_or_default();
    let field = o["text_field"].as_str().unwrap_or("caption").to_string();
    let v: serde_json::Value = serde_json::from_slice(bytes).map_err(|e| Error::Bad {
        path: name.to_string(),
        message: format!("not a JSON object: {e}"),
    })?;
    let text = v
        .get(&field)
        .and_then(|t| t.as_str())
        .ok_or_else(|| Error::Bad {
            path: name.to_string(),
            message: format!("no string field {field:?} (choose one with --text-field)"),
        })?
        .to_string();
    let mut embedded = None;
    if let Some(df) = o["date_field"].as_str() {
        if let Some(d) = v.get(df).and_then(|d| d.as_str()) {
            embedded = Some(Embedded {
                date: Some(d.chars().take(10).collect()),
                ..Embedded::default()
            });
        }
    }
    let segments = one_segment(&text);
    Ok((text, "utf-8", Some(segments), embedded))
}

/// An image: the caption and fields of its IPTC or XMP metadata.
fn render_image(bytes: &[u8], name: String, warnings: &mut Vec<String>) -> Result<Rendered> {
    let format = detect(&bytes[..bytes.len().min(64)]);
    let e = image::read_image(format, bytes).map_err(|message| Error::Bad {
        path: name.clone(),
        message,
    })?;
    let Some(e) = e else {
        return Err(Error::Bad {
            path: name,
            message: "the image carries no IPTC or XMP caption".into(),
        });
    };
    let text = e.caption.clone().unwrap_or_default();
    if text.is_empty() {
        warnings.push("the image's metadata has no caption text".into());
    }
    let segments = one_segment(&text);
    Ok((text, "utf-8", Some(segments), Some(e)))
}
