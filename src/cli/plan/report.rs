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
pub fn report(a: &ReportArgs) -> Result<ReportPlan> {
    if let Some(h) = a.hyp.iter().find(|h| ldd_io::is_stdin(&h.path)) {
        return Err(Error::Config(format!(
            "report --hyp {}: the report reads an output from its file; give the file",
            ldd_io::error::quote(&h.given, 100)
        )));
    }
    // Named as scored: a bare FILE is named after it, as `score` names it.
    let names = systems("--hyp", &a.hyp, &a.name)?;
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
        outputs: names
            .into_iter()
            .zip(a.hyp.iter().map(|h| h.path.clone()))
            .collect(),
    };
    Ok(ReportPlan {
        out: out_path(&options)?,
        options,
        quiet: a.quiet.quiet,
    })
}
