//! Option groups, each defined once and flattened into every subcommand that takes it, so
//! every concept has one flag name, one default and one help text. They hold what was
//! typed; [`super::plan`] resolves them into the library's options. Each command's own
//! argument struct is in the module of its name here (`args::score::ScoreArgs`, ...), below
//! the plan that reads it and the handler that runs it: handler → plan → arguments.

pub mod align;
pub mod contrast;
pub mod corpora;
pub mod detection;
pub mod extract;
pub mod judge;
pub mod languages;
pub mod merge;
pub mod mqm;
pub mod outputs;
pub mod parse;
pub mod permute;
pub mod report;
pub mod score;

use std::path::{Path, PathBuf};

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::Args;

use ldd_io::Output;
use ldd_sets::error::{Error, Result};
use ldd_sets::locus::Parsing;
use ldd_sets::pipeline::align::{Direction, ModelType, DEFAULT_MAX_TOKENS};
use ldd_sets::pipeline::detect::reorder::Measure;
use ldd_sets::pipeline::parse::TargetChoice;
use ldd_sets::pipeline::read::shard::Shard;

use outputs::output;

/// What every command shares, done once in `cli::main` before the command runs: its worker
/// threads, and the files it reads, noted so that no output of the run can replace one.
pub trait Common {
    /// The files the command reads (given on its command line).
    fn inputs(&self) -> Vec<&Path> {
        Vec::new()
    }
    /// Its `--threads`, if it takes the flag.
    fn threads(&self) -> Option<&ThreadArgs> {
        None
    }
    /// The files its path options name through a prefix (`--align-model P`: P's model
    /// files), noted as inputs beside [`Common::inputs`] before any output is checked.
    fn derived_inputs(&self) -> Vec<PathBuf> {
        Vec::new()
    }
}

/// The model files an aligner model prefix (`--align-model P`) names, of either type.
pub fn model_prefix_files(prefix: Option<&PathBuf>) -> Vec<PathBuf> {
    prefix.map_or_else(Vec::new, |p| outputs::aligner_files(p))
}

/// The given paths among `paths`, for [`Common::inputs`].
pub fn given<'a>(paths: impl IntoIterator<Item = Option<&'a PathBuf>>) -> Vec<&'a Path> {
    paths.into_iter().flatten().map(PathBuf::as_path).collect()
}

/// The most worker threads accepted.
pub const MAX_THREADS: usize = 256;

/// How locus accuracy parses the reference and the outputs: `score`, `mqm` and `sheets`
/// take the same options.
#[derive(Args, Debug, Clone)]
pub struct TargetParseArgs {
    /// For locus accuracy: the target language's UDPipe 1 model, which parses the reference
    /// and every output (the lines of the sets only; cached), so that another form of a
    /// word counts by its lemma and each locus's relation is checked in the output (a
    /// particle attached to its verb and in its place, a reflexive in its person;
    /// docs/evaluation.md). FILE (a bare file name not in the current directory is looked
    /// up in the models directory), `auto` (the registry's model in the models directory:
    /// $LDD_SETS_MODELS, else ~/.cache/ldd-sets/models; never downloaded) or `none`
    /// [default: the registry's model when it is there, else none, said once].
    #[arg(long, value_name = "FILE|auto|none", value_parser = TargetChoice::parse, alias = "lemma-model")]
    pub tgt_model: Option<TargetChoice>,
    /// Where the parses of the judged lines are kept [default: $LDD_SETS_CACHE, else
    /// ~/.cache/ldd-sets/parses].
    #[arg(long, value_name = "DIR", value_parser = output(&outputs::CACHE))]
    pub cache: Option<Output>,
}

impl TargetParseArgs {
    /// The library's options (`quiet`: no note about a missing model).
    pub fn parsing(&self, quiet: bool) -> Parsing {
        Parsing {
            model: self.tgt_model.clone().unwrap_or_default(),
            cache: self.cache.clone().map(std::path::PathBuf::from),
            quiet,
        }
    }
}

/// `--threads`.
#[derive(Args, Debug, Clone)]
pub struct ThreadArgs {
    /// Worker threads [default: all cores; at most 256]. Output does not depend on it.
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
}

impl ThreadArgs {
    /// Sizes the global thread pool.
    pub fn apply(&self) -> Result<()> {
        if let Some(n) = self.threads {
            if n == 0 || n > MAX_THREADS {
                return Err(Error::Config(format!(
                    "--threads {n}: must be between 1 and {MAX_THREADS}"
                )));
            }
            rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build_global()
                .map_err(|e| Error::Config(format!("--threads: {e}")))?;
        }
        Ok(())
    }

