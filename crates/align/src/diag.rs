//! The diagonal-favouring alignment distribution of Dyer et al. (2013), section 3, with the
//! closed-form normaliser and its derivative, following fast_align's `da.h` conventions:
//! `i` (parameter `gen_pos`) is a 1-based position of the generated (fast_align "target")
//! sentence of length `m` (`gen_len`), `j` (`cond_pos`) a 1-based position of the
//! conditioning ("source") sentence of length `n` (`cond_len`); the formulas below use the
//! short names.

/// Alignment feature `h(i, j, m, n) = -|i/m - j/n|`.
#[inline]
pub fn feature(gen_pos: u32, cond_pos: u32, gen_len: u32, cond_len: u32) -> f64 {
    -(f64::from(cond_pos) / f64::from(cond_len) - f64::from(gen_pos) / f64::from(gen_len)).abs()
}

/// `exp(lambda * h(i, j, m, n))`, the unnormalised alignment probability.
#[inline]
pub fn unnormalized(gen_pos: u32, cond_pos: u32, gen_len: u32, cond_len: u32, lambda: f64) -> f64 {
    (feature(gen_pos, cond_pos, gen_len, cond_len) * lambda).exp()
}

/// Closed-form normaliser `Z = sum_{j=1..n} exp(lambda h(i, j, m, n))`: two geometric series
/// on either side of the diagonal point `i n / m`.
///
/// Like fast_align (unsigned arithmetic), the count of positions above the split wraps when
/// `i n / m > n`, which only happens through [`dlog_z`]'s swapped call; the series then sums
/// to its infinite limit.
#[cfg_attr(not(test), allow(dead_code))] // term-by-term reference, checked by tests
pub fn compute_z(gen_pos: u32, gen_len: u32, cond_len: u32, lambda: f64) -> f64 {
    let split = f64::from(gen_pos) * f64::from(cond_len) / f64::from(gen_len);
    let floor = split as u32;
    let ceil = floor.wrapping_add(1);
    let ratio = (-lambda / f64::from(cond_len)).exp();
    let num_top = cond_len.wrapping_sub(floor);
    let mut ezt = 0.0;
    let mut ezb = 0.0;
    if num_top != 0 {
        ezt = unnormalized(gen_pos, ceil, gen_len, cond_len, lambda)
            * (1.0 - ratio.powf(f64::from(num_top)))
            / (1.0 - ratio);
    }
    if floor != 0 {
        ezb = unnormalized(gen_pos, floor, gen_len, cond_len, lambda)
            * (1.0 - ratio.powf(f64::from(floor)))
            / (1.0 - ratio);
    }
    ezb + ezt
}

/// `sum_{k=0}^{n-1} (a1 + k d) g1 r^k` in closed form.
#[inline]
#[cfg_attr(not(test), allow(dead_code))] // term-by-term reference, checked by tests
fn arithmetico_geometric_series(a_1: f64, g_1: f64, r: f64, d: f64, n: u32) -> f64 {
    let g_np1 = g_1 * r.powf(f64::from(n));
    let a_n = d * f64::from(n - 1) + a_1;
    let x_1 = a_1 * g_1;
    let g_2 = g_1 * r;
    let rm1 = r - 1.0;
    (a_n * g_np1 - x_1) / rm1 - d * (g_np1 - g_2) / (rm1 * rm1)
}

/// Expected feature under the model for generated position `i` (`gen_pos`):
/// `d log Z / d lambda`, used by the tension gradient step.
///
/// Note: fast_align's released `da.h` divides by `ComputeZ(i, n, m, lambda)` (arguments
/// swapped, clab/fast_align issue #11). The reference alignments were produced with that code,
/// so it is reproduced here to keep the optimised tension, and hence the alignments, the same.
#[cfg_attr(not(test), allow(dead_code))] // term-by-term reference, checked by tests
pub fn dlog_z(gen_pos: u32, gen_len: u32, cond_len: u32, lambda: f64) -> f64 {
    let z = compute_z(gen_pos, cond_len, gen_len, lambda);
    let split = f64::from(gen_pos) * f64::from(cond_len) / f64::from(gen_len);
    let floor = split as u32;
    let ceil = floor + 1;
    let ratio = (-lambda / f64::from(cond_len)).exp();
    let d = -1.0 / f64::from(cond_len);
    let num_top = cond_len - floor;
    let mut pct = 0.0;
    let mut pcb = 0.0;
    if num_top != 0 {
        pct = arithmetico_geometric_series(
            feature(gen_pos, ceil, gen_len, cond_len),
            unnormalized(gen_pos, ceil, gen_len, cond_len, lambda),
            ratio,
            d,
            num_top,
        );
    }
    if floor != 0 {
        pcb = arithmetico_geometric_series(
            feature(gen_pos, floor, gen_len, cond_len),
            unnormalized(gen_pos, floor, gen_len, cond_len, lambda),
            ratio,
            d,
            floor,
        );
    }
    (pct + pcb) / z
}

