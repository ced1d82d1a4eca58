//! Locus accuracy as a metric of `score`: every set's loci judged on each system's output
//! by the locus stage ([`crate::locus`]: the rule, the aligner, the baseline), then counted
//! per set and corpus.
//!
//! Per set: the share of correct loci (×100) among the judged ones, its Wilson interval,
//! McNemar's exact test of each system against the first on the same loci, the loci not
//! judged (no reference, unaligned), and the baseline — the set's locus words judged one
//! by one against the comparable words of the same sentences, with Newcombe's interval of
//! the difference and Fisher's exact test; per phenomenon, Spearman and Pearson of accuracy
//! against the sets' minimum distance, and of the within-sentence difference (the trend
//! net of length). Memory: the locus rows, source words and parts of
//! speech of the sets' lines, the reference's aligned lines, and one system's at a time.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use ldd_eval::agreement::two_proportions;

use super::{share, Loaded, Metric, Row, Trend};
use crate::error::Result;
use crate::format::judged::{self, Judged, Judgement};
use crate::format::locus::Locus;
use crate::format::scores::Baseline;
use crate::locus::rule::{self, Side};
use crate::locus::words::{self, Counts};
use crate::locus::{
    read_loci, Context, Judging, Kind, Loci, Rendering, SetLoci, Sides, SourceWords,
};
use crate::pipeline::read::sets::Distinct;

pub use crate::locus::{KEY, LABEL};

/// What [`evaluate`] gives: score rows, trends, and the judgements file.
pub struct Evaluated {
    /// Rows per system (`[system][row]`), the corpus row first.
    pub rows: Vec<Vec<Row>>,
    /// Trends over d per system and phenomenon.
    pub trends: Vec<Trend>,
    /// `scores.loci.tsv` ([`crate::format::judged`]): every distinct locus, judged for every
    /// system.
    pub judgements: String,
    /// Its rows.
    pub judged_rows: u64,
}

/// One system's judgements: per set, each row's rendering and the set's baseline; per
/// distinct locus, its rendering; and the system's output tokens by line id.
struct SystemLoci {
    sets: Vec<(Vec<Rendering>, words::Baseline)>,
    distinct: Vec<Rendering>,
    corpus: words::Baseline,
    outputs: BTreeMap<u32, Vec<String>>,
}

/// Locus rows and trends of every system (`hyps`, named `systems`), judged with `judging`,
/// `confidence` the level of the intervals, and the judgement of every locus
/// ([`Evaluated`]); `reference` is the corpus's target side.
pub fn evaluate(
    loaded: &Loaded,
    hyps: &[PathBuf],
    systems: &[String],
    judging: &Judging,
    metric: &Metric,
    confidence: f64,
    reference: &Path,
) -> Result<Evaluated> {
    let loci = read_loci(loaded)?;
    let (per_system, refs) = judge_systems(loaded, judging, reference, hyps, &loci)?;
    let builder = RowBuilder {
        systems,
        metric,
        confidence,
    };
    let mut rows: Vec<Vec<Row>> = vec![Vec::new(); hyps.len()];
    // The corpus: every distinct locus (phenomenon, line, dependent, head) once.
    for (s, sys_rows) in rows.iter_mut().enumerate() {
        let own = &per_system[s];
        let mut r = builder.row(
            s,
            "corpus",
            &own.distinct,
            &per_system[0].distinct,
            &own.corpus,
        );
        r.bucket = "corpus".into();
        r.sentences = loaded.manifest.corpus.lines;
        sys_rows.push(r);
    }
    for (si, set) in loci.sets.iter().enumerate() {
        let u = &loaded.units[set.unit];
        for (s, sys_rows) in rows.iter_mut().enumerate() {
            let (own, b) = &per_system[s].sets[si];
            let mut r = builder.row(s, "set", own, &per_system[0].sets[si].0, b);
            r.kind = u.set.kind.name().into();
            r.phenomenon = u.set.phenomenon.clone();
            r.bucket = u.set.bucket.clone();
            r.min_distance = Some(u.set.min_distance);
            r.exact = Some(u.set.exact);
            r.sentences = u.ids.len() as u64;
            sys_rows.push(r);
        }
    }
    let (judgements, judged_rows) = judgements(
        loaded,
        &loci.sets,
        &loci.distinct,
        &loci.words,
        &refs,
        &per_system,
        systems,
    );
    within_sentence(&mut rows);
    let mut trends = share::trends(metric, systems, &rows);
    within_trends(&mut trends, systems, &rows);
    Ok(Evaluated {
        trends,
        rows,
        judgements,
        judged_rows,
    })
}

