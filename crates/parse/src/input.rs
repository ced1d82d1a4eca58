//! Reading a corpus file line by line, through [`ldd_io::Input`].

use std::path::Path;

use ldd_io::Input;

use crate::error::Result;

/// Iterator over the lines of a corpus file (plain or gzip, BOM and CRLF removed, UTF-8
/// checked; see [`ldd_io::Input`]), yielding `Result<String>`. An error names the file and
/// the 1-based line; the iterator ends after the first error.
#[derive(Debug)]
pub struct CorpusLines {
    input: Input,
    done: bool,
}

/// Opens a corpus file for reading line by line; see [`CorpusLines`].
pub fn read_corpus_lines(path: impl AsRef<Path>) -> Result<CorpusLines> {
    Ok(CorpusLines {
        input: Input::open(path.as_ref())?,
        done: false,
    })
}

/// Counts the lines of a corpus file (a final line without `\n` counts).
pub(crate) fn count_lines(path: &Path) -> Result<u64> {
    Ok(Input::open(path)?.finish()?.lines)
}

impl CorpusLines {
    /// Skips up to `max_lines` lines without checking them; returns how many were skipped.
    pub fn skip_lines(&mut self, max_lines: u64) -> Result<u64> {
        Ok(self.input.skip_lines(max_lines)?)
    }
}

impl Iterator for CorpusLines {
    type Item = Result<String>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        match self.input.next_line() {
            Ok(Some(l)) => Some(Ok(l.to_owned())),
            Ok(None) => {
                self.done = true;
                None
            }
            Err(e) => {
                self.done = true;
                Some(Err(e.into()))
            }
        }
    }
}
