//! Paired significance tests and bootstrap confidence intervals on per-line sufficient
//! statistics, with sacreBLEU 2.x's semantics (`sacrebleu/significance.py`).
//!
//! Nothing is re-tokenized: a resample sums the cached statistics of the drawn lines
//! ([`SufficientStats`]) and finalises them, exactly as scoring a set does.
//!
//! * **Bootstrap** ([`bootstrap`]): resample `b` draws `m` of the sample's `m` lines with
//!   replacement; every system is scored on the *same* draws (paired), as sacreBLEU's
//!   `_paired_bs_test` scores baseline and system on one index matrix. The draws are
//!   kept as counts per line, and each drawn line's statistics are added `count` times
//!   ([`SufficientStats::add_times`]) in line order: integer statistics give exactly the
//!   sums of the drawn lines, read sequentially.
//! * **Interval** ([`interval`]): sacreBLEU's `estimate_ci` — the resample scores sorted,
//!   `low = s[⌊n·(1−c)/2⌋]`, `high = s[n − 1 − ⌊n·(1−c)/2⌋]` (for c = 0.95: `n // 40`),
//!   `mean` = their mean. sacreBLEU prints `mean ± (high − low)/2`; ldd-sets reports
//!   `[low, high]`.
//! * **Paired bootstrap p-value** ([`paired_bs_p`]): `d_b = |sys_b − base_b|`; with
//!   `δ = |sys − base|` on the sample, `p = (#{d_b − mean(d) > δ} + 1) / (n + 1)`.
//! * **Approximate randomization** ([`paired_ar_p`]): each trial swaps every line's
//!   statistics between the two systems with probability ½ (sacreBLEU's `pos_sel`
//!   coin per line) and scores both pseudo-systems; `p = (#{|a_t − b_t| > δ} + 1) / (n + 1)`.
//! * **One-sided p** ([`one_sided_p`]): for a difference without pairing (a set against
//!   its controls), the null-centred bootstrap distribution `d_b − mean(d)`:
//!   `p = (#{d_b − mean(d) ≤ δ} + 1) / (n + 1)` — small when the observed `δ` is far
//!   below zero.
//!
//! One deliberate difference from sacreBLEU: two systems whose statistics are equal on
//! every line of the sample get `p = 1` (sacreBLEU's strict `>` gives `1/(n+1)` there,
//! calling a system significantly different from itself).
//!
//! **Randomness.** sacreBLEU draws with numpy's generator seeded 12345; ldd-sets draws
//! with its own xoshiro256** ([`crate::rng`]) from the same default seed, so values agree
//! with sacreBLEU's within Monte-Carlo error, not digit for digit. Resample `b` of stream
//! `s` uses [`draws`]`(seed, s, b)`: it depends only on the seed, the stream label, `b` and
//! the sample size — never on the thread count (resamples run in parallel, each
//! sequentially) — so all systems, and all samples of one size and label, share draws.

use rayon::prelude::*;

use crate::rng::{self, Xoshiro256StarStar};
use crate::{line_index, EvalError, SufficientStats};

/// sacreBLEU's default seed (`SACREBLEU_SEED`).
pub const DEFAULT_SEED: u64 = 12345;
/// sacreBLEU's default number of bootstrap resamples (`--paired-bs-n`).
pub const DEFAULT_BOOTSTRAP: usize = 1000;
/// sacreBLEU's default number of approximate-randomization trials (`--paired-ar-n`).
pub const DEFAULT_TRIALS: usize = 10_000;

/// A paired test between two systems.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum Method {
    /// Paired bootstrap resampling (`--paired-bs`).
    #[serde(rename = "bs")]
    Bootstrap,
    /// Approximate randomization (`--paired-ar`).
    #[serde(rename = "ar")]
    Randomization,
}

impl Method {
    /// sacreBLEU's short name: `bs` or `ar`.
    pub fn name(self) -> &'static str {
        match self {
            Method::Bootstrap => "bs",
            Method::Randomization => "ar",
        }
    }
}

/// Resamples (or trials) run per parallel task.
const CHUNK: usize = 8;

/// The generator of resample (or trial) `resample` of stream `stream`.
pub fn draws(seed: u64, stream: u64, resample: usize) -> Xoshiro256StarStar {
    rng::stream(rng::mix64(seed ^ rng::mix64(stream)), resample as u64)
}

