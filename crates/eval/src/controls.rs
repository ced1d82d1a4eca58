//! Length-matched control corpora (Choshen & Abend 2019, §4: "for each sentence in a given
//! challenge set, we sample a sentence of no more than a difference of 1 in length").
//!
//! Algorithm of [`sample_controls`]:
//! * eligible lines: source length > 0 and, unless `allow_set_members`, not in the set;
//!   they are bucketed by length once;
//! * each control `k` uses its own generator [`rng::stream`]`(seed, k)` and a fresh copy of
//!   the buckets. It first plans how many set sentences of each length get a partner of
//!   each length ([`matching::plan`]): a **maximum** matching within `tolerance`, then the
//!   fewest words of length difference (the exact length is preferred), ties broken at
//!   random. So a set sentence goes without a partner within the tolerance only when *no*
//!   matching gives every sentence one;
//! * the set sentences of each length are shuffled and take the planned partner lengths
//!   in that order; each partner is drawn uniformly among the remaining lines of its
//!   length and removed (swap-remove), so a control never repeats a line;
//! * a set sentence the plan leaves unmatched (no line within the tolerance is left for
//!   it) gets a partner from a window widened one word at a time on both sides
//!   (`L−d` and `L+d`, `d = tolerance+1, …`), drawn uniformly from the first non-empty
//!   widened window (equidistant shorter and longer lines are equally likely); every such
//!   draw is recorded as a [`Shortfall`];
//! * if the eligible pool is smaller than the set, [`EvalError::PoolTooSmall`] is returned
//!   up front, so a partner always exists and sampling always terminates.
//!
//! `Control::ids[j]` is the partner of `set_ids[j]`.

use std::collections::BTreeMap;

use crate::matching;
use crate::rng::{self, Xoshiro256StarStar};
use crate::{line_index, EvalError};

/// Options of [`sample_controls`]: how controls are drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ControlOptions {
    /// Number of control corpora K.
    pub count: usize,
    /// PRNG seed (`--seed`); the same seed gives byte-identical controls.
    pub seed: u64,
    /// Maximum length difference (words) between a set sentence and its partner.
    pub tolerance: u32,
    /// Whether set members may be drawn as partners (`--controls-include-set`).
    pub allow_set_members: bool,
}

impl Default for ControlOptions {
    fn default() -> Self {
        ControlOptions {
            count: 10,
            seed: 1,
            tolerance: 1,
            allow_set_members: false,
        }
    }
}

/// Partners drawn outside the tolerance for set sentences of one length.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shortfall {
    /// Length of the set sentences concerned.
    pub set_length: u32,
    /// How many of their partners fell outside the tolerance.
    pub count: u32,
    /// `(partner length, number of partners)` actually used, ascending by length.
    pub lengths_used: Vec<(u32, u32)>,
}

/// One control corpus.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Control {
    /// 1-based line ids; `ids[j]` is the partner of the set's `j`-th id.
    pub ids: Vec<u32>,
    /// Out-of-tolerance draws, ascending by set length (empty if none).
    pub shortfalls: Vec<Shortfall>,
    /// `(length, number of lines)` of the control, ascending by length.
    pub histogram: Vec<(u32, u32)>,
}

/// The result of [`sample_controls`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Controls {
    /// The K controls.
    pub controls: Vec<Control>,
    /// `(length, number of lines)` of the challenge set itself.
    pub set_histogram: Vec<(u32, u32)>,
}

impl Controls {
    /// Total number of out-of-tolerance draws over all controls.
    pub fn shortfall_total(&self) -> u64 {
        self.controls
            .iter()
            .flat_map(|c| &c.shortfalls)
            .map(|s| s.count as u64)
            .sum()
    }
}

/// `(length, count)` histogram of the lines with the given 1-based ids.
pub fn length_histogram(lengths: &[u32], ids: &[u32]) -> Result<Vec<(u32, u32)>, EvalError> {
    let mut h = BTreeMap::new();
    for &id in ids {
        *h.entry(lengths[line_index(id, lengths.len())?])
            .or_insert(0u32) += 1;
    }
    Ok(h.into_iter().collect())
}

