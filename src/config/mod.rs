//! Configuration is data: language-pair configs (`config/pairs/<src>-<tgt>.toml`) and the
//! built-in default rules (`config/phenomena.toml`).
//!
//! A pair names its languages, the UDPipe model for the source side (with download
//! URL and offline alternatives), the phenomena and the corpora of the paper with
//! their download URLs. Local corpora follow one naming convention,
//! `<name>.<files>.<lang>[.gz]` (e.g. `newstest2013.de-en.de`), so a directory of
//! such files is all `ldd-sets run` needs (see `read::discover`).
//!
//! What enters: TOML files. What leaves: [`Pair`] and the text of the built-in rules.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use ldd_io::name::{check, NameKind};

use crate::error::{Error, Result};

/// A language pair.
#[derive(Debug, Clone, Deserialize, Serialize)]
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
    /// The source-side UDPipe model.
    pub model: ModelSpec,
    /// Downloadable corpora.
    #[serde(default)]
    pub corpus: Vec<CorpusSpec>,
}

/// Where the UDPipe model comes from.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ModelSpec {
    /// File name of the official model.
    pub name: String,
    /// Download URL of the official model.
    #[serde(default)]
    pub url: Option<String>,
    /// Other file names accepted in the models directory (weaker models).
    #[serde(default)]
    pub alternatives: Vec<String>,
}

/// A corpus to download.
#[derive(Debug, Clone, Deserialize, Serialize)]
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
}

impl Pair {
    /// Loads `config/pairs/<name>.toml` below `config_dir`, or the file `name` if it
    /// is a path to a `.toml` file.
    pub fn load(config_dir: &Path, name: &str) -> Result<Pair> {
        let path = if name.ends_with(".toml") {
            PathBuf::from(name)
        } else {
            config_dir.join("pairs").join(format!("{name}.toml"))
        };
        let text = ldd_io::read_text(&path, MAX_CONFIG_BYTES).map_err(|e| match e {
            ldd_io::Error::Io { source, .. } if source.kind() == std::io::ErrorKind::NotFound => {
                let known = known_pairs(config_dir);
                Error::Config(format!(
                    "{}: no such language pair config (known pairs: {})",
                    path.display(),
                    if known.is_empty() {
                        "none".into()
                    } else {
                        known.join(", ")
                    }
                ))
            }
            e => e.into(),
        })?;
        let pair: Pair = toml::from_str(&text).map_err(|e| {
            let line = e
                .span()
                .map(|s| text[..s.start].matches('\n').count() + 1)
                .unwrap_or(0);
            Error::Config(format!(
                "{}:{line}: {}",
                ldd_io::text::shown(&path),
                e.message().trim_end()
            ))
        })?;
        pair.check(&path)?;
        Ok(pair)
    }

    /// Checks every name that becomes part of a path: the language codes, the corpus file
    /// part, corpus names and model file names.
    pub fn check(&self, path: &Path) -> Result<()> {
        let at = |key: &str| format!("{}: `{key}`", ldd_io::text::shown(path));
        check(NameKind::Language, &self.source, &at("source"))?;
        check(NameKind::Language, &self.target, &at("target"))?;
        check(NameKind::File, &self.files, &at("files"))?;
        check(NameKind::File, &self.model.name, &at("model.name"))?;
        for a in &self.model.alternatives {
            check(NameKind::File, a, &at("model.alternatives"))?;
        }
        for c in &self.corpus {
            check(NameKind::File, &c.name, &at("corpus.name"))?;
            for lang in c.members.keys() {
                check(NameKind::Language, lang, &at("corpus.members"))?;
            }
        }
        Ok(())
    }
}

/// Largest configuration file read (rules, pairs): 64 MiB.
pub const MAX_CONFIG_BYTES: u64 = 64 << 20;

/// The default rules: `config/phenomena.toml`, built into the binary so that `ldd-sets`
/// works from any directory. `--rules FILE` replaces them.
pub const BUILTIN_RULES: &str = include_str!("../../config/phenomena.toml");

/// Names of the pair configs in `config_dir/pairs`.
pub fn known_pairs(config_dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(config_dir.join("pairs"))
        .map(|d| {
            d.filter_map(|e| e.ok())
                .filter_map(|e| {
                    e.file_name()
                        .to_string_lossy()
                        .strip_suffix(".toml")
                        .map(str::to_string)
                })
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}
