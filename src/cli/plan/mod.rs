//! The plans, ripgrep's second stage of flags (its `HiArgs`): clap reads the command line
//! into each command's argument struct and the option groups of [`super::args`] (what was
//! typed, ripgrep's `LowArgs`); this module resolves them, once per command, into one typed
//! plan that holds what the library runs with — `plan::score(&ScoreArgs)` gives a
//! `ScorePlan` with the library's `ScoreOptions`, and so on for every command, one file
//! each. Flags that cannot work together, or values the library would refuse, are refused
//! here, before the command's stages run. A handler calls its plan function, then the
//! library, then the printer: no other module of the command line builds a library's
//! options (`tests/architecture.rs` checks it). The parser's inverse, from what clap read
//! back to a command line that parses to the same values (the one every output records),
//! is [`super::record`].

mod align;
mod contrast;
mod corpora;
mod detection;
mod extract;
mod judge;
mod languages;
mod merge;
mod mqm;
mod parse;
mod permute;
mod report;
mod score;

use ldd_sets::config::{Languages, Pair, PairOrigin, PairSpec};
use ldd_sets::error::Result;
use ldd_sets::pipeline::align::{AlignOptions, Direction, ModelType, Progress};
use ldd_sets::pipeline::parse::{ParseSettings, MODELS_URL_ENV};
use ldd_sets::printer;

use super::args::{AlignArgs, ConfigArgs, ModelArgs, SystemArg, ThreadArgs};

pub use align::align;
pub use contrast::contrast;
pub use corpora::corpora;
pub use detection::check_detection;
pub use extract::{extract, run};
pub use judge::{sheets, tally};
pub use languages::languages;
pub use merge::merge;
pub use mqm::{mqm, MqmPlan};
pub use parse::parse;
pub use permute::permute;
pub use report::report;
pub use score::{compare, score, slice};

/// The name of the system read from standard input (`--hyp -`) unless named.
pub const STDIN_SYSTEM: &str = "stdin";

