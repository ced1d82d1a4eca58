//! Errors of reading and writing files, and input as messages show it: control
//! characters escaped, so that a hostile file name or line cannot move the cursor, clear the
//! screen or forge a line of output.

use std::borrow::Cow;
use std::path::{Path, PathBuf};

/// `error`, an error of an operation on `path`, with the system's terse message replaced by
/// what it means where that is known: "File exists" from creating a directory where a file
/// is, "Device or resource busy" from replacing a mount point or `.`.
pub fn clear(path: &Path, error: std::io::Error) -> std::io::Error {
    let meta = std::fs::symlink_metadata(path);
    let msg = match error.raw_os_error() {
        Some(libc::EEXIST) | Some(libc::ENOTDIR) if meta.as_ref().is_ok_and(|m| !m.is_dir()) => {
            "exists and is not a directory, but a directory is needed here (name another path)"
        }
        Some(libc::EBUSY) => {
            "cannot be replaced: it is a mount point or the current directory (name a \
             directory below it)"
        }
        _ => return error,
    };
    std::io::Error::new(error.kind(), msg)
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

/// Whether `character` must not reach a terminal raw: C0 and C1 controls, DEL, the Unicode
/// line and paragraph separators, and the bidirectional overrides and isolates (which
/// reorder what follows them on screen).
pub(crate) fn unsafe_char(character: char) -> bool {
    character.is_control()
        || matches!(
            character,
            '\u{2028}' | '\u{2029}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
        )
}

/// `text` with every unsafe character written as an escape (`\t`, `\n`, `\r`, `\0`, or
/// `\u{…}`); borrowed when there is nothing to escape.
pub fn escape(text: &str) -> Cow<'_, str> {
    escape_except(text, None)
}

/// [`escape`], but leaving `keep` as it is (used for multi-line messages: `'\n'`).
pub fn escape_except(text: &str, keep: Option<char>) -> Cow<'_, str> {
    if !text.chars().any(|c| unsafe_char(c) && Some(c) != keep) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if !unsafe_char(c) || Some(c) == keep {
            out.push(c);
            continue;
        }
        match c {
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\0' => out.push_str("\\0"),
            c => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
        }
    }
    Cow::Owned(out)
}

/// A path as shown in messages: lossy UTF-8, unsafe characters escaped.
pub fn shown(path: &Path) -> String {
    escape(&path.to_string_lossy()).into_owned()
}

/// At most `max` characters of `text` (escaped), with `…` when cut: for quoting input
/// values in messages.
pub fn quote(text: &str, max: usize) -> String {
    let cut: String = text.chars().take(max).collect();
    let more = if cut.len() < text.len() { "…" } else { "" };
    format!("{}{more}", escape(&cut))
}

/// `:LINE` after a file name in a message, or nothing for line 0 (the file as a whole).
pub fn at_line(line: u64) -> String {
    if line == 0 {
        String::new()
    } else {
        format!(":{line}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_controls_and_bidi_only() {
        assert_eq!(escape("plain äöü 中文"), "plain äöü 中文");
        assert_eq!(escape("a\tb\nc\rd\0e"), "a\\tb\\nc\\rd\\0e");
        assert_eq!(escape("\u{1b}[2J"), "\\u{1b}[2J");
        assert_eq!(escape("x\u{202e}y\u{85}"), "x\\u{202e}y\\u{85}");
        assert_eq!(escape_except("a\nb\u{7}", Some('\n')), "a\nb\\u{7}");
        assert_eq!(quote("abcdef", 3), "abc…");
        assert_eq!(quote("ab", 3), "ab");
    }
}
