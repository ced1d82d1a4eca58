//! The built-in registry of the official UDPipe 2.5 models (`config/udpipe-2.5.toml`,
//! built into the binary): languages with their ISO codes, every model file as published,
//! the default model of each language, checksums where known, and the phenomena that run
//! by default. See the header of the data file for the sources of every choice.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde::Deserialize;

use super::{CorpusSpec, ModelSpec};
use crate::error::{Error, Result};
use ldd_io::name::{check, NameKind};

/// The registry data, built into the binary.
pub const BUILTIN_REGISTRY: &str = include_str!("../../config/udpipe-2.5.toml");

/// The model registry.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Registry {
    /// Release name (`udpipe-ud-2.5-191206`).
    pub release: String,
    /// Models are downloaded from `base_url/<file>`.
    pub base_url: String,
    /// Corpus offered for a pair without a config.
    pub default_corpus: DefaultCorpus,
    /// Languages, in the order of the file (alphabetical by English name).
    #[serde(rename = "language")]
    pub languages: Vec<Language>,
}

/// A corpus URL template for any pair (see the data file).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DefaultCorpus {
    /// Corpus name (local files `<name>.<files>.<lang>.gz`).
    pub name: String,
    /// Free text.
    pub description: String,
    /// URL with `{pair}` (codes in alphabetical order, joined by `-`).
    pub url: String,
    /// Archive format (`zip`).
    pub format: String,
    /// Archive member of a side, with `{pair}` and `{lang}`.
    pub member: String,
}

/// A language of the registry.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Language {
    /// ISO 639-1 code, or ISO 639-3 when there is none.
    pub code: String,
    /// ISO 639-3 code.
    pub iso639_3: String,
    /// English name.
    pub name: String,
    /// Why the defaults are what they are, where it needs saying.
    #[serde(default)]
    pub notes: String,
    /// The language's models (exactly one has `default = true`).
    #[serde(rename = "model")]
    pub models: Vec<RegistryModel>,
}

/// One official model.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RegistryModel {
    /// File name as published.
    pub file: String,
    /// The language's default model.
    #[serde(default)]
    pub default: bool,
    /// Built-in phenomena that run by default with this model.
    pub phenomena: Vec<String>,
    /// Treebank statistics behind `phenomena`.
    pub evidence: String,
    /// SHA-256 of the published file, where known.
    #[serde(default)]
    pub sha256: Option<String>,
    /// Size in bytes of the published file, where known.
    #[serde(default)]
    pub size: Option<u64>,
}

/// A model flag's value (`--model`, `--target-model`, `--tgt-model`) as a file, looked up
/// in this order: the path as given, when it is a file (a path always wins); else, for a
/// bare name (no directory part: a file name such as `german-small.udpipe`, or a
/// registry model's file name), the file of that name in the models directory `dir`
/// (`--models`, else `$LDD_SETS_MODELS`, else `~/.cache/ldd-sets/models`; `None` when
/// none could be determined). The error names every place looked at, and a registry
/// model's language and URL.
pub fn model_file(given: &Path, dir: Option<&Path>, flag: &str) -> Result<PathBuf> {
    if given.is_file() {
        return Ok(given.to_path_buf());
    }
    let shown = |p: &Path| ldd_io::error::shown(p).to_string();
    let bare =
        given.parent().is_none_or(|p| p.as_os_str().is_empty()) && given.file_name().is_some();
    let mut looked = vec![shown(given)];
    if bare {
        if let Some(dir) = dir {
            let p = dir.join(given);
            if p.is_file() {
                return Ok(p);
            }
            looked.push(shown(&p));
        }
    }
    let mut msg = format!(
        "UDPipe model {} not found ({flag}): looked at {}",
        shown(given),
        looked.join(" and ")
    );
    if bare {
        msg.push_str(
            " (a bare name is looked up in the models directory: --models, else \
             $LDD_SETS_MODELS, else ~/.cache/ldd-sets/models)",
        );
    }
    let name = given.to_string_lossy();
    if let Some((lang, _)) = Registry::builtin().ok().and_then(|r| r.model(&name)) {
        let url = Registry::builtin()
            .map(|r| r.url(&name, None))
            .unwrap_or_default();
        msg.push_str(&format!(
            "; it is the UDPipe 2.5 registry's model of {}: download it from {url} into the \
             models directory",
            lang.name
        ));
    }
    msg.push_str("; give the model file's path, or put it in the models directory");
    Err(Error::Resource(msg))
}

/// The phenomena a registry entry may name: the names of the built-in rules
/// (`config/phenomena.toml`, [`super::BUILTIN_RULES`]), read from them once.
pub fn builtin_phenomena() -> &'static [String] {
    #[derive(Deserialize)]
    struct Rules {
        #[serde(default)]
        phenomenon: Vec<Named>,
    }
    #[derive(Deserialize)]
    struct Named {
        name: String,
    }
    static NAMES: OnceLock<Vec<String>> = OnceLock::new();
    NAMES.get_or_init(|| {
        toml::from_str::<Rules>(super::BUILTIN_RULES)
            .map(|r| r.phenomenon.into_iter().map(|p| p.name).collect())
            .unwrap_or_default()
    })
}

