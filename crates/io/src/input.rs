//! The one way ldd-sets reads a file: [`Input`].
//!
//! Whatever the file holds (a corpus side, CoNLL-U, alignments, aligner training data, a
//! downloaded corpus, a system output, a configuration), it is opened by [`Input::open`]
//! (or, for an archive member, [`Input::from_reader`]) and read line by line:
//!
//! - gzip is recognised by its magic bytes, not by the file name, and concatenated gzip
//!   members are read as one stream; corrupt or truncated gzip data is reported as such,
//!   with the line where it was found;
//! - a line ends at `\n`; the terminator is removed, with a `\r` before it, and a final
//!   `\r` at the end of the file (a CRLF file whose last line lost its `\n`); a UTF-8
//!   byte-order mark at the start of line 1 is removed;
//! - text is checked to be UTF-8, and an invalid byte is reported with file, line and byte;
//! - no line may exceed [`MAX_LINE_BYTES`], so memory stays bounded whatever the input;
//! - the SHA-256 and size of the file's bytes as stored (compressed, for gzip) are computed
//!   on the fly, so [`Input::finish`] describes the file without a second read.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use flate2::read::MultiGzDecoder;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::error::{Error, Result};

/// The longest line accepted, in bytes (after decompression, without its terminator):
/// 1 MiB. A longer line is an error naming file and line.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// The path that stands for standard input (`--hyp -`; see [`crate::stdin`]).
pub const STDIN: &str = "-";

/// Whether `path` stands for standard input.
pub fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == STDIN
}

/// The temporary copy of standard input while a [`crate::StdinCopy`] holds one.
static STDIN_COPY: std::sync::Mutex<Option<PathBuf>> = std::sync::Mutex::new(None);

/// Sets the copy of standard input to `to` — when `from` is given, only if it is still
/// that copy.
pub(crate) fn set_stdin_copy(from: Option<&Path>, to: Option<PathBuf>) {
    let mut copy = STDIN_COPY.lock().unwrap_or_else(|e| e.into_inner());
    if from.is_none_or(|f| copy.as_deref() == Some(f)) {
        *copy = to;
    }
}

/// The file to read for `path`: the copy of standard input for `-` (an error when the
/// command has not read it: the option takes a file), else `path` itself.
fn file_of(path: &Path) -> Result<PathBuf> {
    if !is_stdin(path) {
        return Ok(path.to_path_buf());
    }
    match STDIN_COPY
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .as_ref()
    {
        Some(p) => Ok(p.clone()),
        None => Err(Error::io(
            path,
            io::Error::new(
                io::ErrorKind::InvalidInput,
                "standard input is read only for a system's output (--hyp -); give a file",
            ),
        )),
    }
}

/// Size of the read buffers.
const BUF: usize = 1 << 16;

/// A contiguous range of corpus lines: `first..first + count`, 1-based.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct LineRange {
    /// First line (1-based).
    pub first: u64,
    /// Number of lines (may be 0).
    pub count: u64,
}

impl LineRange {
    /// The line after the range.
    pub fn end(&self) -> u64 {
        self.first + self.count
    }
}

/// Size and checksum of a file that has been read to its end.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct FileInfo {
    /// The path as given.
    pub path: PathBuf,
    /// Size of the file as stored, in bytes (the compressed size for gzip).
    pub bytes: u64,
    /// Lowercase hex SHA-256 of the file's bytes as stored.
    pub sha256: String,
    /// Number of lines (for CoNLL-U: number of sentences, set by the reader).
    pub lines: u64,
}

/// Passes bytes on while hashing and counting them; remembers whether the underlying
/// read failed (to tell a disk error from corrupt gzip data).
struct Hashing<R> {
    inner: R,
    hasher: Sha256,
    bytes: u64,
    failed: bool,
}

impl<R: Read> Read for Hashing<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self.inner.read(buf) {
            Ok(n) => {
                self.hasher.update(&buf[..n]);
                self.bytes += n as u64;
                Ok(n)
            }
            Err(e) => {
                self.failed = e.kind() != io::ErrorKind::Interrupted;
                Err(e)
            }
        }
    }
}

type Raw<R> = BufReader<Hashing<R>>;

enum Decoded<R: Read> {
    Plain(Raw<R>),
    Gzip(Box<BufReader<MultiGzDecoder<Raw<R>>>>),
}

