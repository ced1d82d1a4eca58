//! `merge`: the outputs of the N shards of a sharded run (`extract --shard I/N` or
//! `run --shard I/N`) joined into the output an unsharded run gives.
//!
//! First everything is checked, before anything is written: every directory is the
//! output of a shard, the N shards are all there exactly once, and they come from the same
//! inputs and settings (the manifests agree on everything but the shard's own counts). Then
//! the sets are concatenated in corpus order (their ids are corpus line numbers already),
//! the shards' sentence lengths are joined, the length-matched controls are drawn over the
//! whole corpus exactly as an unsharded run draws them, and, when the shards parsed their
//! lines themselves, the whole corpus's parse is assembled in the parse cache from theirs
//! (`ldd_parse::ParseCache::assemble`). The result is byte-identical to an unsharded run
//! with the same inputs and seed, except for the manifest's `shard` record, which says what
//! was merged.
//!
//! A directory of `run --shard` outputs (one subdirectory per corpus) is merged corpus by
//! corpus into `OUT/<corpus>/`.

use ldd_io::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};

use ldd_io::{FileInfo, Staging};
use ldd_parse::{ParseCache, Piece, WholeCorpus};
use serde_json::Value;

use super::extract::draw_controls;
use crate::error::{Error, Result};
use crate::format::manifest::{
    is_output, write_summary, CorpusStats, Distances, Inputs, Manifest, MergedShard, MergedShards,
    ShardPart, ShardRecord, Tool, MANIFEST,
};
use crate::format::options::{ModelType, ReorderInfo};
use crate::format::reorder::TSV_HEADER;
use crate::format::sets::SetEntry;
use crate::read::select::read_ids;
use crate::read::sets::{file, resolve};
use crate::read::shard::Shard;
use crate::write::shard::read_lengths;

/// What `merge` joins and where.
#[derive(Debug, Clone)]
pub struct MergeOptions {
    /// The shards' output directories, in any order.
    pub shards: Vec<PathBuf>,
    /// The merged output directory (a `run`'s: one subdirectory per corpus).
    pub out: PathBuf,
    /// Parse cache in which the whole corpus's parse is assembled, when the shards parsed
    /// their lines [default: the directory the shards' parses were cached in].
    pub cache: Option<PathBuf>,
}

/// One merged corpus.
#[derive(Debug)]
pub struct Merged {
    /// The corpus name (outputs of `run`), or `None`.
    pub name: Option<String>,
    /// Where it was written.
    pub out: PathBuf,
    /// The merged manifest.
    pub manifest: Manifest,
}

/// One shard's output, read and checked.
struct Part {
    dir: PathBuf,
    manifest: Manifest,
    shard: ShardPart,
    manifest_sha256: String,
}

/// Merges the shards (see the module docs). Nothing is written unless every check passes.
pub fn merge(opts: &MergeOptions) -> Result<Vec<Merged>> {
    if opts.shards.is_empty() {
        return Err(Error::Config("merge: no shard directories given".into()));
    }
    let has_manifest: Vec<bool> = opts
        .shards
        .iter()
        .map(|d| d.join(MANIFEST).is_file())
        .collect();
    let jobs: Vec<(Option<String>, Vec<PathBuf>, PathBuf)> = if has_manifest.iter().all(|&m| m) {
        vec![(None, opts.shards.clone(), opts.out.clone())]
    } else if has_manifest.iter().all(|&m| !m) {
        corpora_of_runs(&opts.shards)?
            .into_iter()
            .map(|name| {
                let dirs = opts.shards.iter().map(|d| d.join(&name)).collect();
                let out = opts.out.join(&name);
                (Some(name), dirs, out)
            })
            .collect()
    } else {
        let (with, without): (Vec<_>, Vec<_>) =
            opts.shards.iter().zip(&has_manifest).partition(|(_, &m)| m);
        return Err(Error::Config(format!(
            "merge: {} holds one corpus's sets ({MANIFEST}) but {} does not: give the shard \
             outputs of `extract --shard` or of `run --shard`, not both",
            ldd_io::error::shown(with[0].0),
            ldd_io::error::shown(without[0].0)
        )));
    };
    // Check every corpus before writing any.
    let mut plans = Vec::new();
    for (name, dirs, out) in jobs {
        plans.push((name, check(&dirs)?, out));
    }
    let mut merged = Vec::new();
    for (name, parts, out) in plans {
        let manifest = write(&parts, &out, opts.cache.as_deref())?;
        merged.push(Merged {
            name,
            out,
            manifest,
        });
    }
    Ok(merged)
}

