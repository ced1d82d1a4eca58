//! The plans of `slice`, `score` and `compare`: the systems, the metrics' settings with
//! sacreBLEU's defaults, the significance tests, and where the scores go.

use std::path::PathBuf;

use ldd_eval::metric::Settings;
use ldd_eval::tokenize::TokenizerName;
use ldd_eval::{BleuScoring, Chrf, ChrfScoring, Smooth, Ter};

use ldd_sets::error::{Error, Result};
use ldd_sets::printer::score_table::{Shown, TableOptions};
use ldd_sets::score::contrastive::{ContrastiveOptions, KEY as CONTRASTIVE_KEY};
use ldd_sets::score::{check_options, Method, ScoreOptions, SegScores, SignificanceOptions};

use super::super::args::score::{
    CompareArgs, MetricArgs, ScoreArgs, ScoreFormat, ShownArgs, SignificanceArgs, SliceArgs,
};
use super::super::args::SystemArg;
use super::systems;

/// `slice`'s plan.
pub struct SlicePlan {
    /// The sets directory.
    pub sets: PathBuf,
    /// The system's translation of the whole corpus.
    pub hyp: PathBuf,
    /// The system's name in the sliced files' names, checked.
    pub name: String,
}

/// `score`'s plan.
pub struct ScorePlan {
    /// The sets directory.
    pub sets: PathBuf,
    /// What is scored, and how (checked by `score::check_options`).
    pub options: ScoreOptions,
    /// Where scores.csv and scores.json go (`--out`, else the sets directory).
    pub out: PathBuf,
    /// `--replace`: the earlier scores there are dropped, not merged.
    pub replace: bool,
    /// Print nothing but errors.
    pub quiet: bool,
    /// What stdout shows.
    pub shown: Shown,
    /// `--force`: no warning about tokenized-looking files.
    pub force: bool,
}

/// `compare`'s plan.
pub struct ComparePlan {
    /// The reference run's sets directory.
    pub gold: PathBuf,
    /// The evaluated run's sets directory.
    pub pred: PathBuf,
    /// The set compared in every phenomenon.
    pub bucket: String,
}

/// `slice`'s plan: the system named as `score` names it ([`systems`]).
pub fn slice(args: &SliceArgs) -> Result<SlicePlan> {
    if args.hyp.path.as_os_str() == "-" {
        return Err(Error::Config(
            "slice --hyp -: slice reads the output once per set; give it as a file".into(),
        ));
    }
    let names: Vec<String> = args.name.iter().cloned().collect();
    let name = systems("--hyp", std::slice::from_ref(&args.hyp), &names)?.remove(0);
    Ok(SlicePlan {
        sets: args.sets.clone(),
        hyp: args.hyp.path.clone(),
        name,
    })
}

/// `score`'s plan: every `--lower-is-better` names a metric, the metrics' settings are
/// valid, and the options hang together (`score::check_options`).
pub fn score(args: &ScoreArgs) -> Result<ScorePlan> {
    let contrastive_costs = args.lower_is_better.iter().any(|n| n == CONTRASTIVE_KEY);
    for name in &args.lower_is_better {
        if name == CONTRASTIVE_KEY {
            if args.contrast.is_none() {
                return Err(Error::Config(
                    "--lower-is-better contrastive: give --contrast DIR --contrastive FILE".into(),
                ));
            }
        } else if !args.seg_scores.iter().any(|(n, _)| n == name) {
            return Err(Error::Config(format!(
                "--lower-is-better {}: no --seg-scores metric of that name (nor `contrastive`)",
                ldd_io::error::quote(name, 40)
            )));
        }
    }
    let seg_scores = args
        .seg_scores
        .iter()
        .map(|(name, files)| SegScores {
            name: name.clone(),
            files: files.clone(),
            higher_is_better: !args.lower_is_better.contains(name),
        })
        .collect();
    // The systems are the outputs, or without any the contrastive scores' files.
    let named: &[SystemArg] = if args.hyp.is_empty() {
        &args.contrastive
    } else {
        &args.hyp
    };
    let flag = if args.hyp.is_empty() {
        "--contrastive"
    } else {
        "--hyp"
    };
    let names = systems(flag, named, &args.name)?;
    if !args.hyp.is_empty() {
        if let Some(c) = args.contrastive.iter().find(|c| c.name.is_some()) {
            return Err(Error::Config(format!(
                "--contrastive {}: with --hyp the systems are named by --hyp; give the \
                 contrastive scores' files without NAME=",
                ldd_io::error::quote(&c.given, 100)
            )));
        }
    }
    let options = ScoreOptions {
        hyps: args.hyp.iter().map(|h| h.path.clone()).collect(),
        names,
        references: args.reference.clone(),
        settings: metric_settings(&args.metric)?,
        seg_scores,
        significance: significance(&args.significance),
        metrics: args.metrics.clone(),
        align_model: args.align_model.clone(),
        parsing: args.parsing.parsing(args.quiet.quiet),
        contrastive: args.contrast.clone().map(|dir| ContrastiveOptions {
            dir,
            files: args.contrastive.iter().map(|c| c.path.clone()).collect(),
            higher_is_better: !contrastive_costs,
        }),
    };
    check_options(&options)?;
    if let Some(out) = &args.out {
        out_dir(out)?;
    }
    Ok(ScorePlan {
        sets: args.sets.clone(),
        options,
        out: args
            .out
            .clone()
            .map(std::path::PathBuf::from)
            .unwrap_or_else(|| args.sets.clone()),
        replace: args.replace,
        quiet: args.quiet.quiet,
        shown: shown(&args.shown)?,
        force: args.force,
    })
}

