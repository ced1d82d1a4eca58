//! `scores.json`: the result of `ldd-sets score`, written by `score` and read by `report`
//! through these types. Only `corpus_lines`, `systems` and `rows` (and in a row `system`,
//! `metric`, `scope` and `bucket`) are required: scores written by older versions read,
//! with what they lack empty, `None` or `false`.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// Sets with fewer sentences than this are marked `small_set` (BLEU on fewer than about
/// 100 sentences is unreliable; sacreBLEU issue #278).
pub const SMALL_SET: u64 = 100;

/// The whole of `scores.json`.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Scores {
    /// The sets directory.
    #[serde(default)]
    pub sets: PathBuf,
    /// The reference file (`None` in scores written before it was recorded).
    #[serde(default)]
    pub reference: Option<PathBuf>,
    /// Further references (`--ref` given more than once): files of the whole corpus.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub extra_references: Vec<ReferenceFile>,
    /// Corpus lines.
    pub corpus_lines: u64,
    /// Systems, in column order; the first is the baseline of paired tests.
    pub systems: Vec<System>,
    /// Metric settings, one sentence.
    #[serde(default)]
    pub settings: Option<String>,
    /// The metrics, in table order.
    #[serde(default)]
    pub metrics: Vec<Metric>,
    /// Signature of every metric, by key.
    #[serde(default)]
    pub signatures: BTreeMap<String, String>,
    /// How intervals and p-values were computed.
    #[serde(default)]
    pub significance: Significance,
    /// Score rows: per system, metric, the corpus then every set in manifest order.
    pub rows: Vec<Row>,
    /// Distance trends per system, metric and phenomenon.
    #[serde(default)]
    pub trends: Vec<Trend>,
    /// The judgement of every locus (`--metrics locus`), in a file beside this one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loci: Option<LociFile>,
    /// The `score` command lines that wrote this file ([`super::command`]), oldest first:
    /// one, or more when earlier scores were kept (merged by system).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub commands: Vec<Vec<String>>,
}

/// A further reference file.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ReferenceFile {
    /// As given to `score`.
    pub path: PathBuf,
    /// SHA-256 of its bytes as read.
    pub sha256: String,
}

/// The file of locus judgements ([`crate::format::judged`]) that `scores.json` names.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct LociFile {
    /// Its name, in the directory of `scores.json`.
    pub file: String,
    /// SHA-256 of its bytes: `report` shows its items only while the file is unchanged.
    pub sha256: String,
    /// Its rows (loci × systems).
    pub rows: u64,
}

/// A system scored.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct System {
    /// Name (column header).
    pub name: String,
    /// Its translation of the whole corpus, as given to `score`.
    #[serde(default)]
    pub path: Option<PathBuf>,
    /// SHA-256 of that file's bytes as read: `report` shows its lines only if the file
    /// still has them (absent in scores written before it existed).
    #[serde(default)]
    pub sha256: Option<String>,
}

/// A metric scored: what it is, how it is named and how it was computed.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Metric {
    /// Key in CSV and JSON: `bleu`, `chrf`, `ribes`, or a `--seg-scores` NAME.
    pub key: String,
    /// Name in tables (`BLEU`, `chrF`, `RIBES`, NAME).
    pub label: String,
    /// Whether a higher score is better (direction of ranks and set-vs-control tests).
    pub higher_is_better: bool,
    /// Whether only sets of kind `reorder` (and the corpus) are scored.
    pub reorder_only: bool,
    /// How the number was computed.
    pub signature: String,
}

