//! Reordering LDD: pairs with an aligned word pair far apart (Choshen & Abend 2019, §4.1;
//! Birch 2011).
//!
//! The alignment comes from [`super::align`]. For every line, the link (i, j) between
//! tokens that both contain a letter with the largest |i − j| is found; a pair is in
//! `reorder/geK` if that distance is at least K.

use std::path::PathBuf;

use ldd_align::{max_reorder, Alignment, Corpus, ReorderHit};
use serde::{Deserialize, Serialize};

use super::align::AlignOptions;

/// The phenomenon name (output directory) of reordering sets.
pub const NAME: &str = "reorder";

/// How reordering sets are built.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct ReorderOptions {
    /// Minimum distances of the `geK` sets.
    pub buckets: Vec<u32>,
    /// How the corpus is aligned.
    #[serde(flatten)]
    pub align: AlignOptions,
    /// Use these Pharaoh alignments (source word index − target token index, 0-based,
    /// one line per corpus line) instead of aligning.
    pub alignments: Option<PathBuf>,
}

impl Default for ReorderOptions {
    fn default() -> Self {
        ReorderOptions {
            buckets: vec![5, 10, 15, 20],
            align: AlignOptions::default(),
            alignments: None,
        }
    }
}

impl ReorderOptions {
    /// The bucket thresholds, ascending, without repeats.
    pub fn thresholds(&self) -> Vec<u32> {
        let mut b = self.buckets.clone();
        b.sort_unstable();
        b.dedup();
        b
    }
}

/// What alignment produced, for the manifest.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct ReorderInfo {
    /// The options used.
    pub options: ReorderOptions,
    /// Source tokens: always the UD words of the tree.
    pub source_tokens: String,
    /// Target tokens: aligner tokenizer or whitespace.
    pub target_tokens: String,
    /// Sentence pairs the aligner was trained on (0 with external alignments or a loaded
    /// model).
    pub trained_pairs: u64,
    /// Pairs left unaligned because a side has more than `max_tokens` tokens.
    #[serde(default)]
    pub too_long: u64,
    /// Lines with at least one qualifying link.
    pub lines_with_links: u64,
    /// Corpus-wide alignment file (Pharaoh) and per-line maximum distances.
    pub files: ReorderFiles,
}

/// Corpus-wide reorder files.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct ReorderFiles {
    /// Pharaoh alignments of every corpus line.
    pub alignments: String,
    /// `id, distance, src_index, src_word, tgt_index, tgt_word` for every line with a link.
    pub max_distance: String,
}

impl ReorderFiles {
    /// The file names used by ldd-sets.
    pub fn standard() -> Self {
        ReorderFiles {
            alignments: format!("{NAME}/alignments.txt"),
            max_distance: format!("{NAME}/max_distance.tsv"),
        }
    }
}

/// The largest reordering of every pair (`None`: no link between word tokens).
pub fn measure(pairs: &Corpus, alignments: &[Alignment]) -> Vec<Option<ReorderHit>> {
    (0..pairs.len())
        .map(|k| max_reorder(&pairs.src_tokens(k), &pairs.tgt_tokens(k), &alignments[k]))
        .collect()
}
