//! Pharaoh alignment format: one line per sentence pair, links `i-j` separated by spaces.

use std::fmt::Write as _;
use std::path::Path;

use ldd_io::Counted;

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

/// Reads lines `first..first + lengths.len()` (1-based) of a Pharaoh file of `total` lines
/// (the lines of one shard, from the alignments of the whole corpus), checking every link
/// against its sentence pair (`lengths`). Errors name the file and its own line numbers; a
/// file of another length than `total` is an error.
pub fn read_range(
    path: impl AsRef<Path>,
    first: u64,
    lengths: &[(usize, usize)],
    total: u64,
) -> Result<Vec<Alignment>> {
    let path = path.as_ref();
    let mut input = ldd_io::Input::open(path)?;
    input.skip_lines(first.saturating_sub(1))?;
    let mut out = Vec::with_capacity(lengths.len());
    for (k, lens) in lengths.iter().enumerate() {
        let Some(line) = input.next_line()? else {
            break;
        };
        out.push(parse_line_at(line, path, first as usize + k, Some(*lens))?);
    }
    let found = input.count_rest_up_to(total)?;
    if found != Counted::Exactly(total) || out.len() != lengths.len() {
        return Err(AlignError::LineCount {
            path: path.to_path_buf(),
            expected: total as usize,
            found,
        });
    }
    Ok(out)
}

/// Reads a Pharaoh file (plain or gzip, recognised by content, through `ldd_io::Input`).
///
/// With `lengths = Some(l)` (one `(source length, target length)` per sentence pair) the file
/// must have exactly `l.len()` lines and every link must lie inside its sentence pair; errors
/// name the file and the 1-based line. A final newline is optional.
pub fn read_file(
    path: impl AsRef<Path>,
    lengths: Option<&[(usize, usize)]>,
) -> Result<Vec<Alignment>> {
    let path = path.as_ref();
    let mut input = ldd_io::Input::open(path)?;
    let mut out = Vec::new();
    while let Some(line) = input.next_line()? {
        let k = out.len();
        let lens = match lengths {
            Some(l) if k >= l.len() => {
                return Err(AlignError::LineCount {
                    path: path.to_path_buf(),
                    expected: l.len(),
                    found: input.count_rest_up_to(l.len() as u64 + 1)?,
                });
            }
            Some(l) => Some(l[k]),
            None => None,
        };
        out.push(parse_line_at(line, path, k + 1, lens)?);
    }
    if let Some(l) = lengths {
        if out.len() != l.len() {
            return Err(AlignError::LineCount {
                path: path.to_path_buf(),
                expected: l.len(),
                found: Counted::Exactly(out.len() as u64),
            });
        }
    }
    Ok(out)
}
