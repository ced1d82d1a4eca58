//! One metric on the corpus, every set, its controls and the distance trends, with
//! bootstrap intervals and p-values ([`ldd_eval::significance`]), and each set against
//! samples of its size ([`ldd_eval::strata`]).
//!
//! Resampling streams (all from `--seed`): the corpus and each set use stream 0 (the same
//! draws for every system: paired, as sacreBLEU), control `k` stream `k`, so a set and its
//! controls are resampled independently; the trend of a phenomenon resamples the union
//! of its `ge` sets' lines with stream [`TREND_STREAM`], each `geK` set scored on the drawn
//! lines it contains (the sets are nested, so their scores move together, as they do).
//! The null samples of set `phenomenon/bucket` (its lines exchanged with corpus lines of
//! the same source length) use stream [`null_stream`]`(phenomenon, bucket)`, the same
//! draws for every system.
//!
//! **Set against controls.** `control_diff` = the set's score − the mean of its K written
//! controls; `control_p_value` = `(1 + #{null ≤ set}) / (B + 1)` over the set's `B` null
//! samples (`≥` for a lower-is-better metric), never below `1/(B + 1)`; the interval of
//! `control_diff` is the set's score less the null's central range
//! ([`ldd_eval::strata::diff_interval`]: the set against samples of its size, so it
//! excludes 0 when the p-value is below `(1 − confidence)/2`, about). Without the corpus's source lengths
//! ([`super::lengths`]) the K written controls are the null (`p ≥ 1/(K + 1)`) and the
//! difference has no interval (K scores have no central 95%).
//! `control_q_value`: Benjamini–Hochberg over every set row of one system and metric with
//! a `control_p_value`.

use ldd_eval::metric::{with_columns, OnColumns};
use ldd_eval::significance::{self as sig, Method};
use ldd_eval::stats::{benjamini_hochberg, pearson, spearman, summarize};
use ldd_eval::strata::{self, Strata};
use ldd_eval::{EvalError, PerLine, SufficientStats};

use super::{Loaded, Metric, Row, SignificanceOptions, Trend, Unit, SMALL_SET};
use crate::error::{Error, Result};
use crate::format::sets::ControlStatus;
use crate::format::sets::SetKind;

/// Stream label of the trend bootstrap.
pub const TREND_STREAM: u64 = 1 << 40;

