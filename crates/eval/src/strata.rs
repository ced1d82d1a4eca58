//! A set against samples of its size: the null distribution of a set's score when its
//! lines are exchanged with corpus lines of the same source length.
//!
//! **The test.** Under the null hypothesis the set is, as far as the metric can tell, a
//! sample of the corpus like any other with its length profile. Each null sample takes, for
//! every set line of source length `L`, a line of the *stratum* `L` — every non-empty corpus
//! line of exactly that length, the set's own lines included — no line twice within one
//! sample (a permutation of lines between the set and the corpus within length strata).
//! Sample `b` is drawn with [`crate::significance::draws`]`(seed, stream, b)`: it depends
//! only on the seed, the stream label, `b` and the set, never on the thread count; every
//! system is scored on the same draws (paired). [`permutation_p`] counts the samples that
//! score as badly as the set or worse: `p = (1 + #{null ≤ set}) / (B + 1)` (`≥` for a
//! metric where lower is better) — never below `1/(B + 1)`.
//!
//! **How one sample is drawn** ([`null_scores`]): the set's lines are grouped by length, in
//! ascending length; for each group of `m` lines in a stratum of `n` lines, a partial
//! Fisher–Yates shuffle (`j = i + below(n − i)` for `i < m`) picks `m` distinct lines of the
//! stratum, whose swaps are then undone, so every sample starts from the stratum in
//! ascending line order. A set line of length 0 (no stratum) stays itself.

use rayon::prelude::*;

use crate::significance::{draws, interval};
use crate::{line_index, EvalError, SufficientStats};

/// Samples drawn per parallel task.
const CHUNK: usize = 8;

/// What one set's null samples draw: `(stratum, m)` per length of the set (`m` of its lines
/// in that stratum), ascending by length; and the set lines without a stratum.
type Plan<'a> = (Vec<(&'a [u32], usize)>, Vec<u32>);

/// The corpus lines by source length: `pools[L]` holds the 1-based ids of the non-empty
/// lines of length `L`, ascending.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Strata {
    lengths: Vec<u32>,
    pools: Vec<Vec<u32>>,
}

impl Strata {
    /// The strata of a corpus whose line `i + 1` has source length `lengths[i]` (0: empty,
    /// in no stratum).
    pub fn new(lengths: &[u32]) -> Strata {
        let max = lengths.iter().copied().max().unwrap_or(0) as usize;
        let mut pools: Vec<Vec<u32>> = vec![Vec::new(); max + 1];
        for (i, &len) in lengths.iter().enumerate() {
            if len > 0 {
                pools[len as usize].push(i as u32 + 1);
            }
        }
        Strata {
            lengths: lengths.to_vec(),
            pools,
        }
    }

    /// Corpus lines.
    pub fn lines(&self) -> usize {
        self.lengths.len()
    }

    /// The lines of length `len` (empty for 0 or a length no line has).
    pub fn stratum(&self, len: u32) -> &[u32] {
        match len {
            0 => &[],
            l => self.pools.get(l as usize).map_or(&[], Vec::as_slice),
        }
    }

    /// `(pool, m)` per length of the set `ids`, ascending by length, and the set lines
    /// without a stratum (kept as they are).
    fn plan(&self, ids: &[u32]) -> Result<Plan<'_>, EvalError> {
        let mut counts: std::collections::BTreeMap<u32, usize> = Default::default();
        let mut fixed = Vec::new();
        for &id in ids {
            let len = self.lengths[line_index(id, self.lengths.len())?];
            if self.stratum(len).is_empty() {
                fixed.push(id);
            } else {
                *counts.entry(len).or_default() += 1;
            }
        }
        let mut groups = Vec::with_capacity(counts.len());
        for (len, m) in counts {
            let pool = self.stratum(len);
            if m > pool.len() {
                // Only when `ids` repeat a line: a stratum holds every line of its length.
                return Err(EvalError::PoolTooSmall {
                    needed: m,
                    available: pool.len(),
                });
            }
            groups.push((pool, m));
        }
        Ok((groups, fixed))
    }
}

