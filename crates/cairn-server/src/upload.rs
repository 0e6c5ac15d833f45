//! `POST /api/ingest`, admitted before a byte of its body is read: an admin first, then
//! the declared length and type, then a turn among the uploads allowed at once. An
//! admitted body is spooled to a file beside the archive as it arrives, so that the
//! server's memory does not grow with the size or the number of uploads under way.

use std::io::Write;
use std::sync::Arc;

use axum::Json;
use axum::body::Body;
use axum::extract::{Extension, Query, Request, State};
use axum::http::{HeaderMap, header};
use cairn_store::Role;
use serde::Deserialize;
use sha2::{Digest, Sha256};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc};
use tokio_stream::StreamExt;

use crate::auth::Caller;
use crate::posted::{self, Declared, Posted};
use crate::{ApiError, ApiResult, AppState, BUSY_RETRY_AFTER_SECS, blocking};

/// What `POST /api/ingest` needs; uploads are stored through the server's writer.
pub(crate) struct Ingest {
    pub(crate) dir: std::path::PathBuf,
    /// Turns among the uploads received or stored at once.
    pub(crate) uploads: Arc<Semaphore>,
    pub(crate) max_uploads: usize,
    pub(crate) max_body: u64,
}

impl std::fmt::Debug for Ingest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ingest")
            .field("dir", &self.dir)
            .finish_non_exhaustive()
    }
}

#[derive(Debug, Deserialize)]
struct IngestParams {
    uri: Option<String>,
}

/// The body's length as its Content-Length declares it: an upload must say how long
/// it is, so that one over the limit is refused before it is read.
fn declared_length(headers: &HeaderMap, max: u64) -> ApiResult<u64> {
    let Some(v) = headers.get(header::CONTENT_LENGTH) else {
        return Err(ApiError::LengthRequired(
            "an upload needs a Content-Length header".into(),
        ));
    };
    let len: u64 = v
        .to_str()
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .ok_or_else(|| ApiError::BadRequest("Content-Length is not a number".into()))?;
    if len > max {
        return Err(ApiError::TooLarge(format!("the body is over {max} bytes")));
    }
    if len == 0 {
        return Err(ApiError::BadRequest(
            "the body is empty, nothing to ingest".into(),
        ));
    }
    Ok(len)
}

fn posted_uri(uri: Option<String>) -> ApiResult<Option<String>> {
    match uri {
        Some(u) if !u.is_empty() && u.len() <= 2048 => Ok(Some(u)),
        Some(_) => Err(ApiError::BadRequest("uri must be 1 to 2048 bytes".into())),
        None => Ok(None),
    }
}

/// Stores one upload (a text page, an HTML page, a WARC file or JSON Lines, by its
/// Content-Type, else by its content) exactly as `cairn ingest` would store the file.
pub(crate) async fn ingest_page(
    State(s): State<AppState>,
    Extension(caller): Extension<Caller>,
    req: Request,
) -> ApiResult<Json<serde_json::Value>> {
    let Some(ing) = s.ingest.clone() else {
        return Err(ApiError::NotFound("no such route".into()));
    };
    let (parts, body) = req.into_parts();
    caller.may_write(Role::Admin, &parts.headers)?;
    let len = declared_length(&parts.headers, ing.max_body)?;
    let declared = Declared::from_headers(&parts.headers)?;
    let Query(p) = Query::<IngestParams>::try_from_uri(&parts.uri)
        .map_err(|e| ApiError::BadRequest(e.body_text()))?;
    let uri = posted_uri(p.uri)?;
    let turn = ing.uploads.clone().try_acquire_owned().map_err(|_| {
        ApiError::Busy(format!(
            "{} uploads are under way, the most this server takes at once; try again in {BUSY_RETRY_AFTER_SECS} s",
            ing.max_uploads
        ))
    })?;
    let spooled = spool(body, len, &ing.dir).await?;
    store(&s, turn, spooled, declared, uri).await
}

/// An upload's body in a file, and its sha256.
pub(crate) struct Spooled {
    pub(crate) file: tempfile::NamedTempFile,
    pub(crate) sha256: String,
}

/// Chunks a spooling upload may have on their way to its file.
const SPOOL_QUEUE: usize = 4;

/// Writes `body` to a new file in `dir` as it arrives (on a blocking thread, fed
/// through a short queue), refusing more bytes than `len`.
async fn spool(body: Body, len: u64, dir: &std::path::Path) -> ApiResult<Spooled> {
    let file = tempfile::Builder::new()
        .prefix(".upload-")
        .tempfile_in(dir)
        .map_err(|e| ApiError::Internal(format!("cannot make an upload's file: {e}")))?;
    let (tx, rx) = mpsc::channel::<axum::body::Bytes>(SPOOL_QUEUE);
    let writer = tokio::task::spawn_blocking(move || write_chunks(file, rx));
    let mut stream = body.into_data_stream();
    let mut got = 0u64;
    while let Some(chunk) = stream.next().await {
        let chunk =
            chunk.map_err(|e| ApiError::BadRequest(format!("the body ended early: {e}")))?;
        got += chunk.len() as u64;
        if got > len {
            return Err(ApiError::BadRequest(
                "the body is longer than its Content-Length".into(),
            ));
        }
        if tx.send(chunk).await.is_err() {
            break;
        }
    }
    drop(tx);
    let spooled = writer
        .await
        .map_err(|e| ApiError::Internal(e.to_string()))?
        .map_err(|e| ApiError::Internal(format!("cannot write an upload's file: {e}")))?;
    if got < len {
        return Err(ApiError::BadRequest(
            "the body is shorter than its Content-Length".into(),
        ));
    }
    Ok(spooled)
}

fn write_chunks(
    mut file: tempfile::NamedTempFile,
    mut rx: mpsc::Receiver<axum::body::Bytes>,
) -> std::io::Result<Spooled> {
    let mut hash = Sha256::new();
    while let Some(chunk) = rx.blocking_recv() {
        hash.update(&chunk);
        file.write_all(&chunk)?;
    }
    file.flush()?;
    Ok(Spooled {
        file,
        sha256: hex::encode(hash.finalize()),
    })
}

/// Stores a spooled upload source by source through the writer's queue, so that saves
/// queued meanwhile go between its sources. Each source waits its turn up to the
/// server's time limit; past it the answer is `busy`, with Retry-After (the sources
/// stored before stay, and are skipped when the upload is sent again).
async fn store(
    s: &AppState,
    upload_turn: OwnedSemaphorePermit,
    spooled: Spooled,
    declared: Declared,
    uri: Option<String>,
) -> ApiResult<Json<serde_json::Value>> {
    let (writer, timeout) = (s.writer.clone(), s.timeout);
    let uploading = s.writer.uploading();
    blocking(move || {
        let (_upload_turn, _uploading) = (upload_turn, uploading);
        let uri = uri.unwrap_or_else(|| format!("urn:cairn:post:{}", spooled.sha256));
        let posted = Posted {
            path: spooled.file.path(),
            declared,
            uri: &uri,
        };
        let summary = posted::store(&posted, &mut |doc| {
            let deadline = std::time::Instant::now() + timeout;
            writer.run_blocking(deadline, move |h| {
                posted::write(&mut h.pipeline, &mut h.archive, doc)
            })
        })?;
        Ok(Json(summary))
    })
    .await
}
