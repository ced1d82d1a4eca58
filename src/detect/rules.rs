//! Phenomena as data: the rule language read from `config/*.toml`, and matching.
//!
//! A [`RuleSet`] is the data (recorded in the manifest as read); [`RuleSet::compile`]
//! gives the [`Matcher`] that detection runs, with lemma and form lists in hash sets so
//! that a long list costs one lookup per word.
//!
//! A phenomenon pairs a *dependent* word with its syntactic *head*; each side has a
//! [`Condition`]. A sentence matches when some word satisfies the dependent
//! condition and its head (never the root attachment, head 0) satisfies the head
//! condition. The distance of a match is the number of words strictly between the
//! two: `|dependent − head| − 1` over UD word ids. See `config/phenomena.toml` and
//! the README for the reference.

use std::collections::{BTreeSet, HashSet};
use std::ops::Range;
use std::path::{Path, PathBuf};

use ldd_conllu::{Sentence, Word};
use ldd_io::name::NameKind;
use serde::Deserialize;
use toml::Spanned;

use crate::config::{BUILTIN_RULES, MAX_CONFIG_BYTES};
use crate::error::{Error, Result};
use crate::format::options;

/// Most phenomena one rules file may define (each writes 2 × (max + 1) sets).
pub const MAX_PHENOMENA: usize = 100;

/// Most values in one condition list (lemmas, forms, ...).
pub const MAX_LIST: usize = 1_000_000;

/// The 17 universal POS tags; `upos` values are checked against this list.
pub const UPOS_TAGS: [&str; 17] = [
    "ADJ", "ADP", "ADV", "AUX", "CCONJ", "DET", "INTJ", "NOUN", "NUM", "PART", "PRON", "PROPN",
    "PUNCT", "SCONJ", "SYM", "VERB", "X",
];

/// Default largest distance bucket (`ge0..ge5`, `eq0..eq5`).
pub const DEFAULT_MAX_DISTANCE: u32 = 5;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RulesToml {
    #[serde(default)]
    buckets: Option<BucketsToml>,
    #[serde(default)]
    phenomenon: Vec<PhenomenonToml>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BucketsToml {
    max: Spanned<i64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PhenomenonToml {
    name: Spanned<String>,
    #[serde(default)]
    description: String,
    #[serde(default)]
    languages: Option<Vec<Spanned<String>>>,
    #[serde(default)]
    order: Option<Spanned<String>>,
    dependent: ConditionToml,
    #[serde(default)]
    head: Option<ConditionToml>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct ConditionToml {
    #[serde(default)]
    deprel: Vec<Spanned<String>>,
    #[serde(default)]
    not_deprel: Vec<Spanned<String>>,
    #[serde(default)]
    upos: Vec<Spanned<String>>,
    #[serde(default)]
    not_upos: Vec<Spanned<String>>,
    #[serde(default)]
    feats: Vec<Spanned<String>>,
    #[serde(default)]
    not_feats: Vec<Spanned<String>>,
    #[serde(default)]
    lemma: Vec<Spanned<String>>,
    #[serde(default)]
    form: Vec<Spanned<String>>,
}

/// Conditions on one word. Empty lists impose nothing; within a list any value
/// matches (`feats`: all must be present; `not_*`: none may match).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Condition {
    /// Relations; `obl` matches `obl` and every subtype `obl:*`, `obl:tmod` only itself.
    pub deprel: Vec<String>,
    /// Relations (same matching) the word must not have.
    pub not_deprel: Vec<String>,
    /// Universal POS tags.
    pub upos: Vec<String>,
    /// Universal POS tags the word must not have.
    pub not_upos: Vec<String>,
    /// `Key=Value` features that must all be present.
    pub feats: Vec<String>,
    /// `Key=Value` features none of which may be present.
    pub not_feats: Vec<String>,
    /// Lemmas (exact, case-sensitive); any may match.
    pub lemma: Vec<String>,
    /// Word forms (exact, case-sensitive); any may match.
    pub form: Vec<String>,
}

/// Relative order of dependent and head a phenomenon requires.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Order {
    /// Either order.
    #[default]
    Any,
    /// The dependent precedes its head.
    DependentFirst,
    /// The head precedes its dependent.
    HeadFirst,
}

impl Order {
    /// The name used in rule files and in the manifest.
    pub fn name(self) -> &'static str {
        match self {
            Order::Any => "any",
            Order::DependentFirst => "dependent_first",
            Order::HeadFirst => "head_first",
        }
    }
}

