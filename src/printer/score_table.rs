//! `score`'s output on stdout, as sacreBLEU's users read it: per metric a table that fits
//! 100 columns for up to 4 systems — each system's score and its difference from the
//! controls; `--wide` adds the interval, the controls' mean and rank — then the distance
//! trends and the signatures, every table with a legend of the marks and `-` it shows
//! ([`render_table`]); the corpus scores alone (`--format summary`, [`render_summary`]);
//! the numbers alone (`-b`, [`score_only`]).

use std::fmt::Write as _;

use super::grid::{cut, width, Cell, Col, Grid, Legend, COLUMNS};
use super::trends::{trend_table, Shape};
use crate::score::{Method, Metric, Row, Scores, DEFAULT_CONFIDENCE, SMALL_SET};
use crate::view::ScoreView;

/// How the table is laid out (`--wide`, `-w`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TableOptions {
    /// Every column: the interval, the controls' mean and sd, the rank (not fitted to
    /// [`COLUMNS`]).
    pub wide: bool,
    /// Decimals of scores, differences and intervals (sacreBLEU's `--width`).
    pub decimals: usize,
}

impl Default for TableOptions {
    fn default() -> Self {
        TableOptions {
            wide: false,
            decimals: 2,
        }
    }
}

/// What `score` shows on stdout (`--format`, `-b`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shown {
    /// The tables ([`render_table`]).
    Table(TableOptions),
    /// The corpus scores ([`render_summary`]).
    Summary(TableOptions),
    /// The numbers alone ([`score_only`]).
    ScoreOnly(TableOptions),
    /// `scores.json` as written.
    Json,
    /// `scores.csv` as written.
    Csv,
}

/// What `score` prints on stdout for `scores`, as `shown` says; `kept`: the systems kept
/// from earlier runs (after this run's in `scores`), which the table and the summary name.
pub fn render_scores(
    scores: &Scores,
    shown: &Shown,
    kept: &[String],
) -> crate::error::Result<String> {
    Ok(match shown {
        Shown::Table(o) => render_table(scores, o, kept),
        Shown::Summary(o) => render_summary(scores, o, kept),
        Shown::ScoreOnly(o) => score_only(scores, o),
        Shown::Json => crate::score::render::render_json(scores)?,
        Shown::Csv => crate::score::render::render_csv(scores),
    })
}

/// Input text (names from the manifest and the command line) as printed.
fn esc(text: &str) -> String {
    ldd_io::error::escape(text).into_owned()
}

/// The mark of "lower than its length-matched controls" (the report's
/// `report::scores::CONTROLS`: one symbol per meaning in the terminal, HTML and LaTeX).
const CONTROLS: &str = "!";

/// The mark of the within-sentence flag (the report's `report::scores::WITHIN`).
const WITHIN: &str = "<";

/// The set-vs-controls figure a row is flagged by: its Benjamini–Hochberg q-value, or in
/// scores written before it existed the unadjusted p-value.
fn control_q(row: &Row) -> Option<f64> {
    row.control_q_value.or(row.control_p_value)
}

/// Whether a p-value is below the significance level `1 − confidence`.
fn significant(p_value: Option<f64>, confidence: f64) -> bool {
    p_value.is_some_and(|p_value| p_value < 1.0 - confidence)
}

/// What a metric's table needs to know besides its rows.
struct Ctx<'a> {
    r: &'a Scores,
    metric: &'a Metric,
    conf: f64,
    alpha: String,
    level: String,
    d: usize,
    wide: bool,
    /// Locus accuracy: compared with words of the same part of speech, not controls.
    locus: bool,
    /// A share of items with Wilson intervals and McNemar's test (locus, contrastive).
    share: bool,
}

impl<'a> Ctx<'a> {
    fn new(
        scores: &'a Scores,
        metric: &'a Metric,
        view: &ScoreView,
        options: &TableOptions,
    ) -> Self {
        let conf = scores.significance.confidence.unwrap_or(DEFAULT_CONFIDENCE);
        let share = view.table(&metric.key).is_some_and(|t| {
            t.lines
                .iter()
                .flat_map(|l| l.cells.iter().flatten())
                .any(|x| x.loci.is_some())
        });
        Ctx {
            r: scores,
            metric,
            conf,
            alpha: format!("{}", ((1.0 - conf) * 1e6).round() / 1e6),
            level: format!("{}%", conf * 100.0),
            d: options.decimals,
            wide: options.wide,
            locus: metric.key == crate::locus::KEY,
            share,
        }
    }

