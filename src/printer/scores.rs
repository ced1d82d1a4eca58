//! `score`'s table on stdout: per metric, one row per corpus/set and per system the
//! score, its interval, the controls and the set-minus-controls difference; the trends and
//! the signatures.

use std::fmt::Write as _;

use crate::score::compare::SetAgreement;
use crate::score::{Method, Scores, DEFAULT_CONFIDENCE, SMALL_SET};

/// Input text (names from the manifest and the command line) as printed.
fn esc(s: &str) -> std::borrow::Cow<'_, str> {
    ldd_io::error::escape(s)
}

fn f2(v: Option<f64>) -> String {
    v.map_or_else(|| "-".into(), |x| format!("{x:.2}"))
}

/// `[low, high]` with two decimals, `-` when undefined.
fn range(lo: Option<f64>, hi: Option<f64>) -> String {
    match (lo, hi) {
        (Some(a), Some(b)) => format!("[{a:.2}, {b:.2}]"),
        _ => "-".into(),
    }
}

/// Whether a p-value is below the significance level `1 − confidence`.
fn significant(p: Option<f64>, confidence: f64) -> bool {
    p.is_some_and(|p| p < 1.0 - confidence)
}

/// The stdout table: per metric, one row per corpus/set, per system the score (`*`:
/// differs from the baseline), its interval, the controls' `mean±sd`, the rank and the
/// set-minus-controls difference (`!`: worse than the controls); `~` marks small sets.
/// Then the distance trends and the signatures.
pub fn render_table(r: &Scores) -> String {
    let mut s = String::new();
    let sig = &r.significance;
    let conf = sig.confidence.unwrap_or(DEFAULT_CONFIDENCE);
    let level = format!("{}%", conf * 100.0);
    let alpha = format!("{}", ((1.0 - conf) * 1e6).round() / 1e6);
    let _ = writeln!(
        s,
        "{} corpus lines; reference {}",
        r.corpus_lines,
        r.reference
            .as_deref()
            .map_or_else(|| "–".to_string(), ldd_io::error::shown)
    );
    if let (Some(b @ 1..), Some(seed)) = (sig.bootstrap, sig.seed) {
        let _ = writeln!(
            s,
            "[{level} CI]: bootstrap interval ({b} resamples, seed {seed})"
        );
    }
    if let (Some(m), Some(base), Some(n)) = (sig.method.as_deref(), r.systems.first(), sig.n) {
        let _ = writeln!(
            s,
            "*: differs from the baseline {} (paired {}, {n} {}, p < {alpha})",
            esc(&base.name),
            esc(m),
            if m == Method::Bootstrap.name() {
                "resamples"
            } else {
                "trials"
            },
        );
    }
    // Accuracies (locus, contrastive) count their loci or items, not sentences.
    let counted = if r.rows.iter().any(|x| x.loci.is_some()) {
        " (accuracies: n and ~ count the loci or items judged)"
    } else {
        ""
    };
    let _ = writeln!(
        s,
        "rank: controls scoring better than the set, of K; Δctl: set minus controls' mean, \
         !: worse than its controls (one-sided p < {alpha}); ~: fewer than {SMALL_SET} sentences{counted}"
    );
    if r.metrics.iter().any(|m| m.key == crate::locus::KEY) {
        let _ = writeln!(
            s,
            "Locus: same-POS acc: accuracy of the other words of the set's sentences with a \
             locus word's part of speech; Δpos: the locus words' accuracy minus it, !: lower \
             (two-sided p < {alpha}); unal.: locus words the output has no token for (not judged)"
        );
    }
    let label_w = r
        .rows
        .iter()
        .map(|x| esc(&x.phenomenon).len() + esc(&x.bucket).len() + 1)
        .max()
        .unwrap_or(6)
        .max(6);
    for metric in &r.metrics {
        let _ = writeln!(s, "\n{}", esc(&metric.label));
        // Locus accuracy compares with the same kind of words instead of controls.
        let locus = metric.key == crate::locus::KEY;
        let (c1, c2, c3) = if locus {
            ("same-POS acc", "unal.", "Δpos")
        } else {
            ("ctl mean±sd", "rank", "Δctl")
        };
        let mut head = format!("{:<label_w$} {:>7}", "set", "n");
        for sys in &r.systems {
            head.push_str(&format!(
                " | {:>8} {:>16} {:>13} {:>7} {:>9}",
                esc(&sys.name),
                format!("{level} CI"),
                c1,
                c2,
                c3
            ));
        }
        let _ = writeln!(s, "{head}");
        let Some(first) = r.systems.first().map(|s| &s.name) else {
            continue;
        };
        for row in r
            .rows
            .iter()
            .filter(|x| x.metric == metric.key && &x.system == first)
        {
            let label = if row.scope == "corpus" {
                "corpus".to_string()
            } else {
                format!("{}/{}", esc(&row.phenomenon), esc(&row.bucket))
            };
            let small = if row.small_set { "~" } else { " " };
            let n = row.loci.unwrap_or(row.sentences);
            let mut line = format!("{label:<label_w$} {n:>6}{small}");
            for sys in &r.systems {
                let x = r.rows.iter().find(|x| {
                    x.system == sys.name
                        && x.metric == row.metric
                        && x.scope == row.scope
                        && x.phenomenon == row.phenomenon
                        && x.bucket == row.bucket
                });
                // The score, starred when significant at the confidence level.
                let starred = |x: &crate::score::Row| {
                    format!(
                        "{}{}",
                        f2(x.score),
                        if significant(x.p_value, conf) {
                            "*"
                        } else {
                            " "
                        }
                    )
                };
                let cells = match x {
                    Some(x) if locus => {
                        let b = x.baseline.clone().unwrap_or_default();
                        let with_ref = b.words + b.unaligned;
                        [
                            starred(x),
                            range(x.ci_low, x.ci_high),
                            f2(b.comparable_score),
                            if with_ref > 0 {
                                format!("{:.0}%", 100.0 * b.unaligned as f64 / with_ref as f64)
                            } else {
                                "-".into()
                            },
                            match b.diff {
                                Some(d) => format!(
                                    "{d:+.2}{}",
                                    if d < 0.0 && significant(b.p_value, conf) {
                                        "!"
                                    } else {
                                        " "
                                    }
                                ),
                                None => "- ".into(),
                            },
                        ]
                    }
                    Some(x) => [
                        starred(x),
                        range(x.ci_low, x.ci_high),
                        match (x.control_mean, x.control_sd) {
                            (Some(m), Some(sd)) => format!("{m:.2}±{sd:.2}"),
                            (Some(m), None) => format!("{m:.2}"),
                            _ => "-".into(),
                        },
                        x.rank
                            .map_or_else(|| "-".into(), |k| format!("{k}/{}", x.controls)),
                        match x.control_diff {
                            Some(d) => format!(
                                "{d:+.2}{}",
                                if significant(x.control_p_value, conf) {
                                    "!"
                                } else {
                                    " "
                                }
                            ),
                            None => "- ".into(),
                        },
                    ],
                    None => ["- ".into(), "-".into(), "-".into(), "-".into(), "- ".into()],
                };
                line.push_str(&format!(
                    " | {:>8} {:>16} {:>13} {:>7} {:>9}",
                    cells[0], cells[1], cells[2], cells[3], cells[4]
                ));
            }
            let _ = writeln!(s, "{line}");
        }
    }
    if !r.trends.is_empty() {
        let _ = writeln!(
            s,
            "\nDistance trend over ge sets (correlation of min distance and score, {level} CI)"
        );
        let _ = writeln!(
            s,
            "{:<8} {:<24} {:<16} {:>6} {:>8} {:>16} {:>8} {:>16}",
            "metric", "phenomenon", "system", "points", "spearman", "CI", "pearson", "CI"
        );
        for t in &r.trends {
            let label = r.label(&t.metric);
            let _ = writeln!(
                s,
                "{:<8} {:<24} {:<16} {:>6} {:>8} {:>16} {:>8} {:>16}",
                esc(label),
                esc(&t.phenomenon),
                esc(&t.system),
                t.points.len(),
                f2(t.spearman),
                range(t.spearman_ci_low, t.spearman_ci_high),
                f2(t.pearson),
                range(t.pearson_ci_low, t.pearson_ci_high)
            );
        }
    }
    if !r.metrics.is_empty() {
        let _ = writeln!(s, "\nSignatures");
        for m in &r.metrics {
            let _ = writeln!(s, "  {:<8} {}", esc(&m.label), esc(&m.signature));
        }
    }
    s
}

