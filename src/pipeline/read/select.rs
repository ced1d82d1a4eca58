//! Lines chosen by id: a set's `.ids` file, and the corpus lines of a list of ids.

use std::path::Path;

use ldd_io::Input;

use crate::error::{Error, Result};

/// Reads an ids file (1-based corpus line numbers, strictly ascending).
pub fn read_ids(path: &Path) -> Result<Vec<u32>> {
    let mut r = Input::open(path)?;
    let mut ids: Vec<u32> = Vec::new();
    let mut line = 0;
    while let Some(l) = r.next_line()? {
        line += 1;
        ids.push(parse_id(path, line, l, ids.last().copied())?);
    }
    Ok(ids)
}

/// [`read_ids`] and the SHA-256 of the file's bytes as stored, from one read to the end:
/// the ids or the first bad line's error, and the checksum either way, so that a caller
/// holding a recorded checksum can tell a changed file from a bad one.
pub fn read_ids_hashed(path: &Path) -> Result<(Result<Vec<u32>>, String)> {
    let mut r = Input::open(path)?;
    let mut ids: Result<Vec<u32>> = Ok(Vec::new());
    let mut line = 0;
    while let Some(l) = r.next_line()? {
        line += 1;
        if let Ok(v) = &mut ids {
            match parse_id(path, line, l, v.last().copied()) {
                Ok(id) => v.push(id),
                Err(e) => ids = Err(e),
            }
        }
    }
    Ok((ids, r.finish()?.sha256))
}

/// Line `line` of the ids file `path`, `text`, as an id: a number above `last` (the id
/// before it) and above 0.
fn parse_id(path: &Path, line: u64, text: &str, last: Option<u32>) -> Result<u32> {
    let id: u32 = text.trim().parse().map_err(|_| {
        Error::input(
            path,
            line,
            format!("not a line id: `{}`", ldd_io::error::quote(text, 40)),
        )
    })?;
    if id == 0 || last.is_some_and(|p| p >= id) {
        return Err(Error::input(
            path,
            line,
            format!("ids must be positive and strictly ascending: `{id}`"),
        ));
    }
    Ok(id)
}

/// Opens `path`, a file of one line per corpus line (a side of the corpus, a system's
/// output, a further reference), to be read no further than the corpus's `lines`
/// (recorded in `manifest`): its line past them is an error naming it
/// ([`Input::limit_lines`]), so an endless or far longer file is not read to its end.
pub fn open_corpus_long(path: &Path, lines: u64, manifest: &Path) -> Result<Input> {
    Ok(Input::open(path)?.limit_lines(lines, corpus_long(lines, manifest)))
}

/// Why a file of one line per corpus line has no line past the corpus's `lines`.
pub fn corpus_long(lines: u64, manifest: &Path) -> String {
    format!(
        "the corpus has {lines} lines ({}), and this file has one line per corpus line",
        ldd_io::error::shown(manifest)
    )
}

/// Reads `input` to its end and returns the lines with the given 1-based `ids` (strictly
/// ascending), in that order, and the file's line count. If the file is shorter than the
/// largest id, fewer lines than ids are returned: check the count.
pub fn read_selected(mut input: Input, ids: &[u32]) -> Result<(Vec<String>, u64)> {
    select(&mut input, ids)
}

/// [`read_selected`] and the SHA-256 of the file's bytes as stored (as a manifest records
/// its inputs), from one read to the end.
pub fn read_selected_hashed(mut input: Input, ids: &[u32]) -> Result<(Vec<String>, u64, String)> {
    let (lines, n) = select(&mut input, ids)?;
    Ok((lines, n, input.finish()?.sha256))
}

/// The lines of `input` with the given 1-based `ids`, reading to its end, and its line count.
fn select(input: &mut Input, ids: &[u32]) -> Result<(Vec<String>, u64)> {
    let mut out = Vec::with_capacity(ids.len());
    let mut next = ids.iter().peekable();
    let mut no = 0u64;
    while let Some(line) = input.next_line()? {
        no += 1;
        if next.peek().is_some_and(|&&id| u64::from(id) == no) {
            out.push(line.to_string());
            next.next();
        }
    }
    Ok((out, no))
}

/// [`read_selected`], failing if the file lacks some id.
pub fn read_needed(path: &Path, ids: &[u32]) -> Result<Vec<String>> {
    let (lines, n) = read_selected(Input::open(path)?, ids)?;
    needed(path, ids, lines, n)
}

/// [`read_needed`] and the SHA-256 of the file's bytes as stored, from one read to the
/// end (for [`crate::pipeline::read::sets::read_recorded`]).
pub fn read_needed_hashed(path: &Path, ids: &[u32]) -> Result<(Result<Vec<String>>, String)> {
    let mut r = Input::open(path)?;
    let (lines, n) = select(&mut r, ids)?;
    Ok((needed(path, ids, lines, n), r.finish()?.sha256))
}

/// `lines`, the lines of `ids` found in `path` of `total_lines` lines, unless some are missing.
fn needed(path: &Path, ids: &[u32], lines: Vec<String>, total_lines: u64) -> Result<Vec<String>> {
    if lines.len() < ids.len() {
        return Err(Error::Data(format!(
            "{}: has {total_lines} lines but line {} is needed (did the file change during the run?)",
            ldd_io::error::shown(path),
            ids[lines.len()]
        )));
    }
    Ok(lines)
}
