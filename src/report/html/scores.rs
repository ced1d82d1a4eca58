//! The page's "Scores" section: the whole corpus's scores, per metric the score charts
//! and the set-vs-controls table, then the distance trends.

use std::fmt::Write as _;

use super::{anchor, ci, esc, f2, figure, p3, small_mark};
use crate::format::sets::SetKind;
use crate::report::chart::{y_range, Chart, Panel, Plot, ScorePoint, Spec};
use crate::report::scores::{
    control_q, mark, metric_label, metric_max, paired_mark, Row, ALL_CONTROLS, ALPHA, CONTROLS,
    PAIRED, SMALL_SET,
};
use crate::report::views::Views;
use crate::report::Report;
use crate::view::{ScoreTable, ScoreView};

/// The quantile at `probability` of sorted values (linear interpolation between order
/// statistics).
fn quantile(sorted: &[f64], probability: f64) -> Option<f64> {
    if sorted.is_empty() {
        return None;
    }
    let pos = probability * (sorted.len() - 1) as f64;
    let (i, frac) = (pos.floor() as usize, pos - pos.floor());
    let next = sorted.get(i + 1).copied().unwrap_or(sorted[i]);
    Some(sorted[i] + (next - sorted[i]) * frac)
}

/// The controls' band of a row: the 2.5% and 97.5% quantiles of the control scores (at
/// least two controls).
pub fn band(row: &Row) -> Option<(f64, f64)> {
    if row.control_scores.len() < 2 {
        return None;
    }
    let mut v = row.control_scores.clone();
    v.sort_by(f64::total_cmp);
    Some((quantile(&v, 0.025)?, quantile(&v, 0.975)?))
}

/// A score chart in words, for screen readers: every system's points.
fn describe_panels(label: &str, phenomenon: &str, panels: &[Panel]) -> String {
    let mut desc =
        format!("{label} against minimum distance on the {phenomenon} sets (ge buckets). ");
    for panel in panels {
        let _ = write!(desc, "{}: ", panel.system);
        let pts: Vec<String> = panel
            .points
            .iter()
            .map(|q| {
                format!(
                    "d {} set {:.2}{} controls {}",
                    q.min_distance,
                    q.score,
                    q.mark,
                    q.control_mean
                        .map_or_else(|| "–".into(), |c| format!("{c:.2}"))
                )
            })
            .collect();
        let _ = write!(desc, "{}. ", pts.join("; "));
    }
    desc
}

/// The score charts: for each metric of the scores, one chart per phenomenon with scores,
/// with its caption.
pub(super) fn score_figures(views: &Views) -> Vec<Vec<(Spec, String)>> {
    let Some(sc) = &views.scores else {
        return Vec::new();
    };
    let mut figs = Vec::new();
    for (mi, table) in sc.tables.iter().enumerate() {
        let m = table.metric;
        let label = metric_label(m);
        let mut metric = Vec::new();
        for size in &views.sizes.phenomena {
            let (p, kind) = (size.phenomenon, size.kind);
            let panels: Vec<Panel> = sc
                .systems
                .iter()
                .enumerate()
                .map(|(col, sys)| Panel {
                    system: sys.to_string(),
                    points: size
                        .ge
                        .iter()
                        .filter_map(|set| table.set(p, &set.bucket)?.cells[col])
                        .filter_map(|row| {
                            Some(ScorePoint {
                                min_distance: f64::from(row.min_distance?),
                                score: row.score?,
                                control_mean: row.control_mean,
                                band: band(row),
                                mark: mark(row).to_string(),
                            })
                        })
                        .collect(),
                })
                .collect();
            if panels.iter().all(|p| p.points.is_empty()) {
                continue;
            }
            let desc = describe_panels(label, p, &panels);
            let x_desc = if kind == SetKind::Reorder {
                "minimum alignment distance d"
            } else {
                "minimum distance d"
            };
            let (lo, hi) = y_range(&panels, metric_max(m));
            let caption = format!(
                "{label} of each system on the {p} sets against their minimum distance (the paper's Table 5 as a figure), \
                 with the length-matched controls' mean (dashed) and 95% band (grey). The y axis is scaled to the \
                 data: {lo:.1} to {hi:.1}{}.",
                if m == crate::score::locus::KEY {
                    "; locus accuracy has no controls: its baseline is the within-sentence comparison in the table below"
                } else {
                    ""
                }
            );
            metric.push((
                Spec {
                    id: format!("score-{mi}-{}", anchor(p)),
                    title: format!("{label} vs distance: {p}"),
                    x_desc: x_desc.into(),
                    y_desc: label.into(),
                    plot: Plot::Scores(panels, desc.trim_end().to_string(), metric_max(m)),
                },
                caption,
            ));
        }
        figs.push(metric);
    }
    figs
}