/// Draws `lines` positions of `0..lines` with replacement: `counts[k]` = how often `k` was
/// drawn. (Summing each drawn line's statistics `counts[k]` times, in position order, reads
/// the statistics sequentially.)
fn draw_counts(counts: &mut Vec<u32>, lines: usize, generator: &mut Xoshiro256StarStar) {
    counts.clear();
    counts.resize(lines, 0);
    for _ in 0..lines {
        counts[generator.below(lines as u64) as usize] += 1;
    }
}

/// 0-based line indices of 1-based `ids`, checked against `len`.
fn indices(ids: &[u32], len: usize) -> Result<Vec<usize>, EvalError> {
    ids.iter().map(|&id| line_index(id, len)).collect()
}

fn check_systems<T>(systems: &[&[T]]) -> Result<usize, EvalError> {
    let len = systems.first().map_or(0, |s| s.len());
    for s in systems {
        if s.len() != len {
            return Err(EvalError::LengthMismatch {
                hyp: s.len(),
                reference: len,
            });
        }
    }
    Ok(len)
}

/// Bootstrap resample scores of every system on the lines `ids` (1-based): `resamples`
/// resamples drawn with [`draws`]`(seed, stream, b)`, each system scored on the same draws.
/// Returns `[system][resample]`; empty vectors when `ids` is empty.
pub fn bootstrap<T: SufficientStats + Sync>(
    systems: &[&[T]],
    params: &T::Params,
    ids: &[u32],
    resamples: usize,
    seed: u64,
    stream: u64,
) -> Result<Vec<Vec<f64>>, EvalError> {
    let len = check_systems(systems)?;
    let idx = indices(ids, len)?;
    if idx.is_empty() {
        return Ok(vec![Vec::new(); systems.len()]);
    }
    let per_b: Vec<Vec<f64>> = (0..resamples)
        .into_par_iter()
        .with_min_len(CHUNK)
        .map_init(Vec::new, |counts: &mut Vec<u32>, b| {
            draw_counts(counts, idx.len(), &mut draws(seed, stream, b));
            systems
                .iter()
                .map(|s| {
                    let mut acc = T::default();
                    for (&c, &i) in counts.iter().zip(&idx) {
                        if c > 0 {
                            acc.add_times(&s[i], u64::from(c));
                        }
                    }
                    acc.score(params)
                })
                .collect()
        })
        .collect();
    Ok((0..systems.len())
        .map(|s| per_b.iter().map(|v| v[s]).collect())
        .collect())
}

/// Bootstrap of nested subsets: each resample draws `|universe|` lines of `universe` with
/// replacement, and every subset `groups[g]` (ids, each a subset of `universe`) is scored
/// on the drawn lines that belong to it — so the subsets keep their overlap, as the `geK`
/// sets of one phenomenon do. Returns `[system][resample][group]`, `None` where a
/// resample drew no line of the group.
pub fn bootstrap_groups<T: SufficientStats + Sync>(
    systems: &[&[T]],
    params: &T::Params,
    universe: &[u32],
    groups: &[&[u32]],
    resamples: usize,
    seed: u64,
    stream: u64,
) -> Result<Vec<Vec<Vec<Option<f64>>>>, EvalError> {
    let len = check_systems(systems)?;
    let idx = indices(universe, len)?;
    // member[k]: the groups containing universe line k.
    let mut member: Vec<Vec<usize>> = vec![Vec::new(); idx.len()];
    for (g, ids) in groups.iter().enumerate() {
        for &id in ids.iter() {
            let k = universe
                .binary_search(&id)
                .map_err(|_| EvalError::IdOutOfRange {
                    id,
                    len: universe.len(),
                })?;
            member[k].push(g);
        }
    }
    if idx.is_empty() {
        return Ok(vec![Vec::new(); systems.len()]);
    }
    let per_b: Vec<Vec<Vec<Option<f64>>>> = (0..resamples)
        .into_par_iter()
        .with_min_len(CHUNK)
        .map_init(Vec::new, |counts: &mut Vec<u32>, b| {
            draw_counts(counts, idx.len(), &mut draws(seed, stream, b));
            systems
                .iter()
                .map(|s| {
                    let mut acc = vec![(T::default(), 0u64); groups.len()];
                    for (k, &c) in counts.iter().enumerate() {
                        if c == 0 {
                            continue;
                        }
                        for &grp in &member[k] {
                            acc[grp].0.add_times(&s[idx[k]], u64::from(c));
                            acc[grp].1 += u64::from(c);
                        }
                    }
                    acc.iter()
                        .map(|(a, c)| (*c > 0).then(|| a.score(params)))
                        .collect()
                })
                .collect()
        })
        .collect();
    Ok((0..systems.len())
        .map(|s| per_b.iter().map(|v| v[s].clone()).collect())
        .collect())
}

