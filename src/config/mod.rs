//! Configuration is data: language-pair configs (`config/pairs/<src>-<tgt>.toml`), the
//! built-in default rules (`config/phenomena.toml`) and the built-in registry of UDPipe
//! models ([`registry`], `config/udpipe-2.5.toml`).
//!
//! A pair names its languages, the UDPipe model for the source side (with download
//! URL and offline alternatives), the phenomena and the corpora of the paper with
//! their download URLs. Local corpora follow one naming convention,
//! `<name>.<files>.<lang>[.gz]` (e.g. `newstest2013.de-en.de`), so a directory of
//! such files is all `ldd-sets run` needs (see `read::discover`). A pair without a
//! config gets defaults from the registry ([`Pair::resolve`]); the shipped pair configs
//! and the registry are built into the binary, so every command works from any directory.
//!
//! What enters: TOML files and language codes. What leaves: [`Pair`], checked
//! [`Languages`], the [`registry::Registry`] and the text of the built-in rules. Names that
//! become paths are checked by `ldd_io::name`.
//!
//! In short (what enters → what leaves): language-pair configs (a file, `config/`, shipped,
//! or registry defaults), the built-in rules and the UDPipe model registry (data, built
//! in); errors and exit codes

pub mod contrast;
pub mod registry;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use ldd_io::name::{check, NameKind};

use crate::error::{Error, Result};

/// A language pair.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pair {
    /// Source language code (the parsed side).
    pub source: String,
    /// Target language code.
    pub target: String,
    /// The pair part of corpus file names (`de-en` in `books.de-en.de.gz`).
    pub files: String,
    /// Rules file (relative to the repository root); default: the built-in rules.
    #[serde(default)]
    pub rules: Option<PathBuf>,
    /// Phenomena to run; default: those whose languages include the source.
    #[serde(default)]
    pub phenomena: Option<Vec<String>>,
    /// The source-side UDPipe model (`None`: the source language has no registry model;
    /// `--model FILE` or `--conllu` is needed to parse it).
    #[serde(default)]
    pub model: Option<ModelSpec>,
    /// Downloadable corpora.
    #[serde(default)]
    pub corpus: Vec<CorpusSpec>,
}

/// Where the UDPipe model comes from.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModelSpec {
    /// File name of the official model.
    pub name: String,
    /// Download URL of the official model [default: the registry's base URL + `name`].
    #[serde(default)]
    pub url: Option<String>,
    /// Other file names accepted in the models directory (weaker models).
    #[serde(default)]
    pub alternatives: Vec<String>,
    /// SHA-256 of the model file [default: the registry's, where known].
    #[serde(default)]
    pub sha256: Option<String>,
    /// Size in bytes of the model file [default: the registry's, where known].
    #[serde(default)]
    pub size: Option<u64>,
}

/// A corpus to download.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CorpusSpec {
    /// Short name; the local files are `<name>.<files>.<lang>.gz`.
    pub name: String,
    /// Free text.
    #[serde(default)]
    pub description: String,
    /// Download URL.
    pub url: String,
    /// Archive format: `zip`, `tgz`, or `plain` (one file per language, `{lang}` in the URL).
    pub format: String,
    /// Archive member holding each language's side.
    #[serde(default)]
    pub members: BTreeMap<String, String>,
    /// SHA-256 of the downloaded file: one hash for `zip`/`tgz`, one per language
    /// (`{ de = "…", en = "…" }`) for `plain`. Checked before the download is used.
    #[serde(default)]
    pub sha256: Option<Sha256Spec>,
    /// A test set, the corpus systems are scored on (WMT's newstest): what `run` says to
    /// type next names its sets first.
    #[serde(default)]
    pub test: bool,
}

/// The SHA-256 of a corpus download: one file, or one per language.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum Sha256Spec {
    /// The archive's hash.
    One(String),
    /// Each language's file's hash (`plain` format).
    PerLanguage(BTreeMap<String, String>),
}

impl CorpusSpec {
    /// The expected SHA-256 of the download of `lang`'s side (`None`: the archive).
    pub fn sha256_for(&self, lang: Option<&str>) -> Option<&str> {
        match (&self.sha256, lang) {
            (Some(Sha256Spec::One(h)), _) => Some(h),
            (Some(Sha256Spec::PerLanguage(m)), Some(l)) => m.get(l).map(String::as_str),
            _ => None,
        }
    }
}

/// Language codes of a corpus, checked when made (also when read from a manifest): they
/// name set files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Languages {
    source: String,
    target: String,
}

impl Languages {
    /// The source language (the parsed side).
    pub fn source(&self) -> &str {
        &self.source
    }

    /// The target language.
    pub fn target(&self) -> &str {
        &self.target
    }

    /// Checks both codes (they name set files: letters, digits and hyphens, not a file
    /// extension ldd-sets uses) and that they differ.
    pub fn new(source: &str, target: &str) -> Result<Languages> {
        let l = Languages {
            source: source.to_string(),
            target: target.to_string(),
        };
        l.check()?;
        Ok(l)
    }

