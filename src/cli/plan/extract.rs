//! The plans of `extract` and `run`: the language pair, the rules, the reordering,
//! control, aligner and parse options, and where the sets go.

use std::path::PathBuf;

use ldd_sets::config::{Languages, Pair};
use ldd_sets::error::{Error, Result};
use ldd_sets::layout::aligner_cache_dir;
use ldd_sets::pipeline::align::{Direction, ModelType};
use ldd_sets::pipeline::detect::reorder::{Measure, ReorderOptions};
use ldd_sets::pipeline::parse::{cache_dir, ParseSettings};
use ldd_sets::pipeline::read::shard::Shard;
use ldd_sets::pipeline::sample::ControlOptions;
use ldd_sets::pipeline::{check_phenomena, check_shard_reorder, select_rules, Output, SetOptions};
use ldd_sets::printer;

use super::super::args::extract::{ExtractArgs, RunArgs};
use super::super::args::{AlignArgs, ControlArgs, PlanArgs, SetArgs};
use super::{align_options, pair, pair_of, parse_settings, with_model_source};

/// What the stages of `extract` and `run` run with, resolved from their [`PlanArgs`].
pub struct Stages {
    /// The language pair's config, its model's download source filled in.
    pub pair: Pair,
    /// The rules that run, and the reordering sets (`None`: `--no-reorder`).
    pub sets: SetOptions,
    /// Length-matched controls.
    pub controls: ControlOptions,
    /// Model lookup, parse cache, threads, and whether to print nothing but errors.
    pub parse: ParseSettings,
    /// Only this shard of every corpus (`None`: whole corpora).
    pub shard: Option<Shard>,
}

/// `extract`'s plan: one corpus.
pub struct ExtractPlan {
    /// The corpus's languages.
    pub languages: Languages,
    /// What the stages run with.
    pub stages: Stages,
    /// Source side of the corpus.
    pub source: PathBuf,
    /// Target side.
    pub target: PathBuf,
    /// The given parse (`None`: parse with UDPipe).
    pub conllu: Option<PathBuf>,
    /// Do not check the given parse's trees against their lines (`--trust-conllu`).
    pub trust_conllu: bool,
    /// Where the sets go (the UDPipe model is added to `protect` once found).
    pub out: Output,
    /// Print nothing but errors.
    pub quiet: bool,
}

/// `run`'s plan: every corpus of a language pair found in a directory.
pub struct RunPlan {
    /// The pair's languages.
    pub languages: Languages,
    /// What the stages run with.
    pub stages: Stages,
    /// The directory of corpora.
    pub corpora: PathBuf,
    /// Only these corpora (`None`: all found).
    pub only: Option<Vec<String>>,
    /// The output directory, one subdirectory per corpus.
    pub out: PathBuf,
    /// `--replace`.
    pub replace: bool,
    /// Print nothing but errors.
    pub quiet: bool,
}

/// `extract`'s plan: the pair of `--pair` or of the corpus's languages; with a given
/// parse, trained aligners are kept nowhere but with the sets (and `--save-align-model`).
pub fn extract(args: &ExtractArgs) -> Result<ExtractPlan> {
    let languages = Languages::new(&args.src_lang, &args.tgt_lang)?;
    let quiet = args.plan.quiet.quiet;
    let pair = pair_of(&args.plan.config, args.pair.as_deref(), &languages, quiet)?;
    let mut stages = Stages::new(
        &args.plan,
        pair,
        languages.source(),
        args.alignments.clone(),
    )?;
    if args.conllu.is_some() {
        // A given parse uses no cache.
        if let Some(r) = &mut stages.sets.reorder {
            r.cache = None;
        }
    }
    Ok(ExtractPlan {
        languages,
        stages,
        source: args.src.clone(),
        target: args.tgt.clone(),
        conllu: args.conllu.clone(),
        trust_conllu: args.trust_conllu,
        out: Output {
            dir: args.out.to_path_buf(),
            protect: Vec::new(),
            replace: args.plan.replace.replace,
        },
        quiet,
    })
}

