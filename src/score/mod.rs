//! Stage **score**: systems' translations of the whole corpus scored on every set,
//! its controls and the corpus.
//!
//! What enters: a sets directory (its manifest, set and control ids), hypothesis files
//! and optional segment-level score files. What leaves: a [`Scores`] — per system,
//! metric and set: the score with its bootstrap interval, a paired p-value against the
//! first system, the controls' mean, sd, the set's rank among them and the set-minus-
//! controls difference with its interval and one-sided p-value (samples of the set's size
//! drawn within length strata, [`lengths`]) and its Benjamini–Hochberg q-value, a small-set
//! flag and the metric's [`signature`]; per phenomenon the trend over distance, raw and net
//! of length, with intervals —
//! rendered as `scores.json`, `scores.csv` and a table ([`render`]); per-set hypothesis
//! files ([`slice`](mod@slice)); set agreement between two runs ([`compare`]).
//!
//! Per-line sufficient statistics (BLEU and chrF with sacreBLEU's settings, its defaults
//! unless given; RIBES only when the manifest has a set of kind `reorder`; TER when asked
//! for; segment-level values) are computed once per corpus line ([`stats`]), streaming the
//! hypothesis and the references (the corpus target side, and any further references of
//! the whole corpus) in lockstep; then the corpus, every set, every control and every
//! bootstrap resample is scored by summing its lines' statistics (`evaluate`, with
//! [`ldd_eval::significance`]), so a set or a control is cut from every reference alike.
//! See `docs/evaluation.md`.
//!
//! In short (what enters → what leaves): a sets directory and system outputs → per-line
//! statistics → scores, ranks, trends (`render`: table, CSV, JSON); `locus`: locus accuracy
//! (each system's outputs read and aligned to their sources in one call to the sets'
//! aligner, `align::align_output`, then each locus judged); `merge`: an earlier
//! `scores.json` in the output kept by system and metric where this run does not compute
//! them, or refused; `slice`, `compare`

pub mod compare;
pub mod contrastive;
mod evaluate;
pub mod lengths;
pub mod locus;
pub mod merge;
pub mod metrics;
pub mod render;
pub mod share;
pub mod signature;
pub mod slice;
pub mod stats;

use std::path::{Path, PathBuf};

use ldd_eval::metric::{Metrics, Settings};
use ldd_eval::{MetricDef, PerLine, METRICS};
use ldd_io::Input;

pub use ldd_eval::significance::Method;

pub use crate::format::scores::{
    LociFile, Metric, Row, Scores, Significance, System, Trend, SMALL_SET,
};

use crate::error::{Error, Result};
use crate::format::sets::SetKind;
pub use crate::pipeline::read::sets::{load, Loaded, Unit};
use metrics::Source;
use stats::{line_stats, read_seg_scores, LineStats};

/// What `score` scores a loaded sets directory ([`load`]) with.
#[derive(Debug, Clone)]
pub struct ScoreOptions {
    /// Systems' translations of the whole corpus (`-`: standard input).
    pub hyps: Vec<PathBuf>,
    /// The systems' names, checked ([`check_name`]), each once: one per `hyps` file, or
    /// without any, one per contrastive scores' file.
    pub names: Vec<String>,
    /// References (`--ref`, repeated): the first must be the file extract read (same
    /// SHA-256) [default: the target file recorded in the manifest]; any further ones
    /// translate the whole corpus, one line per corpus line.
    pub references: Vec<PathBuf>,
    /// The corpus metrics' settings (sacreBLEU's options).
    pub settings: Settings,
    /// Segment-level metrics computed elsewhere (COMET, MetricX, ...).
    pub seg_scores: Vec<SegScores>,
    /// Intervals and paired tests.
    pub significance: SignificanceOptions,
    /// The metrics to compute, by key (`--metrics`); empty: every registry metric (RIBES
    /// only with reorder sets). [`locus::KEY`] adds locus accuracy.
    pub metrics: Vec<String>,
    /// The aligner model for locus accuracy (`--align-model`) [default: the one the
    /// manifest records].
    pub align_model: Option<PathBuf>,
    /// How locus accuracy parses the reference and the outputs (`--tgt-model`, `--cache`).
    pub parsing: crate::locus::Parsing,
    /// Contrastive accuracy: `contrast`'s directory and one file of scores per system
    /// (`--contrast`, `--contrastive`); with `hyps`, one per `hyps` file, in order.
    pub contrastive: Option<contrastive::ContrastiveOptions>,
}

