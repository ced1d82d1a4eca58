//! One metric on the corpus, every set, its controls and the distance trends, with
//! bootstrap intervals and p-values ([`ldd_eval::significance`]).
//!
//! Resampling streams (all from `--seed`): the corpus and each set use stream 0 (the same
//! draws for every system: paired, as sacreBLEU), control `k` stream `k`, so a set and its
//! controls are resampled independently; the trend of a phenomenon resamples the union
//! of its `ge` sets' lines with stream [`TREND_STREAM`], each `geK` set scored on the drawn
//! lines it contains (the sets are nested, so their scores move together, as they do).

use ldd_eval::metric::{with_columns, OnColumns};
use ldd_eval::significance::{self as sig, Method};
use ldd_eval::stats::{pearson, spearman, summarize};
use ldd_eval::{EvalError, PerLine, SufficientStats};

use super::{Loaded, Metric, Row, SignificanceOptions, Trend, Unit, SMALL_SET};
use crate::error::{Error, Result};
use crate::format::sets::ControlStatus;
use crate::format::sets::SetKind;

/// Stream label of the trend bootstrap.
pub const TREND_STREAM: u64 = 1 << 40;

/// What one metric is computed with.
pub struct Evaluator<'a> {
    /// The sets.
    pub loaded: &'a Loaded,
    /// System names, in `--hyp` order (the first is the baseline).
    pub systems: &'a [String],
    /// Resampling settings.
    pub sig: &'a SignificanceOptions,
    /// The paired test, `None` for a single system.
    pub method: Option<Method>,
}

/// [`Evaluator::metric`] on the columns as typed slices.
struct Typed<'e, 'a> {
    ev: &'e Evaluator<'a>,
    metric: &'e Metric,
    scale: f64,
}

impl OnColumns for Typed<'_, '_> {
    type Out = Result<(Vec<Vec<Row>>, Vec<Trend>)>;

    fn run<T: SufficientStats + Sync + PartialEq>(
        self,
        columns: &[&[T]],
        params: &T::Params,
    ) -> Self::Out {
        self.ev
            .metric_typed(self.metric, columns, params, self.scale)
    }
}

/// A sample scored: every system's score and bootstrap resample scores.
struct Sampled {
    score: Vec<f64>,
    /// `[system][resample]`, empty without resampling.
    res: Vec<Vec<f64>>,
}

/// `(rank, ties, mean, sd)` of a set score among control scores, oriented by the metric.
fn control_summary(
    score: f64,
    controls: &[f64],
    higher_is_better: bool,
) -> (usize, usize, Option<f64>, Option<f64>) {
    let s = summarize(score, controls);
    if higher_is_better {
        (s.rank, s.ties, s.mean, s.sd)
    } else {
        let neg: Vec<f64> = controls.iter().map(|c| -c).collect();
        let r = summarize(-score, &neg);
        (r.rank, r.ties, s.mean, s.sd)
    }
}

