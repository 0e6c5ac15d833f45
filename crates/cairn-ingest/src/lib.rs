//! Readers that turn what users have (files, directories, stdin) into [`Document`]s:
//! the exact bytes with their sha256, and the decoded text that spans refer to.
//!
//! Readers never fail a whole run for one bad file: each file gives either a document
//! (possibly with warnings) or an [`Error`] that names the file and the problem.
#![warn(missing_docs)]

mod decode;
mod walk;

use std::io::Read;
use std::path::{Path, PathBuf};

use cairn_model::{Document, SourceKind};
use sha2::{Digest, Sha256};

pub use decode::{Decoded, decode_text, sniff_binary};
pub use walk::{Input, expand_paths};

/// The largest source read whole (bigger files are refused with a clear error).
pub const MAX_SOURCE_BYTES: u64 = 512 * 1024 * 1024;

/// Why a source could not be read.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The file could not be read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// What the OS said.
        #[source]
        source: std::io::Error,
    },
    /// The file holds no bytes.
    #[error("{path}: the file is empty, nothing to ingest")]
    Empty {
        /// The file.
        path: String,
    },
    /// The file is not text.
    #[error("{path}: not a text page ({what}); skipped")]
    Binary {
        /// The file.
        path: String,
        /// What it looks like.
        what: String,
    },
    /// The file is larger than [`MAX_SOURCE_BYTES`].
    #[error("{path}: {size} bytes is over the limit of {limit} bytes for one source")]
    TooLarge {
        /// The file.
        path: String,
        /// Its size.
        size: u64,
        /// The limit.
        limit: u64,
    },
}

/// Result alias for this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Lowercase hex sha256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// The URI cairn records for a local file: `file://` and the absolute path.
pub fn file_uri(path: &Path) -> String {
    let abs = std::fs::canonicalize(path)
        .or_else(|_| std::path::absolute(path))
        .unwrap_or_else(|_| PathBuf::from(path));
    format!("file://{}", abs.display())
}

/// Reads one file as a plain-text page.
pub fn read_file(path: &Path) -> Result<Document> {
    let name = path.display().to_string();
    let io = |source| Error::Io {
        path: name.clone(),
        source,
    };
    let meta = std::fs::metadata(path).map_err(io)?;
    if meta.len() > MAX_SOURCE_BYTES {
        return Err(Error::TooLarge {
            path: name,
            size: meta.len(),
            limit: MAX_SOURCE_BYTES,
        });
    }
    let bytes = std::fs::read(path).map_err(io)?;
    document_from_bytes(file_uri(path), &name, bytes)
}

/// Reads standard input as one plain-text page (uri `stdin:`).
pub fn read_stdin() -> Result<Document> {
    let mut bytes = Vec::new();
    std::io::stdin()
        .take(MAX_SOURCE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|source| Error::Io {
            path: "<stdin>".into(),
            source,
        })?;
    if bytes.len() as u64 > MAX_SOURCE_BYTES {
        return Err(Error::TooLarge {
            path: "<stdin>".into(),
            size: bytes.len() as u64,
            limit: MAX_SOURCE_BYTES,
        });
    }
    document_from_bytes("stdin:".into(), "<stdin>", bytes)
}

/// Builds a plain-text document from bytes; `name` is what error messages call it.
pub fn document_from_bytes(uri: String, name: &str, bytes: Vec<u8>) -> Result<Document> {
    if bytes.is_empty() {
        return Err(Error::Empty { path: name.into() });
    }
    if let Some(what) = sniff_binary(&bytes) {
        return Err(Error::Binary {
            path: name.into(),
            what,
        });
    }
    let Decoded {
        text,
        encoding,
        warnings,
    } = decode_text(&bytes);
    let sha256 = sha256_hex(&bytes);
    Ok(Document {
        uri,
        kind: SourceKind::Text,
        bytes,
        sha256,
        text,
        encoding: encoding.to_string(),
        segments: None,
        warnings,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha_of_empty_input_is_known() {
        assert_eq!(
            sha256_hex(b""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }

    #[test]
    fn empty_and_binary_are_refused_with_the_name() {
        let e = document_from_bytes("x".into(), "a.txt", vec![]).unwrap_err();
        assert!(e.to_string().contains("a.txt") && e.to_string().contains("empty"));
        let e = document_from_bytes("x".into(), "b.bin", vec![0, 1, 2, 0, 0, 3]).unwrap_err();
        assert!(e.to_string().contains("b.bin") && e.to_string().contains("not a text"));
    }

    #[test]
    fn invalid_utf8_decodes_lossily_with_a_warning() {
        let d = document_from_bytes("x".into(), "c.txt", b"caf\xe9 au lait".to_vec()).unwrap();
        assert_eq!(d.text, "caf\u{FFFD} au lait");
        assert_eq!(d.warnings.len(), 1);
        assert!(d.warnings[0].contains("invalid UTF-8"));
    }
}