/// A segment-level metric: one value per corpus line and system (`--seg-scores`).
#[derive(Debug, Clone)]
pub struct SegScores {
    /// Metric key (lowercase; see [`check_metric_name`]).
    pub name: String,
    /// One file per system, in `hyps` order: one number per corpus line.
    pub files: Vec<PathBuf>,
    /// Whether higher values are better (`false` for error metrics such as MetricX).
    pub higher_is_better: bool,
}

/// How intervals and paired tests are computed (sacreBLEU's flags and defaults).
#[derive(Debug, Clone)]
pub struct SignificanceOptions {
    /// Paired test between each system and the first (`--paired-bs`, `--paired-ar`);
    /// `None`: bootstrap.
    pub method: Option<Method>,
    /// Bootstrap resamples for every interval, set-vs-control test and `bs` test
    /// (`--paired-bs-n`); 0 computes no interval and no test.
    pub bootstrap: usize,
    /// Approximate-randomization trials (`--paired-ar-n`).
    pub trials: usize,
    /// Seed of all resampling (`--seed`).
    pub seed: u64,
    /// Level of the intervals (`--confidence`), e.g. 0.95.
    pub confidence: f64,
}

impl Default for SignificanceOptions {
    fn default() -> Self {
        SignificanceOptions {
            method: None,
            bootstrap: ldd_eval::significance::DEFAULT_BOOTSTRAP,
            trials: ldd_eval::significance::DEFAULT_TRIALS,
            seed: ldd_eval::significance::DEFAULT_SEED,
            confidence: DEFAULT_CONFIDENCE,
        }
    }
}

/// The one check of a system name, wherever it comes from (`--hyp NAME=FILE`, `--name`,
/// a file name, a `scores.json` read back): a name that can be part of a file name
/// (`<bucket>.hyp.NAME`) — letters, digits, `.`, `_`, `-`, starting with a letter or digit
/// ([`ldd_io::NameKind::File`]) — so that no name is a formula in a spreadsheet, a shell
/// command, a hidden file or a path.
pub fn check_name(name: &str) -> Result<()> {
    ldd_io::name::check(
        ldd_io::NameKind::File,
        name,
        "system name (name the system NAME=FILE or with --name)",
    )?;
    Ok(())
}

/// The level of intervals when `--confidence` is not given.
pub const DEFAULT_CONFIDENCE: f64 = 0.95;

/// What `settings` says in `scores.json` with sacreBLEU's default settings.
const SETTINGS: &str = "BLEU: sacreBLEU 2.x defaults (13a, exp smoothing, order 4, mixed case); \
chrF: sacreBLEU defaults (char order 6, beta 2, no word n-grams); RIBES: RIBES.py 1.03 \
(alpha 0.25, beta 0.10, lowercased), reported x100, reorder sets only; segment-level \
metrics (--seg-scores): the mean of the lines' values; locus accuracy (--metrics locus): the \
share of judged loci whose reference words the output renders, Wilson intervals, McNemar's exact \
test; one reference: the corpus target side";

