//! `sheets` and `tally`.

use std::path::{Path, PathBuf};

use clap::Args;

use ldd_sets::error::{Error, Result};
use ldd_sets::judge::sheets::{build, default_key, SheetsOptions};
use ldd_sets::judge::tally::{tally as tally_sheets, TallyOptions};
use ldd_sets::judge::{write_tally, SheetsOutput};
use ldd_sets::printer;
use ldd_sets::printer::judge::{render_tally, sheets_summary};
use ldd_sets::score::{check_name, load, system_name};

use super::args::{Common, QuietArgs};

#[derive(Args)]
pub struct SheetsArgs {
    /// Output directory of `ldd-sets extract` (with locus files; its aligner's saved model
    /// for translation items).
    #[arg(long, value_name = "DIR")]
    sets: PathBuf,
    /// A system's translation of the whole corpus, for translation items (repeatable;
    /// without it, only the detection sheet). Systems are blinded in the sheets.
    #[arg(long, value_name = "FILE")]
    hyp: Vec<PathBuf>,
    /// Directory for the annotators: detection.csv, translation.csv, form.html,
    /// sheets.json (replaced as a whole).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Where the key (which output is which system, and locus accuracy's judgement) goes:
    /// outside --out [default: <out>.key.csv beside it].
    #[arg(long, value_name = "FILE")]
    key: Option<PathBuf>,
    /// Loci sampled per phenomenon and distance.
    #[arg(long, value_name = "N", default_value_t = 20,
          value_parser = clap::value_parser!(u32).range(1..=10_000))]
    per_cell: u32,
    /// Distances sampled (each phenomenon's eqD set), comma-separated, each once and at
    /// most 100; the paper annotated 1, 2 and 5.
    #[arg(
        long,
        value_name = "D,..",
        value_delimiter = ',',
        default_value = "1,2,5",
        value_parser = clap::value_parser!(u32).range(0..=100)
    )]
    distances: Vec<u32>,
    /// Seed of the sample and of the order of the systems in every item.
    #[arg(long, value_name = "N", default_value_t = 1)]
    seed: u64,
    /// Aligner model for the outputs' marked words [default: the model the manifest records].
    #[arg(long, value_name = "PREFIX")]
    align_model: Option<PathBuf>,
    /// The target language's UDPipe model (or `auto`) for locus accuracy's lemma match in
    /// the key's automatic judgements, as `score --lemma-model` [default: none].
    #[arg(long, value_name = "FILE|auto", value_parser = ldd_sets::parse::TargetModel::parse)]
    lemma_model: Option<ldd_sets::parse::TargetModel>,
    #[command(flatten)]
    quiet: QuietArgs,
}

#[derive(Args)]
pub struct TallyArgs {
    /// The annotators' filled sheets, one file per annotator (all detection.csv or all
    /// translation.csv of one `sheets` run, as saved from form.html or a spreadsheet).
    #[arg(value_name = "SHEET", required = true)]
    sheets: Vec<PathBuf>,
    /// The key `sheets` wrote (translation sheets): results per system and the agreement
    /// of locus accuracy with the annotators.
    #[arg(long, value_name = "FILE")]
    key: Option<PathBuf>,
    /// Directory for tally.json and tally.csv [default: print the table only].
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Level of the Wilson intervals.
    #[arg(long, value_name = "LEVEL", default_value_t = 0.95)]
    confidence: f64,
    /// Disagreements listed in the table (all are in tally.json).
    #[arg(long, value_name = "N", default_value_t = 20)]
    show: usize,
    #[command(flatten)]
    quiet: QuietArgs,
}

impl Common for SheetsArgs {
    fn inputs(&self) -> Vec<&Path> {
        self.hyp.iter().map(PathBuf::as_path).collect()
    }
}

impl Common for TallyArgs {
    fn inputs(&self) -> Vec<&Path> {
        let mut v: Vec<&Path> = self.sheets.iter().map(PathBuf::as_path).collect();
        v.extend(self.key.as_deref());
        v
    }
}

pub fn sheets(a: SheetsArgs) -> Result<()> {
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
    // The outputs are claimed and checked before any work.
    let key = a.key.clone().unwrap_or_else(|| default_key(&a.out));
    let mut inputs: Vec<&Path> = a.hyp.iter().map(PathBuf::as_path).collect();
    inputs.push(&a.sets);
    let output = SheetsOutput::new(&a.out, &key, &inputs)?;
    let l = load(&a.sets)?;
    let sha = ldd_io::sha256_file(&l.manifest_path)?.0;
    let o = SheetsOptions {
        hyps: a.hyp.clone(),
        names,
        per_cell: a.per_cell as usize,
        distances: a.distances.clone(),
        seed: a.seed,
        align_model: a.align_model.clone(),
        lemma_model: a.lemma_model.clone(),
    };
    let s = build(&l, &o, &sha)?;
    output.write(&s)?;
    if !a.quiet.quiet {
        printer::out(&sheets_summary(
            &s,
            &a.out,
            (!s.key.is_empty()).then_some(key.as_path()),
        ));
    }
    Ok(())
}

pub fn tally(a: TallyArgs) -> Result<()> {
    if !(a.confidence > 0.0 && a.confidence < 1.0) {
        return Err(Error::Config(format!(
            "--confidence {}: must be between 0 and 1 (e.g. 0.95)",
            a.confidence
        )));
    }
    let o = TallyOptions {
        sheets: a.sheets.clone(),
        key: a.key.clone(),
        confidence: a.confidence,
    };
    let r = tally_sheets(&o)?;
    if let Some(dir) = &a.out {
        let inputs = Common::inputs(&a);
        write_tally(&r, dir, &inputs)?;
    }
    if !a.quiet.quiet {
        printer::out(&render_tally(&r, a.show));
    }
    Ok(())
}
