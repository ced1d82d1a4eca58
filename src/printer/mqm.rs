//! What `mqm` prints: how the campaign was matched, the agreement at the word and the
//! locus level, and each system's accuracies beside its MQM score.

use std::fmt::Write as _;

use ldd_io::error::escape;

use super::grid::{cut, width, wrap, Cell, Col, Grid, COLUMNS};
use crate::format::mqm::{Agreement, Counted, MqmReport, Silent};

fn f3(value: Option<f64>) -> String {
    value.map_or_else(|| "-".into(), |v| format!("{v:.3}"))
}

fn f1(value: Option<f64>) -> String {
    value.map_or_else(|| "-".into(), |v| format!("{v:.1}"))
}

fn p(value: Option<f64>) -> String {
    value.map_or_else(|| "-".into(), |v| format!("{v:.4}"))
}

/// The rater error rate of items not judged, as `n (e%)`.
fn counted(counted: &Counted) -> String {
    if counted.items == 0 {
        return "0".into();
    }
    format!(
        "{} ({:.1}% err)",
        counted.items,
        100.0 * counted.rater_errors as f64 / counted.items as f64
    )
}

/// The columns of the agreement table's 2×2 part, and a level's cells in them.
const AGREEMENT: [&str; 8] = [
    "judged",
    "incorrect",
    "rater-err",
    "P(err|inc)",
    "P(err|cor)",
    "MCC",
    "kappa",
    "perm-p",
];

fn agreement_cells(a: &Agreement) -> Vec<String> {
    vec![
        a.judged.to_string(),
        f3(a.incorrect_share),
        f3(a.rater_error_rate),
        f3(a.error_if_incorrect),
        f3(a.error_if_correct),
        f3(a.mcc),
        f3(a.kappa),
        p(a.permutation_p),
    ]
}

/// The items a level judged and did not, as counts (`counts`) or with their rater error
/// rates (`--wide`).
const COVERAGE: [&str; 8] = [
    "items",
    "judged",
    "coverage",
    "differs",
    "partial",
    "unaligned",
    "no ref",
    "silent",
];

fn coverage_cells(a: &Agreement, rates: bool) -> Vec<String> {
    let c = |x: &Counted| match rates {
        true => counted(x),
        false => x.items.to_string(),
    };
    let silent = match rates {
        true => silent(&a.silent),
        false => a.silent.items.to_string(),
    };
    vec![
        a.items.to_string(),
        a.judged.to_string(),
        f3(a.coverage),
        c(&a.differs),
        c(&a.partial),
        c(&a.unaligned),
        c(&a.no_reference),
        silent,
    ]
}

/// Judged items without a located rater verdict, as `n (i% inc)`.
fn silent(silent: &Silent) -> String {
    if silent.items == 0 {
        return "0".into();
    }
    format!(
        "{} ({:.1}% inc)",
        silent.items,
        100.0 * silent.incorrect as f64 / silent.items as f64
    )
}

/// A grid of `heads` (after `level`), one row per (name, cells).
fn grid(heads: &[&str], rows: Vec<(String, Vec<String>)>) -> Grid {
    let mut cols = vec![Col::left("level", "")];
    cols.extend(heads.iter().map(|h| Col::right(h, " ")));
    let body = rows
        .into_iter()
        .map(|(name, cells)| {
            let mut r = vec![Cell::new(name)];
            r.extend(cells.into_iter().map(Cell::new));
            r
        })
        .collect();
    Grid { cols, body }
}

/// Every level of the report: its name and agreement, with its baseline's.
fn levels(report: &MqmReport) -> Vec<(String, &Agreement, &Agreement)> {
    let mut v = vec![(
        "every content word".to_string(),
        &report.words,
        &report.words_baseline,
    )];
    for k in &report.kinds {
        let name = kind_name(&k.kind);
        v.push((
            format!("{name} loci: their words"),
            &k.words,
            &k.words_baseline,
        ));
        v.push((format!("{name} loci"), &k.loci, &k.loci_baseline));
    }
    v.push(("every locus".into(), &report.loci, &report.loci_baseline));
    v
}