/// One phenomenon: a named dependent–head rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Phenomenon {
    /// Name, used as the output directory (`[a-z0-9_-]+`).
    pub name: String,
    /// Free text for humans.
    pub description: String,
    /// Source languages it runs on by default; `None` means every language.
    pub languages: Option<Vec<String>>,
    /// Required word order.
    pub order: Order,
    /// Condition on the dependent word.
    pub dependent: Condition,
    /// Condition on its head.
    pub head: Condition,
}

/// A set of phenomena and the distance buckets to write.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleSet {
    /// Where the rules were read from.
    pub source: PathBuf,
    /// Largest bucket: `ge0..=geN` and `eq0..=eqN` are written.
    pub max_distance: u32,
    /// The phenomena, in file order.
    pub phenomena: Vec<Phenomenon>,
}

impl From<&RuleSet> for options::Rules {
    fn from(r: &RuleSet) -> Self {
        options::Rules {
            source: r.source.clone(),
            max_distance: r.max_distance,
            phenomena: r.phenomena.iter().map(options::Phenomenon::from).collect(),
        }
    }
}

impl From<&options::Rules> for RuleSet {
    fn from(r: &options::Rules) -> Self {
        RuleSet {
            source: r.source.clone(),
            max_distance: r.max_distance,
            phenomena: r.phenomena.iter().map(Phenomenon::from).collect(),
        }
    }
}

impl From<&Phenomenon> for options::Phenomenon {
    fn from(p: &Phenomenon) -> Self {
        options::Phenomenon {
            name: p.name.clone(),
            description: p.description.clone(),
            languages: p.languages.clone(),
            order: p.order.into(),
            dependent: (&p.dependent).into(),
            head: (&p.head).into(),
        }
    }
}

impl From<&options::Phenomenon> for Phenomenon {
    fn from(p: &options::Phenomenon) -> Self {
        Phenomenon {
            name: p.name.clone(),
            description: p.description.clone(),
            languages: p.languages.clone(),
            order: p.order.into(),
            dependent: (&p.dependent).into(),
            head: (&p.head).into(),
        }
    }
}

impl From<Order> for options::Order {
    fn from(o: Order) -> Self {
        match o {
            Order::Any => options::Order::Any,
            Order::DependentFirst => options::Order::DependentFirst,
            Order::HeadFirst => options::Order::HeadFirst,
        }
    }
}

impl From<options::Order> for Order {
    fn from(o: options::Order) -> Self {
        match o {
            options::Order::Any => Order::Any,
            options::Order::DependentFirst => Order::DependentFirst,
            options::Order::HeadFirst => Order::HeadFirst,
        }
    }
}

impl From<&Condition> for options::Condition {
    fn from(c: &Condition) -> Self {
        let Condition {
            deprel,
            not_deprel,
            upos,
            not_upos,
            feats,
            not_feats,
            lemma,
            form,
        } = c.clone();
        options::Condition {
            deprel,
            not_deprel,
            upos,
            not_upos,
            feats,
            not_feats,
            lemma,
            form,
        }
    }
}

impl From<&options::Condition> for Condition {
    fn from(c: &options::Condition) -> Self {
        let options::Condition {
            deprel,
            not_deprel,
            upos,
            not_upos,
            feats,
            not_feats,
            lemma,
            form,
        } = c.clone();
        Condition {
            deprel,
            not_deprel,
            upos,
            not_upos,
            feats,
            not_feats,
            lemma,
            form,
        }
    }
}

