//! Error type of the parse stage.

use std::path::PathBuf;

/// Result alias used throughout `ldd-parse`.
pub type Result<T, E = ParseError> = std::result::Result<T, E>;

/// Everything that can go wrong while locating a model, reading a corpus, parsing or caching.
///
/// Every variant that concerns a file names it; input errors also name the 1-based line.
#[derive(Debug, thiserror::Error)]
pub enum ParseError {
    /// An I/O operation on a named file or directory failed.
    #[error("{action} {}: {source}", path.display())]
    Io {
        /// What was being done ("reading", "creating", ...).
        action: &'static str,
        /// The file or directory concerned.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
    /// Reading a file failed, or its content is unusable (names the file and line).
    #[error(transparent)]
    File(#[from] ldd_io::Error),
    /// The caller's line iterator yielded an error.
    #[error("input line {line}: {message}")]
    Input {
        /// 1-based number of the line that could not be read.
        line: u64,
        /// The error message of the iterator.
        message: String,
    },
    /// The UDPipe model could not be loaded.
    #[error("cannot load UDPipe model {}: {message}", path.display())]
    ModelLoad {
        /// The model file.
        path: PathBuf,
        /// Why.
        message: String,
    },
    /// No model file was found (and none could be downloaded).
    #[error("{0}")]
    ModelNotFound(String),
    /// UDPipe failed on one input line.
    #[error("line {line}: UDPipe failed: {message}")]
    Udpipe {
        /// 1-based input line number.
        line: u64,
        /// UDPipe's message.
        message: String,
    },
    /// Writing the CoNLL-U output failed.
    #[error("writing CoNLL-U output: {0}")]
    Output(#[source] std::io::Error),
    /// The rayon thread pool could not be built.
    #[error("cannot start {threads} parser threads: {message}")]
    ThreadPool {
        /// Requested number of threads.
        threads: usize,
        /// Why.
        message: String,
    },
    /// The parse cache is inconsistent in a way that cannot be repaired automatically.
    #[error("parse cache {}: {message}", path.display())]
    Cache {
        /// The cache file or directory.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// The parse was stopped on purpose after some chunks (see `ParseOptions::stop_after_chunks`).
    #[error("parse stopped after {chunks} chunk(s) ({lines} lines) as requested; rerun to resume")]
    Stopped {
        /// Chunks completed and kept in the cache.
        chunks: usize,
        /// Lines completed.
        lines: u64,
    },
    /// No models directory could be determined from the environment.
    #[error(
        "cannot determine the models directory: set LDD_SETS_MODELS (or XDG_CACHE_HOME / HOME)"
    )]
    NoModelsDir,
}

impl ParseError {
    /// Builds an [`ParseError::Io`] for `path`.
    pub(crate) fn io(
        action: &'static str,
        path: impl Into<PathBuf>,
        source: std::io::Error,
    ) -> Self {
        let path = path.into();
        Self::Io {
            action,
            source: ldd_io::clear_io_error(&path, source),
            path,
        }
    }
}

impl From<std::io::Error> for ParseError {
    /// An I/O error of a caller-supplied line iterator (the line number is added by `parse_stream`).
    fn from(error: std::io::Error) -> Self {
        Self::Input {
            line: 0,
            message: error.to_string(),
        }
    }
}
