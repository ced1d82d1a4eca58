//! The options a run was made with, as `manifest.json` records them: the rules
//! ([`Rules`]), how reordering sets were built ([`ReorderInfo`], with the aligner's
//! [`Align`]) and how controls were drawn ([`Controls`]).
//!
//! These are records, apart from the stage types they describe (`detect::rules::RuleSet`,
//! `detect::reorder::ReorderOptions`, `align::AlignOptions`,
//! `sample::ControlOptions`): each stage converts its type to and from its record, so a
//! field renamed in a stage is a compile error there, and the file changes only when a
//! record here does.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// The rules that ran, as resolved.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct Rules {
    /// Where the rules were read from.
    pub source: PathBuf,
    /// Largest bucket: `ge0..=geN` and `eq0..=eqN` are written.
    pub max_distance: u32,
    /// The phenomena, in file order.
    pub phenomena: Vec<Phenomenon>,
}

/// One phenomenon: a named dependent–head rule.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct Phenomenon {
    /// Name, the output directory.
    pub name: String,
    /// Free text for humans.
    pub description: String,
    /// Source languages it runs on by default; `None` means every language.
    pub languages: Option<Vec<String>>,
    /// Required word order.
    pub order: Order,
    /// Condition on the dependent word (of its first pattern).
    pub dependent: Condition,
    /// Condition on its head (of its first pattern).
    pub head: Condition,
    /// The source languages the first pattern was written for (absent: every language).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pattern_languages: Option<Vec<String>>,
    /// How the first pattern re-attaches a dependent whose parser head fails (absent: it
    /// does not).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repair: Option<Repair>,
    /// Its further patterns, tried in order after the first (absent: none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub patterns: Vec<Pattern>,
}

/// A further pattern of a phenomenon (`[[phenomenon.pattern]]`).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct Pattern {
    /// Source languages it was written for; `None`: every language.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub languages: Option<Vec<String>>,
    /// Required word order.
    #[serde(default)]
    pub order: Order,
    /// Condition on the dependent word.
    pub dependent: Condition,
    /// Condition on its head.
    #[serde(default)]
    pub head: Condition,
    /// How a dependent whose parser head fails is re-attached (absent: it is not).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repair: Option<Repair>,
}

/// Where a re-attached dependent's head is looked for.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Search {
    /// The nearest fitting word before the dependent.
    Before,
    /// The nearest fitting word after it.
    After,
}

/// A pattern's repair of the parser's attachment.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct Repair {
    /// Where the new head is looked for.
    pub search: Search,
    /// Words the search does not pass (absent: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop: Option<Condition>,
    /// Only dependents whose parser head meets this are re-attached.
    #[serde(default, skip_serializing_if = "Condition::is_empty")]
    pub from: Condition,
    /// Also re-attach to a fitting word between the dependent and a fitting parser head.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub nearest: bool,
}

/// Relative order of dependent and head.
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Order {
    /// Either order.
    #[default]
    Any,
    /// The dependent precedes its head.
    DependentFirst,
    /// The head precedes its dependent.
    HeadFirst,
}

/// Conditions on one word (empty lists are not written).
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(default)]
pub struct Condition {
    /// Relations.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub deprel: Vec<String>,
    /// Relations the word must not have.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_deprel: Vec<String>,
    /// Universal POS tags.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub upos: Vec<String>,
    /// Universal POS tags the word must not have.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_upos: Vec<String>,
    /// Language-specific POS tags (the tagger's tagset).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub xpos: Vec<String>,
    /// Language-specific POS tags the word must not have.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_xpos: Vec<String>,
    /// Features that must all be present.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub feats: Vec<String>,
    /// Features none of which may be present.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_feats: Vec<String>,
    /// Lemmas.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub lemma: Vec<String>,
    /// Lemmas the word must not have.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_lemma: Vec<String>,
    /// Word forms.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub form: Vec<String>,
    /// Word forms the word must not have.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_form: Vec<String>,
    /// Capitalized inside its sentence (absent: either).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub capitalized: Option<bool>,
}

impl Condition {
    /// Whether it imposes nothing.
    pub fn is_empty(&self) -> bool {
        *self == Condition::default()
    }
}

/// A per-sentence reordering measure.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Measure {
    /// Largest `|i − j|` of a word link.
    Position,
    /// Largest distance of two crossing links.
    Crossing,
    /// Normalised Kendall tau distance, in percent.
    Kendall,
    /// One minus the fuzzy reordering score, in percent.
    Fuzzy,
}

fn legacy_measure() -> Measure {
    Measure::Position
}

