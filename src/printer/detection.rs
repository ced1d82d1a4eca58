//! `check-detection`'s table: per phenomenon the instances of the gold trees and of the
//! parse, precision, recall and F1 with their intervals and the share of correct instances
//! in the right distance bucket; then each phenomenon's misses and false hits, with both
//! trees' words.

use std::fmt::Write;

use ldd_io::error::escape;

use crate::format::detection::{DetectionReport, Estimate, Instance, PhenomenonResult, WordInfo};

/// A value with 3 decimals, `-` when undefined.
fn num(value: Option<f64>) -> String {
    value.map_or_else(|| "-".to_string(), |v| format!("{v:.3}"))
}

/// `0.875 [0.71, 0.95]`.
fn estimate(estimate: &Estimate) -> String {
    match (estimate.value, estimate.low, estimate.high) {
        (Some(v), Some(l), Some(h)) => format!("{v:.3} [{l:.2}, {h:.2}]"),
        (v, _, _) => num(v),
    }
}

/// The table of a report, then up to `show` misses and `show` false hits per phenomenon
/// (none with 0).
pub fn table(report: &DetectionReport, show: usize) -> String {
    let mut t = String::new();
    let [first, last] = report.lines;
    let range = match (first, last) {
        (0, _) => "no sentence compared".to_string(),
        _ => format!(
            "sentences {first}-{last} ({})",
            last.saturating_sub(first) + 1
        ),
    };
    let _ = writeln!(
        t,
        "detection against gold trees: {}, {range}, {}",
        escape(&report.gold),
        match &report.model {
            Some(m) => format!("parsed by {}", escape(m)),
            None => format!("parse given: {}", escape(&report.parsed)),
        }
    );
    let _ = writeln!(
        t,
        "rules: {}, for `{}`, on the parse; reference: {}, on the gold trees\n",
        escape(&report.rules),
        escape(&report.language),
        escape(&report.reference)
    );
    let _ = writeln!(
        t,
        "{:<24} {:>5} {:>6} {:>7}  {:<20} {:<20} {:<20} bucket right",
        "phenomenon", "gold", "found", "correct", "precision", "recall", "F1"
    );
    for p in &report.phenomena {
        let bucket = if p.correct == 0 {
            "-".to_string()
        } else {
            format!(
                "{}/{} ({:.3})",
                p.bucket_right,
                p.correct,
                p.bucket_right as f64 / p.correct as f64
            )
        };
        let _ = writeln!(
            t,
            "{:<24} {:>5} {:>6} {:>7}  {:<20} {:<20} {:<20} {bucket}",
            escape(&p.name),
            p.gold,
            p.found,
            p.correct,
            estimate(&p.precision),
            estimate(&p.recall),
            estimate(&p.f1)
        );
    }
    let _ = writeln!(
        t,
        "{:.0}% intervals: Wilson (precision, recall), percentile bootstrap over sentences \
         (F1, 1000 resamples); bucket right: correct instances whose distance falls in the \
         same eqK set (all above {} alike)",
        100.0 * report.confidence,
        report.max_distance
    );
    if show > 0 {
        for p in &report.phenomena {
            listing(&mut t, p, show);
        }
    }
    t
}

/// A phenomenon's misses and false hits, at most `show` of each.
fn listing(out: &mut String, phenomenon: &PhenomenonResult, show: usize) {
    let kinds = [
        ("misses", "gold", "parse", &phenomenon.misses),
        ("false hits", "parse", "gold", &phenomenon.false_hits),
    ];
    for (what, this, other, list) in kinds {
        if list.is_empty() {
            continue;
        }
        let shown = list.len().min(show);
        let more = if shown < list.len() {
            format!(", the first {shown} (all with --json)")
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "\n{}: {} {what}{more}",
            escape(&phenomenon.name),
            list.len()
        );
        for i in &list[..shown] {
            let _ = writeln!(out, "  {}", instance(i, this, other));
        }
    }
}

/// `form/UPOS/XPOS`.
fn word(word: &WordInfo) -> String {
    format!(
        "{}/{}/{}",
        escape(&word.form),
        escape(&word.upos),
        escape(&word.xpos)
    )
}

/// One miss or false hit: `line 12  gold: an –compound:prt→ kam (d=3) | parse: an –case→ Bahnhof`.
fn instance(instance: &Instance, this: &str, other: &str) -> String {
    let theirs = match &instance.other {
        None => "no word at these characters (tokenized otherwise)".to_string(),
        Some(a) => format!(
            "{} -{}-> {}",
            word(&a.word),
            escape(&a.word.deprel),
            a.head.as_ref().map_or_else(|| "root".to_string(), word)
        ),
    };
    format!(
        "line {:<5} {this}: {} -{}-> {} (d={}) | {other}: {theirs}",
        instance.line,
        word(&instance.dependent),
        escape(&instance.dependent.deprel),
        word(&instance.head),
        instance.distance
    )
}

/// The note of the parse: how many sentences of the gold file, parsed or found in the
/// cache, by which model.
pub fn parsed(
    gold: &std::path::Path,
    sentences: u64,
    parsed: &crate::pipeline::parse::Parsed,
) -> String {
    let what = match parsed.outcome {
        ldd_parse::CacheOutcome::Hit => "found in the parse cache".to_string(),
        ldd_parse::CacheOutcome::Parsed => format!("parsed in {:.1} s", parsed.seconds),
        ldd_parse::CacheOutcome::Resumed { from_line } => {
            format!(
                "parsed in {:.1} s (resumed at sentence {from_line})",
                parsed.seconds
            )
        }
    };
    format!(
        "ldd-sets: the text of {sentences} sentences of {} with {}: {what}",
        ldd_io::error::shown(gold),
        ldd_io::error::shown(&parsed.model)
    )
}

/// While another process records into the same figures file.
pub fn waiting(file: &std::path::Path, pid: u32) -> String {
    format!(
        "ldd-sets: waiting for process {pid}, which is recording figures in {}",
        ldd_io::error::shown(file)
    )
}

/// The note that the figures were recorded.
pub fn recorded(file: &std::path::Path) -> String {
    format!(
        "ldd-sets: figures recorded in {}",
        ldd_io::error::shown(file)
    )
}
