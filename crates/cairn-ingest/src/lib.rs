//! Readers that turn what users have (plain text, HTML pages, WARC files, JSON Lines,
//! photographs with IPTC/XMP; any of them gzip- or zstd-compressed) into sources:
//! the exact bytes with their sha256, and the text that spans refer to.
//!
//! Reading has two steps. [`read_input`] opens a file (format by content, not by
//! name), undoes compression and splits containers (a WARC's responses, a JSON Lines
//! file's lines) into [`RawSource`]s, streaming. [`render`] turns one raw source into a
//! [`Document`]: decoded text, the captions found in it with their spans, embedded
//! fields. Rendering is deterministic, so the text spans count in can always be
//! rebuilt from the stored bytes.
//!
//! Readers never fail a whole run for one bad input: each gives sources (possibly with
//! warnings) or an [`Error`] that names the file and the problem.
#![warn(missing_docs)]

mod decode;
mod detect;
pub mod html;
pub mod image;
mod limits;
mod names;
mod render;
mod utf8_scan;
mod walk;
pub mod warc;

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use cairn_model::{Document, SourceKind};
use sha2::{Digest, Sha256};

pub use decode::{Decoded, SNIFF_BYTES, decode_as, decode_source, decode_text, sniff_binary};
pub use detect::{Format, detect};
pub use limits::{Deadline, MAX_LINE_BYTES, MAX_SOURCE_BYTES, SOURCE_TIME};
pub use names::{escaped, quoted, quoted_path};
pub use render::{render, render_as_stored, render_within};
pub use walk::{Expanded, Input, expand_paths, expand_paths_with};

/// Why a source could not be read.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The file could not be read.
    #[error("{}: {source}", quoted(.path))]
    Io {
        /// The file.
        path: String,
        /// What the OS said.
        #[source]
        source: std::io::Error,
    },
    /// The file holds no bytes.
    #[error("{}: the file is empty, nothing to ingest", quoted(.path))]
    Empty {
        /// The file.
        path: String,
    },
    /// The file is not text.
    #[error("{}: not a text page ({what}); skipped", quoted(.path))]
    Binary {
        /// The file.
        path: String,
        /// What it looks like.
        what: String,
    },
    /// The input could not be decoded (damaged compression, bad JSON line...).
    #[error("{}: {message}", quoted(.path))]
    Bad {
        /// The file (and where in it).
        path: String,
        /// What is wrong.
        message: String,
    },
    /// Part of an input holds nothing to ingest or refers to what is not there (a web
    /// archive's requests and images, a revisit whose payload is elsewhere): a warning,
    /// not a rejection of the input.
    #[error("{path}: {message}")]
    Notice {
        /// The file (and where in it).
        path: String,
        /// What was skipped, and why.
        message: String,
    },
    /// The file is larger than [`MAX_SOURCE_BYTES`].
    #[error("{}: {size} bytes is over the limit of {limit} bytes for one source", quoted(.path))]
    TooLarge {
        /// The file.
        path: String,
        /// Its size.
        size: u64,
        /// The limit.
        limit: u64,
    },
}

impl Error {
    /// Whether this is a [`Error::Notice`]: a warning about part of an input that was
    /// read, not a failure to read it.
    pub fn is_notice(&self) -> bool {
        matches!(self, Error::Notice { .. })
    }
}

/// Result alias for this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Lowercase hex sha256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// Lowercase hex sha256 of a file's bytes, read as a stream: how an input over a size
/// bound, never read whole, is remembered as rejected.
pub fn file_sha256(path: &Path) -> std::io::Result<String> {
    let mut hasher = Sha256::new();
    std::io::copy(&mut std::fs::File::open(path)?, &mut hasher)?;
    Ok(hex::encode(hasher.finalize()))
}

/// The URI cairn records for a local file: `file://` and the absolute path.
pub fn file_uri(path: &Path) -> String {
    file_uri_with(path, None)
}

