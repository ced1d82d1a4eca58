//! `align`.

use std::path::PathBuf;

use clap::Args;

use ldd_sets::error::Result;
use ldd_sets::pipeline::align::{align_corpus, AlignRun};
use ldd_sets::read::Languages;

use super::args::{AlignArgs, QuietArgs, ThreadArgs};

#[derive(Args)]
pub struct AlignCmdArgs {
    /// Source side, one sentence per line (plain or gzip).
    #[arg(long, value_name = "FILE")]
    src: PathBuf,
    /// Target side, line-aligned with --src (plain or gzip).
    #[arg(long, value_name = "FILE")]
    tgt: PathBuf,
    /// UD parse of the source side (one tree per line): align its UD words, the source
    /// tokens `extract` uses, so the output can be given to `extract --alignments`.
    /// Without it the source is split by the aligner's tokenizer.
    #[arg(long, value_name = "FILE")]
    conllu: Option<PathBuf>,
    /// Source language code (names the --align-train files).
    #[arg(long, value_name = "LANG", default_value = "src")]
    src_lang: String,
    /// Target language code.
    #[arg(long, value_name = "LANG", default_value = "tgt")]
    tgt_lang: String,
    /// Where to write the alignments (Pharaoh, source index - target index, 0-based).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    #[command(flatten)]
    align: AlignArgs,
    #[command(flatten)]
    threads: ThreadArgs,
    #[command(flatten)]
    quiet: QuietArgs,
}

pub fn align(a: AlignCmdArgs) -> Result<()> {
    a.threads.apply()?;
    align_corpus(&AlignRun {
        source: a.src,
        target: a.tgt,
        conllu: a.conllu,
        languages: Languages {
            source: a.src_lang,
            target: a.tgt_lang,
        },
        align: a.align.options(!a.quiet.quiet),
        out: a.out,
    })
}
