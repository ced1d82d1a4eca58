//! `--format latex`: the report's main tables as LaTeX `tabular`s for a paper — set sizes,
//! and per metric the scores against distance with the controls (the paper's Table 5).
//! Uses `booktabs` rules; `\input` the file inside a `table` environment.

use std::fmt::Write as _;

use super::scores::{is_small, mark, metric_label, n_of, paired_mark, within_mark, SMALL_SET};
use super::views::Views;
use super::Report;
use crate::format::scores::Row as ScoreRow;
use crate::format::sets::SetEntry;
use crate::view::{ScoreTable, Sizes};

/// Escapes LaTeX's special characters, and writes control characters (a line break ends
/// a comment, two start a paragraph) as spaces: the one escaper of text in the LaTeX file.
pub fn tex(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            c if c.is_control() => out.push(' '),
            '\\' => out.push_str("\\textbackslash{}"),
            '&' | '%' | '$' | '#' | '_' | '{' | '}' => {
                out.push('\\');
                out.push(c);
            }
            '~' => out.push_str("\\textasciitilde{}"),
            '^' => out.push_str("\\textasciicircum{}"),
            c => out.push(c),
        }
    }
    out
}

fn num(value: Option<f64>) -> String {
    value.map_or_else(|| "--".into(), |v| format!("{v:.2}"))
}

/// A phenomenon's row of a size table: its name and its sets of one kind (`ge` or `eq`).
type Row<'a> = (&'a str, &'a [&'a SetEntry]);

/// `$^\ddagger$` after the size of a small set (not empty, fewer than [`SMALL_SET`]
/// sentences), else nothing.
fn small_mark(sentences: u64) -> &'static str {
    if sentences > 0 && sentences < SMALL_SET {
        "$^\\ddagger$"
    } else {
        ""
    }
}

/// The size tables' rows: one table per list of buckets (lexical ge, lexical eq,
/// reorder), a row per phenomenon.
fn size_groups<'a>(sizes: &'a Sizes) -> Vec<(Vec<&'a str>, Vec<Row<'a>>)> {
    let mut groups: Vec<(Vec<&str>, Vec<Row>)> = Vec::new();
    for exact in [false, true] {
        for row in &sizes.phenomena {
            let sets = row.sets(exact);
            if sets.is_empty() {
                continue;
            }
            let buckets: Vec<&str> = sets.iter().map(|x| x.bucket.as_str()).collect();
            match groups.iter_mut().find(|g| g.0 == buckets) {
                Some(g) => g.1.push((row.phenomenon, sets)),
                None => groups.push((buckets, vec![(row.phenomenon, sets)])),
            }
        }
    }
    groups
}

/// A table of set sizes: sentences per set, a column per bucket.
fn size_table(out: &mut String, buckets: &[&str], rows: &[Row]) {
    let _ = writeln!(
        out,
        "\n% Set sizes: sentences per set\n\\begin{{tabular}}{{l{}}}\n\\toprule",
        "r".repeat(buckets.len())
    );
    out.push_str("phenomenon");
    for bucket in buckets {
        let _ = write!(out, " & {}", tex(bucket));
    }
    out.push_str(" \\\\\n\\midrule\n");
    for (phenomenon, sets) in rows {
        out.push_str(&tex(phenomenon));
        for set in sets.iter() {
            let _ = write!(out, " & {}{}", set.sentences, small_mark(set.sentences));
        }
        out.push_str(" \\\\\n");
    }
    out.push_str("\\bottomrule\n\\end{tabular}\n");
}

/// A mark as LaTeX: a superscript, `\textdagger{}` for `†`, nothing for none.
fn tex_mark(mark: &str) -> String {
    match mark {
        "" => String::new(),
        "†" => "\\textdagger{}".to_string(),
        "<" => "$^{<}$".to_string(),
        other => format!("$^{{{other}}}$"),
    }
}

/// A system's three cells of a score table: the score with its paired mark (`*`: differs
/// from the first system), then the controls' mean and the difference with its mark (`!`:
/// lower than length-matched controls, BH q); for locus accuracy the comparable words'
/// accuracy and the within-sentence difference with its mark (`<`).
fn score_cells(row: Option<&ScoreRow>) -> String {
    let Some(row) = row else {
        return " & -- & -- & --".into();
    };
    let (base, diff, second) = match &row.baseline {
        Some(b) if row.metric == crate::score::locus::KEY => {
            (b.comparable_score, b.diff, tex_mark(within_mark(row)))
        }
        _ => (row.control_mean, row.diff(), tex_mark(mark(row))),
    };
    format!(
        " & {}{} & {} & {}{second}",
        num(row.score),
        tex_mark(paired_mark(row)),
        num(base),
        diff.map_or_else(|| "--".into(), |d| format!("{d:+.2}"))
    )
}

