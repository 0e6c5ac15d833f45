//! An upload read as `cairn ingest` reads a file: by the format its Content-Type
//! declares, else by its content, with the ingest crate's own readers (a WARC's
//! records and a JSON Lines file's lines each a source), every source stored in turn.

use std::path::Path;

use axum::http::{HeaderMap, header};
use cairn_gazetteer::Gazetteer;
use cairn_ingest::{Format, Input, RawSource, ReadOptions};
use cairn_model::{Document, SourceKind};
use cairn_store::{ArchiveWriter, BatchSummary};
use serde_json::json;

use crate::{ApiError, ApiResult};

/// What an upload's Content-Type says it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Declared {
    /// Nothing useful: the format is found from the content, as for a file.
    Detect,
    /// A plain-text page.
    Text,
    /// An HTML page.
    Html,
    /// A WARC (or ARC) file, possibly compressed.
    Warc,
    /// JSON Lines, possibly compressed.
    Jsonl,
}

impl Declared {
    /// The format a Content-Type names; a type cairn has no reader for is refused.
    pub(crate) fn from_headers(headers: &HeaderMap) -> ApiResult<Self> {
        let Some(v) = headers.get(header::CONTENT_TYPE) else {
            return Ok(Declared::Detect);
        };
        let v = v.to_str().unwrap_or("");
        let essence = v
            .split(';')
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase();
        Ok(match essence.as_str() {
            "text/plain" => Declared::Text,
            "text/html" | "application/xhtml+xml" => Declared::Html,
            "application/warc" | "application/x-warc" => Declared::Warc,
            "application/jsonl"
            | "application/x-ndjson"
            | "application/x-jsonlines"
            | "application/json" => Declared::Jsonl,
            // What says nothing of the format (curl's default for --data is a form),
            // compressed files and images: read by their content.
            ""
            | "application/octet-stream"
            | "application/x-www-form-urlencoded"
            | "application/gzip"
            | "application/x-gzip"
            | "application/zstd"
            | "image/jpeg"
            | "image/png"
            | "image/tiff"
            | "image/webp" => Declared::Detect,
            other => {
                return Err(ApiError::UnsupportedType(format!(
                    "cairn reads no {other:?} upload; send text/plain, text/html, application/warc or application/jsonl"
                )));
            }
        })
    }

    /// Whether content detected as `found` can be what was declared (a compressed
    /// container is opened by the reader and told by what it holds).
    fn admits(self, found: Format) -> bool {
        let compressed = matches!(found, Format::Gzip | Format::Zstd);
        match self {
            Declared::Warc => compressed || matches!(found, Format::Warc | Format::Arc),
            Declared::Jsonl => compressed || found == Format::Jsonl,
            Declared::Detect | Declared::Text | Declared::Html => true,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Declared::Warc => "a WARC file",
            Declared::Jsonl => "JSON Lines",
            Declared::Html => "an HTML page",
            Declared::Text => "a text page",
            Declared::Detect => "a readable upload",
        }
    }
}

/// An upload spooled to a file.
pub(crate) struct Posted<'a> {
    pub(crate) path: &'a Path,
    pub(crate) declared: Declared,
    /// The URI its sources take where their format names none.
    pub(crate) uri: &'a str,
}

/// What messages call an upload, in place of its spool file's name.
const NAME: &str = "the upload";

/// Reads the upload and stores each of its sources with `put`; answers with what the
/// writes changed and what was not read. A source `put` fails to store ends the upload
/// with its error (the sources stored before it stay).
pub(crate) fn store(
    posted: &Posted<'_>,
    put: &mut dyn FnMut(Document) -> ApiResult<BatchSummary>,
) -> ApiResult<serde_json::Value> {
    let mut total = BatchSummary::default();
    let (mut rejected, mut notices) = (Vec::new(), Vec::new());
    let mut failed = None;
    let file = Renamer::new(posted);
    read(posted, &mut |r| {
        let raw = match r {
            Ok(raw) => file.rename(raw),
            Err(e) if e.is_notice() => {
                notices.push(file.message(&e));
                return true;
            }
            Err(e) => {
                rejected.push(file.message(&e));
                return true;
            }
        };
        let doc = match cairn_ingest::render(raw) {
            Ok(doc) => doc,
            Err(e) => {
                rejected.push(file.message(&e));
                return true;
            }
        };
        match put(doc) {
            Ok(s) => add(&mut total, &s),
            Err(e) => failed = Some(e),
        }
        failed.is_none()
    })?;
    if let Some(e) = failed {
        return Err(e);
    }
    if total.sources_added + total.sources_skipped == 0 {
        let why = rejected
            .into_iter()
            .next()
            .unwrap_or_else(|| "it holds no source".into());
        return Err(ApiError::BadRequest(format!("nothing was stored: {why}")));
    }
    let mut v = serde_json::to_value(&total).map_err(|e| ApiError::Internal(e.to_string()))?;
    v["rejected"] = json!(rejected);
    v["notices"] = json!(notices);
    Ok(v)
}

