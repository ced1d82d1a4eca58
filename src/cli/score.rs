//! `slice`, `score` and `compare`.

use std::path::{Path, PathBuf};

use clap::Args;

use ldd_sets::error::{Error, Result};
use ldd_sets::layout::{report_file, SCORES_JSON};
use ldd_sets::parse::TargetModel;
use ldd_sets::printer::scores::{compare_table, render_table, small_sets_warning};
use ldd_sets::score::compare::compare as compare_sets;
use ldd_sets::score::contrastive::ContrastiveOptions;
use ldd_sets::score::merge::{with_earlier, Earlier};
use ldd_sets::score::render::write_outputs;
use ldd_sets::score::slice::slice as slice_sets;
use ldd_sets::score::{
    check_name, check_options, load, score as score_sets, system_name, Method, ScoreOptions,
    SegScores, SignificanceOptions,
};

use super::args::{Common, QuietArgs, ThreadArgs};

#[derive(Args)]
pub struct SliceArgs {
    /// Output directory of `ldd-sets extract`.
    #[arg(long, value_name = "DIR")]
    sets: PathBuf,
    /// A system's translation of the whole corpus, one line per corpus line.
    #[arg(long, value_name = "FILE")]
    hyp: PathBuf,
    /// System name used in the file names `<bucket>.hyp.NAME` [default: the --hyp file
    /// name without its last extension (and without .gz)]. Letters, digits, `_ - .`.
    #[arg(long, value_name = "NAME")]
    name: Option<String>,
}

#[derive(Args)]
pub struct ScoreArgs {
    /// Output directory of `ldd-sets extract`.
    #[arg(long, value_name = "DIR")]
    sets: PathBuf,
    /// Systems' translations of the whole corpus (repeat for several systems). Not needed
    /// for contrastive accuracy alone (--contrastive).
    #[arg(long, value_name = "FILE", required_unless_present = "contrastive")]
    hyp: Vec<PathBuf>,
    /// Reference (the corpus target side) [default: the target file recorded in the
    /// manifest]. Must be the file extract read (same SHA-256).
    #[arg(long = "ref", value_name = "FILE")]
    reference: Option<PathBuf>,
    /// Directory for scores.csv and scores.json [default: the --sets directory].
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Segment-level scores of another metric (COMET, MetricX, BLEURT, ...): one number per
    /// corpus line, one file per --hyp in the same order (file names without commas).
    /// Aggregated as the mean per set, control and corpus, and tested like BLEU. NAME
    /// (lowercase letters, digits, `_ - .`) is the metric's key in the outputs. Repeatable.
    #[arg(long, value_name = "NAME=FILE1,FILE2,..", value_parser = parse_seg_scores)]
    seg_scores: Vec<(String, Vec<PathBuf>)>,
    /// A --seg-scores metric for which lower is better (e.g. MetricX): ranks and the
    /// set-vs-controls test are turned around. Repeatable.
    #[arg(long, value_name = "NAME")]
    lower_is_better: Vec<String>,
    /// Metrics to compute, comma-separated (sacreBLEU's --metrics): bleu, chrf, ribes (reorder
    /// sets only), and locus — locus accuracy, the share of the sets' loci whose reference
    /// words each output renders, judged through word alignment (see docs/evaluation.md)
    /// [default: bleu,chrf,ribes].
    #[arg(long, short = 'm', value_name = "KEYS", value_delimiter = ',')]
    metrics: Vec<String>,
    /// Aligner model for --metrics locus: PREFIX.hmm.ldda (or fast_align's two files), as
    /// saved by `extract --save-align-model` [default: the model the manifest records as
    /// loaded or saved].
    #[arg(long, value_name = "PREFIX")]
    align_model: Option<PathBuf>,
    /// For --metrics locus: a UDPipe 1 model of the target language, so that an output
    /// token also renders a reference token with the same lemma (`is` / `was`, `found` /
    /// `find`), or `auto`: the registry's model of the target language in the models
    /// directory ($LDD_SETS_MODELS, else ~/.cache/ldd-sets/models; not downloaded)
    /// [default: none, the surface rule alone].
    #[arg(long, value_name = "FILE|auto", value_parser = TargetModel::parse)]
    lemma_model: Option<TargetModel>,
    /// Output directory of `ldd-sets contrast` on these sets, for --contrastive.
    #[arg(long, value_name = "DIR", requires = "contrastive")]
    contrast: Option<PathBuf>,
    /// A system's scores of the contrastive pairs: one number per line of --contrast's
    /// contrast.TGT (log-probabilities; higher is better), repeated per system (with --hyp:
    /// one per --hyp, in order; without: systems named after these files). Scores
    /// contrastive accuracy, the share of items whose reference beats every variant, for
    /// all variants and per error type (see docs/contrast.md).
    #[arg(long, value_name = "FILE", requires = "contrast")]
    contrastive: Vec<PathBuf>,
    /// Replace the scores.json already in the output directory, losing the scores of
    /// systems this run does not score. Without it, those systems are kept beside this
    /// run's (merged by system: same sets, metrics, settings and baseline), or `score`
    /// refuses when the two runs cannot be merged.
    #[arg(long)]
    replace: bool,
    #[command(flatten)]
    threads: ThreadArgs,
    #[command(flatten)]
    quiet: QuietArgs,
    // Last: its help heading applies to the options after it.
    #[command(flatten)]
    significance: SignificanceArgs,
}

