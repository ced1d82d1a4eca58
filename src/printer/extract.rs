//! `extract`'s summary (set sizes per phenomenon and distance, reordering sets per
//! measure), `run`'s timing per corpus and `merge`'s line per merged output.

use std::fmt::Write as _;
use std::path::Path;

use crate::format::manifest::{CorpusStats, ShardRecord};
use crate::layout;
use crate::pipeline::align::cache::{AlignerSummary, Origin};
use crate::pipeline::detect::reorder::Measure;
use crate::pipeline::extract::ExtractReport;
use crate::pipeline::merge::Merged;
use crate::pipeline::read::discover::LocalCorpus;
use crate::pipeline::write::later::Later;
use crate::pipeline::RunReport;
use crate::view::Sizes;

/// The summary table of one extraction.
pub fn extract_summary(report: &ExtractReport, secs: f64) -> String {
    let mut out = String::new();
    let max = report.max_distance;
    if let Some(s) = &report.shard {
        let _ = writeln!(
            out,
            "shard {} of the corpus: lines {}..{} of {} (merge the shards with `ldd-sets merge`; \
             it draws the controls)",
            s.shard,
            s.lines.first,
            s.lines.end().saturating_sub(1),
            s.corpus_lines
        );
    }
    let _ = writeln!(
        out,
        "{} lines ({} empty, {} source words) in {secs:.2} s; sets in {}",
        report.corpus.lines,
        report.corpus.empty_lines,
        report.corpus.source_words,
        ldd_io::error::shown(&report.out)
    );
    if let Some(a) = &report.aligner {
        let _ = writeln!(out, "{}", aligner_line(a, ""));
    }
    let sizes = Sizes::of(&report.sets);
    for (title, exact) in [
        ("sentences with a pair at distance >= d", false),
        ("sentences with a pair at distance = d", true),
    ] {
        let _ = writeln!(out, "\n{title}:");
        let mut header = format!("{:<24}", "phenomenon");
        for d in 0..=max {
            header.push_str(&format!(" {:>7}", layout::bucket(exact, d)));
        }
        let _ = writeln!(out, "{header}");
        for p in &report.phenomena {
            let mut row = format!("{p:<24}");
            let sets = sizes.row(p);
            for d in 0..=max {
                let bucket = layout::bucket(exact, d);
                let n = sets.and_then(|s| s.set(&bucket)).map_or(0, |s| s.sentences);
                row.push_str(&format!(" {n:>7}"));
            }
            let _ = writeln!(out, "{row}");
        }
    }
    if let Some(info) = &report.reorder {
        let paper = if info.options.paper_compat {
            ", --paper-compat: distance > K"
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "\nsentence pairs at reordering >= K, per measure (* built the sets{paper}; \
             reorder/reorder.tsv has every measure of every line):"
        );
        for m in &info.sizes {
            let cells: String = m
                .buckets
                .iter()
                .zip(&m.lines)
                .map(|(b, n)| format!(" {:>6} {n:<7}", layout::bucket(false, *b)))
                .collect();
            let mark = if m.builds_sets { "*" } else { " " };
            let row = format!(
                "{mark} {:<9} {:<8}{cells}",
                Measure::from(m.measure).name(),
                Measure::from(m.measure).unit()
            );
            let _ = writeln!(out, "{}", row.trim_end());
        }
    }
    out
}

/// The notes on how the trees matched their corpus lines: normalised, tolerated, or not
/// checked (`--trust-conllu`), one line each, when there were such lines.
pub fn tree_notes(stats: &CorpusStats) -> Vec<String> {
    let mut notes = Vec::new();
    if stats.normalised_lines > 0 {
        notes.push(format!(
            "ldd-sets: {} of {} trees matched their corpus line only after normalisation \
             (tokenizer escapes, Unicode, case; docs/usage.md, \"Bring your own parse\")",
            stats.normalised_lines, stats.lines
        ));
    }
    if stats.tolerated_lines > 0 {
        notes.push(format!(
            "ldd-sets: {} of {} trees differ from their corpus line in small places ({} in \
             all, each of at most two letters or digits: a parser's rewriting, e.g. `it is` \
             for `'tis`); tolerated, and counted in the manifest (corpus.tolerated_lines, \
             corpus.tolerated_places)",
            stats.tolerated_lines,
            stats.lines,
            stats.tolerated_places.max(stats.tolerated_lines)
        ));
    }
    if stats.glued_comments > 0 {
        notes.push(format!(
            "ldd-sets: {} of {} trees have their `# sent_id` comment glued to their first word \
             line, with no line break (as the paper's published parses have them); read as \
             the two lines they stand for, and counted in the manifest (corpus.glued_comments)",
            stats.glued_comments, stats.lines
        ));
    }
    if stats.unchecked_lines > 0 {
        notes.push(format!(
            "ldd-sets: --trust-conllu: {} trees were not checked against their corpus line",
            stats.unchecked_lines
        ));
    }
    notes
}

