//! Line-oriented readers for corpus files, plain or gzip-compressed.
//!
//! [`LineReader`] yields one line at a time (streaming, constant memory), strips the
//! line terminator (`\n` or `\r\n`) and a UTF-8 byte-order mark on line 1, checks
//! UTF-8, and computes the SHA-256 and size of the file's bytes as it goes, so the
//! manifest can record what was read without a second pass. Gzip is recognised by
//! its magic bytes, not by the file name; concatenated gzip members are read as one
//! stream.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use flate2::read::MultiGzDecoder;
use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::error::{Error, Result};

/// Size and checksum of a file that has been read to its end.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct FileInfo {
    /// The path as given.
    pub path: PathBuf,
    /// Size of the file on disk, in bytes (compressed size for `.gz`).
    pub bytes: u64,
    /// Lowercase hex SHA-256 of the file's bytes on disk.
    pub sha256: String,
    /// Number of lines read (for CoNLL-U: number of sentences).
    pub lines: u64,
}

/// A reader that hashes and counts every byte it passes on.
struct HashingReader<R> {
    inner: R,
    hasher: Sha256,
    bytes: u64,
}

impl<R: Read> Read for HashingReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.hasher.update(&buf[..n]);
        self.bytes += n as u64;
        Ok(n)
    }
}

type Raw = BufReader<HashingReader<File>>;

enum Source {
    Plain(Raw),
    Gzip(Box<BufReader<MultiGzDecoder<Raw>>>),
}

/// Raw byte lines of a plain or gzip file, with line numbers and checksum.
pub(crate) struct ByteLines {
    path: PathBuf,
    source: Source,
    line_no: u64,
}

/// Buffer size for reading files.
const BUF: usize = 1 << 16;

impl ByteLines {
    /// Opens `path`; gzip is detected by its magic bytes.
    pub(crate) fn open(path: &Path) -> Result<Self> {
        let file = File::open(path).map_err(|e| Error::io(path, e))?;
        let mut raw = BufReader::with_capacity(
            BUF,
            HashingReader {
                inner: file,
                hasher: Sha256::new(),
                bytes: 0,
            },
        );
        let head = raw.fill_buf().map_err(|e| Error::io(path, e))?;
        let source = if head.starts_with(&[0x1f, 0x8b]) {
            Source::Gzip(Box::new(BufReader::with_capacity(
                BUF,
                MultiGzDecoder::new(raw),
            )))
        } else {
            Source::Plain(raw)
        };
        Ok(ByteLines {
            path: path.to_path_buf(),
            source,
            line_no: 0,
        })
    }

    /// The file's path.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// Number of lines returned so far (the number of the last line).
    pub(crate) fn line_no(&self) -> u64 {
        self.line_no
    }

    /// Reads the next line into `buf` (cleared first) without its terminator.
    /// Returns `false` at end of file.
    pub(crate) fn next_into(&mut self, buf: &mut Vec<u8>) -> Result<bool> {
        buf.clear();
        Ok(self.append_line(buf)?.is_some())
    }

    /// Appends the next line to `buf` without its terminator (and without a BOM on
    /// line 1); returns the offset in `buf` where it starts, or `None` at end of file.
    pub(crate) fn append_line(&mut self, buf: &mut Vec<u8>) -> Result<Option<usize>> {
        let start = buf.len();
        let res = match &mut self.source {
            Source::Plain(r) => r.read_until(b'\n', buf),
            Source::Gzip(r) => r.read_until(b'\n', buf),
        };
        let n = res.map_err(|e| self.read_error(e))?;
        if n == 0 {
            return Ok(None);
        }
        self.line_no += 1;
        if buf.last() == Some(&b'\n') {
            buf.pop();
            if buf.len() > start && buf.last() == Some(&b'\r') {
                buf.pop();
            }
        }
        if self.line_no == 1 && buf[start..].starts_with(b"\xEF\xBB\xBF") {
            buf.drain(start..start + 3);
        }
        Ok(Some(start))
    }

    fn read_error(&self, e: io::Error) -> Error {
        let line = self.line_no + 1;
        match (&self.source, e.kind()) {
            (Source::Gzip(_), io::ErrorKind::UnexpectedEof | io::ErrorKind::InvalidInput)
            | (Source::Gzip(_), io::ErrorKind::InvalidData) => Error::input(
                &self.path,
                line,
                format!("truncated or corrupt gzip stream ({e})"),
            ),
            _ => Error::io(&self.path, e),
        }
    }

    /// Checks that `bytes` (line [`Self::line_no`]) is UTF-8 and returns it as `&str`.
    pub(crate) fn utf8<'b>(&self, bytes: &'b [u8]) -> Result<&'b str> {
        std::str::from_utf8(bytes).map_err(|e| {
            Error::input(
                &self.path,
                self.line_no,
                format!("invalid UTF-8 at byte {} of the line", e.valid_up_to() + 1),
            )
        })
    }

    /// Reads to the end of the file (counting the remaining lines) and returns its info.
    pub(crate) fn finish(mut self) -> Result<FileInfo> {
        let mut buf = Vec::new();
        while self.next_into(&mut buf)? {}
        let raw = match self.source {
            Source::Plain(r) => r.into_inner(),
            Source::Gzip(r) => r.into_inner().into_inner().into_inner(),
        };
        Ok(FileInfo {
            path: self.path,
            bytes: raw.bytes,
            sha256: hex(&raw.hasher.finalize()),
            lines: self.line_no,
        })
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

/// A streaming reader of text lines, one corpus sentence per line.
pub struct LineReader {
    inner: ByteLines,
    buf: Vec<u8>,
}

impl LineReader {
    /// Opens a plain or gzip file.
    pub fn open(path: &Path) -> Result<Self> {
        Ok(LineReader {
            inner: ByteLines::open(path)?,
            buf: Vec::new(),
        })
    }

    /// The next line without its terminator, or `None` at end of file.
    pub fn next_line(&mut self) -> Result<Option<&str>> {
        if !self.inner.next_into(&mut self.buf)? {
            return Ok(None);
        }
        self.inner.utf8(&self.buf).map(Some)
    }

    /// The number of the line last returned (1-based).
    pub fn line_no(&self) -> u64 {
        self.inner.line_no()
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        self.inner.path()
    }

    /// Reads the rest of the file and returns its size, checksum and line count.
    pub fn finish(self) -> Result<FileInfo> {
        self.inner.finish()
    }
}

/// Reads all lines of a (plain or gzip) file into memory; for small files and tests.
pub fn read_lines(path: &Path) -> Result<Vec<String>> {
    let mut r = LineReader::open(path)?;
    let mut out = Vec::new();
    while let Some(l) = r.next_line()? {
        out.push(l.to_string());
    }
    Ok(out)
}