    fn num(&self, value: f64) -> String {
        format!("{value:.*}", self.d)
    }

    /// What the table's `n` and `~` count.
    fn unit(&self) -> &'static str {
        match (self.locus, self.share) {
            (true, _) => "judged loci",
            (false, true) => "items",
            _ => "sentences",
        }
    }

    /// The headers of a system's columns after its score.
    fn heads(&self) -> Vec<String> {
        let delta = if self.locus { "Δpos" } else { "Δctl" };
        match (self.wide, self.locus) {
            (false, _) => vec![format!("{delta} ")],
            (true, true) => vec![
                format!("{} CI", self.level),
                "same-POS acc".into(),
                "unal.".into(),
                format!("{delta} "),
            ],
            (true, false) => vec![
                format!("{} CI", self.level),
                "ctl mean±sd".into(),
                "rank".into(),
                format!("{delta} "),
            ],
        }
    }
}

/// `score`'s table on stdout: the corpus and reference, then per metric a table (a line
/// per corpus and set; per system the score, `*` when it differs from the baseline, and
/// its difference from the controls, `!` when worse; `--wide`: also the interval, the
/// controls' mean±sd and rank), each with its legend; the distance trends; the
/// signatures. Without `--wide` every line fits [`COLUMNS`] for up to 4 systems: long
/// names are cut (`…`), whole in `scores.csv` and `scores.json`.
pub fn render_table(scores: &Scores, options: &TableOptions, kept: &[String]) -> String {
    let mut s = preamble(scores, kept);
    let view = ScoreView::of(scores);
    for metric in &scores.metrics {
        s.push('\n');
        s.push_str(&metric_table(
            &Ctx::new(scores, metric, &view, options),
            &view,
        ));
    }
    if !view.trends.is_empty() {
        s.push('\n');
        s.push_str(&trend_table(
            scores,
            &view,
            Shape {
                wide: options.wide,
                decimals: options.decimals,
            },
        ));
    }
    if !scores.metrics.is_empty() {
        s.push_str("\nSignatures\n");
        for m in &scores.metrics {
            s.push_str(&signature_line(
                &esc(&m.label),
                &esc(&m.signature),
                options.wide,
            ));
        }
    }
    s
}

/// `300 corpus lines; reference FILE`, and the systems `kept` from earlier runs, if any.
fn preamble(scores: &Scores, kept: &[String]) -> String {
    let mut s = format!(
        "{} corpus lines; reference {}\n",
        scores.corpus_lines,
        scores
            .reference
            .as_deref()
            .map_or_else(|| "–".to_string(), ldd_io::error::shown)
    );
    if !kept.is_empty() {
        let names: Vec<String> = kept.iter().map(|n| esc(n)).collect();
        let _ = writeln!(
            s,
            "kept from earlier runs (after this run's systems): {}",
            names.join(", ")
        );
    }
    s
}

