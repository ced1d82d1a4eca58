//! The checked shards joined into one output: the sets and the corpus-wide reordering files
//! concatenated in corpus order, the aligner copied, the counts summed, the whole corpus's
//! parse assembled from the shards' (when they parsed their lines), the controls drawn over
//! the whole corpus, and the merged manifest written.

use ldd_io::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};

use ldd_io::{FileInfo, Staging};
use ldd_parse::{ParseCache, Piece, WholeCorpus};

use super::check::Part;
use crate::error::{Error, Result};
use crate::format::manifest::{
    is_output, CorpusStats, Distances, Inputs, Manifest, MergedShard, MergedShards, ShardRecord,
    Tool,
};
use crate::format::options::{ModelType, ReorderInfo};
use crate::format::reorder::TSV_HEADER;
use crate::format::sets::{SetControls, SetEntry};
use crate::pipeline::read::select::read_ids;
use crate::pipeline::read::sets::{file, resolve};
use crate::pipeline::write::controls::draw_controls;
use crate::pipeline::write::shard::read_lengths;

/// The shards' pair counts per distance, summed (empty when a shard recorded none).
fn merged_distances(parts: &[Part]) -> Vec<Distances> {
    if parts.iter().any(|p| p.manifest.distances.is_empty()) {
        return Vec::new();
    }
    let mut out = parts[0].manifest.distances.clone();
    for p in &parts[1..] {
        for (a, b) in out.iter_mut().zip(&p.manifest.distances) {
            a.merge(b);
        }
    }
    out
}

/// A file of a shard's output, opened for copying: a regular file named by its manifest,
/// inside its directory, as the shard wrote it ([`crate::pipeline::read::sets::file`]).
fn open_part_file(part: &Part, rel: &str) -> Result<(PathBuf, File)> {
    let path = file(&part.manifest, &part.dir, rel)?;
    if ldd_io::fs::kind(&path) != Some(ldd_io::fs::Kind::File) {
        return Err(Error::Data(format!(
            "{}: not a regular file (the shard's output was changed)",
            ldd_io::error::shown(&path)
        )));
    }
    let f = ldd_io::fs::open_raw(&path)?;
    Ok((path, f))
}

/// Writes `root/rel` as the concatenation of `rel` in every shard; with `skip_header`, the
/// first line of every shard but the first is left out and must equal `skip_header`.
fn concatenate(root: &Path, rel: &str, parts: &[Part], skip_header: Option<&str>) -> Result<()> {
    let dest = resolve(root, rel)?;
    ldd_io::fs::create_parent(&dest)?;
    let out = ldd_io::fs::create(&dest)?;
    let mut w = BufWriter::with_capacity(1 << 16, out);
    for (k, p) in parts.iter().enumerate() {
        let (path, f) = open_part_file(p, rel)?;
        let mut r = BufReader::with_capacity(1 << 16, f);
        if let (Some(header), true) = (skip_header, k > 0) {
            let mut first = String::new();
            r.read_line(&mut first).map_err(|e| Error::io(&path, e))?;
            if first.trim_end_matches('\n') != header {
                return Err(Error::input(&path, 1, "not the header of this file"));
            }
        }
        std::io::copy(&mut r, &mut w).map_err(|e| Error::io(&path, e))?;
    }
    w.flush().map_err(|e| Error::io(&dest, e))
}

