//! Reads one member of a zip file as a stream, from its local headers, the way GeoNames'
//! dumps are read: front to back, never the whole member in memory. Handles what zip
//! tools write for such files (stored or deflated members, sizes after the data, zip64
//! sizes); encrypted or otherwise compressed members are refused.

use std::io::{self, BufRead, Read};

use flate2::bufread::DeflateDecoder;

const LOCAL: u32 = 0x0403_4b50;
const CENTRAL: u32 = 0x0201_4b50;
const DESCRIPTOR: u32 = 0x0807_4b50;

fn u16le(b: &[u8]) -> u16 {
    u16::from_le_bytes([b[0], b[1]])
}
fn u32le(b: &[u8]) -> u32 {
    u32::from_le_bytes([b[0], b[1], b[2], b[3]])
}

/// One local header: the member's name, flags, method and compressed size.
struct Header {
    name: String,
    flags: u16,
    method: u16,
    size: u64,
}

/// The header at the reader's position, or `None` at the central directory.
fn header(r: &mut impl BufRead) -> io::Result<Option<Header>> {
    let mut fixed = [0u8; 30];
    r.read_exact(&mut fixed)?;
    match u32le(&fixed) {
        LOCAL => {}
        CENTRAL => return Ok(None),
        _ => return Err(invalid("not a zip file or a damaged one (no local header)")),
    }
    let (flags, method) = (u16le(&fixed[6..]), u16le(&fixed[8..]));
    let mut size = u64::from(u32le(&fixed[18..]));
    let (name_len, extra_len) = (u16le(&fixed[26..]) as usize, u16le(&fixed[28..]) as usize);
    let mut name = vec![0u8; name_len];
    r.read_exact(&mut name)?;
    let mut extra = vec![0u8; extra_len];
    r.read_exact(&mut extra)?;
    if size == u64::from(u32::MAX) {
        size = zip64_size(&extra).ok_or_else(|| invalid("zip64 member without its sizes"))?;
    }
    let name = String::from_utf8_lossy(&name).into_owned();
    Ok(Some(Header {
        name,
        flags,
        method,
        size,
    }))
}

/// The compressed size from a zip64 extra field (id 1: uncompressed, then compressed).
fn zip64_size(extra: &[u8]) -> Option<u64> {
    let mut at = 0;
    while at + 4 <= extra.len() {
        let (id, len) = (u16le(&extra[at..]), u16le(&extra[at + 2..]) as usize);
        let body = extra.get(at + 4..at + 4 + len)?;
        if id == 1 && body.len() >= 16 {
            return Some(u64::from_le_bytes(body[8..16].try_into().ok()?));
        }
        at += 4 + len;
    }
    None
}

fn invalid(what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, what.to_string())
}

/// The first member whose name `wanted` accepts, as a stream of its bytes; `Ok(None)`
/// when the zip has none.
pub fn member<'a, R: BufRead + 'a>(
    mut r: R,
    wanted: impl Fn(&str) -> bool,
) -> io::Result<Option<(String, Box<dyn Read + 'a>)>> {
    while let Some(h) = header(&mut r)? {
        if h.flags & 1 != 0 {
            return Err(invalid("encrypted zip member"));
        }
        let after_data = h.flags & 8 != 0;
        let take = wanted(&h.name);
        match (h.method, take) {
            (0, true) if !after_data => return Ok(Some((h.name, Box::new(r.take(h.size))))),
            (8, true) => return Ok(Some((h.name, Box::new(DeflateDecoder::new(r))))),
            (0, false) if !after_data => {
                io::copy(&mut (&mut r).take(h.size), &mut io::sink())?;
            }
            (8, false) => {
                io::copy(&mut DeflateDecoder::new(&mut r), &mut io::sink())?;
                if after_data {
                    skip_descriptor(&mut r)?;
                }
            }
            _ => return Err(invalid("zip member compressed in a way not supported")),
        }
    }
    Ok(None)
}

/// Skips the sizes written after a member's data (signature optional; zip64 not needed
/// for the members skipped, which are readmes).
fn skip_descriptor(r: &mut impl BufRead) -> io::Result<()> {
    let mut first = [0u8; 4];
    r.read_exact(&mut first)?;
    let rest = if u32le(&first) == DESCRIPTOR { 12 } else { 8 };
    io::copy(&mut r.take(rest), &mut io::sink())?;
    Ok(())
}