/// Draws one null sample into `out` (0-based line indices): per group, `m` distinct lines
/// of its stratum by a partial Fisher–Yates shuffle of `scratch[g]` (a copy of the
/// stratum), whose swaps are undone afterwards.
fn draw_sample(
    groups: &[(&[u32], usize)],
    fixed: &[u32],
    scratch: &mut [Vec<u32>],
    generator: &mut crate::rng::Xoshiro256StarStar,
    out: &mut Vec<usize>,
) {
    out.clear();
    out.extend(fixed.iter().map(|&id| id as usize - 1));
    let mut swaps: Vec<usize> = Vec::new();
    for ((_, m), pool) in groups.iter().zip(scratch.iter_mut()) {
        let n = pool.len();
        swaps.clear();
        for i in 0..*m {
            let j = i + generator.below((n - i) as u64) as usize;
            pool.swap(i, j);
            swaps.push(j);
            out.push(pool[i] as usize - 1);
        }
        for (i, &j) in swaps.iter().enumerate().rev() {
            pool.swap(i, j);
        }
    }
}

/// The scores of `samples` null samples of the set `ids` (1-based) for every system: each
/// sample exchanges every set line for a line of its length stratum (see the module docs),
/// drawn with [`draws`]`(seed, stream, b)`. Returns `[system][sample]`; empty vectors when
/// `ids` is empty. An id outside the corpus is an error.
pub fn null_scores<T: SufficientStats + Sync>(
    systems: &[&[T]],
    params: &T::Params,
    strata: &Strata,
    ids: &[u32],
    samples: usize,
    seed: u64,
    stream: u64,
) -> Result<Vec<Vec<f64>>, EvalError> {
    for s in systems {
        if s.len() != strata.lines() {
            return Err(EvalError::LengthMismatch {
                hyp: s.len(),
                reference: strata.lines(),
            });
        }
    }
    if ids.is_empty() {
        return Ok(vec![Vec::new(); systems.len()]);
    }
    let (groups, fixed) = strata.plan(ids)?;
    let init = || {
        let scratch: Vec<Vec<u32>> = groups.iter().map(|(p, _)| p.to_vec()).collect();
        (scratch, Vec::with_capacity(ids.len()))
    };
    let per_b: Vec<Vec<f64>> = (0..samples)
        .into_par_iter()
        .with_min_len(CHUNK)
        .map_init(init, |(scratch, drawn), b| {
            draw_sample(&groups, &fixed, scratch, &mut draws(seed, stream, b), drawn);
            systems
                .iter()
                .map(|s| {
                    let mut acc = T::default();
                    for &i in drawn.iter() {
                        acc.add(&s[i]);
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

/// The null of nested sets (the `geK` sets of one phenomenon): each sample exchanges every
/// line of their union `universe` (ascending ids) for a line of its length stratum, as
/// [`null_scores`] does for one set, and scores every set `groups[g]` (ids, each within
/// `universe`) on the images of its own lines — so the sets stay nested in every sample,
/// as they are in the data. Sample `b` is drawn with [`draws`]`(seed, stream, b)`.
/// Returns `[system][sample][group]` (`None` for an empty group).
#[allow(clippy::too_many_arguments)]
pub fn null_groups<T: SufficientStats + Sync>(
    systems: &[&[T]],
    params: &T::Params,
    strata: &Strata,
    universe: &[u32],
    groups: &[&[u32]],
    samples: usize,
    seed: u64,
    stream: u64,
) -> Result<Vec<Vec<Vec<Option<f64>>>>, EvalError> {
    if universe.is_empty() {
        return Ok(vec![Vec::new(); systems.len()]);
    }
    // The universe's lines in the order `draw_sample` returns their images: the lines
    // without a stratum first, then by length, each length in ascending id order.
    let (plan, fixed) = strata.plan(universe)?;
    let mut order: Vec<u32> = fixed.clone();
    let mut by_len: Vec<(u32, u32)> = universe
        .iter()
        .map(|&id| (strata.lengths[id as usize - 1], id))
        .filter(|&(len, _)| !strata.stratum(len).is_empty())
        .collect();
    by_len.sort_unstable();
    order.extend(by_len.iter().map(|&(_, id)| id));
    // members[g]: positions in `order` of group g's lines.
    let members: Vec<Vec<usize>> = groups
        .iter()
        .map(|ids| {
            ids.iter()
                .map(|id| {
                    order
                        .iter()
                        .position(|o| o == id)
                        .ok_or(EvalError::IdOutOfRange {
                            id: *id,
                            len: universe.len(),
                        })
                })
                .collect()
        })
        .collect::<Result<_, _>>()?;
    let init = || {
        let scratch: Vec<Vec<u32>> = plan.iter().map(|(p, _)| p.to_vec()).collect();
        (scratch, Vec::with_capacity(universe.len()))
    };
    let per_b: Vec<Vec<Vec<Option<f64>>>> = (0..samples)
        .into_par_iter()
        .with_min_len(CHUNK)
        .map_init(init, |(scratch, drawn), b| {
            draw_sample(&plan, &fixed, scratch, &mut draws(seed, stream, b), drawn);
            systems
                .iter()
                .map(|s| {
                    members
                        .iter()
                        .map(|m| {
                            let mut acc = T::default();
                            for &k in m {
                                acc.add(&s[drawn[k]]);
                            }
                            (!m.is_empty()).then(|| acc.score(params))
                        })
                        .collect()
                })
                .collect()
        })
        .collect();
    Ok((0..systems.len())
        .map(|s| per_b.iter().map(|v| v[s].clone()).collect())
        .collect())
}

/// The one-sided permutation p-value that a set scoring `observed` is worse than samples
/// of its size: `(1 + #{null ≤ observed}) / (B + 1)` over the `B` finite `null` scores
/// (`≥` when `higher_is_better` is false). `None` for no finite null score or a
/// non-finite `observed`.
pub fn permutation_p(null: &[f64], observed: f64, higher_is_better: bool) -> Option<f64> {
    if !observed.is_finite() {
        return None;
    }
    let finite = null.iter().filter(|x| x.is_finite());
    let (mut n, mut worse) = (0usize, 0usize);
    for &x in finite {
        n += 1;
        let as_bad = if higher_is_better {
            x <= observed
        } else {
            x >= observed
        };
        worse += usize::from(as_bad);
    }
    (n > 0).then(|| (worse + 1) as f64 / (n + 1) as f64)
}

/// The interval of a set's difference from samples of its size: the set's `score` less the
/// central `confidence` range of the `null` scores — `[score − high, score − low]`, `low`
/// and `high` as [`interval`] computes them. It excludes 0 exactly when the set scores
/// outside the null's central range, so it agrees with [`permutation_p`]: its upper bound
/// is below 0 when the set scores below all but `⌊B·(1 − confidence)/2⌋` null samples.
/// `None` for no null score.
pub fn diff_interval(null: &[f64], score: f64, confidence: f64) -> Option<(f64, f64)> {
    let i = interval(null, confidence)?;
    Some((score - i.high, score - i.low))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MeanStats;

    #[test]
    fn a_sample_keeps_the_length_profile_and_repeats_no_line() {
        // lengths 1..=4 cycling over 40 lines, line 10 empty
        let mut lengths: Vec<u32> = (0..40).map(|i| i % 4 + 1).collect();
        lengths[9] = 0;
        let strata = Strata::new(&lengths);
        assert!(!strata.stratum(2).contains(&10));
        let values: Vec<MeanStats> = (1..=40).map(|i| MeanStats::one(f64::from(i))).collect();
        let ids = [1, 2, 5, 6, 10];
        let (groups, fixed) = strata.plan(&ids).unwrap();
        assert_eq!(fixed, vec![10]);
        assert_eq!(groups.iter().map(|g| g.1).collect::<Vec<_>>(), [2, 2]);
        let mut scratch: Vec<Vec<u32>> = groups.iter().map(|(p, _)| p.to_vec()).collect();
        let mut out = Vec::new();
        for b in 0..200 {
            draw_sample(&groups, &fixed, &mut scratch, &mut draws(3, 0, b), &mut out);
            let mut lens: Vec<u32> = out.iter().map(|&i| lengths[i]).collect();
            lens.sort_unstable();
            assert_eq!(lens, [0, 1, 1, 2, 2]);
            let mut distinct = out.clone();
            distinct.sort_unstable();
            distinct.dedup();
            assert_eq!(distinct.len(), out.len());
            // the swaps are undone
            assert_eq!(scratch[0], strata.stratum(1));
        }
        let one = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let a = null_scores(&[&values], &(), &strata, &ids, 300, 7, 1).unwrap();
        let b = one.install(|| null_scores(&[&values], &(), &strata, &ids, 300, 7, 1).unwrap());
        assert_eq!(a, b);
    }

    /// Nested sets stay nested in every null sample: a subset's lines are images of its own
    /// lines, of their lengths; a set identical to the universe scores as `null_scores`
    /// would sum the same draws.
    #[test]
    fn nested_nulls_keep_the_nesting() {
        let lengths: Vec<u32> = (0..60).map(|i| i % 3 + 1).collect();
        let strata = Strata::new(&lengths);
        // Each line's value is its length × 1000 + id: a sample's sum shows its lengths.
        let values: Vec<MeanStats> = (1..=60u32)
            .map(|i| MeanStats::one(f64::from(lengths[i as usize - 1] * 1000 + i)))
            .collect();
        let universe = [1, 2, 3, 4, 5, 6];
        let inner = [2, 3];
        let null = null_groups(
            &[&values],
            &(),
            &strata,
            &universe,
            &[&universe, &inner],
            200,
            5,
            9,
        )
        .unwrap();
        for sample in &null[0] {
            let (all, sub) = (sample[0].unwrap(), sample[1].unwrap());
            // Means of 6 and 2 lines: lengths 1,2,3,1,2,3 → thousands sum to 12; 2,3 → 5.
            assert_eq!((all * 6.0 / 1000.0).floor() as u32, 12);
            assert_eq!((sub * 2.0 / 1000.0).floor() as u32, 5);
        }
        assert!(
            null[0].iter().any(|x| x[1] != null[0][0][1]),
            "samples vary"
        );
    }

    #[test]
    fn p_counts_samples_as_bad_and_never_falls_below_the_floor() {
        assert_eq!(permutation_p(&[1.0, 2.0, 3.0], 2.0, true), Some(3.0 / 4.0));
        assert_eq!(permutation_p(&[1.0, 2.0, 3.0], 0.5, true), Some(1.0 / 4.0));
        assert_eq!(permutation_p(&[1.0, 2.0, 3.0], 2.0, false), Some(3.0 / 4.0));
        assert_eq!(permutation_p(&[1.0, 2.0, 3.0], 3.5, false), Some(1.0 / 4.0));
        assert_eq!(permutation_p(&[], 1.0, true), None);
        assert_eq!(permutation_p(&[f64::NAN, 2.0], 1.0, true), Some(1.0 / 2.0));
        // central range of 3 values at 95%: [1, 6]
        assert_eq!(
            diff_interval(&[6.0, 1.0, 2.0], 1.5, 0.95),
            Some((-4.5, 0.5))
        );
        assert_eq!(diff_interval(&[], 1.5, 0.95), None);
    }
}
