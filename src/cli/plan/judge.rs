//! The plans of `sheets` and `tally`.

use std::path::PathBuf;

use ldd_sets::error::Result;
use ldd_sets::judge::sheets::{default_key, SheetsOptions};
use ldd_sets::judge::tally::TallyOptions;

use super::super::args::judge::{SheetsArgs, TallyArgs};
use super::{confidence, systems};

/// `sheets`'s plan.
pub struct SheetsPlan {
    /// The sets directory.
    pub sets: PathBuf,
    /// The annotators' directory.
    pub out: PathBuf,
    /// Where the key goes (`--key`, else beside `out`).
    pub key: PathBuf,
    /// The sample and the systems, named after their files.
    pub options: SheetsOptions,
    /// Print nothing but errors.
    pub quiet: bool,
}

/// `tally`'s plan.
pub struct TallyPlan {
    /// The sheets, the key and the intervals' level.
    pub options: TallyOptions,
    /// Where tally.json and tally.csv go (`None`: the table only).
    pub out: Option<PathBuf>,
    /// Disagreements listed in the table.
    pub show: usize,
    /// Print nothing but errors.
    pub quiet: bool,
}

/// `sheets`'s plan: every system named as `score` names it ([`systems`]).
pub fn sheets(args: &SheetsArgs) -> Result<SheetsPlan> {
    let names = systems("--hyp", &args.hyp, &args.name)?;
    Ok(SheetsPlan {
        sets: args.sets.clone(),
        out: args.out.to_path_buf(),
        key: args
            .key
            .clone()
            .map(std::path::PathBuf::from)
            .unwrap_or_else(|| default_key(&args.out)),
        options: SheetsOptions {
            hyps: args.hyp.iter().map(|h| h.path.clone()).collect(),
            names,
            per_cell: args.per_cell as usize,
            distances: args.distances.clone(),
            seed: args.seed,
            align_model: args.align_model.clone(),
            parsing: args.parsing.parsing(args.quiet.quiet),
        },
        quiet: args.quiet.quiet,
    })
}

/// `tally`'s plan: the intervals' level checked.
pub fn tally(args: &TallyArgs) -> Result<TallyPlan> {
    Ok(TallyPlan {
        options: TallyOptions {
            sheets: args.sheets.clone(),
            key: args.key.clone(),
            confidence: confidence(args.confidence)?,
        },
        out: args.out.clone().map(std::path::PathBuf::from),
        show: args.show,
        quiet: args.quiet.quiet,
    })
}
