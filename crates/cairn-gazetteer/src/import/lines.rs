//! Lines of a dump read with a bound on each: a table whose "line" is gigabytes long
//! (a zip of one row without its end, repeated) must not be held whole to be refused.

use std::io::{self, BufRead};

/// One line read into a buffer.
pub(super) enum Line {
    /// The input has no more lines.
    End,
    /// A line (its end left out) that fit the bound.
    Whole,
    /// A line longer than the bound: the buffer holds its start, the rest was passed over.
    Cut,
}

/// Reads the next line into `buf` (cleared first), keeping at most `max` bytes of it.
pub(super) fn read_line(r: &mut impl BufRead, buf: &mut Vec<u8>, max: usize) -> io::Result<Line> {
    buf.clear();
    let (mut read, mut cut) = (false, false);
    loop {
        let chunk = r.fill_buf()?;
        if chunk.is_empty() {
            break;
        }
        read = true;
        let end = chunk.iter().position(|&b| b == b'\n');
        let take = end.unwrap_or(chunk.len());
        let room = max.saturating_sub(buf.len());
        buf.extend_from_slice(&chunk[..take.min(room)]);
        cut |= take > room;
        r.consume(end.map_or(take, |e| e + 1));
        if end.is_some() {
            break;
        }
    }
    if buf.last() == Some(&b'\r') {
        buf.pop();
    }
    Ok(match (read, cut) {
        (false, _) => Line::End,
        (true, false) => Line::Whole,
        (true, true) => Line::Cut,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_are_cut_and_the_next_is_read_whole() {
        let text = format!("a\r\n{}\nlast", "x".repeat(10_000));
        let mut r = io::BufReader::with_capacity(64, text.as_bytes());
        let mut buf = Vec::new();
        assert!(matches!(
            read_line(&mut r, &mut buf, 100).unwrap(),
            Line::Whole
        ));
        assert_eq!(buf, b"a");
        assert!(matches!(
            read_line(&mut r, &mut buf, 100).unwrap(),
            Line::Cut
        ));
        assert_eq!(buf.len(), 100);
        assert!(matches!(
            read_line(&mut r, &mut buf, 100).unwrap(),
            Line::Whole
        ));
        assert_eq!(buf, b"last");
        assert!(matches!(
            read_line(&mut r, &mut buf, 100).unwrap(),
            Line::End
        ));
    }
}
