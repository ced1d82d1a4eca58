//! Phenomena as data: the rule language read from `config/*.toml`.
//!
//! A [`RuleSet`] is the data (recorded in the manifest as selected for the source
//! language); `RuleSet::compile` (in [`super::matcher`]) gives the matcher that detection
//! runs.
//!
//! A phenomenon pairs a *dependent* word with its syntactic *head* by one or more
//! [`Pattern`]s, each with a [`Condition`] on either side, a word order and an optional
//! [`Repair`] of the parser's attachment. A sentence matches when some word satisfies a
//! pattern's dependent condition and its head (never the root attachment, head 0) — the
//! parser's, or the one the repair finds — satisfies the head condition. A pattern may be
//! written for some source languages only (their tagsets, their word order); for such a
//! language it replaces the patterns written for every language. The distance of a match
//! is the number of words strictly between the two: `|dependent − head| − 1` over UD word
//! ids. See `config/phenomena.toml` and docs/rules.md for the reference.

use std::collections::BTreeSet;
use std::ops::Range;
use std::path::{Path, PathBuf};

use ldd_io::name::NameKind;
use serde::Deserialize;
use toml::Spanned;

use crate::config::{BUILTIN_PAPER_RULES, BUILTIN_RULES, MAX_CONFIG_BYTES};
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
    #[serde(default)]
    repair: Option<RepairToml>,
    #[serde(default)]
    pattern: Vec<PatternToml>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PatternToml {
    #[serde(default)]
    languages: Option<Vec<Spanned<String>>>,
    #[serde(default)]
    order: Option<Spanned<String>>,
    dependent: Spanned<ConditionToml>,
    #[serde(default)]
    head: Option<ConditionToml>,
    #[serde(default)]
    repair: Option<RepairToml>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RepairToml {
    search: Spanned<String>,
    #[serde(default)]
    stop: Option<ConditionToml>,
    #[serde(default)]
    from: Option<ConditionToml>,
    #[serde(default)]
    nearest: bool,
}

/// A condition on one word as written in a TOML file of the rule language: read by
/// [`ConditionTable::read`] in other config files written in it (`config/relations.toml`).
#[derive(Deserialize, Default)]
#[serde(transparent)]
pub struct ConditionTable(ConditionToml);

impl ConditionTable {
    /// The condition, its values checked as in a rules file (`text`, read from `path`;
    /// `key` names it in errors).
    pub fn read(self, path: &Path, text: &str, key: &str) -> Result<Condition> {
        Ctx { path, text }.condition(key, self.0)
    }
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
    xpos: Vec<Spanned<String>>,
    #[serde(default)]
    not_xpos: Vec<Spanned<String>>,
    #[serde(default)]
    feats: Vec<Spanned<String>>,
    #[serde(default)]
    not_feats: Vec<Spanned<String>>,
    #[serde(default)]
    lemma: Vec<Spanned<String>>,
    #[serde(default)]
    not_lemma: Vec<Spanned<String>>,
    #[serde(default)]
    form: Vec<Spanned<String>>,
    #[serde(default)]
    not_form: Vec<Spanned<String>>,
    #[serde(default)]
    capitalized: Option<bool>,
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
    /// Language-specific POS tags (XPOS, exact: the tagger's tagset, e.g. STTS `PTKVZ`).
    pub xpos: Vec<String>,
    /// Language-specific POS tags the word must not have.
    pub not_xpos: Vec<String>,
    /// `Key=Value` features that must all be present.
    pub feats: Vec<String>,
    /// `Key=Value` features none of which may be present.
    pub not_feats: Vec<String>,
    /// Lemmas (exact, case-sensitive); any may match.
    pub lemma: Vec<String>,
    /// Lemmas the word must not have.
    pub not_lemma: Vec<String>,
    /// Word forms (exact, case-sensitive); any may match.
    pub form: Vec<String>,
    /// Word forms the word must not have.
    pub not_form: Vec<String>,
    /// Whether the word is capitalized inside its sentence: its form begins with an
    /// upper-case letter and a word other than punctuation comes before it (a name or a
    /// title, not a sentence's first word); `None`: either.
    pub capitalized: Option<bool>,
}

impl Condition {
    /// Whether `word` meets the condition; `capitalized`: whether it is capitalized inside
    /// its sentence (what `capitalized` asks).
    pub fn matches(&self, word: &ldd_conllu::Word<'_>, capitalized: bool) -> bool {
        let any = |list: &[String], value: &str| list.iter().any(|x| x == value);
        self.matches_tags(word, || capitalized)
            && (self.lemma.is_empty() || any(&self.lemma, word.lemma))
            && !any(&self.not_lemma, word.lemma)
            && (self.form.is_empty() || any(&self.form, word.form))
            && !any(&self.not_form, word.form)
    }

    /// Whether `word` meets the condition's relations, tags, features and capitalization
    /// (everything but its lemma and form lists).
    pub fn matches_tags(
        &self,
        word: &ldd_conllu::Word<'_>,
        capitalized: impl Fn() -> bool,
    ) -> bool {
        (self.deprel.is_empty() || self.deprel.iter().any(|p| deprel_matches(p, word.deprel)))
            && !self
                .not_deprel
                .iter()
                .any(|p| deprel_matches(p, word.deprel))
            && (self.upos.is_empty() || self.upos.iter().any(|u| u == word.upos))
            && !self.not_upos.iter().any(|u| u == word.upos)
            && (self.xpos.is_empty() || self.xpos.iter().any(|x| x == word.xpos))
            && !self.not_xpos.iter().any(|x| x == word.xpos)
            && self.feats.iter().all(|f| word.has_feat(f))
            && !self.not_feats.iter().any(|f| word.has_feat(f))
            && self.capitalized.is_none_or(|want| capitalized() == want)
    }
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

/// Where [`Repair`] looks for a dependent's head.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Search {
    /// The nearest fitting word before the dependent.
    Before,
    /// The nearest fitting word after it.
    After,
}

impl Search {
    /// The name used in rule files and in the manifest.
    pub fn name(self) -> &'static str {
        match self {
            Search::Before => "before",
            Search::After => "after",
        }
    }
}