/// The corpus subdirectories of `run --shard` outputs: the same in every one.
fn corpora_of_runs(dirs: &[PathBuf]) -> Result<Vec<String>> {
    let names = |d: &Path| -> Result<Vec<String>> {
        Ok(ldd_io::fs::list_dir(d)?
            .into_iter()
            .filter(|e| !e.name.starts_with('.') && e.path.join(MANIFEST).is_file())
            .map(|e| e.name)
            .collect())
    };
    let first = names(&dirs[0])?;
    if first.is_empty() {
        return Err(Error::Config(format!(
            "merge: {} is not the output of a shard: it has no {MANIFEST}, and no corpus \
             subdirectory with one",
            ldd_io::error::shown(&dirs[0])
        )));
    }
    for d in &dirs[1..] {
        let these = names(d)?;
        if these != first {
            let missing: Vec<&str> = first
                .iter()
                .filter(|n| !these.contains(n))
                .map(String::as_str)
                .collect();
            let extra: Vec<&str> = these
                .iter()
                .filter(|n| !first.contains(n))
                .map(String::as_str)
                .collect();
            return Err(Error::Config(format!(
                "merge: {} and {} hold different corpora (missing in the second: {}; only in \
                 the second: {})",
                ldd_io::error::shown(&dirs[0]),
                ldd_io::error::shown(d),
                if missing.is_empty() {
                    "none".into()
                } else {
                    missing.join(", ")
                },
                if extra.is_empty() {
                    "none".into()
                } else {
                    extra.join(", ")
                },
            )));
        }
    }
    Ok(first)
}

