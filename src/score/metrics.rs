//! The metrics one `score` run reports, each as a [`Source`]: the one place where a
//! metric's key, label, direction and signature are decided, whatever computes it — a
//! registry metric (BLEU, chrF, TER, RIBES; [`ldd_eval::METRICS`], sacreBLEU's `METRICS`),
//! a segment-level metric given as files, locus accuracy ([`crate::locus`]) or contrastive
//! accuracy. `score` builds its [`Metric`]s only through [`Source::metric`].

use ldd_eval::metric::Metrics;
use ldd_eval::MetricDef;

use super::signature::Context;
use super::{Metric, SegScores};
use crate::error::Result;
use crate::locus::Judging;

/// A metric of a `score` run, by what computes it.
pub enum Source<'a> {
    /// A registry metric with the run's settings (sacreBLEU's options).
    Corpus(&'a MetricDef, &'a Metrics),
    /// A segment-level metric given as files (`--seg-scores NAME=…`).
    Segment(&'a SegScores),
    /// Locus accuracy, judged as `Judging` says.
    Locus(&'a Judging),
    /// Contrastive accuracy (`key`: all items, or one variant type's) of the items whose
    /// file has SHA-256 `items_sha256`; the scores' direction as given.
    Contrastive {
        /// `contrastive` or `contrastive-TYPE`.
        key: String,
        /// SHA-256 of `items.jsonl`.
        items_sha256: &'a str,
        /// Whether the scored files hold higher-is-better scores (log-probabilities)
        /// rather than costs.
        scores_higher_is_better: bool,
    },
}

impl Source<'_> {
    /// The metric: key, label, direction and signature (`ctx`: what every signature of the
    /// run shares).
    pub fn metric(&self, ctx: &Context) -> Result<Metric> {
        Ok(match self {
            Source::Corpus(d, metrics) => {
                let mut settings = d.signature(metrics);
                // sacreBLEU's signature shows neither BLEU's maximum order nor chrF's β (it
                // names chrF3 by its β instead).
                let (order, beta) = (metrics.bleu.scoring.max_order, metrics.chrf.scoring.beta);
                if d.key == "bleu" && order != ldd_eval::bleu::MAX_ORDER {
                    settings.push_str(&format!("|max-ngram-order:{order}"));
                }
                if d.key == "chrf" && beta != ldd_eval::chrf::BETA {
                    settings.push_str(&format!("|beta:{beta}"));
                }
                Metric {
                    key: d.key.into(),
                    label: d.label.into(),
                    higher_is_better: d.higher_is_better,
                    reorder_only: d.reorder_only,
                    signature: ctx.metric(&settings),
                }
            }
            Source::Segment(s) => Metric {
                key: s.name.clone(),
                label: s.name.clone(),
                higher_is_better: s.higher_is_better,
                reorder_only: false,
                signature: ctx.segment(&s.name, s.higher_is_better),
            },
            Source::Locus(j) => Metric {
                key: crate::locus::KEY.into(),
                label: crate::locus::LABEL.into(),
                higher_is_better: true,
                reorder_only: false,
                signature: ctx.locus(&j.settings()?),
            },
            Source::Contrastive {
                key,
                items_sha256,
                scores_higher_is_better,
            } => Metric {
                key: key.clone(),
                label: key.clone(),
                higher_is_better: true,
                reorder_only: false,
                signature: ctx.locus(&format!(
                    "{key}:1|items:{}|pass:reference-{}-every-variant|ci:wilson|test:mcnemar-exact",
                    &items_sha256[..16.min(items_sha256.len())],
                    if *scores_higher_is_better {
                        "above"
                    } else {
                        "below"
                    }
                )),
            },
        })
    }
}