    fn check(&self) -> Result<()> {
        check(NameKind::Language, &self.source, "source language")?;
        check(NameKind::Language, &self.target, "target language")?;
        if self.source.eq_ignore_ascii_case(&self.target) {
            return Err(Error::Config(format!(
                "source and target language are both `{}`: set file names would collide",
                self.source
            )));
        }
        Ok(())
    }
}

/// The pair configs shipped with ldd-sets, built into the binary.
pub const SHIPPED_PAIRS: [(&str, &str); 3] = [
    ("de-en", include_str!("../../config/pairs/de-en.toml")),
    ("en-de", include_str!("../../config/pairs/en-de.toml")),
    ("en-ru", include_str!("../../config/pairs/en-ru.toml")),
];

/// Where a pair's configuration came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PairOrigin {
    /// A TOML file (in a config directory, or given as a path).
    File(PathBuf),
    /// A config shipped with ldd-sets.
    Shipped,
    /// Built from the model registry: no config exists for the pair.
    Registry,
}

impl std::fmt::Display for PairOrigin {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PairOrigin::File(p) => write!(formatter, "{}", ldd_io::error::shown(p)),
            PairOrigin::Shipped => formatter.write_str("the config shipped with ldd-sets"),
            PairOrigin::Registry => {
                formatter.write_str("defaults from the UDPipe 2.5 model registry")
            }
        }
    }
}

/// Which language pair a command runs with, checked once: what `--pair` names (a pair
/// `SRC-TGT`, a name safe in file names, or a config file `*.toml`), or the pair of a
/// corpus's languages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PairSpec {
    /// A pair name such as `de-en`.
    Name(String),
    /// A pair config file.
    File(PathBuf),
    /// The pair of a corpus's languages (`extract` without `--pair`).
    Languages(Languages),
}

impl std::str::FromStr for PairSpec {
    type Err = Error;

    fn from_str(value: &str) -> Result<PairSpec> {
        if value.ends_with(".toml") {
            return Ok(PairSpec::File(PathBuf::from(value)));
        }
        check(NameKind::Pair, value, "language pair")?;
        Ok(PairSpec::Name(value.to_string()))
    }
}

impl std::fmt::Display for PairSpec {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PairSpec::Name(n) => formatter.write_str(n),
            PairSpec::File(p) => formatter.write_str(&ldd_io::error::shown(p)),
            PairSpec::Languages(l) => write!(formatter, "{}-{}", l.source, l.target),
        }
    }
}

impl Pair {
    /// Whether the corpus `name` is one of the pair's test sets ([`CorpusSpec::test`]).
    pub fn is_test(&self, name: &str) -> bool {
        self.corpus.iter().any(|c| c.test && c.name == name)
    }

    /// The configuration of the pair `spec` names, from the first of:
    /// 1. the file itself for a `.toml` spec;
    /// 2. `<config_dir>/pairs/<name>.toml` (`--config DIR`; the directory must exist);
    /// 3. `config/pairs/<name>.toml` in the current directory (when no `--config`);
    /// 4. the configs shipped with ldd-sets (built in);
    /// 5. defaults built from the model registry ([`Pair::defaults`]); always for the
    ///    languages of a corpus whose codes make no pair name (codes with hyphens, such as
    ///    `pt-BR`).
    pub fn resolve(spec: &PairSpec, config_dir: Option<&Path>) -> Result<(Pair, PairOrigin)> {
        let name = match spec {
            PairSpec::File(path) => {
                return Ok((Pair::load_file(path)?, PairOrigin::File(path.clone())))
            }
            PairSpec::Name(name) => name.clone(),
            PairSpec::Languages(l) => {
                let name = format!("{}-{}", l.source, l.target);
                if !ldd_io::name::is_valid(NameKind::Pair, &name) {
                    return Ok((Pair::defaults(l)?, PairOrigin::Registry));
                }
                name
            }
        };
        let name = name.as_str();
        let dir = match config_dir {
            Some(d) if !d.is_dir() => {
                return Err(Error::Config(format!(
                    "--config {}: no such directory",
                    ldd_io::error::shown(d)
                )))
            }
            Some(d) => d.to_path_buf(),
            None => PathBuf::from("config"),
        };
        let path = dir.join("pairs").join(format!("{name}.toml"));
        if path.is_file() {
            return Ok((Pair::load_file(&path)?, PairOrigin::File(path)));
        }
        if let Some((_, text)) = SHIPPED_PAIRS.iter().find(|(n, _)| *n == name) {
            let origin = format!("config/pairs/{name}.toml (built in)");
            return Ok((Pair::parse(text, &origin)?, PairOrigin::Shipped));
        }
        let (src, tgt) = name.split_once('-').unwrap_or((name, ""));
        Ok((
            Pair::defaults(&Languages::new(src, tgt)?)?,
            PairOrigin::Registry,
        ))
    }