/// Sets with fewer than [`SMALL_SET`] sentences (non-empty), as `phenomenon/bucket (n)`,
/// once per set: the rows of metrics scored on sentences (an accuracy's `small_set`
/// counts its loci or items, which its table shows).
pub fn small_sets(r: &Scores) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let Some(first) = r.systems.first() else {
        return out;
    };
    for row in &r.rows {
        if row.system == first.name
            && row.scope == "set"
            && row.small_set
            && row.sentences > 0
            && row.loci.is_none()
        {
            let name = format!(
                "{}/{} ({})",
                esc(&row.phenomenon),
                esc(&row.bucket),
                row.sentences
            );
            if !out.contains(&name) {
                out.push(name);
            }
        }
    }
    out
}

/// The warning about the sets with fewer than [`SMALL_SET`] sentences ([`small_sets`],
/// the first 12 named), or `None` when there are none.
pub fn small_sets_warning(r: &Scores) -> Option<String> {
    let small = small_sets(r);
    if small.is_empty() {
        return None;
    }
    let shown: Vec<&str> = small.iter().take(12).map(String::as_str).collect();
    Some(format!(
        "ldd-sets: warning: {} sets have fewer than {SMALL_SET} sentences, too few for a \
         reliable BLEU (marked ~ in the table, small_set in scores.csv/json): {}{}",
        small.len(),
        shown.join(", "),
        if small.len() > shown.len() {
            ", ..."
        } else {
            ""
        }
    ))
}

/// `compare`'s table: per set, the lines of each run, of both, and precision, recall
/// and F1 of the evaluated run against the reference run.
pub fn compare_table(rows: &[SetAgreement]) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{:<24} {:<6} {:>6} {:>6} {:>6} {:>9} {:>9} {:>6}",
        "phenomenon", "set", "gold", "pred", "both", "precision", "recall", "F1"
    );
    for r in rows {
        let _ = writeln!(
            s,
            "{:<24} {:<6} {:>6} {:>6} {:>6} {:>9.3} {:>9.3} {:>6.3}",
            r.phenomenon,
            r.bucket,
            r.gold,
            r.predicted,
            r.both,
            r.precision,
            r.recall,
            r.f1()
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Scores without systems render (it used to panic).
    #[test]
    fn empty_scores_render() {
        let r = Scores {
            reference: Some("r".into()),
            ..Default::default()
        };
        assert!(render_table(&r).starts_with("0 corpus lines"));
        assert!(small_sets(&r).is_empty());
        assert!(small_sets_warning(&r).is_none());
    }
}
