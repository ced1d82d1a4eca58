//! `score`'s table on stdout: per metric, one row per corpus/set and per system the
//! score, its interval, the controls and the set-minus-controls difference; the trends and
//! the signatures.

use std::fmt::Write as _;

use std::path::Path;

use crate::score::compare::SetAgreement;
use crate::score::merge::Earlier;
use crate::score::{Method, Metric, Row, Scores, DEFAULT_CONFIDENCE, SMALL_SET};
use crate::view::{ScoreLine, ScoreView};

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

/// The table's confidence level (`95%`) and significance level (`0.05`), as printed.
struct Levels {
    confidence: f64,
    level: String,
    alpha: String,
}

impl Levels {
    fn of(scores: &Scores) -> Self {
        let confidence = scores.significance.confidence.unwrap_or(DEFAULT_CONFIDENCE);
        Levels {
            confidence,
            level: format!("{}%", confidence * 100.0),
            alpha: format!("{}", ((1.0 - confidence) * 1e6).round() / 1e6),
        }
    }
}

/// The lines above the tables: corpus and reference, the interval, the test, and the
/// legend of the columns.
fn legend(out: &mut String, scores: &Scores, levels: &Levels) {
    let significance = &scores.significance;
    let (level, alpha) = (&levels.level, &levels.alpha);
    let _ = writeln!(
        out,
        "{} corpus lines; reference {}",
        scores.corpus_lines,
        scores
            .reference
            .as_deref()
            .map_or_else(|| "–".to_string(), ldd_io::error::shown)
    );
    if let (Some(b @ 1..), Some(seed)) = (significance.bootstrap, significance.seed) {
        let _ = writeln!(
            out,
            "[{level} CI]: bootstrap interval ({b} resamples, seed {seed})"
        );
    }
    if let (Some(method), Some(base), Some(n)) = (
        significance.method.as_deref(),
        scores.systems.first(),
        significance.n,
    ) {
        let _ = writeln!(
            out,
            "*: differs from the baseline {} (paired {}, {n} {}, p < {alpha})",
            esc(&base.name),
            esc(method),
            if method == Method::Bootstrap.name() {
                "resamples"
            } else {
                "trials"
            },
        );
    }
    // Accuracies (locus, contrastive) count their loci or items, not sentences.
    let _ = writeln!(
        out,
        "rank: controls scoring better than the set, of K; Δctl: set minus controls' mean, \
         !: worse than its controls (one-sided p < {alpha}); ~: fewer than {SMALL_SET} sentences \
         (locus accuracy: judged loci; contrastive accuracy: items)"
    );
    if scores.metrics.iter().any(|m| m.key == crate::locus::KEY) {
        let _ = writeln!(
            out,
            "Locus: same-POS acc: accuracy of the other words of the set's sentences with a \
             locus word's part of speech; Δpos: the locus words' accuracy minus it, !: lower \
             (two-sided p < {alpha}); unal.: locus words the output has no token for (not judged)"
        );
    }
}

/// The width of the `set` column: the longest `phenomenon/bucket`, at least 6.
fn label_width(view: &ScoreView) -> usize {
    view.tables
        .iter()
        .flat_map(|t| &t.lines)
        .map(|l| esc(l.key.phenomenon).len() + esc(l.key.bucket).len() + 1)
        .max()
        .unwrap_or(6)
        .max(6)
}

/// A signed difference with its mark (`!` when `marked`), `- ` when undefined.
fn difference(diff: Option<f64>, marked: bool) -> String {
    match diff {
        Some(d) => format!("{d:+.2}{}", if marked { "!" } else { " " }),
        None => "- ".into(),
    }
}

/// The score, starred when significant at the confidence level.
fn starred(row: &Row, confidence: f64) -> String {
    let star = if significant(row.p_value, confidence) {
        "*"
    } else {
        " "
    };
    format!("{}{star}", f2(row.score))
}

/// A system's five cells of a locus-accuracy row: score, interval, same-POS accuracy,
/// share unaligned, Δpos.
fn locus_cells(row: &Row, confidence: f64) -> [String; 5] {
    let baseline = row.baseline.clone().unwrap_or_default();
    let with_reference = baseline.words + baseline.unaligned;
    let unaligned = if with_reference > 0 {
        format!(
            "{:.0}%",
            100.0 * baseline.unaligned as f64 / with_reference as f64
        )
    } else {
        "-".into()
    };
    let worse = baseline.diff.is_some_and(|d| d < 0.0) && significant(baseline.p_value, confidence);
    [
        starred(row, confidence),
        range(row.ci_low, row.ci_high),
        f2(baseline.comparable_score),
        unaligned,
        difference(baseline.diff, worse),
    ]
}

/// A system's five cells of any other row: score, interval, the controls' `mean±sd`,
/// rank, Δctl.
fn control_cells(row: &Row, confidence: f64) -> [String; 5] {
    let controls = match (row.control_mean, row.control_sd) {
        (Some(mean), Some(sd)) => format!("{mean:.2}±{sd:.2}"),
        (Some(mean), None) => format!("{mean:.2}"),
        _ => "-".into(),
    };
    [
        starred(row, confidence),
        range(row.ci_low, row.ci_high),
        controls,
        row.rank
            .map_or_else(|| "-".into(), |k| format!("{k}/{}", row.controls)),
        difference(
            row.control_diff,
            significant(row.control_p_value, confidence),
        ),
    ]
}

