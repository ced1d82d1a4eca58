//! Pharaoh alignment format: one line per sentence pair, links `i-j` separated by spaces.

use std::fmt::Write as _;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use crate::error::{AlignError, Result};
use crate::{Alignment, Link};

/// Formats links as a Pharaoh line, e.g. `0-0 1-2` (no trailing newline).
pub fn format_line(links: &[Link]) -> String {
    let mut s = String::with_capacity(links.len() * 6);
    for (k, (i, j)) in links.iter().enumerate() {
        if k > 0 {
            s.push(' ');
        }
        let _ = write!(s, "{i}-{j}");
    }
    s
}

fn parse_token(tok: &str) -> Option<Link> {
    let (a, b) = tok.split_once('-')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit());
    if !digits(a) || !digits(b) {
        return None;
    }
    Some((a.parse().ok()?, b.parse().ok()?))
}

fn parse_line_at(
    line: &str,
    path: &Path,
    lineno: usize,
    lens: Option<(usize, usize)>,
) -> Result<Alignment> {
    let mut out = Vec::new();
    for tok in line.split_whitespace() {
        let (i, j) = parse_token(tok).ok_or_else(|| AlignError::MalformedLink {
            path: path.to_path_buf(),
            line: lineno,
            token: tok.to_string(),
        })?;
        if let Some((src_len, tgt_len)) = lens {
            if i >= src_len || j >= tgt_len {
                return Err(AlignError::LinkOutOfRange {
                    path: path.to_path_buf(),
                    line: lineno,
                    token: tok.to_string(),
                    src_len,
                    tgt_len,
                });
            }
        }
        out.push((i, j));
    }
    Ok(out)
}

/// Parses one Pharaoh line (links in file order). Errors report the path `<string>`, line 1.
pub fn parse_line(line: &str) -> Result<Alignment> {
    parse_line_at(line, Path::new("<string>"), 1, None)
}

/// Reads a Pharaoh file (gunzipped if the name ends in `.gz`).
///
/// With `lengths = Some(l)` (one `(source length, target length)` per sentence pair) the file
/// must have exactly `l.len()` lines and every link must lie inside its sentence pair; errors
/// name the file and the 1-based line. A final newline is optional.
pub fn read_file(
    path: impl AsRef<Path>,
    lengths: Option<&[(usize, usize)]>,
) -> Result<Vec<Alignment>> {
    let path = path.as_ref();
    let file = std::fs::File::open(path).map_err(|e| AlignError::io(path, e))?;
    let reader: Box<dyn Read> = if path.extension().is_some_and(|e| e == "gz") {
        Box::new(flate2::read::MultiGzDecoder::new(file))
    } else {
        Box::new(file)
    };
    read_from(BufReader::new(reader), path, lengths)
}

/// Like [`read_file`] but from any reader; `path` is only used in error messages.
pub fn read_from(
    reader: impl BufRead,
    path: impl Into<PathBuf>,
    lengths: Option<&[(usize, usize)]>,
) -> Result<Vec<Alignment>> {
    let path = path.into();
    let lines = reader
        .lines()
        .collect::<std::io::Result<Vec<String>>>()
        .map_err(|e| AlignError::io(&path, e))?;
    if let Some(l) = lengths {
        if lines.len() != l.len() {
            return Err(AlignError::LineCount {
                path,
                expected: l.len(),
                found: lines.len(),
            });
        }
    }
    lines
        .iter()
        .enumerate()
        .map(|(k, line)| parse_line_at(line, &path, k + 1, lengths.map(|l| l[k])))
        .collect()
}
