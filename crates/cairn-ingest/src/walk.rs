//! Expanding command-line paths into the files to read.

use std::path::{Path, PathBuf};

/// One input named on the command line, expanded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// A file to read.
    File(PathBuf),
    /// Standard input.
    Stdin,
}

/// What the command line's paths expand to.
#[derive(Debug, Default)]
pub struct Expanded {
    /// The inputs, each with its size in bytes as the walk saw it.
    pub inputs: Vec<(Input, u64)>,
    /// Paths that could not be read (each names its path).
    pub errors: Vec<crate::Error>,
    /// What was passed over, naming it (symbolic links inside a directory, not followed).
    pub warnings: Vec<String>,
}

/// Expands paths: files as they are, directories recursively (sorted, hidden entries
/// skipped), `-` as standard input, each with its size in bytes as the walk saw it (0
/// for standard input and for a file whose size could not be read: reading it will say
/// why; the sizes of a directory's files are read on the walking threads). Paths that do
/// not exist are returned as errors naming them, so one typo does not stop the others.
/// Symbolic links inside directories are not followed (see [`expand_paths_with`]).
pub fn expand_paths(paths: &[PathBuf]) -> (Vec<(Input, u64)>, Vec<crate::Error>) {
    let e = expand_paths_with(paths, false);
    (e.inputs, e.errors)
}

/// [`expand_paths`], following symbolic links inside directories when `follow` (a loop
/// of links is an error naming it), else passing them over with a warning each.
pub fn expand_paths_with(paths: &[PathBuf], follow: bool) -> Expanded {
    let mut out = Expanded::default();
    for p in paths {
        if p.as_os_str() == "-" {
            out.inputs.push((Input::Stdin, 0));
            continue;
        }
        match std::fs::metadata(p) {
            Err(source) => out.errors.push(crate::Error::Io {
                path: crate::quoted_path(p),
                source,
            }),
            Ok(m) if m.is_dir() => walk_dir(p, follow, &mut out),
            Ok(m) => out.inputs.push((Input::File(p.clone()), m.len())),
        }
    }
    out
}

/// Threads that walk a directory tree. Reading a directory that is not in the page
/// cache waits on the disk, so more requests at once than there are cores help: the
/// walk of a large cold tree, and so an ingest's first batch, come sooner
/// (`docs/benchmarks.md`, Measurements behind design choices).
const WALK_THREADS: usize = 8;

/// Adds the files under `dir` to `inputs`, in the order of a depth-first walk that takes
/// each directory's entries sorted by name (the order of their paths, compared
/// component by component). Hidden entries (a name starting with `.`) are skipped below
/// `dir`; symbolic links are not followed, and a link is not taken for a file.
fn walk_dir(dir: &Path, follow: bool, out: &mut Expanded) {
    let found = std::sync::Mutex::new((Vec::new(), Vec::new(), Vec::new()));
    ignore::WalkBuilder::new(dir)
        .standard_filters(false)
        .hidden(true)
        .follow_links(follow)
        .threads(WALK_THREADS)
        .build_parallel()
        .run(|| {
            let found = &found;
            Box::new(move |entry| {
                let lock = || found.lock().unwrap_or_else(|e| e.into_inner());
                match entry {
                    Ok(e) if e.file_type().is_some_and(|t| t.is_file()) => {
                        // The size is read (a stat, which may wait on the disk) on this
                        // thread, outside the lock.
                        let size = e.metadata().map(|m| m.len()).unwrap_or(0);
                        lock().0.push((e.into_path(), size));
                    }
                    Ok(e) if e.path_is_symlink() && e.depth() > 0 => {
                        lock().2.push((e.into_path(), true));
                    }
                    Ok(e) if !e.file_type().is_some_and(|t| t.is_dir()) => {
                        // A FIFO, a socket, a device: opening a FIFO waits for a writer.
                        lock().2.push((e.into_path(), false));
                    }
                    Ok(_) => {}
                    Err(e) => lock().1.push(walk_error(dir, e)),
                }
                ignore::WalkState::Continue
            })
        });
    let (mut files, mut errs, mut links) = found.into_inner().unwrap_or_else(|e| e.into_inner());
    files.sort_unstable_by(|a: &(PathBuf, u64), b| a.0.cmp(&b.0));
    errs.sort_by_key(|e: &crate::Error| e.to_string());
    links.sort();
    out.inputs
        .extend(files.into_iter().map(|(p, size)| (Input::File(p), size)));
    out.errors.extend(errs);
    out.warnings.extend(links.iter().map(|(p, link)| {
        let what = if *link {
            "a symbolic link, not followed (--follow follows links inside directories)"
        } else {
            "not a regular file (a FIFO, socket or device); skipped"
        };
        format!("{}: {what}", crate::quoted_path(p))
    }));
}

