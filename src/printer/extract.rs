//! `extract`'s summary (set sizes per phenomenon and distance, reordering sets per
//! measure), `run`'s timing per corpus and `merge`'s line per merged output.

use std::fmt::Write as _;

use crate::detect::reorder::Measure;
use crate::format::manifest::ShardRecord;
use crate::layout;
use crate::pipeline::extract::ExtractReport;
use crate::pipeline::merge::Merged;
use crate::pipeline::RunReport;

/// The summary table of one extraction.
pub fn extract_summary(r: &ExtractReport, secs: f64) -> String {
    let mut out = String::new();
    let max = r.max_distance;
    if let Some(s) = &r.shard {
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
        r.corpus.lines,
        r.corpus.empty_lines,
        r.corpus.source_words,
        ldd_io::error::shown(&r.out)
    );
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
        for p in &r.phenomena {
            let mut row = format!("{p:<24}");
            for d in 0..=max {
                let bucket = layout::bucket(exact, d);
                let n = r
                    .sets
                    .iter()
                    .find(|s| &s.phenomenon == p && s.bucket == bucket)
                    .map_or(0, |s| s.sentences);
                row.push_str(&format!(" {n:>7}"));
            }
            let _ = writeln!(out, "{row}");
        }
    }
    if let Some(info) = &r.reorder {
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
    if let Some((pairs, seconds)) = run.aligner {
        let _ = writeln!(
            out,
            "aligner: trained once, on {pairs} sentence pairs, in {seconds:.2} s (before the corpora)"
        );
    }
    out
}

/// `merge`'s line about one merged output: its shards, lines, sets and controls.
pub fn merge_summary(m: &Merged) -> String {
    let c = &m.manifest.corpus;
    let shards = match &m.manifest.shard {
        Some(ShardRecord::Merged(s)) => s.count,
        _ => 0,
    };
    let controls = m
        .manifest
        .controls
        .iter()
        .map(|c| c.count)
        .max()
        .unwrap_or(0);
    format!(
        "{}merged {shards} shards: {} lines ({} empty, {} source words), {} sets, {controls} \
         controls per set; sets in {}",
        m.name.as_ref().map_or(String::new(), |n| format!("{n}: ")),
        c.lines,
        c.empty_lines,
        c.source_words,
        m.manifest.sets.len(),
        ldd_io::error::shown(&m.out)
    )
}
