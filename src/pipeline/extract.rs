//! `extract`: one corpus through read → detect → bucket → sample → write.
//!
//! Source, target and CoNLL-U are read in lockstep, in chunks of lines; each chunk's
//! trees are parsed and matched in parallel (rayon) and then written in corpus order, so
//! the output does not depend on the thread count. Memory is bounded by the chunk size,
//! plus 4 bytes per corpus line for the source lengths (kept for length-matched controls)
//! and, for reordering sets, the token ids of the whole corpus (alignment EM needs them).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use ldd_align::{Corpus, Reordering};
use ldd_conllu::parse_block;
use ldd_io::{LineRange, Staging};
use rayon::prelude::*;

use crate::bucket::Bucket;
use crate::config::Languages;
use crate::detect::aligner_cache::{self, AlignerSummary, Obtained, OwnCorpus};
use crate::detect::alignment::{self, Aligned, ModelType};
use crate::detect::line::{detect_line, Detected};
use crate::detect::locus::{self, AlignedLine};
use crate::detect::reorder::{self, ReorderOptions};
use crate::detect::rules::RuleSet;
use crate::error::{Error, Result};
use crate::format::manifest::{
    is_output, write_summary, CorpusStats, Distances, Inputs, Manifest, ShardParse, ShardPart,
    ShardRecord, Tool, FORMAT_VERSION, MANIFEST,
};
use crate::format::marked::{mark_links, MARKER};
use crate::format::options::{ReorderFiles, ReorderInfo};
use crate::format::sets::{ControlFiles, SetControls, SetEntry, SetFiles, SetKind};
use crate::layout;
use crate::parse::Parsed;
use crate::read::lockstep::{Line, Lockstep};
use crate::read::select::{read_ids, read_needed};
use crate::read::shard::Shard;
use crate::sample::{self, ControlOptions};
use crate::write::alignments::create_model_dirs;
use crate::write::controls::{write_control, LineMap};
use crate::write::later::{carry_over, Later};
use crate::write::locus::add_reference;
use crate::write::reorder_files::write_corpus_files;
use crate::write::set::{write_matches, Entry, SetWriter};
use crate::write::shard::{write_files, LENGTHS, PARSE};

/// Lines per parallel chunk.
pub const CHUNK_LINES: usize = 2048;

/// The corpus to extract from: its files, read in lockstep.
#[derive(Debug, Clone)]
pub struct CorpusFiles {
    /// Source side of the corpus (plain or gzip).
    pub source: PathBuf,
    /// Target side.
    pub target: PathBuf,
    /// CoNLL-U parse of the source side, one tree per corpus line.
    pub conllu: PathBuf,
    /// Do not check that each tree belongs to its corpus line (`--trust-conllu`).
    pub trust_conllu: bool,
    /// Only the lines of one shard (`None`: the whole corpus).
    pub shard: Option<ShardRun>,
}

/// Which sets to build.
#[derive(Debug, Clone)]
pub struct SetOptions {
    /// The phenomena to run (already selected).
    pub rules: RuleSet,
    /// Reordering sets (word alignment); `None` skips them.
    pub reorder: Option<ReorderOptions>,
}

/// Where the sets go.
#[derive(Debug, Clone)]
pub struct Output {
    /// Output directory (replaced as a whole on success).
    pub dir: PathBuf,
    /// Other files the run depends on (the UDPipe model, the parse cache): like the
    /// inputs, never inside the output directory.
    pub protect: Vec<PathBuf>,
    /// Replace a previous output even when later commands added files to it and the new
    /// sets differ (`--replace`; see [`crate::write::later`]).
    pub replace: bool,
}

/// What one shard of a sharded run extracts (see [`crate::read::shard`]).
#[derive(Debug, Clone)]
pub struct ShardRun {
    /// The shard.
    pub shard: Shard,
    /// Its corpus lines.
    pub lines: LineRange,
    /// Lines of the whole corpus.
    pub corpus_lines: u64,
    /// The shard's own parse of its lines, when `conllu` holds only those trees (its
    /// `file` is set when written); `None`: `conllu` is the whole corpus's parse.
    pub parse: Option<ShardParse>,
}

