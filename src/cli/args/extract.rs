//! `extract` and `run`.

use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Args;

use ldd_sets::error::Result;
use ldd_sets::parse::find_model;
use ldd_sets::pipeline::{
    corpus_jobs, extract as extract_sets, prepare_corpus, run as run_corpora, CorpusFiles, Parsing,
    Progress, Trees,
};
use ldd_sets::printer;

use super::args::{given, Common, PlanArgs, ThreadArgs};
use super::plan;

#[derive(Args)]
pub struct ExtractArgs {
    /// Source side of the corpus, one sentence per line (plain or gzip).
    #[arg(long, value_name = "FILE")]
    pub src: PathBuf,
    /// Target side, line-aligned with --src (plain or gzip).
    #[arg(long, value_name = "FILE")]
    pub tgt: PathBuf,
    /// Source language code (e.g. de); picks the default phenomena and names files.
    #[arg(long, value_name = "LANG")]
    pub src_lang: String,
    /// Target language code (e.g. en).
    #[arg(long, value_name = "LANG")]
    pub tgt_lang: String,
    /// UD parse of the source side, one tree per corpus line, in order (plain or gzip).
    /// Without it, the source is parsed with UDPipe (cached).
    #[arg(long, value_name = "FILE")]
    pub conllu: Option<PathBuf>,
    /// Skip the check that each tree of --conllu belongs to its corpus line (same letters
    /// and digits after undoing tokenizer escapes, NFKC and lower-casing; docs/usage.md, "Bring
    /// your own parse"), for a parse you trust whose text differs more than that.
    #[arg(long, requires = "conllu")]
    pub trust_conllu: bool,
    /// Use these word alignments (Pharaoh `i-j`, source UD word index - target token
    /// index, 0-based, one line per corpus line; `ldd-sets align --conllu` writes them)
    /// instead of the built-in aligner.
    #[arg(long, value_name = "FILE")]
    pub alignments: Option<PathBuf>,
    /// Language pair naming the UDPipe model and phenomena [default: SRC-TGT: its config
    /// if one exists, else the registry's defaults for the source language].
    #[arg(long, value_name = "PAIR")]
    pub pair: Option<String>,
    /// Output directory (created; a previous ldd-sets output there is replaced).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    #[command(flatten)]
    pub plan: PlanArgs,
}

#[derive(Args)]
pub struct RunArgs {
    /// Language pair SRC-TGT (e.g. fr-en): its config (config/pairs/<PAIR>.toml, a shipped
    /// one, or a path to a .toml), else defaults from the UDPipe 2.5 registry (the source
    /// language's default model, its default phenomena, files <name>.SRC-TGT.<lang>).
    #[arg(long, value_name = "PAIR")]
    pub pair: String,
    /// Directory of corpora named <name>.<files>.<lang>[.gz] (<files> is SRC-TGT unless the
    /// pair config says otherwise).
    #[arg(long, value_name = "DIR")]
    pub corpora: PathBuf,
    /// Only these corpora (names, comma-separated) [default: all found].
    #[arg(long, value_name = "NAMES", value_delimiter = ',')]
    pub only: Option<Vec<String>>,
    /// Output directory; each corpus gets OUT/<name>/.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    #[command(flatten)]
    pub plan: PlanArgs,
}

impl Common for ExtractArgs {
    fn inputs(&self) -> Vec<&Path> {
        given([
            Some(&self.src),
            Some(&self.tgt),
            self.conllu.as_ref(),
            self.alignments.as_ref(),
        ])
    }
    fn threads(&self) -> Option<&ThreadArgs> {
        Some(&self.plan.threads)
    }
}

impl Common for RunArgs {
    fn threads(&self) -> Option<&ThreadArgs> {
        Some(&self.plan.threads)
    }
}

pub fn extract(a: ExtractArgs) -> Result<()> {
    let mut p = plan::extract(&a)?;
    let quiet = p.quiet;
    let trees = match p.conllu.take() {
        Some(c) => Trees::Given(c),
        None => {
            let model = find_model(p.stages.pair.model.as_ref(), &p.stages.parse)?;
            p.out.protect.push(model.clone());
            Trees::Parse(model)
        }
    };
    let prepared = prepare_corpus(&p.source, trees, &p.stages.parse, p.stages.shard)?;
    let corpus = CorpusFiles {
        source: p.source,
        target: p.target,
        conllu: prepared.conllu,
        trust_conllu: p.trust_conllu,
        shard: prepared.shard,
    };
    let languages = &p.languages;
    let start = Instant::now();
    let report = extract_sets(
        &corpus,
        languages,
        &p.stages.sets,
        &p.stages.controls,
        &p.out,
    )?;
    if !quiet {
        for note in printer::extract::tree_notes(&report.corpus) {
            printer::say(&note);
        }
        printer::out(&printer::extract::extract_summary(
            &report,
            start.elapsed().as_secs_f64(),
        ));
        if let Some(note) = printer::extract::later_note(&report) {
            printer::say(&note);
        }
        if report.shard.is_none() {
            let next = printer::extract::next_steps(&[&report.out], languages.target());
            printer::out(&next);
        }
    }
    Ok(())
}

pub fn run(a: RunArgs) -> Result<()> {
    let p = plan::run(&a)?;
    let quiet = p.quiet;
    let jobs = corpus_jobs(&p.stages.pair, &p.corpora, p.only.as_deref(), &p.out)?;
    let parsing = Parsing {
        model: find_model(p.stages.pair.model.as_ref(), &p.stages.parse)?,
        settings: p.stages.parse,
        shard: p.stages.shard,
    };
    let languages = &p.languages;
    let report = run_corpora(
        &jobs,
        languages,
        &p.stages.sets,
        &p.stages.controls,
        &parsing,
        p.replace,
        &mut |progress| match progress {
            _ if quiet => {}
            Progress::Starting(c) => printer::say(&printer::extract::corpus_starting(c)),
            Progress::Done(r) => {
                printer::out(&printer::extract::corpus_heading(&r.corpus.name));
                printer::out(&printer::extract::extract_summary(
                    &r.report,
                    r.extract_seconds,
                ));
                if let Some(note) = printer::extract::later_note(&r.report) {
                    printer::say(&note);
                }
            }
        },
    )?;
    if !quiet {
        printer::out(&printer::extract::run_timing(&report));
        if p.stages.shard.is_none() {
            let dirs: Vec<&Path> = report
                .corpora
                .iter()
                .map(|c| c.report.out.as_path())
                .collect();
            printer::out(&printer::extract::next_steps(&dirs, languages.target()));
        }
    }
    Ok(())
}