/// Every system's output aligned to the source and every locus judged ([`SystemLoci`]),
/// with the reference's sides.
fn judge_systems(
    loaded: &Loaded,
    judging: &Judging,
    reference: &Path,
    hyps: &[PathBuf],
    loci: &Loci,
) -> Result<(Vec<SystemLoci>, Sides)> {
    let distinct_rows: Vec<Locus> = loci
        .distinct
        .iter()
        .map(|d| loci.sets[d.set].rows[d.row].clone())
        .collect();
    let distinct_kinds: Vec<Kind<'_>> = loci
        .distinct
        .iter()
        .map(|d| loci.sets[d.set].kind(loaded))
        .collect();
    let mut per_system: Vec<SystemLoci> = Vec::new();
    let trees = (&loci.words, &loci.upos);
    let refs =
        crate::locus::align_each(loaded, judging, reference, hyps, trees, |cx, refs, out| {
            per_system.push(SystemLoci {
                sets: loci
                    .sets
                    .iter()
                    .map(|s| {
                        let kind = s.kind(loaded);
                        (
                            judge_rows(cx, (refs, &out), &s.rows, |_| kind),
                            words::baseline(&s.rows, cx, refs, &out),
                        )
                    })
                    .collect(),
                distinct: judge_rows(cx, (refs, &out), &distinct_rows, |k| distinct_kinds[k]),
                corpus: words::baseline(&distinct_rows, cx, refs, &out),
                outputs: out.into_iter().map(|(id, s)| (id, s.tokens)).collect(),
            });
            Ok(())
        })?;
    Ok((per_system, refs))
}

/// Every locus of `rows` (the k-th of kind `kind(k)`) judged: the reference's side
/// against the output's.
fn judge_rows<'a>(
    cx: &Context<'_>,
    (refs, out): (&Sides, &Sides),
    rows: &[Locus],
    kind: impl Fn(usize) -> Kind<'a>,
) -> Vec<Rendering> {
    let empty = Side::default();
    rows.iter()
        .enumerate()
        .map(|(k, r)| {
            let id = r.id as u32;
            let (x, y) = (refs.get(&id), out.get(&id));
            let (x, y) = (x.unwrap_or(&empty), y.unwrap_or(&empty));
            crate::locus::judge(&cx.line(id), r, kind(k), x, y)
        })
        .collect()
}

/// What every locus row shares: the systems' names, the metric and the intervals' level.
struct RowBuilder<'a> {
    systems: &'a [String],
    metric: &'a Metric,
    confidence: f64,
}

impl RowBuilder<'_> {
    /// `system`'s row of `scope` from its renderings `own` (the first system's `base`
    /// for the paired test) with the baseline of its comparable words `baseline`.
    fn row(
        &self,
        system: usize,
        scope: &str,
        own: &[Rendering],
        base: &[Rendering],
        baseline: &words::Baseline,
    ) -> Row {
        let outcomes = |r: &[Rendering]| -> Vec<Option<bool>> {
            r.iter().map(|x| x.judgement.judged()).collect()
        };
        let mut r = share::row(
            &self.systems[system],
            self.metric,
            scope,
            &outcomes(own),
            (system > 0).then_some(outcomes(base).as_slice()),
            self.confidence,
        );
        let count = |j: Judgement| own.iter().filter(|x| x.judgement == j).count() as u64;
        r.no_reference = Some(count(Judgement::NoReference));
        r.unaligned = Some(count(Judgement::Unaligned));
        r.differs = Some(count(Judgement::Differs));
        r.partial = Some(count(Judgement::Partial));
        r.baseline = Some(baseline_row(baseline, self.confidence));
        r
    }
}

