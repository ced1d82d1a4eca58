//! The pipeline: the stages glued together for one corpus ([`extract`](fn@extract)), for every
//! corpus of a language pair ([`run`]), and for the shards of a sharded run ([`merge`]).
//!
//! This is the only module that imports every stage; no stage imports it.

pub mod align_corpus;
pub mod extract;
pub mod merge;

use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::config::registry::Registry;
use crate::config::Pair;
use crate::detect::reorder::ReorderOptions;
use crate::detect::rules::RuleSet;
use crate::error::{Error, Result};
use crate::parse::{describe, find_model, parse_cached_lines, ParseSettings};
use crate::read::discover::{discover, LocalCorpus};
use crate::read::shard::{count_lines, shard_range, Shard};
use crate::read::Languages;
use crate::sample::ControlOptions;

pub use extract::{check_shard_reorder, extract, ExtractOptions, ExtractReport, ShardRun};

/// Which rules run: `rules` (a file) or the pair's rules file or the built-in rules; then
/// `phenomena` (or the pair's list) if given; else, with the built-in rules and a source
/// language the model registry knows, the phenomena of the pair's model if it is a
/// registry model, or of the language's default model (see `config/udpipe-2.5.toml`);
/// else those whose `languages` include `src_lang`. `max_distance` overrides the rules'
/// `buckets.max`.
pub fn select_rules(
    rules: Option<&Path>,
    phenomena: Option<&[String]>,
    max_distance: Option<u32>,
    pair: Option<&Pair>,
    src_lang: &str,
) -> Result<RuleSet> {
    let file = rules
        .map(Path::to_path_buf)
        .or_else(|| pair.and_then(|p| p.rules.clone()));
    let builtin = file.is_none();
    let set = match file {
        Some(p) => RuleSet::load(&p)?,
        None => RuleSet::builtin()?,
    };
    let mut only = phenomena
        .map(<[String]>::to_vec)
        .or_else(|| pair.and_then(|p| p.phenomena.clone()));
    if only.is_none() && builtin {
        only = registry_phenomena(pair, src_lang)?;
    }
    let mut set = set.select(only.as_deref(), src_lang)?;
    if let Some(m) = max_distance {
        set.max_distance = m;
    }
    Ok(set)
}

/// The registry's default phenomena for `src_lang` with the pair's model (`None`: the
/// registry does not know the language).
fn registry_phenomena(pair: Option<&Pair>, src_lang: &str) -> Result<Option<Vec<String>>> {
    let reg = Registry::builtin()?;
    let Some(lang) = reg.language(src_lang) else {
        return Ok(None);
    };
    let model = pair
        .and_then(|p| p.model.as_ref())
        .and_then(|m| reg.model(&m.name))
        .filter(|(l, _)| l.code == lang.code)
        .map_or_else(|| lang.default_model(), |(_, m)| m);
    Ok(Some(model.phenomena.clone()))
}

/// Why no phenomenon runs for `src_lang` by default (for a note to the user), if the
/// registry knows the language and its default model has none.
pub fn no_phenomena_reason(src_lang: &str) -> Option<String> {
    let reg = Registry::builtin().ok()?;
    let lang = reg.language(src_lang)?;
    let m = lang.default_model();
    if !m.phenomena.is_empty() {
        return None;
    }
    let mut why = format!(
        "{} ({}): the UDPipe model {} annotates none of the built-in phenomena ({})",
        lang.name, lang.code, m.file, m.evidence
    );
    if !lang.notes.is_empty() {
        why.push_str(&format!("; {}", lang.notes));
    }
    Some(why)
}

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
        let lines = match opts.shard {
            Some(s) => {
                let total = count_lines(&c.source)?;
                Some((s, shard_range(s, &c.source, total)?, total))
            }
            None => None,
        };
        let parsed = parse_cached_lines(&c.source, &model, lines.map(|l| l.1), &opts.parse)?;
        if !opts.quiet {
            eprintln!("ldd-sets: {}", describe(&parsed, &c.source));
        }
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
            conllu: parsed.conllu.clone(),
            trust_conllu: false,
            languages: Languages::new(&pair.source, &pair.target)?,
            rules: opts.rules.clone(),
            out: opts.out.join(&c.name),
            controls: opts.controls,
            reorder,
            protect: vec![model.clone(), opts.corpora.clone()],
            shard: lines.map(|(s, range, total)| ShardRun::new(s, range, total, Some(&parsed))),
        };
        let start = Instant::now();
        let report = extract(&options)?;
        let run = CorpusRun {
            corpus: c,
            options,
            report,
            parse_seconds: parsed.seconds,
            extract_seconds: start.elapsed().as_secs_f64(),
        };
        done(&run);
        runs.push(run);
    }
    Ok(runs)
}
