//! The pipeline: the stages glued together for one corpus ([`extract`](fn@extract)), for every
//! corpus of a language pair ([`run`]), and for the shards of a sharded run ([`merge`]).
//!
//! This is the only module that imports every stage; no stage imports it.

pub mod align_corpus;
pub mod extract;
pub mod merge;
pub mod plan;

use std::path::PathBuf;
use std::time::Instant;

use crate::config::Pair;
use crate::detect::reorder::ReorderOptions;
use crate::detect::rules::RuleSet;
use crate::error::{Error, Result};
use crate::parse::{find_model, ParseSettings};
use crate::read::discover::{discover, LocalCorpus};
use crate::read::shard::Shard;
use crate::read::Languages;
use crate::sample::ControlOptions;

pub use extract::{check_shard_reorder, extract, ExtractOptions, ExtractReport, ShardRun};
pub use plan::{check_phenomena, prepare_corpus, select_rules, Prepared, Trees};

/// What `run` does for a language pair.
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// The pair.
    pub pair: Pair,
    /// Directory of corpora named `<name>.<files>.<lang>[.gz]`.
    pub corpora: PathBuf,
    /// Only these corpora (all found if `None`).
    pub only: Option<Vec<String>>,
    /// Output directory; each corpus gets `OUT/<name>/`.
    pub out: PathBuf,
    /// The rules that run.
    pub rules: RuleSet,
    /// Controls.
    pub controls: ControlOptions,
    /// Reordering sets (`None`: skipped).
    pub reorder: Option<ReorderOptions>,
    /// Where the model is and how to parse.
    pub parse: ParseSettings,
    /// No messages on stderr.
    pub quiet: bool,
    /// Only this shard of every corpus (`None`: whole corpora).
    pub shard: Option<Shard>,
}

/// What `run` did for one corpus.
#[derive(Debug)]
pub struct CorpusRun {
    /// The corpus.
    pub corpus: LocalCorpus,
    /// The options extract ran with.
    pub options: ExtractOptions,
    /// Its report.
    pub report: ExtractReport,
    /// Seconds of the parse stage.
    pub parse_seconds: f64,
    /// Seconds of extraction.
    pub extract_seconds: f64,
}

/// Runs parse and extract on every corpus of the pair found in `opts.corpora`, calling
/// `done` after each.
pub fn run(opts: &RunOptions, done: &mut dyn FnMut(&CorpusRun)) -> Result<Vec<CorpusRun>> {
    let pair = &opts.pair;
    let all = discover(pair, &opts.corpora)?;
    let mut corpora = all.clone();
    if let Some(only) = &opts.only {
        for name in only {
            if !corpora.iter().any(|c| &c.name == name) {
                return Err(Error::Config(format!(
                    "--only: no corpus `{}` in {} (found: {})",
                    ldd_io::text::escape(name),
                    ldd_io::text::shown(&opts.corpora),
                    corpora
                        .iter()
                        .map(|c| c.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                )));
            }
        }
        corpora.retain(|c| only.contains(&c.name));
    }
    if let Some(s) = opts.shard {
        check_shard_reorder(s, opts.reorder.as_ref())?;
    }
    let model = find_model(pair.model.as_ref(), &opts.parse)?;
    let mut runs = Vec::new();
    for c in corpora {
        if !opts.quiet {
            eprintln!(
                "ldd-sets: corpus {} ({} -> {})",
                c.name,
                ldd_io::text::shown(&c.source),
                ldd_io::text::shown(&c.target)
            );
        }
        let prepared = prepare_corpus(
            &c.source,
            Trees::Parse {
                model: &model,
                settings: &opts.parse,
            },
            opts.shard,
            opts.quiet,
        )?;
        let reorder = opts.reorder.clone().map(|mut r| {
            if r.align.model.is_none() {
                // Train the aligner on the pair's other corpora too: a small test set
                // alone aligns poorly (the paper used a large training corpus).
                r.align
                    .train
                    .extend(all.iter().filter(|o| o.name != c.name).map(|o| {
                        opts.corpora
                            .join(crate::layout::corpus_stem(&o.name, &pair.files))
                    }));
            }
            r
        });
        let options = ExtractOptions {
            source: c.source.clone(),
            target: c.target.clone(),
            conllu: prepared.conllu,
            trust_conllu: false,
            languages: Languages::new(&pair.source, &pair.target)?,
            rules: opts.rules.clone(),
            out: opts.out.join(&c.name),
            controls: opts.controls,
            reorder,
            protect: vec![model.clone(), opts.corpora.clone()],
            shard: prepared.shard,
        };
        let start = Instant::now();
        let report = extract(&options)?;
        let run = CorpusRun {
            corpus: c,
            options,
            report,
            parse_seconds: prepared.parsed.map_or(0.0, |p| p.seconds),
            extract_seconds: start.elapsed().as_secs_f64(),
        };
        done(&run);
        runs.push(run);
    }
    Ok(runs)
}
