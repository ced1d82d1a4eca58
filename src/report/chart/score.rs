//! Score charts: score against distance, one panel per system, with the controls' mean
//! and band and the significance marks.

use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{colour, draw_err, int_label, marker_at, y_label, Chart, Marker, FONT};
use crate::error::{Error, Result};

/// One point of a score panel: a set's score and its controls.
#[derive(Debug, Clone)]
pub struct ScorePoint {
    /// Minimum distance of the set.
    pub min_distance: f64,
    /// The set's score.
    pub score: f64,
    /// The controls' mean.
    pub control_mean: Option<f64>,
    /// The controls' band (low, high).
    pub band: Option<(f64, f64)>,
    /// Significance mark drawn above the point (`*`, `**`, `†`, or empty).
    pub mark: String,
}

/// A system's panel in a score chart.
#[derive(Debug, Clone)]
pub struct Panel {
    /// System name.
    pub system: String,
    /// Points, by distance.
    pub points: Vec<ScorePoint>,
}

/// A panel's chart: distance against score.
type PanelChart<'a, 'b> =
    ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// The error of a drawing step, named by the chart's title.
type DrawError<'t> = &'t dyn Fn(DrawingAreaErrorKind<std::io::Error>) -> Error;

/// The axes shared by every panel: x and y ranges, the padding above a point where its
/// mark sits, and where the legend goes.
struct Axes {
    x: std::ops::Range<f64>,
    y: std::ops::Range<f64>,
    pad: f64,
    legend: SeriesLabelPosition,
}

/// The axes of the panels' data (scores, controls' means and bands; distances), with
/// head room above the data for the legend, never past `max`, the metric's largest
/// possible score (the legend then sits below the data when the data reach the top).
fn axes(panels: &[Panel], max: Option<f64>) -> Axes {
    let (mut lo, mut hi, mut x0, mut x1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for point in panels.iter().flat_map(|p| &p.points) {
        for value in [
            Some(point.score),
            point.control_mean,
            point.band.map(|b| b.0),
            point.band.map(|b| b.1),
        ]
        .into_iter()
        .flatten()
        {
            lo = lo.min(value);
            hi = hi.max(value);
        }
        x0 = x0.min(point.min_distance);
        x1 = x1.max(point.min_distance);
    }
    if lo > hi {
        (lo, hi) = (0.0, 1.0);
    }
    if x0 > x1 {
        (x0, x1) = (0.0, 1.0);
    }
    let pad = ((hi - lo) * 0.15).max(1.0);
    let (ylo, room) = ((lo - pad).max(0.0), hi + pad + (hi - lo).max(2.0) * 0.55);
    let yhi = max.map_or(room, |m| room.min(m + pad * 0.3));
    let legend = if yhi < room {
        SeriesLabelPosition::LowerRight
    } else {
        SeriesLabelPosition::UpperRight
    };
    let step = (x1 - x0).max(1.0) / 10.0;
    Axes {
        x: (x0 - step)..(x1 + step),
        y: ylo..yhi,
        pad,
        legend,
    }
}

/// The y axis the chart of `panels` is drawn with: scaled to the data (scores, controls'
/// means and bands) with head room for the legend, never past `max`; for the caption.
pub fn y_range(panels: &[Panel], max: Option<f64>) -> (f64, f64) {
    let y = axes(panels, max).y;
    (y.start, y.end)
}

/// The controls' band: a grey area, or an error bar for a single point.
fn draw_band<'a, 'b: 'a>(
    chart: &mut PanelChart<'a, 'b>,
    panel: &Panel,
    error: DrawError,
) -> Result<()> {
    let band: Vec<(f64, f64, f64)> = panel
        .points
        .iter()
        .filter_map(|p| p.band.map(|(l, h)| (p.min_distance, l, h)))
        .collect();
    let key = |(x, y): (i32, i32)| {
        Rectangle::new(
            [(x, y - 5), (x + 16, y + 5)],
            RGBColor(150, 150, 150).mix(0.35).filled(),
        )
    };
    if band.len() >= 2 {
        let mut poly: Vec<(f64, f64)> = band.iter().map(|b| (b.0, b.2)).collect();
        poly.extend(band.iter().rev().map(|b| (b.0, b.1)));
        chart
            .draw_series(std::iter::once(Polygon::new(
                poly,
                RGBColor(150, 150, 150).mix(0.35).filled(),
            )))
            .map_err(error)?
            .label("controls: 95% range")
            .legend(key);
    } else {
        // A single point: the band as an error bar.
        chart
            .draw_series(band.iter().map(|&(d, l, h)| {
                PathElement::new(
                    vec![(d, l), (d, h)],
                    RGBColor(120, 120, 120).stroke_width(6),
                )
            }))
            .map_err(error)?
            .label("controls: 95% range")
            .legend(key);
    }
    Ok(())
}

