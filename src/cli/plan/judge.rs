//! The plans of `sheets` and `tally`.

use std::path::PathBuf;

use ldd_sets::error::{Error, Result};
use ldd_sets::judge::sheets::{default_key, SheetsOptions};
use ldd_sets::judge::tally::TallyOptions;
use ldd_sets::score::{check_name, system_name};

use super::super::args::judge::{SheetsArgs, TallyArgs};
use super::confidence;

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

/// `sheets`'s plan: every system is named after its file, each name valid and once.
pub fn sheets(a: &SheetsArgs) -> Result<SheetsPlan> {
    let names: Vec<String> = a.hyp.iter().map(|h| system_name(h)).collect();
    for (i, n) in names.iter().enumerate() {
        check_name(n)?;
        if names[..i].contains(n) {
            return Err(Error::Config(format!(
                "--hyp {}: two systems named `{n}`; rename one",
                ldd_io::error::shown(&a.hyp[i])
            )));
        }
    }
    Ok(SheetsPlan {
        sets: a.sets.clone(),
        out: a.out.clone(),
        key: a.key.clone().unwrap_or_else(|| default_key(&a.out)),
        options: SheetsOptions {
            hyps: a.hyp.clone(),
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