/// A file read line by line; see the module docs.
pub struct Input<R: Read = File> {
    path: PathBuf,
    reader: Decoded<R>,
    line_no: u64,
    max_line: usize,
    buf: Vec<u8>,
    /// The most lines the file may have, and why ([`Input::limit_lines`]).
    limit: Option<(u64, String)>,
}

/// A count of lines that stopped early ([`Input::count_rest_up_to`]): exact, or known only
/// to exceed a bound. Shown as `40` or `more than 40`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Counted {
    /// The file has exactly this many lines.
    Exactly(u64),
    /// The file has more than this many lines (it was not read further).
    MoreThan(u64),
}

impl std::fmt::Display for Counted {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Counted::Exactly(n) => write!(formatter, "{n}"),
            Counted::MoreThan(n) => write!(formatter, "more than {n}"),
        }
    }
}

impl<R: Read> std::fmt::Debug for Input<R> {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("Input")
            .field("path", &self.path)
            .field("line_no", &self.line_no)
            .finish()
    }
}

impl Input<File> {
    /// Opens a plain or gzip regular file (`-`: the copy of standard input a
    /// [`crate::StdinCopy`] holds). A directory, a pipe (FIFO) or a device is
    /// refused before it is opened (ldd-sets reads most inputs more than once, and a pipe
    /// can be read only once; opening one would wait for a writer).
    pub fn open(path: &Path) -> Result<Input<File>> {
        Self::open_checked(path, false)
    }

    /// Opens a file that is read once, from start to end: a pipe is accepted too (e.g.
    /// a system output given as `<(command)`).
    pub fn open_once(path: &Path) -> Result<Input<File>> {
        Self::open_checked(path, true)
    }

    fn open_checked(path: &Path, pipe_ok: bool) -> Result<Input<File>> {
        use std::os::unix::fs::FileTypeExt;
        if is_stdin(path) {
            let copy = file_of(path)?;
            let file = File::open(&copy).map_err(|e| Error::io(path, e))?;
            return Input::from_reader(path, file);
        }
        let meta = std::fs::metadata(path).map_err(|e| Error::io(path, e))?;
        let t = meta.file_type();
        let what = if t.is_dir() {
            Some("a directory")
        } else if t.is_fifo() && !pipe_ok {
            Some("a pipe (FIFO)")
        } else if t.is_char_device() || t.is_block_device() {
            Some("a device")
        } else if t.is_socket() {
            Some("a socket")
        } else {
            None
        };
        if let Some(what) = what {
            return Err(Error::io(
                path,
                io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!("is {what}, not a regular file; write it to a file first"),
                ),
            ));
        }
        let file = File::open(path).map_err(|e| Error::io(path, e))?;
        Input::from_reader(path, file)
    }
}

impl<R: Read> Input<R> {
    /// Reads `reader` (plain or gzip, detected by content); `name` is used in messages
    /// and in [`FileInfo::path`].
    pub fn from_reader(name: &Path, reader: R) -> Result<Input<R>> {
        let mut raw = BufReader::with_capacity(
            BUF,
            Hashing {
                inner: reader,
                hasher: Sha256::new(),
                bytes: 0,
                failed: false,
            },
        );
        let head = raw.fill_buf().map_err(|e| Error::io(name, e))?;
        let reader = if head.starts_with(&[0x1f, 0x8b]) {
            Decoded::Gzip(Box::new(BufReader::with_capacity(
                BUF,
                MultiGzDecoder::new(raw),
            )))
        } else {
            Decoded::Plain(raw)
        };
        Ok(Input {
            path: name.to_path_buf(),
            reader,
            line_no: 0,
            max_line: MAX_LINE_BYTES,
            buf: Vec::new(),
            limit: None,
        })
    }

    /// Stops at the line after the first `lines`: reading it (by any method, counting
    /// included) is an error naming the file and that line, with `why` — what says the
    /// file has no more lines (the corpus's count, say). An endless input (a pipe, a file
    /// still growing) or a far longer one is thus refused at its first line too many, not
    /// read to its end.
    pub fn limit_lines(mut self, lines: u64, why: impl Into<String>) -> Self {
        self.limit = Some((lines, why.into()));
        self
    }

