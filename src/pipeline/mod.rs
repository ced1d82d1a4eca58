//! The pipeline: the stages that make the sets, a folder each ([`read`] → [`parse`] →
//! [`align`] → [`detect`] → [`bucket`] → [`sample`] → [`write`](mod@write); [`merge`]
//! joins a sharded run's outputs), and the glue, its own files, which hands each stage what
//! it needs, in order (no stage imports it). What enters: a corpus or a pair's corpora, and
//! the sets' options. What leaves: sets directories ([`extract_corpus`], [`run_corpora`]) or
//! alignments ([`align_corpus`]). For the commands: [`select_rules`], [`check_phenomena`],
//! [`check_shard_reorder`], [`prepare_corpus`].

pub mod align;
pub mod align_corpus;
pub mod bucket;
pub mod detect;
pub mod extract;
pub mod merge;
pub mod parse;
pub mod read;
pub mod sample;
pub mod write;

use std::path::PathBuf;
use std::sync::Arc;

use crate::config::{Languages, ModelSpec};
use crate::error::Result;
use crate::pipeline::align::cache::{self, AlignerSummary};
use crate::pipeline::parse::{find_model, ParseSettings};
use crate::pipeline::read::discover::{CorpusJob, LocalCorpus};
use crate::pipeline::read::shard::Shard;
use crate::pipeline::sample::ControlOptions;

pub use crate::pipeline::detect::reorder::check_shard_reorder;
pub use crate::pipeline::detect::select::{check_phenomena, select_rules};
pub use crate::pipeline::parse::prepare::{prepare_corpus, Trees};
pub use crate::pipeline::read::discover::corpus_jobs;
pub use crate::pipeline::read::lockstep::CorpusFiles;
pub use extract::{extract, ExtractReport, Output, SetOptions};

/// How `extract` and `run` parse a corpus.
#[derive(Debug, Clone)]
pub struct Parsing {
    /// The pair's UDPipe model, found by [`find_model`] when a corpus is parsed.
    pub model: Option<ModelSpec>,
    /// The parse cache, threads, and whether to say what is done on stderr.
    pub settings: ParseSettings,
    /// Only this shard of every corpus (`None`: whole corpora).
    pub shard: Option<Shard>,
}

/// `extract`'s corpus: its two sides and its trees.
pub struct OneCorpus {
    /// Source side.
    pub source: PathBuf,
    /// Target side.
    pub target: PathBuf,
    /// The given parse (`None`: parsed with [`Parsing::model`]).
    pub conllu: Option<PathBuf>,
    /// Do not check the given parse's trees against their lines (`--trust-conllu`).
    pub trust_conllu: bool,
}

/// `extract`'s whole flow: the trees of `corpus` given or parsed as `parsing` says (the
/// model then added to what `out` protects), then the sets of `sets` extracted in
/// `languages` with `controls` into `out` ([`extract`](fn@extract)).
pub fn extract_corpus(
    corpus: OneCorpus,
    parsing: &Parsing,
    languages: &Languages,
    sets: &SetOptions,
    controls: &ControlOptions,
    mut out: Output,
) -> Result<ExtractReport> {
    let trees = match corpus.conllu {
        Some(conllu) => Trees::Given(conllu),
        None => {
            let model = find_model(parsing.model.as_ref(), &parsing.settings)?;
            out.protect.push(model.clone());
            Trees::Parse(model)
        }
    };
    let prepared = prepare_corpus(&corpus.source, trees, &parsing.settings, parsing.shard)?;
    let files = CorpusFiles {
        source: corpus.source,
        target: corpus.target,
        conllu: prepared.conllu,
        trust_conllu: corpus.trust_conllu,
        shard: prepared.shard,
    };
    extract(&files, languages, sets, controls, &out)
}

/// What `run` did for one corpus.
#[derive(Debug)]
pub struct CorpusRun {
    /// The corpus.
    pub corpus: LocalCorpus,
    /// Its report.
    pub report: ExtractReport,
    /// Seconds of the parse stage.
    pub parse_seconds: f64,
    /// Seconds of extraction.
    pub extract_seconds: f64,
}

/// What `run` did: every corpus, and the aligner it trained for all of them.
#[derive(Debug)]
pub struct RunReport {
    /// Every corpus, in order.
    pub corpora: Vec<CorpusRun>,
    /// The aligner obtained once for every corpus (trained, or found in the aligner
    /// cache; `None`: no reordering sets, or a loaded model or given alignments).
    pub aligner: Option<AlignerSummary>,
}

/// What `run` says as it goes, for the caller to print.
pub enum Progress<'a> {
    /// A corpus is about to be parsed and extracted.
    Starting(&'a LocalCorpus),
    /// A corpus is done.
    Done(&'a CorpusRun),
}

/// `run`'s whole flow: parses (with the model of `parsing`, found first) and extracts
/// every corpus of `jobs` (see [`corpus_jobs`]) in `languages` with `sets` and `controls`
/// (each output replaced as [`Output::replace`] says, from `replace`), telling `progress`
/// as it goes. Reordering sets are aligned by one aligner, trained first on every corpus
/// of the pair (unless one is loaded).
pub fn run_corpora(
    jobs: &[CorpusJob],
    languages: &Languages,
    sets: &SetOptions,
    controls: &ControlOptions,
    parsing: &Parsing,
    replace: bool,
    progress: &mut dyn FnMut(Progress<'_>),
) -> Result<RunReport> {
    let model = find_model(parsing.model.as_ref(), &parsing.settings)?;
    let mut sets = sets.clone();
    let mut aligner = None;
    if let (Some(r), Some(first)) = (
        sets.reorder
            .as_mut()
            .filter(|r| r.align.model.is_none() && r.alignments.is_none()),
        jobs.first(),
    ) {
        // One aligner for every corpus: trained on all of them (and --align-train) once,
        // or found in the aligner cache when they are unchanged.
        r.align.train.extend(first.align_train.iter().cloned());
        let langs = (languages.source(), languages.target());
        crate::pipeline::write::alignments::create_model_dirs(&r.align)?;
        let obtained = cache::obtain(&r.align, langs, None, r.cache.as_deref())?;
        aligner = Some(obtained.summary());
        r.trained = Some(Arc::new(obtained));
    }
    let mut runs = Vec::new();
    for job in jobs {
        progress(Progress::Starting(&job.corpus));
        let trees = Trees::Parse(model.clone());
        let source = &job.corpus.source;
        let prepared = prepare_corpus(source, trees, &parsing.settings, parsing.shard)?;
        let corpus = CorpusFiles {
            source: source.clone(),
            target: job.corpus.target.clone(),
            conllu: prepared.conllu,
            trust_conllu: false,
            shard: prepared.shard,
        };
        let mut protect = job.protect.clone();
        protect.push(model.clone());
        let out = Output {
            dir: job.out.clone(),
            protect,
            replace,
        };
        let report = extract(&corpus, languages, &sets, controls, &out)?;
        let run = CorpusRun {
            corpus: job.corpus.clone(),
            extract_seconds: report.seconds,
            report,
            parse_seconds: prepared.parsed.map_or(0.0, |p| p.seconds),
        };
        progress(Progress::Done(&run));
        runs.push(run);
    }
    Ok(RunReport {
        corpora: runs,
        aligner,
    })
}