/// How reordering sets were built.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Reorder {
    /// The measure that builds the `geK` sets (manifests written before measures existed
    /// used `position`).
    #[serde(default = "legacy_measure")]
    pub measure: Measure,
    /// The paper's released criterion (`--paper-compat`).
    #[serde(default)]
    pub paper_compat: bool,
    /// Thresholds of the `geK` sets, in the measure's unit.
    pub buckets: Vec<u32>,
    /// How the corpus was aligned.
    #[serde(flatten)]
    pub align: Align,
    /// Pharaoh alignments read instead of aligning.
    pub alignments: Option<PathBuf>,
}

/// Which alignment the detection used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Direction {
    /// Source→target model only.
    Forward,
    /// Target→source model only.
    Reverse,
    /// Links both directional models agree on.
    Intersection,
    /// Links of either model.
    Union,
    /// grow-diag-final-and symmetrisation.
    GrowDiagFinalAnd,
}

/// Which alignment model aligned the corpus.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ModelType {
    /// The HMM by agreement.
    Hmm,
    /// fast_align's reparameterised IBM Model 2.
    FastAlign,
}

/// How the corpus was aligned.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Align {
    /// The alignment model (manifests before it was recorded: fast_align's, the only one).
    #[serde(default = "fast_align")]
    pub model_type: ModelType,
    /// Which alignment was used.
    pub direction: Direction,
    /// EM iterations.
    pub iterations: u32,
    /// Extra training data (prefixes).
    pub train: Vec<PathBuf>,
    /// Models loaded instead of training (prefix).
    pub model: Option<PathBuf>,
    /// Where the trained models were saved (prefix).
    pub save_model: Option<PathBuf>,
    /// Whether the sides were split on whitespace.
    pub pretokenized: bool,
    /// Longest side aligned, in tokens (manifests before it was recorded: 1000).
    #[serde(default = "default_max_tokens")]
    pub max_tokens: usize,
    /// Whether tokens were lowercased.
    #[serde(default)]
    pub lowercase: bool,
    /// Pairs of the training data the aligner was trained on, at most (`--align-train-max`;
    /// absent: all).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub train_max: Option<u64>,
}

fn default_max_tokens() -> usize {
    1000
}

fn fast_align() -> ModelType {
    ModelType::FastAlign
}

/// How controls are drawn (recorded in a shard's manifest for `merge`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Controls {
    /// Number of control corpora.
    pub count: usize,
    /// Seed.
    pub seed: u64,
    /// Largest length difference in words.
    pub tolerance: u32,
    /// Whether set members could be drawn.
    pub allow_set_members: bool,
}

/// How many lines each threshold of a measure selects.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct MeasureSizes {
    /// The measure.
    pub measure: Measure,
    /// Whether it built the sets (its thresholds are then the sets').
    pub builds_sets: bool,
    /// Thresholds.
    pub buckets: Vec<u32>,
    /// Lines at or above each threshold.
    pub lines: Vec<u64>,
}

/// What alignment produced, for the manifest.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct ReorderInfo {
    /// The options used.
    pub options: Reorder,
    /// Source tokens: always the UD words of the tree.
    pub source_tokens: String,
    /// Target tokens: aligner tokenizer or whitespace.
    pub target_tokens: String,
    /// Sentence pairs the aligner was trained on (0 with external alignments or a loaded
    /// model).
    pub trained_pairs: u64,
    /// Pairs left out of training because a side has more than `max_tokens` tokens
    /// (aligned afterwards one at a time).
    #[serde(default)]
    pub too_long: u64,
    /// Lines with at least one link between word tokens.
    pub lines_with_links: u64,
    /// Set sizes of every measure.
    #[serde(default)]
    pub sizes: Vec<MeasureSizes>,
    /// Corpus-wide alignment file (Pharaoh) and per-line measures.
    pub files: ReorderFiles,
}

/// Corpus-wide reorder files.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct ReorderFiles {
    /// Pharaoh alignments of every corpus line.
    pub alignments: String,
    /// `reorder.tsv`: every line's measures and the links that produced them (older runs:
    /// `max_distance.tsv`).
    #[serde(alias = "max_distance")]
    pub measures: String,
    /// The aligner's confidence in every link of `alignments` (the HMM's posteriors, one
    /// line per corpus line, one value per link in its order); `None` when the aligner has
    /// none (fast_align's model, alignments given with `--alignments`, older runs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub posteriors: Option<String>,
    /// The aligner that aligned the corpus, saved in the output so that every later
    /// command (`score --metrics locus`, `sheets`) aligns systems' outputs with it: the
    /// prefix of its files ([`crate::layout::model_files`]); `None` with `--alignments`
    /// and in older runs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
}

impl ReorderFiles {
    /// The file names used by ldd-sets.
    pub fn standard() -> Self {
        ReorderFiles {
            alignments: crate::layout::reorder_alignments(),
            measures: crate::layout::reorder_measures(),
            posteriors: None,
            model: None,
        }
    }
}
