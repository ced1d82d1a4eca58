//! The arguments of `slice`, `score` and `compare`, as typed (the plan reads them).

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use clap::builder::PossibleValuesParser;
use clap::{Args, ValueEnum};
use ldd_eval::tokenize::TokenizerName;
use ldd_eval::Smooth;

use super::{system_parser, Common, QuietArgs, SystemArg, TargetParseArgs, ThreadArgs};
use ldd_io::Output;

use super::outputs::{self, output};

#[derive(Args)]
pub struct SliceArgs {
    /// Output directory of `ldd-sets extract`.
    #[arg(long, value_name = "DIR")]
    pub sets: PathBuf,
    /// A system's translation of the whole corpus, one line per corpus line; NAME=FILE
    /// names the system (as --name does).
    #[arg(long, value_name = "[NAME=]FILE", value_parser = system_parser())]
    pub hyp: SystemArg,
    /// System name used in the file names `<bucket>.hyp.NAME` [default: the --hyp file
    /// name without its last extension (and without .gz)]. Letters, digits, `_ - .`,
    /// starting with a letter or digit.
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
}

#[derive(Args)]
pub struct ScoreArgs {
    /// Output directory of `ldd-sets extract`.
    #[arg(long, value_name = "DIR")]
    pub sets: PathBuf,
    /// A system's translation of the whole corpus, one line per corpus line (repeat for
    /// several systems; the first is the baseline of the paired tests). NAME=FILE names the
    /// system [default: the file name without its last extension (and .gz)]; `-` reads the
    /// one system on standard input (named `stdin`, or NAME=-). A file whose name holds `=`:
    /// ./a=b.en. Not needed for contrastive accuracy alone (--contrastive).
    #[arg(long, value_name = "[NAME=]FILE", value_parser = system_parser(),
          required_unless_present = "contrastive")]
    pub hyp: Vec<SystemArg>,
    /// The name of a system: one --name per --hyp, in the same order (as NAME=FILE does).
    /// Letters, digits, `_ - .`, starting with a letter or digit.
    #[arg(long, value_name = "NAME")]
    pub name: Vec<String>,
    /// Reference (the corpus target side) [default: the target file recorded in the
    /// manifest]. Must be the file extract read (same SHA-256). Repeat for several
    /// references (sacreBLEU's multi-reference BLEU, chrF and TER; nrefs:N in the
    /// signatures): the first is the target side, each further one a translation of the
    /// whole corpus, one line per corpus line; sets and controls are cut from each.
    #[arg(long = "ref", value_name = "FILE")]
    pub reference: Vec<PathBuf>,
    /// Directory for scores.csv and scores.json [default: the --sets directory].
    #[arg(long, value_name = "DIR", value_parser = output(&outputs::SCORES))]
    pub out: Option<Output>,
    /// Segment-level scores of another metric (COMET, MetricX, BLEURT, ...): one number per
    /// corpus line, one file per --hyp in the same order (file names without commas).
    /// Aggregated as the mean per set, control and corpus, and tested like BLEU. NAME
    /// (lowercase letters, digits, `_ - .`) is the metric's key in the outputs. Repeatable.
    #[arg(long, value_name = "NAME=FILE1,FILE2,..", value_parser = parse_seg_scores)]
    pub seg_scores: Vec<(String, Vec<PathBuf>)>,
    /// A --seg-scores metric for which lower is better (e.g. MetricX): ranks and the
    /// set-vs-controls test are turned around; or `contrastive`: the --contrastive scores
    /// are costs (negative log-probabilities, as LingEval97's and ContraPro's scripts take
    /// by default), so an item passes when its reference scores lower than every variant.
    /// Repeatable.
    #[arg(long, value_name = "NAME")]
    pub lower_is_better: Vec<String>,
    /// Metrics to compute, comma-separated (sacreBLEU's --metrics): bleu, chrf, ribes (reorder
    /// sets only), ter (sacreBLEU's TER; lower is better), and locus — locus accuracy, the
    /// share of the sets' loci whose reference words each output renders, judged through
    /// word alignment (see docs/evaluation.md) [default: bleu,chrf,ribes].
    #[arg(long, short = 'm', value_name = "KEYS", value_delimiter = ',')]
    pub metrics: Vec<String>,
    /// Aligner model for --metrics locus: PREFIX.hmm.ldda (or fast_align's two files), as
    /// saved by `extract --save-align-model` [default: the model the manifest records as
    /// loaded or saved].
    #[arg(long, value_name = "PREFIX")]
    pub align_model: Option<PathBuf>,
    #[command(flatten)]
    pub parsing: TargetParseArgs,
    /// Output directory of `ldd-sets contrast` on these sets, for --contrastive.
    #[arg(long, value_name = "DIR", requires = "contrastive")]
    pub contrast: Option<PathBuf>,
    /// A system's scores of the contrastive pairs: one number per line of --contrast's
    /// contrast.TGT (log-probabilities, higher is better; costs with --lower-is-better
    /// contrastive), repeated per system (with --hyp: one per --hyp, in order; without:
    /// the systems, named NAME=FILE, by --name, or after these files). Scores contrastive
    /// accuracy, the share of items whose reference beats every variant, for all variants
    /// and per error type (see docs/contrast.md).
    #[arg(long, value_name = "[NAME=]FILE", value_parser = system_parser(), requires = "contrast")]
    pub contrastive: Vec<SystemArg>,
    /// Replace the scores.json already in the output directory, losing the scores of
    /// systems this run does not score. Without it, those systems are kept beside this
    /// run's (merged by system: same sets, metrics, settings and baseline), or `score`
    /// refuses when the two runs cannot be merged.
    #[arg(long)]
    pub replace: bool,
    /// Do not warn about outputs and references that look tokenized (sacreBLEU's --force).
    #[arg(long)]
    pub force: bool,
    #[command(flatten)]
    pub threads: ThreadArgs,
    #[command(flatten)]
    pub quiet: QuietArgs,
    // Last: their help headings apply to the options after them.
    #[command(flatten)]
    pub shown: ShownArgs,
    #[command(flatten)]
    pub metric: MetricArgs,
    #[command(flatten)]
    pub significance: SignificanceArgs,
}