/// [`file_uri`], with the path's `lstat` when the caller has it.
fn file_uri_with(path: &Path, lstat: Option<&std::fs::Metadata>) -> String {
    let abs = canonical_with(path, lstat)
        .or_else(|_| std::path::absolute(path))
        .unwrap_or_else(|_| PathBuf::from(path));
    names::file_uri_of(&abs)
}

thread_local! {
    /// The directory of the last file [`canonical`] resolved on this thread, and its
    /// canonical form: the files of a run come directory by directory.
    static LAST_DIR: std::cell::RefCell<Option<(PathBuf, PathBuf)>> =
        const { std::cell::RefCell::new(None) };
}

/// `std::fs::canonicalize(path)`, resolving the directory once for its files: a file
/// that is not a symbolic link is its directory's canonical path joined with its name,
/// which one `lstat` tells, where canonicalising asks the system about every component
/// of the path again (a percent of a large ingest's time).
#[cfg(test)]
fn canonical(path: &Path) -> std::io::Result<PathBuf> {
    canonical_with(path, None)
}

/// [`canonical`], with the path's `lstat` when the caller has it (else it is asked for).
fn canonical_with(path: &Path, lstat: Option<&std::fs::Metadata>) -> std::io::Result<PathBuf> {
    use std::path::Component;
    let (Some(Component::Normal(name)), Some(dir)) = (path.components().next_back(), path.parent())
    else {
        return std::fs::canonicalize(path);
    };
    let is_symlink = match lstat {
        Some(m) => m.file_type().is_symlink(),
        None => std::fs::symlink_metadata(path)?.file_type().is_symlink(),
    };
    if is_symlink {
        return std::fs::canonicalize(path);
    }
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    LAST_DIR.with_borrow_mut(|last| {
        if let Some((d, canon)) = last.as_ref()
            && d == dir
        {
            return Ok(canon.join(name));
        }
        let canon = std::fs::canonicalize(dir)?;
        let out = canon.join(name);
        *last = Some((dir.to_path_buf(), canon));
        Ok(out)
    })
}

/// How to read JSON Lines.
#[derive(Debug, Clone)]
pub struct ReadOptions {
    /// The field holding the caption text.
    pub text_field: String,
    /// The field holding the page's uri, if any.
    pub uri_field: Option<String>,
    /// The field holding the photograph's date, if any (taken over the text's date).
    pub date_field: Option<String>,
    /// The WARC files read so far with these options, for revisits of their records.
    pub crawl: warc::Crawl,
}

impl Default for ReadOptions {
    fn default() -> Self {
        ReadOptions {
            text_field: "caption".into(),
            uri_field: Some("uri".into()),
            date_field: Some("date".into()),
            crawl: warc::Crawl::default(),
        }
    }
}

/// A source as read from its container, before rendering.
#[derive(Debug, Clone)]
pub struct RawSource {
    /// Where it came from.
    pub uri: String,
    /// What error messages call it (the file, and the record or line inside it).
    pub name: String,
    /// How to render it.
    pub kind: SourceKind,
    /// The exact bytes kept in the archive.
    pub bytes: Vec<u8>,
    /// Lowercase hex sha256 of `bytes`.
    pub sha256: String,
    /// Where inside a container it came from, and how to read it again (JSON).
    pub origin: Option<String>,
}

/// Reads one file as one plain-text page (no format detection; see [`read_input`]).
pub fn read_file(path: &Path) -> Result<Document> {
    let name = quoted_path(path);
    let io = |source| Error::Io {
        path: name.clone(),
        source,
    };
    let meta = std::fs::metadata(path).map_err(io)?;
    if meta.len() > MAX_SOURCE_BYTES {
        return Err(Error::TooLarge {
            path: name,
            size: meta.len(),
            limit: MAX_SOURCE_BYTES,
        });
    }
    let bytes = std::fs::read(path).map_err(io)?;
    document_from_bytes(file_uri(path), &name, bytes)
}

