//! What a report of a sets directory shows, read in one step once its sample is drawn:
//! the reordering measures, the sampled lines of every set (each file checked against the
//! manifest's record as it is read), and the systems' outputs at the sampled corpus lines
//! (each read only if it is the file scored).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::select::{open_corpus_long, read_needed_hashed, read_selected};
use super::sets::{read_recorded, reorder_measures, Loaded};
use crate::error::Result;
use crate::format::reorder::Measure;

/// One set's sample to read: a unit of the loaded directory and the positions (1-based,
/// in the set) of its sampled lines, sorted.
#[derive(Debug, Clone)]
pub struct Pick {
    /// The unit (an index into [`Loaded::units`]).
    pub unit: usize,
    /// Sorted positions in the set.
    pub positions: Vec<u32>,
}

/// A system's output to read: its file and the SHA-256 recorded when it was scored.
#[derive(Debug, Clone, Copy)]
pub struct Output<'a> {
    /// The output file (as scores.json names it).
    pub path: &'a Path,
    /// The SHA-256 scores.json records for it.
    pub sha256: &'a str,
}

/// What was read of a system's output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OutputLines {
    /// Not the file scored (its SHA-256 differs): not read.
    Changed,
    /// The lines at the wanted corpus ids (in order), and the file's line count.
    Lines(Vec<String>, u64),
}

/// Everything [`read`] read.
#[derive(Debug)]
pub struct Shown {
    /// The per-line reordering file read and its measures, when the run has one.
    pub measures: Option<(PathBuf, Vec<Measure>)>,
    /// For each pick, its marked source and target lines (the target marked for reorder
    /// sets) by position.
    pub lines: Vec<(BTreeMap<u32, String>, BTreeMap<u32, String>)>,
    /// For each output, in order, what was read of it.
    pub outputs: Vec<OutputLines>,
}

/// Reads the reordering measures of `loaded`, the lines of every pick's set files, and each
/// output's lines at the corpus ids `ids` (sorted).
pub fn read(loaded: &Loaded, picks: &[Pick], ids: &[u32], outputs: &[Output]) -> Result<Shown> {
    let measures = reorder_measures(loaded)?;
    let mut lines = Vec::with_capacity(picks.len());
    for pick in picks {
        let set = &loaded.units[pick.unit].set;
        let sorted = &pick.positions;
        let read = |rel: &str| -> Result<BTreeMap<u32, String>> {
            let (_, lines) = read_recorded(&loaded.manifest, &loaded.dir, rel, |p| {
                read_needed_hashed(p, sorted)
            })?;
            Ok(sorted.iter().copied().zip(lines).collect())
        };
        let source = read(&set.files.marked)?;
        let target = read(
            set.files
                .marked_target
                .as_deref()
                .unwrap_or(&set.files.target),
        )?;
        lines.push((source, target));
    }
    let mut read_outputs = Vec::with_capacity(outputs.len());
    for o in outputs {
        // The file is read only if it is the one scored: its path comes from scores.json,
        // which must not be trusted to name any file.
        // Only a regular file is hashed: opening a pipe would wait for a writer.
        let scored = (o.path.is_file())
            .then(|| ldd_io::sha256_file(o.path).ok().map(|(sha, _)| sha))
            .flatten();
        if scored.as_deref() != Some(o.sha256) {
            read_outputs.push(OutputLines::Changed);
            continue;
        }
        let input = open_corpus_long(o.path, loaded.manifest.corpus.lines, &loaded.manifest_path)?;
        let (lines, n) = read_selected(input, ids)?;
        read_outputs.push(OutputLines::Lines(lines, n));
    }
    Ok(Shown {
        measures,
        lines,
        outputs: read_outputs,
    })
}