/// The baseline record of a row: the locus words' accuracy against the comparable words'.
fn baseline_row(baseline: &words::Baseline, confidence: f64) -> Baseline {
    let score = |c: &Counts| (c.judged() > 0).then(|| 100.0 * c.correct as f64 / c.judged() as f64);
    let test = two_proportions(
        baseline.locus.correct,
        baseline.locus.judged(),
        baseline.comparable.correct,
        baseline.comparable.judged(),
        confidence,
    );
    Baseline {
        words: baseline.locus.judged(),
        unaligned: baseline.locus.unaligned,
        word_score: score(&baseline.locus),
        comparable: baseline.comparable.judged(),
        comparable_score: score(&baseline.comparable),
        diff: test.map(|t| 100.0 * t.0),
        diff_ci_low: test.map(|t| 100.0 * t.1 .0),
        diff_ci_high: test.map(|t| 100.0 * t.1 .1),
        p_value: test.map(|t| t.2),
        ..Baseline::default()
    }
}

/// The within-sentence comparison across rows: each system's baseline p-values adjusted
/// for the many tests (Benjamini–Hochberg over its set rows with a p-value, nested sets
/// counted: [`Baseline::q_value`]) and, for every system after the first, the
/// difference-in-differences against the first on the same row ([`did`]).
fn within_sentence(rows: &mut [Vec<Row>]) {
    for sys_rows in rows.iter_mut() {
        let p: Vec<Option<f64>> = sys_rows
            .iter()
            .map(|r| match (r.is_set(), &r.baseline) {
                (true, Some(b)) => b.p_value,
                _ => None,
            })
            .collect();
        let q = ldd_eval::stats::benjamini_hochberg(&p);
        for (r, q) in sys_rows.iter_mut().zip(q) {
            if let Some(b) = r.baseline.as_mut() {
                b.q_value = q;
            }
        }
    }
    let Some((first, others)) = rows.split_first_mut() else {
        return;
    };
    for sys_rows in others {
        for (r, f) in sys_rows.iter_mut().zip(first.iter()) {
            let (Some(b), Some(fb)) = (r.baseline.as_mut(), f.baseline.as_ref()) else {
                continue;
            };
            if let Some((d, lo, hi, p)) = did(b, fb) {
                (b.did, b.did_ci_low, b.did_ci_high, b.did_p_value) =
                    (Some(d), Some(lo), Some(hi), Some(p));
            }
        }
    }
}

/// The difference-in-differences of a system's within-sentence difference `own` against
/// the first system's `first` on the same set (×100): `own.diff − first.diff`, its interval
/// by MOVER (Zou & Donner 2008: the two Newcombe intervals combined, as Newcombe's combines
/// two Wilson intervals) and a two-sided p-value of `z = did / √(v₁ + v₂)`, each `v` the
/// variance of one difference with Agresti–Caffo's adjusted shares (`(c + 1) / (n + 2)`, so
/// that no variance is 0). Both treat the two systems' differences as independent; they
/// are measured on the same words, usually positively correlated, so the interval and the
/// p-value are conservative. `None` where either difference or interval is undefined.
pub fn did(own: &Baseline, first: &Baseline) -> Option<(f64, f64, f64, f64)> {
    use statrs::distribution::{ContinuousCDF, Normal};
    let (d1, l1, u1) = (own.diff?, own.diff_ci_low?, own.diff_ci_high?);
    let (d2, l2, u2) = (first.diff?, first.diff_ci_low?, first.diff_ci_high?);
    let d = d1 - d2;
    let low = d - ((d1 - l1).powi(2) + (u2 - d2).powi(2)).sqrt();
    let high = d + ((u1 - d1).powi(2) + (d2 - l2).powi(2)).sqrt();
    let se = (variance(own)? + variance(first)?).sqrt();
    let p = 2.0 * (1.0 - Normal::standard().cdf((d / 100.0 / se).abs()));
    Some((d, low, high, p.clamp(0.0, 1.0)))
}

