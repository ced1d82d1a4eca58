//! The metric registry (sacreBLEU's `METRICS`): every corpus metric ldd-sets scores, with
//! its key, label, scale, direction, signature and per-line sufficient statistics, and
//! their settings ([`Settings`]: sacreBLEU's options, defaulting to its defaults).
//! `score`, significance and the report iterate over it; adding a metric is an entry in
//! [`METRICS`] (and, for a new kind of statistics, a variant of [`PerLine`] below).
//!
//! Segment-level metrics given as files (`--seg-scores NAME=…`) are not in the registry:
//! they are [`MeanStats`] per line, aggregated as the mean, like RIBES.

use crate::bleu::{Bleu, BleuScoring};
use crate::chrf::{Chrf, ChrfScoring};
use crate::ter::{Ter, TerStats};
use crate::tokenize::{Tokenizer, TokenizerName};
use crate::{BleuStats, ChrfStats, EvalError, MeanStats, SufficientStats};

/// A corpus metric of the registry.
#[derive(Debug, Clone, Copy)]
pub struct MetricDef {
    /// Key in CSV and JSON (`bleu`, `chrf`, `ribes`, `ter`).
    pub key: &'static str,
    /// Name in tables (`BLEU`, `chrF`, `RIBES`, `TER`).
    pub label: &'static str,
    /// Factor from [`SufficientStats::score`] to the reported number (RIBES: 0–1 → 0–100).
    pub scale: f64,
    /// Whether a higher score is better.
    pub higher_is_better: bool,
    /// Whether only sets of kind `reorder` (and the corpus) are scored with it.
    pub reorder_only: bool,
    /// Whether `score` computes it without `--metrics` (TER is asked for by name).
    pub by_default: bool,
    /// Which statistics it sums.
    kind: Kind,
}

/// The statistics a registry metric sums per line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Bleu,
    Chrf,
    Ribes,
    Ter,
}

/// The registry, in table order.
pub const METRICS: [MetricDef; 4] = [
    MetricDef {
        key: "bleu",
        label: "BLEU",
        scale: 1.0,
        higher_is_better: true,
        reorder_only: false,
        by_default: true,
        kind: Kind::Bleu,
    },
    MetricDef {
        key: "chrf",
        label: "chrF",
        scale: 1.0,
        higher_is_better: true,
        reorder_only: false,
        by_default: true,
        kind: Kind::Chrf,
    },
    MetricDef {
        key: "ribes",
        label: "RIBES",
        scale: 100.0,
        higher_is_better: true,
        reorder_only: true,
        by_default: true,
        kind: Kind::Ribes,
    },
    MetricDef {
        key: "ter",
        label: "TER",
        scale: 1.0,
        higher_is_better: false,
        reorder_only: false,
        by_default: false,
        kind: Kind::Ter,
    },
];

/// RIBES's signature settings (RIBES.py 1.03's defaults, lowercased words).
const RIBES_SIGNATURE: &str = "case:lc|tok:space|alpha:0.25|beta:0.1|ribes:1.03";

/// The registry entry of `key`.
pub fn find(key: &str) -> Option<&'static MetricDef> {
    METRICS.iter().find(|m| m.key == key)
}

/// How a metric key is shown: its registry label, or the key itself.
pub fn label(key: &str) -> &str {
    find(key).map_or(key, |m| m.label)
}

/// The settings of the registry's metrics, as given (sacreBLEU's command-line options;
/// the default is sacreBLEU's defaults).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Settings {
    /// BLEU's tokenizer (`--tokenize`); `None`: sacreBLEU's default for the target
    /// language ([`TokenizerName::for_language`]).
    pub tokenize: Option<TokenizerName>,
    /// BLEU lowercased (`--lowercase`).
    pub lowercase: bool,
    /// BLEU's finalisation: order, smoothing, effective order.
    pub bleu: BleuScoring,
    /// chrF's settings.
    pub chrf: Chrf,
    /// TER's settings.
    pub ter: Ter,
}

impl Settings {
    /// Checks the ranges: BLEU order 1..=[`crate::bleu::ORDER_LIMIT`], chrF at least one
    /// and at most [`crate::chrf::ORDER_LIMIT`] orders, smoothing values finite and not
    /// negative.
    pub fn check(&self) -> Result<(), EvalError> {
        let o = self.bleu.max_order;
        if !(1..=crate::bleu::ORDER_LIMIT).contains(&o) {
            return Err(EvalError::Setting(format!(
                "--max-ngram-order {o}: must be between 1 and {}",
                crate::bleu::ORDER_LIMIT
            )));
        }
        if let crate::Smooth::Floor(v) | crate::Smooth::AddK(v) = self.bleu.smooth {
            if !(v.is_finite() && v >= 0.0) {
                return Err(EvalError::Setting(format!(
                    "--smooth-value {v}: must be a number of at least 0"
                )));
            }
        }
        let c = &self.chrf.scoring;
        let n = c.char_order + c.word_order;
        if n == 0 || n > crate::chrf::ORDER_LIMIT {
            return Err(EvalError::Setting(format!(
                "--chrf-char-order {} with --chrf-word-order {}: chrF needs between 1 and {} \
                 orders in all",
                c.char_order,
                c.word_order,
                crate::chrf::ORDER_LIMIT
            )));
        }
        Ok(())
    }

