//! `score`'s table on stdout: per metric, one row per corpus/set and per system the
//! score, its interval, the controls and the set-minus-controls difference; the trends and
//! the signatures.

use std::fmt::Write as _;

use std::path::Path;

use crate::score::compare::SetAgreement;
use crate::score::merge::Earlier;
use crate::score::{Method, Scores, DEFAULT_CONFIDENCE, SMALL_SET};
use crate::view::ScoreView;

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
    let _ = writeln!(
        s,
        "rank: controls scoring better than the set, of K; Δctl: set minus controls' mean, \
         !: worse than its controls (one-sided p < {alpha}); ~: fewer than {SMALL_SET} sentences \
         (locus accuracy: judged loci; contrastive accuracy: items)"
    );
    if r.metrics.iter().any(|m| m.key == crate::locus::KEY) {
        let _ = writeln!(
            s,
            "Locus: same-POS acc: accuracy of the other words of the set's sentences with a \
             locus word's part of speech; Δpos: the locus words' accuracy minus it, !: lower \
             (two-sided p < {alpha}); unal.: locus words the output has no token for (not judged)"
        );
    }
    let view = ScoreView::of(r);
    let label_w = view
        .tables
        .iter()
        .flat_map(|t| &t.lines)
        .map(|l| esc(l.key.phenomenon).len() + esc(l.key.bucket).len() + 1)
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
        let Some(table) = view.table(&metric.key) else {
            continue;
        };
        for line in &table.lines {
            let Some(row) = line.first() else {
                continue;
            };
            let label = if line.key.is_set() {
                format!("{}/{}", esc(&row.phenomenon), esc(&row.bucket))
            } else {
                "corpus".to_string()
            };
            let small = if row.small_set { "~" } else { " " };
            let n = row.loci.unwrap_or(row.sentences);
            let mut line_text = format!("{label:<label_w$} {n:>6}{small}");
            for x in line.cells.iter().copied() {
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
                line_text.push_str(&format!(
                    " | {:>8} {:>16} {:>13} {:>7} {:>9}",
                    cells[0], cells[1], cells[2], cells[3], cells[4]
                ));
            }
            let _ = writeln!(s, "{line_text}");
        }
    }
    if !view.trends.is_empty() {
        let _ = writeln!(
            s,
            "\nDistance trend over ge sets (correlation of min distance and score, {level} CI)"
        );
        let _ = writeln!(
            s,
            "{:<8} {:<24} {:<16} {:>6} {:>8} {:>16} {:>8} {:>16}",
            "metric", "phenomenon", "system", "points", "spearman", "CI", "pearson", "CI"
        );
        for t in view.trends {
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

/// What a small set has too few of, for the metrics `labels`: sentences (corpus and
/// segment-level metrics), judged loci (locus accuracy) or items (contrastive accuracy).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SmallSets {
    /// `sentences`, `judged loci` or `items`.
    pub unit: &'static str,
    /// The metrics counted in this unit.
    pub labels: Vec<String>,
    /// The small sets, as `phenomenon/bucket (n)`, once each, in table order.
    pub sets: Vec<String>,
}

/// The unit a row counts its size in, and that size.
fn size(row: &crate::score::Row) -> (&'static str, u64) {
    match row.loci {
        Some(n) if row.metric == crate::score::locus::KEY => ("judged loci", n),
        Some(n) => ("items", n),
        None => ("sentences", row.sentences),
    }
}

/// The sets (non-empty) with fewer than [`SMALL_SET`] of what each metric counts, by
/// that unit: a set small in sentences for BLEU may have enough judged loci, or too few.
pub fn small_sets(r: &Scores) -> Vec<SmallSets> {
    let mut out: Vec<SmallSets> = Vec::new();
    let view = ScoreView::of(r);
    let firsts = view.tables.iter().flat_map(|t| &t.lines);
    for row in firsts.filter_map(|l| l.first().filter(|_| l.key.is_set())) {
        let (unit, n) = size(row);
        if !row.small_set || n == 0 {
            continue;
        }
        let k = match out.iter().position(|g| g.unit == unit) {
            Some(k) => k,
            None => {
                out.push(SmallSets {
                    unit,
                    labels: Vec::new(),
                    sets: Vec::new(),
                });
                out.len() - 1
            }
        };
        let g = &mut out[k];
        let label = r.label(&row.metric).to_string();
        if !g.labels.contains(&label) {
            g.labels.push(label);
        }
        let name = format!("{}/{} ({n})", esc(&row.phenomenon), esc(&row.bucket));
        if !g.sets.contains(&name) {
            g.sets.push(name);
        }
    }
    out
}

/// The warning about the sets with fewer than [`SMALL_SET`] sentences, judged loci or
/// items ([`small_sets`]), one line per unit; `None` when there is none.
pub fn small_sets_warning(r: &Scores) -> Option<String> {
    let groups = small_sets(r);
    if groups.is_empty() {
        return None;
    }
    let mut s = String::from(
        "ldd-sets: warning: scores of small sets are unreliable (marked ~ in the table, \
         small_set in scores.csv/json):",
    );
    for g in &groups {
        let shown: Vec<&str> = g.sets.iter().take(12).map(String::as_str).collect();
        let _ = write!(
            s,
            "\n  {} {} fewer than {SMALL_SET} {} ({}): {}{}",
            g.sets.len(),
            if g.sets.len() == 1 {
                "set has"
            } else {
                "sets have"
            },
            g.unit,
            g.labels.join(", "),
            shown.join(", "),
            if g.sets.len() > shown.len() {
                ", ..."
            } else {
                ""
            }
        );
    }
    Some(s)
}

/// The note on what became of an earlier `scores.json` (`scores`, as shown) that this
/// run did not simply supersede: which systems and metrics it keeps, or which it replaced.
pub fn earlier_note(earlier: &Earlier, scores: &str) -> Option<String> {
    match earlier {
        Earlier::Merged { systems, metrics } => {
            let mut kept = Vec::new();
            if !systems.is_empty() {
                kept.push(format!("the systems {}", systems.join(", ")));
            }
            if !metrics.is_empty() {
                kept.push(format!("the metrics {}", metrics.join(", ")));
            }
            Some(format!(
                "ldd-sets: note: {scores} keeps the earlier scores of {} beside this run's \
                 (merged: same sets, settings and baseline; --replace discards them)",
                kept.join(" and of ")
            ))
        }
        Earlier::Replaced(names) => Some(format!(
            "ldd-sets: note: {scores} replaced the earlier scores of {} (--replace)",
            names.join(", ")
        )),
        Earlier::Superseded => None,
    }
}

/// The note that a report of the sets (`page`, LaTeX when `latex`) shows the scores as they
/// were when it was written, with the command that updates it.
pub fn stale_report_note(page: &Path, sets: &Path, latex: bool) -> String {
    format!(
        "ldd-sets: note: {} shows the earlier scores; update it: ldd-sets report --sets {}{}",
        ldd_io::error::shown(page),
        ldd_io::shell::path(sets),
        if latex { " --format latex" } else { "" }
    )
}

/// The note that a report of the sets (`page`, LaTeX when `latex`) does not show the
/// scores this run wrote elsewhere (`scores`, a `scores.json` outside the sets directory),
/// with the command that makes a report of them beside them (`out`).
pub fn elsewhere_report_note(
    page: &Path,
    sets: &Path,
    scores: &Path,
    out: &Path,
    latex: bool,
) -> String {
    format!(
        "ldd-sets: note: {} shows the sets' own scores, not these; a report of these: \
         ldd-sets report --sets {} --scores {} --out {}{}",
        ldd_io::error::shown(page),
        ldd_io::shell::path(sets),
        ldd_io::shell::path(scores),
        ldd_io::shell::path(out),
        if latex { " --format latex" } else { "" }
    )
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