/// Samples `opts.count` length-matched controls for the set `set_ids` (1-based, strictly
/// ascending) of a corpus whose line `i+1` has source length `lengths[i]` (0 = empty line,
/// never eligible). See the module docs for the exact procedure.
pub fn sample_controls(
    lengths: &[u32],
    set_ids: &[u32],
    opts: &ControlOptions,
) -> Result<Controls, EvalError> {
    let (set_lens, in_set) = set_lengths(lengths, set_ids)?;
    let (pools, available) = length_pools(lengths, &in_set, opts.allow_set_members);
    if available < set_ids.len() {
        return Err(EvalError::PoolTooSmall {
            needed: set_ids.len(),
            available,
        });
    }
    let set_histogram = length_histogram(lengths, set_ids)?;
    let pool_histogram: Vec<(u32, u32)> = pools
        .iter()
        .enumerate()
        .filter(|(_, p)| !p.is_empty())
        .map(|(l, p)| (l as u32, p.len() as u32))
        .collect();
    // Set positions by length, ascending, each group in set order.
    let mut by_length: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
    for (j, &len) in set_lens.iter().enumerate() {
        by_length.entry(len).or_default().push(j);
    }
    let sampler = Sampler {
        lengths,
        set_lens,
        by_length,
        set_histogram,
        pool_histogram,
        max_len: (pools.len() - 1) as u32,
        pools,
        tolerance: opts.tolerance,
        available,
    };
    let controls = (0..opts.count)
        .map(|k| sampler.control(&mut rng::stream(opts.seed, k as u64)))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Controls {
        controls,
        set_histogram: sampler.set_histogram,
    })
}

/// The lengths of the set's lines, and which corpus lines are in the set; an error unless
/// `set_ids` are strictly ascending line ids of the corpus.
fn set_lengths(lengths: &[u32], set_ids: &[u32]) -> Result<(Vec<u32>, Vec<bool>), EvalError> {
    let mut set_lens = Vec::with_capacity(set_ids.len());
    let mut in_set = vec![false; lengths.len()];
    for (j, &id) in set_ids.iter().enumerate() {
        if j > 0 && set_ids[j - 1] >= id {
            return Err(EvalError::IdsNotAscending {
                prev: set_ids[j - 1],
                id,
            });
        }
        let i = line_index(id, lengths.len())?;
        in_set[i] = true;
        set_lens.push(lengths[i]);
    }
    Ok((set_lens, in_set))
}

/// The lines a control may draw, by length (`pools[len]`, ids ascending; `0..=max length`):
/// non-empty lines, set members only if `allow_set_members`; and how many there are.
fn length_pools(
    lengths: &[u32],
    in_set: &[bool],
    allow_set_members: bool,
) -> (Vec<Vec<u32>>, usize) {
    let max_len = lengths.iter().copied().max().unwrap_or(0);
    let mut pools: Vec<Vec<u32>> = vec![Vec::new(); max_len as usize + 1];
    let mut available = 0usize;
    for (i, &len) in lengths.iter().enumerate() {
        if len > 0 && (allow_set_members || !in_set[i]) {
            pools[len as usize].push(i as u32 + 1);
            available += 1;
        }
    }
    (pools, available)
}

/// What every control of one set is drawn from.
struct Sampler<'a> {
    lengths: &'a [u32],
    /// Length of the set's `j`-th line.
    set_lens: Vec<u32>,
    /// Set positions by length, ascending, each group in set order.
    by_length: BTreeMap<u32, Vec<usize>>,
    set_histogram: Vec<(u32, u32)>,
    pool_histogram: Vec<(u32, u32)>,
    /// The longest line.
    max_len: u32,
    /// The eligible lines by length ([`length_pools`]).
    pools: Vec<Vec<u32>>,
    tolerance: u32,
    /// Number of eligible lines.
    available: usize,
}