/// Reads standard input as one plain-text page (uri `stdin:`).
pub fn read_stdin() -> Result<Document> {
    let mut bytes = Vec::new();
    std::io::stdin()
        .take(MAX_SOURCE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|source| Error::Io {
            path: "<stdin>".into(),
            source,
        })?;
    if bytes.len() as u64 > MAX_SOURCE_BYTES {
        return Err(Error::TooLarge {
            path: "<stdin>".into(),
            size: bytes.len() as u64,
            limit: MAX_SOURCE_BYTES,
        });
    }
    document_from_bytes("stdin:".into(), "<stdin>", bytes)
}

/// Builds a plain-text document from bytes; `name` is what error messages call it.
pub fn document_from_bytes(uri: String, name: &str, bytes: Vec<u8>) -> Result<Document> {
    let sha256 = sha256_hex(&bytes);
    render(RawSource {
        uri,
        name: name.into(),
        kind: SourceKind::Text,
        bytes,
        sha256,
        origin: None,
    })
}

use limits::read_limited;

/// Reads one input: detects its format by content, undoes gzip/zstd (bounded: a
/// decompression bomb stops at [`MAX_SOURCE_BYTES`] per source), and calls `emit` with
/// each source it holds, in order, until `emit` returns false. What is not a regular
/// file (a FIFO, a device) is refused without being opened: opening a FIFO waits for a
/// writer.
pub fn read_input(
    input: &Input,
    opts: &ReadOptions,
    emit: &mut dyn FnMut(Result<RawSource>) -> bool,
) {
    read_input_as(input, opts, emit, false);
}

/// [`read_input`] for one of many small files read at once: a compressed file (its
/// decompressed bytes could be far larger than the file) or a web archive (its revisits
/// may name records of the files before it) is not read and false is returned, for the
/// caller to read it with [`read_input`] on its own, in order.
pub fn read_small_input(
    input: &Input,
    opts: &ReadOptions,
    emit: &mut dyn FnMut(Result<RawSource>) -> bool,
) -> bool {
    read_input_as(input, opts, emit, true)
}

fn read_input_as(
    input: &Input,
    opts: &ReadOptions,
    emit: &mut dyn FnMut(Result<RawSource>) -> bool,
    small: bool,
) -> bool {
    let (name, uri, reader, size): (String, String, Box<dyn Read>, _) = match input {
        Input::Stdin => (
            "<stdin>".into(),
            "stdin:".into(),
            Box::new(std::io::stdin()),
            None,
        ),
        Input::File(p) => {
            let name = quoted_path(p);
            // One `lstat` tells both whether the path is a link (for its URI) and, when it
            // is a plain file, its size; a link's size is the opened file's.
            let lstat = std::fs::symlink_metadata(p).ok();
            let regular = match &lstat {
                Some(m) if m.file_type().is_symlink() => std::fs::metadata(p).ok(),
                m => m.clone(),
            };
            if let Some(m) = regular.filter(|m| !m.file_type().is_file()) {
                emit(Err(Error::Bad {
                    path: name,
                    message: format!("not a regular file ({}); skipped", file_kind(&m)),
                }));
                return true;
            }
            match std::fs::File::open(p) {
                Ok(f) => {
                    let size = match &lstat {
                        Some(m) if m.file_type().is_file() => Some(m.len()),
                        _ => f.metadata().map(|m| m.len()).ok(),
                    };
                    (name, file_uri_with(p, lstat.as_ref()), Box::new(f), size)
                }
                Err(source) => {
                    emit(Err(Error::Io { path: name, source }));
                    return true;
                }
            }
        }
    };
    let mut r = BufReader::with_capacity(256 * 1024, reader);
    // A WARC is read in turn too, so that a revisit of a record of an earlier file
    // finds it whatever the threads do.
    if small
        && r.fill_buf().is_ok_and(|h| {
            matches!(
                detect(h),
                Format::Gzip | Format::Zstd | Format::Warc | Format::Arc
            )
        })
    {
        return false;
    }
    let path = match input {
        Input::File(p) => Some(p.as_path()),
        Input::Stdin => None,
    };
    read_stream(r, (&name, path), &uri, opts, emit, 0, size);
    true
}

