//! Where an export's bytes go: standard output (no `--out`, or `-`); a regular file (or
//! a new one) written beside its final name and renamed over it, so that an interrupted
//! export never leaves a truncated file under that name; or anything else (a FIFO, a
//! device, `/dev/stdout`) opened and written through, since renaming a file over it
//! would replace it rather than feed it. A symbolic link is followed: its target is the
//! one written, and the link stays.

use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

/// The output an export writes.
pub(super) type Output = BufWriter<Box<dyn Write>>;

/// Where an export goes.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Target {
    /// Standard output.
    Stdout,
    /// A regular file or a new path (links followed), replaced whole at the end.
    Replace(PathBuf),
    /// Something that is no regular file, written in place.
    Through(PathBuf),
}

impl Target {
    /// The target of `--out` as given.
    pub(super) fn of(out: Option<&Path>) -> Result<Self> {
        let Some(path) = out.filter(|p| p.as_os_str() != "-") else {
            return Ok(Target::Stdout);
        };
        let lstat = std::fs::symlink_metadata(path);
        let resolved = match &lstat {
            // A dangling link is written through, creating its target.
            Ok(m) if m.file_type().is_symlink() => match std::fs::canonicalize(path) {
                Ok(p) => p,
                Err(_) => return Ok(Target::Through(path.to_path_buf())),
            },
            _ => path.to_path_buf(),
        };
        match std::fs::metadata(&resolved) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Target::Replace(resolved)),
            Err(e) => Err(e).with_context(|| format!("reading {}", path.display())),
            Ok(m) if m.is_dir() => bail!("{} is a directory", path.display()),
            Ok(m) if m.is_file() => Ok(Target::Replace(resolved)),
            Ok(_) => Ok(Target::Through(path.to_path_buf())),
        }
    }

    /// Runs `body` on the target's output and makes its bytes final; `name` names the
    /// output in messages. A failed body removes a temporary file it wrote.
    pub(super) fn write<T>(&self, body: impl FnOnce(Output) -> Result<T>) -> Result<T> {
        match self {
            Target::Stdout => body(output(std::io::stdout())),
            Target::Through(path) => {
                let file = OpenOptions::new()
                    .write(true)
                    .create(true)
                    // Nothing here has bytes to cut: a FIFO or device, or the new
                    // target of a dangling link.
                    .truncate(false)
                    .open(path)
                    .with_context(|| format!("opening {}", path.display()))?;
                body(output(file))
            }
            Target::Replace(path) => replace(path, body),
        }
    }
}

fn output(w: impl Write + 'static) -> Output {
    BufWriter::new(Box::new(w))
}

/// Writes `.NAME.partial` beside `path`, renamed to `path` once `body` succeeds and
/// removed when it fails.
fn replace<T>(path: &Path, body: impl FnOnce(Output) -> Result<T>) -> Result<T> {
    let tmp = path.with_file_name(format!(
        ".{}.partial",
        path.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    ));
    let file = File::create(&tmp).with_context(|| format!("creating {}", tmp.display()))?;
    match body(output(file)) {
        Ok(v) => {
            std::fs::rename(&tmp, path)
                .with_context(|| format!("renaming {} to {}", tmp.display(), path.display()))?;
            Ok(v)
        }
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            Err(e)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_by_what_stands_at_the_path() {
        let d = tempfile::tempdir().unwrap();
        assert_eq!(Target::of(None).unwrap(), Target::Stdout);
        assert_eq!(Target::of(Some(Path::new("-"))).unwrap(), Target::Stdout);
        let new = d.path().join("new.csv");
        assert_eq!(
            Target::of(Some(&new)).unwrap(),
            Target::Replace(new.clone())
        );
        std::fs::write(&new, "old").unwrap();
        assert_eq!(
            Target::of(Some(&new)).unwrap(),
            Target::Replace(new.clone())
        );
        let null = Path::new("/dev/null");
        assert_eq!(
            Target::of(Some(null)).unwrap(),
            Target::Through(null.into())
        );
        let e = Target::of(Some(d.path())).unwrap_err().to_string();
        assert!(e.contains("is a directory"), "{e}");
    }

    #[test]
    fn a_link_to_a_file_replaces_the_file_and_keeps_the_link() {
        let d = tempfile::tempdir().unwrap();
        let file = d.path().join("real.csv");
        let link = d.path().join("link.csv");
        std::fs::write(&file, "old").unwrap();
        std::os::unix::fs::symlink(&file, &link).unwrap();
        let t = Target::of(Some(&link)).unwrap();
        t.write(|mut w| Ok(w.write_all(b"new")?)).unwrap();
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "new");
    }

    #[test]
    fn a_failed_export_leaves_the_old_file() {
        let d = tempfile::tempdir().unwrap();
        let file = d.path().join("a.csv");
        std::fs::write(&file, "old").unwrap();
        let r: Result<()> = Target::of(Some(&file)).unwrap().write(|_| bail!("stopped"));
        assert!(r.is_err());
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "old");
        assert_eq!(std::fs::read_dir(d.path()).unwrap().count(), 1);
    }
}
