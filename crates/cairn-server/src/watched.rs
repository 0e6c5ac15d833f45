//! A connection's stream as the accept loop watches it: when a byte last moved, and the
//! answers hyper writes by itself to a request it cannot parse (a request line or head
//! over its bounds), given the server's JSON error shape in place of an empty body.

use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::time::Instant;

use crate::ApiError;

/// When a byte last moved on a connection.
pub(crate) struct Activity {
    start: Instant,
    /// Milliseconds from `start` to the last read or write that moved a byte.
    last: AtomicU64,
}

impl Activity {
    pub(crate) fn new() -> Self {
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

    /// When a byte last moved (the connection's start when none has).
    pub(crate) fn last(&self) -> Instant {
        self.start + Duration::from_millis(self.last.load(Ordering::Relaxed))
    }

    /// Completes once nothing has moved for `limit`.
    pub(crate) async fn idle_for(&self, limit: Duration) {
        loop {
            let until = self.last() + limit;
            if Instant::now() >= until {
                return;
            }
            tokio::time::sleep_until(until).await;
        }
    }
}

/// A stream that notes in its [`Activity`] every read and write that moves a byte, and
/// answers in the JSON error shape where hyper would answer a bad request with an
/// empty body.
pub(crate) struct Watched {
    inner: TcpStream,
    activity: std::sync::Arc<Activity>,
    /// The answer written in place of hyper's own, and how much of it is written.
    pending: Option<(Vec<u8>, usize)>,
}

impl Watched {
    pub(crate) fn new(inner: TcpStream, activity: std::sync::Arc<Activity>) -> Self {
        Watched {
            inner,
            activity,
            pending: None,
        }
    }
}

/// The error of a response head hyper writes by itself: one for a status of a request
/// it could not parse, with no body. The server's own errors always have one.
fn automatic(data: &[u8]) -> Option<ApiError> {
    let end = data.windows(4).position(|w| w == b"\r\n\r\n")? + 4;
    if end != data.len() {
        return None;
    }
    let head = std::str::from_utf8(data).ok()?.to_ascii_lowercase();
    if !head.contains("\r\ncontent-length: 0\r\n") {
        return None;
    }
    let status = head.strip_prefix("http/1.1 ")?.get(..3)?;
    Some(match status.parse::<u16>().ok()? {
        400 => ApiError::BadRequest("the request could not be read as HTTP/1.1".into()),
        414 => ApiError::UriTooLong("the request line is longer than the server reads".into()),
        431 => {
            ApiError::HeadersTooLarge("the request's head is larger than the server reads".into())
        }
        _ => return None,
    })
}

/// A whole response of `e` in the JSON error shape, closing the connection (hyper
/// closes it after such an answer).
fn answer(e: &ApiError) -> Vec<u8> {
    let (status, body) = e.json();
    let body = body.to_string();
    let reason = status.canonical_reason().unwrap_or("");
    format!(
        "HTTP/1.1 {} {reason}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nx-content-type-options: nosniff\r\nconnection: close\r\n\r\n{body}",
        status.as_u16(),
        body.len()
    )
    .into_bytes()
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
        if self.pending.is_none()
            && data.starts_with(b"HTTP/1.1 4")
            && let Some(e) = automatic(data)
        {
            self.pending = Some((answer(&e), 0));
        }
        if self.pending.is_some() {
            return self.poll_pending(cx, data.len());
        }
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
        // An automatic answer is a head alone, in one buffer.
        if let [one] = bufs
            && (self.pending.is_some() || one.starts_with(b"HTTP/1.1 4"))
        {
            return self.poll_write(cx, one);
        }
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

impl Watched {
    /// Writes the answer that replaces hyper's, then reports hyper's `len` bytes written.
    fn poll_pending(&mut self, cx: &mut Context<'_>, len: usize) -> Poll<std::io::Result<usize>> {
        while let Some((buf, at)) = self.pending.as_mut()
            && *at < buf.len()
        {
            match Pin::new(&mut self.inner).poll_write(cx, &buf[*at..]) {
                Poll::Ready(Ok(0)) => {
                    return Poll::Ready(Err(std::io::ErrorKind::WriteZero.into()));
                }
                Poll::Ready(Ok(n)) => {
                    *at += n;
                    self.activity.touch();
                }
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Pending => return Poll::Pending,
            }
        }
        self.pending = None;
        Poll::Ready(Ok(len))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_bodiless_heads_of_parse_errors_are_replaced() {
        let head = b"HTTP/1.1 414 URI Too Long\r\ncontent-length: 0\r\ndate: x\r\n\r\n";
        assert!(matches!(automatic(head), Some(ApiError::UriTooLong(_))));
        let big = b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\n\r\n";
        assert!(matches!(automatic(big), Some(ApiError::HeadersTooLarge(_))));
        // The server's own errors carry a body, or go on past the head.
        let own = b"HTTP/1.1 414 URI Too Long\r\ncontent-length: 71\r\n\r\n";
        assert!(automatic(own).is_none());
        let more = b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n{}";
        assert!(automatic(more).is_none());
        let other = b"HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n";
        assert!(automatic(other).is_none());
        let text = String::from_utf8(answer(&automatic(head).unwrap())).unwrap();
        let (h, body) = text.split_once("\r\n\r\n").unwrap();
        assert!(h.starts_with("HTTP/1.1 414 URI Too Long\r\n"), "{h}");
        assert!(
            h.contains(&format!("content-length: {}", body.len())),
            "{h}"
        );
        let v: serde_json::Value = serde_json::from_str(body).unwrap();
        assert_eq!(v["error"]["code"], "uri_too_long");
    }
}
