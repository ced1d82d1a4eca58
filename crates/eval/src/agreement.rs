//! Agreement between an automatic binary judgement and people's, and between two
//! proportions: the 2×2 table with Matthews' correlation and Cohen's κ (scikit-learn's
//! `matthews_corrcoef`, `cohen_kappa_score`), a permutation test within groups, Kendall's
//! τ-b (scipy's `kendalltau`), and the difference of two independent proportions with
//! Newcombe's interval (statsmodels' `confint_proportions_2indep(method="newcomb")`) and
//! Fisher's exact test (scipy's `fisher_exact`).

use crate::rng::Xoshiro256StarStar;

/// Counts of a 2×2 table: the automatic judgement (positive: "wrong") against people's
/// (positive: "a person saw an error").
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Table {
    /// Both positive.
    pub tp: u64,
    /// Automatic positive, people negative.
    pub fp: u64,
    /// Automatic negative, people positive.
    pub fn_: u64,
    /// Both negative.
    pub tn: u64,
}

impl Table {
    /// The table of paired labels (automatic, people).
    pub fn of(pairs: impl IntoIterator<Item = (bool, bool)>) -> Table {
        let mut t = Table::default();
        for (a, p) in pairs {
            t.add(a, p);
        }
        t
    }

    /// Counts one pair.
    pub fn add(&mut self, automatic: bool, people: bool) {
        match (automatic, people) {
            (true, true) => self.tp += 1,
            (true, false) => self.fp += 1,
            (false, true) => self.fn_ += 1,
            (false, false) => self.tn += 1,
        }
    }

    /// Items.
    pub fn n(&self) -> u64 {
        self.tp + self.fp + self.fn_ + self.tn
    }

    /// Matthews' correlation coefficient; 0 when a margin is empty (as scikit-learn).
    pub fn mcc(&self) -> f64 {
        let (tp, fp, fn_, tn) = (
            self.tp as f64,
            self.fp as f64,
            self.fn_ as f64,
            self.tn as f64,
        );
        let d = ((tp + fp) * (tp + fn_) * (tn + fp) * (tn + fn_)).sqrt();
        if d == 0.0 {
            0.0
        } else {
            (tp * tn - fp * fn_) / d
        }
    }

    /// Cohen's κ; `None` when chance agreement is 1 (one label only).
    pub fn kappa(&self) -> Option<f64> {
        let n = self.n() as f64;
        if n == 0.0 {
            return None;
        }
        let po = (self.tp + self.tn) as f64 / n;
        let a_pos = (self.tp + self.fp) as f64 / n;
        let p_pos = (self.tp + self.fn_) as f64 / n;
        let pe = a_pos * p_pos + (1.0 - a_pos) * (1.0 - p_pos);
        (pe < 1.0).then(|| (po - pe) / (1.0 - pe))
    }

    /// P(people positive | automatic positive); `None` without automatic positives.
    pub fn precision(&self) -> Option<f64> {
        let d = self.tp + self.fp;
        (d > 0).then(|| self.tp as f64 / d as f64)
    }

    /// P(people positive | automatic negative); `None` without automatic negatives.
    pub fn miss_rate(&self) -> Option<f64> {
        let d = self.fn_ + self.tn;
        (d > 0).then(|| self.fn_ as f64 / d as f64)
    }

    /// Share of items the automatic judgement calls positive.
    pub fn automatic_rate(&self) -> Option<f64> {
        let n = self.n();
        (n > 0).then(|| (self.tp + self.fp) as f64 / n as f64)
    }

    /// Share of items people call positive.
    pub fn people_rate(&self) -> Option<f64> {
        let n = self.n();
        (n > 0).then(|| (self.tp + self.fn_) as f64 / n as f64)
    }
}

