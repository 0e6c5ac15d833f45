//! One record, read and judged: a page (a `response` with an HTTP 200 page, a
//! `resource` whose block is the page, an ARC record), a `revisit` to resolve against
//! an earlier record, or a record that holds no page (with a short label saying what
//! it is, so that a file's skipped records can be reported together).

use std::io::{BufRead, Read};

use super::head::{Flavour, Head, read_head};
use super::http::{self, NoPage};
use super::{MAX_RECORD_BYTES, Skip, WarcResponse};

/// What one record gives.
#[derive(Debug)]
pub(super) enum Record {
    /// A page.
    Page(WarcResponse),
    /// A revisit: the payload is an earlier record's.
    Revisit(Revisit),
    /// Nothing to read, and why.
    Skip(String, Skip),
}

/// A `revisit` record, before its earlier payload is looked for.
#[derive(Debug)]
pub(super) struct Revisit {
    /// `WARC-Target-URI`.
    pub uri: String,
    /// `WARC-Date`.
    pub date: String,
    /// `WARC-Refers-To` (the earlier record's id), then `WARC-Payload-Digest`.
    pub keys: Vec<String>,
    /// The content type its own HTTP header names, if it has one.
    pub content_type: Option<String>,
}

/// A record read, with the keys a revisit may name it by.
#[derive(Debug)]
pub(super) struct Judged {
    pub record: Record,
    /// `WARC-Record-ID` and `WARC-Payload-Digest` of a response or resource.
    pub keys: Vec<String>,
}

/// Reads the record at the reader's position; `Ok(None)` at a clean end of input.
pub(super) fn next_record<R: BufRead>(
    r: &mut R,
    offset: u64,
    flavour: &mut Flavour,
) -> Result<Option<Judged>, String> {
    let Some(head) = read_head(r, flavour)? else {
        return Ok(None);
    };
    if head.length > MAX_RECORD_BYTES {
        // Skip it without holding it.
        let skipped = std::io::copy(&mut r.by_ref().take(head.length), &mut std::io::sink())
            .map_err(|e| e.to_string())?;
        if skipped < head.length {
            return Err(format!(
                "Content-Length says {} bytes but the file ends after {skipped}",
                head.length
            ));
        }
        return Ok(Some(Judged {
            record: Record::Skip(
                format!("record of {} bytes is over the limit", head.length),
                Skip::Damaged,
            ),
            keys: Vec::new(),
        }));
    }
    let mut block = Vec::with_capacity(head.length as usize);
    r.by_ref()
        .take(head.length)
        .read_to_end(&mut block)
        .map_err(|e| e.to_string())?;
    if (block.len() as u64) < head.length {
        return Err(format!(
            "Content-Length says {} bytes but the file ends after {}",
            head.length,
            block.len()
        ));
    }
    // A record ends with line breaks; anything else means the length lied.
    match r.fill_buf() {
        // (Only the first byte is looked at: a decompressor may hand out "\r" alone.)
        Ok(rest) if rest.is_empty() || rest[0] == b'\r' || rest[0] == b'\n' => {}
        Ok(_) => {
            return Err(format!(
                "the record does not end where its length ({}) says",
                head.length
            ));
        }
        Err(e) => return Err(e.to_string()),
    }
    Ok(Some(judge(&head, block, offset)))
}

/// The keys a record is found by: its id, and its payload digest (base 32 and 16 are
/// both case-blind, so it is lowercased).
fn keys_of(head: &Head) -> Vec<String> {
    let mut keys = Vec::new();
    if let Some(id) = head.get("WARC-Record-ID") {
        keys.push(id.to_string());
    }
    if let Some(d) = head.get("WARC-Payload-Digest") {
        keys.push(d.to_ascii_lowercase());
    }
    keys
}

fn judge(head: &Head, block: Vec<u8>, offset: u64) -> Judged {
    let kind = head.kind();
    let is_http = block.starts_with(b"HTTP/");
    let record = match kind {
        "response" | "ARC" if is_http || (kind == "response" && is_web(head.uri())) => {
            from_http(head, &block, offset)
        }
        "response" => not_web(kind, head.uri()),
        "resource" | "ARC" => from_block(head, block, offset),
        "revisit" => Record::Revisit(Revisit {
            uri: head.uri().to_string(),
            date: head.get("WARC-Date").unwrap_or("").to_string(),
            keys: head
                .get("WARC-Refers-To")
                .map(str::to_string)
                .into_iter()
                .chain(head.get("WARC-Payload-Digest").map(str::to_ascii_lowercase))
                .collect(),
            content_type: revisit_type(&block),
        }),
        "" => Record::Skip("record with no WARC-Type".into(), Skip::NotAPage),
        other => Record::Skip(format!("{} record", shown(other, 32)), Skip::NotAPage),
    };
    let keys = match kind {
        "response" | "resource" => keys_of(head),
        _ => Vec::new(),
    };
    Judged { record, keys }
}