/// A shard cannot train the aligner on its lines alone (the shards would align with
/// different models): its reordering sets need a saved model or the whole corpus's
/// alignments.
pub fn check_shard_reorder(shard: Shard, reorder: Option<&ReorderOptions>) -> Result<()> {
    match reorder {
        Some(r) if r.alignments.is_none() && r.align.model.is_none() => {
            Err(Error::Config(format!(
                "--shard {shard}: the reordering sets of a sharded run need one aligner for the \
                 whole corpus: train it once (`ldd-sets align --src S --tgt T --conllu C \
                 --save-model PREFIX`, on the whole corpus or a sample of it) and give every \
                 shard --align-model PREFIX; or give --alignments of the whole corpus; or \
                 --no-reorder"
            )))
        }
        _ => Ok(()),
    }
}

impl ShardRun {
    /// The shard's run over the parse `parsed` of its lines, or over `whole` (a CoNLL-U of
    /// the whole corpus) when `parsed` is `None`.
    pub fn new(shard: Shard, lines: LineRange, corpus_lines: u64, parsed: Option<&Parsed>) -> Self {
        ShardRun {
            shard,
            lines,
            corpus_lines,
            parse: parsed.map(|p| ShardParse {
                file: String::new(),
                corpus: p.entry.corpus.clone(),
                corpus_sha256: p.entry.corpus_sha256.clone(),
                model: p.entry.model.clone(),
                model_sha256: p.entry.model_sha256.clone(),
                chunk_lines: ldd_parse::ParseOptions::default().chunk_lines as u64,
                chunks: p.entry.chunks.clone(),
            }),
        }
    }
}

impl CorpusFiles {
    /// The inputs read in lockstep: the whole corpus, or the shard's lines.
    fn open(&self) -> Result<Lockstep> {
        match &self.shard {
            Some(s) => Lockstep::open_lines(
                &self.source,
                &self.target,
                &self.conllu,
                s.lines,
                s.corpus_lines,
                s.parse.is_none(),
            ),
            None => Lockstep::open(&self.source, &self.target, &self.conllu),
        }
    }

    /// The corpus line number of the first line read.
    fn first_line(&self) -> u64 {
        self.shard.as_ref().map_or(1, |s| s.lines.first)
    }
}

/// Every file the run reads or depends on: the corpus, the rules, what `out` protects and
/// the aligner's files.
fn inputs(corpus: &CorpusFiles, sets: &SetOptions, out: &Output) -> Vec<PathBuf> {
    let mut v = vec![
        corpus.source.clone(),
        corpus.target.clone(),
        corpus.conllu.clone(),
        sets.rules.source.clone(),
    ];
    v.extend(out.protect.iter().cloned());
    if let Some(r) = &sets.reorder {
        v.extend(r.alignments.iter().cloned());
        v.extend(r.align.train.iter().cloned());
        for prefix in r.align.model.iter().chain(&r.align.save_model) {
            v.extend(layout::model_files(
                prefix,
                r.align.model_type == ModelType::Hmm,
            ));
        }
    }
    v
}

/// The result of a run.
#[derive(Debug)]
pub struct ExtractReport {
    /// Corpus statistics.
    pub corpus: CorpusStats,
    /// Every set written.
    pub sets: Vec<SetEntry>,
    /// Source length in words of every corpus line (0 for empty lines).
    pub lengths: Vec<u32>,
    /// How the reordering sets were built (`None` without them).
    pub reorder: Option<ReorderInfo>,
    /// The phenomena that ran, in order.
    pub phenomena: Vec<String>,
    /// The largest distance bucket.
    pub max_distance: u32,
    /// The shard that ran (`None`: the whole corpus).
    pub shard: Option<ShardRun>,
    /// The output directory.
    pub out: PathBuf,
    /// The aligner this extraction obtained for itself (`None`: none, or given by `run`).
    pub aligner: Option<AlignerSummary>,
    /// What became of the files later commands added to the previous output.
    pub later: Later,
}

