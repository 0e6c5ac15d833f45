//! The accept loop: connections are capped, a request's head must arrive in time, and a
//! connection on which nothing moves is closed, so idle or slow clients cannot take the
//! server's connections, threads or memory from the users who are reading. At the cap a
//! new client is let in by closing the connection that has waited longest for a request
//! (`pool`); it waits only while every connection has a request at work.

use std::convert::Infallible;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::AtomicUsize;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::Body;
use hyper::body::{Frame, Incoming, SizeHint};
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{AcquireError, OwnedSemaphorePermit, Semaphore, watch};
use tower::ServiceExt;

use crate::host::{AllowedHosts, check_host};
use crate::pool::{AtWork, Membership, Pool};
use crate::watched::{Activity, Watched};
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
    let loopback = listener.local_addr()?.ip().is_loopback();
    // Off loopback a session cookie travels only over HTTPS (a proxy in front).
    let opts = &ServeOptions {
        secure_cookies: opts.secure_cookies || !loopback,
        ..opts.clone()
    };
    let mut app = router_with(archive, opts);
    if loopback {
        let allowed = AllowedHosts::new(&opts.allowed_hosts);
        app = app.layer(axum::middleware::from_fn_with_state(allowed, check_host));
    }
    let max = opts.max_connections.max(1);
    let slots = Arc::new(Semaphore::new(max));
    let pool = Arc::new(Pool::default());
    let (closing, closed) = watch::channel(false);
    let limits = Limits {
        header: opts.header_timeout,
        // A request at work sends nothing until it answers: never cut it off first.
        idle: opts.idle_timeout.max(opts.timeout + Duration::from_secs(1)),
    };
    tokio::pin!(shutdown);
    loop {
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
        // At the cap, the clients after this one wait in the listen queue.
        let slot = match slots.clone().try_acquire_owned() {
            Ok(s) => s,
            Err(_) => tokio::select! {
                s = make_room(&slots, &pool) => s.map_err(std::io::Error::other)?,
                () = &mut shutdown => break,
            },
        };
        let _ = stream.set_nodelay(true);
        let activity = Arc::new(Activity::new());
        let member = pool.join(activity.clone());
        let conn = Conn {
            slot,
            member,
            activity,
        };
        tokio::spawn(connection(
            stream,
            app.clone(),
            conn,
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

/// A slot for a client waiting at the cap: the connection that has waited longest for a
/// request is closed, and again while none has given its slot back, each time one is
/// idle; while every connection is at work, the client waits for one to end.
async fn make_room(
    slots: &Arc<Semaphore>,
    pool: &Pool,
) -> Result<OwnedSemaphorePermit, AcquireError> {
    loop {
        pool.close_oldest_idle();
        let wait = tokio::time::timeout(ROOM_RETRY, slots.clone().acquire_owned());
        if let Ok(slot) = wait.await {
            return slot;
        }
    }
}

/// How often a client waiting at the cap looks again for an idle connection to close.
const ROOM_RETRY: Duration = Duration::from_millis(100);

/// What a connection holds while it is open.
struct Conn {
    /// Its turn under the connection cap.
    slot: OwnedSemaphorePermit,
    member: Membership,
    activity: Arc<Activity>,
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
    held: Conn,
    limits: Limits,
    mut closing: watch::Receiver<bool>,
) {
    let Conn {
        slot: _slot,
        member,
        activity,
    } = held;
    let io = TokioIo::new(Watched::new(stream, activity.clone()));
    let at_work = member.at_work.clone();
    let service = hyper::service::service_fn(move |req| counted(app.clone(), at_work.clone(), req));
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header)
        .keep_alive(true);
    let conn = builder.serve_connection(io, service);
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
            () = member.close.notified() => {
                tracing::debug!("closing an idle connection to let a new client in");
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

/// Answers `req` with `app`, counting it at work on its connection until its answer's
/// body is dropped.
async fn counted(
    app: axum::Router,
    at_work: Arc<AtomicUsize>,
    req: hyper::Request<Incoming>,
) -> Result<axum::response::Response, Infallible> {
    let guard = AtWork::start(&at_work);
    let res = app.oneshot(req.map(Body::new)).await?;
    Ok(res.map(|inner| {
        Body::new(Counted {
            inner,
            _guard: guard,
        })
    }))
}

/// An answer's body that keeps its request counted at work while it is sent.
struct Counted {
    inner: Body,
    _guard: AtWork,
}

impl hyper::body::Body for Counted {
    type Data = axum::body::Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        Pin::new(&mut self.inner).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}
