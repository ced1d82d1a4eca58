//! What a run works on, resolved once for `extract`, `run` and `parse`: the rules that run
//! (the rules file, the pair's choice, the registry's defaults for the source language),
//! the corpora of a pair (`run`), and a corpus's trees (given, or parsed with the parse
//! cache, for the whole corpus or one shard of it).

use std::path::{Path, PathBuf};

use crate::config::registry::Registry;
use crate::config::Pair;
use crate::detect::rules::RuleSet;
use crate::error::{Error, Result};
use crate::parse::{describe, parse_cached_lines, ParseSettings, Parsed};
use crate::read::discover::{discover, LocalCorpus};
use crate::read::shard::{count_lines, shard_range, Shard};

use super::extract::ShardRun;

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

/// The note to show when no lexical phenomenon runs for the source language (`None`: some
/// does); refuses to run when there is nothing to extract at all.
pub fn check_phenomena(rules: &RuleSet, src_lang: &str, reorder: bool) -> Result<Option<String>> {
    if !rules.phenomena.is_empty() {
        return Ok(None);
    }
    let why = no_phenomena_reason(src_lang).unwrap_or_else(|| {
        format!("no phenomenon of the rules applies to source language `{src_lang}`")
    });
    if !reorder {
        return Err(Error::Config(format!(
            "{why}; with --no-reorder there is nothing to extract (name phenomena with \
             --phenomena to run them anyway)"
        )));
    }
    Ok(Some(format!(
        "ldd-sets: note: {why}. Only reordering sets are built; name phenomena with \
         --phenomena to run them anyway"
    )))
}

/// Where a corpus's trees come from.
pub enum Trees {
    /// A CoNLL-U of the whole corpus, one tree per line (`extract --conllu`).
    Given(PathBuf),
    /// Parsed from the source side with this UDPipe model (cached).
    Parse(PathBuf),
}

/// A corpus ready for extraction.
pub struct Prepared {
    /// Its trees: the given CoNLL-U, or the cached parse (of the shard's lines, with a
    /// shard).
    pub conllu: PathBuf,
    /// The shard being run (`None`: the whole corpus).
    pub shard: Option<ShardRun>,
    /// The parse, when ldd-sets parsed.
    pub parsed: Option<Parsed>,
}

/// Prepares the corpus whose source side is `source`: the line range of `shard` (if any),
/// then its trees, given or parsed with `settings` (and said on stderr unless quiet). The
/// one way `extract`, `run` and `parse` get their trees.
pub fn prepare_corpus(
    source: &Path,
    trees: Trees,
    settings: &ParseSettings,
    shard: Option<Shard>,
) -> Result<Prepared> {
    let lines = match shard {
        Some(s) => {
            let total = count_lines(source)?;
            Some((s, shard_range(s, source, total)?, total))
        }
        None => None,
    };
    Ok(match trees {
        Trees::Given(conllu) => Prepared {
            conllu,
            shard: lines.map(|(s, r, t)| ShardRun::new(s, r, t, None)),
            parsed: None,
        },
        Trees::Parse(model) => {
            let parsed = parse_cached_lines(source, &model, lines.map(|l| l.1), settings)?;
            if !settings.quiet {
                ldd_io::message::say(&format!("ldd-sets: {}", describe(&parsed, source)));
            }
            Prepared {
                conllu: parsed.conllu.clone(),
                shard: lines.map(|(s, r, t)| ShardRun::new(s, r, t, Some(&parsed))),
                parsed: Some(parsed),
            }
        }
    })
}

/// One corpus of a `run`: its files, where its sets go, and what else its run reads.
#[derive(Debug, Clone)]
pub struct CorpusJob {
    /// The corpus.
    pub corpus: LocalCorpus,
    /// Its output directory.
    pub out: PathBuf,
    /// The aligner's training data (unless a model is loaded): every corpus of the pair,
    /// this one too, as `PREFIX`es; the same for every corpus of a run.
    pub align_train: Vec<PathBuf>,
    /// Files the run depends on besides the corpus (the corpora directory): never inside
    /// an output.
    pub protect: Vec<PathBuf>,
}

/// The corpora of `pair` in `dir` (only those `only` names, if given), each with its
/// output directory `out/<name>` and, as the aligner's training data, all the pair's
/// corpora: a small test set alone aligns poorly (the paper used a large training corpus).
pub fn corpus_jobs(
    pair: &Pair,
    dir: &Path,
    only: Option<&[String]>,
    out: &Path,
) -> Result<Vec<CorpusJob>> {
    let all = discover(pair, dir)?;
    if let Some(only) = only {
        if let Some(name) = only.iter().find(|n| !all.iter().any(|c| &c.name == *n)) {
            let found: Vec<&str> = all.iter().map(|c| c.name.as_str()).collect();
            return Err(Error::Config(format!(
                "--only: no corpus `{}` in {} (found: {})",
                ldd_io::error::escape(name),
                ldd_io::error::shown(dir),
                found.join(", ")
            )));
        }
    }
    let wanted = |c: &&LocalCorpus| only.is_none_or(|o| o.contains(&c.name));
    Ok(all
        .iter()
        .filter(wanted)
        .map(|c| CorpusJob {
            corpus: c.clone(),
            out: out.join(&c.name),
            align_train: all
                .iter()
                .map(|o| dir.join(crate::layout::corpus_stem(&o.name, &pair.files)))
                .collect(),
            protect: vec![dir.to_path_buf()],
        })
        .collect())
}
