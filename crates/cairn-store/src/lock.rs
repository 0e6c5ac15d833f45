//! The archive's writer lock: one writer at a time, held only while it writes, so that
//! other writers can wait their turn instead of failing.
//!
//! It is an advisory lock (`flock`) on `DIR/writer.lock`, released by the system when
//! the holder exits or is killed; readers never take it and need no write access.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use fs4::fs_std::FileExt;

use crate::{Error, Result};

/// The lock file inside a data directory.
pub(crate) fn lock_path(dir: &Path) -> PathBuf {
    dir.join("writer.lock")
}

/// The writer lock, held until dropped.
#[derive(Debug)]
pub(crate) struct WriterLock {
    _file: File,
}

/// How long a waiting writer sleeps between tries: short at first (a server's write is
/// brief), longer later (a command-line ingest may hold the lock for minutes).
fn pause(waited: Duration) -> Duration {
    if waited < Duration::from_secs(1) {
        Duration::from_millis(20)
    } else {
        Duration::from_millis(200)
    }
}

impl WriterLock {
    /// Takes the lock of the archive in `dir`, waiting up to `wait` for another writer
    /// to let go of it; [`Error::Busy`] when it does not in that time.
    pub fn acquire(dir: &Path, wait: Duration) -> Result<Self> {
        let path = lock_path(dir);
        let io = |source| Error::Io {
            path: path.clone(),
            source,
        };
        // Created with the process's umask, like every other file of the archive.
        let file = File::options()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(io)?;
        let started = Instant::now();
        loop {
            if file.try_lock_exclusive().map_err(io)? {
                return Ok(WriterLock { _file: file });
            }
            let waited = started.elapsed();
            if waited >= wait {
                return Err(Error::Busy(dir.to_path_buf()));
            }
            std::thread::sleep(pause(waited).min(wait - waited));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_writer_waits_its_turn_or_is_told_busy() {
        let dir = tempfile::tempdir().unwrap();
        let held = WriterLock::acquire(dir.path(), Duration::ZERO).unwrap();
        let t = Instant::now();
        let busy = WriterLock::acquire(dir.path(), Duration::from_millis(300)).unwrap_err();
        assert!(matches!(busy, Error::Busy(_)), "{busy}");
        assert!(t.elapsed() >= Duration::from_millis(300));
        let waiter = {
            let dir = dir.path().to_path_buf();
            std::thread::spawn(move || WriterLock::acquire(&dir, Duration::from_secs(20)))
        };
        std::thread::sleep(Duration::from_millis(200));
        drop(held);
        assert!(waiter.join().unwrap().is_ok());
    }
}
