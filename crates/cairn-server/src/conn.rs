//! The accept loop: connections are capped, a request's head must arrive in time, and a
//! connection on which nothing moves is closed, so idle or slow clients cannot take the
//! server's connections, threads or memory from the users who are reading.

use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;

use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, watch};
use tokio::time::Instant;

use crate::{ServeOptions, router_with};

/// Serves the router on `listener` until the process is interrupted.
pub async fn serve(
    listener: TcpListener,
    archive: Arc<cairn_store::Archive>,
    opts: &ServeOptions,
) -> std::io::Result<()> {
    let interrupted = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    serve_until(listener, archive, opts, interrupted).await
}

/// Serves the router on `listener` until `shutdown` completes, then lets the requests
/// under way finish (within the request time limit).
pub async fn serve_until(
    listener: TcpListener,
    archive: Arc<cairn_store::Archive>,
    opts: &ServeOptions,
    shutdown: impl std::future::Future<Output = ()>,
) -> std::io::Result<()> {
    let app = router_with(archive, opts);
    let max = opts.max_connections.max(1);
    let slots = Arc::new(Semaphore::new(max));
    let (closing, closed) = watch::channel(false);
    let limits = Limits {
        header: opts.header_timeout,
        // A request at work sends nothing until it answers: never cut it off first.
        idle: opts.idle_timeout.max(opts.timeout + Duration::from_secs(1)),
    };
    tokio::pin!(shutdown);
    loop {
        // At the cap, new connections wait in the listen queue until one closes.
        let slot = tokio::select! {
            s = slots.clone().acquire_owned() => s.map_err(std::io::Error::other)?,
            () = &mut shutdown => break,
        };
        let stream = tokio::select! {
            r = listener.accept() => match r {
                Ok((stream, _)) => stream,
                Err(e) => {
                    // Out of file descriptors and the like: wait, do not spin.
                    tracing::warn!("cannot accept a connection: {e}");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let _ = stream.set_nodelay(true);
        tokio::spawn(connection(
            stream,
            app.clone(),
            slot,
            limits,
            closed.clone(),
        ));
    }
    let _ = closing.send(true);
    // Every slot back means every connection has ended.
    let all = u32::try_from(max).unwrap_or(u32::MAX);
    let _ = tokio::time::timeout(opts.timeout, slots.acquire_many(all)).await;
    Ok(())
}

#[derive(Debug, Clone, Copy)]
struct Limits {
    header: Duration,
    idle: Duration,
}

/// Serves one connection (HTTP/1.1, kept alive) until it ends, its client has left
/// nothing moving for the idle limit, or the server shuts down.
async fn connection(
    stream: TcpStream,
    app: axum::Router,
    _slot: OwnedSemaphorePermit,
    limits: Limits,
    mut closing: watch::Receiver<bool>,
) {
    let activity = Arc::new(Activity::new());
    let io = TokioIo::new(Watched {
        inner: stream,
        activity: activity.clone(),
    });
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header)
        .keep_alive(true);
    let conn = builder.serve_connection(io, TowerToHyperService::new(app));
    tokio::pin!(conn);
    let mut shutting = false;
    loop {
        tokio::select! {
            r = conn.as_mut() => {
                if let Err(e) = r {
                    tracing::debug!("connection ended: {e}");
                }
                return;
            }
            () = activity.idle_for(limits.idle) => {
                tracing::debug!("closing a connection idle for {:?}", limits.idle);
                return;
            }
            r = closing.changed(), if !shutting => {
                shutting = true;
                if r.is_ok() {
                    conn.as_mut().graceful_shutdown();
                }
            }
        }
    }
}

/// When a byte last moved on a connection.
struct Activity {
    start: Instant,
    /// Milliseconds from `start` to the last read or write that moved a byte.
    last: AtomicU64,
}

impl Activity {
    fn new() -> Self {
        Activity {
            start: Instant::now(),
            last: AtomicU64::new(0),
        }
    }

    fn touch(&self) {
        let ms = self.start.elapsed().as_millis();
        self.last
            .store(u64::try_from(ms).unwrap_or(u64::MAX), Ordering::Relaxed);
    }

    /// Completes once nothing has moved for `limit`.
    async fn idle_for(&self, limit: Duration) {
        loop {
            let last = self.start + Duration::from_millis(self.last.load(Ordering::Relaxed));
            let until = last + limit;
            if Instant::now() >= until {
                return;
            }
            tokio::time::sleep_until(until).await;
        }
    }
}

/// A stream that notes in its [`Activity`] every read and write that moves a byte.
struct Watched {
    inner: TcpStream,
    activity: Arc<Activity>,
}

impl AsyncRead for Watched {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let r = Pin::new(&mut self.inner).poll_read(cx, buf);
        if matches!(r, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            self.activity.touch();
        }
        r
    }
}

impl AsyncWrite for Watched {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        let r = Pin::new(&mut self.inner).poll_write(cx, data);
        if matches!(r, Poll::Ready(Ok(n)) if n > 0) {
            self.activity.touch();
        }
        r
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        let r = Pin::new(&mut self.inner).poll_write_vectored(cx, bufs);
        if matches!(r, Poll::Ready(Ok(n)) if n > 0) {
            self.activity.touch();
        }
        r
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}