/// What `settings` says in `scores.json`: [`SETTINGS`] with sacreBLEU's defaults, else the
/// settings as the signatures give them.
fn settings_text(args: &ScoreOptions, metrics: &Metrics, nrefs: usize) -> String {
    if args.settings.is_default()
        && nrefs == 1
        && metrics.bleu.tokenizer.name() == ldd_eval::tokenize::TokenizerName::Tok13a
    {
        return SETTINGS.to_string();
    }
    format!(
        "BLEU: sacreBLEU 2.4.3 with {} (max n-gram order {}); chrF: sacreBLEU 2.4.3 with {}, \
         beta {}; TER (--metrics ter): sacreBLEU 2.4.3 with {}; RIBES: RIBES.py 1.03 (alpha \
         0.25, beta 0.10, lowercased), reported x100, reorder sets only; segment-level metrics \
         (--seg-scores): the mean of the lines' values; locus accuracy (--metrics locus): the \
         share of judged loci whose reference words the output renders, Wilson intervals, \
         McNemar's exact test; {nrefs} reference{}: the corpus target side{}",
        metrics.bleu.signature(),
        metrics.bleu.scoring.max_order,
        metrics.chrf.signature(),
        metrics.chrf.scoring.beta,
        metrics.ter.signature(),
        if nrefs == 1 { "" } else { "s" },
        if nrefs == 1 {
            ""
        } else {
            " and the further --ref files (locus accuracy and contrastive accuracy: the target side alone)"
        }
    )
}

/// What `score` computed: the scores, and with `--metrics locus` the judgement of every
/// locus (`scores.loci.tsv`, which `scores.loci` names).
#[derive(Debug, Clone)]
pub struct Scored {
    /// `scores.json`'s content.
    pub scores: Scores,
    /// `scores.loci.tsv`'s text.
    pub judgements: Option<String>,
    /// The outputs and references that look tokenized when BLEU is scored, as sacreBLEU
    /// checks them ([`stats::looks_tokenized`]): each once, in the order read.
    pub tokenized: Vec<PathBuf>,
}

/// Why the reference has no line past the target side's: the manifest records its count.
fn target_lines(loaded: &Loaded) -> String {
    format!(
        "{} records {} lines for the target side extract read",
        ldd_io::error::shown(&loaded.manifest_path),
        loaded.manifest.inputs.target.lines
    )
}

/// Per metric, every system's rows and the trends, in the order of the metrics.
type PerMetric = Vec<(Vec<Vec<Row>>, Vec<Trend>)>;

/// Contrastive items, their file's SHA-256, and every system's scores of them.
type Contrast = (
    Vec<crate::format::contrast::ContrastItem>,
    String,
    Vec<Vec<f64>>,
);

/// Scores every set of `loaded`, its controls and the corpus for each system (no output
/// files); `args` checked by [`check_options`] first. The steps: the references checked,
/// the metrics chosen, the systems read (their per-line statistics), every metric
/// evaluated on every set, and the scores assembled.
pub fn score_sets(loaded: &Loaded, args: &ScoreOptions) -> Result<Scored> {
    let reference = checked_reference(loaded, args)?;
    let (references, extra_references) = further_references(loaded, args, &reference)?;
    let (defs, metrics) = metric_defs(loaded, args)?;
    // Locus accuracy's aligner and matching rule, checked before any system is read.
    let judging = match args.metrics.iter().any(|k| k == locus::KEY) {
        true => Some(crate::locus::Judging::new(
            loaded,
            args.align_model.as_deref(),
            &args.parsing,
        )?),
        false => None,
    };
    let mut systems: Vec<System> = Vec::new();
    let contrast = read_contrast(loaded, args, &mut systems)?;
    // `--hyp -`: standard input read once, then read as a file by every step.
    let _stdin = match args.hyps.iter().any(|h| ldd_io::is_stdin(h)) {
        true => Some(ldd_io::StdinCopy::read(loaded.manifest.corpus.lines)?),
        false => None,
    };
    let (stats, tokenized) =
        read_systems(loaded, args, &references, &defs, &metrics, &mut systems)?;
    let read = ReadInputs {
        reference,
        references: references.len(),
        extra_references,
        defs,
        metrics,
        judging,
        contrast,
        systems,
        stats,
    };
    let (scores, judgements) = evaluate_all(loaded, args, read)?;
    Ok(Scored {
        scores,
        judgements,
        tokenized,
    })
}