/// One line of a metric's table: the set, its size, and every system's cells.
fn table_line(line: &ScoreLine, locus: bool, label_w: usize, confidence: f64) -> Option<String> {
    let row = line.first()?;
    let label = if line.key.is_set() {
        format!("{}/{}", esc(&row.phenomenon), esc(&row.bucket))
    } else {
        "corpus".to_string()
    };
    let small = if row.small_set { "~" } else { " " };
    let n = row.loci.unwrap_or(row.sentences);
    let mut text = format!("{label:<label_w$} {n:>6}{small}");
    for cell in line.cells.iter().copied() {
        let cells = match cell {
            Some(row) if locus => locus_cells(row, confidence),
            Some(row) => control_cells(row, confidence),
            None => ["- ".into(), "-".into(), "-".into(), "-".into(), "- ".into()],
        };
        text.push_str(&format!(
            " | {:>8} {:>16} {:>13} {:>7} {:>9}",
            cells[0], cells[1], cells[2], cells[3], cells[4]
        ));
    }
    Some(text)
}

/// A metric's table: its label, the header and a line per corpus/set.
fn metric_table(
    out: &mut String,
    scores: &Scores,
    view: &ScoreView,
    metric: &Metric,
    label_w: usize,
    levels: &Levels,
) {
    let _ = writeln!(out, "\n{}", esc(&metric.label));
    // Locus accuracy compares with the same kind of words instead of controls.
    let locus = metric.key == crate::locus::KEY;
    let (c1, c2, c3) = if locus {
        ("same-POS acc", "unal.", "Δpos")
    } else {
        ("ctl mean±sd", "rank", "Δctl")
    };
    let mut head = format!("{:<label_w$} {:>7}", "set", "n");
    for system in &scores.systems {
        head.push_str(&format!(
            " | {:>8} {:>16} {:>13} {:>7} {:>9}",
            esc(&system.name),
            format!("{} CI", levels.level),
            c1,
            c2,
            c3
        ));
    }
    let _ = writeln!(out, "{head}");
    let Some(table) = view.table(&metric.key) else {
        return;
    };
    for line in &table.lines {
        if let Some(text) = table_line(line, locus, label_w, levels.confidence) {
            let _ = writeln!(out, "{text}");
        }
    }
}

/// The distance trends (when any) and the metrics' signatures.
fn trends_and_signatures(out: &mut String, scores: &Scores, view: &ScoreView, level: &str) {
    if !view.trends.is_empty() {
        let _ = writeln!(
            out,
            "\nDistance trend over ge sets (correlation of min distance and score, {level} CI)"
        );
        let _ = writeln!(
            out,
            "{:<8} {:<24} {:<16} {:>6} {:>8} {:>16} {:>8} {:>16}",
            "metric", "phenomenon", "system", "points", "spearman", "CI", "pearson", "CI"
        );
        for trend in view.trends {
            let _ = writeln!(
                out,
                "{:<8} {:<24} {:<16} {:>6} {:>8} {:>16} {:>8} {:>16}",
                esc(scores.label(&trend.metric)),
                esc(&trend.phenomenon),
                esc(&trend.system),
                trend.points.len(),
                f2(trend.spearman),
                range(trend.spearman_ci_low, trend.spearman_ci_high),
                f2(trend.pearson),
                range(trend.pearson_ci_low, trend.pearson_ci_high)
            );
        }
    }
    if !scores.metrics.is_empty() {
        let _ = writeln!(out, "\nSignatures");
        for metric in &scores.metrics {
            let _ = writeln!(
                out,
                "  {:<8} {}",
                esc(&metric.label),
                esc(&metric.signature)
            );
        }
    }
}

/// The stdout table: per metric, one row per corpus/set, per system the score (`*`:
/// differs from the baseline), its interval, the controls' `mean±sd`, the rank and the
/// set-minus-controls difference (`!`: worse than the controls); `~` marks small sets.
/// Then the distance trends and the signatures.
pub fn render_table(scores: &Scores) -> String {
    let mut out = String::new();
    let levels = Levels::of(scores);
    legend(&mut out, scores, &levels);
    let view = ScoreView::of(scores);
    let label_w = label_width(&view);
    for metric in &scores.metrics {
        metric_table(&mut out, scores, &view, metric, label_w, &levels);
    }
    trends_and_signatures(&mut out, scores, &view, &levels.level);
    out
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

    /// A row's cells against its controls and, for locus accuracy, against its same-POS
    /// baseline: the marks `*` and `!` follow the p-values at the confidence level, `!`
    /// only for a worse set.
    #[test]
    fn cells_marked_by_hand() {
        let row = Row {
            score: Some(31.416),
            p_value: Some(0.01),
            ci_low: Some(30.0),
            ci_high: Some(33.0),
            control_mean: Some(35.0),
            control_sd: Some(1.5),
            rank: Some(9),
            controls: 10,
            control_diff: Some(-3.584),
            control_p_value: Some(0.2),
            ..Default::default()
        };
        assert_eq!(
            control_cells(&row, 0.95),
            ["31.42*", "[30.00, 33.00]", "35.00±1.50", "9/10", "-3.58 "]
        );
        let row = Row {
            p_value: Some(0.2),
            control_p_value: Some(0.01),
            ..row
        };
        assert_eq!(control_cells(&row, 0.95)[0], "31.42 ");
        assert_eq!(control_cells(&row, 0.95)[4], "-3.58!");
        let locus = Row {
            baseline: Some(crate::format::scores::Baseline {
                words: 30,
                unaligned: 10,
                comparable_score: Some(80.0),
                diff: Some(-5.0),
                p_value: Some(0.001),
                ..Default::default()
            }),
            ..row
        };
        assert_eq!(
            locus_cells(&locus, 0.95),
            ["31.42 ", "[30.00, 33.00]", "80.00", "25%", "-5.00!"]
        );
        assert_eq!(difference(Some(2.0), true), "+2.00!");
        assert_eq!(difference(None, true), "- ");
    }
}
