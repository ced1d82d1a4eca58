//! ldd-io: the one owner of input and output of ldd-sets.
//!
//! - [`input`]: every file ldd-sets reads is opened by [`Input`] — plain or gzip by content,
//!   BOM and CRLF removed, UTF-8 checked with file and line, a line-length limit, SHA-256
//!   on the fly. This is the only place that constructs a gzip decoder.
//! - [`output`]: every output is written all-or-nothing, a directory through [`Staging`],
//!   a file through [`write_file_atomic`].
//! - [`text`]: input shown in messages has its control characters escaped.
//! - [`download`]: downloads streamed to a temporary file, verified (HTML pages, size,
//!   SHA-256) before the caller keeps them.

#![warn(missing_docs)]

pub mod download;
mod error;
pub mod input;
pub mod output;
pub mod text;

pub use error::{Error, Result};
pub use input::{read_lines, read_text, sha256_file, FileInfo, Input, MAX_LINE_BYTES};
pub use output::{parent_dir, write_bytes_atomic, write_file_atomic, AtomicFile, Staging};
