//! The plan of `check-detection`: the gold file's language, the model, the rules measured
//! and the reference rules, the lines compared.

use std::path::{Path, PathBuf};

use ldd_sets::config::ModelSpec;
use ldd_sets::error::{Error, Result};
use ldd_sets::pipeline::detect::check::CheckOptions;
use ldd_sets::pipeline::detect::rules::RuleSet;
use ldd_sets::pipeline::parse::{registry_model, ParseSettings, MODELS_URL_ENV};
use ldd_sets::pipeline::select_rules;

use super::super::args::detection::CheckDetectionArgs;
use super::{confidence, parse_settings};

/// `check-detection`'s plan.
pub struct CheckDetectionPlan {
    /// What is compared.
    pub options: CheckOptions,
    /// The registry's model of the language, when neither --model nor --parsed is given.
    pub model: Option<ModelSpec>,
    /// A parse given instead of parsing (`--parsed`).
    pub parsed: Option<PathBuf>,
    /// Model lookup, parse cache, threads, quiet.
    pub settings: ParseSettings,
    /// Misses and false hits listed per phenomenon.
    pub show: usize,
    /// Print JSON instead of the table.
    pub json: bool,
    /// Where to record the figures.
    pub record: Option<PathBuf>,
    /// Print nothing but the results and errors.
    pub quiet: bool,
}

/// `check-detection`'s plan: everything checked before the parse.
pub fn check_detection(args: &CheckDetectionArgs) -> Result<CheckDetectionPlan> {
    let quiet = args.quiet.quiet;
    let language = match &args.lang {
        Some(l) => l.clone(),
        None => language_of(&args.gold)?,
    };
    let lines = args.lines.as_deref().map(line_range).transpose()?;
    let rules = select_rules(
        args.rules.as_deref(),
        args.phenomena.as_deref(),
        None,
        None,
        &language,
        args.paper_compat,
    )?;
    if rules.phenomena.is_empty() {
        return Err(Error::Config(format!(
            "no phenomenon of {} runs for `{language}`: name some with --phenomena",
            rules.source.display()
        )));
    }
    let reference = reference(args, &rules, &language)?;
    let model = match (&args.model.model, &args.parsed) {
        (None, None) => Some(language_model(args, &language)?),
        _ => None,
    };
    if let Some(r) = &args.record {
        let mut inputs = vec![args.gold.as_path()];
        inputs.extend(args.model.model.as_deref());
        ldd_io::output::check_file_output(r, &inputs)?;
    }
    Ok(CheckDetectionPlan {
        options: CheckOptions {
            gold: args.gold.clone(),
            language,
            rules,
            reference,
            lines,
            confidence: confidence(args.confidence)?,
        },
        model,
        parsed: args.parsed.clone(),
        settings: parse_settings(&args.model, &args.threads, quiet),
        show: args.show,
        json: args.json,
        record: args.record.clone().map(std::path::PathBuf::from),
        quiet,
    })
}

/// The language of a UD file name, `<lang>_<treebank>-ud-<split>.conllu`.
fn language_of(gold: &Path) -> Result<String> {
    let name = gold
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    let code = name
        .split_once('_')
        .map(|(l, _)| l)
        .filter(|l| (2..=3).contains(&l.len()) && l.bytes().all(|b| b.is_ascii_lowercase()));
    match code {
        Some(c) if name.contains("-ud-") => Ok(c.to_string()),
        _ => Err(Error::Config(format!(
            "--gold {}: not a UD file name (`<lang>_<treebank>-ud-<split>.conllu`); give its \
             language with --lang",
            ldd_io::error::shown(gold)
        ))),
    }
}

/// `A-B`: sentences A to B, 1-based and inclusive.
fn line_range(value: &str) -> Result<(u64, u64)> {
    let bad = || {
        Error::Config(format!(
            "--lines {}: expected A-B with 1 <= A <= B (e.g. 501-1000)",
            ldd_io::error::escape(value)
        ))
    };
    let (a, b) = value.split_once('-').ok_or_else(bad)?;
    let (a, b): (u64, u64) = (a.parse().map_err(|_| bad())?, b.parse().map_err(|_| bad())?);
    if a == 0 || a > b {
        return Err(bad());
    }
    Ok((a, b))
}

/// The reference rules: --gold-rules, else the --rules file, else the paper's; with the
/// phenomena under test, in their order.
fn reference(args: &CheckDetectionArgs, rules: &RuleSet, language: &str) -> Result<RuleSet> {
    let set = match args.gold_rules.as_ref().or(args.rules.as_ref()) {
        Some(f) => RuleSet::load(f)?,
        None => RuleSet::builtin_paper()?,
    };
    let names: Vec<String> = rules.phenomena.iter().map(|p| p.name.clone()).collect();
    let mut set = set.select(Some(&names), language)?;
    set.phenomena
        .sort_by_key(|p| names.iter().position(|n| *n == p.name));
    Ok(set)
}

/// The registry's model of `language` (downloaded under --models-url or
/// $LDD_SETS_MODELS_URL when given, unless --offline).
fn language_model(args: &CheckDetectionArgs, language: &str) -> Result<ModelSpec> {
    let env = std::env::var(MODELS_URL_ENV).ok().filter(|u| !u.is_empty());
    let base = args.model.models_url.clone().or(env);
    match registry_model(language, base.as_deref())? {
        Some((_, spec)) => Ok(spec),
        None => Err(Error::Resource(format!(
            "the UDPipe 2.5 registry has no model of `{}` (`ldd-sets languages` lists them); \
             pass --model FILE",
            ldd_io::error::escape(language)
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_ranges_and_ud_file_names() {
        assert_eq!(line_range("501-1000").unwrap(), (501, 1000));
        assert_eq!(line_range("7-7").unwrap(), (7, 7));
        for bad in ["0-5", "5-4", "5", "a-b", "-3", "1-"] {
            assert!(line_range(bad).is_err(), "{bad}");
        }
        let lang = |p: &str| language_of(Path::new(p)).ok();
        assert_eq!(
            lang("../shared/data/ud/de_pud-ud-test.conllu").as_deref(),
            Some("de")
        );
        assert_eq!(lang("grc_perseus-ud-dev.conllu").as_deref(), Some("grc"));
        assert_eq!(lang("pud.conllu"), None);
        assert_eq!(lang("DE_pud-ud-test.conllu"), None);
        assert_eq!(lang("de_pud.conllu"), None);
    }
}