/// A pattern's repair of the parser's attachment, for where the tagger is surer than the
/// parser: a dependent whose parser head fails the pattern's head condition (or its order)
/// is attached instead to the nearest word on the `search` side that meets them, not
/// passing a word that meets `stop` (the edge of its clause); none found, no match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Repair {
    /// Where the new head is looked for.
    pub search: Search,
    /// Words the search does not pass (`None`: the sentence's edge only).
    pub stop: Option<Condition>,
    /// Only dependents whose parser head meets this are re-attached (empty: all).
    pub from: Condition,
    /// Also when the parser's head fits: a fitting word between the dependent and it, on
    /// the dependent's side of a `stop` word, becomes the head (the nearest one).
    pub nearest: bool,
}

/// One way a phenomenon is found: a dependent, its head, their order, and an optional
/// repair of the parser's attachment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pattern {
    /// Source languages it is written for (their tagsets, their word order); `None`: every
    /// language that has no pattern of its own.
    pub languages: Option<Vec<String>>,
    /// Required word order.
    pub order: Order,
    /// Condition on the dependent word.
    pub dependent: Condition,
    /// Condition on its head.
    pub head: Condition,
    /// How a dependent whose parser head fails is re-attached (`None`: it is not).
    pub repair: Option<Repair>,
}

/// One phenomenon: a named dependent–head relation and the patterns that find it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Phenomenon {
    /// Name, used as the output directory (`[a-z0-9_-]+`).
    pub name: String,
    /// Free text for humans.
    pub description: String,
    /// Source languages it runs on by default; `None` means every language.
    pub languages: Option<Vec<String>>,
    /// Its patterns, tried in order for each word (the first that gives a head wins): as
    /// read, the file's top-level one first (written for every language), then its
    /// `[[phenomenon.pattern]]`s; after [`RuleSet::select`], those of the source language.
    /// Never empty.
    pub patterns: Vec<Pattern>,
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
    fn from(rules: &RuleSet) -> Self {
        options::Rules {
            source: rules.source.clone(),
            max_distance: rules.max_distance,
            phenomena: rules
                .phenomena
                .iter()
                .map(options::Phenomenon::from)
                .collect(),
        }
    }
}

impl From<&options::Rules> for RuleSet {
    fn from(record: &options::Rules) -> Self {
        RuleSet {
            source: record.source.clone(),
            max_distance: record.max_distance,
            phenomena: record.phenomena.iter().map(Phenomenon::from).collect(),
        }
    }
}