/// One metric's table and its legend.
fn metric_table(context: &Ctx, view: &ScoreView) -> String {
    let mut s = format!("{}\n", esc(&context.metric.label));
    let Some(table) = view.table(&context.metric.key) else {
        return s;
    };
    let labels: Vec<String> = table
        .lines
        .iter()
        .map(|l| match l.key.is_set() {
            true => format!("{}/{}", esc(l.key.phenomenon), esc(l.key.bucket)),
            false => "corpus".to_string(),
        })
        .collect();
    let names: Vec<String> = view.systems.iter().map(|n| esc(n)).collect();
    let heads = context.heads();
    let per = 1 + heads.len();
    // Names and labels cut, a character at a time, until the table fits.
    let longest = |v: &[String]| v.iter().map(|x| width(x)).max().unwrap_or(0);
    let (mut name_max, mut label_max) = (longest(&names), longest(&labels));
    let (grid, text) = loop {
        let mut g = Grid::default();
        g.cols.push(Col::left("set", ""));
        g.cols.push(Col::right("n ", " "));
        for name in &names {
            let sep = if context.wide { " | " } else { "  " };
            g.cols
                .push(Col::right(&format!("{} ", cut(name, name_max)), sep));
            for h in &heads {
                g.cols.push(Col::right(h, " "));
            }
        }
        for (line, label) in table.lines.iter().zip(&labels) {
            let Some(first) = line.cells.iter().flatten().next() else {
                continue;
            };
            let n = first.loci.unwrap_or(first.sentences);
            let small = if first.small_set { "~" } else { " " };
            let mut row = vec![
                Cell::new(cut(label, label_max)),
                Cell::new(format!("{n}{small}")),
            ];
            for x in &line.cells {
                row.extend(cells(context, *x, line.key.is_set()));
            }
            g.body.push(row);
        }
        let groups: Vec<Vec<usize>> = (1..per)
            .map(|j| (0..names.len()).map(|k| 2 + k * per + j).collect())
            .collect();
        g.drop_empty(&groups);
        let text = g.render();
        let fits = text.lines().all(|l| width(l) <= COLUMNS);
        if context.wide || fits || (name_max <= 6 && label_max <= 16) {
            break (g, text);
        }
        if name_max > 6 && (name_max >= label_max || label_max <= 16) {
            name_max -= 1;
        } else {
            label_max -= 1;
        }
    };
    s.push_str(&text);
    let cut_any = names.iter().any(|n| width(n) > name_max) || longest(&labels) > label_max;
    s.push_str(&legend(context, table, &grid, cut_any).render());
    s
}

/// The cells of one system on one line: its score (`*`: differs from the baseline), then
/// with `--wide` its interval and the controls' mean±sd and its rank (locus accuracy: the
/// same-POS words' accuracy and the share of locus words left unaligned), then its
/// difference from the controls (`!`: worse; locus accuracy: from the same-POS words).
fn cells(context: &Ctx, row: Option<&Row>, is_set: bool) -> Vec<Cell> {
    let n = if context.wide { 5 } else { 2 };
    let Some(row) = row else {
        let why = "not scored (a run that scored this system did not compute this metric)";
        return (0..n)
            .map(|k| Cell::dash(if k == 0 || k + 1 == n { "- " } else { "-" }, why))
            .collect();
    };
    let empty = match (context.locus, context.share) {
        (true, _) => "no locus judged",
        (false, true) => "no item",
        _ => "an empty set",
    };
    let score = match row.score {
        Some(v) => Cell::new(format!(
            "{}{}",
            context.num(v),
            if significant(row.p_value, context.conf) {
                "*"
            } else {
                " "
            }
        )),
        None => Cell::dash("- ", empty),
    };
    let mut out = vec![score];
    let versus = if context.locus {
        locus_cells(context, row)
    } else {
        control_cells(context, row, is_set)
    };
    if context.wide {
        out.push(match (row.ci_low, row.ci_high) {
            (Some(a), Some(b)) => Cell::new(format!("[{}, {}]", context.num(a), context.num(b))),
            _ if row.score.is_none() => Cell::dash("-", empty),
            _ => Cell::dash("-", "no interval (--paired-bs-n 0)"),
        });
        out.extend(versus);
    } else {
        out.extend(versus.into_iter().last());
    }
    out
}

/// The controls' mean±sd, the rank among them and the set-minus-controls difference.
fn control_cells(context: &Ctx, row: &Row, is_set: bool) -> [Cell; 3] {
    let why = if !is_set {
        "the corpus has no controls"
    } else if row.score.is_none() || row.control_status == "empty_set" {
        "an empty set"
    } else if context.share {
        "accuracies of items are not compared with controls"
    } else if row.control_status == "pool_too_small" {
        "no controls: the corpus has too few other sentences of those lengths"
    } else {
        "no controls drawn (--controls 0)"
    };
    let mean = match (row.control_mean, row.control_sd) {
        (Some(m), Some(sd)) => Cell::new(format!("{}±{}", context.num(m), context.num(sd))),
        (Some(m), None) => Cell::new(context.num(m)),
        _ => Cell::dash("-", why),
    };
    let rank = match row.rank {
        Some(k) => Cell::new(format!("{k}/{}", row.controls)),
        None => Cell::dash("-", why),
    };
    let diff = match row.control_diff {
        Some(d) => Cell::new(format!(
            "{}{}",
            signed(context, d),
            if d < 0.0 && significant(control_q(row), context.conf) {
                CONTROLS
            } else {
                " "
            }
        )),
        None => Cell::dash("- ", why),
    };
    [mean, rank, diff]
}

