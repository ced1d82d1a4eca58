//! The handlers of `slice`, `score` and `compare`: the plan, then the library, then the printer.

use std::path::PathBuf;

use ldd_sets::error::Result;
use ldd_sets::layout::{report_file, SCORES_JSON};
use ldd_sets::printer;
use ldd_sets::printer::score_table::{render_scores, Shown};
use ldd_sets::printer::scores::{
    compare_table, earlier_note, elsewhere_report_note, in_run_order, score_only_labelled,
    small_sets_warning, stale_report_note, tokenized_warning,
};
use ldd_sets::score::compare::compare_sets;
use ldd_sets::score::merge::with_earlier;
use ldd_sets::score::render::write_outputs;
use ldd_sets::score::slice::slice_sets;
use ldd_sets::score::{load, score_sets};

use super::args::score::{CompareArgs, ScoreArgs, SliceArgs};
use super::plan;

pub fn slice(args: SliceArgs) -> Result<()> {
    let p = plan::slice(&args)?;
    slice_sets(&p.sets, &p.hyp, &p.name)
}

/// The lock of the directory `score` writes into, waiting while another process holds it;
/// none for a directory whose parent does not exist yet (no earlier scores to lose).
fn lock_scores(dir: &std::path::Path, quiet: bool) -> Result<Option<ldd_io::cleanup::Lock>> {
    let dir = ldd_io::output::without_trailing_slash(dir);
    if !ldd_io::parent_dir(&dir).is_dir() {
        return Ok(None);
    }
    let lock = ldd_io::cleanup::Lock::wait(&dir, &mut |pid| {
        if !quiet {
            printer::say(&printer::scores::waiting(&dir, pid));
        }
    })?;
    Ok(Some(lock))
}

pub fn score(args: ScoreArgs) -> Result<()> {
    let p = plan::score(&args)?;
    let opts = &p.options;
    let sets = load(&p.sets)?;
    let scored = score_sets(&sets, opts)?;
    let tokenized = scored.tokenized;
    let dir = &p.out;
    let this_run: Vec<String> = scored
        .scores
        .systems
        .iter()
        .map(|s| s.name.clone())
        .collect();
    // One writer at a time: the earlier scores are read, merged and written back under the
    // output directory's lock (a second `score`, `slice` or `extract` there waits or stops).
    let _lock = lock_scores(dir, p.quiet)?;
    let (merged, judgements, earlier) =
        with_earlier(dir, scored.scores, scored.judgements, p.replace)?;
    let report = &merged;
    // Inputs are never replaced by the outputs.
    let mut inputs: Vec<&std::path::Path> = opts.hyps.iter().map(PathBuf::as_path).collect();
    inputs.extend(
        opts.seg_scores
            .iter()
            .flat_map(|s| s.files.iter().map(PathBuf::as_path)),
    );
    inputs.extend(report.reference.as_deref());
    inputs.extend(report.extra_references.iter().map(|r| r.path.as_path()));
    inputs.retain(|p| !ldd_io::is_stdin(p));
    write_outputs(report, judgements.as_deref(), dir, &inputs)?;
    if !p.quiet {
        if !p.force {
            for f in &tokenized {
                printer::say(&tokenized_warning(f));
            }
        }
        // This run's systems first, in its order; those kept from earlier runs after them.
        let (shown, kept) = in_run_order(report, &this_run);
        let labelled = match p.shown {
            Shown::ScoreOnly(o) => score_only_labelled(&shown, o.decimals, &kept),
            _ => None,
        };
        match labelled {
            Some(text) => printer::out(&text),
            // `--format json` and `csv` print the files as written.
            None if matches!(p.shown, Shown::Json | Shown::Csv) => {
                printer::out(&render_scores(report, &p.shown, &[])?)
            }
            None => printer::out(&render_scores(&shown, &p.shown, &kept)?),
        }
        if let Some(w) = small_sets_warning(report) {
            printer::say(&w);
        }
        let scores = ldd_io::error::shown(&dir.join(SCORES_JSON));
        if let Some(note) = earlier_note(&earlier, &scores) {
            printer::say(&note);
        }
        // A report of these sets shows the scores as they were when it was written, and
        // never the scores written elsewhere (`--out`).
        let here = ldd_io::output::same_file(dir, &p.sets);
        for format in ["html", "tex"] {
            let page = report_file(&p.sets, format);
            if !page.is_file() {
                continue;
            }
            let latex = format == "tex";
            printer::say(&if here {
                stale_report_note(&page, &p.sets, latex)
            } else {
                let scores = dir.join(SCORES_JSON);
                elsewhere_report_note(&page, &p.sets, &scores, &report_file(dir, format), latex)
            });
        }
    }
    Ok(())
}

pub fn compare(args: CompareArgs) -> Result<()> {
    let p = plan::compare(&args);
    let rows = compare_sets(&p.gold, &p.pred, &p.bucket)?;
    printer::out(&compare_table(&rows));
    Ok(())
}
