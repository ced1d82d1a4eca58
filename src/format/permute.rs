//! `permute.json`: what `ldd-sets permute` made and from what — the inputs, N, σ, the seed
//! and the split sizes — written beside the three settings it describes.

use serde::{Deserialize, Serialize};

/// The settings, in the order of the output folders.
pub const SETTINGS: [&str; 3] = ["regular", "permuted", "reversed"];

/// How σ is applied, as the record says it.
pub const DEFINITION: &str =
    "permuted: the source token at position i (0-based) moves to position permutation[i]; \
reversed: the token at position i moves to position N-1-i";

/// Pairs per split.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Splits {
    /// Training pairs.
    pub train: u64,
    /// Development pairs.
    pub dev: u64,
    /// Test pairs.
    pub test: u64,
}

/// The whole of `permute.json`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PermuteRecord {
    /// `ldd-sets VERSION`.
    pub tool: String,
    /// The source side as read (path, size, SHA-256, lines).
    pub source: ldd_io::FileInfo,
    /// The target side.
    pub target: ldd_io::FileInfo,
    /// Source language code.
    pub source_lang: String,
    /// Target language code.
    pub target_lang: String,
    /// N: the source length kept, in whitespace-separated tokens.
    pub length: usize,
    /// Seed of the split (and of σ when drawn).
    pub seed: u64,
    /// σ: the new position of each source token, 0-based.
    pub permutation: Vec<usize>,
    /// Where σ came from: `seed`, `given` or `paper`.
    pub permutation_from: String,
    /// How σ and the reversal are applied.
    pub definition: String,
    /// The settings written, one folder each.
    pub settings: Vec<String>,
    /// Pairs kept (source of N tokens, target not empty).
    pub pairs: u64,
    /// Pairs per split.
    pub splits: Splits,
}