    /// The number for components that take 0 as "all cores".
    pub fn count(&self) -> usize {
        self.threads.unwrap_or(0)
    }
}

/// `--shard`.
#[derive(Args, Debug, Clone)]
pub struct ShardArgs {
    /// Process only shard I of N of the corpus: a contiguous range of lines fixed by the
    /// corpus's line count L (lines (I-1)*L/N+1 ..= I*L/N, rounded down), so each shard
    /// knows its range without the others. Set ids stay corpus line numbers; parses are
    /// cached per shard; no controls are drawn. `ldd-sets merge` joins the N outputs, draws
    /// the controls over the whole corpus, and gives the output of an unsharded run.
    /// Reordering sets need one aligner for all shards: --align-model (or --alignments).
    #[arg(long, value_name = "I/N", value_parser = clap::builder::NonEmptyStringValueParser::new().try_map(|s| s.parse::<Shard>()))]
    pub shard: Option<Shard>,
}

/// `--quiet`.
#[derive(Args, Debug, Clone)]
pub struct QuietArgs {
    /// Print nothing but errors (no progress bar, no summary).
    #[arg(long, short)]
    pub quiet: bool,
}

fn model_type_parser() -> impl TypedValueParser<Value = ModelType> {
    PossibleValuesParser::new(ModelType::ALL.map(ModelType::name))
        .try_map(|s| s.parse::<ModelType>())
}

fn direction_parser() -> impl TypedValueParser<Value = Direction> {
    PossibleValuesParser::new(Direction::ALL.map(Direction::name))
        .try_map(|s| s.parse::<Direction>())
}

/// The aligner: `extract`, `run` and `align` take the same options.
#[derive(Args, Debug, Clone)]
pub struct AlignArgs {
    /// Alignment model: hmm (the HMM by agreement, both directions trained together; AER
    /// 0.18 on the shared hand-aligned de-en gold, against 0.26 for fast_align's model and
    /// about 0.20 for eflomal) or fast-align (fast_align's IBM Model 2, the paper's)
    /// [default: hmm; always fast-align with extract/run --paper-compat].
    #[arg(long, value_name = "MODEL", value_parser = model_type_parser())]
    pub align_model_type: Option<ModelType>,
    /// Alignment used: intersection of the two directional models (most precise),
    /// reverse (the paper's fast_align -r), forward, union, grow-diag-final-and
    /// [default: intersection; reverse with extract/run --paper-compat].
    #[arg(long, value_name = "HOW", value_parser = direction_parser())]
    pub align_direction: Option<Direction>,
    /// EM iterations of fast_align's model (fast_align -I); the HMM has its own (2 IBM
    /// Model 1, then 5 HMM).
    #[arg(long, value_name = "N", default_value_t = 5,
          value_parser = clap::value_parser!(u32).range(1..=100))]
    pub align_iterations: u32,
    /// Extra parallel data for training the aligner: files PREFIX.SRC[.gz] and
    /// PREFIX.TGT[.gz] (repeatable). A small test set alone aligns poorly. The corpus's own
    /// pairs are added unless its files are one of the prefixes; run trains once on all
    /// the pair's corpora and these.
    #[arg(long, value_name = "PREFIX")]
    pub align_train: Vec<PathBuf>,
    /// Load a trained aligner model instead of training: PREFIX.hmm.ldda (hmm), or
    /// PREFIX.fwd.ldda / PREFIX.rev.ldda (fast-align).
    #[arg(long, value_name = "PREFIX", conflicts_with = "align_train")]
    pub align_model: Option<PathBuf>,
    /// Save the trained aligner model as PREFIX.hmm.ldda (hmm), or PREFIX.fwd.ldda /
    /// PREFIX.rev.ldda (fast-align).
    #[arg(
        long,
        value_name = "PREFIX",
        alias = "save-model",
        conflicts_with = "align_model",
        value_parser = output(&outputs::ALIGNER)
    )]
    pub save_align_model: Option<Output>,
    /// Text is tokenized already: split on whitespace for alignment (the target side, and
    /// the source side when there is no parse) instead of the aligner's tokenizer
    /// (--align-train data is always split by the aligner's tokenizer).
    #[arg(long)]
    pub pretokenized: bool,
    /// Sentence pairs with more tokens than this on either side are left out of training
    /// (counted and reported); fast_align's model aligns them afterwards one at a time, in
    /// memory linear in their length, the HMM leaves them unaligned. Training memory grows
    /// with the product of the two lengths of a pair.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_TOKENS,
          value_parser = clap::value_parser!(u64).range(1..=100_000).map(|n| n as usize))]
    pub align_max_tokens: usize,
    /// Lowercase both sides (and the training data) before aligning, as alignment
    /// evaluations usually do; set files and marked files keep the original case.
    #[arg(long)]
    pub align_lowercase: bool,
    /// Train the aligner on at most N sentence pairs of its training data, spread evenly
    /// over it, and align every pair with that model: for corpora beyond what training on
    /// everything needs (see docs/reordering.md for what it costs in alignment error rate).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub align_train_max: Option<u64>,
}