    /// The default pair of `languages` (`SRC`-`TGT`): corpus files
    /// `<name>.<SRC>-<TGT>.<lang>`, the source language's default model from the registry
    /// (none if the registry does not know the language), the registry's default corpus,
    /// and the default phenomena (chosen by `detect::select::select_rules` from the registry).
    pub fn defaults(languages: &Languages) -> Result<Pair> {
        let (src, tgt) = (languages.source(), languages.target());
        let reg = registry::Registry::builtin()?;
        let model = reg.language(src).map(|l| reg.model_spec(l.default_model()));
        Ok(Pair {
            source: src.to_string(),
            target: tgt.to_string(),
            files: format!("{src}-{tgt}"),
            rules: None,
            phenomena: None,
            model,
            corpus: vec![reg.default_corpus(src, tgt)],
        })
    }

    /// Loads a pair config file.
    pub fn load_file(path: &Path) -> Result<Pair> {
        let text = ldd_io::read_text(path, MAX_CONFIG_BYTES)?;
        Pair::parse(&text, &ldd_io::error::shown(path))
    }

    /// Parses and checks a pair config (`origin` names it in errors).
    pub fn parse(text: &str, origin: &str) -> Result<Pair> {
        let pair: Pair = toml::from_str(text).map_err(|e| {
            let line = e
                .span()
                .map(|s| text[..s.start].matches('\n').count() + 1)
                .unwrap_or(0);
            Error::Config(format!("{origin}:{line}: {}", e.message().trim_end()))
        })?;
        pair.check(origin)?;
        Ok(pair)
    }

    /// Checks every name that becomes a path component.
    fn check(&self, origin: &str) -> Result<()> {
        check(
            NameKind::Language,
            &self.source,
            &format!("{origin}: source"),
        )?;
        check(
            NameKind::Language,
            &self.target,
            &format!("{origin}: target"),
        )?;
        check(NameKind::File, &self.files, &format!("{origin}: files"))?;
        if self.source == self.target {
            return Err(Error::Config(format!(
                "{origin}: source and target are both `{}`",
                self.source
            )));
        }
        if let Some(m) = &self.model {
            check(NameKind::File, &m.name, &format!("{origin}: [model] name"))?;
            for a in &m.alternatives {
                check(
                    NameKind::File,
                    a,
                    &format!("{origin}: [model] alternatives"),
                )?;
            }
        }
        for c in &self.corpus {
            check(
                NameKind::File,
                &c.name,
                &format!("{origin}: [[corpus]] name"),
            )?;
        }
        Ok(())
    }

    /// The model spec with the registry's checksum filled in where the config has none,
    /// and its download URL (`base`: `--models-url`, replacing the registry's base URL).
    pub fn model_source(spec: &ModelSpec, base: Option<&str>) -> Result<ModelSpec> {
        let reg = registry::Registry::builtin()?;
        let mut s = spec.clone();
        if let Some((_, m)) = reg.model(&spec.name) {
            if s.sha256.is_none() {
                s.sha256 = m.sha256.clone();
                s.size = s.size.or(m.size);
            }
        }
        if s.url.is_none() {
            s.url = Some(reg.url(&spec.name, base));
        }
        Ok(s)
    }
}

/// Largest configuration file read (rules, pairs): 64 MiB.
pub const MAX_CONFIG_BYTES: u64 = 64 << 20;

/// The default rules: `config/phenomena.toml`, built into the binary so that `ldd-sets`
/// works from any directory. `--rules FILE` replaces them.
pub const BUILTIN_RULES: &str = include_str!("../../config/phenomena.toml");

/// The paper's rules (`config/phenomena-paper.toml`), which `--paper-compat` runs instead
/// of [`BUILTIN_RULES`].
pub const BUILTIN_PAPER_RULES: &str = include_str!("../../config/phenomena-paper.toml");

/// How each phenomenon's dependency is rendered in each target language
/// (`config/relations.toml`): what locus accuracy checks in the parses of the reference and
/// the outputs.
pub const BUILTIN_RELATIONS: &str = include_str!("../../config/relations.toml");

/// Detection measured against gold trees (`config/detection.toml`, written by
/// `check-detection --record`, schema in `format::detection`), shown by `languages`.
pub const BUILTIN_DETECTION: &str = include_str!("../../config/detection.toml");

/// Names of the pair configs in `config_dir/pairs` and of the shipped ones.
pub fn known_pairs(config_dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = ldd_io::fs::list_dir(&config_dir.join("pairs"))
        .map(|d| {
            d.iter()
                .filter_map(|e| e.name.strip_suffix(".toml").map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    v.extend(SHIPPED_PAIRS.iter().map(|(n, _)| n.to_string()));
    v.sort();
    v.dedup();
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shipped de-en and en-de configs mark newstest2013 as the test set (the corpus
    /// the README scores and `run`'s next steps name first), not Books.
    #[test]
    fn newstest2013_is_the_test_set() {
        for pair in ["de-en", "en-de"] {
            let (p, _) = Pair::resolve(&pair.parse().unwrap(), None).unwrap();
            assert!(p.is_test("newstest2013"), "{pair}");
            assert!(!p.is_test("books"), "{pair}");
        }
    }
}
