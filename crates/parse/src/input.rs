//! Reading a corpus file (plain or gzip) line by line.

use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use flate2::read::MultiGzDecoder;

use crate::error::{ParseError, Result};

/// Iterator over the lines of a corpus file, yielding `Result<String>`.
///
/// Gzip input (recognised by its magic bytes, any number of members) is decompressed. The line
/// terminator (`\n`, and a `\r` before it) is removed, and a UTF-8 BOM at the start of line 1.
/// Invalid UTF-8 or a read error yields an error naming the file and the 1-based line; the
/// iterator ends after the first error.
pub struct CorpusLines {
    reader: Box<dyn BufRead + Send>,
    path: PathBuf,
    line: u64,
    buf: Vec<u8>,
    done: bool,
}

impl std::fmt::Debug for CorpusLines {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CorpusLines")
            .field("path", &self.path)
            .field("line", &self.line)
            .finish()
    }
}

/// Opens a corpus file for reading line by line; see [`CorpusLines`].
pub fn read_corpus_lines(path: impl AsRef<Path>) -> Result<CorpusLines> {
    let path = path.as_ref();
    let reader = open_maybe_gz(path)?;
    Ok(CorpusLines {
        reader,
        path: path.to_owned(),
        line: 0,
        buf: Vec::with_capacity(1024),
        done: false,
    })
}

/// Opens `path`, transparently decompressing gzip (detected by magic bytes).
pub(crate) fn open_maybe_gz(path: &Path) -> Result<Box<dyn BufRead + Send>> {
    let file = File::open(path).map_err(|e| ParseError::io("opening", path, e))?;
    let mut reader = BufReader::with_capacity(1 << 16, file);
    let head = reader
        .fill_buf()
        .map_err(|e| ParseError::io("reading", path, e))?;
    if head.starts_with(&[0x1f, 0x8b]) {
        Ok(Box::new(BufReader::with_capacity(
            1 << 16,
            MultiGzDecoder::new(reader),
        )))
    } else {
        Ok(Box::new(reader))
    }
}

/// Counts the lines of a corpus file (a final line without `\n` counts).
pub(crate) fn count_lines(path: &Path) -> Result<u64> {
    let mut reader = open_maybe_gz(path)?;
    let mut buf = vec![0u8; 1 << 16];
    let (mut lines, mut last) = (0u64, b'\n');
    loop {
        let n = reader
            .read(&mut buf)
            .map_err(|e| ParseError::io("reading", path, e))?;
        if n == 0 {
            break;
        }
        lines += buf[..n].iter().filter(|&&b| b == b'\n').count() as u64;
        last = buf[n - 1];
    }
    Ok(lines + u64::from(last != b'\n'))
}

impl Iterator for CorpusLines {
    type Item = Result<String>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        self.buf.clear();
        let line = self.line + 1;
        match self.reader.read_until(b'\n', &mut self.buf) {
            Ok(0) => {
                self.done = true;
                return None;
            }
            Ok(_) => {}
            Err(source) => {
                self.done = true;
                return Some(Err(ParseError::ReadLine {
                    path: self.path.clone(),
                    line,
                    source,
                }));
            }
        }
        self.line = line;
        let mut bytes = &self.buf[..];
        if let Some(b) = bytes.strip_suffix(b"\n") {
            bytes = b;
        }
        if let Some(b) = bytes.strip_suffix(b"\r") {
            bytes = b;
        }
        if line == 1 {
            if let Some(b) = bytes.strip_prefix("\u{feff}".as_bytes()) {
                bytes = b;
            }
        }
        match std::str::from_utf8(bytes) {
            Ok(s) => Some(Ok(s.to_owned())),
            Err(e) => {
                self.done = true;
                Some(Err(ParseError::InvalidUtf8 {
                    path: self.path.clone(),
                    line,
                    offset: e.valid_up_to(),
                }))
            }
        }
    }
}