/// What kind of file a path is that is not a regular file, in words.
fn file_kind(m: &std::fs::Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let t = m.file_type();
    if t.is_fifo() {
        "a FIFO"
    } else if t.is_socket() {
        "a socket"
    } else if t.is_block_device() || t.is_char_device() {
        "a device"
    } else if t.is_dir() {
        "a directory"
    } else {
        "not a file"
    }
}

/// `named`: what messages call the input, and its path when it is a file.
fn read_stream(
    mut r: BufReader<Box<dyn Read>>,
    named: (&str, Option<&Path>),
    uri: &str,
    opts: &ReadOptions,
    emit: &mut dyn FnMut(Result<RawSource>) -> bool,
    depth: u8,
    size: Option<u64>,
) {
    let name = named.0;
    let head = match r.fill_buf() {
        Ok(h) => h.to_vec(),
        Err(source) => {
            emit(Err(Error::Io {
                path: name.into(),
                source,
            }));
            return;
        }
    };
    if head.is_empty() {
        emit(Err(Error::Empty { path: name.into() }));
        return;
    }
    let format = detect(&head);
    match format {
        Format::Gzip if depth < 2 => read_gzip(r, &head, named, uri, opts, emit, depth),
        Format::Zstd if depth < 2 => read_zstd(r, named, uri, opts, emit, depth),
        Format::Gzip | Format::Zstd => {
            emit(Err(Error::Bad {
                path: name.into(),
                message: "compressed more than twice over".into(),
            }));
        }
        Format::Warc | Format::Arc => {
            read_warc_seekable(r, false, named, depth == 0, &opts.crawl, emit);
        }
        Format::Jsonl => read_jsonl(r, name, uri, opts, emit),
        _ => read_single(r, format, name, uri, emit, size),
    }
}

/// A gzip stream (`head`, its first bytes): a WARC member by member, anything else
/// decompressed and read again.
fn read_gzip(
    r: BufReader<Box<dyn Read>>,
    head: &[u8],
    named: (&str, Option<&Path>),
    uri: &str,
    opts: &ReadOptions,
    emit: &mut dyn FnMut(Result<RawSource>) -> bool,
    depth: u8,
) {
    // A gzip WARC is read member by member (a damaged record costs only itself).
    let mut inner = Vec::new();
    let probe = flate2::bufread::GzDecoder::new(head);
    let _ = probe.take(16).read_to_end(&mut inner);
    if matches!(detect(&inner), Format::Warc | Format::Arc) {
        read_warc_seekable(r, true, named, depth == 0, &opts.crawl, emit);
        return;
    }
    let dec = flate2::bufread::MultiGzDecoder::new(r);
    let dec: Box<dyn Read> = Box::new(dec);
    let r = BufReader::with_capacity(256 * 1024, dec);
    read_stream(r, named, uri, opts, emit, depth + 1, None);
}

/// A zstd stream, decompressed and read again.
fn read_zstd(
    r: BufReader<Box<dyn Read>>,
    named: (&str, Option<&Path>),
    uri: &str,
    opts: &ReadOptions,
    emit: &mut dyn FnMut(Result<RawSource>) -> bool,
    depth: u8,
) {
    match zstd::stream::read::Decoder::with_buffer(r) {
        Ok(dec) => {
            let dec: Box<dyn Read> = Box::new(dec);
            let r = BufReader::with_capacity(256 * 1024, dec);
            read_stream(r, named, uri, opts, emit, depth + 1, None)
        }
        Err(e) => {
            emit(Err(Error::Bad {
                path: named.0.into(),
                message: format!("not a readable zstd stream: {e}"),
            }));
        }
    }
}