/// Length-matched controls.
#[derive(Args, Debug, Clone)]
pub struct ControlArgs {
    /// Length-matched control corpora per set (0: none; at most 1000). The paper used 100.
    #[arg(long, value_name = "K", default_value_t = 10,
          value_parser = clap::value_parser!(u32).range(0..=1000))]
    pub controls: u32,
    /// Seed for control sampling; the same seed gives byte-identical outputs.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub seed: u64,
    /// Let a set's own sentences be drawn as its controls.
    #[arg(long)]
    pub controls_include_set: bool,
}

/// Which sets to build.
#[derive(Args, Debug, Clone)]
pub struct SetArgs {
    /// Rules file defining the phenomena [default: the built-in config/phenomena.toml].
    #[arg(long, value_name = "FILE")]
    pub rules: Option<PathBuf>,
    /// Phenomena to run, comma-separated [default: the source language's defaults in the
    /// model registry (`ldd-sets languages`); for other languages, those whose `languages`
    /// include it]. Naming a phenomenon runs it for any language.
    #[arg(long, value_name = "NAMES", value_delimiter = ',')]
    pub phenomena: Option<Vec<String>>,
    /// Largest distance bucket: ge0..geN and eq0..eqN [default: the rules' buckets.max, 5].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(0..=100))]
    pub max_distance: Option<u32>,
    /// Do not build reordering sets (no word alignment).
    #[arg(long)]
    pub no_reorder: bool,
    /// Measure that builds the reorder/geK sets: crossing (two aligned words whose order
    /// flips, their positions at least K apart on both sides), position (an aligned
    /// word pair whose positions differ by at least K; the paper's), kendall or fuzzy
    /// (normalised Kendall tau distance / 1 - fuzzy reordering score of the alignment
    /// permutation, K in percent). Every measure is written to reorder/reorder.tsv
    /// [default: crossing; position with --paper-compat].
    #[arg(long, value_name = "MEASURE", value_parser = measure_parser())]
    pub reorder_measure: Option<Measure>,
    /// Thresholds K of the reorder/geK sets, in the measure's unit [default: crossing
    /// 7,9,11,13; position 5,10,15,20; kendall 15,20,25,30; fuzzy 70,80,90,100].
    #[arg(
        long,
        value_name = "K,..",
        value_delimiter = ',',
        value_parser = clap::value_parser!(u32).range(0..=1000)
    )]
    pub reorder_buckets: Option<Vec<u32>>,
    /// The paper's method exactly: its rules (config/phenomena-paper.toml instead of the
    /// built-in rules, unless --rules names a file; see docs/rules.md) and its released
    /// reordering criterion (auto_challenge_sets): position measure, a pair in geK when its
    /// distance is strictly greater than K, one link per source word, unaligned words at
    /// their own position, fast_align's reverse direction unless --align-direction says
    /// otherwise (see docs/reordering.md).
    #[arg(long)]
    pub paper_compat: bool,
}

fn measure_parser() -> impl TypedValueParser<Value = Measure> {
    PossibleValuesParser::new(Measure::ALL.map(Measure::name)).try_map(|s| s.parse::<Measure>())
}