/// What `score` prints on stdout (`--format`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ScoreFormat {
    /// Per metric a table of every set (fits 100 columns for up to 4 systems; --wide adds
    /// intervals, controls and ranks), the trends and the signatures.
    Table,
    /// Each system's corpus score per metric, and how many sets score lower than their
    /// length-matched controls (Benjamini–Hochberg q below the level).
    Summary,
    /// scores.json, as written.
    Json,
    /// scores.csv, as written.
    Csv,
}

/// What `score` prints, with sacreBLEU's flag names (`-f`, `-b`, `-w`).
#[derive(Args)]
#[command(next_help_heading = "Output (sacreBLEU's flags)")]
pub struct ShownArgs {
    /// What stdout shows; scores.json and scores.csv are written in any case.
    #[arg(long, short = 'f', value_enum, default_value = "table")]
    pub format: ScoreFormat,
    /// The scores alone: each system's corpus score of each metric, one a line, in table
    /// order. One system: the bare numbers (as sacreBLEU's -b); several (several --hyp,
    /// or systems kept from earlier runs): each line SYSTEM<TAB>METRIC<TAB>SCORE, this
    /// run's systems first in --hyp order (the baseline first), then the systems kept from
    /// earlier runs, whose lines end in a fourth field, (kept). The table and the summary
    /// show the systems in that order too, the kept ones named.
    #[arg(long, short = 'b', conflicts_with = "quiet")]
    pub score_only: bool,
    /// Decimals of the scores, differences and intervals shown (sacreBLEU's --width; the
    /// files keep every digit).
    #[arg(long, short = 'w', value_name = "N", default_value_t = 2,
          value_parser = clap::value_parser!(u8).range(0..=10))]
    pub width: u8,
    /// The table with every column (each score's interval, the controls' mean and sd, the
    /// rank among them), however wide.
    #[arg(long, conflicts_with = "quiet")]
    pub wide: bool,
}

