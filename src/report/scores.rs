//! A lenient reader of `scores.json`: every field the report shows is optional, so
//! scores written by older (or newer) versions of `ldd-sets score` still render, with
//! "–" for what they lack (significance fields, signatures, confidence intervals).
//!
//! The rows are checked against the manifest of the sets they claim to score: a
//! `scores.json` left over from other sets is an error, not a wrong report.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::error::{Error, Result};
use crate::write::manifest::Manifest;

/// Largest `scores.json` read: 256 MiB.
const MAX_SCORES_BYTES: u64 = 256 << 20;

/// A system as `scores.json` lists it.
#[derive(Debug, Clone, Deserialize)]
pub struct System {
    /// Name (column header).
    pub name: String,
    /// Its translation of the whole corpus, as given to `score`.
    #[serde(default)]
    pub path: Option<PathBuf>,
    /// SHA-256 of that file when scored (absent in scores written before it existed).
    #[serde(default)]
    pub sha256: Option<String>,
}

/// How significance was computed (absent in scores written before it existed).
#[derive(Debug, Clone, Default, Deserialize)]
pub struct Significance {
    /// `bs` (paired bootstrap) or `ar` (approximate randomisation); `None`: not computed.
    #[serde(default)]
    pub method: Option<String>,
    /// Resamples.
    #[serde(default)]
    pub n: Option<u64>,
    /// Seed.
    #[serde(default)]
    pub seed: Option<u64>,
    /// Confidence level of the intervals (e.g. 0.95).
    #[serde(default)]
    pub confidence: Option<f64>,
}

/// One row: a system × metric × (corpus or set). Only `system`, `metric`, `scope` and
/// `bucket` are required.
#[derive(Debug, Clone, Deserialize)]
pub struct ScoreRow {
    /// System name.
    pub system: String,
    /// Metric key (`bleu`, `chrf`, `ribes`, or a user-named segment-level metric).
    pub metric: String,
    /// `corpus` or `set`.
    pub scope: String,
    /// Set kind (`lexical`, `reorder`).
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
    /// Whether the bucket is `eq`.
    #[serde(default)]
    pub exact: Option<bool>,
    /// Sentences scored.
    #[serde(default)]
    pub sentences: u64,
    /// The score.
    #[serde(default)]
    pub score: Option<f64>,
    /// Confidence interval of the score.
    #[serde(default)]
    pub ci_low: Option<f64>,
    /// Confidence interval of the score.
    #[serde(default)]
    pub ci_high: Option<f64>,
    /// Paired test against the baseline (the first system).
    #[serde(default)]
    pub p_value: Option<f64>,
    /// Controls scored.
    #[serde(default)]
    pub controls: usize,
    /// Control status (`written`, `empty_set`, `pool_too_small`, `none`).
    #[serde(default)]
    pub control_status: String,
    /// Mean of the controls' scores.
    #[serde(default)]
    pub control_mean: Option<f64>,
    /// Sample SD of the controls' scores.
    #[serde(default)]
    pub control_sd: Option<f64>,
    /// Controls scoring strictly higher than the set.
    #[serde(default)]
    pub rank: Option<usize>,
    /// Every control's score.
    #[serde(default)]
    pub control_scores: Vec<f64>,
    /// Set score minus the controls' mean.
    #[serde(default)]
    pub control_diff: Option<f64>,
    /// Confidence interval of `control_diff`.
    #[serde(default)]
    pub control_diff_ci_low: Option<f64>,
    /// Confidence interval of `control_diff`.
    #[serde(default)]
    pub control_diff_ci_high: Option<f64>,
    /// One-sided p-value: is the system worse on the set than on its controls?
    #[serde(default)]
    pub control_p_value: Option<f64>,
    /// Whether the set has fewer than 100 sentences (computed from `sentences` when absent).
    #[serde(default)]
    pub small_set: Option<bool>,
    /// The metric's signature.
    #[serde(default)]
    pub signature: Option<String>,
}

/// Sets below this many sentences are flagged as small (the contract of `score`).
pub const SMALL_SET: u64 = 100;

impl ScoreRow {
    /// Whether the row is of a set (not the corpus).
    pub fn is_set(&self) -> bool {
        self.scope == "set"
    }

    /// Whether the set is small: `small_set` when recorded, else fewer than 100 sentences.
    pub fn is_small(&self) -> bool {
        self.is_set() && self.small_set.unwrap_or(self.sentences < SMALL_SET)
    }

    /// Set score minus the controls' mean (recorded, else computed).
    pub fn diff(&self) -> Option<f64> {
        self.control_diff.or(match (self.score, self.control_mean) {
            (Some(s), Some(m)) if self.controls > 0 => Some(s - m),
            _ => None,
        })
    }
}

/// Distance trend of one phenomenon.
#[derive(Debug, Clone, Deserialize)]
pub struct TrendRow {
    /// System name.
    pub system: String,
    /// Metric key.
    pub metric: String,
    /// Phenomenon.
    pub phenomenon: String,
    /// `(min distance, score)` points.
    #[serde(default)]
    pub points: Vec<(f64, f64)>,
    /// Spearman's rho.
    #[serde(default)]
    pub spearman: Option<f64>,
    /// Its confidence interval.
    #[serde(default)]
    pub spearman_ci_low: Option<f64>,
    /// Its confidence interval.
    #[serde(default)]
    pub spearman_ci_high: Option<f64>,
    /// Pearson's r.
    #[serde(default)]
    pub pearson: Option<f64>,
    /// Its confidence interval.
    #[serde(default)]
    pub pearson_ci_low: Option<f64>,
    /// Its confidence interval.
    #[serde(default)]
    pub pearson_ci_high: Option<f64>,
}

