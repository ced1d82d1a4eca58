//! The arguments of `mqm`, as typed (the plan reads them).

use std::path::{Path, PathBuf};

use clap::Args;

use super::{given, Common, QuietArgs, TargetParseArgs, ThreadArgs};
use ldd_io::Output;

use super::outputs::{self, output};

#[derive(Args)]
pub struct MqmArgs {
    /// Output directory of `ldd-sets extract` on the campaign's source and reference (with
    /// its aligner's saved model).
    #[arg(long, value_name = "DIR", required_unless_present = "export")]
    pub sets: Option<PathBuf>,
    /// Instead of judging: write the campaign as a corpus into DIR — the source and the
    /// reference system's outputs as mqm.SRC-TGT.SRC and mqm.SRC-TGT.TGT (one line per
    /// segment, in segment order), every other system's outputs as systems/NAME.TGT (an
    /// empty line where it was not rated) and segments.tsv (line, segment, doc) — ready
    /// for `extract`, then `mqm --sets` (replaced as a whole).
    #[arg(long, value_name = "DIR", conflicts_with = "sets", requires_all = ["src_lang", "tgt_lang"], value_parser = output(&outputs::MQM_EXPORT))]
    pub export: Option<Output>,
    /// With --export: the source language code (names the files).
    #[arg(long, value_name = "LANG")]
    pub src_lang: Option<String>,
    /// With --export: the target language code.
    #[arg(long, value_name = "LANG")]
    pub tgt_lang: Option<String>,
    /// With --export: the system whose outputs are the reference [default: the one system
    /// named like a human reference: ref, refA, ref-B, Human-A, …].
    #[arg(long, value_name = "NAME")]
    pub reference_system: Option<String>,
    /// MQM annotations as google/wmt-mqm-human-evaluation publishes them (plain or gzip),
    /// one row per error, tab-separated, with a header: columns system, doc, seg_id (or
    /// globalSegId), rater, source, target, category, severity (others, such as doc_id,
    /// docSegId, comment and metadata, ignored); error spans `<v>…</v>`; rater checks
    /// (severity HOTW-test) left out. Repeatable: the files of one campaign, each given
    /// once (a row twice is refused).
    #[arg(long, value_name = "FILE", required = true)]
    pub mqm: Vec<PathBuf>,
    /// Only the segments of these documents (the `doc` column), comma-separated, e.g. a
    /// held-out part [default: all].
    #[arg(long, value_name = "DOC,..", value_delimiter = ',')]
    pub docs: Vec<String>,
    /// Severities that count as an error, comma-separated (case ignored); each must be a
    /// severity of the files' errors [default: major,minor].
    #[arg(long, value_name = "S,..", value_delimiter = ',')]
    pub severity: Vec<String>,
    /// Error categories that count, as prefixes, comma-separated (`accuracy` takes
    /// Accuracy/Mistranslation, Accuracy/Omission, …; case ignored); each must begin a
    /// category of the files' errors [default: all].
    #[arg(long, value_name = "PREFIX,..", value_delimiter = ',')]
    pub categories: Vec<String>,
    /// Also count the errors marked as problems of the source (category `Source issue`,
    /// or newstest2020's `Source error`) as the system's: by default they are left out
    /// (counted in mqm.json), since the translation did not make them.
    #[arg(long)]
    pub source_issues: bool,
    /// The human references among the systems, not judged, comma-separated, or `none`
    /// [default: the systems named like one: ref, refA, ref-B, ref.A, Human-A, reference,
    /// … — not GPT4-5shot_with_refA].
    #[arg(long, value_name = "NAME,..|none", value_delimiter = ',')]
    pub references: Option<Vec<String>>,
    /// Systems of the MQM files left out besides the references, comma-separated (each
    /// must be a system of the files).
    #[arg(long, value_name = "NAME,..", value_delimiter = ',')]
    pub exclude: Vec<String>,
    /// Aligner model [default: the one saved with the sets (older sets: the model the
    /// manifest records as loaded or saved)].
    #[arg(long, value_name = "PREFIX")]
    pub align_model: Option<PathBuf>,
    #[command(flatten)]
    pub parsing: TargetParseArgs,
    /// The corpus's parse, for the words of every line [default: the parse the manifest
    /// records]. Must be the file extract read (same SHA-256).
    #[arg(long, value_name = "FILE")]
    pub conllu: Option<PathBuf>,
    /// The corpus's source side [default: the file the manifest records; same SHA-256].
    #[arg(long, value_name = "FILE")]
    pub src: Option<PathBuf>,
    /// The corpus's target side, the reference [default: the file the manifest records;
    /// same SHA-256].
    #[arg(long = "ref", value_name = "FILE")]
    pub reference: Option<PathBuf>,
    /// Shuffles of the permutation tests (0: none; the smallest p is 1/(N+1)).
    #[arg(long, value_name = "N", default_value_t = 10_000,
          value_parser = clap::value_parser!(u32).range(0..=1_000_000))]
    pub permutations: u32,
    /// Seed of the permutation tests.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub seed: u64,
    /// Level of the Wilson intervals.
    #[arg(long, value_name = "LEVEL", default_value_t = 0.95)]
    pub confidence: f64,
    /// Directory for mqm.json, mqm.csv and mqm.disagreements.tsv [default: the --sets
    /// directory, where `report` finds them].
    #[arg(long, value_name = "DIR", value_parser = output(&outputs::MQM))]
    pub out: Option<Output>,
    /// Also write every content word judged, with the raters' verdict, to this TSV file
    /// (what the judgement's constants are fitted on: benches/locus_fit.py).
    #[arg(long, value_name = "FILE", value_parser = output(&outputs::MQM_ITEMS))]
    pub items: Option<Output>,
    /// The agreement table with every column in one table (each kind of item outside the
    /// 2×2 table with its rater error rate) and system names whole, however wide; without
    /// it every table fits 100 columns.
    #[arg(long)]
    pub wide: bool,
    #[command(flatten)]
    pub threads: ThreadArgs,
    #[command(flatten)]
    pub quiet: QuietArgs,
}

impl Common for MqmArgs {
    fn derived_inputs(&self) -> Vec<PathBuf> {
        super::model_prefix_files(self.align_model.as_ref())
    }
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