impl Language {
    /// The default model.
    pub fn default_model(&self) -> &RegistryModel {
        // `Registry::parse` checks that exactly one model is the default.
        self.models
            .iter()
            .find(|m| m.default)
            .unwrap_or(&self.models[0])
    }

    /// Whether `code` names this language (ISO 639-1 or 639-3, ASCII case ignored).
    pub fn is(&self, code: &str) -> bool {
        self.code.eq_ignore_ascii_case(code) || self.iso639_3.eq_ignore_ascii_case(code)
    }
}

impl Registry {
    /// The built-in registry (parsed once).
    pub fn builtin() -> Result<&'static Registry> {
        static REG: OnceLock<std::result::Result<Registry, String>> = OnceLock::new();
        REG.get_or_init(|| {
            Registry::parse(BUILTIN_REGISTRY, "config/udpipe-2.5.toml").map_err(|e| e.to_string())
        })
        .as_ref()
        .map_err(|e| Error::Config(format!("built-in model registry: {e}")))
    }

    /// Parses and checks a registry (`origin` names it in errors).
    pub fn parse(text: &str, origin: &str) -> Result<Registry> {
        let reg: Registry = toml::from_str(text)
            .map_err(|e| Error::Config(format!("{origin}: {}", e.message().trim_end())))?;
        let mut files = std::collections::BTreeSet::new();
        let mut codes = std::collections::BTreeSet::new();
        for l in &reg.languages {
            let ctx = format!("{origin}: language `{}`", l.code);
            check(NameKind::Language, &l.code, &ctx)?;
            check(NameKind::Language, &l.iso639_3, &ctx)?;
            let own: std::collections::BTreeSet<String> = [&l.code, &l.iso639_3]
                .iter()
                .map(|c| c.to_ascii_lowercase())
                .collect();
            for c in own {
                if !codes.insert(c.clone()) {
                    return Err(Error::Config(format!("{ctx}: code `{c}` used twice")));
                }
            }
            if l.models.iter().filter(|m| m.default).count() != 1 {
                return Err(Error::Config(format!(
                    "{ctx}: exactly one model must have default = true"
                )));
            }
            for m in &l.models {
                check(NameKind::File, &m.file, &ctx)?;
                if !files.insert(m.file.clone()) {
                    return Err(Error::Config(format!(
                        "{ctx}: model {} listed twice",
                        m.file
                    )));
                }
                if let Some(p) = m
                    .phenomena
                    .iter()
                    .find(|p| !builtin_phenomena().contains(p))
                {
                    return Err(Error::Config(format!(
                        "{ctx}: model {}: unknown phenomenon `{p}`",
                        m.file
                    )));
                }
                if let Some(h) = &m.sha256 {
                    if h.len() != 64 || !h.bytes().all(|b| b.is_ascii_hexdigit()) {
                        return Err(Error::Config(format!(
                            "{ctx}: model {}: sha256 is not 64 hex digits",
                            m.file
                        )));
                    }
                }
            }
        }
        Ok(reg)
    }

    /// The language with this ISO 639-1 or 639-3 code.
    pub fn language(&self, code: &str) -> Option<&Language> {
        self.languages.iter().find(|l| l.is(code))
    }

    /// The registry entry of a model file, with its language.
    pub fn model(&self, file: &str) -> Option<(&Language, &RegistryModel)> {
        self.languages
            .iter()
            .find_map(|l| l.models.iter().find(|m| m.file == file).map(|m| (l, m)))
    }

    /// Download URL of a model file (`base_url/<file>`, or `base` instead of `base_url`).
    pub fn url(&self, file: &str, base: Option<&str>) -> String {
        let base = base.unwrap_or(&self.base_url).trim_end_matches('/');
        format!("{base}/{file}")
    }

    /// The model spec of a registry model (its URL left to the registry's base URL).
    pub fn model_spec(&self, model: &RegistryModel) -> ModelSpec {
        ModelSpec {
            name: model.file.clone(),
            url: None,
            alternatives: Vec::new(),
            sha256: model.sha256.clone(),
            size: model.size,
        }
    }

    /// The default corpus of a pair `src`-`tgt` (OPUS naming: codes in alphabetical order).
    pub fn default_corpus(&self, src: &str, tgt: &str) -> CorpusSpec {
        let (a, b) = if src <= tgt { (src, tgt) } else { (tgt, src) };
        let pair = format!("{a}-{b}");
        let d = &self.default_corpus;
        CorpusSpec {
            name: d.name.clone(),
            description: d.description.clone(),
            url: d.url.replace("{pair}", &pair),
            format: d.format.clone(),
            members: [src, tgt]
                .iter()
                .map(|l| {
                    (
                        l.to_string(),
                        d.member.replace("{pair}", &pair).replace("{lang}", l),
                    )
                })
                .collect(),
            sha256: None,
            test: false,
        }
    }
}