/// A metric's table: the ge sets against distance, per system set score, controls' mean
/// and difference.
fn score_table(out: &mut String, table: &ScoreTable, systems: &[&str], sizes: &Sizes) {
    let label = tex(metric_label(table.metric));
    let locus = table.metric == crate::score::locus::KEY;
    let legend = if locus {
        "locus accuracy, the comparable words' accuracy in the same sentences, the \
         within-sentence difference; $n$ judged loci (the first system's); $^{<}$ locus words \
         less often right than comparable words (Benjamini-Hochberg q < 0.05)"
    } else {
        "set score, controls' mean, difference; $^{!}$ lower than its length-matched controls \
         (Benjamini-Hochberg q < 0.05; other sentence properties differ too), \\textdagger{} (no \
         p-values) every control higher"
    };
    let _ = writeln!(
        out,
        "\n% {label} on the ge sets against distance: {legend}; $^{{*}}$ differs from the first \
         system (paired test, p < 0.05).\n\\begin{{tabular}}{{llr{}}}\n\\toprule",
        "rrr".repeat(systems.len())
    );
    let _ = write!(out, "phenomenon & set & $n$");
    for system in systems {
        let _ = write!(out, " & \\multicolumn{{3}}{{c}}{{{}}}", tex(system));
    }
    out.push_str(" \\\\\n");
    let _ = write!(out, " & & ");
    for _ in systems {
        out.push_str(match locus {
            true => " & acc. & same-POS & $\\Delta$pos",
            false => " & set & controls & $\\Delta$",
        });
    }
    out.push_str(" \\\\\n\\midrule\n");
    let mut any = false;
    for line in table.lines.iter().filter(|l| l.key.is_set()) {
        let Some(set) = sizes.set(line.key.phenomenon, line.key.bucket) else {
            continue; // scores of a set the manifest does not list are not shown
        };
        if set.exact || line.cells.iter().all(Option::is_none) {
            continue;
        }
        any = true;
        let (n, small) = match line.first() {
            Some(r) if locus => (n_of(r).0, if is_small(r) { "$^\\ddagger$" } else { "" }),
            _ => (set.sentences, small_mark(set.sentences)),
        };
        let _ = write!(
            out,
            "{} & {} & {n}{small}",
            tex(&set.phenomenon),
            tex(&set.bucket),
        );
        for row in line.cells.iter().copied() {
            out.push_str(&score_cells(row));
        }
        out.push_str(" \\\\\n");
    }
    if !any {
        out.push_str("% no set rows\n");
    }
    out.push_str("\\bottomrule\n\\end{tabular}\n");
}

/// The LaTeX file: the set sizes, then a score table per metric.
pub fn tables(report: &Report, views: &Views) -> String {
    let mut out = String::new();
    let manifest = &report.manifest;
    let _ = writeln!(
        out,
        "% ldd-sets {} report tables for {} ({} -> {}), {} corpus lines.\n% Needs \\usepackage{{booktabs}}. Sets marked $^\\ddagger$ have fewer than {SMALL_SET} sentences.",
        tex(&manifest.tool.version),
        tex(&report.corpus),
        manifest.languages.source(),
        manifest.languages.target(),
        manifest.corpus.lines
    );
    for (buckets, rows) in &size_groups(&views.sizes) {
        size_table(&mut out, buckets, rows);
    }
    let Some(scores) = &views.scores else {
        out.push_str("\n% No scores.json: run `ldd-sets score` for the score tables.\n");
        return out;
    };
    for table in &scores.tables {
        score_table(&mut out, table, &scores.systems, &views.sizes);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn special_characters_are_escaped() {
        assert_eq!(
            tex("a_b & 50% #1 {x} ~^\\"),
            "a\\_b \\& 50\\% \\#1 \\{x\\} \\textasciitilde{}\\textasciicircum{}\\textbackslash{}"
        );
    }

    /// A system's cells: the mark after the score as LaTeX, `--` where undefined; a small
    /// set's size marked.
    #[test]
    fn score_cells_by_hand() {
        assert_eq!(score_cells(None), " & -- & -- & --");
        let row = ScoreRow {
            score: Some(20.0),
            control_mean: Some(25.5),
            controls: 10,
            control_p_value: Some(0.001),
            ..Default::default()
        };
        assert_eq!(score_cells(Some(&row)), " & 20.00 & 25.50 & -5.50$^{!}$");
        let paired = ScoreRow {
            p_value: Some(0.01),
            control_q_value: Some(0.2),
            ..row.clone()
        };
        assert_eq!(score_cells(Some(&paired)), " & 20.00$^{*}$ & 25.50 & -5.50");
        let row = ScoreRow {
            control_p_value: None,
            rank: Some(10),
            ..row
        };
        assert_eq!(
            score_cells(Some(&row)),
            " & 20.00 & 25.50 & -5.50\\textdagger{}"
        );
        assert_eq!(small_mark(0), "");
        assert_eq!(small_mark(SMALL_SET - 1), "$^\\ddagger$");
        assert_eq!(small_mark(SMALL_SET), "");
    }
}