/// Extracts the sets of `sets` from `corpus`, in `languages`, with `controls`, and moves
/// the finished output into `out.dir`. Each part goes to the stages that need it: the
/// corpus to reading (and again to the reorder sets' second pass and the controls), the
/// languages to file names, the rules and reordering options to detection, the control
/// options to sampling.
pub fn extract(
    corpus: &CorpusFiles,
    languages: &Languages,
    sets: &SetOptions,
    controls: &ControlOptions,
    out: &Output,
) -> Result<ExtractReport> {
    if let Some(s) = &corpus.shard {
        check_shard_reorder(s.shard, sets.reorder.as_ref())?;
    }
    let inputs = inputs(corpus, sets, out);
    let input_refs: Vec<&Path> = inputs.iter().map(PathBuf::as_path).collect();
    let staging = Staging::new(&out.dir, &is_output, &input_refs)?;
    if let Some(r) = sets.reorder.as_ref().filter(|r| r.alignments.is_none()) {
        create_model_dirs(&r.align)?;
    }
    let root = staging.path().to_path_buf();
    let (src_lang, tgt_lang) = (languages.source(), languages.target());
    let rules = &sets.rules;
    let matcher = rules.compile();
    let mut input = corpus.open()?;
    let offset = corpus.first_line() - 1;

    let buckets = Bucket::all(rules.max_distance);
    let mut writers: Vec<Vec<SetWriter>> = Vec::new();
    for p in &rules.phenomena {
        let mut row = Vec::new();
        for b in &buckets {
            let files = SetFiles::new(&p.name, &b.to_string(), src_lang, tgt_lang);
            row.push(SetWriter::create(&root, files)?);
        }
        writers.push(row);
    }

    let mut stats = CorpusStats::default();
    let mut distances: Vec<Distances> = rules
        .phenomena
        .iter()
        .map(|p| Distances {
            phenomenon: p.name.clone(),
            counts: Vec::new(),
        })
        .collect();
    let mut lengths = Vec::new();
    let mut align_pairs = Corpus::new();
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
        let conllu = input.conllu_path();
        let reorder = sets.reorder.as_ref();
        let trust = corpus.trust_conllu;
        let detected: Vec<Result<Detected>> = lines[..n]
            .par_iter()
            .map(|l| detect_line(l, &matcher, conllu, reorder, trust))
            .collect();
        for (line, d) in lines[..n].iter().zip(detected) {
            let d = d?;
            if let Some((s, t)) = &d.align_pair {
                align_pairs.push_pair(s, t);
            }
            stats.lines += 1;
            stats.normalised_lines += u64::from(d.normalised);
            stats.tolerated_lines += u64::from(d.tolerated);
            stats.unchecked_lines += u64::from(trust);
            let id = offset + stats.lines;
            stats.source_words += u64::from(d.words);
            lengths.push(if d.empty { 0 } else { d.words });
            if d.empty {
                stats.empty_lines += 1;
                continue;
            }
            if !d.matches.is_empty() {
                for f in &d.matches {
                    distances[usize::from(f.phenomenon)].add(f.distance as usize);
                }
                write_matches(line, id, &d, &buckets, &mut writers)?;
            }
        }
    }
    let [source, target, conllu] = input.finish()?;
    let inputs = Inputs {
        source,
        target,
        conllu,
    };

    let mut written = Vec::new();
    for (p, row) in rules.phenomena.iter().zip(writers) {
        for (b, w) in buckets.iter().zip(row) {
            written.push(w.finish(SetKind::Lexical, &p.name, *b)?);
        }
    }
    let mut obtained = None;
    let reorder_info = match &sets.reorder {
        Some(r) => {
            let (aligned, aligner) = align(&align_pairs, r, corpus, languages)?;
            let first = corpus.first_line();
            let post = aligned.posteriors.as_deref();
            for set in &written {
                if let Some(rel) = &set.files.locus {
                    add_reference(&root, rel, first, &align_pairs, &aligned.alignments, post)?;
                }
            }
            let (rsets, mut info) = reorder_sets(
                &align_pairs,
                &aligned,
                r,
                corpus,
                languages,
                &lengths,
                &root,
            )?;
            written.extend(rsets);
            // The aligner travels with the sets: every later command aligns with it.
            if let Some(a) = &aligner {
                let prefix = layout::reorder_aligner();
                a.place(&root.join(&prefix))?;
                info.files.model = Some(prefix);
                if r.trained.is_none() {
                    obtained = Some(a.summary());
                }
            }
            Some(info)
        }
        None => None,
    };
    drop(align_pairs);
    let (drawn, shard) = match &corpus.shard {
        Some(s) => {
            let record = shard_record(&root, s, &lengths, &corpus.conllu, controls)?;
            (Vec::new(), Some(record))
        }
        None => {
            let files = (corpus.source.as_path(), corpus.target.as_path());
            let drawn = draw_controls(&root, &written, &lengths, files, languages, controls)?;
            (drawn, None)
        }
    };
    let mut m = Manifest {
        format_version: FORMAT_VERSION,
        tool: Tool::default(),
        languages: languages.clone(),
        inputs,
        corpus: stats.clone(),
        rules: rules.into(),
        marker: MARKER.to_string(),
        sets: written.clone(),
        reorder: reorder_info.clone(),
        controls: drawn,
        distances,
        shard,
        checksums: Default::default(),
    };
    write_summary(&root.join(crate::layout::SUMMARY), &written)?;
    m.record_checksums(&root)?;
    m.write(&root.join(MANIFEST))?;
    let later = carry_over(&out.dir, &m, &root, out.replace)?;
    staging.commit(&is_output)?;
    Ok(ExtractReport {
        corpus: stats,
        sets: written,
        lengths,
        reorder: reorder_info,
        phenomena: rules.phenomena.iter().map(|p| p.name.clone()).collect(),
        max_distance: rules.max_distance,
        shard: corpus.shard.clone(),
        out: out.dir.clone(),
        aligner: obtained,
        later,
    })
}

