//! The arguments of `align`, as typed (the plan reads them).

use std::path::{Path, PathBuf};

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::Args;

use ldd_align::GoldFormat;

use super::{given, AlignArgs, Common, QuietArgs, ThreadArgs};
use ldd_io::Output;

use super::outputs::{self, output};

#[derive(Args)]
pub struct AlignCmdArgs {
    /// Source side, one sentence per line (plain or gzip).
    #[arg(long, value_name = "FILE")]
    pub src: PathBuf,
    /// Target side, line-aligned with --src (plain or gzip).
    #[arg(long, value_name = "FILE")]
    pub tgt: PathBuf,
    /// UD parse of the source side (one tree per line): align its UD words, the source
    /// tokens `extract` uses, so the output can be given to `extract --alignments`.
    /// Without it the source is split by the aligner's tokenizer.
    #[arg(long, value_name = "FILE")]
    pub conllu: Option<PathBuf>,
    /// Source language code (names the --align-train files).
    #[arg(long, value_name = "LANG", default_value = "src")]
    pub src_lang: String,
    /// Target language code.
    #[arg(long, value_name = "LANG", default_value = "tgt")]
    pub tgt_lang: String,
    /// Where to write the alignments (Pharaoh, source index - target index, 0-based).
    /// Optional with --gold or --save-align-model (training a model for the shards of a
    /// sharded run).
    #[arg(long, value_name = "FILE", required_unless_present_any = ["gold", "save_align_model"], value_parser = output(&outputs::ALIGNMENTS))]
    pub out: Option<Output>,
    /// Also write the confidence of every link (needs --align-model-type hmm): one line per
    /// pair, one probability per link of the --out line in the same order — the link's
    /// posterior in the directional model that chose it, the lower of the two when both did.
    /// Written together with --out (both or neither).
    #[arg(long, value_name = "FILE", requires = "out", value_parser = output(&outputs::POSTERIORS))]
    pub posteriors: Option<Output>,
    /// Replace an existing --out (and --posteriors) that reads as alignments (link
    /// probabilities) but that ldd-sets cannot tell it wrote: Pharaoh files have no room to
    /// say so. Without it an existing file is refused; a file of anything else, a link or an
    /// input is refused even with it.
    #[arg(long, requires = "out")]
    pub replace: bool,
    /// Score the alignments against these gold alignments of the same corpus: prints the
    /// alignment error rate (AER), precision and recall (sure/possible links, Och & Ney
    /// 2003), also with --quiet. Gold indices refer to the aligned tokens (use --pretokenized for a
    /// tokenized gold corpus). Links outside their sentence pair are reported and left
    /// out.
    #[arg(long, value_name = "FILE")]
    pub gold: Option<PathBuf>,
    /// Gold file format: pharaoh (a line per pair; i-j sure, i?j or ipj possible) or wpt
    /// (a link per line: `sentence i j [S|P]`, sentences from 1) [default: recognised
    /// from the first line].
    #[arg(long, value_name = "FORMAT", requires = "gold",
          value_parser = PossibleValuesParser::new(["pharaoh", "wpt"]).try_map(|s| s.parse::<GoldFormat>()))]
    pub gold_format: Option<GoldFormat>,
    /// First token index of the gold links: 0, or 1 (then index 0 is NULL and ignored).
    #[arg(long, value_name = "N", default_value_t = 0, requires = "gold",
          value_parser = clap::value_parser!(u8).range(0..=1))]
    pub gold_base: u8,
    /// Which token the first index of a gold link is: src-tgt or tgt-src.
    #[arg(long, value_name = "ORDER", default_value = "src-tgt", requires = "gold",
          value_parser = PossibleValuesParser::new(["src-tgt", "tgt-src"]))]
    pub gold_order: String,
    #[command(flatten)]
    pub align: AlignArgs,
    #[command(flatten)]
    pub threads: ThreadArgs,
    #[command(flatten)]
    pub quiet: QuietArgs,
}

impl Common for AlignCmdArgs {
    fn derived_inputs(&self) -> Vec<PathBuf> {
        super::model_prefix_files(self.align.align_model.as_ref())
    }
    fn inputs(&self) -> Vec<&Path> {
        given([
            Some(&self.src),
            Some(&self.tgt),
            self.conllu.as_ref(),
            self.gold.as_ref(),
        ])
    }
    fn threads(&self) -> Option<&ThreadArgs> {
        Some(&self.threads)
    }
}
