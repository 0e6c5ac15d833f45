//! Web archives as crawlers write them: WARC files (ISO 28500) and the ARC files
//! before them, plain or gzip-compressed per record. Pages become sources: `response`
//! records with HTTP 200 HTML or text, `resource` records (the block is the page),
//! ARC records, and `revisit` records whose earlier payload is in the same file or in a
//! file read before it in the same run ([`Crawl`]). Every
//! other record is named with its offset: damaged ones one by one, ones that hold no
//! page (requests, images, redirects) for the caller to sum up. Reading goes on after a
//! damaged record at the next record.

mod crawl;
mod head;
mod http;
mod index;
mod record;
mod sources;

use std::io::{BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::Path;

use flate2::bufread::GzDecoder;

pub use crawl::Crawl;
use crawl::Elsewhere;
use head::{Flavour, is_arc_line, read_line_limited};
use index::Index;
use record::{Judged, Record, Revisit, next_record, revisit_not_a_page, shown};
pub(crate) use sources::{origin_warnings, read_sources};

/// Largest record payload read (bigger records are skipped with a warning).
pub const MAX_RECORD_BYTES: u64 = 64 * 1024 * 1024;

/// One page taken from a WARC or ARC file.
#[derive(Debug, Clone)]
pub struct WarcResponse {
    /// `WARC-Target-URI` (the URL of an ARC record).
    pub target_uri: String,
    /// `WARC-Date` (an ARC date is given in the same form).
    pub date: String,
    /// Offset of the record in the file (of its gzip member when compressed).
    pub offset: u64,
    /// `Content-Type` of the HTTP response (of the record, for a `resource`).
    pub content_type: String,
    /// The payload, with transfer and content encodings undone.
    pub body: Vec<u8>,
    /// The record type it came from: `response`, `resource`, `revisit`, or `ARC`.
    pub record_type: String,
    /// For a revisit, the offset of the record whose payload it repeats.
    pub revisit_of: Option<u64>,
    /// For a revisit of a record in another file, that file.
    pub revisit_in: Option<String>,
    /// What was wrong but did not stop the payload being read.
    pub warnings: Vec<String>,
}

/// Why a record gives no page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Skip {
    /// It cannot be read (damaged, cut short, over the size limit): its content is lost.
    Damaged,
    /// It holds no page (a request, the crawl's description, an image, a redirect); the
    /// reason is a short label such records can be counted by.
    NotAPage,
    /// A revisit whose earlier payload is neither in this file nor in one read before.
    Unresolved,
}

/// What reading a WARC gives, record by record.
#[derive(Debug)]
pub enum WarcItem {
    /// A page worth ingesting.
    Response(WarcResponse),
    /// A record that gives no page; reading goes on.
    Skipped {
        /// Where it started.
        offset: u64,
        /// Why.
        reason: String,
        /// Which kind of why.
        skip: Skip,
    },
}

/// Counts bytes read through it.
struct Counting<R: BufRead> {
    inner: R,
    pos: u64,
}

impl<R: BufRead> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.pos += n as u64;
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Counting<R> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        self.inner.fill_buf()
    }
    fn consume(&mut self, amt: usize) {
        self.pos += amt as u64;
        self.inner.consume(amt);
    }
}

impl<R: BufRead + Seek> Counting<R> {
    fn seek_to(&mut self, at: u64) -> bool {
        let ok = self.inner.seek(SeekFrom::Start(at)).is_ok();
        self.pos = at;
        ok
    }
}

/// The reader of one file: where it is, which format, and where the records a revisit
/// may name are.
struct Reader<R: Read + Seek> {
    r: Counting<BufReader<R>>,
    gz: bool,
    flavour: Flavour,
    /// Record ids and payload digests of responses and resources, to their offsets.
    index: Index,
    /// The run's other files, and this one's number among them.
    crawl: Option<(Crawl, u16)>,
}

impl<R: Read + Seek> Reader<R> {
    /// Reads the record at the current position (a gzip member's worth when `gz`).
    fn read_one(&mut self) -> Result<Option<Judged>, String> {
        let offset = self.r.pos;
        if !self.gz {
            return next_record(&mut self.r, offset, &mut self.flavour);
        }
        match self.r.fill_buf() {
            Ok([]) => return Ok(None),
            Ok(_) => {}
            Err(e) => return Err(format!("read error: {e}")),
        }
        let mut member = BufReader::new(GzDecoder::new(&mut self.r));
        let got = next_record(&mut member, offset, &mut self.flavour);
        // Drain the rest of the member (a record may end before it does).
        let drained = std::io::copy(
            &mut member.by_ref().take(MAX_RECORD_BYTES),
            &mut std::io::sink(),
        );
        match (got, drained) {
            (Ok(x), Ok(_)) => Ok(x),
            (Err(e), _) => Err(e),
            (Ok(_), Err(e)) => Err(format!("the gzip member is damaged: {e}")),
        }
    }