/// `scores.json`, as far as the report uses it.
#[derive(Debug, Clone, Deserialize)]
pub struct Scores {
    /// Corpus lines the scores were computed on.
    pub corpus_lines: u64,
    /// The reference used.
    #[serde(default)]
    pub reference: Option<PathBuf>,
    /// Systems, in column order (the first is the baseline of `p_value`).
    pub systems: Vec<System>,
    /// Metric settings (one sentence; older scores).
    #[serde(default)]
    pub settings: Option<String>,
    /// Metric key → signature.
    #[serde(default)]
    pub signatures: BTreeMap<String, String>,
    /// How significance was computed.
    #[serde(default)]
    pub significance: Option<Significance>,
    /// Rows.
    pub rows: Vec<ScoreRow>,
    /// Trends.
    #[serde(default)]
    pub trends: Vec<TrendRow>,
}

impl Scores {
    /// Reads `path` and checks it against the manifest of the sets: same corpus size, every
    /// set row naming a set of the manifest with its sentence count, every row's system
    /// listed. Errors name the file (and the line, for JSON errors).
    pub fn read(path: &Path, m: &Manifest) -> Result<Scores> {
        let text = ldd_io::read_text(path, MAX_SCORES_BYTES)?;
        let s: Scores = serde_json::from_str(&text).map_err(|e| {
            Error::input(
                path,
                e.line() as u64,
                format!("not an ldd-sets scores.json: {e}"),
            )
        })?;
        let shown = ldd_io::text::shown(path);
        if s.corpus_lines != m.corpus.lines {
            return Err(Error::Data(format!(
                "{shown}: scores a corpus of {} lines but the sets' corpus has {} lines; \
                 re-run `ldd-sets score` on these sets",
                s.corpus_lines, m.corpus.lines
            )));
        }
        for r in &s.rows {
            if !s.systems.iter().any(|x| x.name == r.system) {
                return Err(Error::Data(format!(
                    "{shown}: a row names system `{}`, which is not in `systems`",
                    ldd_io::text::quote(&r.system, 100)
                )));
            }
            let finite = [r.score, r.control_mean, r.control_sd, r.ci_low, r.ci_high]
                .iter()
                .flatten()
                .chain(&r.control_scores)
                .all(|v| v.is_finite());
            if !finite {
                return Err(Error::Data(format!(
                    "{shown}: a score of {}/{} is not a finite number",
                    ldd_io::text::quote(&r.phenomenon, 100),
                    ldd_io::text::quote(&r.bucket, 100)
                )));
            }
            if !r.is_set() {
                continue;
            }
            match m.set(&r.phenomenon, &r.bucket) {
                Some(set) if set.sentences == r.sentences => {}
                Some(set) => {
                    return Err(Error::Data(format!(
                        "{shown}: set {}/{} has {} sentences there but {} in the manifest; \
                         the sets changed after scoring: re-run `ldd-sets score`",
                        r.phenomenon, r.bucket, r.sentences, set.sentences
                    )))
                }
                None => {
                    return Err(Error::Data(format!(
                        "{shown}: set `{}/{}` is not in the manifest; these scores are of other \
                         sets: re-run `ldd-sets score`",
                        ldd_io::text::quote(&r.phenomenon, 100),
                        ldd_io::text::quote(&r.bucket, 100)
                    )))
                }
            }
        }
        Ok(s)
    }

    /// The metric keys in the order they first appear.
    pub fn metrics(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for r in &self.rows {
            if !out.contains(&r.metric) {
                out.push(r.metric.clone());
            }
        }
        out
    }

    /// The row of a system, metric, phenomenon and bucket.
    pub fn row(
        &self,
        system: &str,
        metric: &str,
        phenomenon: &str,
        bucket: &str,
    ) -> Option<&ScoreRow> {
        self.rows.iter().find(|r| {
            r.system == system
                && r.metric == metric
                && r.phenomenon == phenomenon
                && r.bucket == bucket
        })
    }

    /// The corpus row of a system and metric.
    pub fn corpus(&self, system: &str, metric: &str) -> Option<&ScoreRow> {
        self.rows
            .iter()
            .find(|r| r.system == system && r.metric == metric && !r.is_set())
    }

    /// The signature of a metric: recorded per metric, else on a row, else `settings`.
    pub fn signature(&self, metric: &str) -> Option<&str> {
        self.signatures.get(metric).map(String::as_str).or_else(|| {
            self.rows
                .iter()
                .find(|r| r.metric == metric)
                .and_then(|r| r.signature.as_deref())
        })
    }
}

/// How a metric key is shown: `BLEU`, `chrF`, `RIBES`, or the key itself.
pub fn metric_label(key: &str) -> &str {
    match key {
        "bleu" => "BLEU",
        "chrf" => "chrF",
        "ribes" => "RIBES",
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A scores.json with only the required fields reads, and what it lacks is `None`.
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
        assert_eq!(
            (r.ci_low, r.p_value, r.control_p_value, r.small_set),
            (None, None, None, None)
        );
        assert!(r.is_small(), "2 sentences < 100");
        assert_eq!(r.diff(), None);
        assert_eq!(s.metrics(), vec!["comet".to_string()]);
        assert_eq!(metric_label("comet"), "comet");
        assert_eq!(s.signature("comet"), None);
        assert!(s.significance.is_none() && s.trends.is_empty());
    }
}
