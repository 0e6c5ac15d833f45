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

/// Expands paths: files as they are, directories recursively (sorted, hidden entries
/// skipped), `-` as standard input. Paths that do not exist are returned as errors
/// naming them, so one typo does not stop the others.
pub fn expand_paths(paths: &[PathBuf]) -> (Vec<Input>, Vec<crate::Error>) {
    let mut inputs = Vec::new();
    let mut errors = Vec::new();
    for p in paths {
        if p.as_os_str() == "-" {
            inputs.push(Input::Stdin);
            continue;
        }
        match std::fs::metadata(p) {
            Err(source) => errors.push(crate::Error::Io {
                path: p.display().to_string(),
                source,
            }),
            Ok(m) if m.is_dir() => walk_dir(p, &mut inputs, &mut errors),
            Ok(_) => inputs.push(Input::File(p.clone())),
        }
    }
    (inputs, errors)
}

fn walk_dir(dir: &Path, inputs: &mut Vec<Input>, errors: &mut Vec<crate::Error>) {
    let walker = walkdir::WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| e.depth() == 0 || !e.file_name().to_string_lossy().starts_with('.'));
    for entry in walker {
        match entry {
            Ok(e) if e.file_type().is_file() => inputs.push(Input::File(e.into_path())),
            Ok(_) => {}
            Err(e) => {
                let path = e
                    .path()
                    .map(|p| p.display().to_string())
                    .unwrap_or_default();
                let source = e
                    .into_io_error()
                    .unwrap_or_else(|| std::io::Error::other("walk error"));
                errors.push(crate::Error::Io { path, source });
            }
        }
    }
}
