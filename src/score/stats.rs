//! Per-line sufficient statistics of a system's output, computed once and summed for any
//! set of lines (sacreBLEU's approach: statistics per segment, then aggregation).

use std::path::{Path, PathBuf};

use ldd_eval::metric::Metrics;
use ldd_eval::{MeanStats, MetricDef, PerLine};
use ldd_io::Input;
use rayon::prelude::*;

use crate::error::{Error, Result};

/// Per-line statistics of one system: a column per metric, in the order asked for.
#[derive(Debug)]
pub struct LineStats {
    /// `columns[m]`: the statistics of metric `m` for every corpus line.
    pub columns: Vec<PerLine>,
    /// The lines of the output, then of each reference, that end in a tokenized period
    /// (` .`), as sacreBLEU counts them ([`looks_tokenized`]).
    pub tokenized: Vec<u64>,
}

/// Whether lines counted by [`LineStats::tokenized`] make a file look tokenized: sacreBLEU
/// 2.4.3 warns from 100 lines that end in ` .` (BLEU's `_extract_corpus_statistics`).
pub fn looks_tokenized(lines: u64) -> bool {
    lines >= 100
}

/// Lines read per round when computing statistics.
const STAT_CHUNK: usize = 4096;
/// Lines per parallel task within a round.
const TASK_LINES: usize = 256;

/// Computes per-line statistics of `hyp` against `references` (the first is the corpus
/// reference; each has one line per corpus line) for each of `defs`, configured by
/// `metrics`, streaming every file in lockstep; no file is read past the corpus's lines
/// (`corpus`: their count and the manifest recording it), so an endless `hyp` (a pipe) is
/// refused at its first line too many. Returns the statistics, the number of lines of the
/// hypothesis and of the references (equal unless the files differ in length, in which
/// case statistics are partial) and the SHA-256 of `hyp`.
pub fn line_stats(
    hyp: &Path,
    references: &[PathBuf],
    defs: &[&MetricDef],
    metrics: &Metrics,
    corpus: (u64, &Path),
) -> Result<(LineStats, u64, u64, String)> {
    let (lines, manifest) = corpus;
    let why = crate::pipeline::read::select::corpus_long(lines, manifest);
    let mut h = Input::open_once(hyp)?.limit_lines(lines, why.clone());
    let mut refs: Vec<Input> = references
        .iter()
        .map(|r| Ok(Input::open(r)?.limit_lines(lines, why.clone())))
        .collect::<Result<_>>()?;
    let mut out = LineStats {
        columns: defs.iter().map(|m| m.empty(metrics)).collect(),
        tokenized: vec![0; 1 + references.len()],
    };
    let mut done: u64 = 0;
    let mut pairs: Vec<(String, Vec<String>)> = Vec::with_capacity(STAT_CHUNK);
    loop {
        pairs.clear();
        let ended = match read_chunk(&mut h, &mut refs, &mut out.tokenized, &mut pairs)? {
            Chunk::Full => false,
            Chunk::Ended => true,
            Chunk::Uneven => {
                // One file ended first: count all to the end for the error.
                let hi = h.finish()?;
                let mut ri = 0;
                for (k, r) in refs.into_iter().enumerate() {
                    let n = r.finish()?.lines;
                    if k == 0 {
                        ri = n;
                    }
                }
                return Ok((out, hi.lines, ri, hi.sha256));
            }
        };
        let columns = chunk_stats(&pairs, defs, metrics, &references[0], done)?;
        for task in columns {
            for (col, part) in out.columns.iter_mut().zip(task) {
                col.append(part);
            }
        }
        done += pairs.len() as u64;
        if ended {
            let sha256 = h.finish()?.sha256;
            return Ok((out, done, done, sha256));
        }
    }
}

/// How reading a chunk of line pairs ended.
enum Chunk {
    /// The chunk is full; more lines may follow.
    Full,
    /// Every file ended together.
    Ended,
    /// One file ended before another.
    Uneven,
}

