//! Locus accuracy in the "Scores" section, led by the within-sentence comparison: per set
//! and system, the locus words' accuracy against the comparable words' of the same
//! sentences, the difference with its Newcombe interval, p and Benjamini–Hochberg q, the n
//! of words, the difference-in-differences against the first system (with two systems or
//! more), then the locus accuracy itself with its n of judged loci. A column that no row
//! fills is left out.

use std::fmt::Write as _;

use super::{ci, esc, f2, p3};
use crate::report::scores::{is_small, paired_mark, within_mark, Row, ALPHA, PAIRED, WITHIN};
use crate::report::views::Views;
use crate::view::{ScoreTable, ScoreView};

/// A column of the table: its header and how a row fills it (`None`: nothing to show).
struct Column {
    head: &'static str,
    cell: fn(&Row) -> Option<String>,
}

fn signed(v: Option<f64>) -> Option<String> {
    v.map(|d| format!("{d:+.2}"))
}

/// The columns, in order.
const COLUMNS: [Column; 9] = [
    Column {
        head: "locus words % right (n)",
        cell: |r| {
            let b = r.baseline.as_ref()?;
            Some(format!("{} ({})", f2(b.word_score), b.words))
        },
    },
    Column {
        head: "comparable words % right (n)",
        cell: |r| {
            let b = r.baseline.as_ref()?;
            Some(format!("{} ({})", f2(b.comparable_score), b.comparable))
        },
    },
    Column {
        head: "difference [CI]",
        cell: |r| {
            let b = r.baseline.as_ref()?;
            Some(format!(
                "{}{} <strong>{}</strong>",
                signed(b.diff)?,
                ci(b.diff_ci_low, b.diff_ci_high),
                esc(within_mark(r))
            ))
        },
    },
    Column {
        head: "p",
        cell: |r| Some(p3(Some(r.baseline.as_ref()?.p_value?))),
    },
    Column {
        head: "BH q",
        cell: |r| Some(p3(Some(r.baseline.as_ref()?.q_value?))),
    },
    Column {
        head: "DiD vs first system [CI]",
        cell: |r| {
            let b = r.baseline.as_ref()?;
            Some(format!(
                "{}{}",
                signed(b.did)?,
                ci(b.did_ci_low, b.did_ci_high)
            ))
        },
    },
    Column {
        head: "DiD p",
        cell: |r| Some(p3(Some(r.baseline.as_ref()?.did_p_value?))),
    },
    Column {
        head: "locus accuracy [CI]",
        cell: |r| {
            Some(format!(
                "{}{} <strong>{}</strong>",
                f2(Some(r.score?)),
                ci(r.ci_low, r.ci_high),
                paired_mark(r)
            ))
        },
    },
    Column {
        head: "n judged loci (sentences)",
        cell: |r| {
            Some(format!(
                "{}{} ({})",
                r.loci?,
                if is_small(r) {
                    "<abbr title=\"fewer than 100 judged loci: the score is noisy\">⚠</abbr>"
                } else {
                    ""
                },
                r.sentences
            ))
        },
    },
];

/// The locus accuracy table of `table`, one line per set and system.
pub(super) fn within_table(out: &mut String, views: &Views, sc: &ScoreView, table: &ScoreTable) {
    let lines: Vec<(String, &str, &Row)> = table
        .lines
        .iter()
        .filter(|l| l.key.is_set())
        .filter(|l| views.sizes.set(l.key.phenomenon, l.key.bucket).is_some())
        .flat_map(|l| {
            l.cells.iter().enumerate().filter_map(move |(col, r)| {
                Some((
                    format!("{}/{}", l.key.phenomenon, l.key.bucket),
                    sc.systems.get(col).copied()?,
                    (*r)?,
                ))
            })
        })
        .collect();
    let shown: Vec<&Column> = COLUMNS
        .iter()
        .filter(|c| lines.iter().any(|(_, _, r)| (c.cell)(r).is_some()))
        .collect();
    let _ = write!(
        out,
        "<details open><summary>Locus accuracy on every set: the within-sentence comparison first\
         </summary><p>The words at the loci against the comparable words (other words of the same \
         parts of speech) of the same sentences, each judged by the locus rule as a word: their \
         difference with Newcombe's interval, Fisher's exact two-sided p and its \
         Benjamini–Hochberg q over the system's sets; <strong>{}</strong>: locus words less often \
         right, q &lt; {ALPHA}. DiD: the difference minus the first system's on the same set \
         (MOVER interval; a z-test treating the two systems as independent, conservative). Then \
         the locus accuracy with its Wilson interval; <strong>{PAIRED}</strong>: differs from the \
         first system (McNemar's exact test, p &lt; {ALPHA}). n: judged loci, the set's sentences \
         in brackets; ⚠: fewer than 100 judged loci.</p><div class=\"wide\"><table class=\"within\">\
         <thead><tr><th>set</th><th>system</th>",
        esc(WITHIN)
    );
    for c in &shown {
        let _ = write!(out, "<th class=\"n\">{}</th>", c.head);
    }
    out.push_str("</tr></thead><tbody>");
    for (set, system, row) in &lines {
        let _ = write!(
            out,
            "<tr><th scope=\"row\">{}</th><td>{}</td>",
            esc(set),
            esc(system)
        );
        for c in &shown {
            let cell = (c.cell)(row).unwrap_or_else(|| "–".into());
            let _ = write!(out, "<td class=\"n\">{cell}</td>");
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table></div></details>\n");
}
