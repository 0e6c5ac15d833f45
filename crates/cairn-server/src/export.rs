//! `/api/export`: every match streamed in an export format. An export is made on a
//! blocking thread while its client reads, so it is bounded on every side: a turn among
//! a few exports at once, a heavy-work permit while it works (given back while it waits
//! for a slow reader), a few chunks buffered, and it stops when its client goes away or
//! stops reading.

use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{Query, State};
use axum::http::{HeaderValue, header};
use axum::response::Response;
use cairn_store::{SearchRequest, Stop};
use serde::Deserialize;
use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc};

use crate::{ApiError, ApiResult, AppState, MAX_EXPORT, Params, heavy_by, request};

/// Chunks of [`CHUNK_BYTES`] waiting for a client: all an export buffers besides the
/// chunk it is filling.
const QUEUED_CHUNKS: usize = 4;
/// The size of a chunk sent to the client.
const CHUNK_BYTES: usize = 64 * 1024;

#[derive(Debug, Deserialize)]
pub(crate) struct ExportParams {
    format: Option<String>,
}

/// Streams an export of every match (up to [`MAX_EXPORT`]).
pub(crate) async fn export(
    State(s): State<AppState>,
    params: Params,
    fmt: Result<Query<ExportParams>, axum::extract::rejection::QueryRejection>,
) -> ApiResult<Response> {
    let p = params?;
    let Query(f) = fmt.map_err(|e| ApiError::BadRequest(e.body_text()))?;
    let format: cairn_export::Format = f
        .format
        .as_deref()
        .unwrap_or("jsonl")
        .parse()
        .map_err(ApiError::BadRequest)?;
    if format.is_directory() {
        return Err(ApiError::BadRequest(
            "xmp writes one file per caption; use `cairn export --format xmp --out DIR`".into(),
        ));
    }
    let req = request(p, &s.gazetteer)?;
    // One time limit for the wait for a turn and the count together.
    let deadline = tokio::time::Instant::now() + s.timeout;
    let turn = tokio::time::timeout_at(deadline, s.exports.clone().acquire_owned())
        .await
        .map_err(|_| {
            ApiError::Timeout(format!(
                "{} exports are running and none ended within {} s; try again later",
                s.max_exports,
                s.timeout.as_secs_f64()
            ))
        })?
        .map_err(|e| ApiError::Internal(e.to_string()))?;
    // Count first, so an export too large is refused before any byte is sent.
    let count_req = SearchRequest {
        limit: 1,
        ..req.clone()
    };
    let a = s.archive.clone();
    let count = move |stop: &Stop| Ok(a.search_until(&count_req, stop)?.total);
    let total = heavy_by(&s, deadline, count).await?;
    if total > MAX_EXPORT {
        return Err(ApiError::TooLarge(format!(
            "{total} captions match; an export over HTTP takes at most {MAX_EXPORT} (narrow the filters, or use `cairn export`)"
        )));
    }
    let mut res = Response::new(Body::from_stream(start(&s, req, format, turn)));
    let h = res.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(format.media_type()),
    );
    // ACLED rows and plain rows are both CSV: each keeps a name of its own.
    let stem = match format {
        cairn_export::Format::AcledCsv => "cairn-acled",
        cairn_export::Format::Gold => "cairn-gold",
        _ => "cairn-export",
    };
    if let Ok(v) = HeaderValue::from_str(&format!(
        "attachment; filename=\"{stem}.{}\"",
        format.extension()
    )) {
        h.insert(header::CONTENT_DISPOSITION, v);
    }
    Ok(res)
}

type Chunk = Result<Bytes, std::io::Error>;

/// The response body: the chunks the producer sends. Dropped (the client went away,
/// or the export ended), it raises the producer's flag, which stops its search and
/// its reading.
struct ExportBody {
    chunks: tokio_stream::wrappers::ReceiverStream<Chunk>,
    stop: Stop,
}

impl tokio_stream::Stream for ExportBody {
    type Item = Chunk;

