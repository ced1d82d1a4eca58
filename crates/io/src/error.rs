//! Errors of reading and writing files.

use std::path::{Path, PathBuf};

use crate::text::shown;

/// Result alias of the crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// An error reading or writing a file. Every variant names the file; errors about the
/// content of a text file also give the 1-based line. Paths are shown escaped.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The operating system refused or failed an operation on `path`.
    #[error("{}: {source}", shown(path))]
    Io {
        /// The file or directory concerned.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
    /// The content of `path` is unusable at `line` (invalid UTF-8, corrupt gzip data, a line
    /// over the length limit, ...).
    #[error("{}:{line}: {msg}", shown(path))]
    Input {
        /// The file.
        path: PathBuf,
        /// 1-based line number.
        line: u64,
        /// What is wrong.
        msg: String,
    },
    /// An output location may not be written (it is not ours, or it is an input).
    #[error("{0}")]
    Refused(String),
    /// Another process is writing the same output.
    #[error(
        "{} is in use by process {pid} (lock {}); wait for it to finish",
        shown(path),
        shown(lock)
    )]
    InUse {
        /// The output being written.
        path: PathBuf,
        /// The lock file.
        lock: PathBuf,
        /// The process holding the lock.
        pid: u32,
    },
}

impl Error {
    /// An I/O error on `path`.
    pub fn io(path: &Path, source: std::io::Error) -> Self {
        Error::Io {
            path: path.to_path_buf(),
            source,
        }
    }

    /// Bad content of `path` at `line`.
    pub fn input(path: &Path, line: u64, msg: impl Into<String>) -> Self {
        Error::Input {
            path: path.to_path_buf(),
            line,
            msg: msg.into(),
        }
    }
}
