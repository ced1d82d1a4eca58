//! The arguments of `report`, as typed (the plan reads them).

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use ldd_sets::report::DEFAULT_EXAMPLES;

use super::{system_parser, Common, QuietArgs, SystemArg};
use ldd_io::Output;

use super::outputs::{self, output};

impl Common for ReportArgs {
    fn inputs(&self) -> Vec<&std::path::Path> {
        let mut v = super::given([self.scores.as_ref(), self.tally.as_ref(), self.mqm.as_ref()]);
        v.extend(SystemArg::paths(&self.hyp));
        v
    }
}

/// `--format`.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum FormatArg {
    /// One self-contained HTML page (charts, tables, examples).
    Html,
    /// The main tables (set sizes; scores against distance with controls) as LaTeX tabulars.
    Latex,
}

#[derive(Args)]
pub struct ReportArgs {
    /// Output directory of `ldd-sets extract` (with scores.json when it has been scored).
    #[arg(long, value_name = "DIR")]
    pub sets: PathBuf,
    /// Output file, ending in .html (or .tex with --format latex) [default:
    /// DIR/report.html, DIR/report.tex].
    #[arg(long, value_name = "FILE", value_parser = output(&outputs::REPORT))]
    pub out: Option<Output>,
    /// Scores written by `ldd-sets score` [default: DIR/scores.json when it exists].
    #[arg(long, value_name = "FILE")]
    pub scores: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value = "html")]
    pub format: FormatArg,
    /// The annotators' tally (tally.json of `ldd-sets tally --out`): agreement, their
    /// judgements per phenomenon and distance, and where locus accuracy and they disagree.
    #[arg(long, value_name = "FILE")]
    pub tally: Option<PathBuf>,
    /// Human judgements from MQM annotations (mqm.json of `ldd-sets mqm`): the agreement of
    /// the locus judgement with the raters and each system's human accuracy [default:
    /// DIR/mqm.json when it exists; shown only when made for these sets].
    #[arg(long, value_name = "FILE")]
    pub mqm: Option<PathBuf>,
    /// A system's output, NAME=FILE (NAME as scored): where scores.json's file moved, or
    /// for a system scored from standard input (`score --hyp -`); checked to be the file
    /// scored (its SHA-256). Repeatable [default: the files scores.json names].
    #[arg(long, value_name = "NAME=FILE", value_parser = system_parser())]
    pub hyp: Vec<SystemArg>,
    /// The name of a system: one --name per --hyp, in the same order (as NAME=FILE does).
    #[arg(long, value_name = "NAME")]
    pub name: Vec<String>,
    /// Example lines sampled per set for the examples browser (the same lines every time;
    /// 2 shown, the rest behind "show more"; at most 1000).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_EXAMPLES as u32,
          value_parser = clap::value_parser!(u32).range(0..=1000))]
    pub examples: u32,
    #[command(flatten)]
    pub quiet: QuietArgs,
}