/// How significance was computed (all `None` in scores written before it existed).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Significance {
    /// The paired test between systems: `bs` (paired bootstrap) or `ar` (approximate
    /// randomisation); `None` with a single system.
    #[serde(default)]
    pub method: Option<String>,
    /// Resamples (`bs`) or trials (`ar`) of the paired test; bootstrap resamples without
    /// one.
    #[serde(default, rename = "n")]
    pub resamples: Option<usize>,
    /// Seed of all resampling.
    #[serde(default)]
    pub seed: Option<u64>,
    /// Level of every interval (e.g. 0.95).
    #[serde(default)]
    pub confidence: Option<f64>,
    /// Bootstrap resamples behind every interval, and null samples behind every
    /// set-vs-control test.
    #[serde(default)]
    pub bootstrap: Option<usize>,
    /// How a set is tested against its controls: `permutation within length strata` (the
    /// set's lines exchanged with corpus lines of the same source length), or `rank among
    /// the written controls (…why)`; absent in scores written before (a bootstrap of the
    /// set's own lines).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub controls_test: Option<String>,
}

/// One score row: a system × metric × (corpus or set).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Row {
    /// System name.
    pub system: String,
    /// Metric key (`bleu`, `chrf`, `ribes` or a `--seg-scores` NAME).
    pub metric: String,
    /// `corpus` (the whole corpus, baseline) or `set`.
    pub scope: String,
    /// Set kind (`lexical`, `reorder`); empty for the corpus.
    #[serde(default)]
    pub kind: String,
    /// Phenomenon (empty for the corpus).
    #[serde(default)]
    pub phenomenon: String,
    /// Bucket (`corpus` for the corpus).
    pub bucket: String,
    /// Minimum distance of the bucket.
    #[serde(default)]
    pub min_distance: Option<u32>,
    /// Whether the bucket is `eq` (exactly).
    #[serde(default)]
    pub exact: Option<bool>,
    /// Sentences scored.
    #[serde(default)]
    pub sentences: u64,
    /// Score (`None` for an empty set).
    #[serde(default)]
    pub score: Option<f64>,
    /// Controls scored.
    #[serde(default)]
    pub controls: usize,
    /// Control status from the manifest (`written`, `empty_set`, `pool_too_small`, or
    /// `none`).
    #[serde(default)]
    pub control_status: String,
    /// Mean control score.
    #[serde(default)]
    pub control_mean: Option<f64>,
    /// Sample SD of control scores.
    #[serde(default)]
    pub control_sd: Option<f64>,
    /// Number of controls scoring strictly better than the set (higher, or lower for a
    /// lower-is-better metric).
    #[serde(default)]
    pub rank: Option<usize>,
    /// Number of controls scoring exactly the set's score.
    #[serde(default)]
    pub ties: Option<usize>,
    /// Every control's score, in control order (JSON only).
    #[serde(default)]
    pub control_scores: Vec<f64>,
    /// Lower bound of the bootstrap interval of the score.
    #[serde(default)]
    pub ci_low: Option<f64>,
    /// Upper bound of the bootstrap interval of the score.
    #[serde(default)]
    pub ci_high: Option<f64>,
    /// Paired test against the baseline (the first system); `None` for the baseline.
    #[serde(default)]
    pub p_value: Option<f64>,
    /// Set score minus the controls' mean.
    #[serde(default)]
    pub control_diff: Option<f64>,
    /// Lower bound of the bootstrap interval of `control_diff`.
    #[serde(default)]
    pub control_diff_ci_low: Option<f64>,
    /// Upper bound of the bootstrap interval of `control_diff`.
    #[serde(default)]
    pub control_diff_ci_high: Option<f64>,
    /// One-sided bootstrap p-value that the system is worse on the set than on its
    /// length-matched controls.
    #[serde(default)]
    pub control_p_value: Option<f64>,
    /// `control_p_value` adjusted for the many tests (Benjamini–Hochberg over every set
    /// row of this system and metric that has one, nested sets counted): the false
    /// discovery rate at which the row would be called worse than its controls.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub control_q_value: Option<f64>,
    /// Fewer than [`SMALL_SET`] sentences: the score is unreliable.
    #[serde(default)]
    pub small_set: bool,
    /// The metric's signature (empty in scores written before it existed).
    #[serde(default)]
    pub signature: String,
    /// Locus accuracy only: the loci judged (those whose reference has a word for them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loci: Option<u64>,
    /// Locus accuracy only: the loci with no reference locus (not judged).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub no_reference: Option<u64>,
    /// Locus accuracy only: the loci whose output has no token for a word the reference
    /// has one for (not judged; absent in scores written before it existed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unaligned: Option<u64>,
    /// Locus accuracy only: the loci rendered by other words than the reference's, which
    /// the rule cannot vouch for (not judged; `locus:4`, absent before).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub differs: Option<u64>,
    /// Locus accuracy only: the loci judged on one of their two words only (not judged;
    /// `locus:4`, absent before).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partial: Option<u64>,
    /// Locus accuracy only: the loci's words judged one by one against comparable words
    /// (docs/evaluation.md, "A baseline for every locus accuracy").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub baseline: Option<Baseline>,
}