/// Locus accuracy's baseline: the same-POS words' accuracy, the share of locus words
/// left unaligned, and the locus words' accuracy minus the same-POS words'.
fn locus_cells(context: &Ctx, row: &Row) -> [Cell; 3] {
    let b = row.baseline.clone().unwrap_or_default();
    let why = "no other word of the locus words' parts of speech in these sentences";
    let with_ref = b.words + b.unaligned;
    let acc = match b.comparable_score {
        Some(v) => Cell::new(context.num(v)),
        None => Cell::dash("-", why),
    };
    let unal = match with_ref {
        0 => Cell::dash("-", "no locus word with a reference word"),
        n => Cell::new(format!("{:.0}%", 100.0 * b.unaligned as f64 / n as f64)),
    };
    let diff = match b.diff {
        Some(d) => Cell::new(format!(
            "{}{}",
            signed(context, d),
            if d < 0.0 && significant(b.q_value.or(b.p_value), context.conf) {
                WITHIN
            } else {
                " "
            }
        )),
        None => Cell::dash("- ", why),
    };
    [acc, unal, diff]
}

fn signed(context: &Ctx, value: f64) -> String {
    format!("{value:+.*}", context.d)
}

/// What the columns of a locus accuracy table mean.
const LOCUS_COLUMNS: [(&str, &str); 3] = [
    (
        "same-POS acc",
        "accuracy of the other words of the set's sentences with a locus word's part of speech",
    ),
    (
        "unal.",
        "locus words the output has no token for (not judged)",
    ),
    (
        "Δpos",
        "the locus words' accuracy minus the same-POS words'",
    ),
];

/// What the columns of the other metrics' tables mean.
const CONTROL_COLUMNS: [(&str, &str); 3] = [
    (
        "ctl mean±sd",
        "the length-matched controls' mean and standard deviation",
    ),
    ("rank", "controls scoring better than the set, of K"),
    ("Δctl", "the set's score minus its controls' mean"),
];

/// The test behind a table's `*`: McNemar's for shares, else the paired test of the run.
fn star_test(context: &Ctx) -> String {
    if context.share {
        return "McNemar's exact test".to_string();
    }
    let sig = &context.r.significance;
    let m = sig.method.as_deref().unwrap_or("bs");
    let n = sig.resamples.unwrap_or(0);
    let what = if m == Method::Bootstrap.name() {
        "resamples"
    } else {
        "trials"
    };
    format!("paired {m}, {n} {what}")
}

/// Whether any row of the metric's `table` has the q-value `q` picks.
fn any_q(table: &crate::view::ScoreTable, q: impl Fn(&Row) -> Option<f64>) -> bool {
    table
        .lines
        .iter()
        .flat_map(|l| l.cells.iter().flatten())
        .any(|r| q(r).is_some())
}

