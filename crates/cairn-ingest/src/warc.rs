//! WARC files (ISO 28500), plain or gzip-compressed per record: `response` records with
//! HTML or text payloads become sources. A damaged or truncated record is reported
//! with its offset and skipped; reading goes on at the next record.

use std::io::{BufRead, BufReader, Read, Seek, SeekFrom};

use flate2::bufread::GzDecoder;

/// Largest record payload read (bigger records are skipped with a warning).
pub const MAX_RECORD_BYTES: u64 = 64 * 1024 * 1024;
/// Largest WARC header block.
const MAX_HEADER_BYTES: usize = 64 * 1024;

/// One HTTP response taken from a WARC file.
#[derive(Debug, Clone)]
pub struct WarcResponse {
    /// `WARC-Target-URI`.
    pub target_uri: String,
    /// `WARC-Date`.
    pub date: String,
    /// Offset of the record in the file (of its gzip member for .warc.gz).
    pub offset: u64,
    /// `Content-Type` of the HTTP response.
    pub content_type: String,
    /// The HTTP body, with transfer and content encodings undone.
    pub body: Vec<u8>,
}

/// What reading a WARC gives, record by record.
#[derive(Debug)]
pub enum WarcItem {
    /// A response worth ingesting.
    Response(WarcResponse),
    /// A record that could not be read or used; reading goes on.
    Skipped {
        /// Where it started.
        offset: u64,
        /// Why.
        reason: String,
    },
}

/// Counts bytes read through it.
struct Counting<R: BufRead> {
    inner: R,
    pos: u64,
}

impl<R: BufRead> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.pos += n as u64;
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Counting<R> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        self.inner.fill_buf()
    }
    fn consume(&mut self, amt: usize) {
        self.pos += amt as u64;
        self.inner.consume(amt);
    }
}

fn read_line_limited<R: BufRead>(r: &mut R, max: usize) -> std::io::Result<Option<Vec<u8>>> {
    let mut line = Vec::new();
    let n = r.by_ref().take(max as u64).read_until(b'\n', &mut line)?;
    if n == 0 {
        return Ok(None);
    }
    Ok(Some(line))
}

/// A parsed WARC record head.
struct Head {
    fields: Vec<(String, String)>,
    length: u64,
}