impl From<&Phenomenon> for options::Phenomenon {
    fn from(phenomenon: &Phenomenon) -> Self {
        // The first pattern in the fields of the paper's one-pattern record, the rest after.
        let first = &phenomenon.patterns[0];
        options::Phenomenon {
            name: phenomenon.name.clone(),
            description: phenomenon.description.clone(),
            languages: phenomenon.languages.clone(),
            order: first.order.into(),
            dependent: (&first.dependent).into(),
            head: (&first.head).into(),
            pattern_languages: first.languages.clone(),
            repair: first.repair.as_ref().map(Into::into),
            patterns: phenomenon.patterns[1..].iter().map(Into::into).collect(),
        }
    }
}

impl From<&options::Phenomenon> for Phenomenon {
    fn from(record: &options::Phenomenon) -> Self {
        let first = Pattern {
            languages: record.pattern_languages.clone(),
            order: record.order.into(),
            dependent: (&record.dependent).into(),
            head: (&record.head).into(),
            repair: record.repair.as_ref().map(Into::into),
        };
        Phenomenon {
            name: record.name.clone(),
            description: record.description.clone(),
            languages: record.languages.clone(),
            patterns: std::iter::once(first)
                .chain(record.patterns.iter().map(Into::into))
                .collect(),
        }
    }
}

impl From<&Pattern> for options::Pattern {
    fn from(pattern: &Pattern) -> Self {
        options::Pattern {
            languages: pattern.languages.clone(),
            order: pattern.order.into(),
            dependent: (&pattern.dependent).into(),
            head: (&pattern.head).into(),
            repair: pattern.repair.as_ref().map(Into::into),
        }
    }
}

impl From<&options::Pattern> for Pattern {
    fn from(record: &options::Pattern) -> Self {
        Pattern {
            languages: record.languages.clone(),
            order: record.order.into(),
            dependent: (&record.dependent).into(),
            head: (&record.head).into(),
            repair: record.repair.as_ref().map(Into::into),
        }
    }
}

impl From<&Repair> for options::Repair {
    fn from(repair: &Repair) -> Self {
        options::Repair {
            search: match repair.search {
                Search::Before => options::Search::Before,
                Search::After => options::Search::After,
            },
            stop: repair.stop.as_ref().map(Into::into),
            from: (&repair.from).into(),
            nearest: repair.nearest,
        }
    }
}

impl From<&options::Repair> for Repair {
    fn from(record: &options::Repair) -> Self {
        Repair {
            search: match record.search {
                options::Search::Before => Search::Before,
                options::Search::After => Search::After,
            },
            stop: record.stop.as_ref().map(Into::into),
            from: (&record.from).into(),
            nearest: record.nearest,
        }
    }
}

impl From<Order> for options::Order {
    fn from(order: Order) -> Self {
        match order {
            Order::Any => options::Order::Any,
            Order::DependentFirst => options::Order::DependentFirst,
            Order::HeadFirst => options::Order::HeadFirst,
        }
    }
}

impl From<options::Order> for Order {
    fn from(record: options::Order) -> Self {
        match record {
            options::Order::Any => Order::Any,
            options::Order::DependentFirst => Order::DependentFirst,
            options::Order::HeadFirst => Order::HeadFirst,
        }
    }
}

impl From<&Condition> for options::Condition {
    fn from(condition: &Condition) -> Self {
        let Condition {
            deprel,
            not_deprel,
            upos,
            not_upos,
            xpos,
            not_xpos,
            feats,
            not_feats,
            lemma,
            not_lemma,
            form,
            not_form,
            capitalized,
        } = condition.clone();
        options::Condition {
            deprel,
            not_deprel,
            upos,
            not_upos,
            xpos,
            not_xpos,
            feats,
            not_feats,
            lemma,
            not_lemma,
            form,
            not_form,
            capitalized,
        }
    }
}