/// What `score` read before evaluating: the references, the metrics, the systems' per-line
/// statistics, the contrastive scores.
struct ReadInputs {
    reference: PathBuf,
    references: usize,
    extra_references: Vec<crate::format::scores::ReferenceFile>,
    defs: Vec<&'static MetricDef>,
    metrics: Metrics,
    judging: Option<crate::locus::Judging>,
    contrast: Option<Contrast>,
    systems: Vec<System>,
    stats: Vec<LineStats>,
}

/// Every metric evaluated on every set, its controls and the corpus, for every system
/// (the registry's and segment-level metrics, then the contrastive ones, then locus
/// accuracy), and the scores assembled, with the text of `scores.loci.tsv` when locus
/// accuracy was asked for.
fn evaluate_all(
    loaded: &Loaded,
    args: &ScoreOptions,
    read: ReadInputs,
) -> Result<(Scores, Option<String>)> {
    let sig = &args.significance;
    let method = (read.systems.len() > 1).then_some(sig.method.unwrap_or(Method::Bootstrap));
    let ctx = signature::Context::new(loaded, sig, method, read.references);
    let settings = settings_text(args, &read.metrics, read.references);
    let names: Vec<String> = read.systems.iter().map(|s| s.name.clone()).collect();
    let (strata, controls_test) = strata_of(loaded, args, &read)?;
    let ev = evaluate::Evaluator {
        loaded,
        systems: &names,
        sig,
        method,
        strata: strata.as_ref(),
    };
    let (mut metrics, mut per_metric, locus_metric) = evaluate_columns(args, &read, &ev, &ctx)?;
    if let Some(contrast) = &read.contrast {
        let (ms, evaluated) = evaluate_contrast(loaded, args, contrast, &names, &ctx)?;
        per_metric.extend(evaluated);
        metrics.extend(ms);
    }
    let mut judgements = None;
    if let (Some(m), Some(j)) = (locus_metric, &read.judging) {
        let e = locus::evaluate(
            loaded,
            &args.hyps,
            &names,
            j,
            &m,
            sig.confidence,
            &read.reference,
        )?;
        per_metric.push((e.rows, e.trends));
        judgements = Some((e.judgements, e.judged_rows));
        metrics.push(m);
    }
    let loci = judgements.as_ref().map(|(text, n)| LociFile {
        file: crate::layout::SCORES_LOCI.into(),
        sha256: ldd_io::sha256_bytes(text.as_bytes()),
        rows: *n,
    });
    let (rows, trends) = rows_by_system(per_metric, &names);
    let scores = Scores {
        sets: loaded.dir.clone(),
        reference: Some(read.reference),
        extra_references: read.extra_references,
        corpus_lines: loaded.manifest.corpus.lines,
        systems: read.systems,
        settings: Some(settings),
        signatures: metrics
            .iter()
            .map(|m| (m.key.clone(), m.signature.clone()))
            .collect(),
        metrics,
        significance: Significance {
            controls_test,
            ..significance_record(sig, method)
        },
        rows,
        trends,
        loci,
        commands: Some(crate::format::command::recorded())
            .filter(|c| !c.is_empty())
            .into_iter()
            .collect(),
    };
    Ok((scores, judgements.map(|(text, _)| text)))
}