/// BLEU, chrF and TER settings, with sacreBLEU's flag names and defaults (its single-dash
/// short forms `-tok`, `-lc`, `-sv`, `-cc`, `-cw` too).
#[derive(Args)]
#[command(next_help_heading = "Metric settings (sacreBLEU's flags and defaults)")]
pub struct MetricArgs {
    /// BLEU's tokenizer (-tok) [default: zh for a Chinese target, ja-mecab for Japanese,
    /// ko-mecab for Korean, else 13a, as sacreBLEU]. ja-mecab and ko-mecab load MeCab with
    /// sacreBLEU's dictionaries at run time: `pip install "sacrebleu[ja]"` (or `[ko]`) and
    /// set LDD_SETS_MECAB to that site-packages directory (see docs/scoring.md).
    #[arg(long, value_name = "NAME", value_parser = PossibleValuesParser::new(TokenizerName::ALL.map(TokenizerName::name)))]
    pub tokenize: Option<String>,
    /// BLEU lowercased (-lc).
    #[arg(long)]
    pub lowercase: bool,
    /// BLEU's smoothing: exp (mteval's), floor (zero counts get --smooth-value), add-k
    /// (--smooth-value added to matches and totals of orders above 1) or none.
    #[arg(long, short = 's', value_name = "METHOD", default_value = "exp",
          value_parser = PossibleValuesParser::new(Smooth::NAMES))]
    pub smooth_method: String,
    /// The value of floor (default 0.1) or add-k (default 1) smoothing (-sv).
    #[arg(long, value_name = "V")]
    pub smooth_value: Option<f64>,
    /// BLEU's maximum n-gram order (sacreBLEU's API max_ngram_order; not shown in its
    /// signature, so ldd-sets adds max-ngram-order:N to it), 1 to 6.
    #[arg(long, value_name = "N", default_value_t = 4)]
    pub max_ngram_order: usize,
    /// BLEU's effective order: n-gram orders with no n-gram are left out (sacreBLEU's API
    /// effective_order, as for sentence-level BLEU).
    #[arg(long)]
    pub effective_order: bool,
    /// chrF's character n-gram order (-cc).
    #[arg(long, value_name = "N", default_value_t = 6)]
    pub chrf_char_order: usize,
    /// chrF's word n-gram order (-cw); 2 is chrF++.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub chrf_word_order: usize,
    /// chrF's β: the weight of recall.
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub chrf_beta: u32,
    /// chrF keeps whitespace in character n-grams.
    #[arg(long)]
    pub chrf_whitespace: bool,
    /// chrF lowercased.
    #[arg(long)]
    pub chrf_lowercase: bool,
    /// chrF with epsilon smoothing (chrF++.py's, NLTK's, Moses') instead of effective order.
    #[arg(long)]
    pub chrf_eps_smoothing: bool,
    /// TER keeps case.
    #[arg(long)]
    pub ter_case_sensitive: bool,
    /// TER splits Asian characters (with --ter-normalized) and removes Asian punctuation
    /// (with --ter-no-punct).
    #[arg(long)]
    pub ter_asian_support: bool,
    /// TER removes punctuation.
    #[arg(long)]
    pub ter_no_punct: bool,
    /// TER normalises and tokenizes (Tercom's normalisation).
    #[arg(long)]
    pub ter_normalized: bool,
}

/// sacreBLEU's single-dash long options of `score` (`-tok 13a`, `-lc`, ...), which clap
/// cannot spell, and the long options they stand for.
const SACREBLEU_SHORT: [(&str, &str); 5] = [
    ("-tok", "--tokenize"),
    ("-lc", "--lowercase"),
    ("-sv", "--smooth-value"),
    ("-cc", "--chrf-char-order"),
    ("-cw", "--chrf-word-order"),
];

/// The command line with sacreBLEU's single-dash long options of `score` spelt as long
/// options: only after the `score` subcommand, only whole arguments (a value that happens
/// to read `-lc` would be taken for an option by clap anyway).
pub fn sacrebleu_flags(args: impl IntoIterator<Item = OsString>) -> Vec<OsString> {
    let mut in_score = false;
    args.into_iter()
        .map(|a| {
            if in_score {
                if let Some((_, long)) = SACREBLEU_SHORT.iter().find(|(s, _)| a == *s) {
                    return OsString::from(long);
                }
            } else if a == "score" {
                in_score = true;
            }
            a
        })
        .collect()
}

/// What a sacreBLEU user typed that `score` spells otherwise, as the ldd-sets spelling:
/// `-m bleu chrf` (a space-separated list), `-i`/`--input`, `--format text` or `latex`.
/// Read only when the command line is refused (after [`sacrebleu_flags`]), so a valid
/// command is never second-guessed.
pub fn sacrebleu_habit(args: &[OsString]) -> Option<String> {
    let args: Vec<&str> = args.iter().map(|a| a.to_str().unwrap_or("")).collect();
    let start = args.iter().position(|a| *a == "score")? + 1;
    let args = &args[start..];
    for (i, a) in args.iter().enumerate() {
        let next = args.get(i + 1).copied().unwrap_or("");
        let after = args.get(i + 2).copied().unwrap_or("");
        let (flag, value) = match a.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, v),
            _ => (*a, next),
        };
        match flag {
            "-i" | "--input" => {
                return Some(format!(
                    "{flag} is sacreBLEU's input flag; ldd-sets reads each system from its own \
                     --hyp: --hyp system-a.en --hyp system-b.en (NAME=FILE names it)"
                ))
            }
            "-m" | "--metrics"
                if !a.contains('=') && !after.is_empty() && !after.starts_with('-') =>
            {
                // Pasted back, so quoted as the shell reads it (control characters shown).
                let list = ldd_io::shell::word([next, after].join(","));
                let (next, after) = (ldd_io::shell::word(next), ldd_io::shell::word(after));
                return Some(format!(
                    "{flag} {next} {after}: metrics are comma-separated here, not \
                     space-separated as in sacreBLEU: --metrics {list}"
                ));
            }
            "-f" | "--format" if matches!(value, "text" | "latex") => {
                let instead = match value {
                    "text" => "--format table (the default), summary, json or csv".to_string(),
                    _ => "`ldd-sets report --sets DIR --format latex` writes report.tex".into(),
                };
                return Some(format!("{flag} {value} is sacreBLEU's; here: {instead}"));
            }
            _ => {}
        }
    }
    None
}

