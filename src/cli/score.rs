//! `slice`, `score` and `compare`.

use std::path::PathBuf;

use clap::Args;

use ldd_sets::error::Result;
use ldd_sets::score::compare::compare as compare_sets;
use ldd_sets::score::render::{render_table, write_outputs};
use ldd_sets::score::slice::{slice as slice_sets, SliceOptions};
use ldd_sets::score::{score as score_sets, ScoreOptions};

use super::args::QuietArgs;

#[derive(Args)]
pub struct SliceArgs {
    /// Output directory of `ldd-sets extract`.
    #[arg(long, value_name = "DIR")]
    sets: PathBuf,
    /// A system's translation of the whole corpus, one line per corpus line.
    #[arg(long, value_name = "FILE")]
    hyp: PathBuf,
    /// System name used in the file names `<bucket>.hyp.NAME` [default: the --hyp file
    /// name without its last extension (and without .gz)]. Letters, digits, `_ - .`.
    #[arg(long, value_name = "NAME")]
    name: Option<String>,
}

#[derive(Args)]
pub struct ScoreArgs {
    /// Output directory of `ldd-sets extract`.
    #[arg(long, value_name = "DIR")]
    sets: PathBuf,
    /// Systems' translations of the whole corpus (repeat for several systems).
    #[arg(long, value_name = "FILE", required = true)]
    hyp: Vec<PathBuf>,
    /// Reference (the corpus target side) [default: the target file recorded in the
    /// manifest]. Must be the file extract read (same SHA-256).
    #[arg(long = "ref", value_name = "FILE")]
    reference: Option<PathBuf>,
    /// Directory for scores.csv and scores.json [default: the --sets directory].
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    #[command(flatten)]
    quiet: QuietArgs,
}

#[derive(Args)]
pub struct CompareArgs {
    /// Output directory of the reference run (e.g. extracted from gold trees).
    #[arg(long, value_name = "DIR")]
    gold: PathBuf,
    /// Output directory of the run to evaluate.
    #[arg(long, value_name = "DIR")]
    pred: PathBuf,
    /// Set to compare in every phenomenon.
    #[arg(long, value_name = "BUCKET", default_value = "ge1")]
    bucket: String,
}

pub fn slice(a: SliceArgs) -> Result<()> {
    slice_sets(&SliceOptions {
        sets: a.sets,
        hyp: a.hyp,
        name: a.name,
    })
}

pub fn score(a: ScoreArgs) -> Result<()> {
    let opts = ScoreOptions {
        sets: a.sets.clone(),
        hyps: a.hyp,
        reference: a.reference,
    };
    let report = score_sets(&opts)?;
    let mut inputs: Vec<&std::path::Path> = opts.hyps.iter().map(PathBuf::as_path).collect();
    inputs.push(&report.reference);
    write_outputs(&report, a.out.as_ref().unwrap_or(&a.sets), &inputs)?;
    if !a.quiet.quiet {
        print!("{}", render_table(&report));
    }
    Ok(())
}

pub fn compare(a: CompareArgs) -> Result<()> {
    let rows = compare_sets(&a.gold, &a.pred, &a.bucket)?;
    println!(
        "{:<24} {:<6} {:>6} {:>6} {:>6} {:>9} {:>9} {:>6}",
        "phenomenon", "set", "gold", "pred", "both", "precision", "recall", "F1"
    );
    for r in &rows {
        println!(
            "{:<24} {:<6} {:>6} {:>6} {:>6} {:>9.3} {:>9.3} {:>6.3}",
            r.phenomenon,
            r.bucket,
            r.gold,
            r.predicted,
            r.both,
            r.precision,
            r.recall,
            r.f1()
        );
    }
    Ok(())
}
