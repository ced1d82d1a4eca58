//! The page's "Findings" section: per system, how each score changes from the shortest to
//! the longest dependencies, and the sets worse than their controls.

use std::fmt::Write as _;

use super::{ci, esc, f2, small_mark};
use crate::report::scores::{mark, metric_label, Row};
use crate::report::views::Views;
use crate::view::scores::ScoreTable;

/// What changes with distance, per system: for every phenomenon and metric, the score of
/// the shortest and the longest `ge` set with a score, the change, the trend's Spearman ρ
/// with its interval, and the sets worse than their controls — read from the same score
/// tables ([`crate::view::scores::ScoreView`]) and marked as the tables mark them (`*`,
/// `**`, `†`), small sets with the tables' ⚠.
pub(super) fn findings(out: &mut String, views: &Views) {
    out.push_str("<section id=\"findings\"><h2>Findings</h2>\n");
    let Some(sc) = &views.scores else {
        out.push_str(
            "<p>Not scored yet: the findings appear once <code>ldd-sets score</code> has run \
            (see <a href=\"#scores\">Scores</a>).</p></section>\n",
        );
        return;
    };
    out.push_str("<p>For every system, how each score changes from the shortest to the longest \
        dependencies (<code>ge</code> sets: distance at least <i>d</i>), with the rank correlation of \
        score and <i>d</i> (negative: worse on longer dependencies; its 95% interval in brackets), \
        and every set on which the system is worse than on length-matched controls, as the tables \
        below mark it (<strong>*</strong> / <strong>**</strong>: one-sided p &lt; 0.05 / 0.01; \
        <strong>†</strong>: every control scored higher). ⚠: fewer than 100 sentences (or judged loci, \
        or items), a score that varies a lot with the sample.</p>\n");
    for (col, sys) in sc.systems.iter().enumerate() {
        let _ = write!(
            out,
            "<h3>{}</h3><div class=\"wide\"><table class=\"findings\"><thead><tr><th>phenomenon</th>\
             <th>metric</th><th class=\"n\">shortest</th><th class=\"n\">longest</th>\
             <th class=\"n\">change</th><th class=\"n\">Spearman ρ</th><th>worse than controls</th>\
             </tr></thead><tbody>",
            esc(sys)
        );
        for size in &views.sizes.phenomena {
            let p = size.phenomenon;
            for table in &sc.tables {
                let m = table.metric;
                let row = |bucket: &str| table.set(p, bucket).and_then(|l| l.cells[col]);
                let rows: Vec<&Row> = size
                    .ge
                    .iter()
                    .filter_map(|set| row(&set.bucket))
                    .filter(|row| row.score.is_some())
                    .collect();
                let (Some(first), Some(last)) = (rows.first(), rows.last()) else {
                    continue;
                };
                let at = |row: &Row| {
                    format!(
                        "{} <small>(d ≥ {})</small>{}",
                        f2(row.score),
                        row.min_distance.unwrap_or(0),
                        small(size.set(&row.bucket).map_or(0, |x| x.sentences), row)
                    )
                };
                let change = match (first.score, last.score) {
                    (Some(a), Some(b)) if rows.len() > 1 => format!("{:+.2}", b - a),
                    _ => "–".into(),
                };
                let trend = sc.trend(col, m, p);
                let worse = worse_than_controls(table, views, p, col);
                let _ = write!(
                    out,
                    "<tr><td>{}</td><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>\
                     <td class=\"n\">{}</td><td class=\"n\">{}{}</td><td>{}</td></tr>",
                    esc(p),
                    esc(metric_label(m)),
                    at(first),
                    at(last),
                    change,
                    f2(trend.and_then(|t| t.spearman)),
                    trend.map_or_else(String::new, |t| ci(t.spearman_ci_low, t.spearman_ci_high)),
                    if worse.is_empty() {
                        "–".to_string()
                    } else {
                        worse.join(", ")
                    }
                );
            }
        }
        out.push_str("</tbody></table></div>\n");
    }
    out.push_str("</section>\n");
}

/// The sets of `phenomenon` that system `col` does worse on than on their controls, as
/// the page's `table` marks them (its set lines, of the sets the manifest lists, in
/// table order): each as HTML, its bucket, its mark and the small-set ⚠.
fn worse_than_controls(
    table: &ScoreTable,
    views: &Views,
    phenomenon: &str,
    col: usize,
) -> Vec<String> {
    table
        .lines
        .iter()
        .filter(|l| l.key.is_set() && l.key.phenomenon == phenomenon)
        .filter_map(|l| {
            Some((
                views.sizes.set(phenomenon, l.key.bucket)?,
                l.cells.get(col).copied()??,
            ))
        })
        .filter(|(_, row)| !mark(row).is_empty())
        .map(|(set, row)| {
            format!(
                "{} <strong>{}</strong>{}",
                esc(&set.bucket),
                mark(row),
                small(set.sentences, row)
            )
        })
        .collect()
}

/// The small-set ⚠ of a set of `sentences` sentences whose score is `row`: the tables'
/// mark of a set of fewer than 100 sentences, and the same mark when the score rests on
/// fewer than 100 of what its metric counts (judged loci, contrastive items).
fn small(sentences: u64, row: &Row) -> &'static str {
    match small_mark(sentences) {
        "" if row.small_set => {
            "<abbr title=\"fewer than 100 judged loci or items: the score is noisy\">⚠</abbr>"
        }
        m => m,
    }
}
