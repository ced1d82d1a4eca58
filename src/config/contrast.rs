//! The variant rules of `contrast` (`config/contrast.toml`, built in; `--variants FILE`
//! replaces them): which contrastive variants each phenomenon gets, and the reflexive
//! pronouns each target language's `replaced` variants swap.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

use crate::error::{Error, Result};

/// The built-in rules.
pub const BUILTIN: &str = include_str!("../../config/contrast.toml");

/// The variant types `contrast` knows.
pub const KINDS: [&str; 4] = ["dropped", "moved", "replaced", "swapped"];

/// The rules.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContrastConfig {
    /// Variant types per phenomenon; `default` for the others.
    pub variants: BTreeMap<String, Vec<String>>,
    /// Per target language: pronoun (lowercase) → its replacements.
    #[serde(default)]
    pub replace: BTreeMap<String, BTreeMap<String, Vec<String>>>,
}

impl ContrastConfig {
    /// The built-in rules.
    pub fn builtin() -> Result<ContrastConfig> {
        ContrastConfig::parse(BUILTIN, "config/contrast.toml (built in)")
    }

    /// Rules from a file.
    pub fn load(path: &Path) -> Result<ContrastConfig> {
        let text = ldd_io::read_text(path, super::MAX_CONFIG_BYTES)?;
        ContrastConfig::parse(&text, &ldd_io::text::shown(path))
    }

    /// Parses and checks rules (`origin` names them in errors).
    pub fn parse(text: &str, origin: &str) -> Result<ContrastConfig> {
        let c: ContrastConfig = toml::from_str(text)
            .map_err(|e| Error::Config(format!("{origin}: {}", e.message())))?;
        for (ph, kinds) in &c.variants {
            if let Some(k) = kinds.iter().find(|k| !KINDS.contains(&k.as_str())) {
                return Err(Error::Config(format!(
                    "{origin}: [variants] {ph}: unknown variant type `{}`; expected some of {}",
                    ldd_io::text::quote(k, 40),
                    KINDS.join(", ")
                )));
            }
        }
        for (lang, list) in &c.replace {
            if let Some(p) = list.keys().find(|p| p.to_lowercase() != **p) {
                return Err(Error::Config(format!(
                    "{origin}: [replace.{lang}] `{}`: write pronouns in lower case",
                    ldd_io::text::quote(p, 40)
                )));
            }
        }
        Ok(c)
    }

    /// The variant types of `phenomenon` (else the `default` ones).
    pub fn kinds(&self, phenomenon: &str) -> &[String] {
        self.variants
            .get(phenomenon)
            .or_else(|| self.variants.get("default"))
            .map_or(&[], Vec::as_slice)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_rules_parse_and_bad_ones_are_refused() {
        let c = ContrastConfig::builtin().unwrap();
        assert_eq!(c.kinds("particle"), ["dropped", "moved"]);
        assert_eq!(c.kinds("my_rule"), ["dropped"]);
        assert_eq!(c.replace["de"]["sich"], ["mich", "uns"]);
        let e = ContrastConfig::parse("[variants]\nx = [\"melted\"]\n", "f").unwrap_err();
        assert!(
            e.to_string().contains("unknown variant type `melted`"),
            "{e}"
        );
        let e = ContrastConfig::parse("[variants]\n[replace.de]\nSich = []\n", "f").unwrap_err();
        assert!(e.to_string().contains("lower case"), "{e}");
    }
}