/// A file that is one document (a page, a text, an image).
fn read_single(
    mut r: BufReader<Box<dyn Read>>,
    format: Format,
    name: &str,
    uri: &str,
    emit: &mut dyn FnMut(Result<RawSource>) -> bool,
    size: Option<u64>,
) {
    // A single-document file over the limit is refused before reading it.
    if let Some(size) = size.filter(|&s| s > MAX_SOURCE_BYTES) {
        emit(Err(Error::TooLarge {
            path: name.into(),
            size,
            limit: MAX_SOURCE_BYTES,
        }));
        return;
    }
    let kind = match format {
        Format::Html => SourceKind::Html,
        f if f.is_image() => SourceKind::Image,
        _ => SourceKind::Text,
    };
    if kind == SourceKind::Text {
        if let Some(what) = binary_head(&mut r, size) {
            emit(Err(Error::Binary {
                path: name.into(),
                what,
            }));
            return;
        }
    }
    let bytes = match read_limited(r, name, MAX_SOURCE_BYTES) {
        Ok(b) => b,
        Err(e) => {
            emit(Err(e));
            return;
        }
    };
    let sha256 = sha256_hex(&bytes);
    emit(Ok(RawSource {
        uri: uri.into(),
        name: name.into(),
        kind,
        bytes,
        sha256,
        origin: None,
    }));
}

/// What rendering would say of a text file that is binary, judged from its first bytes
/// when they are all the sniff reads (or the whole file), so that a large binary file is
/// refused without being read into memory.
fn binary_head(r: &mut BufReader<Box<dyn Read>>, size: Option<u64>) -> Option<String> {
    let head = r.fill_buf().ok()?;
    let whole = size == Some(head.len() as u64);
    if head.len() < SNIFF_BYTES && !whole {
        return None;
    }
    sniff_binary(head)
}

/// The largest WARC read into memory (a compressed one that is not gzip per record): its
/// records are read from memory, so it is held whole.
const MAX_CONTAINER_BYTES: u64 = 512 * 1024 * 1024;

/// Reads a WARC from a file name when it is one (seekable: a damaged record is
/// skipped by going back to just after its start), else from memory.
fn read_warc_seekable(
    r: BufReader<Box<dyn Read>>,
    gz: bool,
    (name, path): (&str, Option<&Path>),
    is_the_file: bool,
    crawl: &warc::Crawl,
    emit: &mut dyn FnMut(Result<RawSource>) -> bool,
) {
    let reopened = match path {
        Some(path) if is_the_file && path.is_file() => {
            std::fs::File::open(path).ok().map(|f| (f, path))
        }
        _ => None,
    };
    match reopened {
        // Only a file can be opened again for a later file's revisit.
        Some((f, path)) => warc::read_sources(f, gz, name, Some((crawl, path)), emit),
        _ => match read_limited(r, name, MAX_CONTAINER_BYTES) {
            Ok(bytes) => warc::read_sources(std::io::Cursor::new(bytes), gz, name, None, emit),
            Err(e) => {
                emit(Err(e));
            }
        },
    }
}

