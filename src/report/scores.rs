//! `scores.json` as the report shows it, in its one schema ([`crate::format::scores`],
//! lenient: scores written by older versions of `ldd-sets score` still render, with "–"
//! for what they lack; [`super::inputs`] reads it and checks it against the manifest):
//! metric labels and ranges.

pub use crate::format::scores::{Row, Scores, SMALL_SET};

/// How a metric key is shown: its registry label (`BLEU`, `chrF`, `RIBES`), `locus
/// accuracy` for [`crate::score::locus::KEY`], or a segment-level metric's key itself.
pub fn metric_label(key: &str) -> &str {
    if key == crate::score::locus::KEY {
        "locus accuracy"
    } else {
        ldd_eval::metric::label(key)
    }
}

/// The largest score a metric can have, when it is bounded: 100 for the registry's
/// metrics (BLEU, chrF, RIBES ×100), locus accuracy and contrastive accuracy (shares in
/// percent); `None` for a `--seg-scores` metric, whose range is its own.
pub fn metric_max(key: &str) -> Option<f64> {
    let contrastive = crate::score::contrastive::KEY;
    let bounded = ldd_eval::metric::find(key).is_some()
        || key == crate::score::locus::KEY
        || key == contrastive
        || key
            .strip_prefix(contrastive)
            .is_some_and(|t| t.starts_with('-'));
    bounded.then_some(100.0)
}

/// The level of every mark: a q-value (or p-value) below it is flagged.
pub const ALPHA: f64 = 0.05;

/// The mark of "differs from the first system" (the paired test of the run, or McNemar's
/// for locus accuracy; sacreBLEU's convention): `*`.
pub const PAIRED: &str = "*";

/// The mark of "lower than its length-matched controls" (Benjamini–Hochberg q < [`ALPHA`]):
/// `!`.
pub const CONTROLS: &str = "!";

/// The mark of the within-sentence flag: the locus words less often right than the
/// comparable words of the same sentences (Benjamini–Hochberg q < [`ALPHA`]): `<`.
pub const WITHIN: &str = "<";

/// The mark of scores without p-values: every control scored higher than the set: `†`.
pub const ALL_CONTROLS: &str = "†";

/// The set-vs-controls figure a row is flagged by: its Benjamini–Hochberg q-value, and
/// `true`; or, in scores written before q-values existed, its unadjusted p-value, and
/// `false`.
pub fn control_q(row: &Row) -> Option<(f64, bool)> {
    match (row.control_q_value, row.control_p_value) {
        (Some(q), _) => Some((q, true)),
        (None, Some(p)) => Some((p, false)),
        _ => None,
    }
}

/// The set-vs-controls mark of a set row: [`CONTROLS`] when the set scores lower than its
/// controls at q < [`ALPHA`] ([`control_q`]); without p-values, [`ALL_CONTROLS`] when every
/// control scored higher than the set.
pub fn mark(row: &Row) -> &'static str {
    let lower = row.diff().is_none_or(|d| d < 0.0);
    match control_q(row) {
        Some((q, _)) if q < ALPHA && lower => CONTROLS,
        Some(_) => "",
        None if row.score.is_some() && row.controls > 0 && row.rank == Some(row.controls) => {
            ALL_CONTROLS
        }
        None => "",
    }
}

/// The within-sentence figure of a locus row: its q-value and `true`, or (before q-values
/// existed) its p-value and `false`.
pub fn within_q(row: &Row) -> Option<(f64, bool)> {
    let b = row.baseline.as_ref()?;
    match (b.q_value, b.p_value) {
        (Some(q), _) => Some((q, true)),
        (None, Some(p)) => Some((p, false)),
        _ => None,
    }
}

/// The within-sentence mark of a locus row: [`WITHIN`] when its locus words are less
/// often right than the comparable words of the same sentences at q < [`ALPHA`].
pub fn within_mark(row: &Row) -> &'static str {
    let lower = row
        .baseline
        .as_ref()
        .and_then(|b| b.diff)
        .is_some_and(|d| d < 0.0);
    match within_q(row) {
        Some((q, _)) if q < ALPHA && lower => WITHIN,
        _ => "",
    }
}

/// The paired mark of a row: [`PAIRED`] when it differs from the first system's at
/// p < [`ALPHA`].
pub fn paired_mark(row: &Row) -> &'static str {
    match row.p_value {
        Some(p) if p < ALPHA => PAIRED,
        _ => "",
    }
}

/// The n a row's score rests on and what it counts: judged loci for locus accuracy,
/// items for contrastive accuracy, else sentences.
pub fn n_of(row: &Row) -> (u64, &'static str) {
    match row.loci {
        Some(n) if row.metric == crate::score::locus::KEY => (n, "judged loci"),
        Some(n) => (n, "items"),
        None => (row.sentences, "sentences"),
    }
}

/// Whether a row's n ([`n_of`]) is below [`SMALL_SET`]: the one rule of the ⚠ (terminal
/// `~`), wherever a score is shown.
pub fn is_small(row: &Row) -> bool {
    let (n, _) = n_of(row);
    row.is_set() && n > 0 && (n < SMALL_SET || row.small_set)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::scores::Baseline;

    #[test]
    fn one_mark_per_meaning() {
        let mut r = Row {
            scope: "set".into(),
            score: Some(10.0),
            control_mean: Some(12.0),
            controls: 10,
            control_p_value: Some(0.01),
            ..Row::default()
        };
        // Before q-values: the p-value, said so.
        assert_eq!((mark(&r), control_q(&r)), ("!", Some((0.01, false))));
        r.control_q_value = Some(0.2);
        assert_eq!((mark(&r), control_q(&r)), ("", Some((0.2, true))));
        r.control_q_value = Some(0.04);
        assert_eq!(mark(&r), "!");
        // Higher than the controls is no flag, however small q.
        r.control_mean = Some(8.0);
        assert_eq!(mark(&r), "");
        r.p_value = Some(0.049);
        assert_eq!(paired_mark(&r), "*");
        r.baseline = Some(Baseline {
            diff: Some(-5.0),
            p_value: Some(0.001),
            q_value: Some(0.06),
            ..Baseline::default()
        });
        assert_eq!(within_mark(&r), "");
        r.baseline.as_mut().unwrap().q_value = Some(0.01);
        assert_eq!(within_mark(&r), "<");
        r.baseline.as_mut().unwrap().diff = Some(5.0);
        assert_eq!(within_mark(&r), "");
        let marks = [PAIRED, CONTROLS, WITHIN, ALL_CONTROLS];
        for (i, a) in marks.iter().enumerate() {
            assert!(marks[i + 1..].iter().all(|b| b != a));
        }
    }

    #[test]
    fn n_is_judged_loci_for_locus_accuracy() {
        let r = Row {
            metric: crate::score::locus::KEY.into(),
            scope: "set".into(),
            sentences: 130,
            loci: Some(85),
            small_set: true,
            ..Row::default()
        };
        assert_eq!(n_of(&r), (85, "judged loci"));
        assert!(is_small(&r));
        let b = Row {
            metric: "bleu".into(),
            scope: "set".into(),
            sentences: 130,
            ..Row::default()
        };
        assert_eq!(n_of(&b), (130, "sentences"));
        assert!(!is_small(&b));
    }
}
