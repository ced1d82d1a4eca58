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

/// The significance mark of a set row: `**` / `*` for a one-sided control p-value below
/// 0.01 / 0.05; without p-values, `†` when every control scored higher than the set.
pub fn mark(row: &Row) -> &'static str {
    match row.control_p_value {
        Some(p) if p < 0.01 => "**",
        Some(p) if p < 0.05 => "*",
        Some(_) => "",
        None if row.score.is_some() && row.controls > 0 && row.rank == Some(row.controls) => "†",
        None => "",
    }
}
