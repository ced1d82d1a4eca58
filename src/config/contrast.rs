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

/// The most replacements of one pronoun, and the most pronouns of one language: each is a
/// variant of every item whose locus has that pronoun, so the number of variants (and the
/// size of the output) grows with them.
pub const MAX_REPLACEMENTS: usize = 100;

/// The rules.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContrastConfig {
    /// Variant types per phenomenon; `default` for the others.
    pub variants: BTreeMap<String, Vec<String>>,
    /// Per target language: pronoun (lowercase) → its replacements.
    #[serde(default)]
    pub replace: BTreeMap<String, BTreeMap<String, Vec<String>>>,
    /// How a tagger's UD features choose replacements (with a target-language model).
    #[serde(default)]
    pub by_features: ByFeatures,
    /// Per target language: pronoun (lowercase) → its UD features
    /// (`Case=Acc|Number=Sing|Person=1`), the candidates of [`ByFeatures`].
    #[serde(default)]
    pub pronouns: BTreeMap<String, BTreeMap<String, String>>,
}

/// `replaced` by UD features: a token whose features include all of `require` is replaced
/// by every pronoun that agrees with it in each feature of `agree` (where both have one)
/// and differs from it in at least one feature of `differ` (both have it, no value in
/// common).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ByFeatures {
    /// `Name=Value` features the token must have.
    pub require: Vec<String>,
    /// Features a replacement must share (when both have them).
    pub agree: Vec<String>,
    /// Features of which a replacement must differ in one.
    pub differ: Vec<String>,
}

impl Default for ByFeatures {
    fn default() -> Self {
        ByFeatures {
            require: vec!["Reflex=Yes".into()],
            agree: vec!["Case".into()],
            differ: vec!["Person".into(), "Number".into()],
        }
    }
}

impl ByFeatures {
    /// The pronouns of `inventory` (name → features) that replace a token `form` with
    /// features `feats` (as the tagger gives them), in the inventory's order; none when
    /// `feats` lacks a required feature.
    pub fn replacements<'a>(
        &self,
        form: &str,
        feats: &str,
        inventory: &'a BTreeMap<String, String>,
    ) -> Vec<&'a str> {
        use ldd_conllu::feature;
        let has = |f: &String| {
            f.split_once('=')
                .is_some_and(|(k, v)| feature(feats, k).contains(&v))
        };
        if !self.require.iter().all(has) {
            return Vec::new();
        }
        let form = form.to_lowercase();
        let disjoint = |a: &[&str], b: &[&str]| !a.iter().any(|x| b.contains(x));
        inventory
            .iter()
            .filter(|(p, _)| **p != form)
            .filter(|(_, f)| {
                let both = |k: &String| {
                    let (a, b) = (feature(feats, k), feature(f, k));
                    (!a.is_empty() && !b.is_empty()).then_some((a, b))
                };
                self.agree
                    .iter()
                    .filter_map(both)
                    .all(|(a, b)| !disjoint(&a, &b))
                    && self
                        .differ
                        .iter()
                        .filter_map(both)
                        .any(|(a, b)| disjoint(&a, &b))
            })
            .map(|(p, _)| p.as_str())
            .collect()
    }
}

impl ContrastConfig {
    /// The built-in rules.
    pub fn builtin() -> Result<ContrastConfig> {
        ContrastConfig::parse(BUILTIN, "config/contrast.toml (built in)")
    }

    /// Rules from a file.
    pub fn load(path: &Path) -> Result<ContrastConfig> {
        let text = ldd_io::read_text(path, super::MAX_CONFIG_BYTES)?;
        ContrastConfig::parse(&text, &ldd_io::error::shown(path))
    }