/// What stdout shows: `-b` and `--wide` go with the table only.
fn shown(shown: &ShownArgs) -> Result<Shown> {
    let table = TableOptions {
        wide: shown.wide,
        decimals: usize::from(shown.width),
    };
    let only_table = |flag: &str| {
        Error::Config(format!(
            "{flag}: goes with --format table (the JSON and CSV hold every digit and column)"
        ))
    };
    Ok(match shown.format {
        ScoreFormat::Table if shown.score_only && shown.wide => {
            return Err(Error::Config(
                "-b/--score-only prints the scores alone; --wide widens the table: give one".into(),
            ))
        }
        ScoreFormat::Table if shown.score_only => Shown::ScoreOnly(table),
        ScoreFormat::Table => Shown::Table(table),
        _ if shown.score_only => return Err(only_table("-b/--score-only")),
        _ if shown.wide => return Err(only_table("--wide")),
        ScoreFormat::Summary => Shown::Summary(table),
        ScoreFormat::Json => Shown::Json,
        ScoreFormat::Csv => Shown::Csv,
    })
}

/// `score --out DIR`, checked before any work: a directory (created when missing), not a
/// file.
fn out_dir(out: &std::path::Path) -> Result<()> {
    if out.exists() && !out.is_dir() {
        return Err(Error::Config(format!(
            "--out {}: is a file, not a directory; `score` writes scores.json and scores.csv \
             into the directory --out names (created when missing): give a directory",
            ldd_io::error::shown(out)
        )));
    }
    Ok(())
}

/// `compare`'s plan: the flags as given.
pub fn compare(args: &CompareArgs) -> ComparePlan {
    ComparePlan {
        gold: args.gold.clone(),
        pred: args.pred.clone(),
        bucket: args.bucket.clone(),
    }
}

/// BLEU's, chrF's and TER's settings, checked.
fn metric_settings(metric: &MetricArgs) -> Result<Settings> {
    let smooth = Smooth::parse(&metric.smooth_method, metric.smooth_value).ok_or_else(|| {
        Error::Config(format!(
            "--smooth-value: only floor and add-k smoothing take a value, not {}",
            metric.smooth_method
        ))
    })?;
    let s = Settings {
        tokenize: metric.tokenize.as_deref().and_then(TokenizerName::parse),
        lowercase: metric.lowercase,
        bleu: BleuScoring {
            max_order: metric.max_ngram_order,
            smooth,
            effective_order: metric.effective_order,
        },
        chrf: Chrf {
            scoring: ChrfScoring {
                char_order: metric.chrf_char_order,
                word_order: metric.chrf_word_order,
                beta: metric.chrf_beta,
                eps_smoothing: metric.chrf_eps_smoothing,
            },
            whitespace: metric.chrf_whitespace,
            lowercase: metric.chrf_lowercase,
        },
        ter: Ter {
            normalized: metric.ter_normalized,
            no_punct: metric.ter_no_punct,
            asian_support: metric.ter_asian_support,
            case_sensitive: metric.ter_case_sensitive,
        },
    };
    s.check().map_err(|e| Error::Config(e.to_string()))?;
    Ok(s)
}

/// The intervals' and paired tests' options (`--paired-ar`, else `--paired-bs`, else the
/// default for the number of systems).
fn significance(significance: &SignificanceArgs) -> SignificanceOptions {
    SignificanceOptions {
        method: if significance.paired_ar {
            Some(Method::Randomization)
        } else if significance.paired_bs {
            Some(Method::Bootstrap)
        } else {
            None
        },
        bootstrap: significance.paired_bs_n as usize,
        trials: significance.paired_ar_n as usize,
        seed: significance.seed,
        confidence: significance.confidence,
    }
}