/// Stores `doc` with the pipeline's writer kept in `slot`.
pub(crate) fn write(
    slot: &mut Option<cairn_pipeline::DocumentWriter>,
    archive: &mut ArchiveWriter,
    doc: Document,
) -> ApiResult<BatchSummary> {
    let dir = archive.dir().to_path_buf();
    writer(slot, &dir)?
        .write(archive, doc)
        .map_err(|e| match e {
            cairn_pipeline::Error::Store(e) => ApiError::from(e),
            other => ApiError::Internal(other.to_string()),
        })
}

/// The pipeline's writer in `slot`, made at the first upload with the archive's own
/// gazetteer when it imported one, else the bundled one.
fn writer<'a>(
    slot: &'a mut Option<cairn_pipeline::DocumentWriter>,
    dir: &Path,
) -> ApiResult<&'a mut cairn_pipeline::DocumentWriter> {
    if slot.is_none() {
        let gazetteer =
            Gazetteer::for_archive(dir).map_err(|e| ApiError::Internal(e.to_string()))?;
        *slot = Some(cairn_pipeline::DocumentWriter::new(
            cairn_extract::Extractor::new(gazetteer),
            &cairn_pipeline::Options::default(),
        ));
    }
    slot.as_mut()
        .ok_or_else(|| ApiError::Internal("no writer".into()))
}

fn add(total: &mut BatchSummary, s: &BatchSummary) {
    total.sources_added += s.sources_added;
    total.sources_skipped += s.sources_skipped;
    total.occurrences_added += s.occurrences_added;
    total.variants_added += s.variants_added;
    total.captions_added += s.captions_added;
    total.variants_joined += s.variants_joined;
}

/// Calls `emit` with each source of the upload. A declared page is one source of that
/// kind; a declared container is checked to be one by its first bytes, then read by the
/// ingest crate as a file is, as is an upload whose type says nothing.
fn read(
    posted: &Posted<'_>,
    emit: &mut dyn FnMut(cairn_ingest::Result<RawSource>) -> bool,
) -> ApiResult<()> {
    let kind = match posted.declared {
        Declared::Text => Some(SourceKind::Text),
        Declared::Html => Some(SourceKind::Html),
        _ => None,
    };
    if let Some(kind) = kind {
        // A large binary body declared as text is refused without being read whole.
        let first = head(posted.path, cairn_ingest::SNIFF_BYTES)?;
        if kind == SourceKind::Text {
            if let Some(what) = cairn_ingest::sniff_binary(&first) {
                emit(Err(cairn_ingest::Error::Binary {
                    path: NAME.into(),
                    what,
                }));
                return Ok(());
            }
        }
        let bytes = std::fs::read(posted.path).map_err(|e| ApiError::Internal(e.to_string()))?;
        let sha256 = cairn_ingest::sha256_hex(&bytes);
        emit(Ok(RawSource {
            uri: posted.uri.into(),
            name: NAME.into(),
            kind,
            bytes,
            sha256,
            origin: None,
        }));
        return Ok(());
    }
    let found = cairn_ingest::detect(&head(posted.path, 4096)?);
    if !posted.declared.admits(found) {
        return Err(ApiError::BadRequest(format!(
            "the upload is not {} (its first bytes do not read as one)",
            posted.declared.name()
        )));
    }
    cairn_ingest::read_input(
        &Input::File(posted.path.to_path_buf()),
        &ReadOptions::default(),
        emit,
    );
    Ok(())
}

/// The first `n` bytes of a file (all of it when it is shorter).
fn head(path: &Path, n: usize) -> ApiResult<Vec<u8>> {
    use std::io::Read;
    let mut head = Vec::with_capacity(n);
    std::fs::File::open(path)
        .and_then(|f| f.take(n as u64).read_to_end(&mut head))
        .map_err(|e| ApiError::Internal(e.to_string()))?;
    Ok(head)
}

/// Gives an upload's sources and messages the upload's URI and name where the reader
/// gave them the spool file's.
struct Renamer<'a> {
    file_uri: String,
    file_name: String,
    uri: &'a str,
}

impl<'a> Renamer<'a> {
    fn new(posted: &Posted<'a>) -> Self {
        Renamer {
            file_uri: cairn_ingest::file_uri(posted.path),
            file_name: cairn_ingest::quoted_path(posted.path),
            uri: posted.uri,
        }
    }

    fn rename(&self, mut raw: RawSource) -> RawSource {
        if let Some(rest) = raw.uri.strip_prefix(&self.file_uri) {
            raw.uri = format!("{}{rest}", self.uri);
        }
        raw.name = raw.name.replace(&self.file_name, NAME);
        raw
    }

    fn message(&self, e: &cairn_ingest::Error) -> String {
        e.to_string().replace(&self.file_name, NAME)
    }
}
