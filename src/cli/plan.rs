//! The run plan, ripgrep's second stage of flags: clap reads the command line into the
//! option groups of [`super::args`] (what was typed); this module resolves them, once,
//! into what the library runs with — the language pair's config with its model's download
//! source, the rules that run, and the reordering, control, aligner and parse options.
//! No other module of the command line turns a flag into an option.

use std::path::PathBuf;

use ldd_sets::config::{Languages, Pair, PairOrigin, PairSpec};
use ldd_sets::detect::alignment::{AlignOptions, Direction, ModelType, Progress};
use ldd_sets::detect::reorder::{Measure, ReorderOptions};
use ldd_sets::detect::rules::RuleSet;
use ldd_sets::error::{Error, Result};
use ldd_sets::layout::aligner_cache_dir;
use ldd_sets::parse::{cache_dir, ParseSettings, MODELS_URL_ENV};
use ldd_sets::pipeline::{check_phenomena, check_shard_reorder, select_rules};
use ldd_sets::printer;
use ldd_sets::read::shard::Shard;
use ldd_sets::sample::ControlOptions;

use super::args::{AlignArgs, ConfigArgs, ControlArgs, ModelArgs, PlanArgs, SetArgs, ThreadArgs};

/// What `extract` and `run` run with, resolved from their [`PlanArgs`].
pub struct Plan {
    /// The language pair's config, its model's download source filled in.
    pub pair: Pair,
    /// The rules that run.
    pub rules: RuleSet,
    /// Reordering sets (`None`: `--no-reorder`).
    pub reorder: Option<ReorderOptions>,
    /// Length-matched controls.
    pub controls: ControlOptions,
    /// Model lookup, parse cache, threads, and whether to print nothing but errors.
    pub parse: ParseSettings,
    /// Only this shard of every corpus (`None`: whole corpora).
    pub shard: Option<Shard>,
}

impl Plan {
    /// The plan of `args` for `pair` on a corpus whose source language is `src_lang`,
    /// aligned by the built-in aligner or read from `alignments` (`extract --alignments`).
    /// Refuses, before any work, a run that would extract nothing and a sharded run that
    /// would train one aligner per shard.
    pub fn new(
        args: &PlanArgs,
        pair: Pair,
        src_lang: &str,
        alignments: Option<PathBuf>,
    ) -> Result<Plan> {
        let quiet = args.quiet.quiet;
        let s = &args.sets;
        let rules = select_rules(
            s.rules.as_deref(),
            s.phenomena.as_deref(),
            s.max_distance,
            Some(&pair),
            src_lang,
        )?;
        if let Some(note) = check_phenomena(&rules, src_lang, !s.no_reorder)? {
            if !quiet {
                printer::say(&note);
            }
        }
        // Trained aligners are kept beside the parses (none when there is no cache
        // directory: no --cache, $LDD_SETS_CACHE or home).
        let cache = cache_dir(args.model.cache.as_deref())
            .ok()
            .map(|d| aligner_cache_dir(&d));
        let reorder = reorder_options(s, &args.align, alignments, cache, !quiet)?;
        if let Some(shard) = args.shard.shard {
            check_shard_reorder(shard, reorder.as_ref())?;
        }
        Ok(Plan {
            pair: with_model_source(&args.model, pair)?,
            rules,
            reorder,
            controls: control_options(&args.controls),
            parse: parse_settings(&args.model, &args.threads, quiet),
            shard: args.shard.shard,
        })
    }
}

/// The configuration of the pair `--pair` names (see `Pair::resolve`), with a note on
/// stderr when it comes from the registry defaults.
pub fn pair(config: &ConfigArgs, pair: &str, quiet: bool) -> Result<Pair> {
    resolve(config, &pair.parse()?, quiet)
}

/// The pair of `extract`: `--pair` if given, else the pair of the corpus's languages (its
/// config if one exists, else the registry's defaults, without a note: the config only
/// matters for the model and the rules).
pub fn pair_of(
    config: &ConfigArgs,
    pair: Option<&str>,
    languages: &Languages,
    quiet: bool,
) -> Result<Pair> {
    match pair {
        Some(p) => self::pair(config, p, quiet),
        None => resolve(config, &PairSpec::Languages(languages.clone()), true),
    }
}

