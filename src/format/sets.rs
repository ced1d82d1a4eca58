//! What `manifest.json` records of every set: its files ([`SetEntry`]) and its controls
//! ([`SetControls`]). The write stage and the sample stage build these records; `score`,
//! `slice`, `merge` and `report` read them.

use serde::{Deserialize, Serialize};

use crate::layout;

/// What a set is built from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SetKind {
    /// A phenomenon of the rules, found in the source tree.
    Lexical,
    /// Reordering found by word alignment.
    Reorder,
}

impl SetKind {
    /// The name used in the manifest and in score outputs.
    pub fn name(self) -> &'static str {
        match self {
            SetKind::Lexical => "lexical",
            SetKind::Reorder => "reorder",
        }
    }
}

/// Paths of a set's files, relative to the output directory.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct SetFiles {
    /// Source sentences.
    pub source: String,
    /// Target sentences.
    pub target: String,
    /// 1-based corpus line ids.
    pub ids: String,
    /// Source trees.
    pub conllu: String,
    /// Marked source tokens.
    pub marked: String,
    /// Marked target tokens (reorder sets only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub marked_target: Option<String>,
    /// The locus of every line: its source words and the reference words aligned to them
    /// ([`crate::format::locus`]; absent in older runs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub locus: Option<String>,
}

impl SetFiles {
    /// File names of set `dir/name` for the two languages.
    pub fn new(dir: &str, name: &str, src: &str, tgt: &str) -> SetFiles {
        let p = |ext: &str| layout::set_file(dir, name, ext);
        SetFiles {
            source: p(src),
            target: p(tgt),
            ids: p(layout::IDS),
            conllu: p(layout::CONLLU),
            marked: p(&layout::marked(src)),
            marked_target: None,
            locus: Some(p(layout::LOCUS)),
        }
    }

    /// Every line-aligned file name (one line per set line), in the order
    /// [`crate::pipeline::write::set::SetWriter`] writes them; the locus file, with its
    /// header and a row per locus, is apart.
    pub fn all(&self) -> Vec<&str> {
        let mut v = vec![
            self.source.as_str(),
            self.target.as_str(),
            self.ids.as_str(),
            self.conllu.as_str(),
            self.marked.as_str(),
        ];
        v.extend(self.marked_target.as_deref());
        v
    }
}

/// One written set (manifest entry).
#[derive(Debug, Serialize, Deserialize, Clone, PartialEq)]
pub struct SetEntry {
    /// `lexical` or `reorder`.
    pub kind: SetKind,
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

/// What happened to a set's controls.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ControlStatus {
    /// `count` controls were written.
    Written,
    /// The set is empty: nothing to match.
    EmptySet,
    /// The eligible pool is smaller than the set: no controls (see `note`).
    PoolTooSmall,
}

impl ControlStatus {
    /// The name used in the manifest and in score outputs.
    pub fn name(self) -> &'static str {
        match self {
            ControlStatus::Written => "written",
            ControlStatus::EmptySet => "empty_set",
            ControlStatus::PoolTooSmall => "pool_too_small",
        }
    }
}

/// Out-of-tolerance draws of one control for set sentences of one length.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShortfallEntry {
    /// Control number (1-based).
    pub control: usize,
    /// Length of the set sentences concerned.
    pub set_length: u32,
    /// How many partners fell outside the tolerance.
    pub count: u32,
    /// Partner lengths actually used, compact histogram `"len:count ..."`.
    pub lengths_used: String,
}

/// Controls written for one set (manifest entry).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SetControls {
    /// Phenomenon name.
    pub phenomenon: String,
    /// Bucket name.
    pub bucket: String,
    /// Whether controls were written, and if not why.
    pub status: ControlStatus,
    /// Explanation when no controls were written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Sentences in the set (= in each control).
    pub sentences: u64,
    /// Controls written (0 unless `status` is `written`).
    pub count: usize,
    /// The run's `--seed`.
    pub seed: u64,
    /// The seed this set's controls were drawn with (derived from `seed` and the name).
    pub stream_seed: u64,
    /// Largest allowed length difference in words.
    pub tolerance: u32,
    /// Whether set members could be drawn (`--controls-include-set`).
    pub include_set: bool,
    /// Path prefix of the control files relative to the output directory: control `k`
    /// is `<prefix>.<k>.ids`, `<prefix>.<k>.<src>`, `<prefix>.<k>.<tgt>`.
    pub prefix: String,
    /// The files of each control written, in control order (absent in manifests written
    /// before they were recorded: then [`ControlFiles::new`] of the prefix).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub files: Vec<ControlFiles>,
    /// Source-length histogram of the set, `"len:count len:count ..."` ascending.
    pub set_lengths: String,
    /// Source-length histogram of each control (same form), in control order.
    pub control_lengths: Vec<String>,
    /// Total out-of-tolerance draws over all controls (0 = every partner within
    /// the tolerance).
    pub shortfall_total: u64,
    /// The out-of-tolerance draws, by control and set length.
    pub shortfalls: Vec<ShortfallEntry>,
}

/// The files of one control, relative to the output directory.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ControlFiles {
    /// Its corpus line ids, ascending.
    pub ids: String,
    /// Its source lines.
    pub source: String,
    /// Its target lines.
    pub target: String,
}

impl ControlFiles {
    /// The files of control number `control` (1-based) of the set whose controls have
    /// `prefix`, for the languages `(source, target)`.
    pub fn new(prefix: &str, control: usize, langs: (&str, &str)) -> ControlFiles {
        ControlFiles {
            ids: layout::control_file(prefix, control, layout::IDS),
            source: layout::control_file(prefix, control, langs.0),
            target: layout::control_file(prefix, control, langs.1),
        }
    }
}

impl SetControls {
    /// The ids file of control number `control` (1-based): as recorded, or by the layout
    /// for manifests that record none.
    pub fn ids_file(&self, control: usize) -> String {
        match self.files.get(control.wrapping_sub(1)) {
            Some(f) => f.ids.clone(),
            None => layout::control_file(&self.prefix, control, layout::IDS),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kind_names_are_the_serialized_names() {
        for k in [SetKind::Lexical, SetKind::Reorder] {
            assert_eq!(serde_json::to_value(k).unwrap(), k.name());
        }
    }

    /// Control files are read as the manifest records them, and by the layout from
    /// manifests that record none.
    #[test]
    fn control_ids_file_is_the_recorded_one_or_the_layout_one() {
        let json = r#"{"phenomenon": "p", "bucket": "ge1", "status": "written",
            "sentences": 1, "count": 2, "seed": 0, "stream_seed": 0, "tolerance": 1,
            "include_set": false, "prefix": "p/controls/ge1", "set_lengths": "",
            "control_lengths": [], "shortfall_total": 0, "shortfalls": []}"#;
        let mut c: SetControls = serde_json::from_str(json).unwrap();
        assert_eq!(c.ids_file(2), "p/controls/ge1.2.ids");
        c.files = (1..=2)
            .map(|k| ControlFiles::new(&c.prefix, k, ("de", "en")))
            .collect();
        assert_eq!(c.files[0].target, "p/controls/ge1.1.en");
        c.files[1].ids = "elsewhere.ids".into();
        assert_eq!(c.ids_file(2), "elsewhere.ids");
    }

    #[test]
    fn status_names_are_the_serialized_names() {
        for s in [
            ControlStatus::Written,
            ControlStatus::EmptySet,
            ControlStatus::PoolTooSmall,
        ] {
            assert_eq!(serde_json::to_value(s).unwrap(), s.name());
        }
    }
}
