//! Errors of ldd-sets and the exit codes they map to.
//!
//! Every error that comes from input names the file and, where it applies, the 1-based
//! line; paths and quoted input are shown with control characters escaped. The binary
//! prints the error and exits with [`Error::exit_code`].

use std::path::{Path, PathBuf};

use ldd_align::AlignError;
use ldd_io::error::shown;
use ldd_parse::ParseError;

/// Exit code: success.
pub const EXIT_OK: i32 = 0;
/// Exit code: bad input data (malformed CoNLL-U, invalid UTF-8, mismatched line counts, ...).
pub const EXIT_INPUT: i32 = 3;
/// Exit code: invalid configuration (rules or language-pair TOML, bad option values,
/// an output that may not be written).
pub const EXIT_CONFIG: i32 = 4;
/// Exit code: an I/O failure (missing file, permission, disk full, ...).
pub const EXIT_IO: i32 = 5;
/// Exit code: a needed resource (e.g. a UDPipe model) is missing.
pub const EXIT_RESOURCE: i32 = 6;
/// Exit code: the output is being written by another ldd-sets process.
pub const EXIT_BUSY: i32 = 7;

/// Result alias used throughout the crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// All errors ldd-sets reports.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// An I/O error on a named file.
    #[error("{}: {source}", shown(path))]
    Io {
        /// The file being read or written.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// Bad input at a known place in a file.
    #[error("{}{}: {msg}", shown(path), ldd_io::error::at_line(*line))]
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
    /// A file a sets directory's manifest names is not what the run wrote.
    #[error(transparent)]
    SetFile(#[from] SetFileError),
    /// Invalid configuration.
    #[error("{0}")]
    Config(String),
    /// A missing resource (model, corpus file) with advice on how to get it.
    #[error("{0}")]
    Resource(String),
    /// Another process holds the output.
    #[error("{0}")]
    Busy(String),
}

/// How a file that a sets directory's manifest names is not what the run wrote: the
/// file, and the manifest where its record disagrees.
#[derive(Debug, thiserror::Error)]
pub enum SetFileError {
    /// A name in the manifest that leaves its directory (absolute, `..`, `.`, empty).
    #[error(
        "{}: file name `{}` leaves the set directory; the manifest was edited or is corrupt",
        shown(manifest),
        ldd_io::error::quote(name, 80)
    )]
    Leaves {
        /// The manifest.
        manifest: PathBuf,
        /// The name it gives.
        name: String,
    },
    /// A name in the manifest whose way passes a symbolic link.
    #[error(
        "{}: `{}` is a symbolic link; ldd-sets reads and writes a set directory's files \
         only inside it, never through a link (copy the files instead)",
        shown(manifest),
        shown(link)
    )]
    Link {
        /// The manifest.
        manifest: PathBuf,
        /// The link.
        link: PathBuf,
    },
    /// A name the run did not record a checksum for.
    #[error(
        "{}: `{}` is not among the files the run recorded; the manifest was edited",
        shown(manifest),
        ldd_io::error::quote(name, 80)
    )]
    Unrecorded {
        /// The manifest.
        manifest: PathBuf,
        /// The name.
        name: String,
    },
    /// An ids file that names a line beyond the corpus.
    #[error("{}: line id {id} exceeds the corpus's {lines} lines", shown(path))]
    IdBeyond {
        /// The ids file.
        path: PathBuf,
        /// The id.
        id: u32,
        /// The corpus's line count.
        lines: u64,
    },
    /// A set's ids file whose count is not the set's sentence count in the manifest.
    #[error(
        "{}: has {ids} ids but {} records {sentences} sentences",
        shown(path),
        shown(manifest)
    )]
    Count {
        /// The ids file.
        path: PathBuf,
        /// The manifest.
        manifest: PathBuf,
        /// The ids in the file.
        ids: u64,
        /// The sentences the manifest records.
        sentences: u64,
    },
    /// A set's trees file with more trees than the set has ids.
    #[error("{}:1: more trees than the set's ids", shown(path))]
    Trees {
        /// The trees file.
        path: PathBuf,
    },
    /// A file whose SHA-256 is not the one the manifest records.
    #[error(
        "{}: changed since ldd-sets wrote it (sha256 {got}; {} records {want}); re-run \
         `ldd-sets extract`, or restore the file",
        shown(path),
        shown(manifest)
    )]
    Changed {
        /// The file.
        path: PathBuf,
        /// The manifest.
        manifest: PathBuf,
        /// Its SHA-256 now.
        got: String,
        /// The SHA-256 recorded.
        want: String,
    },
}

impl Error {
    /// Whether the system refused to write: permission denied, or a read-only file system
    /// (a cache shared read-only, say).
    pub fn is_not_writable(&self) -> bool {
        use std::io::ErrorKind::{PermissionDenied, ReadOnlyFilesystem};
        matches!(self, Error::Io { source, .. }
            if matches!(source.kind(), PermissionDenied | ReadOnlyFilesystem))
    }

    /// An I/O error on `path`.
    pub fn io(path: &Path, source: std::io::Error) -> Self {
        Error::Io {
            path: path.to_path_buf(),
            source: ldd_io::clear_io_error(path, source),
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
            Error::Io { source, .. }
                if matches!(
                    source.kind(),
                    std::io::ErrorKind::InvalidData | std::io::ErrorKind::InvalidInput
                ) =>
            {
                EXIT_INPUT
            }
            Error::Io { .. } => EXIT_IO,
            Error::Input { .. } | Error::Data(_) | Error::SetFile(_) => EXIT_INPUT,
            Error::Config(_) => EXIT_CONFIG,
            Error::Resource(_) => EXIT_RESOURCE,
            Error::Busy(_) => EXIT_BUSY,
        }
    }
}

impl From<ldd_io::Error> for Error {
    fn from(error: ldd_io::Error) -> Self {
        match error {
            ldd_io::Error::Io { path, source } => Error::Io { path, source },
            ldd_io::Error::Input { path, line, msg } => Error::Input { path, line, msg },
            ldd_io::Error::Refused(m) => Error::Config(m),
            error @ ldd_io::Error::InUse { .. } => Error::Busy(error.to_string()),
        }
    }
}

impl From<ParseError> for Error {
    fn from(error: ParseError) -> Self {
        match error {
            ParseError::File(error) => error.into(),
            ParseError::ModelNotFound(m) => Error::Resource(m),
            ParseError::NoModelsDir | ParseError::ModelLoad { .. } => {
                Error::Resource(error.to_string())
            }
            ParseError::Io { path, source, .. } => Error::Io { path, source },
            ParseError::Output(source) => Error::Io {
                path: PathBuf::from("(parsed CoNLL-U output)"),
                source,
            },
            ParseError::Input { .. } | ParseError::Udpipe { .. } => Error::Data(error.to_string()),
            other => Error::Resource(other.to_string()),
        }
    }
}

impl From<AlignError> for Error {
    fn from(error: AlignError) -> Self {
        match error {
            AlignError::File(error) => error.into(),
            AlignError::Io { path, source } => Error::io(&path, source),
            other => Error::Data(other.to_string()),
        }
    }
}
