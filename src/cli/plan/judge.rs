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
pub fn sheets(a: &SheetsArgs) -> Result<SheetsPlan> {
    let names = systems("--hyp", &a.hyp, &a.name)?;
    Ok(SheetsPlan {
        sets: a.sets.clone(),
        out: a.out.clone(),
        key: a.key.clone().unwrap_or_else(|| default_key(&a.out)),
        options: SheetsOptions {
            hyps: a.hyp.iter().map(|h| h.path.clone()).collect(),
            names,
            per_cell: a.per_cell as usize,
            distances: a.distances.clone(),
            seed: a.seed,
            align_model: a.align_model.clone(),
            lemma_model: a.lemma_model.clone(),
        },
        quiet: a.quiet.quiet,
    })
}

/// `tally`'s plan: the intervals' level checked.
pub fn tally(a: &TallyArgs) -> Result<TallyPlan> {
    Ok(TallyPlan {
        options: TallyOptions {
            sheets: a.sheets.clone(),
            key: a.key.clone(),
            confidence: confidence(a.confidence)?,
        },
        out: a.out.clone(),
        show: a.show,
        quiet: a.quiet.quiet,
    })
}
