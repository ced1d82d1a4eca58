//! Errors of ldd-sets and the exit codes they map to.
//!
//! Every error that comes from input names the file and, where it applies, the
//! 1-based line. The binary prints the error and exits with [`Error::exit_code`].

use std::path::{Path, PathBuf};

/// Exit code: success.
pub const EXIT_OK: i32 = 0;
/// Exit code: bad input data (malformed CoNLL-U, invalid UTF-8, mismatched line counts, ...).
pub const EXIT_INPUT: i32 = 3;
/// Exit code: invalid configuration (rules or language-pair TOML, bad option values).
pub const EXIT_CONFIG: i32 = 4;
/// Exit code: an I/O failure (missing file, permission, disk full, ...).
pub const EXIT_IO: i32 = 5;
/// Exit code: a needed resource (e.g. a UDPipe model) is missing.
pub const EXIT_RESOURCE: i32 = 6;

/// Result alias used throughout the crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// All errors ldd-sets reports.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// An I/O error on a named file.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file being read or written.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// Bad input at a known place in a file.
    #[error("{}:{line}: {msg}", path.display())]
    Input {
        /// The offending file.
        path: PathBuf,
        /// 1-based line number.
        line: u64,
        /// What is wrong.
        msg: String,
    },
    /// Bad input that concerns a whole file or several files.
    #[error("{0}")]
    Data(String),
    /// Invalid configuration.
    #[error("{0}")]
    Config(String),
    /// A missing resource (model, corpus file) with advice on how to get it.
    #[error("{0}")]
    Resource(String),
}

impl Error {
    /// An I/O error on `path`.
    pub fn io(path: &Path, source: std::io::Error) -> Self {
        Error::Io {
            path: path.to_path_buf(),
            source,
        }
    }

    /// Bad input at `path`:`line`.
    pub fn input(path: &Path, line: u64, msg: impl Into<String>) -> Self {
        Error::Input {
            path: path.to_path_buf(),
            line,
            msg: msg.into(),
        }
    }

    /// The process exit code for this error (documented in `ldd-sets --help`).
    pub fn exit_code(&self) -> i32 {
        match self {
            Error::Io { source, .. } if source.kind() == std::io::ErrorKind::InvalidData => {
                EXIT_INPUT
            }
            Error::Io { .. } => EXIT_IO,
            Error::Input { .. } | Error::Data(_) => EXIT_INPUT,
            Error::Config(_) => EXIT_CONFIG,
            Error::Resource(_) => EXIT_RESOURCE,
        }
    }
}