/// The name of the system in file `hyp` when none is given: the file's name without `.gz`
/// and without its last extension (`out/books.hyp.gz` → `books`).
fn named_after_file(hyp: &std::path::Path) -> String {
    let name = hyp
        .file_name()
        .map(|file| file.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name = name.strip_suffix(".gz").unwrap_or(&name);
    match name.rsplit_once('.') {
        Some((stem, _)) if !stem.is_empty() => stem.to_string(),
        _ => name.to_string(),
    }
}

/// The systems of `flag` (`--hyp`, `--contrastive`) named: by `NAME=FILE`, else by the
/// `--name` in the same place (`names`: none, or one per system, in order), else after
/// the file ([`named_after_file`]; standard input: [`STDIN_SYSTEM`]). Every
/// name passes the one check of system names ([`ldd_sets::score::check_name`]), each
/// system is named once, and at most one reads standard input.
fn systems(flag: &str, given: &[SystemArg], names: &[String]) -> Result<Vec<String>> {
    use ldd_sets::Error;
    if !names.is_empty() && names.len() != given.len() {
        return Err(Error::Config(format!(
            "--name: {} names for {} {flag} files; give one --name per {flag}, in the same \
             order (or name them {flag} NAME=FILE)",
            names.len(),
            given.len()
        )));
    }
    let mut out: Vec<String> = Vec::with_capacity(given.len());
    for (k, g) in given.iter().enumerate() {
        let name = match (&g.name, names.get(k)) {
            (Some(_), Some(_)) => {
                return Err(Error::Config(format!(
                    "{flag} {}: named twice, by NAME= and by --name; give one",
                    ldd_io::error::quote(&g.given, 100)
                )))
            }
            (Some(n), None) | (None, Some(n)) => n.clone(),
            (None, None) if g.path.as_os_str() == "-" => STDIN_SYSTEM.to_string(),
            (None, None) => named_after_file(&g.path),
        };
        ldd_sets::score::check_name(&name).map_err(|e| {
            Error::Config(format!(
                "{flag} {}: {e}",
                ldd_io::error::quote(&g.given, 100)
            ))
        })?;
        if out.contains(&name) {
            return Err(Error::Config(format!(
                "{flag} {}: two systems named `{name}`; name them apart ({flag} NAME=FILE, or \
                 --name NAME after each {flag})",
                ldd_io::error::quote(&g.given, 100)
            )));
        }
        if g.name.is_some() && !g.path.exists() && g.path.as_os_str() != "-" {
            let whole = std::path::Path::new(&g.given);
            if whole.is_file() {
                return Err(Error::Config(format!(
                    "{flag} {0}: read as NAME=FILE (system `{name}`, file {1}), and {1} does \
                     not exist; for the file {0} write {flag} {2}",
                    ldd_io::error::quote(&g.given, 100),
                    ldd_io::error::shown(&g.path),
                    ldd_io::shell::system(None, whole)
                )));
            }
        }
        out.push(name);
    }
    if given.iter().filter(|g| g.path.as_os_str() == "-").count() > 1 {
        return Err(Error::Config(format!(
            "{flag} -: standard input holds one system; give the others as files"
        )));
    }
    Ok(out)
}

/// A `--confidence` level, checked: strictly between 0 and 1.
fn confidence(level: f64) -> Result<f64> {
    if level > 0.0 && level < 1.0 {
        return Ok(level);
    }
    Err(ldd_sets::Error::Config(format!(
        "--confidence {level}: must be between 0 and 1 (e.g. 0.95)"
    )))
}

/// The configuration of the pair `--pair` names (see `Pair::resolve`), with a note on
/// stderr when it comes from the registry defaults.
fn pair(config: &ConfigArgs, pair: &str, quiet: bool) -> Result<Pair> {
    resolve(config, &pair.parse()?, quiet)
}

/// The pair of `extract`: `--pair` if given, else the pair of the corpus's languages (its
/// config if one exists, else the registry's defaults, without a note: the config only
/// matters for the model and the rules).
fn pair_of(
    config: &ConfigArgs,
    pair: Option<&str>,
    languages: &Languages,
    quiet: bool,
) -> Result<Pair> {
    match pair {
        Some(p) => self::pair(config, p, quiet),
        None => resolve(config, &PairSpec::Languages(languages.clone()), true),
    }
}

fn resolve(config: &ConfigArgs, spec: &PairSpec, quiet: bool) -> Result<Pair> {
    let (p, origin) = Pair::resolve(spec, config.config.as_deref())?;
    if !quiet && origin == PairOrigin::Registry {
        printer::say(&printer::languages::pair_defaults(spec, &p));
    }
    Ok(p)
}

/// The parse stage's settings.
fn parse_settings(model: &ModelArgs, threads: &ThreadArgs, quiet: bool) -> ParseSettings {
    ParseSettings {
        model: model.model.clone(),
        models_dir: model.models.clone(),
        cache_dir: model.cache.clone().map(std::path::PathBuf::from),
        offline: model.offline,
        threads: threads.count(),
        quiet,
    }
}

/// `pair` with its model's download source: the registry's checksum where the config has
/// none, and the URL under `--models-url`, else `$LDD_SETS_MODELS_URL`, else the
/// registry's base URL.
fn with_model_source(model: &ModelArgs, mut pair: Pair) -> Result<Pair> {
    let env = std::env::var(MODELS_URL_ENV).ok().filter(|u| !u.is_empty());
    let base = model.models_url.clone().or(env);
    if let Some(spec) = &pair.model {
        pair.model = Some(Pair::model_source(spec, base.as_deref())?);
    }
    Ok(pair)
}

/// The aligner's options (model and direction: as given, else the defaults).
fn align_options(
    align_args: &AlignArgs,
    progress: bool,
    (model, direction): (ModelType, Direction),
) -> AlignOptions {
    AlignOptions {
        model_type: align_args.align_model_type.unwrap_or(model),
        direction: align_args.align_direction.unwrap_or(direction),
        iterations: align_args.align_iterations,
        train: align_args.align_train.clone(),
        model: align_args.align_model.clone(),
        save_model: align_args
            .save_align_model
            .clone()
            .map(std::path::PathBuf::from),
        pretokenized: align_args.pretokenized,
        max_tokens: align_args.align_max_tokens,
        lowercase: align_args.align_lowercase,
        train_max: align_args.align_train_max,
        progress: if progress {
            Progress::new(ldd_sets::printer::align::progress())
        } else {
            Progress::default()
        },
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::named_after_file;

    #[test]
    fn a_system_is_named_after_its_file() {
        for (file, name) in [
            ("out/books.hyp.gz", "books"),
            ("sys0.en", "sys0"),
            ("run.1.de", "run.1"),
            ("plain", "plain"),
            ("plain.gz", "plain"),
            (".hidden", ".hidden"),
        ] {
            assert_eq!(named_after_file(Path::new(file)), name, "{file}");
        }
    }
}