/// A bootstrap interval: the resamples' mean and the percentile bounds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Interval {
    /// Mean of the resample values (sacreBLEU's `μ`).
    pub mean: f64,
    /// Lower bound.
    pub low: f64,
    /// Upper bound.
    pub high: f64,
}

impl Interval {
    /// Half the width: what sacreBLEU prints after `±`.
    pub fn half_width(&self) -> f64 {
        0.5 * (self.high - self.low)
    }
}

/// Index of the lower bound among `count` sorted values at `confidence` (sacreBLEU:
/// `count // 40` for 0.95).
pub fn lower_index(count: usize, confidence: f64) -> usize {
    // The epsilon absorbs binary rounding of e.g. 1000 × 0.025.
    let k = (count as f64 * (1.0 - confidence) / 2.0 + 1e-9).floor();
    (k.max(0.0) as usize).min(count.saturating_sub(1) / 2)
}

/// sacreBLEU's `estimate_ci` at `confidence` (0.95 for its 95% interval); `None` for no
/// values. NaN values are ignored.
pub fn interval(values: &[f64], confidence: f64) -> Option<Interval> {
    let mut v: Vec<f64> = values.iter().copied().filter(|x| !x.is_nan()).collect();
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    let lo = lower_index(v.len(), confidence);
    let hi = v.len() - 1 - lo;
    Some(Interval {
        mean: v.iter().sum::<f64>() / v.len() as f64,
        low: v[lo],
        high: v[hi],
    })
}

/// `(count + 1) / (trials + 1)`.
fn p_of(count: usize, trials: usize) -> f64 {
    (count + 1) as f64 / (trials + 1) as f64
}

/// sacreBLEU's paired bootstrap p-value from the paired resample scores of the baseline
/// and the system and their scores on the sample (`base_score`, `sys_score`). `None` for
/// no resamples; 1 when every resample difference is zero (identical systems).
pub fn paired_bs_p(base: &[f64], sys: &[f64], base_score: f64, sys_score: f64) -> Option<f64> {
    if base.is_empty() || base.len() != sys.len() {
        return None;
    }
    let d: Vec<f64> = base.iter().zip(sys).map(|(b, s)| (s - b).abs()).collect();
    if d.iter().all(|&x| x == 0.0) && base_score == sys_score {
        return Some(1.0);
    }
    let mean = d.iter().sum::<f64>() / d.len() as f64;
    let real = (base_score - sys_score).abs();
    let c = d.iter().filter(|&&x| x - mean > real).count();
    Some(p_of(c, d.len()))
}

/// sacreBLEU's paired approximate randomization p-value of `sys` against `base` on the
/// lines `ids` (1-based), with `trials` trials drawn with [`draws`]`(seed, stream, t)`.
/// `None` when `ids` is empty; 1 when the two systems' statistics are equal on every line.
pub fn paired_ar_p<T: SufficientStats + Sync + PartialEq>(
    base: &[T],
    sys: &[T],
    params: &T::Params,
    ids: &[u32],
    trials: usize,
    seed: u64,
    stream: u64,
) -> Result<Option<f64>, EvalError> {
    let len = check_systems(&[base, sys])?;
    let idx = indices(ids, len)?;
    if idx.is_empty() || trials == 0 {
        return Ok(None);
    }
    if idx.iter().all(|&i| base[i] == sys[i]) {
        return Ok(Some(1.0));
    }
    let score = |s: &[T]| {
        let mut acc = T::default();
        for &i in &idx {
            acc.add(&s[i]);
        }
        acc.score(params)
    };
    let real = (score(base) - score(sys)).abs();
    let c: usize = (0..trials)
        .into_par_iter()
        .with_min_len(CHUNK)
        .map(|t| {
            let mut g = draws(seed, stream, t);
            let (mut a, mut b) = (T::default(), T::default());
            let mut bits = 0u64;
            for (j, &i) in idx.iter().enumerate() {
                if j % 64 == 0 {
                    bits = g.next_u64();
                }
                if bits & 1 == 1 {
                    a.add(&base[i]);
                    b.add(&sys[i]);
                } else {
                    a.add(&sys[i]);
                    b.add(&base[i]);
                }
                bits >>= 1;
            }
            usize::from((a.score(params) - b.score(params)).abs() > real)
        })
        .sum();
    Ok(Some(p_of(c, trials)))
}

