//! `mqm`.

use std::path::{Path, PathBuf};

use clap::Args;

use ldd_sets::error::{Error, Result};
use ldd_sets::judge::mqm::{export, mqm as judge_mqm, MqmOptions};
use ldd_sets::judge::{write_export, write_mqm};
use ldd_sets::locus::Judging;
use ldd_sets::parse::TargetModel;
use ldd_sets::printer;
use ldd_sets::printer::mqm::{export_summary, render_mqm};
use ldd_sets::score::load;

use super::args::{given, Common, QuietArgs, ThreadArgs};

#[derive(Args)]
pub struct MqmArgs {
    /// Output directory of `ldd-sets extract` on the campaign's source and reference (with
    /// its aligner's saved model).
    #[arg(long, value_name = "DIR", required_unless_present = "export")]
    sets: Option<PathBuf>,
    /// Instead of judging: write the campaign as a corpus into DIR — the source and the
    /// reference system's outputs as mqm.SRC-TGT.SRC and mqm.SRC-TGT.TGT (one line per
    /// segment, in segment order), every other system's outputs as systems/NAME.TGT (an
    /// empty line where it was not rated) and segments.tsv (line, segment, doc) — ready
    /// for `extract`, then `mqm --sets` (replaced as a whole).
    #[arg(long, value_name = "DIR", conflicts_with = "sets", requires_all = ["src_lang", "tgt_lang"])]
    export: Option<PathBuf>,
    /// With --export: the source language code (names the files).
    #[arg(long, value_name = "LANG")]
    src_lang: Option<String>,
    /// With --export: the target language code.
    #[arg(long, value_name = "LANG")]
    tgt_lang: Option<String>,
    /// With --export: the system whose outputs are the reference.
    #[arg(long, value_name = "NAME", default_value = "ref")]
    reference_system: String,
    /// MQM annotations in the WMT format (google/wmt-mqm-human-evaluation: columns system,
    /// doc, seg_id, rater, source, target, category, severity; error spans `<v>…</v>`).
    /// Repeatable: the files of one campaign.
    #[arg(long, value_name = "FILE", required = true)]
    mqm: Vec<PathBuf>,
    /// Only the segments of these documents (the `doc` column), comma-separated, e.g. a
    /// held-out part [default: all].
    #[arg(long, value_name = "DOC,..", value_delimiter = ',')]
    docs: Vec<String>,
    /// Severities that count as an error, comma-separated (case ignored).
    #[arg(
        long,
        value_name = "S,..",
        value_delimiter = ',',
        default_value = "major,minor"
    )]
    severity: Vec<String>,
    /// Error categories that count, as prefixes, comma-separated (`accuracy` takes
    /// Accuracy/Mistranslation, Accuracy/Omission, …; case ignored) [default: all].
    #[arg(long, value_name = "PREFIX,..", value_delimiter = ',')]
    categories: Vec<String>,
    /// Systems of the MQM files left out, comma-separated (e.g. the human reference).
    #[arg(
        long,
        value_name = "NAME,..",
        value_delimiter = ',',
        default_value = "ref"
    )]
    exclude: Vec<String>,
    /// Aligner model [default: the one saved with the sets (older sets: the model the
    /// manifest records as loaded or saved)].
    #[arg(long, value_name = "PREFIX")]
    align_model: Option<PathBuf>,
    /// The target language's UDPipe model (or `auto`) whose lemmas count as an exact
    /// rendering, as `score --lemma-model` [default: none].
    #[arg(long, value_name = "FILE|auto", value_parser = TargetModel::parse)]
    lemma_model: Option<TargetModel>,
    /// The corpus's parse, for the words of every line [default: the parse the manifest
    /// records]. Must be the file extract read (same SHA-256).
    #[arg(long, value_name = "FILE")]
    conllu: Option<PathBuf>,
    /// The corpus's source side [default: the file the manifest records; same SHA-256].
    #[arg(long, value_name = "FILE")]
    src: Option<PathBuf>,
    /// The corpus's target side, the reference [default: the file the manifest records;
    /// same SHA-256].
    #[arg(long = "ref", value_name = "FILE")]
    reference: Option<PathBuf>,
    /// Shuffles of the permutation tests (0: none).
    #[arg(long, value_name = "N", default_value_t = 1000,
          value_parser = clap::value_parser!(u32).range(0..=1_000_000))]
    permutations: u32,
    /// Seed of the permutation tests.
    #[arg(long, value_name = "N", default_value_t = 1)]
    seed: u64,
    /// Level of the Wilson intervals.
    #[arg(long, value_name = "LEVEL", default_value_t = 0.95)]
    confidence: f64,
    /// Directory for mqm.json, mqm.csv and mqm.disagreements.tsv [default: the --sets
    /// directory, where `report` finds them].
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Also write every content word judged, with the raters' verdict, to this TSV file
    /// (what the judgement's constants are fitted on: benches/locus_fit.py).
    #[arg(long, value_name = "FILE")]
    items: Option<PathBuf>,
    #[command(flatten)]
    threads: ThreadArgs,
    #[command(flatten)]
    quiet: QuietArgs,
}