/// One dependent–head pair found in a sentence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Match {
    /// Index of the phenomenon in [`RuleSet::phenomena`].
    pub phenomenon: u16,
    /// Word id of the dependent (1-based).
    pub dependent: u32,
    /// Word id of the head (1-based).
    pub head: u32,
    /// Words strictly between them.
    pub distance: u32,
}

/// Line (1-based) of a byte offset in `text`.
fn line_of(text: &str, offset: usize) -> usize {
    text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

struct Ctx<'a> {
    path: &'a Path,
    text: &'a str,
}

impl Ctx<'_> {
    fn err(&self, span: Range<usize>, key: &str, msg: impl std::fmt::Display) -> Error {
        Error::Config(format!(
            "{}:{}: invalid value for `{key}`: {msg}",
            self.path.display(),
            line_of(self.text, span.start)
        ))
    }

    fn list(
        &self,
        key: &str,
        values: Vec<Spanned<String>>,
        check: impl Fn(&str) -> std::result::Result<(), String>,
    ) -> Result<Vec<String>> {
        if values.len() > MAX_LIST {
            let span = values[MAX_LIST].span();
            return Err(self.err(span, key, format!("more than {MAX_LIST} values (limit)")));
        }
        values
            .into_iter()
            .map(|v| {
                let span = v.span();
                let s = v.into_inner();
                check(&s).map_err(|m| self.err(span, key, m))?;
                Ok(s)
            })
            .collect()
    }

    fn condition(&self, side: &str, c: ConditionToml) -> Result<Condition> {
        let deprel = |s: &str| {
            if !s.is_empty()
                && s.split(':')
                    .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_lowercase() || c == '_'))
            {
                Ok(())
            } else {
                Err(format!(
                    "`{s}` is not a UD relation (e.g. `obl`, `compound:prt`)"
                ))
            }
        };
        let upos = |s: &str| {
            if UPOS_TAGS.contains(&s) {
                Ok(())
            } else {
                Err(format!(
                    "`{s}` is not a universal POS tag ({})",
                    UPOS_TAGS.join(" ")
                ))
            }
        };
        let feat = |s: &str| match s.split_once('=') {
            Some((k, v)) if !k.is_empty() && !v.is_empty() && !s.contains('|') => Ok(()),
            _ => Err(format!("`{s}` is not a single `Key=Value` feature")),
        };
        let nonempty = |s: &str| {
            if s.is_empty() || s.contains(char::is_whitespace) {
                Err(format!("`{s}` must be a non-empty word without spaces"))
            } else {
                Ok(())
            }
        };
        let k = |name: &str| format!("{side}.{name}");
        Ok(Condition {
            deprel: self.list(&k("deprel"), c.deprel, deprel)?,
            not_deprel: self.list(&k("not_deprel"), c.not_deprel, deprel)?,
            upos: self.list(&k("upos"), c.upos, upos)?,
            not_upos: self.list(&k("not_upos"), c.not_upos, upos)?,
            feats: self.list(&k("feats"), c.feats, feat)?,
            not_feats: self.list(&k("not_feats"), c.not_feats, feat)?,
            lemma: self.list(&k("lemma"), c.lemma, nonempty)?,
            form: self.list(&k("form"), c.form, nonempty)?,
        })
    }
}

impl RuleSet {
    /// Reads and validates a rules file. Unknown keys, wrong types and invalid values
    /// are errors naming the file, line and key.
    pub fn load(path: &Path) -> Result<RuleSet> {
        let text = ldd_io::read_text(path, MAX_CONFIG_BYTES)?;
        Self::parse(&text, path)
    }

