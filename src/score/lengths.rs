//! The source length of every corpus line, as extraction measured it, for the
//! set-vs-controls test's length strata ([`ldd_eval::strata`]).
//!
//! A sets directory does not keep its corpus's lengths, so `score` measures them again the
//! way extraction did (`pipeline::detect::line`): the source, the target and the CoNLL-U
//! parse the manifest records, read in lockstep; a line's length is the number of UD words
//! of its tree, 0 when its source or target line is empty. The three files must be the
//! ones extraction read (the SHA-256 and line counts the manifest records); the target
//! side is the reference `score` checked. When one of them cannot be read from where the
//! manifest says (a relative path from another directory, a parse cache removed) or has
//! changed, there are no strata and the test falls back to the written controls
//! ([`Lengths::Unavailable`] says why).

use std::path::Path;

use rayon::prelude::*;

use super::Loaded;
use crate::error::Result;
use crate::pipeline::read::lockstep::{Line, Lockstep};

/// Lines parsed per parallel chunk.
const CHUNK_LINES: usize = 2048;

/// The corpus's source lengths, or why they could not be measured.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Lengths {
    /// Source length (UD words; 0: empty line) of every corpus line.
    Measured(Vec<u32>),
    /// Why they could not be measured.
    Unavailable(String),
}

/// The source length of every line of `loaded`'s corpus, read from the files its manifest
/// records (the target side at `reference`, already checked); see the module docs.
pub fn source_lengths(loaded: &Loaded, reference: &Path) -> Lengths {
    match read_lengths(loaded, reference) {
        Ok(Ok(lengths)) => Lengths::Measured(lengths),
        Ok(Err(why)) => Lengths::Unavailable(why),
        Err(e) => Lengths::Unavailable(e.to_string()),
    }
}

/// The lengths, or (inner) why the files read are not extraction's.
fn read_lengths(
    loaded: &Loaded,
    reference: &Path,
) -> Result<std::result::Result<Vec<u32>, String>> {
    let inputs = &loaded.manifest.inputs;
    let mut input = Lockstep::open(&inputs.source.path, reference, &inputs.conllu.path)?;
    let conllu = input.conllu_path().to_path_buf();
    let mut lengths: Vec<u32> = Vec::with_capacity(loaded.manifest.corpus.lines as usize);
    let mut lines: Vec<Line> = (0..CHUNK_LINES).map(|_| Line::default()).collect();
    let mut done = false;
    while !done {
        let mut n = 0;
        while n < CHUNK_LINES {
            if !input.next(&mut lines[n])? {
                done = true;
                break;
            }
            n += 1;
        }
        let chunk: Vec<Result<u32>> = lines[..n]
            .par_iter()
            .map(|l| line_length(l, &conllu))
            .collect();
        for len in chunk {
            lengths.push(len?);
        }
    }
    let [source, _, parse] = input.finish()?;
    for (got, want) in [(&source, &inputs.source), (&parse, &inputs.conllu)] {
        if got.sha256 != want.sha256 || got.lines != want.lines {
            return Ok(Err(format!(
                "{} is not the file extract read (sha256 {}, manifest: {})",
                ldd_io::error::shown(&got.path),
                got.sha256,
                want.sha256
            )));
        }
    }
    Ok(Ok(lengths))
}

/// A line's source length: its tree's UD words, 0 when the source or target is empty.
fn line_length(line: &Line, conllu: &Path) -> Result<u32> {
    if line.source.trim().is_empty() || line.target.trim().is_empty() {
        return Ok(0);
    }
    let tree = ldd_conllu::parse_block(&line.block, conllu)?;
    Ok(tree.len() as u32)
}
