//! The WARC files of one run read so far and where their records are, so that a revisit
//! whose earlier record is in another file of the same crawl (crawlers start a new file
//! every gigabyte or so) is read from there.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

use super::index::Index;

/// Keys kept for a whole run, at sixteen bytes each: the index stays under 64 MiB. Past
/// it, later files' records are not found by other files' revisits.
const MAX_KEYS: usize = 4 << 20;

/// An entry keeps the offset in its low bits and the file's number above them.
const OFFSET_BITS: u32 = 48;

/// Files of a run and the keys of their records; clones share it.
#[derive(Clone, Default)]
pub struct Crawl(Arc<Mutex<Files>>);

#[derive(Default)]
struct Files {
    /// Each file's path and whether it is gzip per record, by number.
    files: Vec<(PathBuf, bool)>,
    index: Index,
    keys: usize,
}

impl std::fmt::Debug for Crawl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Crawl({} files)", self.lock().files.len())
    }
}

/// Where a record of another file is.
pub(super) struct Elsewhere {
    pub path: PathBuf,
    pub gz: bool,
    pub offset: u64,
}

impl Crawl {
    fn lock(&self) -> MutexGuard<'_, Files> {
        // The index is only ever appended to: what a panicking reader left is usable.
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Notes a file about to be read; its number, or `None` when no more files can be
    /// told apart.
    pub(super) fn file(&self, path: &Path, gz: bool) -> Option<u16> {
        let mut f = self.lock();
        let n = u16::try_from(f.files.len()).ok()?;
        f.files.push((path.to_path_buf(), gz));
        Some(n)
    }

    /// Notes that file `file` holds a record with `key` at `offset`.
    pub(super) fn insert(&self, file: u16, key: &str, offset: u64) {
        if offset >> OFFSET_BITS != 0 {
            return;
        }
        let mut f = self.lock();
        if f.keys < MAX_KEYS {
            f.keys += 1;
            f.index.insert(key, u64::from(file) << OFFSET_BITS | offset);
        }
    }

    /// The first record with `key` in a file other than `not`.
    pub(super) fn find(&self, key: &str, not: u16) -> Option<Elsewhere> {
        let mut f = self.lock();
        let entry = f.index.get(key)?;
        let file = usize::try_from(entry >> OFFSET_BITS).ok()?;
        if file == usize::from(not) {
            return None;
        }
        let (path, gz) = f.files.get(file)?.clone();
        Some(Elsewhere {
            path,
            gz,
            offset: entry & ((1 << OFFSET_BITS) - 1),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_found_in_the_file_that_held_it_and_not_in_its_own() {
        let c = Crawl::default();
        let a = c.file(Path::new("a.warc"), false).unwrap();
        let b = c.file(Path::new("b.warc.gz"), true).unwrap();
        c.insert(a, "<urn:uuid:1>", 1234);
        c.insert(b, "sha1:XYZ", 99);
        let e = c.find("<urn:uuid:1>", b).unwrap();
        assert_eq!(
            (e.path.as_path(), e.gz, e.offset),
            (Path::new("a.warc"), false, 1234)
        );
        assert!(
            c.find("sha1:XYZ", b).is_none(),
            "its own file is read by its own index"
        );
        assert_eq!(c.find("sha1:XYZ", a).unwrap().offset, 99);
        assert!(c.find("absent", a).is_none());
    }
}