/// `cnt * sum_{i=1..m} dlog_z(i, m, n, lambda)`, the contribution of the `cnt` sentence
/// pairs of lengths `(m, n)` to the model's expected feature, as fast_align's tension
/// optimisation adds it up (including the swapped call of [`dlog_z`]). Per-pair constants
/// are hoisted and the powers of the ratios are written as exponentials; values agree with
/// the term-by-term evaluation to a few ulps.
pub fn dlog_z_sum(gen_len: u32, cond_len: u32, lambda: f64, cnt: f64) -> f64 {
    let (mf, nf) = (f64::from(gen_len), f64::from(cond_len));
    // For the normaliser fast_align computes with swapped lengths (its "m" is our n).
    let r_sw = (-lambda / mf).exp();
    let inv_1mr_sw = 1.0 / (1.0 - r_sw);
    let r = (-lambda / nf).exp();
    let d = -1.0 / nf;
    let rm1 = r - 1.0;
    let series = |a_1: f64, g_1: f64, k: u32| {
        let g_np1 = g_1 * (-lambda * f64::from(k) / nf).exp();
        let a_n = d * f64::from(k - 1) + a_1;
        (a_n * g_np1 - a_1 * g_1) / rm1 - d * (g_np1 - g_1 * r) / (rm1 * rm1)
    };
    let mut total = 0.0;
    for i in 1..=gen_len {
        let fi = f64::from(i);
        // z = compute_z(i, n, m, lambda)
        let split_sw = fi * mf / nf;
        let floor_sw = split_sw as u32;
        let num_top_sw = gen_len.wrapping_sub(floor_sw);
        let feat_sw = |j: u32| -(f64::from(j) / mf - fi / nf).abs();
        let mut z = 0.0;
        if num_top_sw != 0 {
            z += (feat_sw(floor_sw.wrapping_add(1)) * lambda).exp()
                * (1.0 - (-lambda * f64::from(num_top_sw) / mf).exp())
                * inv_1mr_sw;
        }
        if floor_sw != 0 {
            z += (feat_sw(floor_sw) * lambda).exp()
                * (1.0 - (-lambda * f64::from(floor_sw) / mf).exp())
                * inv_1mr_sw;
        }
        let floor = (fi * nf / mf) as u32;
        let num_top = cond_len - floor;
        let feat = |j: u32| -(f64::from(j) / nf - fi / mf).abs();
        let mut pc = 0.0;
        if num_top != 0 {
            let a = feat(floor + 1);
            pc += series(a, (a * lambda).exp(), num_top);
        }
        if floor != 0 {
            let a = feat(floor);
            pc += series(a, (a * lambda).exp(), floor);
        }
        total += cnt * (pc / z);
    }
    total
}

/// Digamma function of `value`, with the same asymptotic expansion as fast_align
/// (`Md::digamma`).
///
/// The recurrence `digamma(x) = digamma(x + 1) - 1/x` up to `x >= 7` takes two steps per
/// division (`1/x + 1/(x+1) = (2x+1) / (x(x+1))`).
pub fn digamma(mut value: f64) -> f64 {
    let mut result = 0.0;
    while value < 6.0 {
        result -= (2.0 * value + 1.0) / (value * (value + 1.0));
        value += 2.0;
    }
    if value < 7.0 {
        result -= 1.0 / value;
        value += 1.0;
    }
    value -= 0.5;
    let xx = 1.0 / value;
    let xx2 = xx * xx;
    let xx4 = xx2 * xx2;
    result + value.ln() + (1.0 / 24.0) * xx2 - (7.0 / 960.0) * xx4 + (31.0 / 8064.0) * xx4 * xx2
        - (127.0 / 30720.0) * xx4 * xx4
}

/// Alignment prior of one sentence pair (generated length `m`, conditioning length `n`) with
/// the per-sentence constants hoisted out of the per-position work.
#[derive(Debug, Clone, Copy)]
pub struct DiagonalPrior {
    m: u32,
    n: u32,
    lambda: f64,
    p0: f64,
    /// `exp(-lambda / n)`: ratio of neighbouring cells on one side of the diagonal.
    ratio: f64,
    /// `1 / (1 - ratio)`.
    inv_1mr: f64,
}

impl DiagonalPrior {
    /// Constants for a sentence pair of lengths `gen_len` (generated, `m`) and `cond_len`
    /// (conditioning, `n`).
    pub fn new(gen_len: u32, cond_len: u32, lambda: f64, p0: f64) -> Self {
        let ratio = (-lambda / f64::from(cond_len)).exp();
        DiagonalPrior {
            m: gen_len,
            n: cond_len,
            lambda,
            p0,
            ratio,
            inv_1mr: 1.0 / (1.0 - ratio),
        }
    }

