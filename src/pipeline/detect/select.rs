//! Which rules run, resolved once for `extract`, `run` and `parse`: the rules file (given,
//! the pair's, or the built-in rules), the pair's choice of phenomena, and the registry's
//! defaults for the source language; and the note (or the refusal) when none applies.

use std::path::Path;

use super::rules::RuleSet;
use crate::config::registry::Registry;
use crate::config::Pair;
use crate::error::{Error, Result};

/// Which rules run: `rules` (a file) or the pair's rules file or the built-in rules (the
/// paper's with `paper_compat`); then `phenomena` (or the pair's list) if given; else, with
/// the built-in rules and a source language the model registry knows, the phenomena of the
/// pair's model if it is a registry model, or of the language's default model (see
/// `config/udpipe-2.5.toml`); else those whose `languages` include `src_lang`; of each, the
/// patterns of `src_lang`. `max_distance` overrides the rules' `buckets.max`.
pub fn select_rules(
    rules: Option<&Path>,
    phenomena: Option<&[String]>,
    max_distance: Option<u32>,
    pair: Option<&Pair>,
    src_lang: &str,
    paper_compat: bool,
) -> Result<RuleSet> {
    let file = rules
        .map(Path::to_path_buf)
        .or_else(|| pair.and_then(|p| p.rules.clone()));
    let builtin = file.is_none();
    let set = match file {
        Some(p) => RuleSet::load(&p)?,
        None if paper_compat => RuleSet::builtin_paper()?,
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