/// The stream label of set `phenomenon/bucket`'s null samples: `2^41` xor the FNV-1a 64 of
/// `phenomenon/bucket` (distinct from the bootstrap's and the trends' streams).
pub fn null_stream(phenomenon: &str, bucket: &str) -> u64 {
    let name = format!("{phenomenon}/{bucket}");
    let fnv = name.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    (1 << 41) ^ fnv
}

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
    /// The corpus lines by source length, for the null samples of every set; `None`: the
    /// written controls are the null.
    pub strata: Option<&'a Strata>,
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
        // Per unit, every system's controls' mean resamples (empty without controls).
        let mut ctl_res: Vec<Vec<Vec<f64>>> = Vec::with_capacity(units.len());
        for u in &units {
            let (set_rows, res) = self.set_rows(metric, stats, params, scale, u)?;
            for (s, r) in set_rows.into_iter().enumerate() {
                rows[s].push(r);
            }
            ctl_res.push(res);
        }
        let trends = self.trends(metric, stats, params, scale, &units, &rows, &ctl_res)?;
        for sys_rows in &mut rows {
            adjust(sys_rows);
        }
        Ok((rows, trends))
    }

    /// Every system's row of set `unit`, and every system's controls' mean resamples
    /// (empty without controls).
    #[allow(clippy::type_complexity)]
    fn set_rows<T: SufficientStats + Sync + PartialEq>(
        &self,
        metric: &Metric,
        stats: &[&[T]],
        params: &T::Params,
        scale: f64,
        unit: &Unit,
    ) -> Result<(Vec<Row>, Vec<Vec<f64>>)> {
        let n_sys = stats.len();
        let mut out: Vec<Row> = (0..n_sys)
            .map(|s| self.empty_row(metric, unit, s))
            .collect();
        if unit.ids.is_empty() {
            return Ok((out, Vec::new()));
        }
        let set = self.sampled(stats, params, &unit.ids, 0, scale)?;
        let p = self.p_values(stats, params, &unit.ids, &set)?;
        let (mut ctl_scores, ctl_mean_res) =
            self.control_samples(stats, params, unit, &set, scale)?;
        let k = unit.controls.len();
        let null = match k {
            0 => Vec::new(),
            _ => self.null_samples(stats, params, scale, unit)?,
        };
        for (s, r) in out.iter_mut().enumerate() {
            let score = set.score[s];
            r.score = Some(score);
            (r.ci_low, r.ci_high) = self.interval(&set.res[s]);
            r.p_value = p[s];
            r.controls = k;
            if k > 0 {
                let null = match self.strata {
                    Some(_) => null.get(s).map_or(&[][..], Vec::as_slice),
                    None => ctl_scores[s].as_slice(),
                };
                self.against_controls(r, metric, score, &ctl_scores[s], null);
            }
            r.control_scores = std::mem::take(&mut ctl_scores[s]);
        }
        let ctl_mean_res = if k > 0 { ctl_mean_res } else { Vec::new() };
        Ok((out, ctl_mean_res))
    }

    /// Every system's scores on the null samples of set `unit` (`[system][sample]`, the
    /// run's bootstrap count of them; none without resampling or strata).
    fn null_samples<T: SufficientStats + Sync>(
        &self,
        stats: &[&[T]],
        params: &T::Params,
        scale: f64,
        unit: &Unit,
    ) -> Result<Vec<Vec<f64>>> {
        let Some(strata) = self.strata.filter(|_| self.sig.bootstrap > 0) else {
            return Ok(vec![Vec::new(); stats.len()]);
        };
        let stream = null_stream(&unit.set.phenomenon, &unit.set.bucket);
        let mut null = strata::null_scores(
            stats,
            params,
            strata,
            &unit.ids,
            self.sig.bootstrap,
            self.sig.seed,
            stream,
        )
        .map_err(|e| self.eval_err(e))?;
        if scale != 1.0 {
            null.iter_mut().flatten().for_each(|x| *x *= scale);
        }
        Ok(null)
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
    /// difference from their mean, its interval (the set's score less the central range
    /// of `null`) and the one-sided p-value of the set's score among
    /// the `null` scores (samples of the set's size; none without resampling).
    fn against_controls(
        &self,
        row: &mut Row,
        metric: &Metric,
        score: f64,
        ctl_scores: &[f64],
        null: &[f64],
    ) {
        let (rank, ties, mean, sd) = control_summary(score, ctl_scores, metric.higher_is_better);
        row.rank = Some(rank);
        row.ties = Some(ties);
        row.control_mean = mean;
        row.control_sd = sd;
        let Some(mean) = mean else { return };
        let observed = score - mean;
        row.control_diff = Some(observed);
        if self.sig.bootstrap == 0 {
            return;
        }
        // K written controls (no strata) are too few for a central range: no interval.
        let interval = self
            .strata
            .and_then(|_| strata::diff_interval(null, score, self.sig.confidence));
        if let Some((low, high)) = interval {
            (row.control_diff_ci_low, row.control_diff_ci_high) = (Some(low), Some(high));
        }
        row.control_p_value = strata::permutation_p(null, score, metric.higher_is_better);
    }

    /// Spearman and Pearson of score against minimum distance over each phenomenon's
    /// non-empty `ge` sets, with bootstrap intervals; and Spearman of the difference from
    /// the controls' mean against distance (the trend net of length), its interval from
    /// the same resamples minus each set's controls' mean resamples (`ctl_res[unit]`).
    #[allow(clippy::too_many_arguments)]
    fn trends<T: SufficientStats + Sync>(
        &self,
        metric: &Metric,
        stats: &[&[T]],
        params: &T::Params,
        scale: f64,
        units: &[&Unit],
        rows: &[Vec<Row>],
        ctl_res: &[Vec<Vec<f64>>],
    ) -> Result<Vec<Trend>> {
        let mut phenomena: Vec<&str> = Vec::new();
        for u in units {
            if !u.set.exact && !phenomena.contains(&u.set.phenomenon.as_str()) {
                phenomena.push(&u.set.phenomenon);
            }
        }
        let mut out = Vec::new();
        for ph in phenomena {
            // The phenomenon's non-empty `ge` sets, by their index in `units`.
            let sets: Vec<usize> = (0..units.len())
                .filter(|&k| {
                    let u = units[k];
                    !u.set.exact && u.set.phenomenon == ph && !u.ids.is_empty()
                })
                .collect();
            let res = self.trend_resamples(stats, params, units, &sets)?;
            let null = self.trend_null(stats, params, units, &sets)?;
            for (s, sys_rows) in rows.iter().enumerate() {
                let dist: Vec<f64> = sets
                    .iter()
                    .map(|&k| f64::from(units[k].set.min_distance))
                    .collect();
                let ctl: Vec<Option<&[f64]>> = sets
                    .iter()
                    .map(|&k| ctl_res[k].get(s).map(Vec::as_slice))
                    .collect();
                let mut t = trend_of(sys_rows, ph, &dist, &res[s], scale, &ctl, self);
                let means: Vec<Option<f64>> = sets
                    .iter()
                    .map(|&k| control_mean(sys_rows, units[k]))
                    .collect();
                t.diff_spearman_p = trend_p(t.diff_spearman, &dist, &null[s], scale, &means);
                t.system = self.systems[s].clone();
                t.metric = metric.key.clone();
                t.signature = metric.signature.clone();
                out.push(t);
            }
        }
        Ok(out)
    }

    /// The joint bootstrap of the `ge` sets `sets` (indices into `units`): their union
    /// resampled with [`TREND_STREAM`], each set scored on the drawn lines it contains;
    /// `[system][resample][set]`.
    #[allow(clippy::type_complexity)]
    fn trend_resamples<T: SufficientStats + Sync>(
        &self,
        stats: &[&[T]],
        params: &T::Params,
        units: &[&Unit],
        sets: &[usize],
    ) -> Result<Vec<Vec<Vec<Option<f64>>>>> {
        if self.sig.bootstrap == 0 || sets.len() < 2 {
            return Ok(vec![Vec::new(); stats.len()]);
        }
        let (universe, groups) = nested(units, sets);
        sig::bootstrap_groups(
            stats,
            params,
            &universe,
            &groups,
            self.sig.bootstrap,
            self.sig.seed,
            TREND_STREAM,
        )
        .map_err(|e| self.eval_err(e))
    }
}