    /// Whether every setting is sacreBLEU's default (BLEU's tokenizer left to the target
    /// language).
    pub fn is_default(&self) -> bool {
        *self == Settings::default()
    }

    /// The metrics as configured for a corpus whose references are in `target_lang`
    /// (MeCab loaded here for `ja-mecab` and `ko-mecab`).
    pub fn metrics(&self, target_lang: &str) -> Result<Metrics, EvalError> {
        self.check()?;
        let name = self
            .tokenize
            .unwrap_or_else(|| TokenizerName::for_language(target_lang));
        Ok(Metrics {
            bleu: Bleu {
                tokenizer: Tokenizer::new(name)?,
                lowercase: self.lowercase,
                scoring: self.bleu,
            },
            chrf: self.chrf,
            ter: self.ter,
        })
    }
}

/// The registry's metrics configured ([`Settings::metrics`]): sacreBLEU's metric objects.
#[derive(Debug, Clone, Default)]
pub struct Metrics {
    /// BLEU.
    pub bleu: Bleu,
    /// chrF.
    pub chrf: Chrf,
    /// TER.
    pub ter: Ter,
}

impl MetricDef {
    /// Its part of the signature: the settings, in sacreBLEU 2.4.3's form where it has one
    /// (`case:mixed|eff:no|tok:13a|smooth:exp|version:2.4.3` for default BLEU).
    pub fn signature(&self, metrics: &Metrics) -> String {
        match self.kind {
            Kind::Bleu => metrics.bleu.signature(),
            Kind::Chrf => metrics.chrf.signature(),
            Kind::Ter => metrics.ter.signature(),
            Kind::Ribes => RIBES_SIGNATURE.to_string(),
        }
    }

    /// A column of no lines of this metric.
    pub fn empty(&self, metrics: &Metrics) -> PerLine {
        match self.kind {
            Kind::Bleu => PerLine::Bleu(metrics.bleu.scoring, Vec::new()),
            Kind::Chrf => PerLine::Chrf(metrics.chrf.scoring, Vec::new()),
            Kind::Ter => PerLine::Ter(Vec::new()),
            Kind::Ribes => PerLine::Mean(Vec::new()),
        }
    }

    /// The statistics of the lines `pairs` (hypothesis, references — at least one), in
    /// order. An error gives the 0-based index of the line. RIBES takes the best of the
    /// references, as RIBES.py does.
    pub fn stats<H: AsRef<str>, R: AsRef<str>>(
        &self,
        metrics: &Metrics,
        pairs: &[(H, Vec<R>)],
    ) -> Result<PerLine, (usize, EvalError)> {
        let each = pairs.iter().map(|(h, r)| (h.as_ref(), r.as_slice()));
        Ok(match self.kind {
            Kind::Bleu => PerLine::Bleu(
                metrics.bleu.scoring,
                each.enumerate()
                    .map(|(i, (h, r))| metrics.bleu.stats(h, r).map_err(|e| (i, e)))
                    .collect::<Result<_, _>>()?,
            ),
            Kind::Chrf => PerLine::Chrf(
                metrics.chrf.scoring,
                each.map(|(h, r)| metrics.chrf.stats(h, r)).collect(),
            ),
            Kind::Ter => PerLine::Ter(each.map(|(h, r)| metrics.ter.stats(h, r)).collect()),
            Kind::Ribes => PerLine::Mean(
                each.enumerate()
                    .map(|(i, (h, refs))| {
                        let mut best: Option<MeanStats> = None;
                        for r in refs {
                            let s = crate::ribes::stats(h, r.as_ref()).map_err(|e| (i, e))?;
                            if best.is_none_or(|b| s.sum > b.sum) {
                                best = Some(s);
                            }
                        }
                        Ok(best.unwrap_or_default())
                    })
                    .collect::<Result<_, _>>()?,
            ),
        })
    }
}

/// One metric's sufficient statistics of every corpus line, typed by metric, with how
/// they are finalised.
#[derive(Debug, Clone, PartialEq)]
pub enum PerLine {
    /// BLEU n-gram counts ([`BleuStats`]).
    Bleu(BleuScoring, Vec<BleuStats>),
    /// chrF character and word n-gram counts ([`ChrfStats`]).
    Chrf(ChrfScoring, Vec<ChrfStats>),
    /// TER edits and reference lengths ([`TerStats`]).
    Ter(Vec<TerStats>),
    /// Values per line, averaged: sentence RIBES ([`crate::ribes::stats`]) or a
    /// segment-level metric's values.
    Mean(Vec<MeanStats>),
}

