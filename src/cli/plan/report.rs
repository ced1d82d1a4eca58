//! The plan of `report`.

use std::path::PathBuf;

use ldd_sets::error::Result;
use ldd_sets::report::{out_path, Format, ReportOptions};

use super::super::args::report::{FormatArg, ReportArgs};

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
/// extension checked against `--format`.
pub fn report(a: &ReportArgs) -> Result<ReportPlan> {
    let options = ReportOptions {
        sets: a.sets.clone(),
        out: a.out.clone(),
        scores: a.scores.clone(),
        format: match a.format {
            FormatArg::Html => Format::Html,
            FormatArg::Latex => Format::Latex,
        },
        examples: a.examples as usize,
        tally: a.tally.clone(),
        mqm: a.mqm.clone(),
    };
    Ok(ReportPlan {
        out: out_path(&options)?,
        options,
        quiet: a.quiet.quiet,
    })
}