    fn poll_next(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Chunk>> {
        std::pin::Pin::new(&mut self.chunks).poll_next(cx)
    }
}

impl Drop for ExportBody {
    fn drop(&mut self) {
        self.stop.stop();
    }
}

/// Starts the export's producer on a blocking thread; it holds `turn` to its end.
fn start(
    s: &AppState,
    req: SearchRequest,
    format: cairn_export::Format,
    turn: OwnedSemaphorePermit,
) -> ExportBody {
    let (tx, rx) = mpsc::channel::<Chunk>(QUEUED_CHUNKS);
    let stop = Stop::new();
    let body = ExportBody {
        chunks: tokio_stream::wrappers::ReceiverStream::new(rx),
        stop: stop.clone(),
    };
    let (a, g) = (s.archive.clone(), s.gazetteer.clone());
    let (rt, stall) = (tokio::runtime::Handle::current(), s.stall);
    let out = ChannelWriter {
        tx: tx.clone(),
        buf: Vec::with_capacity(CHUNK_BYTES),
        rt: rt.clone(),
        heavy: s.heavy.clone(),
        permit: None,
        stall,
    };
    tokio::task::spawn_blocking(move || {
        let _turn = turn;
        let result = (|| -> Result<(), cairn_export::Error> {
            let mut out = out;
            out.take_permit()
                .map_err(|source| cairn_export::Error::Io {
                    path: "response".into(),
                    source,
                })?;
            let mut e = cairn_export::Exporter::new(format, out, &g, "response")?;
            a.export_until(&req, &stop, |c| e.write(c).map(|_| ()))?;
            e.finish()?;
            Ok(())
        })();
        if let Err(e) = result {
            if !stop.is_stopped() {
                tracing::warn!("export stopped: {e}");
                // The body ends with an error, so the client sees it cut short.
                let err = Err(std::io::Error::other(e.to_string()));
                let _ = rt.block_on(tx.send_timeout(err, stall));
            }
        }
    });
    body
}

/// A `Write` that sends chunks down a bounded channel (the response body), holding a
/// heavy-work permit while it works and giving it back while a slow client reads.
struct ChannelWriter {
    tx: mpsc::Sender<Chunk>,
    buf: Vec<u8>,
    rt: tokio::runtime::Handle,
    heavy: std::sync::Arc<Semaphore>,
    permit: Option<OwnedSemaphorePermit>,
    /// The longest the client may leave a chunk unread before the export stops.
    stall: Duration,
}

impl ChannelWriter {
    fn take_permit(&mut self) -> std::io::Result<()> {
        let wait = tokio::time::timeout(self.stall, self.heavy.clone().acquire_owned());
        match self.rt.block_on(wait) {
            Ok(Ok(p)) => {
                self.permit = Some(p);
                Ok(())
            }
            _ => Err(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                "no turn for heavy work",
            )),
        }
    }
}

fn gone() -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::BrokenPipe, "client went away")
}

impl std::io::Write for ChannelWriter {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        self.buf.extend_from_slice(data);
        if self.buf.len() >= CHUNK_BYTES {
            self.flush()?;
        }
        Ok(data.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if self.buf.is_empty() {
            return Ok(());
        }
        let chunk = Ok(Bytes::from(std::mem::replace(
            &mut self.buf,
            Vec::with_capacity(CHUNK_BYTES),
        )));
        let chunk = match self.tx.try_send(chunk) {
            Ok(()) => return Ok(()),
            Err(mpsc::error::TrySendError::Closed(_)) => return Err(gone()),
            Err(mpsc::error::TrySendError::Full(chunk)) => chunk,
        };
        // The client reads slower than the export is made: wait without the permit,
        // so that searches are not kept waiting behind a slow reader.
        self.permit = None;
        match self.rt.block_on(self.tx.send_timeout(chunk, self.stall)) {
            Ok(()) => {}
            Err(mpsc::error::SendTimeoutError::Closed(_)) => return Err(gone()),
            Err(mpsc::error::SendTimeoutError::Timeout(_)) => {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::TimedOut,
                    "the client stopped reading",
                ));
            }
        }
        self.take_permit()
    }
}
