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
use crate::format::sets::SetEntry;
use crate::read::select::read_ids;
use crate::read::sets::{file, resolve};
use crate::write::controls::draw_controls;
use crate::write::shard::read_lengths;

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
/// inside its directory, as the shard wrote it ([`crate::read::sets::file`]).
fn open_part_file(p: &Part, rel: &str) -> Result<(PathBuf, File)> {
    let path = file(&p.manifest, &p.dir, rel)?;
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

/// Writes the merged output of one corpus; returns its manifest.
pub fn write(parts: &[Part], out: &Path, cache: Option<&Path>) -> Result<Manifest> {
    let m0 = &parts[0].manifest;
    let p0 = &parts[0].shard;
    let mut inputs: Vec<&Path> = parts.iter().map(|p| p.dir.as_path()).collect();
    inputs.push(&m0.inputs.source.path);
    inputs.push(&m0.inputs.target.path);
    inputs.extend(cache);
    let staging = Staging::new(out, &is_output, &inputs)?;
    let root = staging.path().to_path_buf();

    let mut lengths: Vec<u32> = Vec::with_capacity(p0.corpus_lines as usize);
    for p in parts {
        let path = file(&p.manifest, &p.dir, &p.shard.lengths)?;
        read_lengths(&path, p.shard.lines.count, &mut lengths)?;
    }

    let mut sets = Vec::with_capacity(m0.sets.len());
    for (k, set) in m0.sets.iter().enumerate() {
        for rel in set.files.all() {
            concatenate(&root, rel, parts, None)?;
        }
        if let Some(rel) = &set.files.locus {
            concatenate(&root, rel, parts, Some(crate::format::locus::HEADER))?;
        }
        sets.push(merge_entry(k, set, parts, &lengths)?);
    }

    let reorder = match &m0.reorder {
        Some(r0) => {
            concatenate(&root, &r0.files.alignments, parts, None)?;
            concatenate(&root, &r0.files.measures, parts, Some(TSV_HEADER))?;
            if let Some(rel) = &r0.files.posteriors {
                concatenate(&root, rel, parts, None)?;
            }
            if let Some(rel) = &r0.files.model {
                copy_aligner(&root, rel, r0, parts)?;
            }
            let mut r = r0.clone();
            for p in &parts[1..] {
                let Some(o) = &p.manifest.reorder else {
                    return Err(Error::Data("reorder record missing".into()));
                };
                r.trained_pairs += o.trained_pairs;
                r.too_long += o.too_long;
                r.lines_with_links += o.lines_with_links;
                for (a, b) in r.sizes.iter_mut().zip(&o.sizes) {
                    for (x, y) in a.lines.iter_mut().zip(&b.lines) {
                        *x += y;
                    }
                }
            }
            Some(r)
        }
        None => None,
    };

    let mut corpus = CorpusStats::default();
    for p in parts {
        let c = &p.manifest.corpus;
        corpus.lines += c.lines;
        corpus.empty_lines += c.empty_lines;
        corpus.normalised_lines += c.normalised_lines;
        corpus.tolerated_lines += c.tolerated_lines;
        corpus.tolerated_places += c.tolerated_places;
        corpus.glued_comments += c.glued_comments;
        corpus.unchecked_lines += c.unchecked_lines;
        corpus.source_words += c.source_words;
    }

    let conllu = match &p0.parse {
        None => m0.inputs.conllu.clone(),
        Some(parse) => {
            let dir = match cache {
                Some(c) => c.to_path_buf(),
                None => ldd_io::parent_dir(&m0.inputs.conllu.path),
            };
            let cache = ParseCache::new(&dir)?;
            let mut pieces = Vec::with_capacity(parts.len());
            for p in parts {
                let Some(pp) = &p.shard.parse else {
                    return Err(Error::Data("shard parse record missing".into()));
                };
                pieces.push(Piece {
                    path: file(&p.manifest, &p.dir, &pp.file)?,
                    range: p.shard.lines,
                    chunks: pp.chunks.clone(),
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
            FileInfo {
                path,
                bytes: entry.conllu_gz_bytes,
                sha256: entry.conllu_gz_sha256,
                lines: entry.stats.lines,
            }
        }
    };

    let controls = if p0.controls.count > 0 {
        for side in [&m0.inputs.source, &m0.inputs.target] {
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
            &root,
            &sets,
            &lengths,
            (&m0.inputs.source.path, &m0.inputs.target.path),
            &m0.languages,
            &p0.controls.into(),
        )?
    } else {
        Vec::new()
    };

    let mut manifest = Manifest {
        format_version: m0.format_version,
        tool: Tool {
            command: crate::format::command::recorded(),
            ..m0.tool.clone()
        },
        languages: m0.languages.clone(),
        inputs: Inputs {
            source: m0.inputs.source.clone(),
            target: m0.inputs.target.clone(),
            conllu,
        },
        corpus,
        rules: m0.rules.clone(),
        marker: m0.marker.clone(),
        sets,
        reorder,
        controls,
        distances: merged_distances(parts),
        shard: Some(ShardRecord::Merged(MergedShards {
            count: p0.count,
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
        })),
        checksums: Default::default(),
    };
    crate::write::summary::finish(&root, &mut manifest)?;
    staging.commit(&is_output)?;
    Ok(manifest)
}

/// The manifest entry of set `k` over all shards: its ids must lie in their shard's lines;
/// the mean length is computed from the lengths of the lines, as an unsharded run does.
fn merge_entry(k: usize, set: &SetEntry, parts: &[Part], lengths: &[u32]) -> Result<SetEntry> {
    let (mut sentences, mut pairs, mut words) = (0u64, 0u64, 0u64);
    for p in parts {
        let Some(own) = p.manifest.sets.get(k) else {
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