/// Aligns the corpus (`pairs[k]` = tokens of line k+1) with the aligner `run` obtained,
/// or one obtained here (loaded, from the aligner cache, or trained on the corpus and the
/// training files), which it also returns; or reads its alignments (`--alignments`).
fn align(
    pairs: &Corpus,
    r: &ReorderOptions,
    corpus: &CorpusFiles,
    languages: &Languages,
) -> Result<(Aligned, Option<Arc<Obtained>>)> {
    let read = |alignments| Aligned {
        alignments,
        posteriors: None,
        trained_pairs: 0,
        too_long: 0,
    };
    Ok(match &r.alignments {
        Some(path) => match &corpus.shard {
            Some(s) => (
                read(alignment::read_alignments_of(
                    path,
                    pairs,
                    s.lines.first,
                    s.corpus_lines,
                )?),
                None,
            ),
            None => (read(alignment::read_alignments(path, pairs)?), None),
        },
        None => {
            let own = alignment::CorpusSides {
                source: &corpus.source,
                target: &corpus.target,
            };
            let langs = (languages.source(), languages.target());
            let aligner = match &r.trained {
                Some(a) => a.clone(),
                None => {
                    let corpus = OwnCorpus {
                        pairs,
                        sides: own,
                        conllu: &corpus.conllu,
                    };
                    let cache = r.cache.as_deref();
                    Arc::new(aligner_cache::obtain(&r.align, langs, Some(corpus), cache)?)
                }
            };
            let aligned =
                alignment::align(pairs, &r.align, langs, Some(own), Some(&aligner.trained))?;
            (aligned, Some(aligner))
        }
    })
}

