//! `contrast`'s files: `items.jsonl` (one contrastive item per line, close to ContraPro's
//! and LingEval97's items) and `contrast.json` (what was made from what).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// One item: a reference and its contrastive variants, which differ from it only at the
/// locus.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ContrastItem {
    /// `C000001`, …, in file order.
    pub item: String,
    /// The phenomenon.
    pub phenomenon: String,
    /// The buckets of the phenomenon's sets that hold the locus (`ge1`, `eq2`, …).
    pub sets: Vec<String>,
    /// The locus's distance (as in the sets' `locus.tsv`).
    pub distance: u32,
    /// 1-based corpus line.
    pub line: u64,
    /// The corpus's source line.
    pub source: String,
    /// The corpus's reference line.
    pub reference: String,
    /// Where the locus is.
    pub locus: ItemLocus,
    /// The variants, in the order of the plain files.
    pub variants: Vec<Variant>,
    /// The line of the reference in `contrast.SRC` / `contrast.TGT` (1-based); variant *k*
    /// is on the line `first_line + k`.
    pub first_line: u64,
}

/// The locus of an item: its source words and the reference tokens linked to them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ItemLocus {
    /// The dependent's word ID in the tree (reorder sets: the first marked link's word).
    pub dep: u32,
    /// Its form.
    pub dep_word: String,
    /// The head's word ID (reorder sets: the second marked link's word).
    pub head: Option<u32>,
    /// Its form.
    pub head_word: Option<String>,
    /// Positions (1-based) of the reference tokens linked to the dependent, in the
    /// reference as the aligner tokenizes it.
    pub ref_dep: Vec<u32>,
    /// The same for the head.
    pub ref_head: Vec<u32>,
}

/// A contrastive variant of the reference.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Variant {
    /// The error type: `dropped`, `moved`, `replaced` or `swapped`.
    #[serde(rename = "type")]
    pub kind: String,
    /// The variant.
    pub text: String,
    /// What was changed at the locus (the reference's tokens there).
    pub original: String,
    /// What is there in the variant (empty when dropped).
    pub replacement: String,
    /// `replaced` chosen by a tagger: the UD features it gave the original token (else
    /// absent).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub features: String,
}

/// The whole of `contrast.json`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ContrastRecord {
    /// `ldd-sets VERSION`.
    pub tool: String,
    /// SHA-256 of the sets' `manifest.json`.
    pub manifest_sha256: String,
    /// Source and target language codes.
    pub languages: [String; 2],
    /// Items written.
    pub items: u64,
    /// Variants written.
    pub variants: u64,
    /// Variants per error type.
    pub per_type: BTreeMap<String, u64>,
    /// Items per phenomenon.
    pub per_phenomenon: BTreeMap<String, u64>,
    /// Distinct loci without a variant (no reference token linked, or nothing to change).
    pub skipped: u64,
    /// How `replaced` variants were chosen: `word list`, or `features|model:SHA` (the
    /// target-language model's SHA-256, first 16 hex digits).
    #[serde(default)]
    pub replaced_by: String,
}
