//! Stage **parse**: the source side of a corpus to UD trees with UDPipe
//! (`crates/parse`): model lookup, the content-addressed parse cache, errors mapped to
//! ldd-sets' exit codes.
//!
//! What enters: a corpus side (one sentence per line) and a model (a file, or a pair
//! config's model name looked up in the models directory). What leaves: a gzip CoNLL-U
//! file in the parse cache, one tree per corpus line ([`Parsed`]); a corpus's trees, given
//! or parsed, for the whole corpus or one shard ([`prepare`]); a gold treebank's text
//! parsed, one tree per gold sentence ([`gold`]).
//!
//! In short (what enters → what leaves): a corpus side and a model → a cached gzip CoNLL-U,
//! one tree per line; a corpus's trees, given or parsed, for the whole corpus or a shard's
//! lines, resolved once for `extract`, `run` and `parse` (`prepare`); a gold treebank's
//! sentences parsed through the cache, one tree per gold sentence (`gold`, `check-detection`)

pub mod gold;
pub mod prepare;

use std::path::{Path, PathBuf};
use std::time::Instant;

use ldd_parse::{CacheManifest, CacheOutcome, LineRange, ParseCache, ParseOptions};

use crate::config::ModelSpec;
use crate::error::{Error, Result};

/// Environment variable naming the parse cache directory.
pub const CACHE_ENV: &str = "LDD_SETS_CACHE";

/// Where to find the model and how to parse.
#[derive(Debug, Clone, Default)]
pub struct ParseSettings {
    /// `--model`: an explicit model file (wins over the pair's model).
    pub model: Option<PathBuf>,
    /// `--models`: the models directory (default `$LDD_SETS_MODELS`, else the user cache).
    pub models_dir: Option<PathBuf>,
    /// `--cache`: the parse cache directory.
    pub cache_dir: Option<PathBuf>,
    /// Never download a model.
    pub offline: bool,
    /// Parser threads (0: all cores).
    pub threads: usize,
    /// No progress bar.
    pub quiet: bool,
}

/// What the parse stage did.
#[derive(Debug, Clone)]
pub struct Parsed {
    /// The cached CoNLL-U (gzip), one tree per corpus line.
    pub conllu: PathBuf,
    /// The model used.
    pub model: PathBuf,
    /// Cache hit, full parse or resumed parse.
    pub outcome: CacheOutcome,
    /// The cache entry (checksums, line range, chunks).
    pub entry: CacheManifest,
    /// Wall time of the stage in seconds, without the wait for another process.
    pub seconds: f64,
    /// The wait for another process parsing the same lines into the cache, if any.
    pub waited: Option<ldd_parse::Waited>,
}

/// The parse cache directory: `--cache`, else `$LDD_SETS_CACHE`, else
/// `$XDG_CACHE_HOME/ldd-sets/parses`, else `~/.cache/ldd-sets/parses`.
pub fn cache_dir(explicit: Option<&Path>) -> Result<PathBuf> {
    if let Some(p) = explicit {
        return Ok(p.to_path_buf());
    }
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    if let Some(d) = var(CACHE_ENV) {
        return Ok(PathBuf::from(d));
    }
    if let Some(d) = var("XDG_CACHE_HOME") {
        return Ok(Path::new(&d).join("ldd-sets/parses"));
    }
    if let Some(h) = var("HOME") {
        return Ok(Path::new(&h).join(".cache/ldd-sets/parses"));
    }
    Err(Error::Resource(format!(
        "cannot determine the parse cache directory: pass --cache DIR or set {CACHE_ENV}"
    )))
}

/// Environment variable replacing the registry's base URL of model downloads.
pub const MODELS_URL_ENV: &str = "LDD_SETS_MODELS_URL";

/// Finds the model: `--model`, else the pair's model (or one of its alternatives) in
/// the models directory, else a download of the pair's model (unless offline) from its
/// URL (`Pair::model_source` fills it in from the registry), verified
/// before it is kept (SHA-256 where the config or the registry knows it; it must load as
/// a UDPipe model).
pub fn find_model(spec: Option<&ModelSpec>, settings: &ParseSettings) -> Result<PathBuf> {
    Ok(noted(locate_model(spec, settings, "or pass --model FILE")?))
}

