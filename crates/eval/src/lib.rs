//! Evaluation library for ldd-sets (Choshen & Abend, CoNLL 2019).
//!
//! * [`bleu`], [`chrf`] and [`ter`]: bit-for-bit reimplementations of sacreBLEU 2.4.3's
//!   `BLEU`, `chrF`/`chrF++` and `TER` with every setting they have (tokenizers
//!   [`tokenize`], MeCab loaded at run time [`mecab`], lowercasing, smoothing, orders,
//!   several references), defaulting to sacreBLEU's defaults.
//! * [`metric`]: the registry of corpus metrics (key, label, scale, signature, per-line
//!   statistics) and their settings ([`metric::Settings`]), which `score` and the report
//!   iterate over.
//! * [`ribes`]: RIBES (Isozaki et al. 2010) following NTT's `RIBES.py` 1.03.
//! * [`stats`]: Spearman/Pearson correlation and summaries of control scores;
//!   [`agreement`]: an automatic judgement against people's (MCC, κ, a permutation test
//!   within groups), Kendall's τ-b, and two proportions compared.
//! * [`controls`]: length-matched control corpora (an optimal ±1 matching, [`matching`])
//!   with a deterministic in-crate PRNG ([`rng`]).
//! * [`significance`]: bootstrap intervals, paired bootstrap and approximate randomization
//!   (sacreBLEU 2.x semantics) on per-line statistics; [`MeanStats`] makes any
//!   segment-level metric (COMET, MetricX, …) a corpus metric: the mean.
//! * [`strata`]: a set against samples of its size — the null distribution of its score
//!   when its lines are exchanged with corpus lines of the same source length, and the
//!   one-sided permutation p-value.
//!
//! Every metric is computed from per-line *sufficient statistics* ([`SufficientStats`]):
//! compute them once per corpus line, then score any subset of lines by summing its lines'
//! statistics ([`sum_ids`]) and finalising ([`SufficientStats::score`], with the metric's
//! finalisation settings, [`SufficientStats::Params`]).

pub mod agreement;
pub mod bleu;
pub mod chrf;
pub mod controls;
pub mod matching;
pub mod mecab;
pub mod metric;
pub mod ribes;
pub mod rng;
pub mod significance;
pub mod stats;
pub mod strata;
pub mod ter;
pub mod tokenize;
pub mod tokenize13a;
mod util;

pub use bleu::{Bleu, BleuScore, BleuScoring, BleuStats, Smooth};
pub use chrf::{Chrf, ChrfScoring, ChrfStats};
pub use ter::{Ter, TerStats};

/// The sacreBLEU version whose scores and signatures ldd-eval reproduces.
pub const SACREBLEU_VERSION: &str = "2.4.3";
pub use controls::{sample_controls, Control, ControlOptions, Controls, Shortfall};
pub use metric::{MetricDef, PerLine, METRICS};

/// Errors of this crate.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EvalError {
    /// Hypothesis and reference corpora differ in line count.
    #[error("hypothesis has {hyp} lines but reference has {reference}")]
    LengthMismatch {
        /// Hypothesis line count.
        hyp: usize,
        /// Reference line count.
        reference: usize,
    },
    /// A 1-based line id is 0 or larger than the corpus.
    #[error("line id {id} out of range 1..={len}")]
    IdOutOfRange {
        /// The offending id.
        id: u32,
        /// Corpus size in lines.
        len: usize,
    },
    /// Set ids must be strictly ascending (which also rules out duplicates).
    #[error("set ids must be strictly ascending: {id} follows {prev}")]
    IdsNotAscending {
        /// Previous id.
        prev: u32,
        /// Offending id.
        id: u32,
    },
    /// RIBES needs at least one reference word.
    #[error("RIBES reference has no words")]
    EmptyReference,
    /// The eligible control pool (non-empty lines, minus set members unless allowed)
    /// is smaller than the challenge set.
    #[error("control pool has {available} eligible lines but the set needs {needed}")]
    PoolTooSmall {
        /// Set size.
        needed: usize,
        /// Eligible lines.
        available: usize,
    },
    /// A resource a setting needs is missing or not the right one (MeCab and its
    /// dictionary for `ja-mecab` / `ko-mecab`); the message says how to install it.
    #[error("{0}")]
    Resource(String),
    /// A metric setting out of range (`--max-ngram-order 9`, `--smooth-value` for `exp`).
    #[error("{0}")]
    Setting(String),
}

