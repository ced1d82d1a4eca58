//! Rank correlation and summaries of control scores.

/// Average (1-based) ranks; ties get the mean of the ranks they span.
/// Values are ordered with [`f64::total_cmp`].
pub fn average_ranks(values: &[f64]) -> Vec<f64> {
    let mut idx: Vec<usize> = (0..values.len()).collect();
    idx.sort_by(|&a, &b| values[a].total_cmp(&values[b]));
    let mut ranks = vec![0.0; values.len()];
    let mut i = 0;
    while i < idx.len() {
        let mut j = i;
        while j + 1 < idx.len() && values[idx[j + 1]] == values[idx[i]] {
            j += 1;
        }
        let avg = (i + j) as f64 / 2.0 + 1.0;
        for &k in &idx[i..=j] {
            ranks[k] = avg;
        }
        i = j + 1;
    }
    ranks
}

/// Pearson correlation; `None` if the lengths differ, fewer than 2 points, a value is
/// NaN, or either side has zero variance.
pub fn pearson(x_values: &[f64], y_values: &[f64]) -> Option<f64> {
    if x_values.len() != y_values.len()
        || x_values.len() < 2
        || x_values.iter().chain(y_values).any(|v| v.is_nan())
    {
        return None;
    }
    let mx = mean(x_values)?;
    let my = mean(y_values)?;
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (a, b) in x_values.iter().zip(y_values) {
        let (dx, dy) = (a - mx, b - my);
        sxy += dx * dy;
        sxx += dx * dx;
        syy += dy * dy;
    }
    if sxx == 0.0 || syy == 0.0 {
        return None;
    }
    Some((sxy / (sxx * syy).sqrt()).clamp(-1.0, 1.0))
}

/// Spearman's ρ: Pearson correlation of average ranks (ties handled). `None` when
/// undefined (see [`pearson`]).
pub fn spearman(x_values: &[f64], y_values: &[f64]) -> Option<f64> {
    if x_values.iter().chain(y_values).any(|v| v.is_nan()) {
        return None;
    }
    pearson(&average_ranks(x_values), &average_ranks(y_values))
}

/// Arithmetic mean; `None` for no values.
pub fn mean(values: &[f64]) -> Option<f64> {
    if values.is_empty() {
        None
    } else {
        Some(values.iter().sum::<f64>() / values.len() as f64)
    }
}

/// Sample standard deviation (n − 1 denominator); `None` for fewer than 2 values.
pub fn sample_sd(values: &[f64]) -> Option<f64> {
    if values.len() < 2 {
        return None;
    }
    let m = mean(values)?;
    let ss: f64 = values.iter().map(|v| (v - m) * (v - m)).sum();
    Some((ss / (values.len() - 1) as f64).sqrt())
}

/// How a challenge-set score compares with its control scores.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ControlSummary {
    /// Number of controls.
    pub controls: usize,
    /// Mean control score (`None` without controls).
    pub mean: Option<f64>,
    /// Sample standard deviation of control scores (`None` for fewer than 2).
    pub sd: Option<f64>,
    /// Rank: number of controls scoring strictly higher than the set.
    pub rank: usize,
    /// Number of controls scoring exactly the set's score.
    pub ties: usize,
}

/// Summarises control scores relative to the set score.
pub fn summarize(set_score: f64, control_scores: &[f64]) -> ControlSummary {
    ControlSummary {
        controls: control_scores.len(),
        mean: mean(control_scores),
        sd: sample_sd(control_scores),
        rank: control_scores.iter().filter(|&&c| c > set_score).count(),
        ties: control_scores.iter().filter(|&&c| c == set_score).count(),
    }
}

