//! A share of items with its Wilson interval and McNemar's exact test against the first
//! system on the same items, per set and corpus, and its trend over distance: the
//! statistics of locus accuracy ([`super::locus`]) and of contrastive accuracy
//! ([`super::contrastive`]).

use ldd_eval::significance::{mcnemar_exact, wilson};
use ldd_eval::stats::{pearson, spearman};

use super::{Metric, Row, Trend, SMALL_SET};

/// The row of one system: the share (×100) of `true` among the judged `outcomes` (`None`:
/// not judged, counted in `no_reference`), its Wilson interval at `confidence`, and with
/// `base` (the first system's outcomes on the same items) McNemar's exact p-value.
pub fn row(
    system: &str,
    metric: &Metric,
    scope: &str,
    outcomes: &[Option<bool>],
    base: Option<&[Option<bool>]>,
    confidence: f64,
) -> Row {
    let n = outcomes.iter().flatten().count() as u64;
    let correct = outcomes.iter().flatten().filter(|&&c| c).count() as u64;
    let ci = wilson(correct, n, confidence);
    let p = base.filter(|_| n > 0).map(|base| {
        let (mut only_base, mut only_sys) = (0, 0);
        for (b, x) in base.iter().zip(outcomes) {
            match (b, x) {
                (Some(true), Some(false)) => only_base += 1,
                (Some(false), Some(true)) => only_sys += 1,
                _ => {}
            }
        }
        mcnemar_exact(only_base, only_sys)
    });
    Row {
        system: system.to_string(),
        metric: metric.key.clone(),
        scope: scope.into(),
        score: (n > 0).then(|| 100.0 * correct as f64 / n as f64),
        ci_low: ci.map(|c| 100.0 * c.0),
        ci_high: ci.map(|c| 100.0 * c.1),
        p_value: p,
        loci: Some(n),
        no_reference: Some(outcomes.iter().filter(|o| o.is_none()).count() as u64),
        small_set: n < SMALL_SET,
        signature: metric.signature.clone(),
        control_status: "none".into(),
        ..Row::default()
    }
}

/// Spearman and Pearson of accuracy against minimum distance over each phenomenon's `ge`
/// sets with a score.
pub fn trends(metric: &Metric, systems: &[String], rows: &[Vec<Row>]) -> Vec<Trend> {
    let mut out = Vec::new();
    for (s, sys_rows) in rows.iter().enumerate() {
        let mut phenomena: Vec<&str> = Vec::new();
        for r in sys_rows
            .iter()
            .filter(|r| r.is_set() && r.exact == Some(false))
        {
            if !phenomena.contains(&r.phenomenon.as_str()) {
                phenomena.push(&r.phenomenon);
            }
        }
        for ph in phenomena {
            let points: Vec<(u32, f64)> = sys_rows
                .iter()
                .filter(|r| r.is_set() && r.exact == Some(false) && r.phenomenon == ph)
                .filter_map(|r| Some((r.min_distance?, r.score?)))
                .collect();
            let x: Vec<f64> = points.iter().map(|p| f64::from(p.0)).collect();
            let y: Vec<f64> = points.iter().map(|p| p.1).collect();
            out.push(Trend {
                system: systems[s].clone(),
                metric: metric.key.clone(),
                phenomenon: ph.to_string(),
                spearman: spearman(&x, &y),
                pearson: pearson(&x, &y),
                points,
                spearman_ci_low: None,
                spearman_ci_high: None,
                pearson_ci_low: None,
                pearson_ci_high: None,
                signature: metric.signature.clone(),
                ..Trend::default()
            });
        }
    }
    out
}