/// The legend of a metric's table: the marks it shows, its columns, every `-`.
fn legend(context: &Ctx, table: &crate::view::ScoreTable, grid: &Grid, cut_any: bool) -> Legend {
    let mut l = Legend::default();
    let shows = |mark: char| {
        grid.body
            .iter()
            .flat_map(|r| r.iter().skip(1))
            .any(|x| x.text.ends_with(mark))
    };
    if shows('*') {
        let base = context
            .r
            .systems
            .first()
            .map(|s| esc(&s.name))
            .unwrap_or_default();
        let test = star_test(context);
        let text = format!(
            "differs from the baseline {base} ({test}, p < {})",
            context.alpha
        );
        l.add("*", &text);
    }
    if shows('~') {
        l.add("~", &format!("fewer than {SMALL_SET} {}", context.unit()));
    }
    if context.share {
        l.add("n", context.unit());
    }
    let level = format!("{} CI", context.level);
    if grid.has(&level) {
        let sig = &context.r.significance;
        let how = match (context.share, sig.bootstrap, sig.seed) {
            (true, _, _) => "Wilson score interval".to_string(),
            (false, Some(b), Some(seed)) => {
                format!("bootstrap interval ({b} resamples, seed {seed})")
            }
            _ => "bootstrap interval".to_string(),
        };
        l.add(&level, &how);
    }
    let adjusted = |q: bool| match q {
        true => "Benjamini-Hochberg q",
        false => "unadjusted p: scores without q-values",
    };
    let (columns, mark, worse) = match context.locus {
        true => (
            LOCUS_COLUMNS,
            WITHIN,
            format!(
                "locus words less often right than comparable words of the same sentences ({} < {})",
                adjusted(any_q(table, |r| r.baseline.as_ref().and_then(|b| b.q_value))),
                context.alpha
            ),
        ),
        false => (
            CONTROL_COLUMNS,
            CONTROLS,
            format!(
                "lower than its length-matched controls ({} < {}; other sentence properties differ too)",
                adjusted(any_q(table, |r| r.control_q_value)),
                context.alpha
            ),
        ),
    };
    for (head, text) in columns.iter().filter(|(h, _)| grid.has(h)) {
        l.add(head, text);
    }
    if shows(mark.chars().next().unwrap_or('!')) {
        l.add(mark, &worse);
    }
    if cut_any {
        l.add(
            "…",
            "cut to fit (whole in scores.csv and scores.json; or --wide)",
        );
    }
    grid.dashes(&mut l);
    l
}

/// A metric's signature line; without `--wide` broken after a `|` to fit [`COLUMNS`].
fn signature_line(label: &str, sig: &str, wide: bool) -> String {
    let head = format!("  {label:<8} ");
    if wide {
        return format!("{head}{sig}\n");
    }
    let room = COLUMNS.saturating_sub(width(&head)).max(20);
    let mut out = String::new();
    let mut line = String::new();
    for part in sig.split_inclusive('|') {
        if !line.is_empty() && width(&line) + width(part) > room {
            let lead = if out.is_empty() {
                head.clone()
            } else {
                " ".repeat(width(&head))
            };
            let _ = writeln!(out, "{lead}{line}");
            line.clear();
        }
        line.push_str(part);
    }
    let lead = if out.is_empty() {
        head.clone()
    } else {
        " ".repeat(width(&head))
    };
    let _ = writeln!(out, "{lead}{line}");
    out
}