fn read_jsonl(
    r: impl BufRead,
    name: &str,
    uri: &str,
    opts: &ReadOptions,
    emit: &mut dyn FnMut(Result<RawSource>) -> bool,
) {
    let origin = serde_json::json!({
        "text_field": opts.text_field,
        "date_field": opts.date_field,
    })
    .to_string();
    let mut lines = limits::Lines::new(r, MAX_LINE_BYTES);
    let mut n = 0;
    loop {
        n += 1;
        let where_ = format!("{name} line {n}");
        let mut line = match lines.next_line() {
            Ok(Some(limits::Line::Whole(l))) => l,
            Ok(Some(limits::Line::TooLong(size))) => {
                let e = Error::Bad {
                    path: where_,
                    message: format!(
                        "a line of {size} bytes is over the bound of {MAX_LINE_BYTES} bytes \
                         for one JSON Lines record; skipped (the line was not held in memory)"
                    ),
                };
                if !emit(Err(e)) {
                    return;
                }
                continue;
            }
            Ok(None) => return,
            Err(e) => {
                emit(Err(Error::Bad {
                    path: where_,
                    message: format!("cannot read: {e}"),
                }));
                return;
            }
        };
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let line_uri = opts
            .uri_field
            .as_ref()
            .and_then(|f| {
                serde_json::from_slice::<serde_json::Value>(&line)
                    .ok()?
                    .get(f)?
                    .as_str()
                    .map(String::from)
            })
            .unwrap_or_else(|| format!("{uri}#line={n}"));
        let sha256 = sha256_hex(&line);
        if !emit(Ok(RawSource {
            uri: line_uri,
            name: where_,
            kind: SourceKind::Jsonl,
            bytes: line,
            sha256,
            origin: Some(origin.clone()),
        })) {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_paths_resolve_as_canonicalize_does() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::create_dir_all(d.join("real/sub")).unwrap();
        std::fs::write(d.join("real/a.html"), "a").unwrap();
        std::fs::write(d.join("real/sub/b.txt"), "b").unwrap();
        std::os::unix::fs::symlink(d.join("real"), d.join("linked")).unwrap();
        std::os::unix::fs::symlink(d.join("real/sub/b.txt"), d.join("real/to-b")).unwrap();
        let paths = [
            d.join("real/a.html"),
            d.join("linked/a.html"),
            d.join("real/to-b"),
            d.join("linked/to-b"),
            d.join("real/sub/../a.html"),
            d.join("linked/sub/b.txt"),
            d.join("real/./sub/b.txt"),
            d.join("real/sub/"),
            d.join("real/missing.txt"),
            d.join("real/a.html/.."),
        ];
        // Twice over, so that each path meets the directory the one before left.
        for p in paths.iter().chain(&paths) {
            assert_eq!(
                canonical(p).ok(),
                std::fs::canonicalize(p).ok(),
                "{}",
                p.display()
            );
        }
        assert!(file_uri(&d.join("linked/to-b")).ends_with("/real/sub/b.txt"));
        // The same with the path's lstat given (as reading an input does).
        for p in paths.iter().chain(&paths) {
            let lstat = std::fs::symlink_metadata(p).ok();
            assert_eq!(
                canonical_with(p, lstat.as_ref()).ok(),
                std::fs::canonicalize(p).ok(),
                "{}",
                p.display()
            );
        }
    }

    #[test]
    fn sha_of_empty_input_is_known() {
        assert_eq!(
            sha256_hex(b""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }

    #[test]
    fn empty_and_binary_are_refused_with_the_name() {
        let e = document_from_bytes("x".into(), "a.txt", vec![]).unwrap_err();
        assert!(e.to_string().contains("a.txt") && e.to_string().contains("empty"));
        let e = document_from_bytes("x".into(), "b.bin", vec![0, 1, 2, 0, 0, 3]).unwrap_err();
        assert!(e.to_string().contains("b.bin") && e.to_string().contains("not a text"));
    }

    #[test]
    fn invalid_utf8_decodes_in_the_detected_encoding_with_a_warning() {
        let d = document_from_bytes("x".into(), "c.txt", b"caf\xe9 au lait".to_vec()).unwrap();
        assert_eq!(d.text, "caf\u{e9} au lait");
        assert_eq!(d.encoding, "windows-1252");
        assert_eq!(d.warnings.len(), 1);
        assert!(d.warnings[0].contains("invalid UTF-8"));
    }

    #[test]
    fn a_warc_records_http_charset_decodes_its_page() {
        let origin = r#"{"content_type":"text/html; charset=\"ISO-8859-1\""}"#;
        let page =
            b"<html><figcaption>Jos\xe9 Mu\xf1oz walks in Quito, Ecuador.</figcaption></html>";
        let doc = render(RawSource {
            uri: "https://a.example/".into(),
            name: "a.warc".into(),
            kind: SourceKind::Warc,
            bytes: page.to_vec(),
            sha256: sha256_hex(page),
            origin: Some(origin.into()),
        })
        .unwrap();
        assert_eq!(doc.text, "Jos\u{e9} Mu\u{f1}oz walks in Quito, Ecuador.");
        assert_eq!(doc.encoding, "windows-1252");
    }
}
