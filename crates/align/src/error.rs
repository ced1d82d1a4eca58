//! Error type of the crate.

use std::path::PathBuf;

/// Every error the crate reports. Errors about files always name the file, and errors about a
/// line of a file also give the 1-based line number.
#[derive(Debug, thiserror::Error)]
pub enum AlignError {
    /// An I/O error while reading or writing `path`.
    #[error("{path}: {source}")]
    Io {
        /// File concerned.
        path: PathBuf,
        /// Underlying error.
        #[source]
        source: std::io::Error,
    },
    /// Reading a file failed, or its content is unusable (names the file and line).
    #[error(transparent)]
    File(#[from] ldd_io::Error),
    /// A saved model file is corrupt, truncated or of an unknown version.
    #[error("{path}: invalid model file: {reason}")]
    ModelFormat {
        /// File concerned.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// A line of a `source ||| target` corpus file could not be used.
    #[error("{path}:{line}: {reason}")]
    CorpusLine {
        /// File concerned.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// What is wrong with it.
        reason: String,
    },
    /// A Pharaoh alignment file has a different number of lines than expected.
    #[error("{path}: expected {expected} alignment lines, found {found}")]
    LineCount {
        /// File concerned.
        path: PathBuf,
        /// Number of lines expected (number of sentence pairs).
        expected: usize,
        /// Number of lines found (a longer file is counted no further than one line
        /// past the expected).
        found: ldd_io::Counted,
    },
    /// A token of a Pharaoh alignment line is not of the form `i-j` with non-negative integers.
    #[error("{path}:{line}: malformed alignment token {token:?} (expected i-j)")]
    MalformedLink {
        /// File concerned (`<string>` when parsing a single line).
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// Offending token.
        token: String,
    },
    /// A Pharaoh link points beyond the length of its sentence pair.
    #[error("{path}:{line}: link {token:?} out of range for sentence lengths {src_len}x{tgt_len}")]
    LinkOutOfRange {
        /// File concerned.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// Offending token.
        token: String,
        /// Source sentence length.
        src_len: usize,
        /// Target sentence length.
        tgt_len: usize,
    },
    /// A line of a gold alignment file cannot be read.
    #[error("{}:{line}: {reason}", ldd_io::error::shown(path))]
    GoldLine {
        /// File concerned.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// What is wrong with it.
        reason: String,
    },
    /// Invalid training options.
    #[error("invalid training options: {0}")]
    Options(String),
    /// Two alignment lists of different lengths were compared.
    #[error("cannot compare {left} alignments with {right}")]
    LengthMismatch {
        /// Length of the first list.
        left: usize,
        /// Length of the second list.
        right: usize,
    },
}

/// Result alias of the crate.
pub type Result<T, E = AlignError> = std::result::Result<T, E>;

impl AlignError {
    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        AlignError::Io {
            path: path.into(),
            source,
        }
    }
}