/// The controls' mean: a dashed grey line with hollow squares.
fn draw_control_means<'a, 'b: 'a>(
    chart: &mut PanelChart<'a, 'b>,
    panel: &Panel,
    error: DrawError,
) -> Result<()> {
    let means: Vec<(f64, f64)> = panel
        .points
        .iter()
        .filter_map(|p| p.control_mean.map(|m| (p.min_distance, m)))
        .collect();
    let grey = RGBColor(90, 90, 90);
    chart
        .draw_series(DashedLineSeries::new(
            means.clone(),
            6,
            4,
            grey.stroke_width(2),
        ))
        .map_err(error)?;
    chart
        .draw_series(means.iter().map(|&p| {
            EmptyElement::at(p) + marker_at(Marker::Square, (0, 0), grey.stroke_width(2))
        }))
        .map_err(error)?
        .label("controls: mean")
        .legend(move |(x, y)| {
            EmptyElement::at((x + 8, y)) + marker_at(Marker::Square, (0, 0), grey.stroke_width(2))
        });
    Ok(())
}

/// The set's scores: a solid line with filled circles, each significance mark above its
/// point.
fn draw_set<'a, 'b: 'a>(
    chart: &mut PanelChart<'a, 'b>,
    panel: &Panel,
    pad: f64,
    error: DrawError,
) -> Result<()> {
    let points: Vec<(f64, f64)> = panel
        .points
        .iter()
        .map(|p| (p.min_distance, p.score))
        .collect();
    let c = colour(1);
    chart
        .draw_series(LineSeries::new(points.clone(), c.stroke_width(2)))
        .map_err(error)?;
    chart
        .draw_series(
            points
                .iter()
                .map(|&p| EmptyElement::at(p) + marker_at(Marker::Circle, (0, 0), c.filled())),
        )
        .map_err(error)?
        .label("set")
        .legend(move |(x, y)| {
            EmptyElement::at((x + 8, y)) + marker_at(Marker::Circle, (0, 0), c.filled())
        });
    let style = TextStyle::from((FONT, 15).into_font()).pos(Pos::new(HPos::Center, VPos::Bottom));
    chart
        .draw_series(panel.points.iter().filter(|p| !p.mark.is_empty()).map(|p| {
            Text::new(
                p.mark.clone(),
                (p.min_distance, p.score + pad * 0.25),
                style.clone(),
            )
        }))
        .map_err(error)?;
    Ok(())
}

/// One system's panel: axes, band, controls' mean, the set, the legend.
fn draw_panel(
    area: &DrawingArea<SVGBackend, Shift>,
    panel: &Panel,
    descriptions: (&str, &str),
    axes: &Axes,
    error: DrawError,
) -> Result<()> {
    let mut chart = ChartBuilder::on(area)
        .caption(&panel.system, (FONT, 14))
        .margin(8)
        .x_label_area_size(38)
        .y_label_area_size(50)
        .build_cartesian_2d(axes.x.clone(), axes.y.clone())
        .map_err(error)?;
    chart
        .configure_mesh()
        .x_desc(descriptions.0)
        .y_desc(descriptions.1)
        .x_labels(12)
        .x_label_formatter(&int_label)
        .y_label_formatter(&y_label)
        .label_style((FONT, 13))
        .light_line_style(WHITE.mix(0.0))
        .axis_desc_style((FONT, 13))
        .draw()
        .map_err(error)?;
    draw_band(&mut chart, panel, error)?;
    draw_control_means(&mut chart, panel, error)?;
    draw_set(&mut chart, panel, axes.pad, error)?;
    chart
        .configure_series_labels()
        .position(axes.legend.clone())
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .label_font((FONT, 13))
        .draw()
        .map_err(error)?;
    Ok(())
}

/// Score against distance, one panel per system side by side on the same y axis: the
/// set's score (solid line, filled circles), the controls' mean (dashed line, hollow
/// squares) and the controls' band (grey area), with significance marks. The axis never
/// goes past `max`, the metric's largest possible score (the legend then sits below the
/// data when the data reach the top).
pub fn scores(
    id: &str,
    title: &str,
    x_desc: &str,
    y_desc: &str,
    panels: &[Panel],
    desc: &str,
    max: Option<f64>,
) -> Result<Chart> {
    let mut svg = String::new();
    let axes = axes(panels, max);
    let width = (panels.len().max(1) as u32 * 340).clamp(400, 1100);
    {
        let root = SVGBackend::with_string(&mut svg, (width, 320)).into_drawing_area();
        let error = draw_err::<DrawingAreaErrorKind<std::io::Error>>(title);
        root.fill(&WHITE).map_err(&error)?;
        let root = root.titled(title, (FONT, 16)).map_err(&error)?;
        let areas: Vec<DrawingArea<SVGBackend, Shift>> =
            root.split_evenly((1, panels.len().max(1)));
        for (panel, area) in panels.iter().zip(areas.iter()) {
            draw_panel(area, panel, (x_desc, y_desc), &axes, &error)?;
        }
        root.present().map_err(&error)?;
    }
    Ok(Chart {
        id: id.to_string(),
        title: title.to_string(),
        desc: desc.to_string(),
        svg,
    })
}