/// The variance of a baseline's difference of two shares, with Agresti–Caffo's adjusted
/// shares (one success and one failure added to each).
fn variance(b: &Baseline) -> Option<f64> {
    let part = |score: Option<f64>, n: u64| -> Option<f64> {
        let n = n as f64;
        let correct = (score? * n / 100.0).round();
        let share = (correct + 1.0) / (n + 2.0);
        Some(share * (1.0 - share) / (n + 2.0))
    };
    Some(part(b.word_score, b.words)? + part(b.comparable_score, b.comparable)?)
}

/// Locus trends net of length: each trend's `(d, within-sentence difference)` points over
/// the same `ge` sets and their Spearman ρ. No interval: the points are few and the nested
/// sets share their words, so an honest interval needs the words resampled together,
/// which is not done here.
fn within_trends(trends: &mut [Trend], systems: &[String], rows: &[Vec<Row>]) {
    for t in trends.iter_mut() {
        let Some(s) = systems.iter().position(|n| *n == t.system) else {
            continue;
        };
        t.diff_points = rows[s]
            .iter()
            .filter(|r| r.is_set() && r.exact == Some(false) && r.phenomenon == t.phenomenon)
            .filter_map(|r| Some((r.min_distance?, r.baseline.as_ref()?.diff?)))
            .collect();
        let x: Vec<f64> = t.diff_points.iter().map(|p| f64::from(p.0)).collect();
        let y: Vec<f64> = t.diff_points.iter().map(|p| p.1).collect();
        t.diff_spearman = ldd_eval::stats::spearman(&x, &y);
    }
}