fn resolve(config: &ConfigArgs, spec: &PairSpec, quiet: bool) -> Result<Pair> {
    let (p, origin) = Pair::resolve(spec, config.config.as_deref())?;
    if !quiet && origin == PairOrigin::Registry {
        let model = p.model.as_ref().map_or_else(
            || "no registry model for the source language".to_string(),
            |m| format!("model {}", m.name),
        );
        printer::say(&format!(
            "ldd-sets: pair {spec}: no config, using the defaults ({model}; corpus files \
                 <name>.{}.<lang>[.gz])",
            p.files
        ));
    }
    Ok(p)
}

/// The parse stage's settings.
pub fn parse_settings(m: &ModelArgs, threads: &ThreadArgs, quiet: bool) -> ParseSettings {
    ParseSettings {
        model: m.model.clone(),
        models_dir: m.models.clone(),
        cache_dir: m.cache.clone(),
        offline: m.offline,
        threads: threads.count(),
        quiet,
    }
}

/// `pair` with its model's download source: the registry's checksum where the config has
/// none, and the URL under `--models-url`, else `$LDD_SETS_MODELS_URL`, else the
/// registry's base URL.
pub fn with_model_source(m: &ModelArgs, mut pair: Pair) -> Result<Pair> {
    let env = std::env::var(MODELS_URL_ENV).ok().filter(|u| !u.is_empty());
    let base = m.models_url.clone().or(env);
    if let Some(spec) = &pair.model {
        pair.model = Some(Pair::model_source(spec, base.as_deref())?);
    }
    Ok(pair)
}

/// The aligner's options (model and direction: as given, else the defaults).
pub fn align_options(
    a: &AlignArgs,
    progress: bool,
    (model, direction): (ModelType, Direction),
) -> AlignOptions {
    AlignOptions {
        model_type: a.align_model_type.unwrap_or(model),
        direction: a.align_direction.unwrap_or(direction),
        iterations: a.align_iterations,
        train: a.align_train.clone(),
        model: a.align_model.clone(),
        save_model: a.save_align_model.clone(),
        pretokenized: a.pretokenized,
        max_tokens: a.align_max_tokens,
        lowercase: a.align_lowercase,
        train_max: a.align_train_max,
        progress: if progress {
            Progress::new(ldd_sets::printer::align::progress())
        } else {
            Progress::default()
        },
    }
}

/// The control sampler's options.
fn control_options(c: &ControlArgs) -> ControlOptions {
    ControlOptions {
        count: c.controls as usize,
        seed: c.seed,
        allow_set_members: c.controls_include_set,
        ..ControlOptions::default()
    }
}

/// The reordering options (`None` with `--no-reorder`), trained aligners kept in `cache`.
fn reorder_options(
    s: &SetArgs,
    align: &AlignArgs,
    alignments: Option<PathBuf>,
    cache: Option<PathBuf>,
    progress: bool,
) -> Result<Option<ReorderOptions>> {
    if s.no_reorder {
        return Ok(None);
    }
    let measure = match (s.reorder_measure, s.paper_compat) {
        (Some(m), _) => m,
        (None, true) => Measure::Position,
        (None, false) => Measure::DEFAULT,
    };
    if s.paper_compat && measure != Measure::Position {
        return Err(Error::Config(format!(
            "--paper-compat uses the position measure; it cannot build sets with \
                 --reorder-measure {measure}"
        )));
    }
    if s.paper_compat && align.align_model_type == Some(ModelType::Hmm) {
        return Err(Error::Config(
            "--paper-compat aligns with fast_align's model, as the paper did; it cannot use \
             --align-model-type hmm"
                .into(),
        ));
    }
    let defaults = if s.paper_compat {
        (ModelType::FastAlign, Direction::Reverse)
    } else {
        (ModelType::DEFAULT, Direction::Intersection)
    };
    let buckets = s
        .reorder_buckets
        .clone()
        .unwrap_or_else(|| measure.default_buckets().to_vec());
    measure.check_thresholds(&buckets).map_err(Error::Config)?;
    Ok(Some(ReorderOptions {
        buckets,
        measure,
        paper_compat: s.paper_compat,
        align: align_options(align, progress, defaults),
        alignments,
        trained: None,
        cache,
    }))
}