    /// The error for the line past the limit.
    fn past_limit(&self) -> Error {
        let (lines, why) = self
            .limit
            .as_ref()
            .map_or((0, ""), |(n, w)| (*n, w.as_str()));
        Error::input(
            &self.path,
            lines + 1,
            format!("more lines than the {lines} expected: {why}"),
        )
    }

    /// Sets a different line-length limit (bytes).
    pub fn with_max_line(mut self, max: usize) -> Self {
        self.max_line = max;
        self
    }

    /// The path (or name) of the input.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Number of lines returned so far (the number of the last line).
    pub fn line_no(&self) -> u64 {
        self.line_no
    }

    /// Whether the file is gzip-compressed.
    pub fn is_gzip(&self) -> bool {
        matches!(self.reader, Decoded::Gzip(_))
    }

    fn buffered(&mut self) -> &mut dyn BufRead {
        match &mut self.reader {
            Decoded::Plain(r) => r,
            Decoded::Gzip(r) => r.as_mut(),
        }
    }

    /// The error for a failed read at line `line`.
    fn read_error(&self, error: io::Error, line: u64) -> Error {
        match &self.reader {
            Decoded::Gzip(r) if !r.get_ref().get_ref().get_ref().failed => Error::input(
                &self.path,
                line,
                format!("truncated or corrupt gzip data ({error})"),
            ),
            _ => Error::io(&self.path, error),
        }
    }

    /// Appends the next line to `out` without its terminator (and without a BOM on line
    /// 1), unchecked for UTF-8; returns the offset in `out` where it starts, or `None` at
    /// the end of the file.
    pub fn append_line(&mut self, out: &mut Vec<u8>) -> Result<Option<usize>> {
        let start = out.len();
        let line = self.line_no + 1;
        let max = self.max_line;
        let got = match take_line(self.buffered(), out, max) {
            Ok(got) => got,
            Err(e) => return Err(self.read_error(e, line)),
        };
        if !matches!(got, Taken::Nothing) && self.limit.as_ref().is_some_and(|(n, _)| line > *n) {
            return Err(self.past_limit());
        }
        match got {
            Taken::Nothing => return Ok(None),
            Taken::TooLong(len) => {
                return Err(Error::input(
                    &self.path,
                    line,
                    format!("line is longer than the limit of {max} bytes (at least {len})"),
                ))
            }
            Taken::Line => {}
        }
        self.line_no = line;
        if out.last() == Some(&b'\n') {
            out.pop();
        }
        if out.len() > start && out.last() == Some(&b'\r') {
            out.pop();
        }
        if out.len() - start > max {
            let len = out.len() - start;
            return Err(Error::input(
                &self.path,
                line,
                format!("line is longer than the limit of {max} bytes ({len})"),
            ));
        }
        if line == 1 && out[start..].starts_with(b"\xEF\xBB\xBF") {
            out.drain(start..start + 3);
        }
        Ok(Some(start))
    }

    /// The next line without its terminator, checked to be UTF-8, or `None` at the end.
    pub fn next_line(&mut self) -> Result<Option<&str>> {
        let mut buf = std::mem::take(&mut self.buf);
        buf.clear();
        let got = self.append_line(&mut buf);
        self.buf = buf;
        if got?.is_none() {
            return Ok(None);
        }
        if let Err(e) = std::str::from_utf8(&self.buf) {
            let (line, at) = (self.line_no, e.valid_up_to());
            return Err(self.utf8_error(line, at));
        }
        Ok(std::str::from_utf8(&self.buf).ok())
    }

    /// The error for invalid UTF-8 at byte `offset` (0-based) of line `line`. In a gzip
    /// file the rest of the data is read first: gzip's checksum is checked only at the end
    /// of the data, and damaged data decodes to bytes that are rarely UTF-8, so a failing
    /// checksum is reported as corrupt gzip data, not as a text error.
    pub fn utf8_error(&mut self, line: u64, offset: usize) -> Error {
        if self.is_gzip() {
            let mut sink = vec![0u8; 1 << 16];
            loop {
                match self.buffered().read(&mut sink) {
                    Ok(0) => break,
                    Ok(_) => {}
                    Err(e) => {
                        let e = self.read_error(e, line);
                        return match e {
                            Error::Input { path, line, msg } => Error::Input {
                                path,
                                line,
                                msg: format!(
                                    "{msg}; the damage shows first in this line, which \
                                     decodes to invalid UTF-8 at byte {}",
                                    offset + 1
                                ),
                            },
                            other => other,
                        };
                    }
                }
            }
        }
        Error::input(
            &self.path,
            line,
            format!("invalid UTF-8 at byte {} of the line", offset + 1),
        )
    }