/// Intervals and paired tests, with sacreBLEU's flag names and defaults.
#[derive(Args)]
#[command(next_help_heading = "Significance (sacreBLEU's flags and defaults)")]
pub struct SignificanceArgs {
    /// Test each system against the first --hyp (the baseline) by paired bootstrap
    /// resampling. The default with two or more systems.
    #[arg(long, conflicts_with = "paired_ar")]
    pub paired_bs: bool,
    /// Test each system against the first --hyp by paired approximate randomization.
    #[arg(long)]
    pub paired_ar: bool,
    /// Resamples: the bootstrap behind every confidence interval and --paired-bs, and the
    /// null samples of every set-vs-controls test (the set's lines exchanged with corpus
    /// lines of the same length; no p below 1/(N+1)).
    #[arg(long, value_name = "N", default_value_t = 1000,
          value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub paired_bs_n: u32,
    /// Trials of --paired-ar.
    #[arg(long, value_name = "N", default_value_t = 10_000,
          value_parser = clap::value_parser!(u32).range(1..=10_000_000))]
    pub paired_ar_n: u32,
    /// Seed of all resampling (sacreBLEU's SACREBLEU_SEED default); the same seed gives
    /// byte-identical outputs at any --threads.
    #[arg(long, value_name = "N", default_value_t = 12345)]
    pub seed: u64,
    /// Level of every interval; `--confidence` alone (as in sacreBLEU) keeps 0.95.
    /// p-values below 1 − LEVEL are marked significant.
    #[arg(long, value_name = "LEVEL", num_args = 0..=1, default_value_t = 0.95,
          default_missing_value = "0.95")]
    pub confidence: f64,
}

/// `NAME=FILE1,FILE2,..`.
fn parse_seg_scores(value: &str) -> std::result::Result<(String, Vec<PathBuf>), String> {
    let (name, files) = value
        .split_once('=')
        .ok_or_else(|| format!("expected NAME=FILE1,FILE2,.. (got `{value}`)"))?;
    let files: Vec<PathBuf> = files
        .split(',')
        .filter(|f| !f.is_empty())
        .map(PathBuf::from)
        .collect();
    if name.is_empty() || files.is_empty() {
        return Err(format!("expected NAME=FILE1,FILE2,.. (got `{value}`)"));
    }
    Ok((name.to_string(), files))
}

#[derive(Args)]
pub struct CompareArgs {
    /// Output directory of the reference run (e.g. extracted from gold trees).
    #[arg(long, value_name = "DIR")]
    pub gold: PathBuf,
    /// Output directory of the run to evaluate.
    #[arg(long, value_name = "DIR")]
    pub pred: PathBuf,
    /// Set to compare in every phenomenon.
    #[arg(long, value_name = "BUCKET", default_value = "ge1")]
    pub bucket: String,
}

impl Common for SliceArgs {
    fn inputs(&self) -> Vec<&Path> {
        vec![&self.hyp.path]
    }
}

impl Common for ScoreArgs {
    fn derived_inputs(&self) -> Vec<PathBuf> {
        super::model_prefix_files(self.align_model.as_ref())
    }
    fn inputs(&self) -> Vec<&Path> {
        let segs = self.seg_scores.iter().flat_map(|(_, f)| f);
        SystemArg::paths(&self.hyp)
            .chain(segs.map(PathBuf::as_path))
            .chain(self.reference.iter().map(PathBuf::as_path))
            .chain(SystemArg::paths(&self.contrastive))
            .filter(|p| p.as_os_str() != "-")
            .collect()
    }
    fn threads(&self) -> Option<&ThreadArgs> {
        Some(&self.threads)
    }
}

impl Common for CompareArgs {}