/// Benjamini–Hochberg adjusted p-values (q-values) of a family of tests, in the order
/// given; `None` entries (no test) stay `None` and are not counted in the family.
/// `q_(i) = min_{j ≥ i} min(1, m · p_(j) / j)` over the `m` p-values sorted ascending
/// (statsmodels' `multipletests(method="fdr_bh")`). Rejecting every test with `q ≤ α`
/// controls the false discovery rate at `α` for independent or positively dependent
/// tests (nested sets of one phenomenon are positively dependent).
pub fn benjamini_hochberg(p_values: &[Option<f64>]) -> Vec<Option<f64>> {
    let mut order: Vec<usize> = (0..p_values.len())
        .filter(|&i| p_values[i].is_some_and(|p| !p.is_nan()))
        .collect();
    let m = order.len() as f64;
    order.sort_by(|&a, &b| {
        p_values[a]
            .unwrap_or(1.0)
            .total_cmp(&p_values[b].unwrap_or(1.0))
            .then(a.cmp(&b))
    });
    let mut out = vec![None; p_values.len()];
    let mut running = 1.0f64;
    for (rank, &i) in order.iter().enumerate().rev() {
        let p = p_values[i].unwrap_or(1.0);
        running = running.min((m * p / (rank + 1) as f64).min(1.0));
        out[i] = Some(running);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values from statsmodels 0.14 `multipletests(p, method="fdr_bh")[1]` for
    /// p = [0.01, 0.04, 0.03, 0.2, 0.005] (None skipped).
    #[test]
    fn benjamini_hochberg_matches_statsmodels() {
        let p = [
            Some(0.01),
            Some(0.04),
            None,
            Some(0.03),
            Some(0.2),
            Some(0.005),
        ];
        let q = benjamini_hochberg(&p);
        let want = [
            Some(0.025),
            Some(0.05),
            None,
            Some(0.05),
            Some(0.2),
            Some(0.025),
        ];
        for (a, b) in q.iter().zip(want) {
            match (a, b) {
                (Some(a), Some(b)) => assert!((a - b).abs() < 1e-12, "{q:?}"),
                (None, None) => {}
                _ => panic!("{q:?}"),
            }
        }
        assert_eq!(benjamini_hochberg(&[]), Vec::<Option<f64>>::new());
        assert_eq!(benjamini_hochberg(&[Some(0.9)]), vec![Some(0.9)]);
    }

    #[test]
    fn average_ranks_ties() {
        assert_eq!(
            average_ranks(&[10.0, 20.0, 10.0, 5.0]),
            vec![2.5, 4.0, 2.5, 1.0]
        );
    }

    #[test]
    fn spearman_basic_and_undefined() {
        assert_eq!(spearman(&[1.0, 2.0, 3.0], &[10.0, 20.0, 1000.0]), Some(1.0));
        assert_eq!(spearman(&[1.0, 2.0, 3.0], &[3.0, 2.0, 1.0]), Some(-1.0));
        assert_eq!(spearman(&[1.0], &[2.0]), None);
        assert_eq!(spearman(&[1.0, 2.0], &[5.0, 5.0]), None);
        assert_eq!(spearman(&[1.0, 2.0], &[5.0]), None);
        assert_eq!(spearman(&[1.0, f64::NAN], &[5.0, 6.0]), None);
    }

    /// Table 5 of Choshen & Abend (2019): BLEU over min distance d ≥ 0 (All), ≥1, ≥2, ≥3.
    /// The column is labelled "Spearman", but its values are Pearson's r: a strictly
    /// decreasing row (Transformer German Particle) has Spearman −1, yet the table says
    /// −0.96 = Pearson; the English Particle row (with a tie) has Spearman 0.632 and
    /// Pearson 0.733 (table: 0.73).
    #[test]
    fn table5_rows() {
        let d = [0.0, 1.0, 2.0, 3.0];
        let de_particle = [7.56, 7.52, 7.5, 7.49];
        assert_eq!(spearman(&d, &de_particle), Some(-1.0));
        let p = pearson(&d, &de_particle).unwrap();
        assert_eq!((p * 100.0).round() / 100.0, -0.96);
        let en_particle = [4.96, 5.3, 4.96, 6.01];
        let s = spearman(&d, &en_particle).unwrap();
        assert!((s - 3.0 / 22.5f64.sqrt()).abs() < 1e-12); // ranks y = [1.5, 3, 1.5, 4]
        let p = pearson(&d, &en_particle).unwrap();
        assert_eq!((p * 100.0).round() / 100.0, 0.73);
        // Nematus English Particle: strictly decreasing → both strongly negative.
        let nm = [10.14, 9.55, 9.36, 8.82];
        assert_eq!(spearman(&d, &nm), Some(-1.0));
        assert_eq!((pearson(&d, &nm).unwrap() * 100.0).round() / 100.0, -0.98);
    }

    #[test]
    fn summary_counts_higher_controls() {
        let s = summarize(5.0, &[4.0, 5.0, 6.0, 7.0]);
        assert_eq!(s.controls, 4);
        assert_eq!(s.mean, Some(5.5));
        assert!((s.sd.unwrap() - (5.0f64 / 3.0).sqrt()).abs() < 1e-12);
        assert_eq!((s.rank, s.ties), (2, 1));
        let e = summarize(1.0, &[]);
        assert_eq!((e.mean, e.sd, e.rank), (None, None, 0));
    }
}