    /// Skips up to `max_lines` lines without holding them (and without checking them: the
    /// lines of another shard are checked by that shard); returns how many were skipped
    /// (fewer at the end of the file). A final line without terminator counts.
    pub fn skip_lines(&mut self, max_lines: u64) -> Result<u64> {
        if let Some(room) = self
            .limit
            .as_ref()
            .map(|(max, _)| max.saturating_sub(self.line_no))
        {
            if max_lines > room {
                // Skip to the limit, then the line after it is an error (or the end).
                let skipped = self.skip_lines_unlimited(room)?;
                if skipped < room {
                    return Ok(skipped);
                }
                let mut scratch = Vec::new();
                self.append_line(&mut scratch)?;
                return Ok(skipped);
            }
        }
        self.skip_lines_unlimited(max_lines)
    }

    fn skip_lines_unlimited(&mut self, max_lines: u64) -> Result<u64> {
        let mut skipped = 0u64;
        // Whether bytes of a line have been consumed without its `\n`.
        let mut open = false;
        while skipped < max_lines {
            let res = self.buffered().fill_buf().map(|avail| {
                let want = (max_lines - skipped) as usize;
                match memchr::memchr_iter(b'\n', avail).nth(want - 1) {
                    Some(i) => (i + 1, want as u64, false, avail.is_empty()),
                    None => {
                        let k = memchr::memchr_iter(b'\n', avail).count();
                        (
                            avail.len(),
                            k as u64,
                            avail.last() != Some(&b'\n'),
                            avail.is_empty(),
                        )
                    }
                }
            });
            let (consume, lines, partial, eof) = match res {
                Ok(x) => x,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(self.read_error(e, self.line_no + skipped + 1)),
            };
            if eof {
                skipped += u64::from(open);
                break;
            }
            skipped += lines;
            open = if lines > 0 { partial } else { open || partial };
            self.buffered().consume(consume);
        }
        self.line_no += skipped;
        Ok(skipped)
    }

    /// Reads the rest of the file without holding it and returns the total number of
    /// lines (those returned so far plus those left).
    pub fn count_rest(&mut self) -> Result<u64> {
        match self.limit.as_ref().map(|(n, _)| *n) {
            Some(max) => match self.count_rest_up_to(max)? {
                Counted::Exactly(n) => Ok(n),
                Counted::MoreThan(_) => Err(self.past_limit()),
            },
            None => self.count_rest_unlimited(),
        }
    }

    /// Counts the rest of the file as [`Input::count_rest`] does, but stops once it has
    /// seen more than `max` lines in all: the file's line count, or that it has more than
    /// `max` (then it is not read further). For an error about a file longer than it
    /// should be, without reading an endless one to its end.
    pub fn count_rest_up_to(&mut self, max: u64) -> Result<Counted> {
        if self.line_no > max {
            return Ok(Counted::MoreThan(max));
        }
        let room = max + 1 - self.line_no;
        Ok(match self.skip_lines_unlimited(room)? < room {
            true => Counted::Exactly(self.line_no),
            false => Counted::MoreThan(max),
        })
    }

    fn count_rest_unlimited(&mut self) -> Result<u64> {
        let mut lines = self.line_no;
        // Bytes after the last `\n` seen form a final line without terminator.
        let mut partial = false;
        loop {
            let res = self.buffered().fill_buf().map(|avail| {
                let newlines = memchr::memchr_iter(b'\n', avail).count() as u64;
                (avail.len(), newlines, avail.last() != Some(&b'\n'))
            });
            let (n, newlines, open) = match res {
                Ok(x) => x,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(self.read_error(e, lines + 1)),
            };
            if n == 0 {
                break;
            }
            lines += newlines;
            partial = open;
            self.buffered().consume(n);
        }
        self.line_no = lines + u64::from(partial);
        Ok(self.line_no)
    }