/// The scores: the whole corpus's, then per metric its charts (`figs`, from
/// [`score_figures`]) and set table, then the trends.
pub(super) fn scores(
    out: &mut String,
    report: &Report,
    views: &Views,
    figs: &[Vec<(Chart, String)>],
) {
    out.push_str("<section id=\"scores\"><h2>Scores</h2>\n");
    let Some(sc) = &views.scores else {
        let _ = writeln!(
            out,
            "<p class=\"note\">These sets are not scored yet. Translate the whole corpus (<code>{}</code>) \
             with each system, then run <code>ldd-sets score --sets {} --hyp SYSTEM.{}</code> and this report \
             again.</p>\n</section>",
            esc(&report.manifest.inputs.source.path.display().to_string()),
            esc(&ldd_io::shell::path(&report.dir)),
            esc(report.manifest.languages.target())
        );
        return;
    };
    corpus_table(out, sc);
    small_sets_note(out, views);
    let _ = writeln!(
        out,
        "<p>Marks, one meaning each: <strong>{PAIRED}</strong> — differs from the first system (the run's \
         paired test; McNemar's exact test for locus accuracy; p &lt; {ALPHA}, as sacreBLEU marks it); \
         <strong>{CONTROLS}</strong> — lower on the set than on its length-matched controls at a \
         Benjamini–Hochberg q &lt; {ALPHA} over the system's sets of the metric (the q shown; scores written \
         before q-values: the unadjusted one-sided p, said so) — the controls match length, not the \
         sentences' other properties; <strong>&lt;</strong> — locus words less often right than comparable \
         words of the same sentences (q &lt; {ALPHA}, locus accuracy); <strong>{ALL_CONTROLS}</strong> (scores \
         without p-values) — every control scored higher than the set. Band: the middle 95% of the control \
         scores; dashed line: their mean.</p>"
    );
    let signatures = report.scores.as_ref();
    for (mi, t) in sc.tables.iter().enumerate() {
        let m = t.metric;
        let label = metric_label(m);
        let _ = writeln!(out, "<h3 id=\"metric-{}\">{}</h3>", anchor(m), esc(label));
        if let Some(sig) = signatures.and_then(|x| x.signature(m)) {
            let _ = writeln!(out, "<p>Signature: <code>{}</code></p>", esc(sig));
        }
        out.push_str("<div class=\"grid\">");
        for (c, caption) in figs.get(mi).into_iter().flatten() {
            figure(out, c, caption);
        }
        out.push_str("</div>\n");
        if m == crate::score::locus::KEY {
            super::within::within_table(out, views, sc, t);
        } else {
            set_table(out, views, sc, t);
        }
    }
    trend_table(out, sc);
    out.push_str("</section>\n");
}