/// `model`, noted as an input of the command.
fn noted(model: PathBuf) -> PathBuf {
    // An input of the command: no output may replace it.
    ldd_io::output::note_input(&model);
    model
}

/// A UDPipe model of the target language, for tagging references and outputs (lemmas in
/// locus accuracy, features in contrastive variants): `FILE`, or `auto` for the
/// registry's.
#[derive(Debug, Clone, PartialEq)]
pub enum TargetModel {
    /// The registry's model of the target language, in the models directory.
    Auto,
    /// A model file.
    File(PathBuf),
}

/// A loaded tagger of the target language.
#[derive(Debug)]
pub struct Tagger {
    /// The model.
    pub parser: ldd_parse::Parser,
    /// The model file's SHA-256, first 16 hex digits (for signatures and records).
    pub sha: String,
}

impl Tagger {
    /// The tags of the tokens of line `id` (named in the error).
    pub fn tags(&self, id: u32, tokens: &[&str]) -> Result<Vec<ldd_parse::Tag>> {
        self.parser.tags(tokens).map_err(|e| {
            Error::Resource(format!(
                "{}: UDPipe could not tag line {id}: {e}",
                ldd_io::error::shown(self.parser.model_path())
            ))
        })
    }
}

impl TargetModel {
    /// Parses `FILE` or `auto` (a command-line value).
    pub fn parse(value: &str) -> std::result::Result<TargetModel, String> {
        match value {
            "" => Err("expected a model file or `auto`".into()),
            "auto" => Ok(TargetModel::Auto),
            f => Ok(TargetModel::File(PathBuf::from(f))),
        }
    }

    /// Loads the model of language `lang` ([`TargetModel::Auto`]: the registry's, in the
    /// models directory, never downloaded).
    pub fn load(&self, lang: &str) -> Result<Tagger> {
        let path = match self {
            TargetModel::File(p) => {
                let dir = ldd_parse::default_models_dir().ok();
                crate::config::registry::model_file(p, dir.as_deref(), "the target model")?
            }
            TargetModel::Auto => language_model(lang)?,
        };
        ldd_io::output::note_input(&path);
        let parser = ldd_parse::Parser::load(&path)?;
        let (sha, _) = ldd_io::sha256_file(&path)?;
        Ok(Tagger {
            parser,
            sha: sha[..16].to_string(),
        })
    }
}

/// The target language's model that locus accuracy parses the reference and the outputs
/// with (`--tgt-model FILE|auto|none`).
#[derive(Debug, Clone, PartialEq, Default)]
pub enum TargetChoice {
    /// The flag absent: the registry's model of the target language when the models
    /// directory has it, else none.
    #[default]
    AtHand,
    /// A model file, or `auto` (the registry's, which must then be there).
    Given(TargetModel),
    /// `none`: no model (the relation is not checked; variants instead of lemmas).
    Off,
}

impl TargetChoice {
    /// Parses `FILE`, `auto` or `none` (a command-line value).
    pub fn parse(value: &str) -> std::result::Result<TargetChoice, String> {
        match value {
            "none" => Ok(TargetChoice::Off),
            v => TargetModel::parse(v).map(TargetChoice::Given),
        }
    }

    /// The model of language `lang` chosen (`None`: none; [`TargetChoice::AtHand`] without
    /// the registry's model in the models directory, or a language the registry lacks).
    pub fn load(&self, lang: &str) -> Result<Option<Tagger>> {
        match self {
            TargetChoice::Off => Ok(None),
            TargetChoice::Given(m) => m.load(lang).map(Some),
            TargetChoice::AtHand => match at_hand(lang)? {
                Some(path) => TargetModel::File(path).load(lang).map(Some),
                None => Ok(None),
            },
        }
    }
}

/// The registry's model of `lang` (or a shipped pair's offline alternative of it) if the
/// models directory has it; never downloaded.
fn at_hand(lang: &str) -> Result<Option<PathBuf>> {
    let Some((_, spec)) = registry_model(lang, None)? else {
        return Ok(None);
    };
    let Ok(dir) = ldd_parse::default_models_dir() else {
        return Ok(None);
    };
    Ok(std::iter::once(&spec.name)
        .chain(&spec.alternatives)
        .map(|name| dir.join(name))
        .find(|p| p.is_file()))
}