impl Common for MqmArgs {
    fn inputs(&self) -> Vec<&Path> {
        let mut v: Vec<&Path> = self.mqm.iter().map(PathBuf::as_path).collect();
        v.extend(given([
            self.conllu.as_ref(),
            self.src.as_ref(),
            self.reference.as_ref(),
        ]));
        v
    }
    fn threads(&self) -> Option<&ThreadArgs> {
        Some(&self.threads)
    }
}

pub fn mqm(a: MqmArgs) -> Result<()> {
    if !(a.confidence > 0.0 && a.confidence < 1.0) {
        return Err(Error::Config(format!(
            "--confidence {}: must be between 0 and 1 (e.g. 0.95)",
            a.confidence
        )));
    }
    let lower = |v: &[String]| -> Vec<String> {
        v.iter()
            .map(|s| s.trim().to_ascii_lowercase())
            .filter(|s| !s.is_empty())
            .collect()
    };
    if let Some(dir) = &a.export {
        let (Some(src), Some(tgt)) = (&a.src_lang, &a.tgt_lang) else {
            return Err(Error::Config(
                "--export needs --src-lang and --tgt-lang".into(),
            ));
        };
        for code in [src, tgt] {
            ldd_io::name::check(ldd_io::NameKind::File, code, "a language code")?;
        }
        let e = export(&a.mqm, &a.reference_system)?;
        let inputs = Common::inputs(&a);
        write_export(&e, dir, (src, tgt), &inputs)?;
        if !a.quiet.quiet {
            printer::out(&export_summary(&e, &a.reference_system, dir));
        }
        return Ok(());
    }
    let Some(sets) = &a.sets else {
        return Err(Error::Config("give --sets DIR (or --export DIR)".into()));
    };
    let severities = lower(&a.severity);
    if severities.is_empty() {
        return Err(Error::Config(
            "--severity: name at least one severity (e.g. major,minor)".into(),
        ));
    }
    let l = load(sets)?;
    let sha = ldd_io::sha256_file(&l.manifest_path)?.0;
    let j = Judging::new(&l, a.align_model.as_deref(), a.lemma_model.as_ref())?;
    let o = MqmOptions {
        files: a.mqm.clone(),
        docs: a.docs.clone(),
        severities,
        categories: lower(&a.categories),
        exclude: a.exclude.clone(),
        conllu: a.conllu.clone(),
        source: a.src.clone(),
        reference: a.reference.clone(),
        permutations: a.permutations as usize,
        seed: a.seed,
        confidence: a.confidence,
    };
    let r = judge_mqm(&l, &o, &j, &sha)?;
    let out = a.out.clone().unwrap_or_else(|| sets.clone());
    let inputs = Common::inputs(&a);
    write_mqm(&r, &out, a.items.as_deref(), &inputs)?;
    if !a.quiet.quiet {
        printer::out(&render_mqm(&r.report));
    }
    Ok(())
}