/// The length strata of the set-vs-controls test and how the test is recorded
/// (`controls_test`): the corpus's source lengths measured again ([`lengths`]) when some
/// set has controls and a metric of per-line statistics is computed; else the written
/// controls are the null, and the record says why.
fn strata_of(
    loaded: &Loaded,
    args: &ScoreOptions,
    read: &ReadInputs,
) -> Result<(Option<ldd_eval::strata::Strata>, Option<String>)> {
    let has_controls = loaded.units.iter().any(|u| !u.controls.is_empty());
    let has_lines = !read.defs.is_empty() || !args.seg_scores.is_empty();
    if !has_controls || !has_lines || args.significance.bootstrap == 0 {
        return Ok((None, None));
    }
    Ok(match lengths::source_lengths(loaded, &read.reference) {
        lengths::Lengths::Measured(l) => (
            Some(ldd_eval::strata::Strata::new(&l)),
            Some(CONTROLS_TEST.to_string()),
        ),
        lengths::Lengths::Unavailable(why) => (
            None,
            Some(format!(
                "rank among the written controls (the corpus's source lengths are \
                 unavailable: {why})"
            )),
        ),
    })
}

/// `controls_test` in `scores.json` when the set-vs-controls test draws its null samples
/// within length strata.
pub const CONTROLS_TEST: &str = "permutation within length strata";

/// The metrics of the per-line statistics (the registry's, then the segment-level ones)
/// evaluated: their records and `per_metric[m] = ([system][rows], trends)` in their
/// order; and locus accuracy's record, when it is asked for (evaluated later).
fn evaluate_columns(
    args: &ScoreOptions,
    read: &ReadInputs,
    ev: &evaluate::Evaluator<'_>,
    ctx: &signature::Context,
) -> Result<(Vec<Metric>, PerMetric, Option<Metric>)> {
    let mut sources: Vec<Source> = read
        .defs
        .iter()
        .map(|d| Source::Corpus(d, &read.metrics))
        .collect();
    sources.extend(args.seg_scores.iter().map(Source::Segment));
    let metrics: Vec<Metric> = sources
        .iter()
        .map(|s| s.metric(ctx))
        .collect::<Result<_>>()?;
    let locus_metric = read
        .judging
        .as_ref()
        .map(|j| Source::Locus(j).metric(ctx))
        .transpose()?;
    let mut per_metric = Vec::with_capacity(metrics.len());
    for (k, m) in metrics.iter().enumerate() {
        let columns: Vec<&PerLine> = read.stats.iter().map(|s| &s.columns[k]).collect();
        // The registry's metrics come first; segment-level values are reported as given.
        let scale = read.defs.get(k).map_or(1.0, |d| d.scale);
        per_metric.push(ev.metric(m, &columns, scale)?);
    }
    Ok((metrics, per_metric, locus_metric))
}

/// The first reference (`--ref`, else the target side the manifest records), checked to
/// be the file extract read.
fn checked_reference(loaded: &Loaded, args: &ScoreOptions) -> Result<PathBuf> {
    let reference = match args.references.first() {
        Some(r) => r.clone(),
        None => loaded.manifest.inputs.target.path.clone(),
    };
    let info = Input::open(&reference)
        .map_err(|e| match e {
            ldd_io::Error::Io { path, source } if source.kind() == std::io::ErrorKind::NotFound => {
                Error::Io {
                    path,
                    source: std::io::Error::new(
                        source.kind(),
                        format!(
                            "{source} (the reference recorded in {}; pass --ref FILE)",
                            ldd_io::error::shown(&loaded.manifest_path)
                        ),
                    ),
                }
            }
            e => e.into(),
        })?
        .limit_lines(loaded.manifest.inputs.target.lines, target_lines(loaded))
        .finish()?;
    if info.sha256 != loaded.manifest.inputs.target.sha256
        || info.lines != loaded.manifest.inputs.target.lines
    {
        return Err(Error::Data(format!(
            "{}: not the target file extract read ({} lines, sha256 {}; {} records {} lines, sha256 {})",
            ldd_io::error::shown(&reference),
            info.lines,
            info.sha256,
            ldd_io::error::shown(&loaded.manifest_path),
            loaded.manifest.inputs.target.lines,
            loaded.manifest.inputs.target.sha256
        )));
    }
    Ok(reference)
}