    /// Reads the rest of the file (counting its lines without holding them) and returns
    /// its size, checksum and number of lines.
    pub fn finish(mut self) -> Result<FileInfo> {
        let lines = self.count_rest()?;
        let raw = match self.reader {
            Decoded::Plain(r) => r.into_inner(),
            Decoded::Gzip(r) => r.into_inner().into_inner().into_inner(),
        };
        Ok(FileInfo {
            path: self.path,
            bytes: raw.bytes,
            sha256: hex(&raw.hasher.finalize()),
            lines,
        })
    }
}

/// The decoded bytes (after decompression), bypassing line handling; for archives and copies.
impl<R: Read> Read for Input<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = {
            let avail = self.buffered().fill_buf()?;
            let n = avail.len().min(buf.len());
            buf[..n].copy_from_slice(&avail[..n]);
            n
        };
        self.buffered().consume(n);
        Ok(n)
    }
}

/// What [`take_line`] found.
enum Taken {
    /// End of file before any byte.
    Nothing,
    /// A line (with its `\n`, unless it is the last line of the file).
    Line,
    /// The line exceeds the limit; this many bytes were seen.
    TooLong(usize),
}

/// Moves the next line (with its `\n`) from `reader` to the end of `out`, refusing to hold
/// more than `max` + 2 bytes of it (`\r\n`).
fn take_line(reader: &mut dyn BufRead, out: &mut Vec<u8>, max: usize) -> io::Result<Taken> {
    let start = out.len();
    let mut got_any = false;
    loop {
        let avail = match reader.fill_buf() {
            Ok(a) => a,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if avail.is_empty() {
            return Ok(if got_any { Taken::Line } else { Taken::Nothing });
        }
        got_any = true;
        let (n, newline) = match memchr::memchr(b'\n', avail) {
            Some(i) => (i + 1, true),
            None => (avail.len(), false),
        };
        let len = out.len() - start + n;
        if len > max.saturating_add(2) {
            return Ok(Taken::TooLong(len));
        }
        out.extend_from_slice(&avail[..n]);
        reader.consume(n);
        if newline {
            return Ok(Taken::Line);
        }
    }
}

/// Lowercase hex of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes
        .iter()
        .fold(String::with_capacity(bytes.len() * 2), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        })
}

/// Reads all lines of a (plain or gzip) file into memory; for small files.
pub fn read_lines(path: &Path) -> Result<Vec<String>> {
    let mut r = Input::open(path)?;
    let mut out = Vec::new();
    while let Some(l) = r.next_line()? {
        out.push(l.to_string());
    }
    Ok(out)
}

/// Reads a whole (plain or gzip) text file of at most `max_bytes` decoded bytes, for
/// configuration files: checked to be UTF-8 (an error names the line), BOM removed, line
/// ends kept.
pub fn read_text(path: &Path, max_bytes: u64) -> Result<String> {
    let input = Input::open(path)?;
    let mut bytes = Vec::new();
    let mut limited = input.take(max_bytes + 1);
    limited
        .read_to_end(&mut bytes)
        .map_err(|e| Error::io(path, e))?;
    if bytes.len() as u64 > max_bytes {
        return Err(Error::input(
            path,
            1,
            format!("file is larger than the limit of {max_bytes} bytes"),
        ));
    }
    if bytes.starts_with(b"\xEF\xBB\xBF") {
        bytes.drain(..3);
    }
    String::from_utf8(bytes).map_err(|e| {
        let bytes = e.as_bytes();
        let bad = e.utf8_error().valid_up_to();
        let line = 1 + memchr::memchr_iter(b'\n', &bytes[..bad]).count() as u64;
        let line_start = memchr::memrchr(b'\n', &bytes[..bad]).map_or(0, |p| p + 1);
        Error::input(
            path,
            line,
            format!("invalid UTF-8 at byte {} of the line", bad - line_start + 1),
        )
    })
}