/// `--format summary`: each system's corpus score per metric (`*`: differs from the
/// baseline; `~`: small), and how many sets score significantly worse than their
/// controls (locus accuracy: lower than the same-POS words), of the sets compared; the
/// systems `kept` from earlier runs marked `(kept)`.
pub fn render_summary(scores: &Scores, options: &TableOptions, kept: &[String]) -> String {
    let view = ScoreView::of(scores);
    let mut g = Grid::default();
    g.cols.push(Col::left("system", ""));
    for m in &scores.metrics {
        g.cols
            .push(Col::right(&format!("{} ", esc(&m.label)), "   "));
        g.cols.push(Col::right("worse", " "));
    }
    let mut stars = Vec::new();
    for (k, name) in view.systems.iter().enumerate() {
        let mark = if kept.iter().any(|x| x == name) {
            " (kept)"
        } else {
            ""
        };
        let mut row = vec![Cell::new(format!("{}{mark}", esc(name)))];
        for m in &scores.metrics {
            let c = Ctx::new(scores, m, &view, options);
            let corpus = view.corpus_row(&m.key, k);
            row.push(match corpus.and_then(|x| x.score.map(|v| (x, v))) {
                Some((x, v)) => {
                    let star = significant(x.p_value, c.conf);
                    if star {
                        stars.push(c.share);
                    }
                    let mark = match (star, x.small_set) {
                        (true, _) => "*",
                        (false, true) => "~",
                        _ => " ",
                    };
                    Cell::new(format!("{}{mark}", c.num(v)))
                }
                None => Cell::dash("- ", "no corpus score"),
            });
            row.push(worse_cell(&c, &view, k));
        }
        g.body.push(row);
    }
    let groups: Vec<Vec<usize>> = (0..scores.metrics.len()).map(|m| vec![2 + 2 * m]).collect();
    g.drop_empty(&groups);
    let mut l = Legend::default();
    let conf = scores.significance.confidence.unwrap_or(DEFAULT_CONFIDENCE);
    let alpha = format!("{}", ((1.0 - conf) * 1e6).round() / 1e6);
    if let (false, Some(base)) = (stars.is_empty(), scores.systems.first()) {
        l.add(
            "*",
            &format!(
                "differs from the baseline {} (p < {alpha}; the tables say by which test)",
                esc(&base.name)
            ),
        );
    }
    if g.body.iter().flatten().any(|x| x.text.ends_with('~')) {
        l.add("~", "fewer than 100 judged loci or items");
    }
    if g.has("worse") {
        let locus = match scores.metrics.iter().any(|m| m.key == crate::locus::KEY) {
            true => {
                "; Locus: locus words less often right than comparable words of the same sentences"
            }
            false => "",
        };
        l.add(
            "worse",
            &format!(
                "sets lower than their length-matched controls (Benjamini-Hochberg q < {alpha}, or \
                 the unadjusted p in scores without q-values; other sentence properties differ \
                 too{locus}), of the sets compared"
            ),
        );
    }
    g.dashes(&mut l);
    format!("{}{}{}", preamble(scores, kept), g.render(), l.render())
}

/// How many sets of the system at index `system` are marked worse than their controls
/// (locus accuracy: lower than the same-POS words), of those compared.
fn worse_cell(context: &Ctx, view: &ScoreView, system: usize) -> Cell {
    let Some(t) = view.table(&context.metric.key) else {
        return Cell::dash("-", "not scored");
    };
    let (mut compared, mut worse) = (0, 0);
    for x in t
        .lines
        .iter()
        .filter(|l| l.key.is_set())
        .filter_map(|l| l.cells[system])
    {
        let (d, q) = match (&x.baseline, context.locus) {
            (Some(b), true) => (b.diff, b.q_value.or(b.p_value)),
            _ => (x.control_diff, control_q(x)),
        };
        if let Some(d) = d {
            compared += 1;
            if d < 0.0 && significant(q, context.conf) {
                worse += 1;
            }
        }
    }
    match compared {
        0 => Cell::dash("-", "no set compared with controls"),
        n => Cell::new(format!("{worse}/{n}")),
    }
}

/// `-b`: each system's corpus score of each metric, one a line (systems in column order,
/// metrics in table order), `-` where there is none.
pub fn score_only(scores: &Scores, options: &TableOptions) -> String {
    let view = ScoreView::of(scores);
    let mut s = String::new();
    for k in 0..view.systems.len() {
        for m in &scores.metrics {
            match view.corpus_row(&m.key, k).and_then(|x| x.score) {
                Some(v) => {
                    let _ = writeln!(s, "{v:.*}", options.decimals);
                }
                None => s.push_str("-\n"),
            }
        }
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
        let o = TableOptions::default();
        assert!(render_table(&r, &o, &[]).starts_with("0 corpus lines"));
        assert!(render_summary(&r, &o, &[]).starts_with("0 corpus lines"));
        assert_eq!(score_only(&r, &o), "");
    }

    #[test]
    fn signatures_break_after_a_bar_to_fit() {
        let sig = "nrefs:1|".repeat(30);
        let text = signature_line("BLEU", &sig, false);
        assert!(text.lines().count() > 1, "{text}");
        assert!(text.lines().all(|l| width(l) <= COLUMNS), "{text}");
        // The label, then the signature whole across the lines.
        assert!(text.starts_with("  BLEU     nrefs:1|"), "{text}");
        let joined: String = text.lines().map(|l| &l[11..]).collect();
        assert_eq!(joined, sig);
        assert_eq!(signature_line("BLEU", "a|b", true), "  BLEU     a|b\n");
    }
}
