//! The arguments of `permute`, as typed (the plan reads them).

use std::path::{Path, PathBuf};

use clap::Args;

use super::{Common, QuietArgs};
use ldd_io::Output;

use super::outputs::{self, output};

#[derive(Args)]
pub struct PermuteArgs {
    /// Source side, tokenized (tokens separated by whitespace, e.g. by Moses'
    /// tokenizer); plain or gzip.
    #[arg(long, value_name = "FILE")]
    pub src: PathBuf,
    /// Target side, line-aligned with --src.
    #[arg(long, value_name = "FILE")]
    pub tgt: PathBuf,
    /// Source language code (the output files' extension).
    #[arg(long, value_name = "LANG")]
    pub src_lang: String,
    /// Target language code.
    #[arg(long, value_name = "LANG")]
    pub tgt_lang: String,
    /// N: keep the pairs whose source has exactly N tokens (the method: 18, the most
    /// common length of its corpus).
    #[arg(long, value_name = "N", default_value_t = 18,
          value_parser = clap::value_parser!(u16).range(1..=1000))]
    pub length: u16,
    /// σ: the new position of each source token, 0-based and comma-separated
    /// (`--permutation 2,0,1` moves token 0 to position 2), or `paper` for the method's σ
    /// of 18 tokens [default: drawn from --seed, never the identity].
    #[arg(long, value_name = "P0,P1,..|paper")]
    pub permutation: Option<String>,
    /// Seed of the split (and of σ when drawn); the same seed gives the same files.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub seed: u64,
    /// Pairs held out for test (the method: 1,000; at most 1,000,000,000).
    #[arg(long, value_name = "N", default_value_t = 1000,
          value_parser = clap::value_parser!(u64).range(0..=1_000_000_000))]
    pub test: u64,
    /// Pairs held out for dev (at most 1,000,000,000).
    #[arg(long, value_name = "N", default_value_t = 1000,
          value_parser = clap::value_parser!(u64).range(0..=1_000_000_000))]
    pub dev: u64,
    /// Output directory: regular/, permuted/, reversed/ (each {train,dev,test}.{SRC,TGT}),
    /// {train,dev,test}.ids, permutation.txt and permute.json. Replaced as a whole, and
    /// only if `permute` wrote it.
    #[arg(long, value_name = "DIR", value_parser = output(&outputs::PERMUTE))]
    pub out: Output,
    #[command(flatten)]
    pub quiet: QuietArgs,
}

impl Common for PermuteArgs {
    fn inputs(&self) -> Vec<&Path> {
        vec![&self.src, &self.tgt]
    }
}