/// A walk's error as ours, naming the path it concerns (or the walked directory).
fn walk_error(dir: &Path, err: ignore::Error) -> crate::Error {
    fn path_of(e: &ignore::Error) -> Option<&Path> {
        match e {
            ignore::Error::WithPath { path, .. } => Some(path),
            ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
                path_of(err)
            }
            _ => None,
        }
    }
    let path = crate::quoted_path(path_of(&err).unwrap_or(dir));
    let message = err.to_string();
    let source = err
        .into_io_error()
        .unwrap_or_else(|| std::io::Error::other(message));
    crate::Error::Io { path, source }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(inputs: &[(Input, u64)], root: &Path) -> Vec<String> {
        inputs
            .iter()
            .map(|(i, _)| match i {
                Input::File(p) => p.strip_prefix(root).unwrap().display().to_string(),
                Input::Stdin => "-".into(),
            })
            .collect()
    }

    #[test]
    fn directories_expand_depth_first_in_name_order_without_hidden_entries() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for f in [
            "b.txt",
            "a/z.html",
            "a/b/c.txt",
            "a/b0.txt",
            "a.txt",
            "a-b/x.txt",
            ".hidden.txt",
            ".git/config",
            "c/.cache/d.txt",
            "c/d.txt",
        ] {
            let p = root.join(f);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(&p, f).unwrap();
        }
        std::fs::create_dir_all(root.join("empty")).unwrap();
        let (inputs, errors) = expand_paths(&[root.to_path_buf()]);
        assert!(errors.is_empty(), "{errors:?}");
        // What a one-threaded walk of sorted entries gives: "a" and its tree before
        // "a-b" and "a.txt", a directory's files and subdirectories interleaved by name.
        assert_eq!(
            files(&inputs, root),
            [
                "a/b/c.txt",
                "a/b0.txt",
                "a/z.html",
                "a-b/x.txt",
                "a.txt",
                "b.txt",
                "c/d.txt"
            ]
        );
        // Each file holds its own relative path, so its size is that path's length.
        for ((input, size), name) in inputs.iter().zip(files(&inputs, root)) {
            assert_eq!(input, &Input::File(root.join(&name)));
            assert_eq!(*size, name.len() as u64, "{name}");
        }
    }

    #[test]
    fn named_paths_keep_their_order_and_missing_ones_are_errors() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join(".d")).unwrap();
        std::fs::write(root.join(".d/one.txt"), "1").unwrap();
        std::fs::write(root.join("z.txt"), "z").unwrap();
        let missing = root.join("nope");
        let (inputs, errors) = expand_paths(&[
            root.join("z.txt"),
            missing.clone(),
            PathBuf::from("-"),
            // A hidden directory named on the command line is walked.
            root.join(".d"),
        ]);
        assert_eq!(files(&inputs, root), ["z.txt", "-", ".d/one.txt"]);
        assert_eq!(errors.len(), 1);
        assert!(
            errors[0]
                .to_string()
                .contains(&missing.display().to_string())
        );
    }

    #[cfg(unix)]
    #[test]
    fn an_unreadable_directory_is_an_error_naming_it_and_the_rest_is_walked() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("shut")).unwrap();
        std::fs::write(root.join("shut/x.txt"), "x").unwrap();
        std::fs::write(root.join("open.txt"), "o").unwrap();
        std::fs::set_permissions(root.join("shut"), std::fs::Permissions::from_mode(0o000))
            .unwrap();
        // Root can read any directory; the check only holds for other users.
        let readable = std::fs::read_dir(root.join("shut")).is_ok();
        let (inputs, errors) = expand_paths(&[root.to_path_buf()]);
        std::fs::set_permissions(root.join("shut"), std::fs::Permissions::from_mode(0o755))
            .unwrap();
        if readable {
            assert_eq!(files(&inputs, root), ["open.txt", "shut/x.txt"]);
        } else {
            assert_eq!(files(&inputs, root), ["open.txt"]);
            assert_eq!(errors.len(), 1, "{errors:?}");
            assert!(errors[0].to_string().contains("shut"), "{}", errors[0]);
        }
    }
}
