//! The page's "Distance distributions" section: the histograms of dependency distances
//! and of the reordering measures.

use super::{anchor, figure};
use crate::detect::reorder::ReorderOptions;
use crate::report::chart::{Bar, Chart, Plot, Spec};
use crate::report::data::Measure;
use crate::report::Report;

/// Lexical distances beyond this are gathered in one `>N` bar.
const MAX_BAR_DISTANCE: usize = 30;

/// Bars for a reordering measure: one per integer value (the tail beyond 60 in one bar),
/// or 20 bins of width 0.05 over [0, 1] for fractional measures.
fn measure_bars(m: &Measure) -> Vec<Bar> {
    if m.integral {
        let max = m.counts.keys().last().map_or(0, |k| k / 100).clamp(0, 60);
        let mut bars: Vec<Bar> = (0..=max)
            .map(|d| Bar {
                label: d.to_string(),
                count: 0,
            })
            .collect();
        let mut tail = 0;
        for (&k, &n) in &m.counts {
            let d = k / 100;
            if d > max || d > 60 {
                tail += n;
            } else if d >= 0 {
                bars[d as usize].count += n;
            }
        }
        if tail > 0 {
            bars.push(Bar {
                label: ">60".into(),
                count: tail,
            });
        }
        bars
    } else {
        let mut bars: Vec<Bar> = (0..20)
            .map(|i| Bar {
                label: format!("{:.2}", i as f64 * 0.05),
                count: 0,
            })
            .collect();
        for (&k, &n) in &m.counts {
            let i = ((k as f64 / 100.0) / 0.05).floor().clamp(0.0, 19.0) as usize;
            bars[i].count += n;
        }
        bars
    }
}

/// The distance histograms (lexical pairs, then reordering measures) with their captions.
pub(super) fn distance_figures(r: &Report) -> Vec<(Spec, String)> {
    let mut figs = Vec::new();
    for d in &r.distances {
        let mut bars: Vec<Bar> = d
            .counts
            .iter()
            .take(MAX_BAR_DISTANCE + 1)
            .enumerate()
            .map(|(i, &n)| Bar {
                label: i.to_string(),
                count: n,
            })
            .collect();
        let tail: u64 = d.counts.iter().skip(MAX_BAR_DISTANCE + 1).sum();
        if tail > 0 {
            bars.push(Bar {
                label: format!(">{MAX_BAR_DISTANCE}"),
                count: tail,
            });
        }
        let longest = d.counts.len().saturating_sub(1);
        figs.push((
            Spec {
                id: format!("dist-{}", anchor(&d.phenomenon)),
                title: format!("Dependency distances: {}", d.phenomenon),
                x_desc: "distance (words between dependent and head)".into(),
                y_desc: "pairs".into(),
                plot: Plot::Histogram(bars, vec![(1, "ge1".into())]),
            },
            format!(
                "All {} {} pairs of the corpus (its ge0 set) by distance; the longest is {} words. \
                 The dashed line separates adjacent pairs (distance 0) from ge1, the paper's default challenge set.",
                d.total(),
                d.phenomenon,
                longest
            ),
        ));
    }
    let thresholds: Vec<u32> =
        r.m.reorder
            .as_ref()
            .map(|ro| ReorderOptions::from(&ro.options).thresholds())
            .unwrap_or_default();
    for meas in &r.measures {
        let bars = measure_bars(meas);
        let marks: Vec<(usize, String)> =
            if meas.integral && ["position", "distance"].contains(&meas.name.as_str()) {
                thresholds
                    .iter()
                    .filter(|&&t| (t as usize) < bars.len())
                    .map(|&t| (t as usize, crate::layout::bucket(false, t)))
                    .collect()
            } else {
                Vec::new()
            };
        let caption = format!(
            "Every corpus line by its largest reordering ({} in {}){}; {} line(s) without a value \
                 (no link between words, or an empty line).",
            meas.name,
            r.measures_file.as_deref().unwrap_or_default(),
            if marks.is_empty() {
                ""
            } else {
                "; dashed lines: the reorder set thresholds"
            },
            meas.undefined
        );
        figs.push((
            Spec {
                id: format!("reorder-{}", anchor(&meas.name)),
                title: format!("Reordering measure: {}", meas.name),
                x_desc: meas.name.clone(),
                y_desc: "sentence pairs".into(),
                plot: Plot::Histogram(bars, marks),
            },
            caption,
        ));
    }
    figs
}

/// The distance distributions: the charts `figs`.
pub(super) fn distances(s: &mut String, figs: &[(Chart, String)]) {
    s.push_str("<section id=\"distances\"><h2>Distance distributions</h2>\n");
    if figs.is_empty() {
        s.push_str("<p>No lexical phenomenon and no reordering sets in this run.</p>\n");
    }
    s.push_str("<div class=\"grid\">");
    for (c, cap) in figs {
        figure(s, c, cap);
    }
    s.push_str("</div>\n</section>\n");
}