/// Intervals and paired tests, with sacreBLEU's flag names and defaults.
#[derive(Args)]
#[command(next_help_heading = "Significance (sacreBLEU's flags and defaults)")]
pub struct SignificanceArgs {
    /// Test each system against the first --hyp (the baseline) by paired bootstrap
    /// resampling. The default with two or more systems.
    #[arg(long, conflicts_with = "paired_ar")]
    paired_bs: bool,
    /// Test each system against the first --hyp by paired approximate randomization.
    #[arg(long)]
    paired_ar: bool,
    /// Bootstrap resamples: for every confidence interval, every set-vs-controls test and
    /// --paired-bs.
    #[arg(long, value_name = "N", default_value_t = 1000,
          value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    paired_bs_n: u32,
    /// Trials of --paired-ar.
    #[arg(long, value_name = "N", default_value_t = 10_000,
          value_parser = clap::value_parser!(u32).range(1..=10_000_000))]
    paired_ar_n: u32,
    /// Seed of all resampling (sacreBLEU's SACREBLEU_SEED default); the same seed gives
    /// byte-identical outputs at any --threads.
    #[arg(long, value_name = "N", default_value_t = 12345)]
    seed: u64,
    /// Level of every interval; `--confidence` alone (as in sacreBLEU) keeps 0.95.
    /// p-values below 1 − LEVEL are marked significant.
    #[arg(long, value_name = "LEVEL", num_args = 0..=1, default_value_t = 0.95,
          default_missing_value = "0.95")]
    confidence: f64,
}

impl SignificanceArgs {
    fn options(&self) -> SignificanceOptions {
        SignificanceOptions {
            method: if self.paired_ar {
                Some(Method::Randomization)
            } else if self.paired_bs {
                Some(Method::Bootstrap)
            } else {
                None
            },
            bootstrap: self.paired_bs_n as usize,
            trials: self.paired_ar_n as usize,
            seed: self.seed,
            confidence: self.confidence,
        }
    }
}

/// `NAME=FILE1,FILE2,..`.
fn parse_seg_scores(s: &str) -> std::result::Result<(String, Vec<PathBuf>), String> {
    let (name, files) = s
        .split_once('=')
        .ok_or_else(|| format!("expected NAME=FILE1,FILE2,.. (got `{s}`)"))?;
    let files: Vec<PathBuf> = files
        .split(',')
        .filter(|f| !f.is_empty())
        .map(PathBuf::from)
        .collect();
    if name.is_empty() || files.is_empty() {
        return Err(format!("expected NAME=FILE1,FILE2,.. (got `{s}`)"));
    }
    Ok((name.to_string(), files))
}

#[derive(Args)]
pub struct CompareArgs {
    /// Output directory of the reference run (e.g. extracted from gold trees).
    #[arg(long, value_name = "DIR")]
    gold: PathBuf,
    /// Output directory of the run to evaluate.
    #[arg(long, value_name = "DIR")]
    pred: PathBuf,
    /// Set to compare in every phenomenon.
    #[arg(long, value_name = "BUCKET", default_value = "ge1")]
    bucket: String,
}