    /// Parses rules from `text`; `path` is used in messages.
    pub fn parse(text: &str, path: &Path) -> Result<RuleSet> {
        let raw: RulesToml = toml::from_str(text).map_err(|e| {
            let line = e.span().map(|s| line_of(text, s.start)).unwrap_or(0);
            Error::Config(format!(
                "{}:{line}: {}",
                path.display(),
                e.message().trim_end()
            ))
        })?;
        let ctx = Ctx { path, text };
        let max_distance = match raw.buckets {
            None => DEFAULT_MAX_DISTANCE,
            Some(b) => {
                let span = b.max.span();
                match u32::try_from(*b.max.get_ref()) {
                    Ok(m) if m <= 100 => m,
                    _ => return Err(ctx.err(span, "buckets.max", "must be between 0 and 100")),
                }
            }
        };
        let mut seen = BTreeSet::new();
        let mut phenomena = Vec::new();
        for p in raw.phenomenon {
            let span = p.name.span();
            let name = p.name.into_inner();
            if let Err(e) = ldd_io::name::check(NameKind::Phenomenon, &name, "name") {
                let why = e.to_string();
                let why = why.strip_prefix("name: ").unwrap_or(&why).to_string();
                return Err(ctx.err(span, "name", why));
            }
            if !seen.insert(name.clone()) {
                return Err(ctx.err(
                    span,
                    "name",
                    format!("phenomenon `{name}` is defined twice"),
                ));
            }
            let languages = match p.languages {
                None => None,
                Some(l) => {
                    let l = ctx.list("languages", l, |s| {
                        if s == "*"
                            || (!s.is_empty()
                                && s.chars()
                                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-'))
                        {
                            Ok(())
                        } else {
                            Err(format!("`{s}` is not a language code"))
                        }
                    })?;
                    if l.iter().any(|s| s == "*") {
                        None
                    } else {
                        Some(l)
                    }
                }
            };
            let order = match p.order {
                None => Order::Any,
                Some(o) => match o.get_ref().as_str() {
                    "any" => Order::Any,
                    "dependent_first" => Order::DependentFirst,
                    "head_first" => Order::HeadFirst,
                    other => {
                        return Err(ctx.err(
                            o.span(),
                            "order",
                            format!("`{other}`: expected any, dependent_first or head_first"),
                        ))
                    }
                },
            };
            let dependent = ctx.condition("dependent", p.dependent)?;
            let head = ctx.condition("head", p.head.unwrap_or_default())?;
            if dependent == Condition::default() {
                return Err(ctx.err(
                    span,
                    "dependent",
                    format!("phenomenon `{name}` needs at least one condition on the dependent"),
                ));
            }
            if phenomena.len() == MAX_PHENOMENA {
                return Err(ctx.err(
                    span,
                    "name",
                    format!("more than {MAX_PHENOMENA} phenomena (limit)"),
                ));
            }
            phenomena.push(Phenomenon {
                name,
                description: p.description,
                languages,
                order,
                dependent,
                head,
            });
        }
        if phenomena.is_empty() {
            return Err(Error::Config(format!(
                "{}: defines no [[phenomenon]]",
                path.display()
            )));
        }
        Ok(RuleSet {
            source: path.to_path_buf(),
            max_distance,
            phenomena,
        })
    }

    /// Keeps the phenomena to run: the named ones if `only` is given (whatever their
    /// languages; unknown names are errors), else those whose languages include `lang`.
    pub fn select(mut self, only: Option<&[String]>, lang: &str) -> Result<RuleSet> {
        match only {
            Some(names) => {
                for n in names {
                    if !self.phenomena.iter().any(|p| &p.name == n) {
                        let known: Vec<_> =
                            self.phenomena.iter().map(|p| p.name.as_str()).collect();
                        return Err(Error::Config(format!(
                            "unknown phenomenon `{n}` (defined in {}: {})",
                            self.source.display(),
                            known.join(", ")
                        )));
                    }
                }
                self.phenomena.retain(|p| names.contains(&p.name));
            }
            None => self.phenomena.retain(|p| p.applies_to(lang)),
        }
        Ok(self)
    }

    /// The matcher that runs these rules.
    pub fn compile(&self) -> Matcher {
        Matcher {
            phenomena: self
                .phenomena
                .iter()
                .map(|p| CompiledPhenomenon {
                    order: p.order,
                    dependent: CompiledCondition::new(&p.dependent),
                    head: CompiledCondition::new(&p.head),
                })
                .collect(),
        }
    }
}

/// Compiled rules, ready to match sentences.
#[derive(Debug, Clone)]
pub struct Matcher {
    phenomena: Vec<CompiledPhenomenon>,
}

#[derive(Debug, Clone)]
struct CompiledPhenomenon {
    order: Order,
    dependent: CompiledCondition,
    head: CompiledCondition,
}

/// A [`Condition`] with its lemma and form lists as hash sets.
#[derive(Debug, Clone)]
struct CompiledCondition {
    cond: Condition,
    lemma: HashSet<String>,
    form: HashSet<String>,
}

impl CompiledCondition {
    fn new(c: &Condition) -> Self {
        CompiledCondition {
            lemma: c.lemma.iter().cloned().collect(),
            form: c.form.iter().cloned().collect(),
            cond: c.clone(),
        }
    }

