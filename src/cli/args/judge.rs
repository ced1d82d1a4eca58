//! The arguments of `sheets` and `tally`, as typed (the plan reads them).

use std::path::{Path, PathBuf};

use clap::Args;

use super::{system_parser, Common, QuietArgs, SystemArg, TargetParseArgs};
use ldd_io::Output;

use super::outputs::{self, output};

#[derive(Args)]
pub struct SheetsArgs {
    /// Output directory of `ldd-sets extract` (with locus files; its aligner's saved model
    /// for translation items).
    #[arg(long, value_name = "DIR")]
    pub sets: PathBuf,
    /// A system's translation of the whole corpus, for translation items (repeatable;
    /// without it, only the detection sheet). NAME=FILE names the system in the key
    /// [default: the file name without its last extension]; `-` reads one from standard
    /// input. Systems are blinded in the sheets.
    #[arg(long, value_name = "[NAME=]FILE", value_parser = system_parser())]
    pub hyp: Vec<SystemArg>,
    /// The name of a system: one --name per --hyp, in the same order (as NAME=FILE does).
    #[arg(long, value_name = "NAME")]
    pub name: Vec<String>,
    /// Directory for the annotators: detection.csv, translation.csv, form.html,
    /// sheets.json (replaced as a whole).
    #[arg(long, value_name = "DIR", value_parser = output(&outputs::SHEETS))]
    pub out: Output,
    /// Where the key (which output is which system, and locus accuracy's judgement) goes:
    /// outside --out [default: <out>.key.csv beside it].
    #[arg(long, value_name = "FILE", value_parser = output(&outputs::KEY))]
    pub key: Option<Output>,
    /// Loci sampled per phenomenon and distance.
    #[arg(long, value_name = "N", default_value_t = 20,
          value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub per_cell: u32,
    /// Distances sampled (each phenomenon's eqD set), comma-separated, each once and at
    /// most 100; the paper annotated 1, 2 and 5.
    #[arg(
        long,
        value_name = "D,..",
        value_delimiter = ',',
        default_value = "1,2,5",
        value_parser = clap::value_parser!(u32).range(0..=100)
    )]
    pub distances: Vec<u32>,
    /// Seed of the sample and of the order of the systems in every item.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub seed: u64,
    /// Aligner model for the outputs' marked words [default: the model the manifest records].
    #[arg(long, value_name = "PREFIX")]
    pub align_model: Option<PathBuf>,
    #[command(flatten)]
    pub parsing: TargetParseArgs,
    #[command(flatten)]
    pub quiet: QuietArgs,
}

#[derive(Args)]
pub struct TallyArgs {
    /// The annotators' filled sheets, one file per annotator (all detection.csv or all
    /// translation.csv of one `sheets` run, as saved from form.html or a spreadsheet).
    #[arg(value_name = "SHEET", required = true)]
    pub sheets: Vec<PathBuf>,
    /// The key `sheets` wrote (translation sheets): results per system and the agreement
    /// of locus accuracy with the annotators.
    #[arg(long, value_name = "FILE")]
    pub key: Option<PathBuf>,
    /// Directory for tally.json and tally.csv [default: print the table only].
    #[arg(long, value_name = "DIR", value_parser = output(&outputs::TALLY))]
    pub out: Option<Output>,
    /// Level of the Wilson intervals.
    #[arg(long, value_name = "LEVEL", default_value_t = 0.95)]
    pub confidence: f64,
    /// Disagreements listed in the table (all are in tally.json).
    #[arg(long, value_name = "N", default_value_t = 20)]
    pub show: usize,
    #[command(flatten)]
    pub quiet: QuietArgs,
}

impl Common for SheetsArgs {
    fn derived_inputs(&self) -> Vec<PathBuf> {
        super::model_prefix_files(self.align_model.as_ref())
    }
    fn inputs(&self) -> Vec<&Path> {
        SystemArg::paths(&self.hyp)
            .filter(|p| !ldd_io::is_stdin(p))
            .collect()
    }
}

impl Common for TallyArgs {
    fn inputs(&self) -> Vec<&Path> {
        let mut v: Vec<&Path> = self.sheets.iter().map(PathBuf::as_path).collect();
        v.extend(self.key.as_deref());
        v
    }
}