/// `run`'s line when it starts on a corpus.
pub fn corpus_starting(corpus: &LocalCorpus) -> String {
    format!(
        "ldd-sets: corpus {} ({} -> {})",
        corpus.name,
        ldd_io::error::shown(&corpus.source),
        ldd_io::error::shown(&corpus.target)
    )
}

/// `run`'s heading of a corpus's summary.
pub fn corpus_heading(name: &str) -> String {
    format!("\n== {name} ==\n")
}

/// `run`'s seconds per stage and corpus, and of the aligner trained once for them all.
pub fn run_timing(run: &RunReport) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "\ntiming per stage (s):\n{:<24} {:>9} {:>9}",
        "corpus", "parse", "extract"
    );
    for r in &run.corpora {
        let _ = writeln!(
            out,
            "{:<24} {:>9.2} {:>9.2}",
            r.corpus.name, r.parse_seconds, r.extract_seconds
        );
    }
    if let Some(a) = &run.aligner {
        let _ = writeln!(out, "{}", aligner_line(a, "once, "));
    }
    out
}

/// What obtaining the aligner did, in one line (`once` after "trained" for `run`).
fn aligner_line(aligner: &AlignerSummary, once: &str) -> String {
    let (pairs, secs) = (aligner.pairs, aligner.seconds);
    let what = match aligner.origin {
        Origin::Trained => format!("trained {once}on {pairs} sentence pairs, in {secs:.2} s"),
        Origin::Cached => format!(
            "loaded from the aligner cache in {secs:.2} s, not trained again (trained before \
             on {pairs} sentence pairs of the same files)"
        ),
        Origin::Loaded => format!("loaded from --align-model in {secs:.2} s"),
    };
    format!(
        "aligner: {what}; saved with the sets ({}.*)",
        layout::reorder_aligner()
    )
}

/// What became of the files later commands had added to the previous output (kept:
/// the sets are unchanged; dropped: `--replace`), or `None`.
pub fn later_note(report: &ExtractReport) -> Option<String> {
    let (files, what) = match &report.later {
        Later::None => return None,
        Later::Kept(f) => (f, "kept: the sets are unchanged"),
        Later::Dropped(f) => (f, "dropped with the earlier sets (--replace)"),
    };
    let shown: Vec<&str> = files.iter().take(6).map(String::as_str).collect();
    Some(format!(
        "ldd-sets: note: the files later commands made in {} ({}{}) were {what}",
        ldd_io::error::shown(&report.out),
        shown.join(", "),
        if files.len() > shown.len() {
            ", ..."
        } else {
            ""
        }
    ))
}

/// What to type next after `run` or `extract` wrote sets into `dirs` (a corpus's sets
/// directory each), with target language `tgt`: score a system, then see the report.
pub fn next_steps(dirs: &[&Path], tgt: &str) -> String {
    let Some(first) = dirs.first() else {
        return String::new();
    };
    let d = ldd_io::shell::path(first);
    let tgt = ldd_io::shell::word(tgt);
    let mut out = String::from(
        "
next: score your systems' translations of the corpus, then see it all:
",
    );
    let _ = writeln!(
        out,
        "  ldd-sets score --sets {d} --hyp SYSTEM-A.{tgt} --hyp SYSTEM-B.{tgt} --metrics bleu,chrf,locus"
    );
    let _ = writeln!(out, "  ldd-sets report --sets {d}");
    if dirs.len() > 1 {
        let others: Vec<String> = dirs[1..].iter().map(|p| ldd_io::shell::path(p)).collect();
        let _ = writeln!(out, "  (the other corpora's sets: {})", others.join(", "));
    }
    out
}

/// `merge`'s line about one merged output (with its newline): its shards, lines, sets
/// and controls.
pub fn merge_summary(merged: &Merged) -> String {
    let c = &merged.manifest.corpus;
    let shards = match &merged.manifest.shard {
        Some(ShardRecord::Merged(s)) => s.count,
        _ => 0,
    };
    let controls = merged
        .manifest
        .controls
        .iter()
        .map(|c| c.count)
        .max()
        .unwrap_or(0);
    format!(
        "{}merged {shards} shards: {} lines ({} empty, {} source words), {} sets, {controls} \
         controls per set; sets in {}\n",
        merged
            .name
            .as_ref()
            .map_or(String::new(), |n| format!("{n}: ")),
        c.lines,
        c.empty_lines,
        c.source_words,
        merged.manifest.sets.len(),
        ldd_io::error::shown(&merged.out)
    )
}