/// The UDPipe model and the parse cache (used when no --conllu is given).
#[derive(Args, Debug, Clone)]
pub struct ModelArgs {
    /// UDPipe model file; a bare file name (german-small.udpipe) not in the current
    /// directory is looked up in the models directory (--models, else $LDD_SETS_MODELS,
    /// else ~/.cache/ldd-sets/models) [default: the language pair's model, see --pair].
    #[arg(long, value_name = "FILE")]
    pub model: Option<PathBuf>,
    /// Directory of UDPipe models [default: $LDD_SETS_MODELS, else ~/.cache/ldd-sets/models].
    #[arg(long, value_name = "DIR")]
    pub models: Option<PathBuf>,
    /// Base URL of the registry's model downloads, e.g. a mirror [default:
    /// $LDD_SETS_MODELS_URL, else LINDAT, handle 11234/1-3131]. Downloads are verified either way.
    #[arg(long, value_name = "URL")]
    pub models_url: Option<String>,
    /// Parse cache directory; trained aligners are kept in its aligners/ folder (by `run`,
    /// and by `extract` when it parses), reused when their training files are unchanged
    /// [default: $LDD_SETS_CACHE, else ~/.cache/ldd-sets/parses].
    #[arg(long, value_name = "DIR", value_parser = output(&outputs::CACHE))]
    pub cache: Option<Output>,
    /// Never download a model; fail with advice (the model file and its URL) instead.
    #[arg(long)]
    pub offline: bool,
}

/// Where language-pair configs are.
#[derive(Args, Debug, Clone)]
pub struct ConfigArgs {
    /// Directory holding pairs/<PAIR>.toml, which override the shipped configs and the
    /// registry defaults [default: ./config if it has the pair's file].
    #[arg(long, value_name = "DIR")]
    pub config: Option<PathBuf>,
}

/// Whether a previous output may be replaced when later commands added files to it.
#[derive(Args, Debug, Clone)]
pub struct ReplaceArgs {
    /// Replace the output directory even when later commands added files to it
    /// (scores.json, report.html, sliced outputs) and this run's sets differ from its:
    /// those files are then lost. Without it they are kept when the sets come out the
    /// same, and the run is refused when they do not.
    #[arg(long)]
    pub replace: bool,
}

/// The options `extract` and `run` share, resolved by [`super::plan`] into the stages'
/// options.
#[derive(Args, Debug, Clone)]
pub struct PlanArgs {
    #[command(flatten)]
    pub sets: SetArgs,
    #[command(flatten)]
    pub controls: ControlArgs,
    #[command(flatten)]
    pub align: AlignArgs,
    #[command(flatten)]
    pub model: ModelArgs,
    #[command(flatten)]
    pub config: ConfigArgs,
    #[command(flatten)]
    pub shard: ShardArgs,
    #[command(flatten)]
    pub replace: ReplaceArgs,
    #[command(flatten)]
    pub threads: ThreadArgs,
    #[command(flatten)]
    pub quiet: QuietArgs,
}

/// A system on the command line (`--hyp`, `--contrastive`): `FILE`, `NAME=FILE`, `-`
/// (standard input) or `NAME=-`. What stands before the first `=` is a name when it could
/// be one (letters, digits, `.`, `_`, `-`, starting with a letter or digit); otherwise the
/// whole argument is the file, so `dir/a=b.en` and `./a=b.en` name a file whose name holds
/// `=`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SystemArg {
    /// The name given with the file (`NAME=`).
    pub name: Option<String>,
    /// The file (`-`: standard input).
    pub path: PathBuf,
    /// The argument as typed (for messages).
    pub given: String,
}

impl SystemArg {
    /// The file of each system.
    pub fn paths(systems: &[SystemArg]) -> impl Iterator<Item = &Path> {
        systems.iter().map(|s| s.path.as_path())
    }
}

/// Clap's value parser of `--hyp` and `--contrastive`: [`parse_system`] on UTF-8 text; an
/// argument that is not UTF-8 is kept as a path without a name, so that the check of every
/// path's text names its option (exit 4) instead of clap's bare usage error.
pub fn system_parser() -> impl clap::builder::TypedValueParser<Value = SystemArg> {
    clap::builder::OsStringValueParser::new().try_map(|given: std::ffi::OsString| {
        match given.to_str() {
            Some(text) => parse_system(text),
            None => Ok(SystemArg {
                name: None,
                given: given.to_string_lossy().into_owned(),
                path: PathBuf::from(given),
            }),
        }
    })
}

/// Parses a [`SystemArg`] from `FILE` or `NAME=FILE`.
pub fn parse_system(value: &str) -> std::result::Result<SystemArg, String> {
    let split = value.split_once('=').filter(|(name, _)| {
        let mut c = name.chars();
        c.next().is_some_and(|f| f.is_ascii_alphanumeric())
            && c.all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
    });
    let (name, path) = match split {
        Some((name, path)) => (Some(name.to_string()), path),
        None => (None, value),
    };
    if path.is_empty() {
        return Err(format!("expected FILE or NAME=FILE (got `{value}`)"));
    }
    Ok(SystemArg {
        name,
        path: PathBuf::from(path),
        given: value.to_string(),
    })
}