impl From<&options::Condition> for Condition {
    fn from(record: &options::Condition) -> Self {
        let options::Condition {
            deprel,
            not_deprel,
            upos,
            not_upos,
            xpos,
            not_xpos,
            feats,
            not_feats,
            lemma,
            not_lemma,
            form,
            not_form,
            capitalized,
        } = record.clone();
        Condition {
            deprel,
            not_deprel,
            upos,
            not_upos,
            xpos,
            not_xpos,
            feats,
            not_feats,
            lemma,
            not_lemma,
            form,
            not_form,
            capitalized,
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

/// A relation name of UD (`obl`, `compound:prt`).
fn check_deprel(deprel: &str) -> std::result::Result<(), String> {
    if !deprel.is_empty()
        && deprel
            .split(':')
            .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_lowercase() || c == '_'))
    {
        Ok(())
    } else {
        Err(format!(
            "`{deprel}` is not a UD relation (e.g. `obl`, `compound:prt`)"
        ))
    }
}

/// One of the 17 universal POS tags.
fn check_upos(upos: &str) -> std::result::Result<(), String> {
    if UPOS_TAGS.contains(&upos) {
        Ok(())
    } else {
        Err(format!(
            "`{upos}` is not a universal POS tag ({})",
            UPOS_TAGS.join(" ")
        ))
    }
}

/// One `Key=Value` feature.
fn check_feat(feat: &str) -> std::result::Result<(), String> {
    match feat.split_once('=') {
        Some((k, v)) if !k.is_empty() && !v.is_empty() && !feat.contains('|') => Ok(()),
        _ => Err(format!("`{feat}` is not a single `Key=Value` feature")),
    }
}

/// A non-empty word without spaces (lemmas, forms, XPOS tags).
fn check_word(word: &str) -> std::result::Result<(), String> {
    if word.is_empty() || word.contains(char::is_whitespace) {
        Err(format!("`{word}` must be a non-empty word without spaces"))
    } else {
        Ok(())
    }
}

/// A language code, or `*` for every language.
fn check_language(language: &str) -> std::result::Result<(), String> {
    if language == "*"
        || (!language.is_empty()
            && language
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-'))
    {
        Ok(())
    } else {
        Err(format!("`{language}` is not a language code"))
    }
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

    fn condition(&self, side: &str, table: ConditionToml) -> Result<Condition> {
        let k = |name: &str| format!("{side}.{name}");
        Ok(Condition {
            deprel: self.list(&k("deprel"), table.deprel, check_deprel)?,
            not_deprel: self.list(&k("not_deprel"), table.not_deprel, check_deprel)?,
            upos: self.list(&k("upos"), table.upos, check_upos)?,
            not_upos: self.list(&k("not_upos"), table.not_upos, check_upos)?,
            xpos: self.list(&k("xpos"), table.xpos, check_word)?,
            not_xpos: self.list(&k("not_xpos"), table.not_xpos, check_word)?,
            feats: self.list(&k("feats"), table.feats, check_feat)?,
            not_feats: self.list(&k("not_feats"), table.not_feats, check_feat)?,
            lemma: self.list(&k("lemma"), table.lemma, check_word)?,
            not_lemma: self.list(&k("not_lemma"), table.not_lemma, check_word)?,
            form: self.list(&k("form"), table.form, check_word)?,
            not_form: self.list(&k("not_form"), table.not_form, check_word)?,
            capitalized: table.capitalized,
        })
    }

    /// `languages = [...]`: `None` when absent or when it holds `*`.
    fn languages(
        &self,
        key: &str,
        codes: Option<Vec<Spanned<String>>>,
    ) -> Result<Option<Vec<String>>> {
        let Some(codes) = codes else { return Ok(None) };
        let codes = self.list(key, codes, check_language)?;
        Ok((!codes.iter().any(|s| s == "*")).then_some(codes))
    }

    fn order(&self, key: &str, value: Option<Spanned<String>>) -> Result<Order> {
        let Some(value) = value else {
            return Ok(Order::Any);
        };
        match value.get_ref().as_str() {
            "any" => Ok(Order::Any),
            "dependent_first" => Ok(Order::DependentFirst),
            "head_first" => Ok(Order::HeadFirst),
            other => Err(self.err(
                value.span(),
                key,
                format!("`{other}`: expected any, dependent_first or head_first"),
            )),
        }
    }

    /// A `repair` table (`at` names it in errors: `repair`, `pattern.repair`).
    fn repair(&self, at: &str, table: RepairToml) -> Result<Repair> {
        let search = match table.search.get_ref().as_str() {
            "before" => Search::Before,
            "after" => Search::After,
            other => {
                return Err(self.err(
                    table.search.span(),
                    &format!("{at}.search"),
                    format!("`{other}`: expected before or after"),
                ))
            }
        };
        let stop = match table.stop {
            Some(c) => Some(self.condition(&format!("{at}.stop"), c)?),
            None => None,
        };
        let from = self.condition(&format!("{at}.from"), table.from.unwrap_or_default())?;
        Ok(Repair {
            search,
            stop,
            from,
            nearest: table.nearest,
        })
    }

    /// One of phenomenon `name`'s `[[phenomenon.pattern]]`s.
    fn pattern(&self, name: &str, table: PatternToml) -> Result<Pattern> {
        let span = table.dependent.span();
        let dependent = self.condition("pattern.dependent", table.dependent.into_inner())?;
        if dependent == Condition::default() {
            return Err(self.err(
                span,
                "pattern.dependent",
                format!("a pattern of `{name}` needs at least one condition on the dependent"),
            ));
        }
        Ok(Pattern {
            languages: self.languages("pattern.languages", table.languages)?,
            order: self.order("pattern.order", table.order)?,
            dependent,
            head: self.condition("pattern.head", table.head.unwrap_or_default())?,
            repair: match table.repair {
                Some(r) => Some(self.repair("pattern.repair", r)?),
                None => None,
            },
        })
    }

    /// One `[[phenomenon]]`, its name already checked.
    fn phenomenon(
        &self,
        name: String,
        span: Range<usize>,
        table: PhenomenonToml,
    ) -> Result<Phenomenon> {
        let dependent = self.condition("dependent", table.dependent)?;
        if dependent == Condition::default() {
            return Err(self.err(
                span,
                "dependent",
                format!("phenomenon `{name}` needs at least one condition on the dependent"),
            ));
        }
        let first = Pattern {
            languages: None,
            order: self.order("order", table.order)?,
            dependent,
            head: self.condition("head", table.head.unwrap_or_default())?,
            repair: match table.repair {
                Some(r) => Some(self.repair("repair", r)?),
                None => None,
            },
        };
        let mut patterns = vec![first];
        for x in table.pattern {
            patterns.push(self.pattern(&name, x)?);
        }
        Ok(Phenomenon {
            description: table.description,
            languages: self.languages("languages", table.languages)?,
            name,
            patterns,
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
            let name = p.name.clone().into_inner();
            if let Err(e) = ldd_io::name::check(NameKind::Phenomenon, &name, "name") {
                let why = e.to_string();
                let why = why.strip_prefix("name: ").unwrap_or(&why).to_string();
                return Err(ctx.err(span, "name", why));
            }
            if !seen.insert(name.clone()) {
                let why = format!("phenomenon `{name}` is defined twice");
                return Err(ctx.err(span, "name", why));
            }
            if phenomena.len() == MAX_PHENOMENA {
                let why = format!("more than {MAX_PHENOMENA} phenomena (limit)");
                return Err(ctx.err(span, "name", why));
            }
            phenomena.push(ctx.phenomenon(name, span, p)?);
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
    /// languages; unknown names are errors), else those whose languages include `lang`;
    /// and of each, the patterns of `lang` ([`Phenomenon::for_language`]).
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
        for p in &mut self.phenomena {
            p.for_language(lang);
        }
        Ok(self)
    }

    /// The built-in default rules (`config/phenomena.toml`).
    pub fn builtin() -> Result<RuleSet> {
        Self::parse(BUILTIN_RULES, Path::new("config/phenomena.toml (built in)"))
    }

    /// The paper's rules, built in (`config/phenomena-paper.toml`: the rules of Choshen &
    /// Abend 2019, the defaults before issue 54), which `--paper-compat` runs.
    pub fn builtin_paper() -> Result<RuleSet> {
        Self::parse(
            BUILTIN_PAPER_RULES,
            Path::new("config/phenomena-paper.toml (built in)"),
        )
    }
}

impl Phenomenon {
    /// Whether the phenomenon runs by default for source language `lang`.
    pub fn applies_to(&self, lang: &str) -> bool {
        self.languages
            .as_ref()
            .is_none_or(|l| l.iter().any(|x| x == lang))
    }

    /// Keeps the patterns that run for source language `lang`: those written for it if
    /// there are any, else those written for every language.
    pub fn for_language(&mut self, lang: &str) {
        let own = |p: &Pattern| {
            p.languages
                .as_ref()
                .is_some_and(|l| l.iter().any(|x| x == lang))
        };
        if self.patterns.iter().any(own) {
            self.patterns.retain(own);
        } else {
            self.patterns.retain(|p| p.languages.is_none());
        }
    }
}

/// Whether `deprel` is `pattern` or a subtype of it (`obl` matches `obl:tmod`).
pub fn deprel_matches(pattern: &str, deprel: &str) -> bool {
    deprel
        .strip_prefix(pattern)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with(':'))
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::{options, Order, RuleSet};

    /// The manifest records an order as the rule file spells it, and reads it back.
    #[test]
    fn order_names_are_the_rule_file_spelling() {
        for o in [Order::Any, Order::DependentFirst, Order::HeadFirst] {
            let rec = options::Order::from(o);
            assert_eq!(serde_json::to_value(rec).unwrap(), o.name());
            assert_eq!(Order::from(rec), o);
        }
    }

    /// The default rules' top-level patterns are the paper's rules, and every phenomenon
    /// of one is in the other (the registry's phenomena name both).
    #[test]
    fn the_default_rules_start_from_the_papers() {
        let (now, paper) = (
            RuleSet::builtin().unwrap(),
            RuleSet::builtin_paper().unwrap(),
        );
        assert_eq!(now.phenomena.len(), paper.phenomena.len());
        assert_eq!(now.max_distance, paper.max_distance);
        for (a, b) in now.phenomena.iter().zip(&paper.phenomena) {
            assert_eq!(
                (&a.name, &a.description, &a.languages),
                (&b.name, &b.description, &b.languages)
            );
            assert_eq!(a.patterns[0], b.patterns[0], "{}", a.name);
            assert_eq!(b.patterns.len(), 1, "{}", b.name);
        }
        // The German and English patterns replace the paper's for those languages only.
        let de = now.clone().select(None, "de").unwrap();
        let particle = de.phenomena.iter().find(|p| p.name == "particle").unwrap();
        assert!(particle
            .patterns
            .iter()
            .all(|p| p.languages.as_deref() == Some(&["de".to_string()][..])));
        let nl = now.select(Some(&["particle".to_string()]), "nl").unwrap();
        assert_eq!(nl.phenomena[0].patterns, paper.phenomena[1].patterns);
    }

    /// The manifest's record of selected rules reads back as the same rules, patterns and
    /// repairs included.
    #[test]
    fn rules_round_trip_through_their_record() {
        for lang in ["de", "en", "fr"] {
            let r = RuleSet::builtin().unwrap().select(None, lang).unwrap();
            let rec = options::Rules::from(&r);
            let json = serde_json::to_string(&rec).unwrap();
            let back: options::Rules = serde_json::from_str(&json).unwrap();
            assert_eq!(RuleSet::from(&back), r, "{lang}");
        }
    }

    /// The new keys are checked like the old ones: errors name the file, the line and
    /// the key.
    #[test]
    fn bad_patterns_and_repairs_are_refused() {
        let head = "[[phenomenon]]\nname = \"p\"\n[phenomenon.dependent]\nupos = [\"ADP\"]\n";
        let err = |tail: &str| {
            RuleSet::parse(&format!("{head}{tail}"), Path::new("r.toml"))
                .unwrap_err()
                .to_string()
        };
        let e = err("[phenomenon.repair]\nsearch = \"sideways\"\n");
        assert!(
            e.contains("r.toml:6:") && e.contains("repair.search") && e.contains("before or after"),
            "{e}"
        );
        let e =
            err("[[phenomenon.pattern]]\nlanguages = [\"de\"]\n[phenomenon.pattern.dependent]\n");
        assert!(
            e.contains("pattern.dependent") && e.contains("at least one condition"),
            "{e}"
        );
        let e = err("[[phenomenon.pattern]]\n[phenomenon.pattern.dependent]\nxpos = [\"A B\"]\n");
        assert!(
            e.contains("r.toml:7:") && e.contains("pattern.dependent.xpos"),
            "{e}"
        );
        let e = err("[phenomenon.repair]\nsearch = \"before\"\nwithin = 3\n");
        assert!(e.contains("unknown field `within`"), "{e}");
        let e = err("[[phenomenon.pattern]]\nlanguages = [\"d e\"]\n[phenomenon.pattern.dependent]\nupos = [\"ADP\"]\n");
        assert!(e.contains("pattern.languages"), "{e}");
        let e = err("[phenomenon.repair]\nsearch = \"before\"\nstop = { upos = [\"PUNC\"] }\n");
        assert!(e.contains("repair.stop.upos"), "{e}");
    }
}