    fn matches(&self, w: &Word<'_>) -> bool {
        let c = &self.cond;
        (c.deprel.is_empty() || c.deprel.iter().any(|p| deprel_matches(p, w.deprel)))
            && !c.not_deprel.iter().any(|p| deprel_matches(p, w.deprel))
            && (c.upos.is_empty() || c.upos.iter().any(|u| u == w.upos))
            && !c.not_upos.iter().any(|u| u == w.upos)
            && c.feats.iter().all(|f| w.has_feat(f))
            && !c.not_feats.iter().any(|f| w.has_feat(f))
            && (self.lemma.is_empty() || self.lemma.contains(w.lemma))
            && (self.form.is_empty() || self.form.contains(w.form))
    }
}

impl Matcher {
    /// All matches of all phenomena in `sentence`, by phenomenon then dependent id.
    pub fn detect(&self, sentence: &Sentence<'_>, out: &mut Vec<Match>) {
        out.clear();
        for (pi, p) in self.phenomena.iter().enumerate() {
            for (i, w) in sentence.words.iter().enumerate() {
                let dep = i as u32 + 1;
                let Some(h) = w.head.filter(|&h| h != 0 && h != dep) else {
                    continue;
                };
                if !p.dependent.matches(w) {
                    continue;
                }
                let order_ok = match p.order {
                    Order::Any => true,
                    Order::DependentFirst => dep < h,
                    Order::HeadFirst => h < dep,
                };
                if !order_ok {
                    continue;
                }
                let Some(hw) = sentence.word(h) else { continue };
                if p.head.matches(hw) {
                    out.push(Match {
                        phenomenon: pi as u16,
                        dependent: dep,
                        head: h,
                        distance: dep.abs_diff(h) - 1,
                    });
                }
            }
        }
    }
}

impl Phenomenon {
    /// Whether the phenomenon runs by default for source language `lang`.
    pub fn applies_to(&self, lang: &str) -> bool {
        self.languages
            .as_ref()
            .is_none_or(|l| l.iter().any(|x| x == lang))
    }
}

/// Whether `deprel` is `pattern` or a subtype of it (`obl` matches `obl:tmod`).
pub fn deprel_matches(pattern: &str, deprel: &str) -> bool {
    deprel
        .strip_prefix(pattern)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with(':'))
}

impl RuleSet {
    /// The built-in default rules.
    pub fn builtin() -> Result<RuleSet> {
        Self::parse(BUILTIN_RULES, Path::new("config/phenomena.toml (built in)"))
    }
}

#[cfg(test)]
mod tests {
    use super::{options, Order};

    /// The manifest records an order as the rule file spells it, and reads it back.
    #[test]
    fn order_names_are_the_rule_file_spelling() {
        for o in [Order::Any, Order::DependentFirst, Order::HeadFirst] {
            let rec = options::Order::from(o);
            assert_eq!(serde_json::to_value(rec).unwrap(), o.name());
            assert_eq!(Order::from(rec), o);
        }
    }
}