    /// Turns a record read at `offset` into what the caller is given, indexing it for
    /// later revisits and resolving a revisit against the records before it.
    fn finish(&mut self, judged: Judged, offset: u64) -> WarcItem {
        for k in &judged.keys {
            self.index.insert(k, offset);
            if let Some((crawl, file)) = &self.crawl {
                crawl.insert(*file, k, offset);
            }
        }
        let skipped = |reason, skip| WarcItem::Skipped {
            offset,
            reason,
            skip,
        };
        match judged.record {
            Record::Page(p) => WarcItem::Response(p),
            Record::Skip(reason, skip) => skipped(reason, skip),
            Record::Revisit(v) => match self.resolve(&v) {
                Ok((mut p, elsewhere)) => {
                    p.revisit_of = Some(p.offset);
                    p.revisit_in = elsewhere.map(|e| crate::quoted_path(&e.path));
                    p.offset = offset;
                    p.target_uri = v.uri;
                    p.date = v.date;
                    p.record_type = "revisit".into();
                    // Warnings about the earlier record were given with it.
                    p.warnings.clear();
                    WarcItem::Response(p)
                }
                Err((reason, skip)) => skipped(reason, skip),
            },
        }
    }

    /// The page an earlier record holds for a revisit (with the other file it is in, if
    /// it is not in this one), or why there is none.
    fn resolve(
        &mut self,
        v: &Revisit,
    ) -> Result<(WarcResponse, Option<Elsewhere>), (String, Skip)> {
        let found = v.keys.iter().find_map(|k| Some((k, self.index.get(k)?)));
        let Some((key, at)) = found else {
            if let Some(got) = self.resolve_elsewhere(v) {
                return got;
            }
            if let Some(label) = revisit_not_a_page(v) {
                return Err((label, Skip::NotAPage));
            }
            let named = if v.keys.is_empty() {
                "it names no earlier record or payload digest".to_string()
            } else {
                format!(
                    "{} is not in this file nor in one read before it",
                    shown(&v.keys.join(", "), 512)
                )
            };
            return Err((
                format!(
                    "{}: a revisit whose earlier payload is not here ({named}); nothing to read",
                    shown(&v.uri, 2048)
                ),
                Skip::Unresolved,
            ));
        };
        let here = self.r.pos;
        let earlier = if self.r.seek_to(at) {
            self.read_one()
        } else {
            Err("cannot seek".into())
        };
        if !self.r.seek_to(here) {
            return Err((
                "cannot go back after reading the record it revisits".into(),
                Skip::Damaged,
            ));
        }
        earlier_page(earlier, key, &v.uri, &format!("at offset {at}")).map(|p| (p, None))
    }

    /// The page a record of a file read before this one holds for a revisit, or why
    /// there is none; `None` when no such file holds a record it names.
    #[allow(clippy::type_complexity)]
    fn resolve_elsewhere(
        &self,
        v: &Revisit,
    ) -> Option<Result<(WarcResponse, Option<Elsewhere>), (String, Skip)>> {
        let (crawl, me) = self.crawl.as_ref()?;
        let (key, e) = v.keys.iter().find_map(|k| Some((k, crawl.find(k, *me)?)))?;
        let place = format!("at offset {} of {}", e.offset, crate::quoted_path(&e.path));
        let earlier = match std::fs::File::open(&e.path) {
            Ok(f) => {
                let mut other = Reader {
                    r: Counting {
                        inner: BufReader::new(f),
                        pos: 0,
                    },
                    gz: e.gz,
                    flavour: Flavour::Unknown,
                    index: Index::default(),
                    crawl: None,
                };
                if other.r.seek_to(e.offset) {
                    other.read_one()
                } else {
                    Err("cannot seek".into())
                }
            }
            Err(err) => Err(format!("cannot be opened again: {err}")),
        };
        Some(earlier_page(earlier, key, &v.uri, &place).map(|p| (p, Some(e))))
    }
}

