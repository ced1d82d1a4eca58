//! `manifest.json` and `summary.csv`: what a run read, how, and what it wrote.
//!
//! The manifest holds no timestamps or timings, so the same inputs and options give
//! a byte-identical manifest.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::controls::SetControls;
use crate::corpus::FileInfo;
use crate::error::{Error, Result};
use crate::reorder::ReorderInfo;
use crate::rules::RuleSet;
use crate::sets::SetFiles;

/// Manifest format version.
pub const FORMAT_VERSION: u32 = 1;

/// The whole manifest.
#[derive(Debug, Serialize)]
pub struct Manifest {
    /// Manifest format version.
    pub format_version: u32,
    /// `ldd-sets` and its version.
    pub tool: Tool,
    /// Source and target language codes.
    pub languages: Languages,
    /// Input files with sizes and checksums.
    pub inputs: Inputs,
    /// Corpus statistics.
    pub corpus: CorpusStats,
    /// The rules that ran, as resolved.
    pub rules: RuleSet,
    /// How `.marked` files mark words.
    pub marker: &'static str,
    /// Every set written.
    pub sets: Vec<SetEntry>,
    /// How reordering sets were built (`None` if they were not).
    pub reorder: Option<ReorderInfo>,
    /// The control samples of every set.
    pub controls: Vec<SetControls>,
}

/// Tool name and version.
#[derive(Debug, Serialize)]
pub struct Tool {
    /// Always `ldd-sets`.
    pub name: &'static str,
    /// Crate version.
    pub version: &'static str,
}

impl Default for Tool {
    fn default() -> Self {
        Tool {
            name: "ldd-sets",
            version: env!("CARGO_PKG_VERSION"),
        }
    }
}

/// Language codes.
#[derive(Debug, Serialize, Deserialize, Clone)]
pub struct Languages {
    /// Source language (the parsed side).
    pub source: String,
    /// Target language.
    pub target: String,
}

/// The input files.
#[derive(Debug, Serialize)]
pub struct Inputs {
    /// Source side.
    pub source: FileInfo,
    /// Target side.
    pub target: FileInfo,
    /// Parse of the source side (`lines` = sentences).
    pub conllu: FileInfo,
}

/// Corpus statistics.
#[derive(Debug, Serialize, Default, Clone)]
pub struct CorpusStats {
    /// Corpus lines (= pairs = trees).
    pub lines: u64,
    /// Lines whose source or target is empty (never selected).
    pub empty_lines: u64,
    /// Source words (UD words) over all lines.
    pub source_words: u64,
}

/// One written set.
#[derive(Debug, Serialize, Clone)]
pub struct SetEntry {
    /// `lexical` or `reorder`.
    pub kind: &'static str,
    /// Phenomenon name (the output directory).
    pub phenomenon: String,
    /// Bucket name, e.g. `ge1`.
    pub bucket: String,
    /// Minimum distance of the bucket.
    pub min_distance: u32,
    /// Whether the bucket is `exactly` (eq) rather than `at least` (ge).
    pub exact: bool,
    /// Sentences in the set.
    pub sentences: u64,
    /// Matched pairs that qualify those sentences.
    pub pairs: u64,
    /// Mean source length in words (0 for an empty set).
    pub mean_source_words: f64,
    /// File names relative to the output directory.
    pub files: SetFiles,
}

/// Writes `summary.csv`: one row per set.
pub fn write_summary(path: &Path, sets: &[SetEntry]) -> Result<()> {
    let mut w = csv::Writer::from_path(path)
        .map_err(|e| Error::Data(format!("{}: {e}", path.display())))?;
    let res = (|| -> std::result::Result<(), csv::Error> {
        w.write_record([
            "phenomenon",
            "bucket",
            "sentences",
            "pairs",
            "mean_source_words",
        ])?;
        for s in sets {
            w.write_record([
                s.phenomenon.as_str(),
                s.bucket.as_str(),
                &s.sentences.to_string(),
                &s.pairs.to_string(),
                &format!("{:.2}", s.mean_source_words),
            ])?;
        }
        w.flush()?;
        Ok(())
    })();
    res.map_err(|e| Error::Data(format!("{}: {e}", path.display())))
}

/// Writes the manifest as pretty JSON.
pub fn write_manifest(path: &Path, m: &Manifest) -> Result<()> {
    let mut text = serde_json::to_string_pretty(m)
        .map_err(|e| Error::Data(format!("{}: {e}", path.display())))?;
    text.push('\n');
    std::fs::write(path, text).map_err(|e| Error::io(path, e))
}