/// `run`'s plan: the pair of `--pair` and its languages.
pub fn run(args: &RunArgs) -> Result<RunPlan> {
    let quiet = args.plan.quiet.quiet;
    let pair = pair(&args.plan.config, &args.pair, quiet)?;
    let languages = Languages::new(&pair.source, &pair.target)?;
    let stages = Stages::new(&args.plan, pair, languages.source(), None)?;
    Ok(RunPlan {
        languages,
        stages,
        corpora: args.corpora.clone(),
        only: args.only.clone(),
        out: args.out.to_path_buf(),
        replace: args.plan.replace.replace,
        quiet,
    })
}

impl Stages {
    /// The stages of `args` for `pair` on a corpus whose source language is `src_lang`,
    /// aligned by the built-in aligner or read from `alignments` (`extract --alignments`).
    /// Refuses, before any work, a run that would extract nothing and a sharded run that
    /// would train one aligner per shard.
    fn new(
        args: &PlanArgs,
        pair: Pair,
        src_lang: &str,
        alignments: Option<PathBuf>,
    ) -> Result<Stages> {
        let quiet = args.quiet.quiet;
        let s = &args.sets;
        let pair = with_model_source(&args.model, pair)?;
        let controls = control_options(&args.controls);
        let parse = parse_settings(&args.model, &args.threads, quiet);
        // What detection will run, asked of detect in one go: the reordering sets, that a
        // shard can build them, the rules.
        let mut reorder = reorder_options(s, &args.align, alignments, !quiet)?;
        if let Some(shard) = args.shard.shard {
            check_shard_reorder(shard, reorder.as_ref())?;
        }
        let rules = select_rules(
            s.rules.as_deref(),
            s.phenomena.as_deref(),
            s.max_distance,
            Some(&pair),
            src_lang,
            s.paper_compat,
        )?;
        let note = check_phenomena(&rules, src_lang, !s.no_reorder)?;
        if let Some(note) = note.filter(|_| !quiet) {
            printer::say(&note);
        }
        // Trained aligners are kept beside the parses (none when there is no cache
        // directory: no --cache, $LDD_SETS_CACHE or home).
        if let Some(r) = &mut reorder {
            r.cache = cache_dir(args.model.cache.as_deref())
                .ok()
                .map(|d| aligner_cache_dir(&d));
        }
        Ok(Stages {
            pair,
            sets: SetOptions { rules, reorder },
            controls,
            parse,
            shard: args.shard.shard,
        })
    }
}

/// The control sampler's options.
fn control_options(controls: &ControlArgs) -> ControlOptions {
    ControlOptions {
        count: controls.controls as usize,
        seed: controls.seed,
        allow_set_members: controls.controls_include_set,
        ..ControlOptions::default()
    }
}

/// The reordering options (`None` with `--no-reorder`), trained aligners kept nowhere yet
/// (the caller sets the cache).
fn reorder_options(
    sets: &SetArgs,
    align: &AlignArgs,
    alignments: Option<PathBuf>,
    progress: bool,
) -> Result<Option<ReorderOptions>> {
    if sets.no_reorder {
        return Ok(None);
    }
    let measure = match (sets.reorder_measure, sets.paper_compat) {
        (Some(m), _) => m,
        (None, true) => Measure::Position,
        (None, false) => Measure::DEFAULT,
    };
    if sets.paper_compat && measure != Measure::Position {
        return Err(Error::Config(format!(
            "--paper-compat uses the position measure; it cannot build sets with \
                 --reorder-measure {measure}"
        )));
    }
    if sets.paper_compat && align.align_model_type == Some(ModelType::Hmm) {
        return Err(Error::Config(
            "--paper-compat aligns with fast_align's model, as the paper did; it cannot use \
             --align-model-type hmm"
                .into(),
        ));
    }
    let defaults = if sets.paper_compat {
        (ModelType::FastAlign, Direction::Reverse)
    } else {
        (ModelType::DEFAULT, Direction::Intersection)
    };
    let align = align_options(align, progress, defaults);
    let buckets = sets
        .reorder_buckets
        .clone()
        .unwrap_or_else(|| measure.default_buckets().to_vec());
    measure.check_thresholds(&buckets).map_err(Error::Config)?;
    Ok(Some(ReorderOptions {
        buckets,
        measure,
        paper_compat: sets.paper_compat,
        align,
        alignments,
        trained: None,
        cache: None,
    }))
}
