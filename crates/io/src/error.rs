//! Errors of reading and writing files.

use std::path::{Path, PathBuf};

use crate::text::{at_line, shown};

/// `e`, an error of an operation on `path`, with the system's terse message replaced by
/// what it means where that is known: "File exists" from creating a directory where a file
/// is, "Device or resource busy" from replacing a mount point or `.`.
pub fn clear(path: &Path, e: std::io::Error) -> std::io::Error {
    let meta = std::fs::symlink_metadata(path);
    let msg = match e.raw_os_error() {
        Some(libc::EEXIST) | Some(libc::ENOTDIR) if meta.as_ref().is_ok_and(|m| !m.is_dir()) => {
            "exists and is not a directory, but a directory is needed here (name another path)"
        }
        Some(libc::EBUSY) => {
            "cannot be replaced: it is a mount point or the current directory (name a \
             directory below it)"
        }
        _ => return e,
    };
    std::io::Error::new(e.kind(), msg)
}

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
    /// over the length limit, ...); line 0: the file as a whole (e.g. not a zip archive).
    #[error("{}{}: {msg}", shown(path), at_line(*line))]
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
    /// An I/O error on `path` (made [`clear`]).
    pub fn io(path: &Path, source: std::io::Error) -> Self {
        Error::Io {
            path: path.to_path_buf(),
            source: clear(path, source),
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