/// One-sided bootstrap p-value that the true difference is below zero, from resampled
/// `differences` and the observed difference `observed`:
/// `(#{d_b − mean(d) ≤ observed} + 1) / (n + 1)` over the `n` finite differences `d_b`.
/// `None` for no finite resamples.
pub fn one_sided_p(differences: &[f64], observed: f64) -> Option<f64> {
    let differences: Vec<f64> = differences
        .iter()
        .copied()
        .filter(|x| x.is_finite())
        .collect();
    if differences.is_empty() || !observed.is_finite() {
        return None;
    }
    let mean = differences.iter().sum::<f64>() / differences.len() as f64;
    let c = differences
        .iter()
        .filter(|&&x| x - mean <= observed)
        .count();
    Some(p_of(c, differences.len()))
}

/// The Wilson score interval of a proportion, `successes` of `trials`, at `confidence`
/// (e.g. 0.95): the interval for accuracies counted over items, as statsmodels'
/// `proportion_confint(method="wilson")`. `None` when `trials` is 0.
pub fn wilson(successes: u64, trials: u64, confidence: f64) -> Option<(f64, f64)> {
    use statrs::distribution::{ContinuousCDF, Normal};
    if trials == 0 || successes > trials || !(confidence > 0.0 && confidence < 1.0) {
        return None;
    }
    let z = Normal::standard().inverse_cdf(1.0 - (1.0 - confidence) / 2.0);
    let (trials, p) = (trials as f64, successes as f64 / trials as f64);
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * trials)) / (1.0 + z2 / trials);
    let half =
        z / (1.0 + z2 / trials) * (p * (1.0 - p) / trials + z2 / (4.0 * trials * trials)).sqrt();
    Some(((centre - half).max(0.0), (centre + half).min(1.0)))
}

