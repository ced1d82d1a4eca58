//! Histograms: one bar per bin, with dashed marks at chosen bins.

use std::fmt::Write as _;

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{colour, draw_err, y_label, Chart, FONT};
use crate::error::Result;

/// A histogram bar: a bin of a distance table ([`crate::view::distances`]).
pub use crate::view::distances::Bar;

/// A histogram: one bar per bin, labelled; `marks` are bins (by index) at which a dashed
/// vertical line with a label is drawn (e.g. bucket thresholds).
pub fn histogram(
    id: &str,
    title: &str,
    x_desc: &str,
    y_desc: &str,
    bars: &[Bar],
    marks: &[(usize, String)],
) -> Result<Chart> {
    let mut svg = String::new();
    let n = bars.len().max(1);
    let ymax = bars.iter().map(|b| b.count).max().unwrap_or(0).max(1) as f64 * 1.15;
    let every = n.div_ceil(20).max(1);
    {
        let root = SVGBackend::with_string(&mut svg, (520, 300)).into_drawing_area();
        let e = draw_err::<DrawingAreaErrorKind<std::io::Error>>(title);
        root.fill(&WHITE).map_err(&e)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, (FONT, 16))
            .margin(10)
            .x_label_area_size(40)
            .y_label_area_size(55)
            .build_cartesian_2d(-0.5..(n as f64 - 0.5), 0.0..ymax)
            .map_err(&e)?;
        let labels: Vec<String> = bars.iter().map(|b| b.label.clone()).collect();
        let fmt = move |x: &f64| every_nth_label(&labels, every, *x);
        chart
            .configure_mesh()
            .x_desc(x_desc)
            .y_desc(y_desc)
            .x_labels(n.min(60))
            .x_label_formatter(&fmt)
            .y_label_formatter(&y_label)
            .label_style((FONT, 13))
            .disable_x_mesh()
            .light_line_style(WHITE.mix(0.0))
            .axis_desc_style((FONT, 13))
            .draw()
            .map_err(&e)?;
        chart
            .draw_series(bars.iter().enumerate().map(|(i, b)| {
                let x = i as f64;
                Rectangle::new(
                    [(x - 0.4, 0.0), (x + 0.4, b.count as f64)],
                    colour(1).filled(),
                )
            }))
            .map_err(&e)?;
        for (i, label) in marks {
            let x = *i as f64 - 0.5;
            chart
                .draw_series(DashedLineSeries::new(
                    vec![(x, 0.0), (x, ymax * 0.93)],
                    5,
                    4,
                    BLACK.stroke_width(1),
                ))
                .map_err(&e)?;
            let style =
                TextStyle::from((FONT, 12).into_font()).pos(Pos::new(HPos::Left, VPos::Center));
            chart
                .draw_series(std::iter::once(Text::new(
                    label.clone(),
                    (x + 0.1, ymax * 0.96),
                    style,
                )))
                .map_err(&e)?;
        }
        root.present().map_err(&e)?;
    }
    Ok(Chart {
        id: id.to_string(),
        title: title.to_string(),
        svg,
        desc: describe(title, x_desc, y_desc, bars),
    })
}

/// The label of the bar at `x_value` when it is every `every`th bar or the last, else nothing.
fn every_nth_label(labels: &[String], every: usize, x_value: f64) -> String {
    let i = x_value.round();
    if (x_value - i).abs() > 1e-9 || i < 0.0 {
        return String::new();
    }
    let i = i as usize;
    if i.is_multiple_of(every) || i + 1 == labels.len() {
        labels.get(i).cloned().unwrap_or_default()
    } else {
        String::new()
    }
}

/// The chart in words, for screen readers: every bin and its count.
fn describe(title: &str, x_desc: &str, y_desc: &str, bars: &[Bar]) -> String {
    let mut desc = format!("{title}. {y_desc} by {x_desc}: ");
    for (i, b) in bars.iter().enumerate() {
        let _ = write!(
            desc,
            "{}{} {}",
            if i > 0 { ", " } else { "" },
            b.label,
            b.count
        );
    }
    desc.push('.');
    desc
}
