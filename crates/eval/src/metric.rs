//! The metric registry (sacreBLEU's `METRICS`): every corpus metric ldd-sets scores, with
//! its key, label, scale, direction, signature and per-line sufficient statistics. `score`,
//! significance and the report iterate over it; adding a metric is an entry in
//! [`METRICS`] (and, for a new kind of statistics, a variant of [`PerLine`] below).
//!
//! Segment-level metrics given as files (`--seg-scores NAME=…`) are not in the registry:
//! they are [`MeanStats`] per line, aggregated as the mean, like RIBES.

use crate::{BleuStats, ChrfStats, EvalError, MeanStats, SufficientStats};

/// A corpus metric of the registry.
#[derive(Debug, Clone, Copy)]
pub struct MetricDef {
    /// Key in CSV and JSON (`bleu`, `chrf`, `ribes`).
    pub key: &'static str,
    /// Name in tables (`BLEU`, `chrF`, `RIBES`).
    pub label: &'static str,
    /// Factor from [`SufficientStats::score`] to the reported number (RIBES: 0–1 → 0–100).
    pub scale: f64,
    /// Whether a higher score is better.
    pub higher_is_better: bool,
    /// Whether only sets of kind `reorder` (and the corpus) are scored with it.
    pub reorder_only: bool,
    /// Its part of the signature: the settings, in sacreBLEU 2.4.3's form where it has one.
    pub signature: &'static str,
    /// Which statistics it sums.
    kind: Kind,
}

/// The statistics a registry metric sums per line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Bleu,
    Chrf,
    Ribes,
}

/// The registry, in table order.
pub const METRICS: [MetricDef; 3] = [
    MetricDef {
        key: "bleu",
        label: "BLEU",
        scale: 1.0,
        higher_is_better: true,
        reorder_only: false,
        signature: "case:mixed|eff:no|tok:13a|smooth:exp|version:2.4.3",
        kind: Kind::Bleu,
    },
    MetricDef {
        key: "chrf",
        label: "chrF",
        scale: 1.0,
        higher_is_better: true,
        reorder_only: false,
        signature: "case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.4.3",
        kind: Kind::Chrf,
    },
    MetricDef {
        key: "ribes",
        label: "RIBES",
        scale: 100.0,
        higher_is_better: true,
        reorder_only: true,
        signature: "case:lc|tok:space|alpha:0.25|beta:0.1|ribes:1.03",
        kind: Kind::Ribes,
    },
];

/// The registry entry of `key`.
pub fn find(key: &str) -> Option<&'static MetricDef> {
    METRICS.iter().find(|m| m.key == key)
}

/// How a metric key is shown: its registry label, or the key itself.
pub fn label(key: &str) -> &str {
    find(key).map_or(key, |m| m.label)
}

impl MetricDef {
    /// A column of no lines of this metric.
    pub fn empty(&self) -> PerLine {
        match self.kind {
            Kind::Bleu => PerLine::Bleu(Vec::new()),
            Kind::Chrf => PerLine::Chrf(Vec::new()),
            Kind::Ribes => PerLine::Mean(Vec::new()),
        }
    }

    /// The statistics of the lines `pairs` (hypothesis, reference), in order. An error
    /// gives the 0-based index of the line.
    pub fn stats<H: AsRef<str>, R: AsRef<str>>(
        &self,
        pairs: &[(H, R)],
    ) -> Result<PerLine, (usize, EvalError)> {
        let each = pairs.iter().map(|(h, r)| (h.as_ref(), r.as_ref()));
        Ok(match self.kind {
            Kind::Bleu => PerLine::Bleu(each.map(|(h, r)| BleuStats::from_pair(h, r)).collect()),
            Kind::Chrf => PerLine::Chrf(each.map(|(h, r)| ChrfStats::from_pair(h, r)).collect()),
            Kind::Ribes => PerLine::Mean(
                each.enumerate()
                    .map(|(i, (h, r))| crate::ribes::stats(h, r).map_err(|e| (i, e)))
                    .collect::<Result<_, _>>()?,
            ),
        })
    }
}