/// Copies the aligner saved in the shards' outputs under `rel` (the one aligner of every
/// shard: `--align-model`) into the merged output `root`; shards whose aligners differ are
/// refused.
fn copy_aligner(root: &Path, rel: &str, r0: &ReorderInfo, parts: &[Part]) -> Result<()> {
    let hmm = r0.options.align.model_type == ModelType::Hmm;
    let m0 = &parts[0].manifest;
    for f in crate::layout::model_files(Path::new(rel), hmm) {
        let name = f.to_string_lossy().into_owned();
        let Some(want) = m0.checksums.get(&name) else {
            continue;
        };
        if let Some(p) = parts[1..]
            .iter()
            .find(|p| p.manifest.checksums.get(&name) != Some(want))
        {
            return Err(Error::Data(format!(
                "{}: the shards were aligned with different aligners ({name} differs from \
                 that of {}); give every shard the same --align-model",
                ldd_io::error::shown(&p.dir),
                ldd_io::error::shown(&parts[0].dir)
            )));
        }
        let dest = resolve(root, &name)?;
        ldd_io::fs::create_parent(&dest)?;
        ldd_io::fs::copy_new(&file(m0, &parts[0].dir, &name)?, &dest)?;
    }
    Ok(())
}

/// The staging directory of the merged output: the shards' outputs, the corpus and the
/// parse cache are its inputs, never overwritten.
fn staging(parts: &[Part], out: &Path, cache: Option<&Path>) -> Result<Staging> {
    let first = &parts[0].manifest;
    let mut inputs: Vec<&Path> = parts.iter().map(|p| p.dir.as_path()).collect();
    inputs.push(&first.inputs.source.path);
    inputs.push(&first.inputs.target.path);
    inputs.extend(cache);
    Ok(Staging::new(out, &is_output, &inputs)?)
}

/// The source length of every corpus line, from the shards' length files in corpus order.
fn corpus_lengths(parts: &[Part]) -> Result<Vec<u32>> {
    let mut lengths: Vec<u32> = Vec::with_capacity(parts[0].shard.corpus_lines as usize);
    for part in parts {
        let path = file(&part.manifest, &part.dir, &part.shard.lengths)?;
        read_lengths(&path, part.shard.lines.count, &mut lengths)?;
    }
    Ok(lengths)
}

/// Every set's files concatenated over the shards, and its merged manifest entry.
fn merge_sets(root: &Path, parts: &[Part], lengths: &[u32]) -> Result<Vec<SetEntry>> {
    let first = &parts[0].manifest;
    let mut sets = Vec::with_capacity(first.sets.len());
    for (k, set) in first.sets.iter().enumerate() {
        for rel in set.files.all() {
            concatenate(root, rel, parts, None)?;
        }
        if let Some(rel) = &set.files.locus {
            concatenate(root, rel, parts, Some(crate::format::locus::HEADER))?;
        }
        sets.push(merge_entry(k, set, parts, lengths)?);
    }
    Ok(sets)
}

/// The corpus-wide reordering files concatenated, the aligner copied and the counts
/// summed (`None`: the shards built no reordering sets).
fn merge_reorder(root: &Path, parts: &[Part]) -> Result<Option<ReorderInfo>> {
    let Some(first) = &parts[0].manifest.reorder else {
        return Ok(None);
    };
    concatenate(root, &first.files.alignments, parts, None)?;
    concatenate(root, &first.files.measures, parts, Some(TSV_HEADER))?;
    if let Some(rel) = &first.files.posteriors {
        concatenate(root, rel, parts, None)?;
    }
    if let Some(rel) = &first.files.model {
        copy_aligner(root, rel, first, parts)?;
    }
    let mut merged = first.clone();
    for part in &parts[1..] {
        let Some(other) = &part.manifest.reorder else {
            return Err(Error::Data("reorder record missing".into()));
        };
        add_reorder_counts(&mut merged, other);
    }
    Ok(Some(merged))
}

/// Adds a shard's reordering counts (pairs trained on, lines too long, lines with links,
/// lines per set) to `total`.
fn add_reorder_counts(total: &mut ReorderInfo, shard: &ReorderInfo) {
    total.trained_pairs += shard.trained_pairs;
    total.too_long += shard.too_long;
    total.lines_with_links += shard.lines_with_links;
    for (sum, size) in total.sizes.iter_mut().zip(&shard.sizes) {
        for (lines, more) in sum.lines.iter_mut().zip(&size.lines) {
            *lines += more;
        }
    }
}