/// A permutation test of the automatic judgement's agreement with people beyond what the
/// groups explain: the automatic labels are shuffled among the items of each group (e.g.
/// the systems' judgements of one source word), `permutations` times with `seed`, and the
/// p-value is the share of shuffles whose MCC is at least the observed one,
/// `(k + 1) / (permutations + 1)`. `items` are (group, automatic, people), in any order;
/// the result does not depend on it beyond the order of groups' first items.
pub fn within_group_permutation(
    items: &[(u64, bool, bool)],
    permutations: usize,
    seed: u64,
) -> f64 {
    let observed = Table::of(items.iter().map(|&(_, a, p)| (a, p))).mcc();
    // Items by group, in order of first appearance.
    let mut order: Vec<usize> = (0..items.len()).collect();
    order.sort_by_key(|&i| items[i].0);
    let mut groups: Vec<(usize, usize)> = Vec::new();
    let mut start = 0;
    for k in 1..=order.len() {
        if k == order.len() || items[order[k]].0 != items[order[start]].0 {
            if k - start > 1 {
                groups.push((start, k));
            }
            start = k;
        }
    }
    let people: Vec<bool> = order.iter().map(|&i| items[i].2).collect();
    let mut auto: Vec<bool> = order.iter().map(|&i| items[i].1).collect();
    let mut rng = Xoshiro256StarStar::seed_from_u64(seed);
    let mut at_least = 0usize;
    for _ in 0..permutations {
        for &(a, b) in &groups {
            // Fisher–Yates within the group.
            for i in (a + 1..b).rev() {
                let j = a + rng.below((i - a + 1) as u64) as usize;
                auto.swap(i, j);
            }
        }
        let m = Table::of(auto.iter().copied().zip(people.iter().copied())).mcc();
        if m >= observed - 1e-12 {
            at_least += 1;
        }
    }
    (at_least + 1) as f64 / (permutations + 1) as f64
}

/// Kendall's τ-b of paired values (ties in either variable corrected), as scipy's
/// `kendalltau`; `None` with fewer than two pairs or a constant variable.
pub fn kendall_tau_b(x_values: &[f64], y_values: &[f64]) -> Option<f64> {
    let n = x_values.len().min(y_values.len());
    if n < 2 {
        return None;
    }
    let (mut concordant, mut discordant, mut tie_x, mut tie_y) = (0i64, 0i64, 0i64, 0i64);
    for i in 0..n {
        for j in i + 1..n {
            let dx = x_values[i] - x_values[j];
            let dy = y_values[i] - y_values[j];
            if dx == 0.0 && dy == 0.0 {
                continue;
            } else if dx == 0.0 {
                tie_x += 1;
            } else if dy == 0.0 {
                tie_y += 1;
            } else if (dx > 0.0) == (dy > 0.0) {
                concordant += 1;
            } else {
                discordant += 1;
            }
        }
    }
    let n1 = (concordant + discordant + tie_x) as f64;
    let n2 = (concordant + discordant + tie_y) as f64;
    let d = (n1 * n2).sqrt();
    (d > 0.0).then(|| (concordant - discordant) as f64 / d)
}

/// The difference `p1 − p2` of two independent proportions (`s1` of `n1`, `s2` of `n2`),
/// Newcombe's hybrid-score interval at `confidence` (from the two Wilson intervals), and
/// the two-sided p-value of Fisher's exact test ([`fisher_exact`]: exact at any size, so
/// one word against many cannot be called significant, as a normal approximation would);
/// `None` when a sample is empty.
pub fn two_proportions(
    s1: u64,
    n1: u64,
    s2: u64,
    n2: u64,
    confidence: f64,
) -> Option<(f64, (f64, f64), f64)> {
    let (l1, u1) = crate::significance::wilson(s1, n1, confidence)?;
    let (l2, u2) = crate::significance::wilson(s2, n2, confidence)?;
    let (p1, p2) = (s1 as f64 / n1 as f64, s2 as f64 / n2 as f64);
    let d = p1 - p2;
    let low = d - ((p1 - l1).powi(2) + (u2 - p2).powi(2)).sqrt();
    let high = d + ((u1 - p1).powi(2) + (p2 - l2).powi(2)).sqrt();
    Some((d, (low, high), fisher_exact(s1, n1, s2, n2)))
}

