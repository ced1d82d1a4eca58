//! What `score` says besides its table ([`super::score_table`]): `-b`'s scores labelled
//! by system when there are several ([`score_only_labelled`]), the warning about small
//! sets, the notes on earlier scores and stale reports; and `compare`'s table.

use std::fmt::Write as _;

use std::path::Path;

use crate::score::compare::SetAgreement;
use crate::score::merge::Earlier;
use crate::score::{Scores, SMALL_SET};
use crate::view::ScoreView;

/// Input text (names from the manifest and the command line) as printed.
fn esc(text: &str) -> std::borrow::Cow<'_, str> {
    ldd_io::error::escape(text)
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
pub fn small_sets(scores: &Scores) -> Vec<SmallSets> {
    let mut out: Vec<SmallSets> = Vec::new();
    let view = ScoreView::of(scores);
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
        let label = scores.label(&row.metric).to_string();
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

/// The small sets the warning names per unit; the rest are counted.
const SHOWN_SMALL: usize = 12;

/// The warning about the sets with fewer than [`SMALL_SET`] sentences, judged loci or
/// items ([`small_sets`]), one line per unit (naming the first `SHOWN_SMALL` sets and
/// counting the rest); `None` when there is none.
pub fn small_sets_warning(scores: &Scores) -> Option<String> {
    let groups = small_sets(scores);
    if groups.is_empty() {
        return None;
    }
    let mut s = String::from(
        "ldd-sets: warning: scores of small sets are unreliable\n  (marked ~ in the table, \
         small_set in scores.csv/json):",
    );
    for g in &groups {
        let shown = g.sets.iter().take(SHOWN_SMALL);
        let head = format!(
            "{} {} fewer than {SMALL_SET} {} ({}):",
            g.sets.len(),
            if g.sets.len() == 1 {
                "set has"
            } else {
                "sets have"
            },
            g.unit,
            g.labels.join(", "),
        );
        let mut items: Vec<String> = shown.map(|x| format!("{x},")).collect();
        match g.sets.len().saturating_sub(SHOWN_SMALL) {
            0 => {
                if let Some(last) = items.last_mut() {
                    last.pop();
                }
            }
            more => items.push(format!(
                "and {more} more (every set's small_set is in scores.csv)"
            )),
        }
        // Broken between words and sets, never inside a set, to fit the terminal.
        let mut units = head.split(' ').map(str::to_string).chain(items);
        let mut line = format!("  {}", units.next().unwrap_or_default());
        for item in units {
            if super::grid::width(&line) + 1 + super::grid::width(&item) > super::grid::COLUMNS {
                let _ = write!(s, "\n{line}");
                line = "    ".to_string();
            } else {
                line.push(' ');
            }
            line.push_str(&item);
        }
        let _ = write!(s, "\n{line}");
    }
    Some(s)
}

/// sacreBLEU 2.4.3's warning about a system output that looks tokenized (100 lines or
/// more ending in ` .`; its BLEU checks the outputs), word for word, naming the file —
/// given for a reference too, whose tokens BLEU's tokenizer splits as well.
pub fn tokenized_warning(file: &Path) -> String {
    format!(
        "ldd-sets: warning: {}: That's 100 lines that end in a tokenized period ('.')\n\
         ldd-sets: warning: It looks like you forgot to detokenize your test data, which may \
         hurt your score.\n\
         ldd-sets: warning: If you insist your data is detokenized, or don't care, you can \
         suppress this message with the `force` parameter.",
        ldd_io::error::shown(file)
    )
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

/// `scores` as `score` shows them on stdout: this run's systems first, in its order (`run`:
/// the baseline, then `--hyp`'s order), then the systems kept from earlier runs, in the
/// order of the file — with those kept, which `-b`, the summary and the table mark. The
/// files keep their own order (earlier systems first, new ones after them); stdout follows
/// the command line, so that a script reading the lines in `--hyp` order never takes a kept
/// system's scores for one of this run's.
pub fn in_run_order(scores: &Scores, run: &[String]) -> (Scores, Vec<String>) {
    let rank = |name: &str| run.iter().position(|n| n == name).unwrap_or(run.len());
    let mut shown = scores.clone();
    shown.systems.sort_by_key(|s| rank(&s.name));
    let order: Vec<&str> = shown.systems.iter().map(|s| s.name.as_str()).collect();
    let at = |name: &str| order.iter().position(|n| *n == name).unwrap_or(order.len());
    shown.trends.sort_by_key(|t| at(&t.system));
    let kept = order
        .iter()
        .filter(|n| !run.iter().any(|r| r == *n))
        .map(|n| n.to_string())
        .collect();
    (shown, kept)
}

/// `-b` with several systems in the scores (several `--hyp`, or systems kept from an
/// earlier run): one line per system and metric, `SYSTEM<TAB>METRIC<TAB>SCORE` (metrics in
/// table order, `-` where there is none), so that no number is read as another system's —
/// sacreBLEU's `-b` with several systems names each one too. Systems in the order of
/// `scores` ([`in_run_order`]: this run's, the baseline first, then those `kept` from
/// earlier runs, whose lines have a fourth field, `(kept)`). `None` with one system: its
/// bare numbers, one a line, as sacreBLEU's `-b` prints them
/// ([`super::score_table::score_only`]).
pub fn score_only_labelled(scores: &Scores, decimals: usize, kept: &[String]) -> Option<String> {
    let view = ScoreView::of(scores);
    if view.systems.len() < 2 {
        return None;
    }
    let mut s = String::new();
    for (k, name) in view.systems.iter().enumerate() {
        let mark = if kept.iter().any(|x| x == name) {
            "\t(kept)"
        } else {
            ""
        };
        for m in &scores.metrics {
            let v = view.corpus_row(&m.key, k).and_then(|x| x.score);
            let v = v.map_or("-".to_string(), |v| format!("{v:.decimals$}"));
            let _ = writeln!(s, "{}\t{}\t{v}{mark}", esc(name), esc(&m.label));
        }
    }
    Some(s)
}

/// While another process writes into the directory `score` writes its scores into.
pub fn waiting(dir: &std::path::Path, pid: u32) -> String {
    format!(
        "ldd-sets: waiting for process {pid}, which is writing into {}",
        ldd_io::error::shown(dir)
    )
}

/// The error for a sacreBLEU habit `score` spells otherwise (`hint`: what it means here),
/// laid out as clap's errors are.
pub fn sacrebleu_habit(hint: &str) -> String {
    format!("error: {hint}\n\nFor more information, try 'ldd-sets score --help'.")
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

    /// Scores without systems have no small sets (it used to panic).
    #[test]
    fn empty_scores_render() {
        let r = Scores {
            reference: Some("r".into()),
            ..Default::default()
        };
        assert!(small_sets(&r).is_empty());
        assert!(small_sets_warning(&r).is_none());
    }
}