impl Sampler<'_> {
    /// One control, drawn with `rng`: partners within the tolerance as the matching plans
    /// them, then the nearest lengths left for the set lines the plan could not match.
    fn control(&self, rng: &mut Xoshiro256StarStar) -> Result<Control, EvalError> {
        let plan = matching::plan(
            &self.set_histogram,
            &self.pool_histogram,
            self.tolerance,
            rng,
        );
        let mut pools = self.pools.clone();
        let mut ids = vec![0u32; self.set_lens.len()];
        let unmatched = self.draw_planned(&plan, &mut pools, &mut ids, rng)?;
        let shortfalls = self.draw_widened(unmatched, &mut pools, &mut ids, rng)?;
        let histogram = length_histogram(self.lengths, &ids)?;
        Ok(Control {
            ids,
            shortfalls,
            histogram,
        })
    }

    /// The error of a pool that ran dry (the checks before drawing rule it out).
    fn too_small(&self) -> EvalError {
        EvalError::PoolTooSmall {
            needed: self.set_lens.len(),
            available: self.available,
        }
    }

    /// Draws the partners `plan` gives (`(set length, partner length, count)`, by set
    /// length) into `ids`, the set positions of each length in shuffled order; returns the
    /// positions left without one.
    fn draw_planned(
        &self,
        plan: &[(u32, u32, u32)],
        pools: &mut [Vec<u32>],
        ids: &mut [u32],
        rng: &mut Xoshiro256StarStar,
    ) -> Result<Vec<usize>, EvalError> {
        let mut unmatched = Vec::new();
        let mut planned = plan.iter().peekable();
        for (&len, positions) in &self.by_length {
            let mut positions = positions.clone();
            shuffle(&mut positions, rng);
            let mut positions = positions.into_iter();
            while let Some(&(_, partner_len, count)) = planned.next_if(|p| p.0 == len) {
                for j in positions.by_ref().take(count as usize) {
                    // The plan never uses more lines of a length than the pool holds.
                    ids[j] = draw(pools, std::iter::once(partner_len), rng)
                        .map(|(id, _)| id)
                        .ok_or_else(|| self.too_small())?;
                }
            }
            unmatched.extend(positions);
        }
        Ok(unmatched)
    }

    /// Draws partners of the nearest lengths left for the `unmatched` set positions (no
    /// line within the tolerance is left for these: the matching is maximum); returns the
    /// shortfalls, by set length.
    fn draw_widened(
        &self,
        unmatched: Vec<usize>,
        pools: &mut [Vec<u32>],
        ids: &mut [u32],
        rng: &mut Xoshiro256StarStar,
    ) -> Result<Vec<Shortfall>, EvalError> {
        let mut short: BTreeMap<u32, BTreeMap<u32, u32>> = BTreeMap::new();
        for j in unmatched {
            let len = self.set_lens[j];
            // Unreachable while the pool check holds (every length 1..=max_len is within
            // max_len of `len`); an error, never a loop.
            let (id, used) = widen(pools, len, self.tolerance, self.max_len, rng)
                .ok_or_else(|| self.too_small())?;
            *short.entry(len).or_default().entry(used).or_insert(0) += 1;
            ids[j] = id;
        }
        Ok(short
            .into_iter()
            .map(|(set_length, used)| Shortfall {
                set_length,
                count: used.values().sum(),
                lengths_used: used.into_iter().collect(),
            })
            .collect())
    }
}

/// Fisher–Yates shuffle.
fn shuffle(values: &mut [usize], rng: &mut Xoshiro256StarStar) {
    for i in (1..values.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        values.swap(i, j);
    }
}

/// Draws uniformly among all lines in the pools of the given lengths (within bounds) and
/// removes it; returns `(id, length)`, or `None` if those pools are empty.
fn draw(
    pools: &mut [Vec<u32>],
    lens: impl Iterator<Item = u32> + Clone,
    rng: &mut Xoshiro256StarStar,
) -> Option<(u32, u32)> {
    let pool_len = |l: u32| pools.get(l as usize).map_or(0, Vec::len) as u64;
    let total: u64 = lens.clone().map(pool_len).sum();
    if total == 0 {
        return None;
    }
    let mut r = rng.below(total);
    for l in lens {
        let n = pool_len(l);
        if r < n {
            let pool = &mut pools[l as usize];
            return Some((pool.swap_remove(r as usize), l));
        }
        r -= n;
    }
    None
}