/// SHA-256 (lowercase hex) of `bytes`.
pub fn sha256_bytes(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// SHA-256 (lowercase hex) and size of a file's bytes as stored, read in one pass.
pub fn sha256_file(path: &Path) -> Result<(String, u64)> {
    let file = file_of(path)?;
    let mut f = File::open(file).map_err(|e| Error::io(path, e))?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; BUF];
    let mut total = 0u64;
    loop {
        let n = match f.read(&mut buf) {
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(Error::io(path, e)),
        };
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
        total += n as u64;
    }
    Ok((hex(&hasher.finalize()), total))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(bytes: &[u8]) -> Input<&[u8]> {
        Input::from_reader(Path::new("t"), bytes).unwrap()
    }

    /// Skipping n lines leaves the reader where n calls of `next_line` would, with the same
    /// line number, in every buffer position (tiny reads split lines across fills).
    #[test]
    fn skip_lines_is_next_line_n_times() {
        let texts: [&[u8]; 5] = [
            b"a\nbb\n\nccc\nd",
            b"a\r\nb\r\nc\r\n",
            b"",
            b"one line without newline",
            b"\n\n\n",
        ];
        for text in texts {
            let total = input(text).finish().unwrap().lines;
            for n in 0..=total + 2 {
                let mut a = input(text);
                let mut b = input(text);
                let mut by_next = 0;
                while by_next < n && b.next_line().unwrap().is_some() {
                    by_next += 1;
                }
                assert_eq!(a.skip_lines(n).unwrap(), by_next, "{text:?} n={n}");
                assert_eq!(a.line_no(), b.line_no());
                let (ra, rb) = (
                    a.next_line().unwrap().map(str::to_string),
                    b.next_line().unwrap().map(str::to_string),
                );
                assert_eq!(ra, rb, "{text:?} n={n}");
                assert_eq!(a.finish().unwrap(), b.finish().unwrap());
            }
        }
    }

    /// Reads one byte at a time, so every line spans several buffer fills.
    struct Trickle<'a>(&'a [u8]);

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.0.is_empty() || buf.is_empty() {
                return Ok(0);
            }
            buf[0] = self.0[0];
            self.0 = &self.0[1..];
            Ok(1)
        }
    }

    /// A limit stops every way of reading at the line past it, and counting up to a bound
    /// stops there too.
    #[test]
    fn a_line_limit_stops_reading_at_the_line_past_it() {
        let text = b"a\nb\nc\nd\n";
        let limited = |n| input(text).limit_lines(n, "the corpus has fewer");
        let mut r = limited(2);
        assert_eq!(r.next_line().unwrap(), Some("a"));
        assert_eq!(r.next_line().unwrap(), Some("b"));
        let e = r.next_line().unwrap_err().to_string();
        assert_eq!(
            e,
            "t:3: more lines than the 2 expected: the corpus has fewer"
        );
        assert!(limited(2)
            .finish()
            .unwrap_err()
            .to_string()
            .starts_with("t:3:"));
        assert!(limited(3)
            .skip_lines(10)
            .unwrap_err()
            .to_string()
            .starts_with("t:4:"));
        assert_eq!(limited(4).finish().unwrap().lines, 4);
        assert_eq!(limited(9).skip_lines(10).unwrap(), 4);
        let mut r = input(text);
        assert_eq!(r.count_rest_up_to(2).unwrap(), Counted::MoreThan(2));
        assert_eq!(
            input(text).count_rest_up_to(4).unwrap(),
            Counted::Exactly(4)
        );
        assert_eq!(
            input(b"a\nb").count_rest_up_to(9).unwrap(),
            Counted::Exactly(2)
        );
        assert_eq!(Counted::MoreThan(7).to_string(), "more than 7");
        // An endless reader is refused at its first line too many.
        let lines = std::io::repeat(b'\n');
        let mut r = Input::from_reader(Path::new("yes"), lines)
            .unwrap()
            .limit_lines(1000, "past");
        assert!(r
            .count_rest()
            .unwrap_err()
            .to_string()
            .starts_with("yes:1001:"));
    }

    #[test]
    fn skip_lines_across_buffer_fills() {
        let text = b"alpha\nbeta\ngamma\ndelta";
        for n in 0..=5u64 {
            let mut a = Input::from_reader(Path::new("t"), Trickle(text)).unwrap();
            let skipped = a.skip_lines(n).unwrap();
            assert_eq!(skipped, n.min(4));
            let rest = a.next_line().unwrap().map(str::to_string);
            let want = ["alpha", "beta", "gamma", "delta"]
                .get(n as usize)
                .map(|s| s.to_string());
            assert_eq!(rest, want, "n={n}");
            assert_eq!(a.finish().unwrap().lines, 4);
        }
    }
}