/// The whole corpus's scores: per system, each metric with its interval and its paired
/// p-value against the first system (the baseline).
fn corpus_table(out: &mut String, sc: &ScoreView) {
    out.push_str("<h3>Whole corpus</h3><div class=\"wide\"><table><thead><tr><th>system</th>");
    for t in &sc.tables {
        let _ = write!(
            out,
            "<th class=\"n\">{}</th><th class=\"n\">p vs baseline</th>",
            esc(metric_label(t.metric))
        );
    }
    out.push_str("</tr></thead><tbody>");
    for (i, sys) in sc.systems.iter().enumerate() {
        let _ = write!(out, "<tr><th scope=\"row\">{}</th>", esc(sys));
        for t in &sc.tables {
            let row = t.corpus().and_then(|l| l.cells[i]);
            let _ = write!(
                out,
                "<td class=\"n\">{}{}</td><td class=\"n\">{}</td>",
                f2(row.and_then(|x| x.score)),
                row.map_or_else(String::new, |x| ci(x.ci_low, x.ci_high)),
                if i == 0 && sc.systems.len() > 1 {
                    "baseline".to_string()
                } else {
                    p3(row.and_then(|x| x.p_value))
                }
            );
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table></div>\n");
}

/// The note on the sets too small for their scores to be steady, when there are any.
fn small_sets_note(out: &mut String, views: &Views) {
    let small: Vec<String> = views
        .sizes
        .sets()
        .filter(|x| x.sentences > 0 && x.sentences < SMALL_SET)
        .map(|x| format!("{}/{} ({})", x.phenomenon, x.bucket, x.sentences))
        .collect();
    if !small.is_empty() {
        let _ = writeln!(
            out,
            "<p class=\"note\" role=\"note\">⚠ Small sets: {} of {} sets have fewer than {SMALL_SET} sentences, so \
             their scores vary a lot with the sample: {}.</p>",
            small.len(),
            views.sizes.sets().count(),
            esc(&small.join(", "))
        );
    }
}

fn set_table(out: &mut String, views: &Views, sc: &ScoreView, table: &ScoreTable) {
    let label = metric_label(table.metric);
    let _ = write!(
        out,
        "<details open><summary>{} on every set, against its controls</summary><div class=\"wide\"><table>\
         <caption>{}: set score [CI], controls mean ± sd, Δ = set − controls [CI], BH q (or, in scores \
         without q-values, the unadjusted one-sided p, marked p; or rank: controls scoring higher / controls), mark</caption><thead><tr><th>set</th><th class=\"n\">n</th>",
        esc(label),
        esc(label)
    );
    for sys in &sc.systems {
        let _ = write!(
            out,
            "<th class=\"n\">{n}</th><th class=\"n\">controls</th><th class=\"n\">Δ</th><th class=\"n\">q / rank</th>",
            n = esc(sys)
        );
    }
    out.push_str("</tr></thead><tbody>");
    for line in table.lines.iter().filter(|l| l.key.is_set()) {
        let Some(set) = views.sizes.set(line.key.phenomenon, line.key.bucket) else {
            continue; // scores of a set the manifest does not list are not shown
        };
        let rows = &line.cells;
        if rows.iter().all(Option::is_none) {
            continue;
        }
        let _ = write!(
            out,
            "<tr><th scope=\"row\">{}/{}</th><td class=\"n\">{}{}</td>",
            esc(&set.phenomenon),
            esc(&set.bucket),
            set.sentences,
            small_mark(set.sentences)
        );
        for row in rows.iter().copied() {
            match row {
                None => out.push_str("<td>–</td><td>–</td><td>–</td><td>–</td>"),
                Some(x) => {
                    let ctl = match (x.control_mean, x.control_sd) {
                        (Some(mn), Some(sd)) => format!("{mn:.2} ± {sd:.2}"),
                        (Some(mn), None) => format!("{mn:.2}"),
                        _ => "–".into(),
                    };
                    let p = match (control_q(x), x.rank) {
                        (Some((q, true)), _) => p3(Some(q)),
                        (Some((p, false)), _) => format!("p {}", p3(Some(p))),
                        (None, Some(k)) => format!("{k}/{}", x.controls),
                        _ => "–".into(),
                    };
                    let _ = write!(
                        out,
                        "<td class=\"n\">{}{} <strong>{}</strong></td><td class=\"n\">{}</td><td class=\"n\">{}{}</td><td class=\"n\">{} <strong>{}</strong></td>",
                        f2(x.score),
                        ci(x.ci_low, x.ci_high),
                        paired_mark(x),
                        ctl,
                        x.diff().map_or_else(|| "–".into(), |d| format!("{d:+.2}")),
                        ci(x.control_diff_ci_low, x.control_diff_ci_high),
                        p,
                        mark(x)
                    );
                }
            }
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table></div></details>\n");
}

fn trend_table(out: &mut String, sc: &ScoreView) {
    if sc.trends.is_empty() {
        return;
    }
    out.push_str("<h3>Distance trends</h3><p>Correlation of the minimum distance of the ge sets with, first, the \
        set's score minus its length-matched controls' mean (for locus accuracy: the locus words' accuracy minus the \
        comparable words') — the trend net of length, negative when the system does worse as dependencies get longer \
        for more than their sentences' length — then with the raw score, as context (length grows with distance \
        too).</p><div class=\"wide\"><table><thead><tr>\
        <th>metric</th><th>phenomenon</th><th>system</th><th class=\"n\">points</th><th class=\"n\">ρ net of length [CI] p</th>\
        <th class=\"n\">Spearman ρ [CI]</th><th class=\"n\">Pearson r [CI]</th></tr></thead><tbody>");
    for t in sc.trends {
        let _ = write!(
            out,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}{}{}</td><td class=\"n\">{}{}</td><td class=\"n\">{}{}</td></tr>",
            esc(metric_label(&t.metric)),
            esc(&t.phenomenon),
            esc(&t.system),
            t.points.len(),
            f2(t.diff_spearman),
            ci(t.diff_spearman_ci_low, t.diff_spearman_ci_high),
            t.diff_spearman_p
                .map_or_else(String::new, |p| format!(" p {}", p3(Some(p)))),
            f2(t.spearman),
            ci(t.spearman_ci_low, t.spearman_ci_high),
            f2(t.pearson),
            ci(t.pearson_ci_low, t.pearson_ci_high)
        );
    }
    out.push_str("</tbody></table></div>\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_interpolate() {
        let v = [1.0, 2.0, 3.0, 4.0, 5.0];
        assert_eq!(quantile(&v, 0.0), Some(1.0));
        assert_eq!(quantile(&v, 0.5), Some(3.0));
        assert_eq!(quantile(&v, 1.0), Some(5.0));
        assert!((quantile(&v, 0.025).unwrap() - 1.1).abs() < 1e-12);
        assert_eq!(quantile(&[], 0.5), None);
    }
}