/// McNemar's exact test of two systems judged on the same items: `only_a` items right for
/// the first system alone, `only_b` for the second alone; the two-sided p-value of the
/// binomial test of the discordant items (statsmodels' `mcnemar(exact=True)`). 1 when no
/// item is discordant.
pub fn mcnemar_exact(only_a: u64, only_b: u64) -> f64 {
    use statrs::distribution::{Binomial, DiscreteCDF};
    let n = only_a + only_b;
    if n == 0 {
        return 1.0;
    }
    match Binomial::new(0.5, n) {
        Ok(b) => (2.0 * b.cdf(only_a.min(only_b))).min(1.0),
        Err(_) => 1.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MeanStats;

    fn stats(v: &[f64]) -> Vec<MeanStats> {
        v.iter().map(|&x| MeanStats::one(x)).collect()
    }

    /// Hand-computed: 8 of 10 at 95% is 0.4902–0.9433 (statsmodels gives the same); the
    /// exact McNemar p of 2 against 8 discordant items is 2·(1+10+45)/1024.
    #[test]
    fn wilson_and_mcnemar_known_values() {
        let (lo, hi) = wilson(8, 10, 0.95).unwrap();
        assert!(
            (lo - 0.490_163).abs() < 1e-6 && (hi - 0.943_317).abs() < 1e-6,
            "{lo} {hi}"
        );
        assert_eq!(wilson(0, 0, 0.95), None);
        let (lo, hi) = wilson(10, 10, 0.95).unwrap();
        assert!(lo > 0.69 && hi == 1.0);
        assert!((mcnemar_exact(2, 8) - 112.0 / 1024.0).abs() < 1e-12);
        assert_eq!(mcnemar_exact(8, 2), mcnemar_exact(2, 8));
        assert_eq!(mcnemar_exact(0, 0), 1.0);
        assert_eq!(mcnemar_exact(5, 5), 1.0);
    }

    #[test]
    fn interval_uses_sacrebleu_indices() {
        let v: Vec<f64> = (0..1000).rev().map(f64::from).collect();
        let i = interval(&v, 0.95).unwrap();
        // sorted 0..999: lower index 1000 // 40 = 25, upper 1000 - 25 - 1 = 974
        assert_eq!((i.low, i.high, i.mean), (25.0, 974.0, 499.5));
        assert_eq!(lower_index(1000, 0.95), 25);
        assert_eq!(lower_index(10_000, 0.95), 250);
        assert_eq!(lower_index(1000, 0.9), 50);
        assert_eq!(lower_index(1, 0.95), 0);
        assert_eq!(interval(&[], 0.95), None);
    }

    #[test]
    fn p_values_count_strictly_greater_plus_one() {
        // |sys - base| = [1, 1, 1, 5]; mean 2; centred [-1, -1, -1, 3]; real 2 → c = 1
        let base = [0.0, 0.0, 0.0, 0.0];
        let sys = [1.0, 1.0, 1.0, 5.0];
        assert_eq!(paired_bs_p(&base, &sys, 10.0, 12.0), Some(2.0 / 5.0));
        assert_eq!(paired_bs_p(&base, &base, 3.0, 3.0), Some(1.0));
        assert_eq!(one_sided_p(&[1.0, 2.0, 3.0], -1.0), Some(2.0 / 4.0));
        assert_eq!(one_sided_p(&[1.0, 2.0, 3.0], -1.5), Some(1.0 / 4.0));
    }

    #[test]
    fn bootstrap_is_paired_deterministic_and_thread_independent() {
        let a = stats(&(0..50).map(f64::from).collect::<Vec<_>>());
        let b = stats(&(0..50).map(|x| f64::from(x) + 1.0).collect::<Vec<_>>());
        let ids: Vec<u32> = (1..=50).collect();
        let r = bootstrap(&[&a, &b], &(), &ids, 200, 12345, 0).unwrap();
        // b = a + 1 on every line and the draws are shared: every resample differs by 1.
        assert!(r[0]
            .iter()
            .zip(&r[1])
            .all(|(x, y)| (y - x - 1.0).abs() < 1e-9));
        let one = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap()
            .install(|| bootstrap(&[&a, &b], &(), &ids, 200, 12345, 0).unwrap());
        assert_eq!(one, r);
        assert_ne!(bootstrap(&[&a], &(), &ids, 200, 12345, 1).unwrap()[0], r[0]);
        let i = interval(&r[0], 0.95).unwrap();
        assert!(i.low < 24.5 && 24.5 < i.high, "{i:?}");
    }

    #[test]
    fn randomization_separates_shifted_systems_only() {
        let a: Vec<f64> = (0..200).map(|x| f64::from(x % 7)).collect();
        let far: Vec<f64> = a.iter().map(|x| x + 2.0).collect();
        let near: Vec<f64> = a
            .iter()
            .enumerate()
            .map(|(i, x)| x + if i % 2 == 0 { 0.1 } else { -0.1 })
            .collect();
        let ids: Vec<u32> = (1..=200).collect();
        let (sa, sf, sn) = (stats(&a), stats(&far), stats(&near));
        let p_far = paired_ar_p(&sa, &sf, &(), &ids, 1000, 1, 0)
            .unwrap()
            .unwrap();
        assert_eq!(p_far, 1.0 / 1001.0);
        let p_near = paired_ar_p(&sa, &sn, &(), &ids, 1000, 1, 0)
            .unwrap()
            .unwrap();
        assert!(p_near > 0.5, "{p_near}");
        assert_eq!(
            paired_ar_p(&sa, &sa, &(), &ids, 1000, 1, 0).unwrap(),
            Some(1.0)
        );
        assert_eq!(paired_ar_p(&sa, &sf, &(), &[], 1000, 1, 0).unwrap(), None);
    }

    #[test]
    fn nested_groups_share_draws() {
        let a = stats(&(0..40).map(f64::from).collect::<Vec<_>>());
        let universe: Vec<u32> = (1..=40).collect();
        let half: Vec<u32> = (1..=20).collect();
        let r = bootstrap_groups(&[&a], &(), &universe, &[&universe, &half], 100, 5, 0).unwrap();
        for res in &r[0] {
            // the first group is the whole universe: a plain bootstrap of it
            assert!(res[0].is_some());
        }
        let plain = bootstrap(&[&a], &(), &universe, 100, 5, 0).unwrap();
        let first: Vec<f64> = r[0].iter().map(|x| x[0].unwrap()).collect();
        assert_eq!(first, plain[0]);
    }
}