/// `scores.loci.tsv`: every distinct locus, one row per system, and its row count.
fn judgements(
    loaded: &Loaded,
    sets: &[SetLoci],
    distinct: &[Distinct],
    words: &SourceWords,
    refs: &Sides,
    per_system: &[SystemLoci],
    systems: &[String],
) -> (String, u64) {
    let mut out = String::from(judged::HEADER);
    out.push('\n');
    let mut n = 0u64;
    let none = Vec::new();
    let one_based = |p: &[usize]| -> Vec<u32> { p.iter().map(|&k| k as u32 + 1).collect() };
    for (k, d) in distinct.iter().enumerate() {
        let r = &sets[d.set].rows[d.row];
        let id = r.id as u32;
        let reference = refs.get(&id).map_or(&none, |s| &s.tokens);
        for (s, system) in systems.iter().enumerate() {
            let x = &per_system[s].distinct[k];
            let j = Judged {
                phenomenon: loaded.units[sets[d.set].unit].set.phenomenon.clone(),
                sets: d.buckets.clone(),
                id: r.id,
                distance: r.distance,
                dep: r.dep.clone(),
                head: r.head.clone(),
                system: system.clone(),
                judgement: x.judgement,
                ref_dep: one_based(&x.dep.reference),
                ref_head: x
                    .head
                    .as_ref()
                    .map_or_else(Vec::new, |h| one_based(&h.reference)),
                hyp_dep: one_based(&x.dep.tokens()),
                hyp_head: x
                    .head
                    .as_ref()
                    .map_or_else(Vec::new, |h| one_based(&h.tokens())),
                source: words.get(&id).cloned().unwrap_or_default(),
                reference: reference.clone(),
                output: per_system[s].outputs.get(&id).cloned().unwrap_or_default(),
                p_error: None,
                order: x.order,
                evidence: x.evidence(),
                rule: rule::VERSION.into(),
            };
            out.push_str(&j.row());
            out.push('\n');
            n += 1;
        }
    }
    (out, n)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A baseline record of `c1` of `n1` locus words right against `c2` of `n2`
    /// comparable words, as [`baseline_row`] writes it.
    fn record(c1: u64, n1: u64, c2: u64, n2: u64) -> Baseline {
        let counts = |correct, n| Counts {
            correct,
            incorrect: n - correct,
            ..Counts::default()
        };
        baseline_row(
            &words::Baseline {
                locus: counts(c1, n1),
                comparable: counts(c2, n2),
            },
            0.95,
        )
    }

    #[test]
    fn did_by_hand() {
        // own: 50/100 − 70/100 = −20; first: 90/100 − 88/100 = +2; DiD −22.
        // p by hand (scipy): z = −0.22 / √Σ (c+1)/(n+2)·(1 − ·)/(n+2) over the four
        // shares; 2·(1 − Φ(|z|)) = 0.006596546283861082.
        let (own, first) = (record(50, 100, 70, 100), record(90, 100, 88, 100));
        let (d, lo, hi, p) = did(&own, &first).unwrap();
        assert!((d + 22.0).abs() < 1e-9, "{d}");
        assert!((p - 0.006596546283861082).abs() < 1e-9, "{p}");
        // MOVER: the interval holds the point and is wider than either Newcombe interval.
        let (l1, u1) = (own.diff_ci_low.unwrap(), own.diff_ci_high.unwrap());
        assert!(lo < d && d < hi && hi - lo > u1 - l1, "{lo} {hi}");
        // A system against itself: no difference, p 1, an interval symmetric about 0.
        let (d, lo, hi, p) = did(&first, &first).unwrap();
        assert_eq!((d, p), (0.0, 1.0));
        assert!((lo + hi).abs() < 1e-9);
        // Undefined where a difference is.
        assert_eq!(did(&record(0, 0, 3, 4), &first), None);
    }

    #[test]
    fn within_sentence_fills_q_values_and_did() {
        let row = |system: &str, scope: &str, b: Baseline| Row {
            system: system.into(),
            scope: scope.into(),
            baseline: Some(b),
            ..Row::default()
        };
        let mut rows = vec![
            vec![
                row("a", "corpus", record(9, 10, 9, 10)),
                row("a", "set", record(9, 10, 9, 10)),
                row("a", "set", record(45, 50, 44, 50)),
            ],
            vec![
                row("b", "corpus", record(5, 10, 9, 10)),
                row("b", "set", record(5, 10, 9, 10)),
                row("b", "set", record(20, 50, 44, 50)),
            ],
        ];
        within_sentence(&mut rows);
        for sys in &rows {
            // The corpus row is no test of the family; BH over the two set rows:
            // q of the smaller p = 2p, of the larger = max(p, that).
            assert_eq!(sys[0].baseline.as_ref().unwrap().q_value, None);
            let p: Vec<f64> = sys[1..]
                .iter()
                .map(|r| r.baseline.as_ref().unwrap().p_value.unwrap())
                .collect();
            let q: Vec<f64> = sys[1..]
                .iter()
                .map(|r| r.baseline.as_ref().unwrap().q_value.unwrap())
                .collect();
            let (lo, hi) = (p[0].min(p[1]), p[0].max(p[1]));
            let q_lo = (2.0 * lo).min(hi).min(1.0);
            assert!((q[0].min(q[1]) - q_lo).abs() < 1e-12, "{p:?} {q:?}");
            assert!((q[0].max(q[1]) - hi).abs() < 1e-12, "{p:?} {q:?}");
        }
        assert_eq!(rows[0][1].baseline.as_ref().unwrap().did, None);
        let b = rows[1][2].baseline.as_ref().unwrap();
        let d = b.diff.unwrap() - rows[0][2].baseline.as_ref().unwrap().diff.unwrap();
        assert!((b.did.unwrap() - d).abs() < 1e-12);
        assert!(b.did_p_value.unwrap() < 0.05 && b.did_ci_high.unwrap() < 0.0);
    }
}
