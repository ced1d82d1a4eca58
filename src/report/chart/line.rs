//! Line charts: counts or scores against distance, one series per line.

use plotters::prelude::*;

use super::{colour, draw_err, int_label, marker, marker_at, y_label, Chart, FONT};
use crate::error::Result;

/// A line series of a line chart.
#[derive(Debug, Clone)]
pub struct Series {
    /// Legend label.
    pub label: String,
    /// Points `(x, y)`.
    pub points: Vec<(f64, f64)>,
    /// Dashed line (else solid).
    pub dashed: bool,
    /// Hollow markers (else filled).
    pub hollow: bool,
}

/// The x range of every point of `series` ((0, 1) when there is none) and the top of the
/// y axis (a quarter above the largest value; 1 when none is positive).
fn extent(series: &[Series]) -> ((f64, f64), f64) {
    let xs = series.iter().flat_map(|s| s.points.iter().map(|p| p.0));
    let (x0, x1) = xs.fold((f64::MAX, f64::MIN), |(a, b), x| (a.min(x), b.max(x)));
    let (x0, x1) = if x0 > x1 { (0.0, 1.0) } else { (x0, x1) };
    let ys = series.iter().flat_map(|s| s.points.iter().map(|p| p.1));
    let ymax = ys.fold(0.0_f64, f64::max);
    let ymax = if ymax <= 0.0 { 1.0 } else { ymax * 1.25 };
    ((x0, x1), ymax)
}

/// A line chart of counts or scores against distance, one series per line.
pub fn lines(
    id: &str,
    title: &str,
    x_desc: &str,
    y_desc: &str,
    series: &[Series],
    desc: &str,
) -> Result<Chart> {
    let mut svg = String::new();
    let ((x0, x1), ymax) = extent(series);
    {
        let root = SVGBackend::with_string(&mut svg, (520, 300)).into_drawing_area();
        let e = draw_err::<DrawingAreaErrorKind<std::io::Error>>(title);
        root.fill(&WHITE).map_err(&e)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, (FONT, 16))
            .margin(10)
            .x_label_area_size(40)
            .y_label_area_size(55)
            .build_cartesian_2d((x0 - 0.5)..(x1 + 0.5), 0.0..ymax)
            .map_err(&e)?;
        chart
            .configure_mesh()
            .x_desc(x_desc)
            .y_desc(y_desc)
            .x_labels(((x1 - x0) as usize + 2).min(25))
            .x_label_formatter(&int_label)
            .y_label_formatter(&y_label)
            .label_style((FONT, 13))
            .light_line_style(WHITE.mix(0.0))
            .axis_desc_style((FONT, 13))
            .draw()
            .map_err(&e)?;
        for (i, s) in series.iter().enumerate() {
            let c = colour(i);
            let line = c.stroke_width(2);
            let pts = s.points.clone();
            if s.dashed {
                chart
                    .draw_series(DashedLineSeries::new(pts.clone(), 6, 4, line))
                    .map_err(&e)?;
            } else {
                chart
                    .draw_series(LineSeries::new(pts.clone(), line))
                    .map_err(&e)?;
            }
            let mk = marker(i);
            let style = if s.hollow {
                c.stroke_width(2)
            } else {
                c.filled()
            };
            chart
                .draw_series(
                    pts.iter()
                        .map(|&p| EmptyElement::at(p) + marker_at(mk, (0, 0), style)),
                )
                .map_err(&e)?
                .label(s.label.clone())
                .legend(move |(x, y)| EmptyElement::at((x + 8, y)) + marker_at(mk, (0, 0), style));
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .label_font((FONT, 13))
            .draw()
            .map_err(&e)?;
        root.present().map_err(&e)?;
    }
    Ok(Chart {
        id: id.to_string(),
        title: title.to_string(),
        desc: desc.to_string(),
        svg,
    })
}