/// The page of the record a revisit names, read at `place`, or why it gives none.
fn earlier_page(
    earlier: Result<Option<Judged>, String>,
    key: &str,
    uri: &str,
    place: &str,
) -> Result<WarcResponse, (String, Skip)> {
    let unresolved = |why: String| {
        Err((
            format!(
                "{}: the record it revisits, {place}, {why}",
                shown(uri, 2048)
            ),
            Skip::Unresolved,
        ))
    };
    match earlier {
        Ok(Some(j)) if j.keys.iter().any(|k| k == key) => match j.record {
            Record::Page(p) => Ok(p),
            Record::Skip(label, Skip::NotAPage) => {
                Err((format!("revisit of a {label}"), Skip::NotAPage))
            }
            Record::Skip(why, _) => unresolved(format!("cannot be read ({why})")),
            Record::Revisit(_) => unresolved("is a revisit itself".into()),
        },
        Ok(_) => unresolved("is not the one it names".into()),
        Err(why) => unresolved(format!("cannot be read ({why})")),
    }
}

/// Reads a WARC or ARC stream (which one, from its first record), calling `emit` for
/// each page and each skipped record, in order, until the end or until `emit` returns
/// false. A gzip-per-record file is read member by member, so a damaged member costs
/// only its record.
pub fn read_warc<R: Read + Seek>(input: R, gz: bool, emit: &mut dyn FnMut(WarcItem) -> bool) {
    read_warc_in(input, gz, None, emit);
}

/// [`read_warc`] of the file at a path, one of a run's `crawl`: its records are noted
/// there, and its revisits resolved against the files read before it.
pub(crate) fn read_warc_in<R: Read + Seek>(
    input: R,
    gz: bool,
    crawl: Option<(&Crawl, &Path)>,
    emit: &mut dyn FnMut(WarcItem) -> bool,
) {
    let mut rd = Reader {
        r: Counting {
            inner: BufReader::with_capacity(256 * 1024, input),
            pos: 0,
        },
        gz,
        flavour: Flavour::Unknown,
        index: Index::default(),
        crawl: crawl.and_then(|(c, path)| Some((c.clone(), c.file(path, gz)?))),
    };
    loop {
        if !gz {
            skip_line_breaks(&mut rd.r);
        }
        let offset = rd.r.pos;
        match rd.read_one() {
            Ok(None) => return,
            Ok(Some(judged)) => {
                let item = rd.finish(judged, offset);
                if !emit(item) {
                    return;
                }
            }
            Err(reason) => {
                if !emit(WarcItem::Skipped {
                    offset,
                    reason,
                    skip: Skip::Damaged,
                }) {
                    return;
                }
                // Go back to just after the damaged record's start and look for the
                // next one from there (what was read of it may hold the next start).
                if !rd.r.seek_to(offset + 1) || !resync(&mut rd.r, gz, rd.flavour) {
                    return;
                }
            }
        }
    }
}

/// The line breaks that end a record belong to it.
fn skip_line_breaks<R: BufRead>(r: &mut Counting<R>) {
    loop {
        let n = match r.fill_buf() {
            Ok(b) => b.iter().take_while(|&&c| c == b'\r' || c == b'\n').count(),
            Err(_) => 0,
        };
        if n == 0 {
            break;
        }
        r.consume(n);
    }
}

/// After a damaged record: moves to the next gzip member magic (gz), the next line
/// starting with `WARC/` (plain WARC) or the next ARC header line (plain ARC). False at
/// the end of input.
fn resync<R: BufRead + Seek>(r: &mut Counting<R>, gz: bool, flavour: Flavour) -> bool {
    if !gz && flavour == Flavour::Arc {
        return resync_arc(r);
    }
    loop {
        let buf = match r.fill_buf() {
            Ok([]) | Err(_) => return false,
            Ok(b) => b,
        };
        let needle: &[u8] = if gz { &[0x1f, 0x8b, 0x08] } else { b"\nWARC/" };
        if let Some(i) = buf.windows(needle.len()).position(|w| w == needle) {
            let skip = if gz { i } else { i + 1 };
            r.consume(skip);
            return true;
        }
        let keep = needle.len() - 1;
        let n = buf.len().saturating_sub(keep).max(1);
        r.consume(n);
    }
}

/// ARC records have no mark of their own: the next record starts at the next line that
/// reads as an ARC header (the rest of the current line is never one).
fn resync_arc<R: BufRead + Seek>(r: &mut Counting<R>) -> bool {
    let mut first = true;
    loop {
        let start = r.pos;
        let line = match read_line_limited(r, 16 * 1024) {
            Ok(Some(l)) => l,
            _ => return false,
        };
        if !first && line.ends_with(b"\n") && is_arc_line(&line) {
            return r.seek_to(start);
        }
        first = false;
    }
}

#[cfg(test)]
mod tests;
