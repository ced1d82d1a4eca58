//! What `mqm` prints: how the campaign was matched, the agreement at the word and the
//! locus level, and each system's accuracies beside its MQM score.

use std::fmt::Write as _;

use ldd_io::error::escape;

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

fn agreement_line(out: &mut String, name: &str, agreement: &Agreement) {
    let _ = writeln!(
        out,
        "{name:<30} {:>7} {:>7} {:>8} {:>9} {:>9} {:>10} {:>10} {:>6} {:>6} {:>7}  {:<18} {:<18} {:<18} {:<18} {}",
        agreement.items,
        agreement.judged,
        f3(agreement.coverage),
        f3(agreement.incorrect_share),
        f3(agreement.rater_error_rate),
        f3(agreement.error_if_incorrect),
        f3(agreement.error_if_correct),
        f3(agreement.mcc),
        f3(agreement.kappa),
        p(agreement.permutation_p),
        counted(&agreement.differs),
        counted(&agreement.partial),
        counted(&agreement.unaligned),
        counted(&agreement.no_reference),
        silent(&agreement.silent),
    );
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

/// A level's agreement, then its baseline's (segment chrF calling the same share of its
/// judged items incorrect) on the next line.
fn with_baseline(out: &mut String, name: &str, agreement: &Agreement, baseline: &Agreement) {
    agreement_line(out, name, agreement);
    let _ = writeln!(
        out,
        "{:<30} {:>7} {:>7} {:>8} {:>9} {:>9} {:>10} {:>10} {:>6} {:>6} {:>7}",
        "  segment chrF, same share",
        "",
        baseline.judged,
        "",
        f3(baseline.incorrect_share),
        "",
        f3(baseline.error_if_incorrect),
        f3(baseline.error_if_correct),
        f3(baseline.mcc),
        f3(baseline.kappa),
        p(baseline.permutation_p),
    );
}

/// The agreement table: every level beside its baseline.
fn agreements(out: &mut String, report: &MqmReport) {
    let _ = writeln!(
        out,
        "\n{:<30} {:>7} {:>7} {:>8} {:>9} {:>9} {:>10} {:>10} {:>6} {:>6} {:>7}  {:<18} {:<18} {:<18} {:<18} raters silent",
        "level",
        "items",
        "judged",
        "coverage",
        "incorrect",
        "rater-err",
        "P(err|inc)",
        "P(err|cor)",
        "MCC",
        "kappa",
        "perm-p",
        "differs",
        "partial",
        "unaligned",
        "no reference",
    );
    with_baseline(
        out,
        "every content word",
        &report.words,
        &report.words_baseline,
    );
    for k in &report.kinds {
        let name = kind_name(&k.kind);
        with_baseline(
            out,
            &format!("{name} loci: their words"),
            &k.words,
            &k.words_baseline,
        );
        with_baseline(out, &format!("{name} loci"), &k.loci, &k.loci_baseline);
    }
    with_baseline(out, "every locus", &report.loci, &report.loci_baseline);
    let _ = writeln!(
        out,
        "(incorrect, rater-err and the 2×2 table: the judged items with a located rater \
         verdict; raters silent: judged items without one — no output token for the word, \
         and no rater marked it in the source; perm-p: {} shuffles of the systems' \
         judgements within each item; segment chrF, same share: those items of lowest \
         sentence chrF called incorrect, as many as the judgement calls so)",
        report.words.permutations
    );
}

fn kind_name(kind: &str) -> &str {
    match kind {
        "reorder" => "reordering",
        k => k,
    }
}

/// The system-level correlations with MQM's score, each beside corpus BLEU's.
fn systems(out: &mut String, report: &MqmReport) {
    let _ = writeln!(
        out,
        "\nsystems ({}) against MQM's score: Spearman / Kendall (human: the share of items \
         without a rater error)",
        report.words.systems
    );
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

/// The table of an `mqm` run.
pub fn render_mqm(report: &MqmReport) -> String {
    let mut t = String::new();
    let s = &report.segments;
    let _ = writeln!(
        t,
        "MQM: {} rows, {} segments ({} found in the corpus, {} not); {} used{}; errors that \
         count: {}{}",
        s.rows,
        s.segments,
        s.matched,
        s.unmatched,
        s.used,
        if report.docs.is_empty() {
            String::new()
        } else {
            format!(" (documents {})", escape(&report.docs.join(",")))
        },
        escape(&report.severities.join(",")),
        if report.categories.is_empty() {
            String::new()
        } else {
            format!(" in {}", escape(&report.categories.join(",")))
        },
    );
    if s.unclosed_spans > 0 || s.unlocated_errors > 0 {
        let _ = writeln!(
            t,
            "{} spans never closed (run to the end of their text); {} errors without a span \
             (not located)",
            s.unclosed_spans, s.unlocated_errors
        );
    }
    let _ = writeln!(t, "judgement: {}", escape(&report.judgement));
    agreements(&mut t, report);
    systems(&mut t, report);
    let _ = writeln!(
        t,
        "two-word loci: output keeps the reference's order {}, changes it {}",
        counted(&report.order_kept),
        counted(&report.order_changed)
    );
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
        let _ = writeln!(
            t,
            "{:<20} {:>8} {:>8} {:>6} {:>7} {:>9} {:>9} {:>6} {:>9} {:>9}",
            escape(&x.system),
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
    let _ = writeln!(
        t,
        "(accuracies ×100; human: the share of all items without a rater error; {} loci where \
         judgement and raters disagree are listed in mqm.disagreements.tsv)",
        report.disagreements.len()
    );
    t
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