impl Head {
    fn get(&self, name: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// Reads a record head; `Ok(None)` at a clean end of input.
fn read_head<R: BufRead>(r: &mut R) -> Result<Option<Head>, String> {
    // Skip blank lines between records.
    let version = loop {
        match read_line_limited(r, 1024).map_err(|e| e.to_string())? {
            None => return Ok(None),
            Some(l) if l.iter().all(|b| b.is_ascii_whitespace()) => continue,
            Some(l) => break l,
        }
    };
    if !version.starts_with(b"WARC/") {
        return Err("no WARC/ version line where a record should start".into());
    }
    let mut fields = Vec::new();
    let mut total = 0;
    loop {
        let line = read_line_limited(r, MAX_HEADER_BYTES)
            .map_err(|e| e.to_string())?
            .ok_or("the record ends inside its header")?;
        total += line.len();
        if total > MAX_HEADER_BYTES {
            return Err("the record header is over 64 KiB".into());
        }
        let line = String::from_utf8_lossy(&line);
        let line = line.trim_end_matches(['\r', '\n']);
        if line.is_empty() {
            break;
        }
        if let Some((k, v)) = line.split_once(':') {
            fields.push((k.trim().to_string(), v.trim().to_string()));
        }
    }
    let mut head = Head { fields, length: 0 };
    head.length = head
        .get("Content-Length")
        .and_then(|v| v.parse().ok())
        .ok_or("the record has no valid Content-Length")?;
    Ok(Some(head))
}

/// Undoes `Transfer-Encoding: chunked`.
fn dechunk(mut data: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    loop {
        let nl = data
            .iter()
            .position(|&b| b == b'\n')
            .ok_or("chunked body ends inside a chunk size")?;
        let size_line = String::from_utf8_lossy(&data[..nl]);
        let size_hex = size_line.trim().split(';').next().unwrap_or("").trim();
        let size = usize::from_str_radix(size_hex, 16)
            .map_err(|_| format!("bad chunk size {size_hex:?}"))?;
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

/// The HTTP response inside a `response` record's block.
fn http_response(block: &[u8]) -> Result<(String, Vec<u8>), String> {
    let mut headers = [httparse::EMPTY_HEADER; 128];
    let mut res = httparse::Response::new(&mut headers);
    let body_at = match res.parse(block) {
        Ok(httparse::Status::Complete(n)) => n,
        Ok(httparse::Status::Partial) => return Err("the HTTP header is cut short".into()),
        Err(e) => return Err(format!("the HTTP header does not parse: {e}")),
    };
    if res.code != Some(200) {
        return Err(format!("HTTP status {}", res.code.unwrap_or(0)));
    }
    let header = |name: &str| {
        res.headers
            .iter()
            .find(|h| h.name.eq_ignore_ascii_case(name))
            .map(|h| String::from_utf8_lossy(h.value).to_lowercase())
    };
    let content_type = header("content-type").unwrap_or_default();
    let mut body = block[body_at..].to_vec();
    if header("transfer-encoding").is_some_and(|t| t.contains("chunked")) {
        body = dechunk(&body)?;
    }
    match header("content-encoding").as_deref().map(str::trim) {
        None | Some("") | Some("identity") => {}
        Some("gzip") | Some("x-gzip") => {
            body = decompress_limited(flate2::read::GzDecoder::new(&body[..]), "gzip")?
        }
        Some("deflate") => {
            body = decompress_limited(flate2::read::ZlibDecoder::new(&body[..]), "deflate")?
        }
        Some(other) => return Err(format!("content encoding {other:?} is not supported")),
    }
    Ok((content_type, body))
}

fn usable_type(content_type: &str) -> bool {
    content_type.is_empty()
        || content_type.starts_with("text/html")
        || content_type.starts_with("application/xhtml")
        || content_type.starts_with("text/plain")
}

/// Reads the record at the reader's position (one gzip member's worth when `gz`).
fn next_record<R: BufRead>(r: &mut R, offset: u64) -> Result<Option<WarcItem>, String> {
    let Some(head) = read_head(r)? else {
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
        return Ok(Some(WarcItem::Skipped {
            offset,
            reason: format!("record of {} bytes is over the limit", head.length),
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
    // A record ends with two line breaks; anything else means the Content-Length lied.
    match r.fill_buf() {
        // (Only the first byte is looked at: a decompressor may hand out "\r" alone.)
        Ok(rest) if rest.is_empty() || rest[0] == b'\r' || rest[0] == b'\n' => {}
        Ok(_) => {
            return Err(format!(
                "the record does not end where its Content-Length ({}) says",
                head.length
            ));
        }
        Err(e) => return Err(e.to_string()),
    }
    let kind = head.get("WARC-Type").unwrap_or("");
    if kind != "response" {
        return Ok(Some(WarcItem::Skipped {
            offset,
            reason: format!("{kind} record"),
        }));
    }
    let uri = head
        .get("WARC-Target-URI")
        .unwrap_or("")
        .trim_matches(['<', '>'])
        .to_string();
    let item = match http_response(&block) {
        Ok((content_type, body)) if usable_type(&content_type) && !body.is_empty() => {
            WarcItem::Response(WarcResponse {
                target_uri: uri,
                date: head.get("WARC-Date").unwrap_or("").to_string(),
                offset,
                content_type,
                body,
            })
        }
        Ok((content_type, _)) => WarcItem::Skipped {
            offset,
            reason: format!("{uri}: not a page ({content_type:?}, or empty)"),
        },
        Err(reason) => WarcItem::Skipped {
            offset,
            reason: format!("{uri}: {reason}"),
        },
    };
    Ok(Some(item))
}

/// Reads a WARC stream, calling `emit` for each response and each skipped record, in
/// order, until the end or until `emit` returns false. A gzip-per-record file is read
/// member by member, so a damaged member costs only its record.
pub fn read_warc<R: Read + Seek>(input: R, gz: bool, emit: &mut dyn FnMut(WarcItem) -> bool) {
    let mut r = Counting {
        inner: BufReader::with_capacity(256 * 1024, input),
        pos: 0,
    };
    loop {
        if !gz {
            // The blank lines that end the previous record belong to it.
            loop {
                let n = match r.fill_buf() {
                    Ok(b) => b.iter().take_while(|&&c| c == b'\r' || c == b'\n').count(),
                    Err(_) => 0,
                };
                if n == 0 {
                    break;
                }
                r.consume(n);
            }
        }
        let offset = r.pos;
        let got = if gz {
            match r.fill_buf() {
                Ok([]) => return,
                Ok(_) => {}
                Err(e) => {
                    emit(WarcItem::Skipped {
                        offset,
                        reason: format!("read error: {e}"),
                    });
                    return;
                }
            }
            let mut member = BufReader::new(GzDecoder::new(&mut r));
            let got = next_record(&mut member, offset);
            // Drain the rest of the member (a record may end before it does).
            let drained = std::io::copy(
                &mut member.by_ref().take(MAX_RECORD_BYTES),
                &mut std::io::sink(),
            );
            match (got, drained) {
                (Ok(x), Ok(_)) => Ok(x),
                (Err(e), _) => Err(e),
                (Ok(_), Err(e)) => Err(format!("the gzip member is damaged: {e}")),
            }
        } else {
            next_record(&mut r, offset)
        };
        match got {
            Ok(None) => return,
            Ok(Some(item)) => {
                if !emit(item) {
                    return;
                }
            }
            Err(reason) => {
                if !emit(WarcItem::Skipped {
                    offset,
                    reason: reason.clone(),
                }) {
                    return;
                }
                // Go back to just after the damaged record's start and look for the
                // next one from there (what was read of it may hold the next start).
                if r.inner.seek(SeekFrom::Start(offset + 1)).is_err() {
                    return;
                }
                r.pos = offset + 1;
                if !resync(&mut r, gz) {
                    return;
                }
            }
        }
    }
}

/// After a damaged record: moves to the next gzip member magic (gz) or the next line
/// starting with `WARC/` (plain). False at the end of input.
fn resync<R: BufRead>(r: &mut Counting<R>, gz: bool) -> bool {
    loop {
        let buf = match r.fill_buf() {
            Ok([]) | Err(_) => return false,
            Ok(b) => b,
        };
        let needle: &[u8] = if gz { &[0x1f, 0x8b, 0x08] } else { b"\nWARC/" };
        if let Some(i) = buf.windows(needle.len()).position(|w| w == needle) {
            let skip = if gz { i } else { i + 1 };
            r.consume(skip);
            return true;
        }
        let keep = needle.len() - 1;
        let n = buf.len().saturating_sub(keep).max(1);
        r.consume(n);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(uri: &str, http: &str) -> Vec<u8> {
        format!(
            "WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: {uri}\r\nWARC-Date: 2016-11-07T10:00:00Z\r\nContent-Length: {}\r\n\r\n{http}\r\n\r\n",
            http.len()
        )
        .into_bytes()
    }

    /// Hands out one byte per read, as a decompressor may at a block boundary.
    struct OneByte(std::io::Cursor<Vec<u8>>);

    impl Read for OneByte {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = buf.len().min(1);
            self.0.read(&mut buf[..n])
        }
    }

    impl Seek for OneByte {
        fn seek(&mut self, pos: SeekFrom) -> std::io::Result<u64> {
            self.0.seek(pos)
        }
    }

    #[test]
    fn records_read_whole_however_the_bytes_arrive() {
        let mut file = record("https://a.example/1", "HTTP/1.1 200 OK\r\n\r\none");
        file.extend(record("https://a.example/2", "HTTP/1.1 200 OK\r\n\r\ntwo"));
        let mut bodies = Vec::new();
        read_warc(OneByte(std::io::Cursor::new(file)), false, &mut |i| {
            match i {
                WarcItem::Response(r) => bodies.push(r.body),
                other => panic!("{other:?}"),
            }
            true
        });
        assert_eq!(bodies, [b"one".to_vec(), b"two".to_vec()]);
    }

    #[test]
    fn chunked_bodies_and_damaged_records() {
        let ok = record(
            "https://a.example/1",
            "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n<p>hi\r\n4\r\n</p>\r\n0\r\n\r\n",
        );
        let mut lying = record("https://a.example/2", "HTTP/1.1 200 OK\r\n\r\nbody");
        // A Content-Length that claims more than is there.
        let text = String::from_utf8(lying.clone())
            .unwrap()
            .replace("Content-Length: 23", "Content-Length: 99999");
        lying = text.into_bytes();
        let mut file = ok.clone();
        file.extend_from_slice(&lying);
        let mut items = Vec::new();
        read_warc(std::io::Cursor::new(&file[..]), false, &mut |i| {
            items.push(i);
            true
        });
        match &items[0] {
            WarcItem::Response(r) => {
                assert_eq!(r.body, b"<p>hi</p>");
                assert_eq!(r.target_uri, "https://a.example/1");
            }
            other => panic!("{other:?}"),
        }
        assert!(
            matches!(&items[1], WarcItem::Skipped { offset, reason } if *offset == ok.len() as u64 && reason.contains("Content-Length")),
            "{:?}",
            &items[1..]
        );
        assert_eq!(items.len(), 2);
    }
}