/// Every reference (`reference` first), and the record of the further ones: the whole
/// corpus each, one line per corpus line.
fn further_references(
    loaded: &Loaded,
    args: &ScoreOptions,
    reference: &Path,
) -> Result<(Vec<PathBuf>, Vec<crate::format::scores::ReferenceFile>)> {
    let mut references = vec![reference.to_path_buf()];
    let mut extra_references = Vec::new();
    for extra in args.references.iter().skip(1) {
        let info = crate::pipeline::read::select::open_corpus_long(
            extra,
            loaded.manifest.corpus.lines,
            &loaded.manifest_path,
        )?
        .finish()?;
        let lines = info.lines;
        extra_references.push(crate::format::scores::ReferenceFile {
            path: extra.clone(),
            sha256: info.sha256,
        });
        if lines != loaded.manifest.corpus.lines {
            return Err(Error::Data(format!(
                "{}: has {lines} lines but the corpus has {} lines ({}); a further --ref \
                 translates the whole corpus, one line per corpus line",
                ldd_io::error::shown(extra),
                loaded.manifest.corpus.lines,
                ldd_io::error::shown(&loaded.manifest_path)
            )));
        }
        references.push(extra.clone());
    }
    Ok((references, extra_references))
}

/// The registry's metrics to compute (those on by default unless --metrics names them,
/// RIBES only when there are reorder sets, none without outputs) and sacreBLEU's metric
/// objects for the target language (MeCab loaded for ja/ko).
fn metric_defs(loaded: &Loaded, args: &ScoreOptions) -> Result<(Vec<&'static MetricDef>, Metrics)> {
    let has_reorder = loaded.units.iter().any(|u| u.set.kind == SetKind::Reorder);
    let wanted = |d: &MetricDef| {
        (args.metrics.is_empty() && d.by_default) || args.metrics.iter().any(|k| k == d.key)
    };
    // Without outputs (contrastive scores only), no output metric.
    let defs: Vec<&MetricDef> = METRICS
        .iter()
        .filter(|d| !args.hyps.is_empty() && (!d.reorder_only || has_reorder) && wanted(d))
        .collect();
    let metrics = args
        .settings
        .metrics(loaded.manifest.languages.target())
        .map_err(|e| match e {
            ldd_eval::EvalError::Resource(m) => Error::Resource(m),
            e => Error::Config(e.to_string()),
        })?;
    if args.metrics.iter().any(|k| k == "ribes") && !has_reorder {
        return Err(Error::Config(format!(
            "--metrics ribes: RIBES scores the reorder sets, and {} has none (extracted with \
             --no-reorder)",
            ldd_io::error::shown(&loaded.manifest_path)
        )));
    }
    Ok((defs, metrics))
}

/// Contrastive items and scores, read (and checked) before the outputs; with contrastive
/// scores only, the systems are named after their score files (added to `systems`).
fn read_contrast(
    loaded: &Loaded,
    args: &ScoreOptions,
    systems: &mut Vec<System>,
) -> Result<Option<Contrast>> {
    let Some(c) = &args.contrastive else {
        return Ok(None);
    };
    let (items, items_sha) = contrastive::items(&c.dir, loaded)?;
    let scores = contrastive::read_scores(c, &items, loaded.manifest.languages.target())?;
    if args.hyps.is_empty() {
        for name in &args.names {
            systems.push(System {
                name: name.clone(),
                path: None,
                sha256: None,
            });
        }
    }
    Ok(Some((items, items_sha, scores)))
}