/// A set's locus words against the comparable words of the same sentences (the other
/// words with a locus word's part of speech), each judged by the locus rule as a word.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Baseline {
    /// Locus words judged.
    pub words: u64,
    /// Locus words the reference has a token for and the output none (not judged): a
    /// dropped particle shows here, not as an error.
    #[serde(default)]
    pub unaligned: u64,
    /// Their accuracy (×100).
    pub word_score: Option<f64>,
    /// Comparable words judged.
    pub comparable: u64,
    /// Their accuracy (×100): the baseline.
    pub comparable_score: Option<f64>,
    /// `word_score − comparable_score`.
    pub diff: Option<f64>,
    /// Newcombe's interval of `diff`, at the run's level.
    pub diff_ci_low: Option<f64>,
    /// Its upper bound.
    pub diff_ci_high: Option<f64>,
    /// Two-sided p-value of Fisher's exact test of `diff` (the pooled z-test before issue 64).
    pub p_value: Option<f64>,
    /// `p_value` adjusted for the many tests (Benjamini–Hochberg over every set row of
    /// this system that has one, nested sets counted).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub q_value: Option<f64>,
    /// The difference-in-differences against the baseline system (the first `--hyp`):
    /// this system's `diff` minus the first system's on the same set; `None` for the first
    /// system or where either is undefined.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub did: Option<f64>,
    /// Interval of `did` at the run's level.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub did_ci_low: Option<f64>,
    /// Its upper bound.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub did_ci_high: Option<f64>,
    /// Two-sided p-value of `did`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub did_p_value: Option<f64>,
}

impl Row {
    /// Whether the row is of a set (not the corpus).
    pub fn is_set(&self) -> bool {
        self.scope == "set"
    }

    /// Whether the row is of a small set: marked so, or (in scores written before the
    /// mark existed) fewer than [`SMALL_SET`] sentences.
    pub fn is_small(&self) -> bool {
        self.is_set() && (self.small_set || self.sentences < SMALL_SET)
    }

    /// Set score minus the controls' mean (recorded, else computed).
    pub fn diff(&self) -> Option<f64> {
        self.control_diff.or(match (self.score, self.control_mean) {
            (Some(s), Some(m)) if self.controls > 0 => Some(s - m),
            _ => None,
        })
    }
}

/// Distance trend of one phenomenon: correlation between minimum distance and score over
/// its non-empty `ge` sets.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Trend {
    /// System name.
    pub system: String,
    /// Metric key.
    pub metric: String,
    /// Phenomenon.
    pub phenomenon: String,
    /// `(min distance, score)` points used.
    #[serde(default)]
    pub points: Vec<(u32, f64)>,
    /// Spearman's rho (`None` for fewer than 2 points or constant scores).
    #[serde(default)]
    pub spearman: Option<f64>,
    /// Pearson's r (what the paper's Table 5 actually reports).
    #[serde(default)]
    pub pearson: Option<f64>,
    /// Bootstrap interval of Spearman's rho (lines of the phenomenon's `ge` sets resampled
    /// together).
    #[serde(default)]
    pub spearman_ci_low: Option<f64>,
    /// Upper bound.
    #[serde(default)]
    pub spearman_ci_high: Option<f64>,
    /// Bootstrap interval of Pearson's r.
    #[serde(default)]
    pub pearson_ci_low: Option<f64>,
    /// Upper bound.
    #[serde(default)]
    pub pearson_ci_high: Option<f64>,
    /// The trend net of length: `(min distance, difference)` points, the difference being
    /// the set's score minus its length-matched controls' mean (BLEU, chrF, …) or, for
    /// locus accuracy, the within-sentence difference (locus words minus comparable
    /// words, [`Baseline::diff`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub diff_points: Vec<(u32, f64)>,
    /// Spearman's rho of `diff_points` (`None` when undefined).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diff_spearman: Option<f64>,
    /// Two-sided p-value of `diff_spearman` against nested length-matched samples: the
    /// phenomenon's `ge` sets' lines exchanged with corpus lines of the same length, the
    /// sets kept nested (`ldd_eval::strata::null_groups`), each less its controls' mean;
    /// `None` without strata (BLEU, chrF, … only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diff_spearman_p: Option<f64>,
    /// Interval of `diff_spearman` at the run's level.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diff_spearman_ci_low: Option<f64>,
    /// Upper bound.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diff_spearman_ci_high: Option<f64>,
    /// The metric's signature (empty in scores written before it existed).
    #[serde(default)]
    pub signature: String,
}

