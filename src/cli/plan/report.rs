//! The plan of `report`.

use std::path::PathBuf;

use ldd_sets::error::{Error, Result};
use ldd_sets::report::{out_path, Format, ReportOptions};

use super::super::args::report::{FormatArg, ReportArgs};
use super::systems;

/// `report`'s plan.
pub struct ReportPlan {
    /// The sets, the files beside them and what the page shows.
    pub options: ReportOptions,
    /// The page's file, checked against the format.
    pub out: PathBuf,
    /// Print nothing but errors.
    pub quiet: bool,
}

/// `report`'s plan: the output file named (`--out`, else in the sets directory) and its
/// extension checked against `--format`; the systems' outputs given named as `score` names
/// them.
pub fn report(args: &ReportArgs) -> Result<ReportPlan> {
    if let Some(h) = args.hyp.iter().find(|h| ldd_io::is_stdin(&h.path)) {
        return Err(Error::Config(format!(
            "report --hyp {}: the report reads an output from its file; give the file",
            ldd_io::error::quote(&h.given, 100)
        )));
    }
    // Named as scored: a bare FILE is named after it, as `score` names it.
    let names = systems("--hyp", &args.hyp, &args.name)?;
    let options = ReportOptions {
        sets: args.sets.clone(),
        out: args.out.clone().map(std::path::PathBuf::from),
        scores: args.scores.clone(),
        format: match args.format {
            FormatArg::Html => Format::Html,
            FormatArg::Latex => Format::Latex,
        },
        examples: args.examples as usize,
        tally: args.tally.clone(),
        mqm: args.mqm.clone(),
        outputs: names
            .into_iter()
            .zip(args.hyp.iter().map(|h| h.path.clone()))
            .collect(),
    };
    Ok(ReportPlan {
        out: out_path(&options)?,
        options,
        quiet: args.quiet.quiet,
    })
}