    /// Fills `out[0..=n]` with the prior of generated position `i1` (1-based): `out[0]` for
    /// the null word (`p0`), `out[k]` for conditioning word `k`, i.e.
    /// `(1 - p0) exp(lambda h(i1, k, m, n)) / Z` with `Z` in closed form ([`compute_z`], with
    /// the powers of the ratio written as exponentials).
    ///
    /// Instead of `n` exponentials the row is filled by the geometric recurrence the closed
    /// form rests on (neighbouring cells on one side of the diagonal differ by the factor
    /// `exp(-lambda / n)`); values agree with direct evaluation to a few ulps.
    #[inline]
    pub fn fill(&self, i1: u32, out: &mut [f64]) {
        let (m, n, lambda) = (self.m, self.n, self.lambda);
        let nn = n as usize;
        debug_assert!(out.len() > nn);
        let split = f64::from(i1) * f64::from(n) / f64::from(m);
        let floor = (split as u32).min(n);
        let num_top = n - floor;
        let inv_n = 1.0 / f64::from(n);
        let u_floor = if floor >= 1 {
            unnormalized(i1, floor, m, n, lambda)
        } else {
            0.0
        };
        let u_ceil = if num_top >= 1 {
            unnormalized(i1, floor + 1, m, n, lambda)
        } else {
            0.0
        };
        let mut z = 0.0;
        if num_top != 0 {
            z += u_ceil * (1.0 - (-lambda * f64::from(num_top) * inv_n).exp()) * self.inv_1mr;
        }
        if floor != 0 {
            z += u_floor * (1.0 - (-lambda * f64::from(floor) * inv_n).exp()) * self.inv_1mr;
        }
        let scale = (1.0 - self.p0) / z;
        out[0] = self.p0;
        // Below (or on) the diagonal: positions floor, floor-1, ..., 1.
        let mut v = u_floor * scale;
        for slot in out[1..=floor as usize].iter_mut().rev() {
            *slot = v;
            v *= self.ratio;
        }
        // Above the diagonal: positions floor+1, ..., n.
        let mut v = u_ceil * scale;
        for slot in &mut out[floor as usize + 1..=nn] {
            *slot = v;
            v *= self.ratio;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn z_matches_direct_sum() {
        for &(m, n) in &[(1u32, 1u32), (3, 7), (10, 4), (25, 25), (40, 13)] {
            for i in 1..=m {
                for &l in &[0.1, 4.0, 13.9] {
                    let direct: f64 = (1..=n).map(|j| unnormalized(i, j, m, n, l)).sum();
                    let z = compute_z(i, m, n, l);
                    assert!((z - direct).abs() <= 1e-9 * direct, "{m} {n} {i} {l}");
                }
            }
        }
    }

    #[test]
    fn dlogz_matches_direct_when_square() {
        // With m == n the swapped call of fast_align is harmless, so compare to the direct
        // expectation of the feature.
        for &n in &[1u32, 5, 17] {
            for i in 1..=n {
                let l = 3.5;
                let z: f64 = (1..=n).map(|j| unnormalized(i, j, n, n, l)).sum();
                let e: f64 = (1..=n)
                    .map(|j| feature(i, j, n, n) * unnormalized(i, j, n, n, l))
                    .sum::<f64>()
                    / z;
                assert!((dlog_z(i, n, n, l) - e).abs() < 1e-9, "{n} {i}");
            }
        }
    }

    #[test]
    fn prior_row_matches_direct() {
        let mut row = vec![0.0; 64];
        for &(m, n) in &[(1u32, 1u32), (7, 3), (3, 7), (30, 50)] {
            let prior = DiagonalPrior::new(m, n, 4.0, 0.08);
            for i in 1..=m {
                prior.fill(i, &mut row);
                let z = compute_z(i, m, n, 4.0);
                let tot: f64 = row[..=n as usize].iter().sum();
                assert!((tot - 1.0).abs() < 1e-9);
                for j in 1..=n {
                    let d = unnormalized(i, j, m, n, 4.0) / (z / 0.92);
                    assert!((row[j as usize] - d).abs() <= 1e-12 * d.max(1e-300));
                }
            }
        }
    }

    #[test]
    fn dlog_z_sum_matches_terms() {
        for &(m, n) in &[(1u32, 1u32), (5, 3), (3, 5), (20, 7), (7, 40), (33, 33)] {
            for &l in &[0.1, 4.0, 10.39, 14.0] {
                let direct: f64 = (1..=m).map(|i| 3.0 * dlog_z(i, m, n, l)).sum();
                let fast = dlog_z_sum(m, n, l, 3.0);
                assert!(
                    (direct - fast).abs() <= 1e-10 * direct.abs().max(1e-300),
                    "{m} {n} {l}: {direct} {fast}"
                );
            }
        }
    }

    #[test]
    fn digamma_values() {
        // digamma(1) = -Euler-Mascheroni
        assert!((digamma(1.0) + 0.577_215_664_901_532_9).abs() < 1e-9);
        assert!((digamma(10.0) - 2.251_752_589_066_721).abs() < 1e-9);
        assert!((digamma(0.01) + 100.560_885_457_969_4).abs() < 1e-8);
        assert!((digamma(6.5) - 1.792_911_330_399_932).abs() < 1e-9);
    }
}
