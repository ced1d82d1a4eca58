//! `report`.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use ldd_sets::error::Result;
use ldd_sets::printer;
use ldd_sets::read::sets::load;
use ldd_sets::report::{gather, render, DEFAULT_EXAMPLES};

use super::args::{Common, QuietArgs};
use super::plan;

impl Common for ReportArgs {
    fn inputs(&self) -> Vec<&std::path::Path> {
        super::args::given([self.scores.as_ref(), self.tally.as_ref(), self.mqm.as_ref()])
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
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
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
    /// Example lines sampled per set for the examples browser (the same lines every time;
    /// 2 shown, the rest behind "show more"; at most 1000).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_EXAMPLES as u32,
          value_parser = clap::value_parser!(u32).range(0..=1000))]
    pub examples: u32,
    #[command(flatten)]
    pub quiet: QuietArgs,
}

/// Names the output, loads the sets, gathers, renders and writes the report
/// all-or-nothing.
pub fn report(a: ReportArgs) -> Result<()> {
    let p = plan::report(&a)?;
    let opts = &p.options;
    let r = gather(
        load(&opts.sets)?,
        opts.scores.as_deref(),
        opts.examples,
        opts.tally.as_deref(),
        opts.mqm.as_deref(),
    )?;
    if let (Some(mqm), None, false) = (&opts.mqm, &r.mqm, p.quiet) {
        // Given, read, and made for other sets: the page says so; so does the terminal.
        printer::say(&printer::mqm::other_sets_warning(mqm));
    }
    let text = render(&r, opts.format)?;
    ldd_io::fs::create_parent(&p.out)?;
    ldd_io::write_bytes_atomic(&p.out, text.as_bytes())?;
    if !p.quiet {
        printer::out(&printer::written("report", &p.out));
    }
    Ok(())
}