/// Measures the reordering of every aligned line, writes the corpus-wide files and then
/// the reorder sets of the chosen measure by a second pass over the inputs.
fn reorder_sets(
    pairs: &Corpus,
    aligned: &Aligned,
    r: &ReorderOptions,
    corpus: &CorpusFiles,
    languages: &Languages,
    lengths: &[u32],
    root: &Path,
) -> Result<(Vec<SetEntry>, ReorderInfo)> {
    let langs = (languages.source(), languages.target());
    let (alignments, posteriors) = (&aligned.alignments, &aligned.posteriors);
    let (trained_pairs, too_long) = (aligned.trained_pairs, aligned.too_long);
    let measures: Vec<Reordering> = reorder::measure(pairs, alignments, r.paper_compat);
    let files = ReorderFiles {
        posteriors: posteriors.is_some().then(layout::reorder_posteriors),
        ..ReorderFiles::standard()
    };
    let first = corpus.first_line();
    let post = posteriors.as_deref();
    write_corpus_files(root, &files, first, pairs, alignments, post, &measures)?;

    let thresholds = r.thresholds();
    let mut writers = Vec::new();
    for b in &thresholds {
        let bucket = layout::bucket(false, *b);
        let mut f = SetFiles::new(reorder::NAME, &bucket, langs.0, langs.1);
        f.marked_target = Some(layout::set_file(
            reorder::NAME,
            &bucket,
            &layout::marked(langs.1),
        ));
        writers.push(SetWriter::create(root, f)?);
    }
    let mut input = corpus.open()?;
    let mut line = Line::default();
    let mut k = 0usize;
    while input.next(&mut line)? {
        let m = measures.get(k);
        let nonempty = lengths.get(k).is_some_and(|&l| l > 0);
        let member = r.membership(m.filter(|_| nonempty), &thresholds);
        if let (Some(m), true) = (m, member.contains(&true)) {
            let tree = parse_block(&line.block, &corpus.conllu)?;
            let text = tree.to_conllu();
            let links = r.marked_links(m);
            let id = first + k as u64;
            let loci = AlignedLine::new(pairs, k, alignments, post)
                .map(|a| locus::reorder(id, r.locus_distance(m), &links, &a))
                .unwrap_or_default();
            let (marked, marked_t) = mark_links(
                &tree.owned_tokens(),
                tree.len(),
                &pairs.tgt_tokens(k),
                &links,
            );
            for (w, _) in writers.iter_mut().zip(&member).filter(|(_, &m)| m) {
                w.write(&Entry {
                    id,
                    source: &line.source,
                    target: &line.target,
                    conllu: &text,
                    marked: &marked,
                    marked_target: Some(&marked_t),
                    pairs: 1,
                    loci: &loci,
                    words: u64::from(lengths[k]),
                })?;
            }
        }
        k += 1;
    }
    let mut sets = Vec::new();
    for (b, w) in thresholds.iter().zip(writers) {
        sets.push(w.finish(SetKind::Reorder, reorder::NAME, Bucket::AtLeast(*b))?);
    }
    let info = ReorderInfo {
        options: r.into(),
        source_tokens: "UD words of the source tree".into(),
        target_tokens: if r.align.pretokenized {
            "whitespace".into()
        } else {
            "ldd-align tokenizer".into()
        },
        trained_pairs,
        too_long,
        lines_with_links: measures.iter().filter(|m| m.word_links > 0).count() as u64,
        sizes: r.sizes(&measures),
        files,
    };
    Ok((sets, info))
}

/// The shard's record for the manifest, once its own files are written into `root` for
/// `merge` ([`write_files`]: the lengths of its lines and a copy of its own parse).
fn shard_record(
    root: &Path,
    s: &ShardRun,
    lengths: &[u32],
    conllu: &Path,
    controls: &ControlOptions,
) -> Result<ShardRecord> {
    write_files(root, lengths, s.parse.as_ref().map(|_| conllu))?;
    let parse = s.parse.as_ref().map(|p| ShardParse {
        file: PARSE.to_string(),
        ..p.clone()
    });
    Ok(ShardRecord::Part(ShardPart {
        index: s.shard.index,
        count: s.shard.count,
        lines: s.lines,
        corpus_lines: s.corpus_lines,
        lengths: LENGTHS.to_string(),
        controls: (*controls).into(),
        parse,
    }))
}

/// Draws the controls of every set of `sets` (written under `root`) from a corpus whose
/// lines have source lengths `lengths`, and writes their files with the corpus lines of
/// `corpus` (source, target); also used by `merge`, which draws them for merged shards.
pub(crate) fn draw_controls(
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