/// Reads the shards' manifests and checks that they are the N shards of one run, each once.
fn check(dirs: &[PathBuf]) -> Result<Vec<Part>> {
    let mut parts: Vec<Part> = Vec::new();
    for dir in dirs {
        let manifest = Manifest::read(dir)?;
        let shard = match &manifest.shard {
            Some(ShardRecord::Part(p)) => p.clone(),
            Some(ShardRecord::Merged(_)) => {
                return Err(Error::Config(format!(
                    "merge: {} is a merged output already, not the output of one shard",
                    ldd_io::error::shown(dir)
                )))
            }
            None => {
                return Err(Error::Config(format!(
                    "merge: {} is not the output of a shard (it was made without --shard)",
                    ldd_io::error::shown(dir)
                )))
            }
        };
        let (manifest_sha256, _) = ldd_io::sha256_file(&dir.join(MANIFEST))?;
        parts.push(Part {
            dir: dir.clone(),
            manifest,
            shard,
            manifest_sha256,
        });
    }
    let n = parts[0].shard.count;
    let reference = settings(&parts[0].manifest)?;
    for p in &parts {
        let here = format!(
            "{} (shard {}/{})",
            ldd_io::error::shown(&p.dir),
            p.shard.index,
            p.shard.count
        );
        if p.shard.count != n {
            return Err(Error::Config(format!(
                "merge: {here} belongs to a run of {} shards but {} to a run of {n}: shards of \
                 different runs",
                p.shard.count,
                ldd_io::error::shown(&parts[0].dir)
            )));
        }
        let want = Shard {
            index: p.shard.index,
            count: n,
        }
        .range(p.shard.corpus_lines);
        if p.shard.lines != want || p.shard.index == 0 {
            return Err(Error::Data(format!(
                "merge: {here}: its lines {}+{} are not shard {}/{n} of {} lines; the manifest \
                 was edited or is corrupt",
                p.shard.lines.first, p.shard.lines.count, p.shard.index, p.shard.corpus_lines
            )));
        }
        let mut differ = Vec::new();
        differences(&reference, &settings(&p.manifest)?, "", 3, &mut differ);
        if !differ.is_empty() {
            return Err(Error::Config(format!(
                "merge: {here} is not from the same inputs and settings as {} (shard {}/{n}): \
                 their manifests differ at {}",
                ldd_io::error::shown(&parts[0].dir),
                parts[0].shard.index,
                differ
                    .iter()
                    .map(|d| format!("`{d}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
    }
    parts.sort_by_key(|p| p.shard.index);
    for w in parts.windows(2) {
        if w[0].shard.index == w[1].shard.index {
            return Err(Error::Config(format!(
                "merge: shard {}/{n} is given twice: {} and {}",
                w[0].shard.index,
                ldd_io::error::shown(&w[0].dir),
                ldd_io::error::shown(&w[1].dir)
            )));
        }
    }
    let missing: Vec<String> = (1..=n)
        .filter(|i| !parts.iter().any(|p| p.shard.index == *i))
        .map(|i| format!("{i}/{n}"))
        .collect();
    if !missing.is_empty() {
        let given: Vec<String> = parts
            .iter()
            .map(|p| format!("{}/{n} {}", p.shard.index, ldd_io::error::shown(&p.dir)))
            .collect();
        return Err(Error::Config(format!(
            "merge: shard{} {} missing (given: {})",
            if missing.len() > 1 { "s" } else { "" },
            missing.join(", "),
            given.join("; ")
        )));
    }
    let tool = Tool::default();
    let made_by = &parts[0].manifest.tool;
    if made_by.version != tool.version {
        return Err(Error::Config(format!(
            "merge: the shards were made by ldd-sets {}, this is {}: merge them with the \
             version that made them",
            ldd_io::error::escape(&made_by.version),
            tool.version
        )));
    }
    Ok(parts)
}

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

/// What must be equal in the manifests of the shards of one run: everything except each
/// shard's own counts, range, parse and file checksums, and the paths of the inputs (shards
/// may run in other directories; the inputs' checksums must agree).
fn settings(m: &Manifest) -> Result<Value> {
    let mut v = serde_json::to_value(m).map_err(|e| Error::Data(e.to_string()))?;
    let remove = |v: &mut Value, keys: &[&str]| {
        if let Some(o) = v.as_object_mut() {
            for k in keys {
                o.remove(*k);
            }
        }
    };
    remove(&mut v, &["corpus", "checksums", "distances"]);
    // Each shard's command line names its own shard and output directory.
    if let Some(t) = v.get_mut("tool") {
        remove(t, &["command"]);
    }
    if let Some(sets) = v.get_mut("sets").and_then(Value::as_array_mut) {
        for s in sets {
            remove(s, &["sentences", "pairs", "mean_source_words"]);
        }
    }
    if let Some(r) = v.get_mut("reorder") {
        remove(r, &["trained_pairs", "too_long", "lines_with_links"]);
        if let Some(sizes) = r.get_mut("sizes").and_then(Value::as_array_mut) {
            for s in sizes {
                remove(s, &["lines"]);
            }
        }
    }
    let own_parse = matches!(&m.shard, Some(ShardRecord::Part(p)) if p.parse.is_some());
    if let Some(inputs) = v.get_mut("inputs") {
        for side in ["source", "target", "conllu"] {
            if let Some(f) = inputs.get_mut(side) {
                remove(f, &["path"]);
            }
        }
        if own_parse {
            remove(inputs, &["conllu"]);
        }
    }
    if let Some(s) = v.get_mut("shard") {
        remove(s, &["index", "lines"]);
        if let Some(p) = s.get_mut("parse") {
            remove(p, &["chunks", "corpus", "model"]);
        }
    }
    Ok(v)
}

/// The places (`a.b[3].c`) where two JSON values differ, at most `max` of them.
fn differences(a: &Value, b: &Value, at: &str, max: usize, out: &mut Vec<String>) {
    if out.len() >= max {
        return;
    }
    let key = |k: &str| {
        if at.is_empty() {
            k.to_string()
        } else {
            format!("{at}.{k}")
        }
    };
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let mut keys: Vec<&String> = x.keys().chain(y.keys()).collect();
            keys.sort();
            keys.dedup();
            for k in keys {
                match (x.get(k), y.get(k)) {
                    (Some(p), Some(q)) => differences(p, q, &key(k), max, out),
                    _ if out.len() < max => out.push(key(k)),
                    _ => {}
                }
            }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (i, (p, q)) in x.iter().zip(y).enumerate() {
                differences(p, q, &format!("{at}[{i}]"), max, out);
            }
        }
        _ if a != b => out.push(at.to_string()),
        _ => {}
    }
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
fn write(parts: &[Part], out: &Path, cache: Option<&Path>) -> Result<Manifest> {
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
    write_summary(&root.join(crate::layout::SUMMARY), &manifest.sets)?;
    manifest.record_checksums(&root)?;
    manifest.write(&root.join(MANIFEST))?;
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