/// A web address (a resource named `metadata:`, `urn:` or `dns:` is a crawler's own
/// note: its log, the text it extracted, a screenshot).
fn is_web(uri: &str) -> bool {
    let lower = uri.get(..8).unwrap_or(uri).to_ascii_lowercase();
    lower.starts_with("http://") || lower.starts_with("https://")
}

/// Text from the file as a message may show it: control characters escaped, so that a
/// hostile archive cannot forge lines or move the cursor.
pub(super) fn shown(s: &str, max: usize) -> String {
    s.chars()
        .take(max)
        .flat_map(|c| {
            let esc: Vec<char> = if c.is_control() {
                c.escape_default().collect()
            } else {
                vec![c]
            };
            esc
        })
        .collect()
}

fn not_web(kind: &str, uri: &str) -> Record {
    let scheme = uri.split_once(':').map_or("no", |(s, _)| s);
    let scheme = shown(scheme, 24);
    Record::Skip(
        format!("{kind} record of a {scheme}: address"),
        Skip::NotAPage,
    )
}

/// What a page's content type says, without its parameters, for a label.
fn bare_type(content_type: &str) -> String {
    let t = content_type.split(';').next().unwrap_or("").trim();
    if t.is_empty() {
        "with no content type".into()
    } else {
        shown(t, 64)
    }
}

pub(super) fn usable_type(content_type: &str) -> bool {
    content_type.is_empty()
        || content_type.starts_with("text/html")
        || content_type.starts_with("application/xhtml")
        || content_type.starts_with("text/plain")
}

fn page(head: &Head, offset: u64, payload: http::Payload) -> Record {
    let kind = head.kind();
    if !usable_type(&payload.content_type) {
        return Record::Skip(
            format!("{kind} {}", bare_type(&payload.content_type)),
            Skip::NotAPage,
        );
    }
    if payload.body.is_empty() {
        return Record::Skip(format!("{kind} with an empty body"), Skip::NotAPage);
    }
    Record::Page(WarcResponse {
        target_uri: head.uri().to_string(),
        date: head.get("WARC-Date").unwrap_or("").to_string(),
        offset,
        content_type: payload.content_type,
        body: payload.body,
        record_type: kind.to_string(),
        revisit_of: None,
        revisit_in: None,
        warnings: payload.warnings,
    })
}

fn from_http(head: &Head, block: &[u8], offset: u64) -> Record {
    match http::response(block) {
        Ok(p) => page(head, offset, p),
        Err(NoPage::Status(code)) => Record::Skip(
            format!("{} with HTTP status {code}", head.kind()),
            Skip::NotAPage,
        ),
        Err(NoPage::Damaged(why)) => {
            Record::Skip(format!("{}: {why}", shown(head.uri(), 2048)), Skip::Damaged)
        }
    }
}

/// A record whose block is the payload itself: its type is the record's.
fn from_block(head: &Head, block: Vec<u8>, offset: u64) -> Record {
    if !is_web(head.uri()) {
        return not_web(head.kind(), head.uri());
    }
    let payload = http::Payload {
        content_type: head.get("Content-Type").unwrap_or("").to_lowercase(),
        body: block,
        warnings: Vec::new(),
    };
    page(head, offset, payload)
}

/// The content type a revisit's own HTTP header names (it has one when the crawler
/// kept the new response's header).
fn revisit_type(block: &[u8]) -> Option<String> {
    let mut headers = [httparse::EMPTY_HEADER; 128];
    let mut res = httparse::Response::new(&mut headers);
    res.parse(block).ok()?;
    res.headers
        .iter()
        .find(|h| h.name.eq_ignore_ascii_case("content-type"))
        .map(|h| String::from_utf8_lossy(h.value).to_lowercase())
}

/// The label of a revisit whose own header says it is not a page, if so.
pub(super) fn revisit_not_a_page(v: &Revisit) -> Option<String> {
    let t = v.content_type.as_deref()?;
    (!usable_type(t)).then(|| format!("revisit {}", bare_type(t)))
}
