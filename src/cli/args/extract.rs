//! The arguments of `extract` and `run`, as typed (the plan reads them).

use std::path::{Path, PathBuf};

use clap::Args;

use super::{given, Common, PlanArgs, ThreadArgs};
use ldd_io::Output;

use super::outputs::{self, output};

#[derive(Args)]
pub struct ExtractArgs {
    /// Source side of the corpus, one sentence per line (plain or gzip).
    #[arg(long, value_name = "FILE")]
    pub src: PathBuf,
    /// Target side, line-aligned with --src (plain or gzip).
    #[arg(long, value_name = "FILE")]
    pub tgt: PathBuf,
    /// Source language code (e.g. de); picks the default phenomena and names files.
    #[arg(long, value_name = "LANG")]
    pub src_lang: String,
    /// Target language code (e.g. en).
    #[arg(long, value_name = "LANG")]
    pub tgt_lang: String,
    /// UD parse of the source side, one tree per corpus line, in order (plain or gzip).
    /// Without it, the source is parsed with UDPipe (cached).
    #[arg(long, value_name = "FILE")]
    pub conllu: Option<PathBuf>,
    /// Skip the check that each tree of --conllu belongs to its corpus line (same letters
    /// and digits after undoing tokenizer escapes, NFKC and lower-casing; docs/usage.md, "Bring
    /// your own parse"), for a parse you trust whose text differs more than that.
    #[arg(long, requires = "conllu")]
    pub trust_conllu: bool,
    /// Use these word alignments (Pharaoh `i-j`, source UD word index - target token
    /// index, 0-based, one line per corpus line; `ldd-sets align --conllu` writes them)
    /// instead of the built-in aligner.
    #[arg(long, value_name = "FILE")]
    pub alignments: Option<PathBuf>,
    /// Language pair naming the UDPipe model and phenomena [default: SRC-TGT: its config
    /// if one exists, else the registry's defaults for the source language].
    #[arg(long, value_name = "PAIR")]
    pub pair: Option<String>,
    /// Output directory (created; a previous ldd-sets output there is replaced).
    #[arg(long, value_name = "DIR", value_parser = output(&outputs::SETS))]
    pub out: Output,
    #[command(flatten)]
    pub plan: PlanArgs,
}

#[derive(Args)]
pub struct RunArgs {
    /// Language pair SRC-TGT (e.g. fr-en): its config (config/pairs/<PAIR>.toml, a shipped
    /// one, or a path to a .toml), else defaults from the UDPipe 2.5 registry (the source
    /// language's default model, its default phenomena, files <name>.SRC-TGT.<lang>).
    #[arg(long, value_name = "PAIR")]
    pub pair: String,
    /// Directory of corpora named <name>.<files>.<lang>[.gz] (<files> is SRC-TGT unless the
    /// pair config says otherwise).
    #[arg(long, value_name = "DIR")]
    pub corpora: PathBuf,
    /// Only these corpora (names, comma-separated) [default: all found].
    #[arg(long, value_name = "NAMES", value_delimiter = ',')]
    pub only: Option<Vec<String>>,
    /// Output directory; each corpus gets OUT/<name>/.
    #[arg(long, value_name = "DIR", value_parser = output(&outputs::RUN))]
    pub out: Output,
    #[command(flatten)]
    pub plan: PlanArgs,
}

impl Common for ExtractArgs {
    fn derived_inputs(&self) -> Vec<PathBuf> {
        super::model_prefix_files(self.plan.align.align_model.as_ref())
    }
    fn inputs(&self) -> Vec<&Path> {
        given([
            Some(&self.src),
            Some(&self.tgt),
            self.conllu.as_ref(),
            self.alignments.as_ref(),
        ])
    }
    fn threads(&self) -> Option<&ThreadArgs> {
        Some(&self.plan.threads)
    }
}

impl Common for RunArgs {
    fn derived_inputs(&self) -> Vec<PathBuf> {
        super::model_prefix_files(self.plan.align.align_model.as_ref())
    }
    fn threads(&self) -> Option<&ThreadArgs> {
        Some(&self.plan.threads)
    }
}