impl Common for SliceArgs {
    fn inputs(&self) -> Vec<&Path> {
        vec![&self.hyp]
    }
}

impl Common for ScoreArgs {
    fn inputs(&self) -> Vec<&Path> {
        let segs = self.seg_scores.iter().flat_map(|(_, f)| f);
        self.hyp.iter().chain(segs).map(PathBuf::as_path).collect()
    }
    fn threads(&self) -> Option<&ThreadArgs> {
        Some(&self.threads)
    }
}

impl Common for CompareArgs {}

pub fn slice(a: SliceArgs) -> Result<()> {
    let name = a.name.unwrap_or_else(|| system_name(&a.hyp));
    check_name(&name)?;
    slice_sets(&a.sets, &a.hyp, &name)
}

pub fn score(a: ScoreArgs) -> Result<()> {
    for name in &a.lower_is_better {
        if !a.seg_scores.iter().any(|(n, _)| n == name) {
            return Err(Error::Config(format!(
                "--lower-is-better {}: no --seg-scores metric of that name",
                ldd_io::error::quote(name, 40)
            )));
        }
    }
    let seg_scores = a
        .seg_scores
        .iter()
        .map(|(name, files)| SegScores {
            name: name.clone(),
            files: files.clone(),
            higher_is_better: !a.lower_is_better.contains(name),
        })
        .collect();
    let opts = ScoreOptions {
        hyps: a.hyp,
        reference: a.reference,
        seg_scores,
        significance: a.significance.options(),
        metrics: a.metrics,
        align_model: a.align_model,
        lemma_model: a.lemma_model,
        contrastive: a.contrast.map(|dir| ContrastiveOptions {
            dir,
            files: a.contrastive,
        }),
    };
    check_options(&opts)?;
    let sets = load(&a.sets)?;
    let scored = score_sets(&sets, &opts)?;
    let dir = a.out.as_ref().unwrap_or(&a.sets);
    let (merged, judgements, earlier) =
        with_earlier(dir, scored.scores, scored.judgements, a.replace)?;
    let report = &merged;
    // Inputs are never replaced by the outputs.
    let mut inputs: Vec<&std::path::Path> = opts.hyps.iter().map(PathBuf::as_path).collect();
    inputs.extend(
        opts.seg_scores
            .iter()
            .flat_map(|s| s.files.iter().map(PathBuf::as_path)),
    );
    inputs.extend(report.reference.as_deref());
    write_outputs(report, judgements.as_deref(), dir, &inputs)?;
    if !a.quiet.quiet {
        print!("{}", render_table(report));
        if let Some(w) = small_sets_warning(report) {
            eprintln!("{w}");
        }
        let scores = ldd_io::error::shown(&dir.join(SCORES_JSON));
        match &earlier {
            Earlier::Merged { systems, metrics } => {
                let mut kept = Vec::new();
                if !systems.is_empty() {
                    kept.push(format!("the systems {}", systems.join(", ")));
                }
                if !metrics.is_empty() {
                    kept.push(format!("the metrics {}", metrics.join(", ")));
                }
                eprintln!(
                    "ldd-sets: note: {scores} keeps the earlier scores of {} beside this run's \
                     (merged: same sets, settings and baseline; --replace discards them)",
                    kept.join(" and of ")
                )
            }
            Earlier::Replaced(names) => eprintln!(
                "ldd-sets: note: {scores} replaced the earlier scores of {} (--replace)",
                names.join(", ")
            ),
            _ => {}
        }
        // A report of these sets shows the scores as they were when it was written.
        for format in ["html", "tex"] {
            let page = report_file(&a.sets, format);
            if page.is_file() {
                eprintln!(
                    "ldd-sets: note: {} shows the earlier scores; update it: ldd-sets report \
                     --sets {}{}",
                    ldd_io::error::shown(&page),
                    ldd_io::error::shown(&a.sets),
                    if format == "tex" {
                        " --format latex"
                    } else {
                        ""
                    }
                );
            }
        }
    }
    Ok(())
}

pub fn compare(a: CompareArgs) -> Result<()> {
    let rows = compare_sets(&a.gold, &a.pred, &a.bucket)?;
    print!("{}", compare_table(&rows));
    Ok(())
}
