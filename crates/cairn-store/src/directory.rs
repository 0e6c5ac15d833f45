//! The search index's directory: tantivy's memory-mapped directory, changed in two
//! ways so that an archive can be shared. Files written whole (`meta.json`) follow the
//! process's umask like every other file (tantivy writes them through a temporary file
//! made private, mode 0600, which other users then cannot read), and a reader of an
//! index it cannot write (a read-only mount, another user's archive) opens it without
//! the lock file tantivy takes while it opens segments.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use tantivy::directory::error::{
    DeleteError, LockError, OpenDirectoryError, OpenReadError, OpenWriteError,
};
use tantivy::directory::{
    Directory, DirectoryLock, FileHandle, Lock, MmapDirectory, WatchCallback, WatchHandle, WritePtr,
};

/// An index directory on disk ([`MmapDirectory`] with the changes above).
#[derive(Clone, Debug)]
pub(crate) struct IndexDirectory {
    root: PathBuf,
    inner: MmapDirectory,
}

impl IndexDirectory {
    pub fn open(root: &Path) -> Result<Self, OpenDirectoryError> {
        Ok(IndexDirectory {
            root: root.to_path_buf(),
            inner: MmapDirectory::open(root)?,
        })
    }
}

/// Whether an error says the file system or the directory cannot be written here.
fn not_writable(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        std::io::ErrorKind::ReadOnlyFilesystem | std::io::ErrorKind::PermissionDenied
    )
}

/// A lock that holds nothing (see [`IndexDirectory::acquire_lock`]).
struct NoLock;

impl Directory for IndexDirectory {
    fn get_file_handle(&self, path: &Path) -> Result<Arc<dyn FileHandle>, OpenReadError> {
        self.inner.get_file_handle(path)
    }

    fn delete(&self, path: &Path) -> Result<(), DeleteError> {
        self.inner.delete(path)
    }

    fn exists(&self, path: &Path) -> Result<bool, OpenReadError> {
        self.inner.exists(path)
    }

    fn open_write(&self, path: &Path) -> Result<WritePtr, OpenWriteError> {
        self.inner.open_write(path)
    }

    fn atomic_read(&self, path: &Path) -> Result<Vec<u8>, OpenReadError> {
        self.inner.atomic_read(path)
    }

    /// Written beside the file (created with the umask), made durable, then renamed
    /// over it: a reader sees the old content or the new, never a part.
    fn atomic_write(&self, path: &Path, data: &[u8]) -> std::io::Result<()> {
        let target = self.root.join(path);
        let name = target
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let tmp = self.root.join(format!(
            ".{name}.{}.{}.tmp",
            std::process::id(),
            rand_suffix()
        ));
        let written = (|| {
            let mut f = std::fs::File::options()
                .write(true)
                .create_new(true)
                .open(&tmp)?;
            f.write_all(data)?;
            f.sync_data()?;
            std::fs::rename(&tmp, &target)
        })();
        if written.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
        written
    }

    fn sync_directory(&self) -> std::io::Result<()> {
        self.inner.sync_directory()
    }

    /// The writer's lock as tantivy takes it. The lock readers take while they open
    /// segments (so that a writer's clean-up does not remove files under them) is
    /// skipped where the directory cannot be written: no writer can remove anything
    /// there either.
    fn acquire_lock(&self, lock: &Lock) -> Result<DirectoryLock, LockError> {
        match self.inner.acquire_lock(lock) {
            Err(LockError::IoError(e)) if lock.is_blocking && not_writable(&e) => {
                Ok(DirectoryLock::from(Box::new(NoLock)))
            }
            other => other,
        }
    }

    fn watch(&self, watch_callback: WatchCallback) -> tantivy::Result<WatchHandle> {
        self.inner.watch(watch_callback)
    }
}

/// A number to tell apart temporary files of threads of one process.
fn rand_suffix() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    /// A file written whole gets the mode any new file gets here, not 0600.
    #[test]
    fn atomic_writes_follow_the_umask() {
        let dir = tempfile::tempdir().unwrap();
        let d = IndexDirectory::open(dir.path()).unwrap();
        d.atomic_write(Path::new("meta.json"), b"{}").unwrap();
        d.atomic_write(Path::new("meta.json"), b"{\"a\":1}")
            .unwrap();
        std::fs::write(dir.path().join("plain"), b"").unwrap();
        let mode = |n: &str| {
            std::fs::metadata(dir.path().join(n))
                .unwrap()
                .permissions()
                .mode()
                & 0o777
        };
        assert_eq!(mode("meta.json"), mode("plain"));
        assert_eq!(d.atomic_read(Path::new("meta.json")).unwrap(), b"{\"a\":1}");
        // Nothing left beside it.
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 2, "{names:?}");
    }
}
