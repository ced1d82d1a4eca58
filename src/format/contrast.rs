//! `contrast`'s files: `items.jsonl` (one contrastive item per line), `contrast.json` (what
//! was made from what), and the same items in the forms the community's tools read
//! unmodified: ContraPro's `contrapro.json` ([`ContraProItem`]), LingEval97's
//! `lingeval97.json` ([`LingEvalItem`]) and ACES's rows ([`AcesRow`], `aces.jsonl` and
//! `aces.tsv`), with the mapping of our phenomena and variant types onto their categories
//! ([`LINGEVAL97`], [`ACES`]).

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

/// Our phenomena that have a LingEval97 category (one of its `evaluate.py`'s
/// `ERROR_CATEGORIES`): every variant of the phenomenon gets it. A variant of any other
/// phenomenon keeps our label `ldd-PHENOMENON-TYPE`, which `evaluate.py` skips (it counts
/// only its own categories).
pub const LINGEVAL97: [(&str, &str); 1] = [("particle", "verb_particle")];

/// Our variant types that have an ACES phenomenon (a key of `aces-eval`'s
/// `PHENOMENA_MAPPING`), with the top-level class ACES puts it in: a dropped dependent is
/// an omission, a moved particle or a swapped pair an ordering mismatch (a mistranslation).
/// `replaced` (a reflexive in another person or number) has none — ACES's classes are
/// accuracy errors, and agreement is a fluency error in MQM — so its variants are not
/// among ACES's rows.
pub const ACES: [(&str, &str, &str); 3] = [
    ("dropped", "omission", "omission"),
    ("moved", "ordering-mismatch", "mistranslation"),
    ("swapped", "ordering-mismatch", "mistranslation"),
];

/// Our fine label of a variant: `ldd-PHENOMENON-TYPE`.
pub fn label(phenomenon: &str, kind: &str) -> String {
    format!("ldd-{phenomenon}-{kind}")
}

/// An item as ContraPro's `evaluate.py` reads it (one element of `contrapro.json`'s
/// array): its category is `src pronoun:ref pronoun`, here the phenomenon and the set that
/// holds all its items (its lowest `ge` set), so that the category names the row of
/// `score`'s table with the same accuracy; its distance bins (0, 1, 2, 3, >3) read
/// `ante distance`, the locus's distance.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ContraProItem {
    /// The corpus (its file name without the pair and language).
    #[serde(rename = "document id")]
    pub document: String,
    /// The corpus line, 1-based.
    #[serde(rename = "segment id")]
    pub segment: u64,
    /// The source line.
    #[serde(rename = "src segment")]
    pub src_segment: String,
    /// The reference line.
    #[serde(rename = "ref segment")]
    pub ref_segment: String,
    /// The phenomenon (the first half of ContraPro's category).
    #[serde(rename = "src pronoun")]
    pub src_pronoun: String,
    /// The lowest `ge` set holding the item (the second half of ContraPro's category).
    #[serde(rename = "ref pronoun")]
    pub ref_pronoun: String,
    /// The locus's distance.
    #[serde(rename = "ante distance")]
    pub ante_distance: u32,
    /// Always `true`: both words of a locus are in the sentence.
    pub intrasegmental: bool,
    /// The source head word (ContraPro: the antecedent).
    #[serde(rename = "src ante phrase")]
    pub src_ante_phrase: String,
    /// The reference tokens linked to the head, space-separated.
    #[serde(rename = "ref ante phrase")]
    pub ref_ante_phrase: String,
    /// The variants, in the order of the plain files.
    pub errors: Vec<ContraProError>,
    /// Our item id.
    pub item: String,
}

/// A variant as ContraPro's `errors` list holds it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ContraProError {
    /// The variant.
    pub contrastive: String,
    /// What is at the locus in the variant (empty when dropped).
    pub replacement: String,
    /// Our error type.
    #[serde(rename = "type")]
    pub kind: String,
}

/// An item as LingEval97's `evaluate.py` and `json_to_plaintext.py` read it (one element of
/// `lingeval97.json`'s array).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LingEvalItem {
    /// The source line.
    pub source: String,
    /// The reference line.
    pub reference: String,
    /// `CORPUS.LINE` (1-based), as LingEval97's `newstest2009.1`.
    pub origin: String,
    /// The variants, in the order of the plain files.
    pub errors: Vec<LingEvalError>,
}

/// A variant as LingEval97's `errors` list holds it; `evaluate.py` counts each (reference,
/// variant) pair.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LingEvalError {
    /// Its category ([`LINGEVAL97`]), else our label `ldd-PHENOMENON-TYPE`.
    #[serde(rename = "type")]
    pub kind: String,
    /// The variant.
    pub contrastive: String,
    /// The locus's distance (its `evaluate.py` bins 0–15 and >15).
    pub distance: u32,
}

/// A row of ACES: the six fields of its published dataset (`aces.jsonl`, one object per
/// line; `aces.tsv` with this header) and our fine label and item.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AcesRow {
    /// The source line.
    pub source: String,
    /// The reference (the good translation).
    #[serde(rename = "good-translation")]
    pub good: String,
    /// The variant.
    #[serde(rename = "incorrect-translation")]
    pub incorrect: String,
    /// The corpus reference: here the good translation itself, which reference-based
    /// metrics therefore favour by construction (reference-free metrics are the fair test).
    pub reference: String,
    /// ACES's phenomenon ([`ACES`]).
    pub phenomena: String,
    /// `SRC-TGT`.
    pub langpair: String,
    /// Our fine label, `ldd-PHENOMENON-TYPE`.
    #[serde(rename = "ldd-phenomenon")]
    pub ldd_phenomenon: String,
    /// Our item id.
    #[serde(rename = "ldd-item")]
    pub ldd_item: String,
}

/// `aces.tsv`'s header: [`AcesRow`]'s fields.
pub const ACES_HEADER: &str = "source\tgood-translation\tincorrect-translation\treference\tphenomena\tlangpair\tldd-phenomenon\tldd-item";

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
    /// Rows of `aces.jsonl`: the variants of a type ACES has ([`ACES`]).
    #[serde(default)]
    pub aces_rows: u64,
    /// Rows of `aces.tsv`: those of `aces.jsonl` none of whose cells starts with `"` (such a
    /// cell reads back otherwise with a CSV reader's default quoting).
    #[serde(default)]
    pub aces_tsv_rows: u64,
    /// SHA-256 of `items.jsonl` as written: `score --contrast` reads no other items
    /// (empty in the records of older versions, whose items are refused).
    #[serde(default)]
    pub items_sha256: String,
}
