//! The page's "Set sizes" section: a table per phenomenon and the set-size charts.

use std::fmt::Write as _;

use super::{anchor, esc, figure, small_mark};
use crate::format::sets::{SetEntry, SetKind};
use crate::report::chart::{Chart, Plot, Series, Spec};
use crate::report::scores::SMALL_SET;
use crate::report::views::Views;

/// The set-size charts, one per phenomenon, with their captions.
pub(super) fn size_figures(views: &Views) -> Vec<(Spec, String)> {
    let mut figs = Vec::new();
    for row in &views.sizes.phenomena {
        let (p, kind, ge, eq) = (row.phenomenon, row.kind, &row.ge, &row.eq);
        let mut series = vec![Series {
            label: "≥ d (geK)".into(),
            points: ge
                .iter()
                .map(|x| (f64::from(x.min_distance), x.sentences as f64))
                .collect(),
            dashed: false,
            hollow: false,
        }];
        if !eq.is_empty() {
            series.push(Series {
                label: "= d (eqK)".into(),
                points: eq
                    .iter()
                    .map(|x| (f64::from(x.min_distance), x.sentences as f64))
                    .collect(),
                dashed: true,
                hollow: true,
            });
        }
        let list = |v: &[&SetEntry]| {
            v.iter()
                .map(|x| format!("{} {}", x.bucket, x.sentences))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let desc = format!(
            "Sentences per set of {p}: {}{}.",
            list(ge),
            if eq.is_empty() {
                String::new()
            } else {
                format!("; {}", list(eq))
            }
        );
        let x_desc = if kind == SetKind::Reorder {
            "minimum alignment distance d"
        } else {
            "distance d (words between dependent and head)"
        };
        let caption =
            format!("{desc} Solid line, filled markers: geK; dashed line, hollow markers: eqK.");
        figs.push((
            Spec {
                id: format!("size-{}", anchor(p)),
                title: format!("Set sizes: {p}"),
                x_desc: x_desc.into(),
                y_desc: "sentences".into(),
                plot: Plot::Lines(series, desc),
            },
            caption,
        ));
    }
    figs
}

/// The set sizes: a table per phenomenon, then its charts (`figs`).
pub(super) fn sizes(out: &mut String, views: &Views, figs: &[(Chart, String)]) {
    out.push_str("<section id=\"sizes\"><h2>Set sizes</h2>\n<p>Sentences per set: <code>geK</code> holds the \
        lines with a pair at distance ≥ K, <code>eqK</code> those with a pair at distance exactly K; reorder \
        sets hold the pairs with an aligned word pair ≥ K positions apart. ⚠ marks sets of fewer than 100 \
        sentences, whose scores are noisy.</p>\n");
    for row in &views.sizes.phenomena {
        let (ge, eq) = (&row.ge, &row.eq);
        let _ = write!(
            out,
            "<h3>{}</h3><div class=\"wide\"><table><thead><tr><th>set</th>",
            esc(row.phenomenon)
        );
        for x in ge.iter().chain(eq.iter()) {
            let _ = write!(out, "<th class=\"n\">{}</th>", esc(&x.bucket));
        }
        out.push_str("</tr></thead><tbody><tr><th scope=\"row\">sentences</th>");
        for x in ge.iter().chain(eq.iter()) {
            let _ = write!(
                out,
                "<td class=\"n{}\">{}{}</td>",
                if x.sentences < SMALL_SET {
                    " small"
                } else {
                    ""
                },
                x.sentences,
                small_mark(x.sentences)
            );
        }
        out.push_str("</tr><tr><th scope=\"row\">pairs</th>");
        for x in ge.iter().chain(eq.iter()) {
            let _ = write!(out, "<td class=\"n\">{}</td>", x.pairs);
        }
        out.push_str("</tr><tr><th scope=\"row\">mean source words</th>");
        for x in ge.iter().chain(eq.iter()) {
            let _ = write!(out, "<td class=\"n\">{:.1}</td>", x.mean_source_words);
        }
        out.push_str("</tr></tbody></table></div>\n");
    }
    out.push_str("<div class=\"grid\">");
    for (c, caption) in figs {
        figure(out, c, caption);
    }
    out.push_str("</div>\n</section>\n");
}