/// The agreement table: every level beside its baseline (segment chrF calling the same
/// share of its judged items incorrect), then what each level judged. By default two
/// tables that fit [`COLUMNS`], the items outside the 2×2 table counted; `--wide`: one
/// table with their rater error rates.
fn agreements(out: &mut String, report: &MqmReport, wide: bool) {
    let baseline = "  segment chrF, same share";
    let mut rows = Vec::new();
    for (name, a, b) in levels(report) {
        let (mut row, mut base) = (agreement_cells(a), agreement_cells(b));
        if wide {
            let c = coverage_cells(a, true);
            row.splice(0..1, c[..3].iter().cloned());
            row.extend(c[3..].iter().cloned());
            base.splice(0..1, [String::new(), b.judged.to_string(), String::new()]);
        }
        rows.push((name, row));
        rows.push((baseline.to_string(), base));
    }
    let table = if wide {
        let mut heads: Vec<&str> = COVERAGE[..3].to_vec();
        heads.extend(&AGREEMENT[1..]);
        heads.extend(&COVERAGE[3..]);
        grid(&heads, rows)
    } else {
        grid(&AGREEMENT, rows)
    };
    let _ = write!(out, "\n{}", table.render());
    let note = format!(
        "(incorrect, rater-err and the 2×2 table: the judged items with a located rater \
         verdict; perm-p: {} shuffles of the systems' judgements within each item; segment \
         chrF, same share: those items of lowest sentence chrF called incorrect, as many as \
         the judgement calls so)",
        report.words.permutations
    );
    out.push_str(&wrap(&note, COLUMNS, "  "));
    if wide {
        out.push_str(&wrap(RATERS_SILENT, COLUMNS, "  "));
        return;
    }
    let rows = levels(report)
        .into_iter()
        .map(|(name, a, _)| (name, coverage_cells(a, false)))
        .collect();
    let _ = write!(out, "\n{}", grid(&COVERAGE, rows).render());
    out.push_str(&wrap(
        &format!(
            "{RATERS_SILENT}; --wide: one table, with the rater error rate of differs, \
             partial, unaligned and no ref and the share of silent judged incorrect"
        ),
        COLUMNS,
        "  ",
    ));
}

/// What the `raters silent` column counts.
const RATERS_SILENT: &str = "(no ref: no reference; silent: raters silent, judged items \
     without a located rater verdict — no output token for the word, and no rater marked it \
     in the source)";

fn kind_name(kind: &str) -> &str {
    match kind {
        "reorder" => "reordering",
        k => k,
    }
}

/// The system-level correlations with MQM's score, each beside corpus BLEU's.
fn systems(out: &mut String, report: &MqmReport) {
    let head = format!(
        "systems ({}) against MQM's score: Spearman / Kendall (human: the share of items \
         without a rater error)",
        report.words.systems
    );
    let _ = write!(out, "\n{}", wrap(&head, COLUMNS, "  "));
    let line = |out: &mut String, name: &str, a: &Agreement| {
        let _ = writeln!(
            out,
            "  {name:<28} {:>6} / {:<6}   human {:>6} / {}",
            f3(a.spearman),
            f3(a.kendall),
            f3(a.human_spearman),
            f3(a.human_kendall)
        );
    };
    line(out, "word accuracy", &report.words);
    for k in &report.kinds {
        line(
            out,
            &format!("{} locus accuracy", kind_name(&k.kind)),
            &k.loci,
        );
    }
    line(out, "locus accuracy", &report.loci);
    let _ = writeln!(
        out,
        "  {:<28} {:>6} / {}",
        "corpus BLEU (baseline)",
        f3(report.words_baseline.spearman),
        f3(report.words_baseline.kendall)
    );
}

/// The table of an `mqm` run: every table fits [`COLUMNS`] (system names cut with `…`),
/// or with `wide` (`--wide`) the agreement table has every column, however wide.
pub fn render_mqm(report: &MqmReport, wide: bool) -> String {
    let mut t = header(report);
    agreements(&mut t, report, wide);
    systems(&mut t, report);
    let _ = writeln!(
        t,
        "two-word loci: output keeps the reference's order {}, changes it {}",
        counted(&report.order_kept),
        counted(&report.order_changed)
    );
    system_table(&mut t, report, wide);
    t
}

/// How the campaign was read and matched, and the judgement, wrapped to [`COLUMNS`].
fn header(report: &MqmReport) -> String {
    let s = &report.segments;
    let docs = match report.docs.is_empty() {
        true => String::new(),
        false => format!(" (documents {})", escape(&report.docs.join(","))),
    };
    let categories = match report.categories.is_empty() {
        true => String::new(),
        false => format!(" in {}", escape(&report.categories.join(","))),
    };
    let mut t = wrap(
        &format!(
            "MQM: {} rows, {} segments ({} found in the corpus, {} not); {} used{docs}; errors \
             that count: {}{categories}",
            s.rows,
            s.segments,
            s.matched,
            s.unmatched,
            s.used,
            escape(&report.severities.join(",")),
        ),
        COLUMNS,
        "  ",
    );
    if s.unclosed_spans > 0 || s.unlocated_errors > 0 {
        t.push_str(&wrap(
            &format!(
                "{} spans never closed (run to the end of their text); {} errors without a \
                 span (not located)",
                s.unclosed_spans, s.unlocated_errors
            ),
            COLUMNS,
            "  ",
        ));
    }
    t.push_str(&bars(&format!("judgement: {}", escape(&report.judgement))));
    t
}