/// Every output's per-line statistics against `references` (with the segment-level
/// scores as one more column each), the systems added to `systems`; and the files that
/// look tokenized when BLEU is scored.
fn read_systems(
    loaded: &Loaded,
    args: &ScoreOptions,
    references: &[PathBuf],
    defs: &[&MetricDef],
    metrics: &Metrics,
    systems: &mut Vec<System>,
) -> Result<(Vec<LineStats>, Vec<PathBuf>)> {
    let mut stats: Vec<LineStats> = Vec::new();
    let mut tokenized: Vec<PathBuf> = Vec::new();
    let bleu = defs.iter().any(|d| d.key == "bleu");
    for (hyp, name) in args.hyps.iter().zip(&args.names) {
        let corpus = (loaded.manifest.corpus.lines, loaded.manifest_path.as_path());
        let (st, hn, _, sha256) = line_stats(hyp, references, defs, metrics, corpus)?;
        loaded
            .manifest
            .check_translation(&loaded.manifest_path, hyp, hn)?;
        let files = std::iter::once(hyp).chain(references);
        for (f, &n) in files.zip(&st.tokenized) {
            if bleu && stats::looks_tokenized(n) && !tokenized.contains(f) {
                tokenized.push(f.clone());
            }
        }
        stats.push(st);
        systems.push(System {
            name: name.clone(),
            path: Some(hyp.clone()),
            sha256: Some(sha256),
        });
    }
    // Segment-level metrics: one more column per system, after the registry's.
    for s in &args.seg_scores {
        for (f, st) in s.files.iter().zip(stats.iter_mut()) {
            let values = read_seg_scores(f, loaded.manifest.corpus.lines, &loaded.manifest_path)?;
            st.columns.push(PerLine::Mean(values));
        }
    }
    Ok((stats, tokenized))
}

/// The contrastive metrics (one per variant kind, and all) and their rows and trends.
fn evaluate_contrast(
    loaded: &Loaded,
    args: &ScoreOptions,
    (items, items_sha, scores): &Contrast,
    names: &[String],
    ctx: &signature::Context,
) -> Result<(Vec<Metric>, PerMetric)> {
    let c_higher = args.contrastive.as_ref().is_none_or(|c| c.higher_is_better);
    let ms: Vec<Metric> = contrastive::keys(items)
        .into_iter()
        .map(|key| {
            Source::Contrastive {
                key,
                items_sha256: items_sha,
                scores_higher_is_better: c_higher,
            }
            .metric(ctx)
        })
        .collect::<Result<_>>()?;
    let confidence = args.significance.confidence;
    let evaluated = contrastive::evaluate(loaded, items, scores, names, &ms, confidence, c_higher);
    Ok((ms, evaluated))
}

/// The rows of every metric, system by system (each system's rows in metric order), and
/// the trends likewise.
fn rows_by_system(mut per_metric: PerMetric, names: &[String]) -> (Vec<Row>, Vec<Trend>) {
    let mut rows = Vec::new();
    let mut trends = Vec::new();
    for s in 0..names.len() {
        for (sys_rows, _) in per_metric.iter_mut() {
            rows.append(&mut sys_rows[s]);
        }
    }
    for s in names {
        for (_, t) in &per_metric {
            trends.extend(t.iter().filter(|t| &t.system == s).cloned());
        }
    }
    (rows, trends)
}

/// The record of the significance settings: the paired test (when there are systems to
/// compare), its resamples, seed and confidence level.
fn significance_record(sig: &SignificanceOptions, method: Option<Method>) -> Significance {
    Significance {
        method: method.map(|m| m.name().to_string()),
        resamples: Some(match method {
            Some(Method::Randomization) => sig.trials,
            _ => sig.bootstrap,
        }),
        seed: Some(sig.seed),
        confidence: Some(sig.confidence),
        bootstrap: Some(sig.bootstrap),
        controls_test: None,
    }
}

