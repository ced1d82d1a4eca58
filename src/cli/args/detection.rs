//! The arguments of `check-detection`, as typed (the plan reads them).

use std::path::{Path, PathBuf};

use clap::Args;

use super::{given, Common, ModelArgs, QuietArgs, ThreadArgs};
use ldd_io::Output;

use super::outputs::{self, output};

#[derive(Args)]
pub struct CheckDetectionArgs {
    /// Gold trees: a UD treebank (CoNLL-U, plain or gzip). The text of each sentence (its
    /// `# text`) is parsed with the model, and both trees of each sentence are compared.
    #[arg(long, value_name = "FILE")]
    pub gold: PathBuf,
    /// Language of the gold file (ISO code): its rules, its default phenomena and its model
    /// in the registry [default: from a UD file name, e.g. `de` for de_pud-ud-test.conllu].
    #[arg(long, value_name = "LANG")]
    pub lang: Option<String>,
    /// A parse of the gold file's sentences to measure instead of parsing them with a
    /// model: CoNLL-U with one tree per gold sentence, in order (e.g. another parser's).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["model", "record"])]
    pub parsed: Option<PathBuf>,
    /// Rules to measure [default: the built-in rules, config/phenomena.toml].
    #[arg(long, value_name = "FILE", conflicts_with = "paper_compat")]
    pub rules: Option<PathBuf>,
    /// Measure the paper's rules (config/phenomena-paper.toml) instead of the built-in ones.
    #[arg(long)]
    pub paper_compat: bool,
    /// Phenomena to measure, comma-separated [default: the language's defaults in the
    /// model registry (`ldd-sets languages`); for other languages, those whose `languages`
    /// include it].
    #[arg(long, value_name = "NAMES", value_delimiter = ',')]
    pub phenomena: Option<Vec<String>>,
    /// Rules run on the gold trees, which say what a gold instance is [default: with the
    /// built-in rules, the paper's (config/phenomena-paper.toml): the phenomena as UD
    /// annotates them, over relations and features that every treebank has, whatever its
    /// language-specific tags; with --rules, the same file].
    #[arg(long, value_name = "FILE")]
    pub gold_rules: Option<PathBuf>,
    /// Compare only sentences A to B of the gold file (1-based, inclusive), e.g. 1-500 to
    /// tune rules and 501-1000 to report them.
    #[arg(long, value_name = "A-B")]
    pub lines: Option<String>,
    /// Level of the intervals.
    #[arg(long, value_name = "LEVEL", default_value_t = 0.95)]
    pub confidence: f64,
    /// Misses and false hits listed per phenomenon (all are in --json).
    #[arg(long, value_name = "N", default_value_t = 20)]
    pub show: usize,
    /// Print the results as JSON, with every miss and false hit, instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Record the figures in this file (the registry's are config/detection.toml, which
    /// `ldd-sets languages` shows once built in), replacing an earlier entry of the same
    /// language, model, gold file and lines.
    #[arg(long, value_name = "FILE", value_parser = output(&outputs::RECORD))]
    pub record: Option<Output>,
    #[command(flatten)]
    pub model: ModelArgs,
    #[command(flatten)]
    pub threads: ThreadArgs,
    #[command(flatten)]
    pub quiet: QuietArgs,
}

impl Common for CheckDetectionArgs {
    fn inputs(&self) -> Vec<&Path> {
        given([
            Some(&self.gold),
            self.rules.as_ref(),
            self.gold_rules.as_ref(),
            self.model.model.as_ref(),
            self.parsed.as_ref(),
        ])
    }
    fn threads(&self) -> Option<&ThreadArgs> {
        Some(&self.threads)
    }
}