impl Evaluator<'_> {
    fn eval_err(&self, error: EvalError) -> Error {
        Error::Data(format!(
            "{}: {error}",
            ldd_io::error::shown(&self.loaded.dir)
        ))
    }

    fn sampled<T: SufficientStats + Sync>(
        &self,
        stats: &[&[T]],
        params: &T::Params,
        ids: &[u32],
        stream: u64,
        scale: f64,
    ) -> Result<Sampled> {
        let score = stats
            .iter()
            .map(|s| ldd_eval::score_ids(s, params, ids).map(|x| x * scale))
            .collect::<std::result::Result<Vec<f64>, _>>()
            .map_err(|e| self.eval_err(e))?;
        let mut res = if self.sig.bootstrap > 0 {
            sig::bootstrap(
                stats,
                params,
                ids,
                self.sig.bootstrap,
                self.sig.seed,
                stream,
            )
            .map_err(|e| self.eval_err(e))?
        } else {
            vec![Vec::new(); stats.len()]
        };
        if scale != 1.0 {
            res.iter_mut().flatten().for_each(|x| *x *= scale);
        }
        Ok(Sampled { score, res })
    }

    /// p-values of every system against the baseline on `ids`.
    fn p_values<T: SufficientStats + Sync + PartialEq>(
        &self,
        stats: &[&[T]],
        params: &T::Params,
        ids: &[u32],
        smp: &Sampled,
    ) -> Result<Vec<Option<f64>>> {
        let mut out = vec![None];
        for s in 1..stats.len() {
            out.push(match self.method {
                None => None,
                Some(Method::Bootstrap) => {
                    sig::paired_bs_p(&smp.res[0], &smp.res[s], smp.score[0], smp.score[s])
                }
                Some(Method::Randomization) => sig::paired_ar_p(
                    stats[0],
                    stats[s],
                    params,
                    ids,
                    self.sig.trials,
                    self.sig.seed,
                    0,
                )
                .map_err(|e| self.eval_err(e))?,
            });
        }
        Ok(out)
    }

    fn interval(&self, values: &[f64]) -> (Option<f64>, Option<f64>) {
        match sig::interval(values, self.sig.confidence) {
            Some(i) => (Some(i.low), Some(i.high)),
            None => (None, None),
        }
    }

    /// Rows (`[system][row]`) and trends of one metric from its statistics of every
    /// system (`columns`, one per system). `scale` multiplies every score (100 for RIBES).
    pub fn metric(
        &self,
        metric: &Metric,
        columns: &[&PerLine],
        scale: f64,
    ) -> Result<(Vec<Vec<Row>>, Vec<Trend>)> {
        with_columns(
            columns,
            Typed {
                ev: self,
                metric,
                scale,
            },
        )
    }

    fn metric_typed<T: SufficientStats + Sync + PartialEq>(
        &self,
        metric: &Metric,
        stats: &[&[T]],
        params: &T::Params,
        scale: f64,
    ) -> Result<(Vec<Vec<Row>>, Vec<Trend>)> {
        let n_sys = stats.len();
        let mut rows: Vec<Vec<Row>> = vec![Vec::new(); n_sys];
        let lines = self.loaded.manifest.corpus.lines;
        let all: Vec<u32> = (1..=lines as u32).collect();
        let corpus = self.sampled(stats, params, &all, 0, scale)?;
        let p = self.p_values(stats, params, &all, &corpus)?;
        for s in 0..n_sys {
            let (ci_low, ci_high) = self.interval(&corpus.res[s]);
            rows[s].push(Row {
                system: self.systems[s].clone(),
                metric: metric.key.clone(),
                scope: "corpus".into(),
                kind: String::new(),
                phenomenon: String::new(),
                bucket: "corpus".into(),
                min_distance: None,
                exact: None,
                sentences: lines,
                score: Some(corpus.score[s]),
                controls: 0,
                control_status: "none".into(),
                control_mean: None,
                control_sd: None,
                rank: None,
                ties: None,
                control_scores: Vec::new(),
                ci_low,
                ci_high,
                p_value: p[s],
                control_diff: None,
                control_diff_ci_low: None,
                control_diff_ci_high: None,
                control_p_value: None,
                small_set: lines < SMALL_SET,
                signature: metric.signature.clone(),
                ..Row::default()
            });
        }
        let units: Vec<&Unit> = self
            .loaded
            .units
            .iter()
            .filter(|u| !metric.reorder_only || u.set.kind == SetKind::Reorder)
            .collect();
        for u in &units {
            let set_rows = self.set_rows(metric, stats, params, scale, u)?;
            for (s, r) in set_rows.into_iter().enumerate() {
                rows[s].push(r);
            }
        }
        let trends = self.trends(metric, stats, params, scale, &units, &rows)?;
        Ok((rows, trends))
    }

    fn set_rows<T: SufficientStats + Sync + PartialEq>(
        &self,
        metric: &Metric,
        stats: &[&[T]],
        params: &T::Params,
        scale: f64,
        unit: &Unit,
    ) -> Result<Vec<Row>> {
        let n_sys = stats.len();
        let mut out: Vec<Row> = (0..n_sys)
            .map(|s| self.empty_row(metric, unit, s))
            .collect();
        if unit.ids.is_empty() {
            return Ok(out);
        }
        let set = self.sampled(stats, params, &unit.ids, 0, scale)?;
        let p = self.p_values(stats, params, &unit.ids, &set)?;
        let (mut ctl_scores, ctl_mean_res) =
            self.control_samples(stats, params, unit, &set, scale)?;
        let k = unit.controls.len();
        for (s, r) in out.iter_mut().enumerate() {
            let score = set.score[s];
            r.score = Some(score);
            (r.ci_low, r.ci_high) = self.interval(&set.res[s]);
            r.p_value = p[s];
            r.controls = k;
            if k > 0 {
                self.against_controls(
                    r,
                    metric,
                    score,
                    &ctl_scores[s],
                    &set.res[s],
                    &ctl_mean_res[s],
                );
            }
            r.control_scores = std::mem::take(&mut ctl_scores[s]);
        }
        Ok(out)
    }

    /// `system`'s row of `metric` on set `unit`, before any score.
    fn empty_row(&self, metric: &Metric, unit: &Unit, system: usize) -> Row {
        Row {
            system: self.systems[system].clone(),
            metric: metric.key.clone(),
            scope: "set".into(),
            kind: unit.set.kind.name().into(),
            phenomenon: unit.set.phenomenon.clone(),
            bucket: unit.set.bucket.clone(),
            min_distance: Some(unit.set.min_distance),
            exact: Some(unit.set.exact),
            sentences: unit.ids.len() as u64,
            score: None,
            controls: 0,
            control_status: unit.status.map_or("none", ControlStatus::name).into(),
            control_mean: None,
            control_sd: None,
            rank: None,
            ties: None,
            control_scores: Vec::new(),
            ci_low: None,
            ci_high: None,
            p_value: None,
            control_diff: None,
            control_diff_ci_low: None,
            control_diff_ci_high: None,
            control_p_value: None,
            small_set: (unit.ids.len() as u64) < SMALL_SET,
            signature: metric.signature.clone(),
            ..Row::default()
        }
    }

    /// Per system, the scores of set `unit`'s controls and the mean of their resamples per
    /// resample (resampled like `set`).
    #[allow(clippy::type_complexity)]
    fn control_samples<T: SufficientStats + Sync + PartialEq>(
        &self,
        stats: &[&[T]],
        params: &T::Params,
        unit: &Unit,
        set: &Sampled,
        scale: f64,
    ) -> Result<(Vec<Vec<f64>>, Vec<Vec<f64>>)> {
        let k = unit.controls.len();
        let mut ctl_scores: Vec<Vec<f64>> = vec![Vec::with_capacity(k); stats.len()];
        let mut ctl_mean_res: Vec<Vec<f64>> = set.res.iter().map(|r| vec![0.0; r.len()]).collect();
        for (c, ids) in unit.controls.iter().enumerate() {
            let smp = self.sampled(stats, params, ids, c as u64 + 1, scale)?;
            for s in 0..stats.len() {
                ctl_scores[s].push(smp.score[s]);
                for (acc, x) in ctl_mean_res[s].iter_mut().zip(&smp.res[s]) {
                    *acc += x / k as f64;
                }
            }
        }
        Ok((ctl_scores, ctl_mean_res))
    }

    /// A set row's figures against its controls: rank, ties, their mean and spread, the
    /// difference from their mean with its interval and one-sided p-value (from the set's
    /// resamples `res` and the controls' mean resamples `ctl_mean_res`).
    fn against_controls(
        &self,
        row: &mut Row,
        metric: &Metric,
        score: f64,
        ctl_scores: &[f64],
        res: &[f64],
        ctl_mean_res: &[f64],
    ) {
        let (rank, ties, mean, sd) = control_summary(score, ctl_scores, metric.higher_is_better);
        row.rank = Some(rank);
        row.ties = Some(ties);
        row.control_mean = mean;
        row.control_sd = sd;
        let Some(mean) = mean else { return };
        let observed = score - mean;
        row.control_diff = Some(observed);
        let d: Vec<f64> = res.iter().zip(ctl_mean_res).map(|(a, b)| a - b).collect();
        (row.control_diff_ci_low, row.control_diff_ci_high) = self.interval(&d);
        row.control_p_value = if metric.higher_is_better {
            sig::one_sided_p(&d, observed)
        } else {
            let neg: Vec<f64> = d.iter().map(|x| -x).collect();
            sig::one_sided_p(&neg, -observed)
        };
    }

    /// Spearman and Pearson of score against minimum distance over each phenomenon's
    /// non-empty `ge` sets, with bootstrap intervals.
    fn trends<T: SufficientStats + Sync>(
        &self,
        metric: &Metric,
        stats: &[&[T]],
        params: &T::Params,
        scale: f64,
        units: &[&Unit],
        rows: &[Vec<Row>],
    ) -> Result<Vec<Trend>> {
        let mut phenomena: Vec<&str> = Vec::new();
        for u in units {
            if !u.set.exact && !phenomena.contains(&u.set.phenomenon.as_str()) {
                phenomena.push(&u.set.phenomenon);
            }
        }
        let mut out = Vec::new();
        for ph in phenomena {
            let sets: Vec<&Unit> = units
                .iter()
                .copied()
                .filter(|u| !u.set.exact && u.set.phenomenon == ph && !u.ids.is_empty())
                .collect();
            let dist: Vec<f64> = sets.iter().map(|u| f64::from(u.set.min_distance)).collect();
            let mut universe: Vec<u32> = sets.iter().flat_map(|u| u.ids.iter().copied()).collect();
            universe.sort_unstable();
            universe.dedup();
            let groups: Vec<&[u32]> = sets.iter().map(|u| u.ids.as_slice()).collect();
            let res = if self.sig.bootstrap > 0 && sets.len() >= 2 {
                sig::bootstrap_groups(
                    stats,
                    params,
                    &universe,
                    &groups,
                    self.sig.bootstrap,
                    self.sig.seed,
                    TREND_STREAM,
                )
                .map_err(|e| self.eval_err(e))?
            } else {
                vec![Vec::new(); stats.len()]
            };
            for (s, sys_rows) in rows.iter().enumerate() {
                let points: Vec<(u32, f64)> = sys_rows
                    .iter()
                    .filter(|r| r.scope == "set" && r.exact == Some(false) && r.phenomenon == ph)
                    .filter_map(|r| Some((r.min_distance?, r.score?)))
                    .collect();
                let x: Vec<f64> = points.iter().map(|p| f64::from(p.0)).collect();
                let y: Vec<f64> = points.iter().map(|p| p.1).collect();
                let (mut sp, mut pe) = (Vec::new(), Vec::new());
                for b in &res[s] {
                    let (bx, by): (Vec<f64>, Vec<f64>) = b
                        .iter()
                        .zip(&dist)
                        .filter_map(|(v, d)| v.map(|v| (*d, v * scale)))
                        .unzip();
                    sp.extend(spearman(&bx, &by));
                    pe.extend(pearson(&bx, &by));
                }
                let (spearman_ci_low, spearman_ci_high) = self.interval(&sp);
                let (pearson_ci_low, pearson_ci_high) = self.interval(&pe);
                out.push(Trend {
                    system: self.systems[s].clone(),
                    metric: metric.key.clone(),
                    phenomenon: ph.to_string(),
                    spearman: spearman(&x, &y),
                    pearson: pearson(&x, &y),
                    points,
                    spearman_ci_low,
                    spearman_ci_high,
                    pearson_ci_low,
                    pearson_ci_high,
                    signature: metric.signature.clone(),
                    ..Trend::default()
                });
            }
        }
        Ok(out)
    }
}
