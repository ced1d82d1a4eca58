//! The outputs of `score`: `scores.json`, `scores.csv` and the table on stdout.

use std::fmt::Write as _;
use std::path::Path;

use super::{Metric, ScoreReport};
use crate::error::{Error, Result};

/// The first line of `scores.csv`.
const CSV_HEADER: &str =
    "system,metric,scope,kind,phenomenon,bucket,min_distance,exact,sentences,score,\
controls,control_status,control_mean,control_sd,rank,ties,points,spearman,pearson";

/// Writes `scores.json` and `scores.csv` into `dir` (created if needed), each
/// all-or-nothing. Existing files of those names are replaced only if ldd-sets wrote them
/// (a JSON score report; a CSV with ldd-sets' header), and never if they are inputs.
pub fn write_outputs(report: &ScoreReport, dir: &Path, inputs: &[&Path]) -> Result<()> {
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    let (json_path, csv_path) = (dir.join("scores.json"), dir.join("scores.csv"));
    for p in [&json_path, &csv_path] {
        ldd_io::output::refuse_same_file(p, inputs)?;
        if p.exists() && !written_by_us(p) {
            return Err(Error::Config(format!(
                "{}: exists and was not written by `ldd-sets score`; refusing to replace it — \
                 choose another --out",
                ldd_io::text::shown(p)
            )));
        }
    }
    let mut json = serde_json::to_string_pretty(report)
        .map_err(|e| Error::Data(format!("scores.json: {e}")))?;
    json.push('\n');
    ldd_io::write_bytes_atomic(&json_path, json.as_bytes())?;
    ldd_io::write_bytes_atomic(&csv_path, render_csv(report).as_bytes())?;
    Ok(())
}

/// Whether an existing `scores.json` / `scores.csv` is a previous output of `score`.
fn written_by_us(p: &Path) -> bool {
    let Ok(text) = ldd_io::read_text(p, 1 << 30) else {
        return false;
    };
    if p.extension().is_some_and(|e| e == "csv") {
        return text
            .lines()
            .next()
            .is_some_and(|h| h.starts_with(CSV_HEADER));
    }
    serde_json::from_str::<serde_json::Value>(&text).is_ok_and(|v| {
        v.get("rows").is_some_and(|r| r.is_array()) && v.get("corpus_lines").is_some()
    })
}

fn opt<T: ToString>(v: Option<T>) -> String {
    v.map(|x| x.to_string()).unwrap_or_default()
}

/// `scores.csv`: one row per system × metric × (corpus, set), then one per trend.
pub fn render_csv(r: &ScoreReport) -> String {
    let mut s = format!("{CSV_HEADER}\n");
    for row in &r.rows {
        let _ = writeln!(
            s,
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},,,",
            csv_field(&row.system),
            row.metric.key(),
            row.scope,
            row.kind,
            csv_field(&row.phenomenon),
            csv_field(&row.bucket),
            opt(row.min_distance),
            opt(row.exact),
            row.sentences,
            opt(row.score),
            row.controls,
            row.control_status,
            opt(row.control_mean),
            opt(row.control_sd),
            opt(row.rank),
            opt(row.ties),
        );
    }
    for t in &r.trends {
        let _ = writeln!(
            s,
            "{},{},trend,,{},ge*,,,,,,,,,,,{},{},{}",
            csv_field(&t.system),
            t.metric.key(),
            csv_field(&t.phenomenon),
            t.points.len(),
            opt(t.spearman),
            opt(t.pearson),
        );
    }
    s
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

fn f2(v: Option<f64>) -> String {
    v.map_or_else(|| "-".into(), |x| format!("{x:.2}"))
}

/// The stdout table: per metric, one row per corpus/set, three cells per system
/// (`score`, `mean±sd` of the controls, `rank/K`); then the distance trends.
pub fn render_table(r: &ScoreReport) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{} corpus lines; reference {}; rank = controls scoring higher than the set, of K",
        r.corpus_lines,
        ldd_io::text::shown(&r.reference)
    );
    let metrics: Vec<Metric> = {
        let mut m: Vec<Metric> = r.rows.iter().map(|x| x.metric).collect();
        m.sort();
        m.dedup();
        m
    };
    let label_w = r
        .rows
        .iter()
        .map(|x| x.phenomenon.len() + x.bucket.len() + 1)
        .max()
        .unwrap_or(6)
        .max(6);
    for &metric in &metrics {
        let _ = writeln!(s, "\n{}", metric.label());
        let mut head = format!("{:<label_w$} {:>6}", "set", "n");
        for sys in &r.systems {
            head.push_str(&format!(
                " | {:>7} {:>13} {:>7}",
                sys.name, "ctl mean±sd", "rank"
            ));
        }
        let _ = writeln!(s, "{head}");
        let Some(first) = r.systems.first().map(|s| &s.name) else {
            continue;
        };
        for row in r
            .rows
            .iter()
            .filter(|x| x.metric == metric && &x.system == first)
        {
            let label = if row.scope == "corpus" {
                "corpus".to_string()
            } else {
                format!("{}/{}", row.phenomenon, row.bucket)
            };
            let mut line = format!("{label:<label_w$} {:>6}", row.sentences);
            for sys in &r.systems {
                let x = r.rows.iter().find(|x| {
                    x.system == sys.name
                        && x.metric == metric
                        && x.scope == row.scope
                        && x.phenomenon == row.phenomenon
                        && x.bucket == row.bucket
                });
                let (sc, ctl, rank) = match x {
                    Some(x) => (
                        f2(x.score),
                        match (x.control_mean, x.control_sd) {
                            (Some(m), Some(sd)) => format!("{m:.2}±{sd:.2}"),
                            (Some(m), None) => format!("{m:.2}"),
                            _ => "-".into(),
                        },
                        x.rank
                            .map_or_else(|| "-".into(), |k| format!("{k}/{}", x.controls)),
                    ),
                    None => ("-".into(), "-".into(), "-".into()),
                };
                line.push_str(&format!(" | {sc:>7} {ctl:>13} {rank:>7}"));
            }
            let _ = writeln!(s, "{line}");
        }
    }
    if !r.trends.is_empty() {
        let _ = writeln!(
            s,
            "\nDistance trend over ge sets (correlation of min distance and score)"
        );
        let _ = writeln!(
            s,
            "{:<6} {:<24} {:<16} {:>6} {:>9} {:>9}",
            "metric", "phenomenon", "system", "points", "spearman", "pearson"
        );
        for t in &r.trends {
            let _ = writeln!(
                s,
                "{:<6} {:<24} {:<16} {:>6} {:>9} {:>9}",
                t.metric.label(),
                t.phenomenon,
                t.system,
                t.points.len(),
                f2(t.spearman),
                f2(t.pearson)
            );
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A report without systems renders (it used to panic).
    #[test]
    fn empty_report_renders() {
        let r = ScoreReport {
            sets: "s".into(),
            reference: "r".into(),
            corpus_lines: 0,
            systems: Vec::new(),
            settings: "",
            rows: Vec::new(),
            trends: Vec::new(),
        };
        assert!(render_table(&r).starts_with("0 corpus lines"));
        assert_eq!(render_csv(&r).lines().count(), 1);
    }
}
