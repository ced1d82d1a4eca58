//! How each phenomenon's dependency is rendered in a target language — data read from
//! `config/relations.toml` (docs/evaluation.md, "The relation, checked in the output"):
//! what the dependent's rendering in the reference is, whether the reference may leave it
//! out, and where a particle stands. [`super::dependency`] checks it in the parses.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

use crate::config::{BUILTIN_RELATIONS, MAX_CONFIG_BYTES};
use crate::error::{Error, Result};
use crate::pipeline::detect::rules::{Condition, ConditionTable};

/// Where a separated particle must stand relative to its verb.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placement {
    /// German, Dutch: after a finite verb of a main clause and last in its clause; written
    /// together with a non-finite verb or the verb of a subordinate clause.
    ClauseFinal,
    /// English: after its verb, with at most the verb's object between them.
    AfterHead,
}

/// One phenomenon's dependency in one target language.
#[derive(Debug, Clone, Default)]
pub struct Relation {
    /// The universal parts of speech of a source head whose locus has the relation (empty:
    /// any).
    pub head_upos: Vec<String>,
    /// A reference token the aligner links to the dependent is its rendering only if it
    /// meets one of these (none: any token).
    pub rendering: Vec<Condition>,
    /// Else the dependent's rendering is a token attached to the head's rendering that
    /// meets one of these.
    pub attached: Vec<Condition>,
    /// Else a token after the head's rendering that meets one of these, before the next
    /// punctuation that ends a clause.
    pub nearest: Vec<Condition>,
    /// Else the last token before that punctuation, if it meets one of these.
    pub closing: Vec<Condition>,
    /// The reference may by design leave the dependent out: the head carries the verdict.
    pub optional: bool,
    /// The dependent is a pronoun: another in its place is another person or case.
    pub pronoun: bool,
    /// Where a particle stands (`None`: not a particle).
    pub placement: Option<Placement>,
    /// Verb forms written together with their particle.
    pub joined: Vec<Condition>,
    /// Dependents of a verb that make its clause subordinate.
    pub subordinate: Vec<Condition>,
    /// Relations that start another clause.
    pub clause: Vec<String>,
    /// Relations whose tokens may stand between a verb and its particle.
    pub between: Vec<String>,
    /// Particles written together with a verb (lowercase).
    pub prefixes: Vec<String>,
}

