//! `--format latex`: the report's main tables as LaTeX `tabular`s for a paper — set sizes,
//! and per metric the scores against distance with the controls (the paper's Table 5).
//! Uses `booktabs` rules; `\input` the file inside a `table` environment.

use std::fmt::Write as _;

use super::scores::{mark, metric_label, SMALL_SET};
use super::views::Views;
use super::Report;
use crate::format::sets::SetEntry;

/// Escapes LaTeX's special characters, and writes control characters (a line break ends
/// a comment, two start a paragraph) as spaces: the one escaper of text in the LaTeX file.
pub fn tex(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
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

fn num(x: Option<f64>) -> String {
    x.map_or_else(|| "--".into(), |v| format!("{v:.2}"))
}

/// A phenomenon's row of a size table: its name and its sets of one kind (`ge` or `eq`).
type Row<'a> = (&'a str, &'a [&'a SetEntry]);

/// The LaTeX file.
pub fn tables(r: &Report, v: &Views) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "% ldd-sets {} report tables for {} ({} -> {}), {} corpus lines.\n% Needs \\usepackage{{booktabs}}. Sets marked $^\\ddagger$ have fewer than {SMALL_SET} sentences.",
        tex(&r.m.tool.version),
        tex(&r.corpus),
        r.m.languages.source(),
        r.m.languages.target(),
        r.m.corpus.lines
    );
    // One table per list of buckets (lexical ge, lexical eq, reorder), a row per phenomenon.
    let mut groups: Vec<(Vec<&str>, Vec<Row>)> = Vec::new();
    for exact in [false, true] {
        for row in &v.sizes.phenomena {
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
    for (buckets, rows) in &groups {
        let _ = writeln!(
            s,
            "\n% Set sizes: sentences per set\n\\begin{{tabular}}{{l{}}}\n\\toprule",
            "r".repeat(buckets.len())
        );
        s.push_str("phenomenon");
        for b in buckets {
            let _ = write!(s, " & {}", tex(b));
        }
        s.push_str(" \\\\\n\\midrule\n");
        for (p, sets) in rows {
            s.push_str(&tex(p));
            for x in sets.iter() {
                let _ = write!(
                    s,
                    " & {}{}",
                    x.sentences,
                    if x.sentences > 0 && x.sentences < SMALL_SET {
                        "$^\\ddagger$"
                    } else {
                        ""
                    }
                );
            }
            s.push_str(" \\\\\n");
        }
        s.push_str("\\bottomrule\n\\end{tabular}\n");
    }
    let Some(sc) = &v.scores else {
        s.push_str("\n% No scores.json: run `ldd-sets score` for the score tables.\n");
        return s;
    };
    for t in &sc.tables {
        let label = tex(metric_label(t.metric));
        let _ = writeln!(
            s,
            "\n% {label} on the ge sets against distance, with the length-matched controls: set score, \
             controls' mean, difference; * / ** one-sided p < 0.05 / 0.01 (set worse than controls), \
             \\textdagger{{}} (no p-values) every control higher.\n\\begin{{tabular}}{{llr{}}}\n\\toprule",
            "rrr".repeat(sc.systems.len())
        );
        let _ = write!(s, "phenomenon & set & $n$");
        for sys in &sc.systems {
            let _ = write!(s, " & \\multicolumn{{3}}{{c}}{{{}}}", tex(sys));
        }
        s.push_str(" \\\\\n");
        let _ = write!(s, " & & ");
        for _ in &sc.systems {
            s.push_str(" & set & controls & $\\Delta$");
        }
        s.push_str(" \\\\\n\\midrule\n");
        let mut any = false;
        for line in t.lines.iter().filter(|l| l.key.is_set()) {
            let Some(set) = v.sizes.set(line.key.phenomenon, line.key.bucket) else {
                continue; // scores of a set the manifest does not list are not shown
            };
            let rows = &line.cells;
            if set.exact || rows.iter().all(Option::is_none) {
                continue;
            }
            any = true;
            let _ = write!(
                s,
                "{} & {} & {}{}",
                tex(&set.phenomenon),
                tex(&set.bucket),
                set.sentences,
                if set.sentences > 0 && set.sentences < SMALL_SET {
                    "$^\\ddagger$"
                } else {
                    ""
                }
            );
            for row in rows.iter().copied() {
                match row {
                    None => s.push_str(" & -- & -- & --"),
                    Some(x) => {
                        let mk = match mark(x) {
                            "†" => "\\textdagger{}".to_string(),
                            "" => String::new(),
                            other => format!("$^{{{other}}}$"),
                        };
                        let _ = write!(
                            s,
                            " & {}{} & {} & {}",
                            num(x.score),
                            mk,
                            num(x.control_mean),
                            x.diff().map_or_else(|| "--".into(), |d| format!("{d:+.2}"))
                        );
                    }
                }
            }
            s.push_str(" \\\\\n");
        }
        if !any {
            s.push_str("% no set rows\n");
        }
        s.push_str("\\bottomrule\n\\end{tabular}\n");
    }
    s
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
}
