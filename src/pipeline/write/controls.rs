//! Control corpora: drawn for every set by the sample stage ([`draw_controls`]) and written
//! to `OUT/<phenomenon>/controls/<bucket>.<k>.{ids,<src>,<tgt>}` with their corpus lines.

use std::io::{BufWriter, Write};
use std::path::Path;

use rayon::prelude::*;

use super::shard::shard_record;
use crate::config::Languages;
use crate::error::{Error, Result};
use crate::format::manifest::ShardRecord;
use crate::format::sets::{ControlFiles, SetControls, SetEntry};
use crate::pipeline::read::lockstep::CorpusFiles;
use crate::pipeline::read::select::{read_ids, read_needed};
use crate::pipeline::sample::{self, ControlOptions};

/// The corpus lines of a group of controls: `ids` (ascending, no repeats) with their
/// source and target lines.
pub struct LineMap<'a> {
    /// The ids.
    pub ids: &'a [u32],
    /// Source line of each id.
    pub source: &'a [String],
    /// Target line of each id.
    pub target: &'a [String],
}

/// Writes one control's three `files` under `root` (`ids` ascending, all in `lines`).
pub fn write_control(
    root: &Path,
    files: &ControlFiles,
    ids: &[u32],
    lines: &LineMap<'_>,
) -> Result<()> {
    let idx: Vec<usize> = ids
        .iter()
        .map(|id| {
            lines
                .ids
                .binary_search(id)
                .map_err(|_| Error::Data(format!("control id {id} missing from the line map")))
        })
        .collect::<Result<_>>()?;
    let write = |rel: &str, line: &dyn Fn(usize) -> String| -> Result<()> {
        let path = root.join(rel);
        ldd_io::fs::create_parent(&path)?;
        let file = ldd_io::fs::create(&path)?;
        let res = (|| -> std::io::Result<()> {
            let mut w = BufWriter::with_capacity(1 << 16, file);
            for j in 0..ids.len() {
                w.write_all(line(j).as_bytes())?;
                w.write_all(b"\n")?;
            }
            w.flush()
        })();
        res.map_err(|e| Error::io(&path, e))
    };
    write(&files.ids, &|j| ids[j].to_string())?;
    write(&files.source, &|j| lines.source[idx[j]].clone())?;
    write(&files.target, &|j| lines.target[idx[j]].clone())?;
    Ok(())
}

/// Draws the controls of every set of `sets` (written under `root`) from a corpus whose
/// lines have source lengths `lengths`, and writes their files with the corpus lines of
/// `corpus` (source, target); also used by `merge`, which draws them for merged shards.
pub fn draw_controls(
    root: &Path,
    sets: &[SetEntry],
    lengths: &[u32],
    corpus: (&Path, &Path),
    languages: &Languages,
    copts: &ControlOptions,
) -> Result<Vec<SetControls>> {
    if copts.count == 0 {
        return Ok(Vec::new());
    }
    if u32::try_from(lengths.len()).is_err() {
        return Err(Error::Data(format!(
            "{}: {} lines; controls support at most {} lines",
            ldd_io::error::shown(corpus.0),
            lengths.len(),
            u32::MAX
        )));
    }
    let sizes: Vec<u64> = sets.iter().map(|s| s.sentences).collect();
    let exts = (languages.source(), languages.target());
    let mut entries = Vec::with_capacity(sets.len());
    for g in sample::groups(&sizes, copts.count) {
        let mut sampled: Vec<sample::Sampled> = sets[g]
            .par_iter()
            .map(|s| {
                let ids = read_ids(&root.join(&s.files.ids))?;
                sample::sample_set(&s.phenomenon, &s.bucket, &ids, lengths, copts)
            })
            .collect::<Result<_>>()?;
        let mut union: Vec<u32> = sampled
            .iter()
            .flat_map(|s| s.controls.iter().flatten().copied())
            .collect();
        union.sort_unstable();
        union.dedup();
        if !union.is_empty() {
            let source = read_needed(corpus.0, &union)?;
            let target = read_needed(corpus.1, &union)?;
            let map = LineMap {
                ids: &union,
                source: &source,
                target: &target,
            };
            for s in &mut sampled {
                for (k, ids) in s.controls.iter().enumerate() {
                    let files = ControlFiles::new(&s.entry.prefix, k + 1, exts);
                    write_control(root, &files, ids, &map)?;
                    s.entry.files.push(files);
                }
            }
        }
        entries.extend(sampled.into_iter().map(|s| s.entry));
    }
    Ok(entries)
}

/// The controls of the `written` sets, drawn from `corpus` (whose lines have source
/// lengths `lengths`) with `controls`; or, for a shard, none but its record (`merge` draws
/// them over the whole corpus).
pub fn controls_or_record(
    root: &Path,
    corpus: &CorpusFiles,
    languages: &Languages,
    controls: &ControlOptions,
    written: &[SetEntry],
    lengths: &[u32],
) -> Result<(Vec<SetControls>, Option<ShardRecord>)> {
    Ok(match &corpus.shard {
        Some(s) => {
            let record = shard_record(root, s, lengths, &corpus.conllu, controls)?;
            (Vec::new(), Some(record))
        }
        None => {
            let files = (corpus.source.as_path(), corpus.target.as_path());
            let drawn = draw_controls(root, written, lengths, files, languages, controls)?;
            (drawn, None)
        }
    })
}
