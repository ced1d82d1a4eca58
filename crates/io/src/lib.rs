//! ldd-io: the one owner of input and output of ldd-sets.
//!
//! - [`input`]: every file ldd-sets reads is opened by [`Input`] — plain or gzip by content,
//!   BOM and CRLF removed, UTF-8 checked with file and line, a line-length limit, SHA-256
//!   on the fly. This is the only place that constructs a gzip decoder.
//! - [`output`]: every output is written all-or-nothing, never over one of the command's
//!   inputs; a directory through [`Staging`]
//!   (locked with [`cleanup::Lock`], swapped into place in one step, never replacing what is
//!   not ours or what holds an input), a file through [`AtomicFile`].
//! - [`cleanup`]: temporary paths removed on SIGINT/SIGTERM, and those of dead processes
//!   at the next run; the lock beside an output being written.
//! - [`name`]: the one validated type for names that become parts of paths.
//! - [`error`]: errors naming their file and line; input shown in messages has its control
//!   characters escaped.
//! - [`shell`]: the one quoting of the words of every command ldd-sets prints for a person
//!   to paste into a shell.
//! - [`fs`]: directories, listings, raw copies and renames, each error naming its path.
//! - [`archive`]: members of zip and tar.gz archives, and lines written as gzip (with
//!   [`input`], the only code that decompresses or compresses corpus text).
//! - [`message`]: the one channel of what the libraries tell the user ([`message::say`]),
//!   written by the sink the binary sets; the libraries print nothing themselves (the one
//!   exception: [`cleanup`]'s line when a signal stops the process).
//! - [`progress`]: the one style of every progress bar ldd-sets shows on stderr (a line
//!   every 30 s instead when stderr is not a terminal).
//! - [`stdin`]: standard input (`--hyp -`) read once into a temporary copy that `-` then
//!   names for every reader.
//! - [`download`]: downloads streamed to a temporary file, verified (HTML pages, size,
//!   SHA-256) before the caller keeps them.

#![warn(missing_docs)]

pub mod archive;
pub mod cleanup;
pub mod download;
pub mod error;
pub mod fs;
pub mod input;
pub mod message;
pub mod name;
pub mod named;
pub mod output;
pub mod progress;
pub mod shell;
pub mod stdin;

pub use archive::{gzip_lines, gzip_member, Archive};
pub use error::{clear as clear_io_error, Error, Result};
pub use input::{
    is_stdin, read_lines, read_text, sha256_bytes, sha256_file, Counted, FileInfo, Input,
    LineRange, MAX_LINE_BYTES, STDIN,
};
pub use name::{Name, NameKind};
pub use named::{foreign_entries, Output, OutputKind, Shape};
pub use output::{
    check_replaceable_file, confined, parent_dir, resolved, write_bytes_atomic, write_file_atomic,
    write_together, AtomicFile, FilesInto, Outside, Staging,
};
pub use stdin::StdinCopy;