/// Two-sided p-value of Fisher's exact test of the table `[[s1, n1 − s1], [s2, n2 − s2]]`
/// (scipy's `fisher_exact`): the hypergeometric probability, given the margins, of every
/// table as probable as the observed one or less (relative tolerance 1e-7). 1 when a row
/// or column is empty. Requires `s1 ≤ n1`, `s2 ≤ n2`.
pub fn fisher_exact(s1: u64, n1: u64, s2: u64, n2: u64) -> f64 {
    use statrs::function::factorial::ln_binomial;
    let successes = s1 + s2;
    let total = n1 + n2;
    if n1 == 0 || n2 == 0 || successes == 0 || successes == total {
        return 1.0;
    }
    let ln_p = |x: u64| {
        ln_binomial(n1, x) + ln_binomial(n2, successes - x) - ln_binomial(total, successes)
    };
    let observed = ln_p(s1);
    let low = successes.saturating_sub(n2);
    let high = successes.min(n1);
    let p: f64 = (low..=high)
        .map(ln_p)
        .filter(|&l| l <= observed + 1e-7)
        .map(f64::exp)
        .sum();
    p.min(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// scipy 1.x `fisher_exact([[a, b], [c, d]])[1]`.
    #[test]
    fn fisher_exact_matches_scipy() {
        let cases = [
            ((0, 1, 300, 400), 0.25187032418952615),
            ((3, 10, 80, 100), 0.0019093807036154806),
            ((50, 120, 900, 1000), 2.9691231964000065e-32),
            ((5, 15, 5, 15), 1.0),
            ((0, 0, 1, 2), 1.0),
        ];
        for ((s1, n1, s2, n2), want) in cases {
            let p = fisher_exact(s1, n1, s2, n2);
            assert!(
                (p - want).abs() <= 1e-9 * want.max(1e-30) + 1e-12,
                "{p} vs {want}"
            );
        }
        // One locus word wrong against 300 of 400 comparable words right: no finding.
        let (d, _, p) = two_proportions(0, 1, 300, 400, 0.95).expect("both judged");
        assert_eq!(d, -0.75);
        assert!(p > 0.25);
    }

    #[test]
    fn table_by_hand() {
        // tp 3, fp 2, fn 1, tn 4: MCC = (12 − 2) / √(5·4·6·5) = 10 / √600.
        let t = Table {
            tp: 3,
            fp: 2,
            fn_: 1,
            tn: 4,
        };
        assert!((t.mcc() - 10.0 / 600f64.sqrt()).abs() < 1e-12);
        // po = 0.7, pe = 0.5·0.4 + 0.5·0.6 = 0.5, κ = 0.4.
        assert!((t.kappa().unwrap() - 0.4).abs() < 1e-12);
        assert_eq!(t.precision(), Some(0.6));
        assert_eq!(t.miss_rate(), Some(0.2));
        assert_eq!(Table::default().mcc(), 0.0);
        assert_eq!(
            Table {
                tp: 0,
                fp: 0,
                fn_: 0,
                tn: 5
            }
            .kappa(),
            None
        );
    }

    #[test]
    fn kendall_by_hand() {
        // 3 concordant, 0 discordant pairs.
        assert_eq!(kendall_tau_b(&[1.0, 2.0, 3.0], &[1.0, 5.0, 9.0]), Some(1.0));
        // x = 1 2 3 4, y = 1 3 2 4: 5 concordant, 1 discordant → 4/6.
        let t = kendall_tau_b(&[1.0, 2.0, 3.0, 4.0], &[1.0, 3.0, 2.0, 4.0]).unwrap();
        assert!((t - 4.0 / 6.0).abs() < 1e-12);
        assert_eq!(kendall_tau_b(&[1.0, 1.0], &[1.0, 2.0]), None);
    }

    #[test]
    fn permutation_sees_within_group_agreement() {
        // 50 groups of 4: the automatic label is right on every item, and people's labels
        // vary within each group, so shuffling within groups destroys the agreement.
        let items: Vec<(u64, bool, bool)> = (0..200)
            .map(|i| ((i / 4) as u64, i % 4 == 0, i % 4 == 0))
            .collect();
        let p = within_group_permutation(&items, 199, 7);
        assert_eq!(p, 1.0 / 200.0);
        // When people's labels are constant within groups, shuffling changes nothing: p = 1.
        let items: Vec<(u64, bool, bool)> = (0..200)
            .map(|i| ((i / 4) as u64, (i / 4) % 2 == 0, (i / 4) % 2 == 0))
            .collect();
        assert_eq!(within_group_permutation(&items, 99, 7), 1.0);
    }
}