/// A signature (`a|b|c`) broken after a `|` where it would pass [`COLUMNS`], the lines after
/// the first indented by two spaces (a part longer than a line stands alone).
fn bars(text: &str) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for part in text.split_inclusive('|') {
        if !line.is_empty() && width(&line) + width(part) > COLUMNS {
            out.push_str(line.trim_end());
            out.push('\n');
            line = "  ".to_string();
        }
        line.push_str(part);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

/// Each system's accuracies beside its MQM score and BLEU (names cut to fit, unless
/// `wide`).
fn system_table(t: &mut String, report: &MqmReport, wide: bool) {
    let _ = writeln!(
        t,
        "\n{:<20} {:>8} {:>8} {:>6} {:>7} {:>9} {:>9} {:>6} {:>9} {:>9}",
        "system",
        "segments",
        "MQM",
        "BLEU",
        "words",
        "word acc",
        "human",
        "loci",
        "locus acc",
        "human"
    );
    for x in &report.systems {
        let name = escape(&x.system);
        let name = if wide {
            name.into_owned()
        } else {
            cut(&name, 20)
        };
        let _ = writeln!(
            t,
            "{name:<20} {:>8} {:>8} {:>6} {:>7} {:>9} {:>9} {:>6} {:>9} {:>9}",
            x.segments,
            x.mqm.map_or_else(|| "-".into(), |v| format!("{v:.3}")),
            f1(x.bleu),
            x.words,
            f1(x.word_accuracy),
            f1(x.human_word_accuracy),
            x.loci,
            f1(x.locus_accuracy),
            f1(x.human_locus_accuracy)
        );
    }
    let note = format!(
        "(accuracies ×100; human: the share of all items without a rater error; {} loci where \
         judgement and raters disagree are listed in mqm.disagreements.tsv)",
        report.disagreements.len()
    );
    t.push_str(&wrap(&note, COLUMNS, "  "));
}

/// The summary of `mqm --export`.
pub fn export_summary(
    exported: &crate::judge::mqm::Exported,
    reference: &str,
    dir: &std::path::Path,
) -> String {
    format!(
        "{} segments, the reference ({}) and {} systems written to {}\n",
        exported.segments.len(),
        escape(reference),
        exported.systems.len(),
        ldd_io::error::shown(dir)
    )
}

/// The notes and warnings about reading an MQM campaign (stderr): what was left out (the
/// errors marked as problems of the source only when `judging`), and each pair of systems
/// whose outputs are the same.
pub fn reading_notes(
    left: &crate::judge::campaign::LeftOut,
    identical: &[crate::judge::campaign::Identical],
    judging: bool,
) -> Vec<String> {
    let mut v = Vec::new();
    let mut note = |n: u64, one: &str, many: &str| {
        if n > 0 {
            v.push(format!(
                "ldd-sets: note: {n} {}",
                if n == 1 { one } else { many }
            ));
        }
    };
    note(
        left.rater_checks,
        "row of a rater check (severity HOTW-test: an error planted in the output) left out",
        "rows of rater checks (severity HOTW-test: an error planted in the output) left out",
    );
    note(
        left.metadata_rows,
        "row of metadata only (no rater, category or severity) left out",
        "rows of metadata only (no rater, category or severity) left out",
    );
    if judging {
        note(
            left.source_issues,
            "error marked as a problem of the source (Source issue) not counted as the \
             system's (--source-issues counts it)",
            "errors marked as problems of the source (Source issue) not counted as the \
             systems' (--source-issues counts them)",
        );
    }
    note(
        left.marked_twice,
        "error a rater marked twice (same spans, category and severity, another time) \
         counted once",
        "errors a rater marked twice (same spans, category and severity, another time) \
         counted once",
    );
    for x in identical {
        v.push(format!(
            "ldd-sets: warning: systems {} and {} have the same output on all {} segments \
             both were rated on: each of their judgements counts twice in every correlation; \
             leave one of them out of `mqm` with --exclude",
            escape(&x.first),
            escape(&x.second),
            x.segments,
        ));
    }
    v
}

/// The warning of `report --mqm FILE` when FILE was made for other sets: its section is
/// left out.
pub fn other_sets_warning(path: &std::path::Path) -> String {
    format!(
        "ldd-sets: warning: --mqm {}: made for other sets (another manifest SHA-256), so the \
         report has no MQM section; run `ldd-sets mqm` on these sets",
        ldd_io::error::shown(path)
    )
}