/// Widens the window beyond the tolerance one word at a time (`len−d` and `len+d`);
/// `d ≤ max_len` reaches every length `1..=max_len`, so this is bounded.
fn widen(
    pools: &mut [Vec<u32>],
    len: u32,
    tolerance: u32,
    max_len: u32,
    rng: &mut Xoshiro256StarStar,
) -> Option<(u32, u32)> {
    let mut d = tolerance.saturating_add(1);
    while d <= max_len {
        let below = len.checked_sub(d).filter(|&l| l > 0);
        let above = len.checked_add(d).filter(|&l| l <= max_len);
        if let Some(hit) = draw(pools, below.into_iter().chain(above), rng) {
            return Some(hit);
        }
        d += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts(count: usize, seed: u64) -> ControlOptions {
        ControlOptions {
            count,
            seed,
            ..Default::default()
        }
    }

    /// lengths 1..=20 repeated 10 times (200 lines), with empty lines sprinkled in.
    fn corpus() -> Vec<u32> {
        (0..220u32)
            .map(|i| if i % 11 == 10 { 0 } else { i % 11 * 2 + 1 })
            .collect()
    }

    #[test]
    fn partners_within_tolerance_distinct_not_in_set() {
        let lengths = corpus();
        let set: Vec<u32> = vec![1, 5, 9, 13, 30, 31, 77, 150];
        let c = sample_controls(&lengths, &set, &opts(25, 9)).unwrap();
        assert_eq!(c.controls.len(), 25);
        for ctl in &c.controls {
            assert_eq!(ctl.ids.len(), set.len());
            let mut uniq = ctl.ids.clone();
            uniq.sort_unstable();
            uniq.dedup();
            assert_eq!(uniq.len(), set.len(), "no repeats within a control");
            for (&s, &p) in set.iter().zip(&ctl.ids) {
                assert!(!set.contains(&p));
                let (ls, lp) = (lengths[s as usize - 1], lengths[p as usize - 1]);
                assert!(lp > 0 && ls.abs_diff(lp) <= 1, "{ls} vs {lp}");
            }
            assert!(ctl.shortfalls.is_empty());
            assert_eq!(ctl.histogram, length_histogram(&lengths, &ctl.ids).unwrap());
        }
        assert_eq!(c.set_histogram, length_histogram(&lengths, &set).unwrap());
    }

    #[test]
    fn deterministic_per_seed_and_prefix_stable() {
        let lengths = corpus();
        let set = vec![2, 4, 6, 8, 10, 12];
        let a = sample_controls(&lengths, &set, &opts(10, 1)).unwrap();
        let b = sample_controls(&lengths, &set, &opts(10, 1)).unwrap();
        let c = sample_controls(&lengths, &set, &opts(10, 2)).unwrap();
        let d = sample_controls(&lengths, &set, &opts(3, 1)).unwrap();
        assert_eq!(a, b);
        assert_ne!(a.controls, c.controls);
        assert_eq!(d.controls[..], a.controls[..3]);
        // different controls of one run are not all the same
        assert!(a.controls.iter().any(|x| x.ids != a.controls[0].ids));
    }

    #[test]
    fn shortfall_uses_nearest_length_and_is_recorded() {
        // lengths: line1..4 = 10 (set), 3 lines of length 9/11 window, then 5 and 20.
        let lengths = vec![10, 10, 10, 10, 9, 11, 11, 5, 20, 0];
        let set = vec![1, 2, 3, 4];
        let c = sample_controls(&lengths, &set, &opts(20, 3)).unwrap();
        for ctl in &c.controls {
            // 3 partners within ±1 (ids 5,6,7) + one from the widened window: 5 (d=5)
            // is reached before 20 (d=10).
            let mut ids = ctl.ids.clone();
            ids.sort_unstable();
            assert_eq!(ids, vec![5, 6, 7, 8]);
            assert_eq!(
                ctl.shortfalls,
                vec![Shortfall {
                    set_length: 10,
                    count: 1,
                    lengths_used: vec![(5, 1)]
                }]
            );
        }
        assert_eq!(c.shortfall_total(), 20);
    }

    #[test]
    fn pool_too_small_and_bad_ids_are_errors() {
        let lengths = vec![3, 3, 0, 3];
        assert_eq!(
            sample_controls(&lengths, &[1, 2], &opts(5, 0)),
            Err(EvalError::PoolTooSmall {
                needed: 2,
                available: 1
            })
        );
        // allowing set members enlarges the pool
        let o = ControlOptions {
            allow_set_members: true,
            ..opts(5, 0)
        };
        let c = sample_controls(&lengths, &[1, 2], &o).unwrap();
        assert!(c.controls.iter().all(|x| !x.ids.contains(&3)));
        assert_eq!(
            sample_controls(&lengths, &[2, 1], &opts(1, 0)),
            Err(EvalError::IdsNotAscending { prev: 2, id: 1 })
        );
        assert_eq!(
            sample_controls(&lengths, &[5], &opts(1, 0)),
            Err(EvalError::IdOutOfRange { id: 5, len: 4 })
        );
        assert_eq!(
            sample_controls(&lengths, &[0], &opts(1, 0)),
            Err(EvalError::IdOutOfRange { id: 0, len: 4 })
        );
        let none = sample_controls(&lengths, &[], &opts(2, 0)).unwrap();
        assert!(none.controls.iter().all(|x| x.ids.is_empty()));
    }

    #[test]
    fn set_lengths_and_pools_by_hand() {
        let lengths = [3, 0, 2, 3, 5];
        let (set_lens, in_set) = set_lengths(&lengths, &[1, 3]).expect("ascending");
        assert_eq!(set_lens, [3, 2]);
        assert_eq!(in_set, [true, false, true, false, false]);
        assert!(matches!(
            set_lengths(&lengths, &[3, 3]),
            Err(EvalError::IdsNotAscending { prev: 3, id: 3 })
        ));
        assert!(set_lengths(&lengths, &[6]).is_err());
        // Line 2 is empty: never eligible; set members only when allowed.
        let (pools, available) = length_pools(&lengths, &in_set, false);
        assert_eq!(pools, [vec![], vec![], vec![], vec![4], vec![], vec![5]]);
        assert_eq!(available, 2);
        let (pools, available) = length_pools(&lengths, &in_set, true);
        assert_eq!(
            pools,
            [vec![], vec![], vec![3], vec![1, 4], vec![], vec![5]]
        );
        assert_eq!(available, 4);
    }

    /// Set lines the plan leaves unmatched get the nearest lengths left, recorded as
    /// shortfalls by set length.
    #[test]
    fn unmatched_lines_take_the_nearest_lengths_left() {
        let lengths = [2, 2, 9, 4, 7];
        let (pools, available) = length_pools(&lengths, &[true, true, false, false, false], false);
        let sampler = Sampler {
            lengths: &lengths,
            set_lens: vec![2, 2],
            by_length: BTreeMap::from([(2, vec![0, 1])]),
            set_histogram: vec![(2, 2)],
            pool_histogram: vec![(4, 1), (7, 1), (9, 1)],
            max_len: 9,
            pools: pools.clone(),
            tolerance: 1,
            available,
        };
        let mut pools = pools;
        let mut ids = [0u32; 2];
        let mut rng = rng::stream(1, 0);
        let short = sampler
            .draw_widened(vec![0, 1], &mut pools, &mut ids, &mut rng)
            .expect("enough lines");
        // Length 4 (distance 2) first, then 7 (distance 5).
        assert_eq!(ids, [4, 5]);
        assert_eq!(short.len(), 1);
        assert_eq!((short[0].set_length, short[0].count), (2, 2));
        assert_eq!(short[0].lengths_used, [(4, 1), (7, 1)]);
    }
}
