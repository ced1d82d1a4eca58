//! The page's "Distance distributions" section: the histograms of dependency distances
//! and of the reordering measures.

use super::{anchor, figure};
use crate::report::chart::{Chart, Plot, Spec};
use crate::report::views::Views;
use crate::report::Report;

/// The distance histograms (lexical pairs, then reordering measures) with their captions.
pub(super) fn distance_figures(report: &Report, views: &Views) -> Vec<(Spec, String)> {
    let mut figs = Vec::new();
    for d in &views.distances {
        figs.push((
            Spec {
                id: format!("dist-{}", anchor(d.phenomenon)),
                title: format!("Dependency distances: {}", d.phenomenon),
                x_desc: "distance (words between dependent and head)".into(),
                y_desc: "pairs".into(),
                plot: Plot::Histogram(d.bars.clone(), vec![(1, "ge1".into())]),
            },
            format!(
                "All {} {} pairs of the corpus (its ge0 set) by distance; the longest is {} words. \
                 The dashed line separates adjacent pairs (distance 0) from ge1, the paper's default challenge set.",
                d.pairs,
                d.phenomenon,
                d.longest
            ),
        ));
    }
    for meas in &views.measures {
        let marks: Vec<(usize, String)> = meas
            .thresholds
            .iter()
            .map(|&(bin, t)| (bin, crate::layout::bucket(false, t)))
            .collect();
        let caption = format!(
            "Every corpus line by its largest reordering ({} in {}){}; {} line(s) without a value \
                 (no link between words, or an empty line).",
            meas.name,
            report.measures_file.as_deref().unwrap_or_default(),
            if marks.is_empty() {
                ""
            } else {
                "; dashed lines: the reorder set thresholds"
            },
            meas.undefined
        );
        figs.push((
            Spec {
                id: format!("reorder-{}", anchor(meas.name)),
                title: format!("Reordering measure: {}", meas.name),
                x_desc: meas.name.to_string(),
                y_desc: "sentence pairs".into(),
                plot: Plot::Histogram(meas.bars.clone(), marks),
            },
            caption,
        ));
    }
    figs
}

/// The distance distributions: the charts `figs`.
pub(super) fn distances(out: &mut String, figs: &[(Chart, String)]) {
    out.push_str("<section id=\"distances\"><h2>Distance distributions</h2>\n");
    if figs.is_empty() {
        out.push_str("<p>No lexical phenomenon and no reordering sets in this run.</p>\n");
    }
    out.push_str("<div class=\"grid\">");
    for (c, cap) in figs {
        figure(out, c, cap);
    }
    out.push_str("</div>\n</section>\n");
}