/// The shards' corpus counts, summed.
fn merge_corpus(parts: &[Part]) -> CorpusStats {
    let mut corpus = CorpusStats::default();
    for part in parts {
        add_corpus(&mut corpus, &part.manifest.corpus);
    }
    corpus
}

/// Adds a shard's corpus counts to `total`.
fn add_corpus(total: &mut CorpusStats, shard: &CorpusStats) {
    total.lines += shard.lines;
    total.empty_lines += shard.empty_lines;
    total.normalised_lines += shard.normalised_lines;
    total.tolerated_lines += shard.tolerated_lines;
    total.tolerated_places += shard.tolerated_places;
    total.glued_comments += shard.glued_comments;
    total.unchecked_lines += shard.unchecked_lines;
    total.source_words += shard.source_words;
}

/// The whole corpus's trees: the shards' parses assembled in the parse cache (when the
/// shards parsed their lines), or the trees the shards were given.
fn merge_parse(parts: &[Part], cache: Option<&Path>) -> Result<FileInfo> {
    let first = &parts[0].manifest;
    let Some(parse) = &parts[0].shard.parse else {
        return Ok(first.inputs.conllu.clone());
    };
    let dir = match cache {
        Some(c) => c.to_path_buf(),
        None => ldd_io::parent_dir(&first.inputs.conllu.path),
    };
    let cache = ParseCache::new(&dir)?;
    let mut pieces = Vec::with_capacity(parts.len());
    for part in parts {
        let Some(own) = &part.shard.parse else {
            return Err(Error::Data("shard parse record missing".into()));
        };
        pieces.push(Piece {
            path: file(&part.manifest, &part.dir, &own.file)?,
            range: part.shard.lines,
            chunks: own.chunks.clone(),
        });
    }
    let whole = WholeCorpus {
        corpus: parse.corpus.clone(),
        corpus_sha256: parse.corpus_sha256.clone(),
        model: parse.model.clone(),
        model_sha256: parse.model_sha256.clone(),
    };
    let path = cache.assemble(&whole, &pieces, parse.chunk_lines)?;
    let entry = cache.entry(&path)?;
    Ok(FileInfo {
        path,
        bytes: entry.conllu_gz_bytes,
        sha256: entry.conllu_gz_sha256,
        lines: entry.stats.lines,
    })
}

/// The controls drawn over the whole corpus (none when the shards drew none), from the
/// corpus the shards read, checked unchanged.
fn merge_controls(
    root: &Path,
    parts: &[Part],
    sets: &[SetEntry],
    lengths: &[u32],
) -> Result<Vec<SetControls>> {
    let (first, shard) = (&parts[0].manifest, &parts[0].shard);
    if shard.controls.count == 0 {
        return Ok(Vec::new());
    }
    for side in [&first.inputs.source, &first.inputs.target] {
        let (sha, _) = ldd_io::sha256_file(&side.path).map_err(|e| {
            Error::Resource(format!(
                "merge draws the controls from the corpus, as the shards recorded it: {e}"
            ))
        })?;
        if sha != side.sha256 {
            return Err(Error::Data(format!(
                "{}: changed since the shards read it (SHA-256 {sha}, the shards read {})",
                ldd_io::error::shown(&side.path),
                side.sha256
            )));
        }
    }
    draw_controls(
        root,
        sets,
        lengths,
        (&first.inputs.source.path, &first.inputs.target.path),
        &first.languages,
        &shard.controls.into(),
    )
}

/// The record of the merge: every shard's lines, directory, manifest checksum and command.
fn merged_record(parts: &[Part]) -> ShardRecord {
    ShardRecord::Merged(MergedShards {
        count: parts[0].shard.count,
        shards: parts
            .iter()
            .map(|p| MergedShard {
                index: p.shard.index,
                lines: p.shard.lines,
                dir: p.dir.clone(),
                manifest_sha256: p.manifest_sha256.clone(),
                command: p.manifest.tool.command.clone(),
            })
            .collect(),
    })
}