impl Evaluator<'_> {
    /// The nested null of the `ge` sets `sets` (indices into `units`): their union's lines
    /// exchanged with lines of the same length, each set scored on its own lines' images
    /// ([`strata::null_groups`], stream [`TREND_STREAM`] + 1); `[system][sample][set]`,
    /// empty without strata, resampling or two sets.
    #[allow(clippy::type_complexity)]
    fn trend_null<T: SufficientStats + Sync>(
        &self,
        stats: &[&[T]],
        params: &T::Params,
        units: &[&Unit],
        sets: &[usize],
    ) -> Result<Vec<Vec<Vec<Option<f64>>>>> {
        let Some(strata) = self
            .strata
            .filter(|_| self.sig.bootstrap > 0 && sets.len() >= 2)
        else {
            return Ok(vec![Vec::new(); stats.len()]);
        };
        let (universe, groups) = nested(units, sets);
        strata::null_groups(
            stats,
            params,
            strata,
            &universe,
            &groups,
            self.sig.bootstrap,
            self.sig.seed,
            TREND_STREAM + 1,
        )
        .map_err(|e| self.eval_err(e))
    }
}

/// The union of the `ge` sets `sets` (indices into `units`; ascending ids) and each set's
/// ids: what their joint resamples and nested null samples draw from.
fn nested<'u>(units: &[&'u Unit], sets: &[usize]) -> (Vec<u32>, Vec<&'u [u32]>) {
    let mut universe: Vec<u32> = sets
        .iter()
        .flat_map(|&k| units[k].ids.iter().copied())
        .collect();
    universe.sort_unstable();
    universe.dedup();
    let groups = sets.iter().map(|&k| units[k].ids.as_slice()).collect();
    (universe, groups)
}

/// The controls' mean of set `unit` in one system's rows.
fn control_mean(sys_rows: &[Row], unit: &Unit) -> Option<f64> {
    sys_rows
        .iter()
        .find(|r| {
            r.scope == "set"
                && r.phenomenon == unit.set.phenomenon
                && r.bucket == unit.set.bucket
                && r.kind == unit.set.kind.name()
        })?
        .control_mean
}

/// Two-sided permutation p of the trend net of length `observed` (Spearman of distance and
/// set − controls' mean): the same statistic over the nested null samples `null`
/// (`[sample][set]`, unscaled), each set's sample less the set's controls' mean `means`;
/// `p = min(1, 2 · min(#{ρ_b ≤ ρ} + 1, #{ρ_b ≥ ρ} + 1) / (B + 1))`.
fn trend_p(
    observed: Option<f64>,
    dist: &[f64],
    null: &[Vec<Option<f64>>],
    scale: f64,
    means: &[Option<f64>],
) -> Option<f64> {
    let observed = observed?;
    let rhos: Vec<f64> = null
        .iter()
        .filter_map(|b| {
            let (x, y): (Vec<f64>, Vec<f64>) = b
                .iter()
                .zip(dist)
                .zip(means)
                .filter_map(|((v, d), m)| Some((*d, v.as_ref()? * scale - (*m)?)))
                .unzip();
            spearman(&x, &y)
        })
        .collect();
    if rhos.is_empty() {
        return None;
    }
    let n = rhos.len() as f64 + 1.0;
    let low = (rhos.iter().filter(|&&r| r <= observed + 1e-12).count() as f64 + 1.0) / n;
    let high = (rhos.iter().filter(|&&r| r >= observed - 1e-12).count() as f64 + 1.0) / n;
    Some((2.0 * low.min(high)).min(1.0))
}