/// Per-line sufficient statistics of a corpus-level metric: summing the statistics of any
/// set of lines and calling [`score`](SufficientStats::score) gives the metric on those lines.
pub trait SufficientStats: Clone + Default {
    /// How summed statistics are finalised (BLEU's order and smoothing, chrF's orders and
    /// β; `()` for metrics without settings).
    type Params: Sync;
    /// Adds another line's (or subset's) statistics into `self`.
    fn add(&mut self, other: &Self);
    /// Adds `other` `times` times (a line drawn several times by a bootstrap resample).
    fn add_times(&mut self, other: &Self, times: u64) {
        for _ in 0..times {
            self.add(other);
        }
    }
    /// Finalises summed statistics into a score (BLEU/chrF/TER: 0–100, RIBES: 0–1).
    fn score(&self, params: &Self::Params) -> f64;
}

/// A segment-level metric aggregated as the mean of its per-line values.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct MeanStats {
    /// Sum of the values.
    pub sum: f64,
    /// Number of values.
    pub count: u64,
}

impl MeanStats {
    /// One line's value.
    pub fn one(value: f64) -> Self {
        MeanStats {
            sum: value,
            count: 1,
        }
    }
}

impl SufficientStats for MeanStats {
    type Params = ();

    fn add(&mut self, other: &Self) {
        self.sum += other.sum;
        self.count += other.count;
    }

    fn add_times(&mut self, other: &Self, times: u64) {
        self.sum += other.sum * times as f64;
        self.count += other.count * times;
    }

    /// The mean (0 for no lines).
    fn score(&self, _: &()) -> f64 {
        if self.count == 0 {
            0.0
        } else {
            self.sum / self.count as f64
        }
    }
}

/// Sums the statistics of the lines with the given 1-based `ids` (any order, repeats allowed).
pub fn sum_ids<T: SufficientStats>(per_line: &[T], ids: &[u32]) -> Result<T, EvalError> {
    let mut acc = T::default();
    for &id in ids {
        let line = line_index(id, per_line.len())?;
        acc.add(&per_line[line]);
    }
    Ok(acc)
}

/// Scores the lines with the given 1-based `ids`: [`sum_ids`] then [`SufficientStats::score`].
pub fn score_ids<T: SufficientStats>(
    per_line: &[T],
    params: &T::Params,
    ids: &[u32],
) -> Result<f64, EvalError> {
    Ok(sum_ids(per_line, ids)?.score(params))
}

/// Sums all lines' statistics.
pub fn sum_all<T: SufficientStats>(per_line: &[T]) -> T {
    let mut acc = T::default();
    for s in per_line {
        acc.add(s);
    }
    acc
}

/// Converts a 1-based id to a 0-based index, checking the range.
pub(crate) fn line_index(id: u32, len: usize) -> Result<usize, EvalError> {
    let idx = (id as usize).wrapping_sub(1);
    if id == 0 || idx >= len {
        return Err(EvalError::IdOutOfRange { id, len });
    }
    Ok(idx)
}

/// Computes per-line statistics of parallel hypotheses and references (`refs[k]`: the
/// k-th reference of every line) with `line_stats` (a line and its references).
pub(crate) fn per_line_refs<H, R, T>(
    hyps: &[H],
    refs: &[&[R]],
    line_stats: impl Fn(&str, &[&str]) -> Result<T, EvalError>,
) -> Result<Vec<T>, EvalError>
where
    H: AsRef<str>,
    R: AsRef<str>,
{
    if let Some(r) = refs.iter().find(|r| r.len() != hyps.len()) {
        return Err(EvalError::LengthMismatch {
            hyp: hyps.len(),
            reference: r.len(),
        });
    }
    (0..hyps.len())
        .map(|i| {
            let line_refs: Vec<&str> = refs.iter().map(|r| r[i].as_ref()).collect();
            line_stats(hyps[i].as_ref(), &line_refs)
        })
        .collect()
}

/// Computes per-line statistics for parallel hypothesis/reference corpora with
/// `line_stats`.
pub(crate) fn per_line<H, R, T>(
    hyps: &[H],
    refs: &[R],
    line_stats: impl Fn(&str, &str) -> T,
) -> Result<Vec<T>, EvalError>
where
    H: AsRef<str>,
    R: AsRef<str>,
{
    if hyps.len() != refs.len() {
        return Err(EvalError::LengthMismatch {
            hyp: hyps.len(),
            reference: refs.len(),
        });
    }
    Ok(hyps
        .iter()
        .zip(refs)
        .map(|(h, r)| line_stats(h.as_ref(), r.as_ref()))
        .collect())
}