impl Scores {
    /// The signature of a metric: recorded per metric, else on a row.
    pub fn signature(&self, metric: &str) -> Option<&str> {
        self.signatures.get(metric).map(String::as_str).or_else(|| {
            self.rows
                .iter()
                .find(|r| r.metric == metric && !r.signature.is_empty())
                .map(|r| r.signature.as_str())
        })
    }

    /// How a metric is named in tables: its recorded label, else its label in the metric
    /// registry ([`ldd_eval::metric::label`]), else the key itself.
    pub fn label<'a>(&'a self, key: &'a str) -> &'a str {
        match self.metrics.iter().find(|m| m.key == key) {
            Some(m) => &m.label,
            None => ldd_eval::metric::label(key),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A scores.json with only the required fields reads, and what it lacks is empty.
    #[test]
    fn minimal_scores_read_leniently() {
        let s: Scores = serde_json::from_str(
            r#"{"corpus_lines": 3, "systems": [{"name": "a"}],
                "rows": [{"system": "a", "metric": "comet", "scope": "set",
                          "phenomenon": "p", "bucket": "ge1", "sentences": 2, "score": 0.5,
                          "future_field": [1, 2]}]}"#,
        )
        .unwrap();
        let r = &s.rows[0];
        assert_eq!((r.ci_low, r.p_value, r.control_p_value), (None, None, None));
        assert!(!r.small_set && r.is_small(), "2 sentences < 100");
        assert_eq!(r.diff(), None);
        assert_eq!(r.metric, "comet");
        assert_eq!(s.label("comet"), "comet");
        assert_eq!(s.label("chrf"), "chrF");
        assert_eq!(s.signature("comet"), None);
        assert!(s.significance.method.is_none() && s.trends.is_empty());
        assert!(s.reference.is_none() && s.systems[0].sha256.is_none());
    }

    /// What is written reads back as the same value (one schema for writer and reader).
    #[test]
    fn written_scores_read_back_unchanged() {
        let mut s: Scores = serde_json::from_str(
            r#"{"corpus_lines": 1, "systems": [{"name": "a", "path": "h", "sha256": "00"}],
                "rows": [{"system": "a", "metric": "bleu", "scope": "corpus",
                          "bucket": "corpus", "sentences": 1, "score": 12.5,
                          "small_set": true, "signature": "sig"}],
                "trends": [{"system": "a", "metric": "bleu", "phenomenon": "p",
                            "points": [[1, 2.5], [3, 4.0]]}]}"#,
        )
        .unwrap();
        s.significance.seed = Some(7);
        let text = serde_json::to_string_pretty(&s).unwrap();
        let back: Scores = serde_json::from_str(&text).unwrap();
        assert_eq!(serde_json::to_string_pretty(&back).unwrap(), text);
        assert_eq!(back.trends[0].points, vec![(1, 2.5), (3, 4.0)]);
        assert_eq!(back.significance.seed, Some(7));
        assert_eq!(back.signature("bleu"), Some("sig"));
    }
}