/// The registry's default UDPipe model of language `lang` (for tagging the target side),
/// in the models directory (`$LDD_SETS_MODELS`, else the user cache); never downloaded
/// here: a missing model is an error naming the file and its URL.
pub fn language_model(lang: &str) -> Result<PathBuf> {
    let Some((name, spec)) = registry_model(lang, None)? else {
        return Err(Error::Resource(format!(
            "the UDPipe 2.5 registry has no model of `{}` (`ldd-sets languages` lists \
             them); give the model file instead of `auto`",
            ldd_io::error::escape(lang)
        )));
    };
    let settings = ParseSettings {
        offline: true,
        quiet: false,
        ..ParseSettings::default()
    };
    let advice = "or give the model file instead of `auto`";
    let model = locate_model(Some(&spec), &settings, advice).map_err(|e| match e {
        Error::Resource(msg) => Error::Resource(format!(
            "`auto`: the {name} model of the target language: {msg}"
        )),
        e => e,
    })?;
    Ok(noted(model))
}

/// The registry's default model of language `lang` with its download source (under `base`
/// instead of the registry's base URL, if given) and the offline alternatives a shipped
/// pair config gives it (the small models of ../shared), and the language's name; `None`
/// when the registry has no model of `lang`.
pub fn registry_model(lang: &str, base: Option<&str>) -> Result<Option<(String, ModelSpec)>> {
    let reg = crate::config::registry::Registry::builtin()?;
    let Some(language) = reg.language(lang) else {
        return Ok(None);
    };
    let mut spec =
        crate::config::Pair::model_source(&reg.model_spec(language.default_model()), base)?;
    // The offline alternatives a shipped pair config gives the same model (the small
    // models of ../shared), as `run` accepts them for a source language.
    for (_, text) in crate::config::SHIPPED_PAIRS {
        let Ok(pair) = crate::config::Pair::parse(text, "shipped pair config") else {
            continue;
        };
        if let Some(m) = pair.model.filter(|m| m.name == spec.name) {
            for a in m.alternatives {
                if !spec.alternatives.contains(&a) {
                    spec.alternatives.push(a);
                }
            }
        }
    }
    Ok(Some((language.name.clone(), spec)))
}