/// Adds each set row's `control_q_value`: Benjamini–Hochberg over the `control_p_value`s of
/// `rows` (one system's rows of one metric), every set that has one counted.
fn adjust(rows: &mut [Row]) {
    let p: Vec<Option<f64>> = rows
        .iter()
        .map(|r| r.control_p_value.filter(|_| r.is_set()))
        .collect();
    for (r, q) in rows.iter_mut().zip(benjamini_hochberg(&p)) {
        r.control_q_value = q;
    }
}

/// One system's trend of phenomenon `ph` from its rows: the raw score's and the
/// difference's points and correlations, with intervals from the joint resamples `res`
/// (`[resample][set]`, unscaled) of the sets at distances `dist`, less each set's controls'
/// mean resamples `ctl` (`None`: a set without controls, left out of the difference).
fn trend_of(
    sys_rows: &[Row],
    ph: &str,
    dist: &[f64],
    res: &[Vec<Option<f64>>],
    scale: f64,
    ctl: &[Option<&[f64]>],
    ev: &Evaluator<'_>,
) -> Trend {
    let of_ph = || {
        sys_rows
            .iter()
            .filter(move |r| r.scope == "set" && r.exact == Some(false) && r.phenomenon == ph)
    };
    let points: Vec<(u32, f64)> = of_ph()
        .filter_map(|r| Some((r.min_distance?, r.score?)))
        .collect();
    let diff_points: Vec<(u32, f64)> = of_ph()
        .filter_map(|r| Some((r.min_distance?, r.control_diff?)))
        .collect();
    let (mut sp, mut pe, mut dsp) = (Vec::new(), Vec::new(), Vec::new());
    for b in res {
        let (bx, by): (Vec<f64>, Vec<f64>) = b
            .iter()
            .zip(dist)
            .filter_map(|(v, d)| v.map(|v| (*d, v * scale)))
            .unzip();
        sp.extend(spearman(&bx, &by));
        pe.extend(pearson(&bx, &by));
    }
    for (k, b) in res.iter().enumerate() {
        let (dx, dy): (Vec<f64>, Vec<f64>) = b
            .iter()
            .zip(dist)
            .zip(ctl)
            .filter_map(|((v, d), c)| Some((*d, v.as_ref()? * scale - (*c)?.get(k)?)))
            .unzip();
        dsp.extend(spearman(&dx, &dy));
    }
    let xy = |p: &[(u32, f64)]| -> (Vec<f64>, Vec<f64>) {
        p.iter().map(|&(d, v)| (f64::from(d), v)).unzip()
    };
    let ((x, y), (dx, dy)) = (xy(&points), xy(&diff_points));
    let (spearman_ci_low, spearman_ci_high) = ev.interval(&sp);
    let (pearson_ci_low, pearson_ci_high) = ev.interval(&pe);
    let (diff_spearman_ci_low, diff_spearman_ci_high) = ev.interval(&dsp);
    Trend {
        phenomenon: ph.to_string(),
        spearman: spearman(&x, &y),
        pearson: pearson(&x, &y),
        points,
        spearman_ci_low,
        spearman_ci_high,
        pearson_ci_low,
        pearson_ci_high,
        diff_spearman: spearman(&dx, &dy),
        diff_points,
        diff_spearman_ci_low,
        diff_spearman_ci_high,
        ..Trend::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The trend's permutation p by hand: 9 nested null samples rising with distance
    /// (ρ = 1), the observed falling (ρ = −1): `#{ρ_b ≤ −1} = 0`, so `p = 2 · 1/10`; a
    /// set without a controls' mean is left out of each sample's ρ.
    #[test]
    fn the_trend_p_counts_the_nested_samples() {
        let dist = [0.0, 1.0, 2.0, 3.0];
        let rising = vec![Some(0.1), Some(0.2), Some(0.3), Some(9.0)];
        let null = vec![rising; 9];
        let means = [Some(0.0), Some(0.0), Some(0.0), None];
        let p = trend_p(Some(-1.0), &dist, &null, 100.0, &means).expect("a test");
        assert!((p - 0.2).abs() < 1e-12, "{p}");
        // The observed as the samples: p 1 (never above 1).
        assert_eq!(trend_p(Some(1.0), &dist, &null, 100.0, &means), Some(1.0));
        assert_eq!(trend_p(None, &dist, &null, 100.0, &means), None);
        assert_eq!(trend_p(Some(-1.0), &dist, &[], 100.0, &means), None);
    }
}
