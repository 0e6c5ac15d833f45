//! What one source may hold in memory while it is read: its bytes, and a JSON Lines
//! record's line, each bounded, and read so that an input over a bound is never held
//! whole (a decompression bomb, a line of hundreds of megabytes); and the time one
//! source may take to render ([`Deadline`]), so that a page whose shape costs a parser
//! more than its bounds foresaw is rejected instead of stalling the ingest.

use std::io::{BufRead, Read};
use std::time::{Duration, Instant};

use crate::{Error, Result};

/// The largest source read whole (bigger files, and compressed data that decompresses
/// to more, are refused with a clear error).
pub const MAX_SOURCE_BYTES: u64 = 128 * 1024 * 1024;

/// The longest line of a JSON Lines file taken as a record (one caption with its
/// fields); a longer one is skipped with an error, without being held in memory.
pub const MAX_LINE_BYTES: u64 = 16 * 1024 * 1024;

/// The time one source may take to render at ingest unless asked otherwise: far more
/// than any page the readers' bounds admit takes.
pub const SOURCE_TIME: Duration = Duration::from_secs(30);

/// When the rendering of one source must end, and the time it was given (for the
/// message that rejects it).
#[derive(Debug, Clone, Copy)]
pub struct Deadline {
    at: Instant,
    given: Duration,
}

impl Deadline {
    /// A deadline `given` from now.
    pub fn after(given: Duration) -> Self {
        Deadline {
            at: Instant::now() + given,
            given,
        }
    }

    /// Whether the time is up.
    pub fn passed(&self) -> bool {
        Instant::now() >= self.at
    }

    /// What a source that passed it is told.
    pub fn message(&self) -> String {
        format!(
            "reading it took longer than the {:?} given to one source; not read",
            self.given
        )
    }
}

/// Bytes read at a time when the size is not known: an input over the limit is held as
/// pieces, never copied into one buffer twice its size.
const PIECE: usize = 8 * 1024 * 1024;

/// Reads all of `r` up to `limit` bytes; over it is an error naming `name`.
pub(crate) fn read_limited(r: impl Read, name: &str, limit: u64) -> Result<Vec<u8>> {
    let mut r = r.take(limit + 1);
    let bad = |e: std::io::Error| Error::Bad {
        path: name.into(),
        message: format!("cannot read: {e}"),
    };
    let mut pieces: Vec<Vec<u8>> = Vec::new();
    let mut total = 0u64;
    loop {
        let mut piece = Vec::with_capacity(PIECE.min((limit + 1 - total) as usize).max(1));
        let n = (&mut r)
            .take(PIECE as u64)
            .read_to_end(&mut piece)
            .map_err(bad)?;
        total += n as u64;
        if n == 0 {
            break;
        }
        pieces.push(piece);
        if total > limit {
            return Err(Error::TooLarge {
                path: name.into(),
                size: total,
                limit,
            });
        }
    }
    if pieces.len() == 1 {
        return Ok(pieces.pop().unwrap_or_default());
    }
    let mut bytes = Vec::with_capacity(total as usize);
    for p in pieces {
        bytes.extend_from_slice(&p);
    }
    Ok(bytes)
}

/// A line as [`Lines`] reads it.
pub(crate) enum Line {
    /// The line, without its newline.
    Whole(Vec<u8>),
    /// A line over the bound, of this many bytes, skipped.
    TooLong(u64),
}

/// The lines of a reader, each at most `limit` bytes held.
pub(crate) struct Lines<R> {
    r: R,
    limit: u64,
}

impl<R: BufRead> Lines<R> {
    pub(crate) fn new(r: R, limit: u64) -> Self {
        Lines { r, limit }
    }

    /// The next line, or `None` at the end.
    pub(crate) fn next_line(&mut self) -> std::io::Result<Option<Line>> {
        let mut line = Vec::new();
        let mut size = 0u64;
        let mut over = false;
        loop {
            let buf = self.r.fill_buf()?;
            if buf.is_empty() {
                if size == 0 {
                    return Ok(None);
                }
                break;
            }
            let (take, end) = match buf.iter().position(|&b| b == b'\n') {
                Some(i) => (i, true),
                None => (buf.len(), false),
            };
            size += take as u64;
            if size > self.limit {
                over = true;
                line = Vec::new();
            } else {
                line.extend_from_slice(&buf[..take]);
            }
            self.r.consume(take + usize::from(end));
            if end {
                break;
            }
        }
        Ok(Some(if over {
            Line::TooLong(size)
        } else {
            Line::Whole(line)
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_over_the_bound_are_skipped_whole_and_the_next_ones_read() {
        let mut input = b"{\"a\":1}\r\n".to_vec();
        input.extend(std::iter::repeat_n(b'x', 100));
        input.extend_from_slice(b"\n\n{\"b\":2}");
        let mut lines = Lines::new(&input[..], 50);
        let mut got = Vec::new();
        while let Some(l) = lines.next_line().unwrap() {
            got.push(match l {
                Line::Whole(l) => String::from_utf8(l).unwrap(),
                Line::TooLong(n) => format!("too long: {n}"),
            });
        }
        assert_eq!(got, ["{\"a\":1}\r", "too long: 100", "", "{\"b\":2}"]);
    }

    #[test]
    fn reading_stops_past_the_limit() {
        let data = vec![b'a'; 3 * PIECE + 5];
        assert_eq!(
            read_limited(&data[..], "x", data.len() as u64).unwrap(),
            data
        );
        let e = read_limited(&data[..], "x", 2 * PIECE as u64).unwrap_err();
        assert!(e.to_string().contains("over the limit"), "{e}");
    }
}