impl PerLine {
    /// Appends `other`'s lines (of the same metric).
    pub fn append(&mut self, other: PerLine) {
        match (self, other) {
            (PerLine::Bleu(_, a), PerLine::Bleu(_, b)) => a.extend(b),
            (PerLine::Chrf(_, a), PerLine::Chrf(_, b)) => a.extend(b),
            (PerLine::Ter(a), PerLine::Ter(b)) => a.extend(b),
            (PerLine::Mean(a), PerLine::Mean(b)) => a.extend(b),
            _ => unreachable!("statistics of two metrics appended"),
        }
    }

    /// Lines held.
    pub fn len(&self) -> usize {
        match self {
            PerLine::Bleu(_, v) => v.len(),
            PerLine::Chrf(_, v) => v.len(),
            PerLine::Ter(v) => v.len(),
            PerLine::Mean(v) => v.len(),
        }
    }

    /// Whether no line is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Work to do on the statistics of one metric for every system, whatever their type: what
/// [`with_columns`] calls with the columns as typed slices.
pub trait OnColumns {
    /// The result.
    type Out;
    /// Runs on one metric's statistics of every system (`[system][line]`), finalised
    /// with `params`.
    fn run<T: SufficientStats + Sync + PartialEq>(
        self,
        columns: &[&[T]],
        params: &T::Params,
    ) -> Self::Out;
}

/// Calls `on_columns` with the columns (one per system, all of one metric) as typed slices
/// and the metric's finalisation settings (the first column's: one metric's columns share
/// them).
///
/// # Panics
/// If the columns are of different metrics (a caller's bug, not an input's).
pub fn with_columns<F: OnColumns>(columns: &[&PerLine], on_columns: F) -> F::Out {
    macro_rules! typed {
        ($variant:ident, $params:expr) => {{
            let v: Vec<&[_]> = columns
                .iter()
                .map(|c| match c {
                    PerLine::$variant(.., v) => v.as_slice(),
                    _ => unreachable!("columns of two metrics"),
                })
                .collect();
            on_columns.run(&v, $params)
        }};
    }
    match columns.first() {
        Some(PerLine::Bleu(p, _)) => typed!(Bleu, p),
        Some(PerLine::Chrf(p, _)) => typed!(Chrf, p),
        Some(PerLine::Ter(_)) => typed!(Ter, &()),
        Some(PerLine::Mean(_)) | None => typed!(Mean, &()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Score<'a>(&'a [u32]);
    impl OnColumns for Score<'_> {
        type Out = Vec<f64>;
        fn run<T: SufficientStats + Sync + PartialEq>(
            self,
            columns: &[&[T]],
            params: &T::Params,
        ) -> Vec<f64> {
            columns
                .iter()
                .map(|c| crate::score_ids(c, params, self.0).unwrap())
                .collect()
        }
    }

    /// Every registry metric scores through its column as directly through its statistics,
    /// and its signature is sacreBLEU's for the defaults.
    #[test]
    fn registry_columns_score_as_the_metrics_do() {
        let hyps = ["the cat sat on the mat", "a b c d e f"];
        let refs = ["the cat sat on a mat", "f e d c b a"];
        let m = Settings::default().metrics("en").unwrap();
        for d in &METRICS {
            let pairs: Vec<(&str, Vec<&str>)> =
                hyps.iter().zip(refs).map(|(h, r)| (*h, vec![r])).collect();
            let mut col = d.stats(&m, &pairs[..1]).unwrap();
            col.append(d.stats(&m, &pairs[1..]).unwrap());
            assert_eq!(col.len(), 2);
            let got = with_columns(&[&col], Score(&[1, 2]))[0] * d.scale;
            let want = match d.key {
                "bleu" => crate::bleu::corpus_bleu(&hyps, &refs).unwrap().score,
                "chrf" => crate::chrf::corpus_chrf(&hyps, &refs).unwrap(),
                "ribes" => {
                    crate::sum_all(&crate::ribes::line_stats(&hyps, &refs).unwrap()).score(&())
                        * 100.0
                }
                "ter" => Ter::default().corpus_score(&hyps, &[&refs[..]]).unwrap(),
                k => panic!("no oracle for {k}"),
            };
            assert_eq!(got, want, "{}", d.key);
        }
        let sig = |k: &str| find(k).unwrap().signature(&m);
        assert_eq!(
            sig("bleu"),
            "case:mixed|eff:no|tok:13a|smooth:exp|version:2.4.3"
        );
        assert_eq!(
            sig("chrf"),
            "case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.4.3"
        );
        assert_eq!(
            sig("ter"),
            "case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.4.3"
        );
        assert_eq!(label("chrf"), "chrF");
        assert_eq!(label("comet"), "comet");
        assert!(find("ribes").is_some_and(|m| m.reorder_only));
        assert!(find("ter").is_some_and(|m| !m.higher_is_better && !m.by_default));
        let zh = Settings::default().metrics("zh").unwrap();
        assert_eq!(zh.bleu.tokenizer.name(), TokenizerName::Zh);
        let bad = Settings {
            bleu: BleuScoring {
                max_order: 7,
                ..BleuScoring::default()
            },
            ..Settings::default()
        };
        assert!(matches!(bad.check(), Err(EvalError::Setting(_))));
    }
}