/// Writes the merged output of one corpus; returns its manifest: lengths → sets →
/// reordering → corpus counts → parse → controls → manifest.
pub fn write(parts: &[Part], out: &Path, cache: Option<&Path>) -> Result<Manifest> {
    let first = &parts[0].manifest;
    let staging = staging(parts, out, cache)?;
    let root = staging.path().to_path_buf();
    let lengths = corpus_lengths(parts)?;
    let sets = merge_sets(&root, parts, &lengths)?;
    let reorder = merge_reorder(&root, parts)?;
    let corpus = merge_corpus(parts);
    let conllu = merge_parse(parts, cache)?;
    let controls = merge_controls(&root, parts, &sets, &lengths)?;
    let mut manifest = Manifest {
        format_version: first.format_version,
        tool: Tool {
            command: crate::format::command::recorded(),
            ..first.tool.clone()
        },
        languages: first.languages.clone(),
        inputs: Inputs {
            source: first.inputs.source.clone(),
            target: first.inputs.target.clone(),
            conllu,
        },
        corpus,
        rules: first.rules.clone(),
        marker: first.marker.clone(),
        sets,
        reorder,
        controls,
        distances: merged_distances(parts),
        shard: Some(merged_record(parts)),
        checksums: Default::default(),
    };
    crate::pipeline::write::summary::finish(&root, &mut manifest)?;
    staging.commit(&is_output)?;
    Ok(manifest)
}

/// The manifest entry of set `set_index` over all shards: its ids must lie in their shard's lines;
/// the mean length is computed from the lengths of the lines, as an unsharded run does.
fn merge_entry(
    set_index: usize,
    set: &SetEntry,
    parts: &[Part],
    lengths: &[u32],
) -> Result<SetEntry> {
    let (mut sentences, mut pairs, mut words) = (0u64, 0u64, 0u64);
    for p in parts {
        let Some(own) = p.manifest.sets.get(set_index) else {
            return Err(Error::Data("set list differs".into()));
        };
        let path = file(&p.manifest, &p.dir, &own.files.ids)?;
        let ids = read_ids(&path)?;
        let (lo, hi) = (p.shard.lines.first, p.shard.lines.end());
        if let Some(bad) = ids
            .iter()
            .find(|&&id| u64::from(id) < lo || u64::from(id) >= hi)
        {
            return Err(Error::Data(format!(
                "{}: line id {bad} is not a line of this shard ({lo}..{})",
                ldd_io::error::shown(&path),
                hi - 1
            )));
        }
        if ids.len() as u64 != own.sentences {
            return Err(Error::Data(format!(
                "{}: {} ids, but the manifest says {} sentences (the shard's output was changed)",
                ldd_io::error::shown(&path),
                ids.len(),
                own.sentences
            )));
        }
        sentences += own.sentences;
        pairs += own.pairs;
        words += ids
            .iter()
            .map(|&id| u64::from(lengths[id as usize - 1]))
            .sum::<u64>();
    }
    Ok(SetEntry {
        sentences,
        pairs,
        mean_source_words: if sentences == 0 {
            0.0
        } else {
            words as f64 / sentences as f64
        },
        ..set.clone()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every corpus count is summed, none left out or counted twice.
    #[test]
    fn corpus_counts_summed() {
        let shard = |k: u64| CorpusStats {
            lines: k,
            empty_lines: 2 * k,
            normalised_lines: 3 * k,
            tolerated_lines: 4 * k,
            tolerated_places: 5 * k,
            glued_comments: 6 * k,
            unchecked_lines: 7 * k,
            source_words: 8 * k,
        };
        let mut total = CorpusStats::default();
        add_corpus(&mut total, &shard(1));
        add_corpus(&mut total, &shard(10));
        assert_eq!(total, shard(11));
    }
}