/// Reads up to `STAT_CHUNK` pairs (an output line and its references) into `pairs`,
/// counting the lines that look tokenized (` .` at the end) per file into `tokenized`.
fn read_chunk(
    hyp: &mut Input,
    refs: &mut [Input],
    tokenized: &mut [u64],
    pairs: &mut Vec<(String, Vec<String>)>,
) -> Result<Chunk> {
    while pairs.len() < STAT_CHUNK {
        let hl = hyp.next_line()?.map(str::to_string);
        let mut rl = Vec::with_capacity(refs.len());
        for r in refs.iter_mut() {
            rl.push(r.next_line()?.map(str::to_string));
        }
        match (
            hl,
            rl.iter().all(Option::is_some),
            rl.iter().all(Option::is_none),
        ) {
            (Some(a), true, _) => {
                let rl: Vec<String> = rl.into_iter().flatten().collect();
                for (n, l) in tokenized.iter_mut().zip(std::iter::once(&a).chain(&rl)) {
                    *n += u64::from(l.ends_with(" ."));
                }
                pairs.push((a, rl));
            }
            (None, _, true) => return Ok(Chunk::Ended),
            _ => return Ok(Chunk::Uneven),
        }
    }
    Ok(Chunk::Full)
}

/// Every metric's per-line statistics of `pairs` (lines `done + 1`...), in parallel tasks of
/// `TASK_LINES` lines: `[task][metric]`, tasks in line order. An error names the first
/// reference file and the line.
fn chunk_stats(
    pairs: &[(String, Vec<String>)],
    defs: &[&MetricDef],
    metrics: &Metrics,
    reference: &Path,
    done: u64,
) -> Result<Vec<Vec<PerLine>>> {
    // Collected whole, then checked in order: the error reported is the first line's.
    let tasks: Vec<Result<Vec<PerLine>>> = pairs
        .par_chunks(TASK_LINES)
        .enumerate()
        .map(|(t, chunk)| {
            defs.iter()
                .map(|m| {
                    m.stats(metrics, chunk).map_err(|(i, e)| {
                        let line = done + (t * TASK_LINES + i) as u64 + 1;
                        match e {
                            ldd_eval::EvalError::Resource(msg) => Error::Resource(msg),
                            e => Error::input(reference, line, format!("{}: {e}", m.label)),
                        }
                    })
                })
                .collect()
        })
        .collect();
    tasks.into_iter().collect()
}

/// Reads a segment-level score file (`--seg-scores`): one finite number per corpus line
/// (surrounding whitespace ignored). Anything else is an error naming the file and line;
/// a file with another line count than the corpus's (`lines`, recorded in `manifest`) is
/// rejected with both counts.
pub fn read_seg_scores(path: &Path, lines: u64, manifest: &Path) -> Result<Vec<MeanStats>> {
    let expected = format!(
        "the corpus has {lines} lines ({}); a --seg-scores file has one score per corpus line",
        ldd_io::error::shown(manifest)
    );
    Ok(read_numbers(path, lines, &expected)?
        .into_iter()
        .map(MeanStats::one)
        .collect())
}

/// The largest magnitude of a score read (a segment score or a contrastive score): far
/// beyond any metric's or log-probability's, and small enough that sums and sums of
/// squares over any corpus stay finite.
pub const MAX_SCORE: f64 = 1e15;

/// The numbers of a file of one finite number per line (surrounding spaces ignored),
/// which must have `lines` lines; `expected` says why, after "has N lines but".
pub fn read_numbers(path: &Path, lines: u64, expected: &str) -> Result<Vec<f64>> {
    // No line past `lines` is read: an endless file is refused there.
    let mut input = Input::open(path)?.limit_lines(lines, expected);
    let mut out = Vec::new();
    while let Some(line) = input.next_line()? {
        let n = out.len() as u64 + 1;
        let text = line.trim();
        let v: f64 = text.parse().map_err(|_| {
            Error::input(
                path,
                n,
                format!(
                    "not a number: `{}` (one score per line)",
                    ldd_io::error::quote(text, 40)
                ),
            )
        })?;
        if !v.is_finite() || v.abs() > MAX_SCORE {
            return Err(Error::input(
                path,
                n,
                format!(
                    "not a finite number of at most {MAX_SCORE:e} in magnitude: `{}` (sums of \
                     larger scores overflow)",
                    ldd_io::error::quote(text, 40)
                ),
            ));
        }
        out.push(v);
    }
    let got = out.len() as u64;
    if got != lines {
        return Err(Error::Data(format!(
            "{}: has {got} lines but {expected}",
            ldd_io::error::shown(path)
        )));
    }
    Ok(out)
}