/// Checks what the command line's types alone cannot: the level, a paired test's
/// systems, the `--seg-scores` names and file counts.
pub fn check_options(args: &ScoreOptions) -> Result<()> {
    if let Some(c) = &args.contrastive {
        if !args.hyps.is_empty() && c.files.len() != args.hyps.len() {
            return Err(Error::Config(format!(
                "--contrastive: {} files for {} --hyp files; give one per --hyp, in the same \
                 order (or no --hyp)",
                c.files.len(),
                args.hyps.len()
            )));
        }
    } else if args.hyps.is_empty() {
        return Err(Error::Config(
            "give --hyp FILE, or --contrast DIR --contrastive FILE".into(),
        ));
    }
    check_names(args)?;
    if args.hyps.is_empty()
        && (!args.seg_scores.is_empty() || args.metrics.iter().any(|k| k == locus::KEY))
    {
        return Err(Error::Config(
            "--seg-scores and --metrics locus score outputs: give the systems' --hyp files".into(),
        ));
    }
    let given = args.parsing.model != crate::pipeline::parse::TargetChoice::AtHand;
    if given && !args.metrics.iter().any(|k| k == locus::KEY) {
        return Err(Error::Config(
            "--tgt-model: the target language's model parses the outputs for locus accuracy \
             only; add --metrics ...,locus"
                .into(),
        ));
    }
    let c = args.significance.confidence;
    if !(c > 0.0 && c < 1.0) {
        return Err(Error::Config(format!(
            "--confidence {c}: must be between 0 and 1 (e.g. 0.95)"
        )));
    }
    if let (Some(m), 1) = (args.significance.method, args.hyps.len()) {
        return Err(Error::Config(format!(
            "--paired-{}: a paired test needs two or more --hyp files (the first is the baseline)",
            m.name()
        )));
    }
    for k in &args.metrics {
        if ldd_eval::metric::find(k).is_none() && k != locus::KEY {
            let mut keys: Vec<&str> = METRICS.iter().map(|m| m.key).collect();
            keys.push(locus::KEY);
            return Err(Error::Config(format!(
                "--metrics: unknown metric `{}`; expected some of {}",
                ldd_io::error::quote(k, 40),
                keys.join(", ")
            )));
        }
    }
    let mut seen: Vec<&str> = Vec::new();
    for s in &args.seg_scores {
        check_metric_name(&s.name)?;
        if seen.contains(&s.name.as_str()) {
            return Err(Error::Config(format!(
                "--seg-scores: the name `{}` is given twice",
                s.name
            )));
        }
        seen.push(&s.name);
        if s.files.len() != args.hyps.len() {
            return Err(Error::Config(format!(
                "--seg-scores {}: {} files for {} --hyp files; give one per system, in --hyp order",
                s.name,
                s.files.len(),
                args.hyps.len()
            )));
        }
    }
    Ok(())
}

/// One name per system (per output, or without outputs per contrastive scores' file),
/// each valid ([`check_name`]) and once.
fn check_names(args: &ScoreOptions) -> Result<()> {
    let systems = match (&args.contrastive, args.hyps.len()) {
        (Some(c), 0) => c.files.len(),
        (_, n) => n,
    };
    if args.names.len() != systems {
        return Err(Error::Config(format!(
            "{} names for {systems} systems",
            args.names.len()
        )));
    }
    for (k, name) in args.names.iter().enumerate() {
        check_name(name)?;
        if args.names[..k].contains(name) {
            return Err(Error::Config(format!("two systems named `{name}`")));
        }
    }
    Ok(())
}

/// A `--seg-scores` NAME: 1–40 lowercase letters, digits, `_ - .`, starting with a letter
/// or digit, and not a built-in metric.
pub fn check_metric_name(name: &str) -> Result<()> {
    let ok = !name.is_empty()
        && name.len() <= 40
        && name
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '_' | '-' | '.'));
    if !ok {
        return Err(Error::Config(format!(
            "--seg-scores name `{}`: use 1-40 lowercase letters, digits, `_`, `-`, `.` (e.g. comet)",
            ldd_io::error::quote(name, 40)
        )));
    }
    if ldd_eval::metric::find(name).is_some() || name == locus::KEY {
        return Err(Error::Config(format!(
            "--seg-scores name `{name}` is a built-in metric; choose another name"
        )));
    }
    Ok(())
}