/// [`find_model`]'s search; `advice` says how the command names a model file instead.
fn locate_model(
    spec: Option<&ModelSpec>,
    settings: &ParseSettings,
    advice: &str,
) -> Result<PathBuf> {
    if let Some(m) = &settings.model {
        let dir = match &settings.models_dir {
            Some(d) => Some(d.clone()),
            None => ldd_parse::default_models_dir().ok(),
        };
        return crate::config::registry::model_file(m, dir.as_deref(), "--model");
    }
    let Some(spec) = spec else {
        return Err(Error::Resource(
            "no UDPipe model: the source language has no model in the UDPipe 2.5 registry \
             (`ldd-sets languages` lists them); pass --model FILE, or --pair PAIR whose config \
             names one, or --conllu with a parse of the source side"
                .into(),
        ));
    };
    let dir = match &settings.models_dir {
        Some(d) => d.clone(),
        None => ldd_parse::default_models_dir()?,
    };
    if !dir.join(&spec.name).is_file() {
        for alt in &spec.alternatives {
            let p = dir.join(alt);
            if p.is_file() {
                if !settings.quiet {
                    ldd_io::message::say(&format!(
                        "ldd-sets: note: using {} ({} not found there); it is weaker than the official model",
                        p.display(),
                        spec.name
                    ));
                }
                return Ok(p);
            }
        }
    }
    let source = ldd_parse::ModelSource {
        url: spec.url.as_deref(),
        sha256: spec.sha256.as_deref(),
        size: spec.size,
    };
    ldd_parse::resolve_model(
        None,
        &spec.name,
        &dir,
        &source,
        !settings.offline,
        &ldd_io::message::say,
    )
    .map_err(|e| {
        let mut msg = format!("{e}; {advice}");
        if !spec.alternatives.is_empty() {
            msg.push_str(&format!(
                "\nalso looked for: {}",
                spec.alternatives
                    .iter()
                    .map(|a| dir.join(a).display().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        Error::Resource(msg)
    })
}

/// Parses `source` with `model`, or reuses the cached parse of the same corpus bytes
/// and model bytes.
pub fn parse_cached(source: &Path, model: &Path, settings: &ParseSettings) -> Result<Parsed> {
    parse_cached_lines(source, model, None, settings)
}

/// [`parse_cached`] of the corpus lines in `range` only (`None`: all), for a shard.
pub fn parse_cached_lines(
    source: &Path,
    model: &Path,
    range: Option<LineRange>,
    settings: &ParseSettings,
) -> Result<Parsed> {
    let start = Instant::now();
    let dir = cache_dir(settings.cache_dir.as_deref())?;
    let unwritable = |e: ldd_parse::ParseError| not_writable(e.into(), &dir, source);
    let cache = ParseCache::new(&dir).map_err(unwritable)?;
    let opts = ParseOptions {
        threads: settings.threads,
        progress: ldd_io::progress::bar("parsing", "sentences", None, settings.quiet),
        ..ParseOptions::default()
    };
    let got = cache
        .get_or_parse_waited(source, model, range, &opts)
        .map_err(unwritable)?;
    if let Some(bar) = &opts.progress {
        bar.finish_and_clear();
    }
    let entry = cache.entry(&got.conllu)?;
    let waited = got.waited.map_or(0.0, |w| w.time.as_secs_f64());
    Ok(Parsed {
        conllu: got.conllu,
        model: model.to_path_buf(),
        outcome: got.outcome,
        entry,
        seconds: (start.elapsed().as_secs_f64() - waited).max(0.0),
        waited: got.waited,
    })
}

/// `error`, said as the parse cache `dir` refusing to be written when it is that (a cache
/// shared read-only, another user's): `source` is not parsed in it, and how to go on.
fn not_writable(error: Error, dir: &Path, source: &Path) -> Error {
    // Only a refusal on the cache itself (reading the corpus may be refused too).
    let in_cache =
        matches!(&error, Error::Io { path, .. } if path.starts_with(dir) || dir.starts_with(path));
    if !error.is_not_writable() || !in_cache {
        return error;
    }
    Error::Io {
        path: dir.to_path_buf(),
        source: std::io::Error::new(
            std::io::ErrorKind::PermissionDenied,
            format!(
                "the parse cache cannot be written ({error}): the parse of {} is not in it, and \
                 ldd-sets parses only into its cache; give --cache DIR of a directory you can \
                 write (or set {CACHE_ENV}), or give the parse with --conllu FILE",
                ldd_io::error::shown(source)
            ),
        ),
    }
}

/// A one-line description of what the parse stage did.
pub fn describe(parsed: &Parsed, source: &Path) -> String {
    let what = match parsed.outcome {
        CacheOutcome::Hit => "cache hit, not parsed again".to_string(),
        CacheOutcome::Parsed => "parsed".to_string(),
        CacheOutcome::Resumed { from_line } => {
            format!("resumed an interrupted parse at line {from_line}")
        }
    };
    let lines = match parsed.entry.range {
        Some(r) if r.count > 0 => format!(" lines {}-{}", r.first, r.end() - 1),
        Some(_) => " no lines (empty shard)".to_string(),
        None => String::new(),
    };
    let waited = parsed.waited.map_or_else(String::new, |w| {
        format!(
            ", after waiting {:.1} s for process {}, which parsed the same lines",
            w.time.as_secs_f64(),
            w.pid
        )
    });
    format!(
        "parse: {}{lines} with {}: {what} ({:.2} s{waited}; {})",
        source.display(),
        parsed.model.display(),
        parsed.seconds,
        parsed.conllu.display()
    )
}

/// Writes a cached parse to `out`: decompressed, or gzip as cached if `out` ends in
/// `.gz` (all-or-nothing). `inputs` (the corpus, the model) may not be `out`.
pub fn write_parse(cached: &Path, out: &Path, inputs: &[&Path]) -> Result<()> {
    let mut all = inputs.to_vec();
    all.push(cached);
    ldd_io::output::check_file_output(out, &all)?;
    if out.extension().is_some_and(|e| e == "gz") {
        let mut input = ldd_io::fs::open_raw(cached)?;
        ldd_io::write_file_atomic(out, |w| std::io::copy(&mut input, w).map(|_| ()))
    } else {
        let mut input = ldd_io::Input::open(cached)?;
        ldd_io::write_file_atomic(out, |w| std::io::copy(&mut input, w).map(|_| ()))
    }
}
