//! The HTTP response inside a WARC `response` record or an ARC record: status, content
//! type, and the body with its transfer and content encodings undone.

use std::io::Read;

use super::MAX_RECORD_BYTES;

/// What an HTTP response holds for cairn.
#[derive(Debug)]
pub(super) struct Payload {
    /// `Content-Type`, lowercased (empty when absent).
    pub content_type: String,
    /// The body, decoded.
    pub body: Vec<u8>,
    /// What was wrong but did not stop the body being read.
    pub warnings: Vec<String>,
}

/// Why an HTTP response gives no page.
#[derive(Debug)]
pub(super) enum NoPage {
    /// A status other than 200 (a redirect, an error page): nothing is lost.
    Status(u16),
    /// The response cannot be read.
    Damaged(String),
}

/// Undoes `Transfer-Encoding: chunked`.
pub(super) fn dechunk(mut data: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    loop {
        let nl = data
            .iter()
            .position(|&b| b == b'\n')
            .ok_or("chunked body ends inside a chunk size")?;
        let size_line = String::from_utf8_lossy(&data[..nl]);
        let size_hex = size_line.trim().split(';').next().unwrap_or("").trim();
        let size = usize::from_str_radix(size_hex, 16)
            .map_err(|_| format!("bad chunk size {:?}", truncate(size_hex, 16)))?;
        data = &data[nl + 1..];
        if size == 0 {
            return Ok(out);
        }
        if data.len() < size {
            return Err("chunked body is cut short".into());
        }
        out.extend_from_slice(&data[..size]);
        data = &data[size..];
        data = data
            .strip_prefix(b"\r\n")
            .or_else(|| data.strip_prefix(b"\n"))
            .unwrap_or(data);
    }
}

fn truncate(s: &str, max: usize) -> &str {
    match s.char_indices().nth(max) {
        Some((i, _)) => &s[..i],
        None => s,
    }
}

fn decompress_limited(r: impl Read, what: &str) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    r.take(MAX_RECORD_BYTES + 1)
        .read_to_end(&mut out)
        .map_err(|e| format!("{what} body does not decode: {e}"))?;
    if out.len() as u64 > MAX_RECORD_BYTES {
        return Err(format!(
            "{what} body decodes to over {MAX_RECORD_BYTES} bytes"
        ));
    }
    Ok(out)
}

/// Reads the HTTP response that `block` holds.
pub(super) fn response(block: &[u8]) -> Result<Payload, NoPage> {
    let mut headers = [httparse::EMPTY_HEADER; 128];
    let mut res = httparse::Response::new(&mut headers);
    let body_at = match res.parse(block) {
        Ok(httparse::Status::Complete(n)) => n,
        Ok(httparse::Status::Partial) => {
            return Err(NoPage::Damaged("the HTTP header is cut short".into()));
        }
        Err(e) => {
            return Err(NoPage::Damaged(format!(
                "the HTTP header does not parse: {e}"
            )));
        }
    };
    let code = res.code.unwrap_or(0);
    if code != 200 {
        return Err(NoPage::Status(code));
    }
    let header = |name: &str| {
        res.headers
            .iter()
            .find(|h| h.name.eq_ignore_ascii_case(name))
            .map(|h| String::from_utf8_lossy(h.value).to_lowercase())
    };
    let content_type = header("content-type").unwrap_or_default();
    let mut warnings = Vec::new();
    let mut body = block[body_at..].to_vec();
    if header("transfer-encoding").is_some_and(|t| t.contains("chunked")) {
        // Crawlers often store the body already de-chunked but keep the header: the
        // body as it is then is the page, as mature WARC readers take it.
        match dechunk(&body) {
            Ok(b) => body = b,
            Err(why) => warnings.push(format!(
                "the HTTP header says Transfer-Encoding: chunked but the body is not ({why}); the body is read as it is"
            )),
        }
    }
    match header("content-encoding").as_deref().map(str::trim) {
        None | Some("") | Some("identity") => {}
        Some("gzip") | Some("x-gzip") => {
            body = decompress_limited(flate2::read::GzDecoder::new(&body[..]), "gzip")
                .map_err(NoPage::Damaged)?
        }
        Some("deflate") => {
            body = decompress_limited(flate2::read::ZlibDecoder::new(&body[..]), "deflate")
                .map_err(NoPage::Damaged)?
        }
        Some(other) => {
            return Err(NoPage::Damaged(format!(
                "content encoding {other:?} is not supported"
            )));
        }
    }
    Ok(Payload {
        content_type,
        body,
        warnings,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chunked_header_over_a_plain_body_keeps_the_body_with_a_warning() {
        let block = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n<p>Not chunked at all</p>";
        let p = response(block).unwrap();
        assert_eq!(p.body, b"<p>Not chunked at all</p>");
        assert_eq!(p.warnings.len(), 1);
        assert!(p.warnings[0].contains("chunked"), "{:?}", p.warnings);
        // Real chunking is undone without a word.
        let block = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n";
        let p = response(block).unwrap();
        assert_eq!(p.body, b"abc");
        assert!(p.warnings.is_empty());
    }

    #[test]
    fn statuses_other_than_200_are_not_pages() {
        let block = b"HTTP/1.1 301 Moved Permanently\r\nLocation: /b\r\n\r\n";
        assert!(matches!(response(block), Err(NoPage::Status(301))));
        assert!(matches!(response(b"HTTP/1.1 200"), Err(NoPage::Damaged(_))));
    }
}