/// Every target language's relations, by language code and phenomenon.
#[derive(Debug, Clone, Default)]
pub struct Relations {
    by: BTreeMap<(String, String), Relation>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileToml {
    #[serde(default)]
    language: Vec<LanguageToml>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LanguageToml {
    code: String,
    #[serde(default)]
    relation: Vec<RelationToml>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RelationToml {
    phenomenon: String,
    #[serde(default)]
    head_upos: Vec<String>,
    #[serde(default)]
    rendering: Vec<ConditionTable>,
    #[serde(default)]
    attached: Vec<ConditionTable>,
    #[serde(default)]
    nearest: Vec<ConditionTable>,
    #[serde(default)]
    closing: Vec<ConditionTable>,
    #[serde(default)]
    optional: bool,
    #[serde(default)]
    pronoun: bool,
    #[serde(default)]
    placement: Option<String>,
    #[serde(default)]
    joined: Vec<ConditionTable>,
    #[serde(default)]
    subordinate: Vec<ConditionTable>,
    #[serde(default)]
    clause: Vec<String>,
    #[serde(default)]
    between: Vec<String>,
    #[serde(default)]
    prefixes: Vec<String>,
}

impl Relations {
    /// The built-in relations (`config/relations.toml`).
    pub fn builtin() -> Result<Relations> {
        Self::parse(
            BUILTIN_RELATIONS,
            Path::new("config/relations.toml (built in)"),
        )
    }

    /// Reads a relations file.
    pub fn load(path: &Path) -> Result<Relations> {
        Self::parse(&ldd_io::read_text(path, MAX_CONFIG_BYTES)?, path)
    }

    /// Parses `text` (read from `path`, named in errors).
    pub fn parse(text: &str, path: &Path) -> Result<Relations> {
        let raw: FileToml = toml::from_str(text).map_err(|e| {
            let line = e
                .span()
                .map(|s| text[..s.start].matches('\n').count() + 1)
                .unwrap_or(0);
            Error::Config(format!(
                "{}:{line}: {}",
                path.display(),
                e.message().trim_end()
            ))
        })?;
        let mut by = BTreeMap::new();
        for lang in raw.language {
            for r in lang.relation {
                let key = (lang.code.clone(), r.phenomenon.clone());
                let at = format!("language `{}`, phenomenon `{}`", lang.code, r.phenomenon);
                let relation = read_relation(r, path, text, &at)?;
                if by.insert(key, relation).is_some() {
                    return Err(Error::Config(format!(
                        "{}: {at} is defined twice",
                        path.display()
                    )));
                }
            }
        }
        Ok(Relations { by })
    }

    /// The relation of `phenomenon` in target language `lang`, if the file has one.
    pub fn get(&self, lang: &str, phenomenon: &str) -> Option<&Relation> {
        self.by.get(&(lang.to_string(), phenomenon.to_string()))
    }

    /// Whether the file has a relation for `lang`.
    pub fn knows(&self, lang: &str) -> bool {
        self.by.keys().any(|(l, _)| l == lang)
    }
}

/// One relation, its conditions checked as a rules file's (`at` names it in errors).
fn read_relation(r: RelationToml, path: &Path, text: &str, at: &str) -> Result<Relation> {
    let conditions = |list: Vec<ConditionTable>, key: &str| -> Result<Vec<Condition>> {
        list.into_iter()
            .map(|c| c.read(path, text, &format!("{at}: {key}")))
            .collect()
    };
    let placement = match r.placement.as_deref() {
        None => None,
        Some("clause_final") => Some(Placement::ClauseFinal),
        Some("after_head") => Some(Placement::AfterHead),
        Some(other) => {
            return Err(Error::Config(format!(
                "{}: {at}: placement `{}` is not `clause_final` or `after_head`",
                path.display(),
                ldd_io::error::escape(other)
            )))
        }
    };
    for u in &r.head_upos {
        if !crate::pipeline::detect::rules::UPOS_TAGS.contains(&u.as_str()) {
            return Err(Error::Config(format!(
                "{}: {at}: head_upos `{}` is not a universal part of speech",
                path.display(),
                ldd_io::error::escape(u)
            )));
        }
    }
    Ok(Relation {
        head_upos: r.head_upos,
        rendering: conditions(r.rendering, "rendering")?,
        attached: conditions(r.attached, "attached")?,
        nearest: conditions(r.nearest, "nearest")?,
        closing: conditions(r.closing, "closing")?,
        optional: r.optional,
        pronoun: r.pronoun,
        placement,
        joined: conditions(r.joined, "joined")?,
        subordinate: conditions(r.subordinate, "subordinate")?,
        clause: r.clause,
        between: r.between,
        prefixes: r.prefixes.iter().map(|p| p.to_lowercase()).collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builtin_relations_read() {
        let r = Relations::builtin().unwrap();
        let de = r.get("de", "particle").unwrap();
        assert_eq!(de.placement, Some(Placement::ClauseFinal));
        assert!(de.clause.iter().any(|c| c == "advcl"));
        let en = r.get("en", "reflexive").unwrap();
        assert!(en.optional && en.pronoun);
        assert!(!r.get("de", "reflexive").unwrap().optional);
        assert!(r.get("de", "reorder").is_none());
        assert!(r.knows("nl") && !r.knows("fr"));
    }

    #[test]
    fn bad_relations_are_refused_with_the_place() {
        let p = Path::new("rel.toml");
        let bad = "[[language]]\ncode = \"de\"\n[[language.relation]]\nphenomenon = \"x\"\nplacement = \"end\"\n";
        let e = Relations::parse(bad, p).unwrap_err().to_string();
        assert!(e.contains("placement `end`"), "{e}");
        let twice = "[[language]]\ncode = \"de\"\n[[language.relation]]\nphenomenon = \"x\"\n[[language.relation]]\nphenomenon = \"x\"\n";
        assert!(Relations::parse(twice, p)
            .unwrap_err()
            .to_string()
            .contains("defined twice"));
        let tag = "[[language]]\ncode = \"de\"\n[[language.relation]]\nphenomenon = \"x\"\nattached = [{ upos = [\"VRB\"] }]\n";
        let e = Relations::parse(tag, p).unwrap_err().to_string();
        assert!(e.contains("rel.toml:5") && e.contains("VRB"), "{e}");
    }
}
