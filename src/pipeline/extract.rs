//! `extract`: one corpus through read → detect → bucket → sample → write, each step the
//! stage's own: the lines detected a chunk at a time in parallel ([`detect_lines`]) and
//! written to every lexical set they qualify for ([`SetWriters`]), the corpus aligned
//! ([`align_pairs`]), the reordering of its lines measured ([`measure`]) and its reordering
//! sets written ([`write_aligned`]), then the controls drawn or, for a shard, its record
//! written ([`controls_or_record`]), and the manifest.

use std::path::{Path, PathBuf};
use std::time::Instant;

use ldd_io::Staging;

use crate::config::Languages;
use crate::error::Result;
use crate::format::manifest::{is_output, CorpusStats, Manifest, Tool, FORMAT_VERSION};
use crate::format::marked::MARKER;
use crate::format::options::ReorderInfo;
use crate::format::sets::SetEntry;
use crate::layout;
use crate::pipeline::align::cache::AlignerSummary;
use crate::pipeline::align::ModelType;
use crate::pipeline::detect::line::detect_lines;
use crate::pipeline::detect::reorder::{align_pairs, measure, AlignedPairs, ReorderOptions};
use crate::pipeline::detect::rules::RuleSet;
use crate::pipeline::read::lockstep::CorpusFiles;
use crate::pipeline::read::shard::ShardRun;
use crate::pipeline::sample::ControlOptions;
use crate::pipeline::write::alignments::create_model_dirs;
use crate::pipeline::write::controls::controls_or_record;
use crate::pipeline::write::later::{carry_over, Later};
use crate::pipeline::write::reorder_sets::write_aligned;
use crate::pipeline::write::set::SetWriters;

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
    /// sets differ (`--replace`; see [`crate::pipeline::write::later`]).
    pub replace: bool,
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
        let hmm = r.align.model_type == ModelType::Hmm;
        for prefix in r.align.model.iter().chain(&r.align.save_model) {
            v.extend(layout::model_files(prefix, hmm));
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
    /// Seconds of extraction (the parse not included).
    pub seconds: f64,
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
    let start = Instant::now();
    let staging = stage(corpus, sets, out)?;
    let (root, langs) = (staging.path(), (languages.source(), languages.target()));
    let (rules, reorder) = (&sets.rules, sets.reorder.as_ref());
    // Detection streams into the set writers, then the lines are aligned; then everything
    // is written.
    let mut writers = SetWriters::create(root, rules, langs)?;
    let scan = detect_lines(corpus, rules, reorder, |line, id, d| {
        writers.write(line, id, d)
    })?;
    let aligned = reorder
        .map(|r| align_pairs(&scan.pairs, r, corpus, langs))
        .transpose()?;
    let mut written = writers.finish()?;
    let (pairs, lengths) = (&scan.pairs, scan.lengths.as_slice());
    let aligned = reorder.zip(aligned).map(|(r, a)| measured(r, a, pairs));
    let (reorder, aligner) =
        write_aligned(root, aligned, corpus, langs, pairs, lengths, &mut written)?;
    drop(scan.pairs);
    let lengths = scan.lengths;
    let (drawn, shard) = controls_or_record(root, corpus, languages, controls, &written, &lengths)?;
    let mut m = Manifest {
        format_version: FORMAT_VERSION,
        tool: Tool::default(),
        languages: languages.clone(),
        inputs: scan.inputs,
        corpus: scan.stats.clone(),
        rules: rules.into(),
        marker: MARKER.to_string(),
        sets: written.clone(),
        reorder: reorder.clone(),
        controls: drawn,
        distances: scan.distances,
        shard,
        checksums: Default::default(),
    };
    crate::pipeline::write::summary::finish(root, &mut m)?;
    let later = carry_over(&out.dir, &m, root, out.replace)?;
    staging.commit(&is_output)?;
    Ok(ExtractReport {
        corpus: scan.stats,
        sets: written,
        lengths,
        reorder,
        phenomena: rules.phenomena.iter().map(|p| p.name.clone()).collect(),
        max_distance: rules.max_distance,
        shard: corpus.shard.clone(),
        out: out.dir.clone(),
        aligner,
        later,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// The staging directory of `out`: nothing the run reads or depends on ([`inputs`]) is
/// inside it, and the directories of the aligner's files exist.
fn stage(corpus: &CorpusFiles, sets: &SetOptions, out: &Output) -> Result<Staging> {
    let inputs = inputs(corpus, sets, out);
    let inputs: Vec<&Path> = inputs.iter().map(PathBuf::as_path).collect();
    let staging = Staging::new(&out.dir, &is_output, &inputs)?;
    if let Some(r) = sets.reorder.as_ref().filter(|r| r.alignments.is_none()) {
        create_model_dirs(&r.align)?;
    }
    Ok(staging)
}

/// The reordering of every line of `pairs`, measured by `reorder` from `aligned`, for the writer.
fn measured<'r>(
    reorder: &'r ReorderOptions,
    (aligned, obtained): AlignedPairs,
    pairs: &ldd_align::Corpus,
) -> (&'r ReorderOptions, AlignedPairs, Vec<ldd_align::Reordering>) {
    let measures = measure(pairs, &aligned.alignments, reorder.paper_compat);
    (reorder, (aligned, obtained), measures)
}