/// One metric's sufficient statistics of every corpus line, typed by metric.
#[derive(Debug, Clone, PartialEq)]
pub enum PerLine {
    /// BLEU n-gram counts ([`BleuStats`]).
    Bleu(Vec<BleuStats>),
    /// chrF character and word n-gram counts ([`ChrfStats`]).
    Chrf(Vec<ChrfStats>),
    /// Values per line, averaged: sentence RIBES ([`crate::ribes::stats`]) or a
    /// segment-level metric's values.
    Mean(Vec<MeanStats>),
}

impl PerLine {
    /// Appends `other`'s lines (of the same metric).
    pub fn append(&mut self, other: PerLine) {
        match (self, other) {
            (PerLine::Bleu(a), PerLine::Bleu(b)) => a.extend(b),
            (PerLine::Chrf(a), PerLine::Chrf(b)) => a.extend(b),
            (PerLine::Mean(a), PerLine::Mean(b)) => a.extend(b),
            _ => unreachable!("statistics of two metrics appended"),
        }
    }

    /// Lines held.
    pub fn len(&self) -> usize {
        match self {
            PerLine::Bleu(v) => v.len(),
            PerLine::Chrf(v) => v.len(),
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
    /// Runs on one metric's statistics of every system (`[system][line]`).
    fn run<T: SufficientStats + Sync + PartialEq>(self, columns: &[&[T]]) -> Self::Out;
}

/// Calls `f` with the columns (one per system, all of one metric) as typed slices.
///
/// # Panics
/// If the columns are of different metrics (a caller's bug, not an input's).
pub fn with_columns<F: OnColumns>(columns: &[&PerLine], f: F) -> F::Out {
    macro_rules! typed {
        ($variant:ident) => {{
            let v: Vec<&[_]> = columns
                .iter()
                .map(|c| match c {
                    PerLine::$variant(v) => v.as_slice(),
                    _ => unreachable!("columns of two metrics"),
                })
                .collect();
            f.run(&v)
        }};
    }
    match columns.first() {
        Some(PerLine::Bleu(_)) => typed!(Bleu),
        Some(PerLine::Chrf(_)) => typed!(Chrf),
        Some(PerLine::Mean(_)) | None => typed!(Mean),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Score<'a>(&'a [u32]);
    impl OnColumns for Score<'_> {
        type Out = Vec<f64>;
        fn run<T: SufficientStats + Sync + PartialEq>(self, columns: &[&[T]]) -> Vec<f64> {
            columns
                .iter()
                .map(|c| crate::score_ids(c, self.0).unwrap())
                .collect()
        }
    }

    /// Every registry metric scores through its column as directly through its statistics.
    #[test]
    fn registry_columns_score_as_the_metrics_do() {
        let hyps = ["the cat sat on the mat", "a b c d e f"];
        let refs = ["the cat sat on a mat", "f e d c b a"];
        for m in &METRICS {
            let pairs: Vec<(&str, &str)> = hyps.iter().copied().zip(refs).collect();
            let mut col = m.stats(&pairs[..1]).unwrap();
            col.append(m.stats(&pairs[1..]).unwrap());
            assert_eq!(col.len(), 2);
            let got = with_columns(&[&col], Score(&[1, 2]))[0] * m.scale;
            let want = match m.key {
                "bleu" => crate::bleu::corpus_bleu(&hyps, &refs).unwrap().score,
                "chrf" => crate::chrf::corpus_chrf(&hyps, &refs).unwrap(),
                "ribes" => {
                    crate::sum_all(&crate::ribes::line_stats(&hyps, &refs).unwrap()).score() * 100.0
                }
                k => panic!("no oracle for {k}"),
            };
            assert_eq!(got, want, "{}", m.key);
        }
        assert_eq!(label("chrf"), "chrF");
        assert_eq!(label("comet"), "comet");
        assert!(find("ribes").is_some_and(|m| m.reorder_only));
    }
}