    /// Parses and checks rules (`origin` names them in errors).
    pub fn parse(text: &str, origin: &str) -> Result<ContrastConfig> {
        let c: ContrastConfig = toml::from_str(text)
            .map_err(|e| Error::Config(format!("{origin}: {}", e.message())))?;
        for (ph, kinds) in &c.variants {
            if let Some(k) = kinds.iter().find(|k| !KINDS.contains(&k.as_str())) {
                return Err(Error::Config(format!(
                    "{origin}: [variants] {ph}: unknown variant type `{}`; expected some of {}",
                    ldd_io::error::quote(k, 40),
                    KINDS.join(", ")
                )));
            }
        }
        // Pronouns are matched case-folded: the tables name them in lower case.
        let lower = |table: &str, lang: &str, p: Option<&String>| match p {
            Some(p) => Err(Error::Config(format!(
                "{origin}: [{table}.{lang}] `{}`: write pronouns in lower case",
                ldd_io::error::quote(p, 40)
            ))),
            None => Ok(()),
        };
        let not_lower = |p: &&String| p.to_lowercase() != **p;
        let too_many = |place: String, n: usize| {
            Err(Error::Config(format!(
                "{origin}: {place}: {n} entries, more than {MAX_REPLACEMENTS} (each one is a \
                 variant of every item with that pronoun)"
            )))
        };
        for (lang, list) in &c.replace {
            lower("replace", lang, list.keys().find(not_lower))?;
            for (p, subs) in list {
                if subs.len() > MAX_REPLACEMENTS {
                    return too_many(format!("[replace.{lang}] {p}"), subs.len());
                }
            }
        }
        for (lang, list) in &c.pronouns {
            if list.len() > MAX_REPLACEMENTS {
                return too_many(format!("[pronouns.{lang}]"), list.len());
            }
        }
        // A FEATS string with at least one feature.
        let is_feats = |f: &str| f != "_" && ldd_conllu::check_feats(f).is_ok();
        for (lang, list) in &c.pronouns {
            lower("pronouns", lang, list.keys().find(not_lower))?;
            for (p, f) in list {
                if !is_feats(f) {
                    return Err(Error::Config(format!(
                        "{origin}: [pronouns.{lang}] {p} = `{}`: expected UD features, \
                         as `Case=Acc|Number=Sing|Person=1`",
                        ldd_io::error::quote(f, 60)
                    )));
                }
            }
        }
        let b = &c.by_features;
        for f in b.require.iter() {
            if f.contains('|') || !is_feats(f) {
                return Err(Error::Config(format!(
                    "{origin}: [by_features] require: `{}` is not a feature (`Name=Value`)",
                    ldd_io::error::quote(f, 60)
                )));
            }
        }
        for f in b.agree.iter().chain(&b.differ) {
            if f.contains(['|', '=']) || !is_feats(&format!("{f}=x")) {
                return Err(Error::Config(format!(
                    "{origin}: [by_features]: `{}` is not a feature name",
                    ldd_io::error::quote(f, 60)
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
        let e = ContrastConfig::parse("[variants]\n[pronouns.de]\nsich = \"Person 3\"\n", "f")
            .unwrap_err();
        assert!(e.to_string().contains("expected UD features"), "{e}");
        let e = ContrastConfig::parse(
            "[variants]\n[by_features]\nrequire = [\"Reflex\"]\nagree = []\ndiffer = []\n",
            "f",
        )
        .unwrap_err();
        assert!(e.to_string().contains("is not a feature"), "{e}");
    }

    #[test]
    fn replacements_by_features_checked_by_hand() {
        let c = ContrastConfig::builtin().unwrap();
        let (b, de) = (&c.by_features, &c.pronouns["de"]);
        // Dative `sich`: the dative pronouns and the plural ones (both cases), not `mich`.
        assert_eq!(
            b.replacements("sich", "Case=Dat|Person=3|PronType=Prs|Reflex=Yes", de),
            ["dir", "euch", "mir", "uns"]
        );
        // Accusative `sich`.
        assert_eq!(
            b.replacements("Sich", "Case=Acc|Person=3|PronType=Prs|Reflex=Yes", de),
            ["dich", "euch", "mich", "uns"]
        );
        // Reflexive `uns`: other person or number, same case; not itself.
        assert_eq!(
            b.replacements(
                "uns",
                "Case=Acc|Number=Plur|Person=1|PronType=Prs|Reflex=Yes",
                de
            ),
            ["dich", "euch", "mich", "sich"]
        );
        // `uns` not tagged reflexive (`bei uns`): nothing.
        assert!(b
            .replacements("uns", "Case=Dat|Number=Plur|Person=1|PronType=Prs", de)
            .is_empty());
        // English `himself`: not `herself` or `itself` (same person and number).
        assert_eq!(
            b.replacements(
                "himself",
                "Case=Acc|Gender=Masc|Number=Sing|Person=3|PronType=Prs|Reflex=Yes",
                &c.pronouns["en"]
            ),
            [
                "myself",
                "ourselves",
                "themselves",
                "yourself",
                "yourselves"
            ]
        );
    }
}
