//! The report's charts, drawn by `plotters` into SVG: every chart has a title, a text
//! alternative listing its data (the page inserts both into the `<svg>` with `role="img"`),
//! axis labels, and tells its series apart by marker shape and line dash as well as colour
//! (Okabe–Ito colours, safe for colour-blind readers), so it reads in black and white.

use std::fmt::Write as _;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::error::{Error, Result};

/// An SVG chart ready to inline.
#[derive(Debug, Clone)]
pub struct Chart {
    /// Element id of the `<svg>` (its title and description have `-t` and `-d`).
    pub id: String,
    /// Title (also the SVG `<title>`).
    pub title: String,
    /// Text alternative (the SVG `<desc>`).
    pub desc: String,
    /// The `<svg>` element as `plotters` draws it.
    pub svg: String,
}

/// One chart to draw: its frame and what it plots. The page says every chart it wants
/// first, then [`draw`]s them all, then lays them out.
#[derive(Debug, Clone)]
pub struct Spec {
    /// Element id of the `<svg>`.
    pub id: String,
    /// Title.
    pub title: String,
    /// X axis label.
    pub x_desc: String,
    /// Y axis label.
    pub y_desc: String,
    /// What is plotted.
    pub plot: Plot,
}

/// What a chart plots.
#[derive(Debug, Clone)]
pub enum Plot {
    /// Lines against distance ([`lines`]), with their text alternative.
    Lines(Vec<Series>, String),
    /// Bars with marked bins ([`histogram`]; it writes its own text alternative).
    Histogram(Vec<Bar>, Vec<(usize, String)>),
    /// Scores against distance, one panel per system ([`scores`]), with their text
    /// alternative and the metric's largest possible score (`None`: unbounded).
    Scores(Vec<Panel>, String, Option<f64>),
}

/// Draws every chart, in order.
pub fn draw(specs: &[Spec]) -> Result<Vec<Chart>> {
    specs
        .iter()
        .map(|c| {
            let (id, title, x, y) = (&c.id, &c.title, &c.x_desc, &c.y_desc);
            match &c.plot {
                Plot::Lines(series, desc) => lines(id, title, x, y, series, desc),
                Plot::Histogram(bars, marks) => histogram(id, title, x, y, bars, marks),
                Plot::Scores(panels, desc, max) => scores(id, title, x, y, panels, desc, *max),
            }
        })
        .collect()
}

/// Okabe–Ito colours, one per series in order.
const COLOURS: [RGBColor; 6] = [
    RGBColor(0, 0, 0),
    RGBColor(0, 114, 178),
    RGBColor(213, 94, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(230, 159, 0),
];

const FONT: &str = "sans-serif";

/// Marker shapes, one per series in order (cycled with the colours).
#[derive(Debug, Clone, Copy)]
enum Marker {
    Circle,
    Triangle,
    Square,
    Cross,
}

const MARKERS: [Marker; 4] = [
    Marker::Circle,
    Marker::Triangle,
    Marker::Square,
    Marker::Cross,
];

fn colour(i: usize) -> RGBColor {
    COLOURS[i % COLOURS.len()]
}

fn marker(i: usize) -> Marker {
    MARKERS[i % MARKERS.len()]
}

fn draw_err<E: std::fmt::Display>(title: &str) -> impl Fn(E) -> Error + '_ {
    move |e| Error::Data(format!("drawing chart `{title}`: {e}"))
}

/// A marker element at `c` (pixel coordinates).
fn marker_at<DB: DrawingBackend>(
    m: Marker,
    c: (i32, i32),
    style: ShapeStyle,
) -> DynElement<'static, DB, (i32, i32)> {
    match m {
        Marker::Circle => Circle::new(c, 4, style).into_dyn(),
        Marker::Triangle => TriangleMarker::new(c, 5, style).into_dyn(),
        Marker::Square => {
            Rectangle::new([(c.0 - 4, c.1 - 4), (c.0 + 4, c.1 + 4)], style).into_dyn()
        }
        Marker::Cross => Cross::new(c, 4, style.stroke_width(2)).into_dyn(),
    }
}

fn int_label(x: &f64) -> String {
    if (x - x.round()).abs() < 1e-9 && *x >= 0.0 {
        format!("{:.0}", x)
    } else {
        String::new()
    }
}

/// A y-axis label: whole numbers without decimals.
fn y_label(y: &f64) -> String {
    if (y - y.round()).abs() < 1e-9 {
        format!("{y:.0}")
    } else {
        format!("{y:.1}")
    }
}

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
    let xs = series.iter().flat_map(|s| s.points.iter().map(|p| p.0));
    let ys: Vec<f64> = series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.1))
        .collect();
    let (x0, x1) = xs.fold((f64::MAX, f64::MIN), |(a, b), x| (a.min(x), b.max(x)));
    let (x0, x1) = if x0 > x1 { (0.0, 1.0) } else { (x0, x1) };
    let ymax = ys.iter().copied().fold(0.0_f64, f64::max);
    let ymax = if ymax <= 0.0 { 1.0 } else { ymax * 1.25 };
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

/// A histogram bar.
#[derive(Debug, Clone)]
pub struct Bar {
    /// Label on the x axis.
    pub label: String,
    /// Count.
    pub count: u64,
}

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
        let fmt = move |x: &f64| -> String {
            let i = x.round();
            if (x - i).abs() > 1e-9 || i < 0.0 {
                return String::new();
            }
            let i = i as usize;
            if i.is_multiple_of(every) || i + 1 == labels.len() {
                labels.get(i).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        };
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
    Ok(Chart {
        id: id.to_string(),
        title: title.to_string(),
        svg,
        desc,
    })
}

/// One point of a score panel: a set's score and its controls.
#[derive(Debug, Clone)]
pub struct ScorePoint {
    /// Minimum distance of the set.
    pub d: f64,
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
    let all = panels.iter().flat_map(|p| &p.points);
    let (mut lo, mut hi, mut x0, mut x1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for p in all {
        for v in [
            Some(p.score),
            p.control_mean,
            p.band.map(|b| b.0),
            p.band.map(|b| b.1),
        ]
        .into_iter()
        .flatten()
        {
            lo = lo.min(v);
            hi = hi.max(v);
        }
        x0 = x0.min(p.d);
        x1 = x1.max(p.d);
    }
    if lo > hi {
        (lo, hi) = (0.0, 1.0);
    }
    if x0 > x1 {
        (x0, x1) = (0.0, 1.0);
    }
    let pad = ((hi - lo) * 0.15).max(1.0);
    // Head room above the data for the legend, within the metric's range.
    let (ylo, room) = ((lo - pad).max(0.0), hi + pad + (hi - lo).max(2.0) * 0.55);
    let yhi = max.map_or(room, |m| room.min(m + pad * 0.3));
    let legend = if yhi < room {
        SeriesLabelPosition::LowerRight
    } else {
        SeriesLabelPosition::UpperRight
    };
    let step = (x1 - x0).max(1.0) / 10.0;
    let width = (panels.len().max(1) as u32 * 340).clamp(400, 1100);
    {
        let root = SVGBackend::with_string(&mut svg, (width, 320)).into_drawing_area();
        let e = draw_err::<DrawingAreaErrorKind<std::io::Error>>(title);
        root.fill(&WHITE).map_err(&e)?;
        let root = root.titled(title, (FONT, 16)).map_err(&e)?;
        let areas: Vec<DrawingArea<SVGBackend, Shift>> =
            root.split_evenly((1, panels.len().max(1)));
        for (panel, area) in panels.iter().zip(areas.iter()) {
            let mut chart = ChartBuilder::on(area)
                .caption(&panel.system, (FONT, 14))
                .margin(8)
                .x_label_area_size(38)
                .y_label_area_size(50)
                .build_cartesian_2d((x0 - step)..(x1 + step), ylo..yhi)
                .map_err(&e)?;
            chart
                .configure_mesh()
                .x_desc(x_desc)
                .y_desc(y_desc)
                .x_labels(12)
                .x_label_formatter(&int_label)
                .y_label_formatter(&y_label)
                .label_style((FONT, 13))
                .light_line_style(WHITE.mix(0.0))
                .axis_desc_style((FONT, 13))
                .draw()
                .map_err(&e)?;
            let band: Vec<(f64, f64, f64)> = panel
                .points
                .iter()
                .filter_map(|p| p.band.map(|(l, h)| (p.d, l, h)))
                .collect();
            if band.len() >= 2 {
                let mut poly: Vec<(f64, f64)> = band.iter().map(|b| (b.0, b.2)).collect();
                poly.extend(band.iter().rev().map(|b| (b.0, b.1)));
                chart
                    .draw_series(std::iter::once(Polygon::new(
                        poly,
                        RGBColor(150, 150, 150).mix(0.35).filled(),
                    )))
                    .map_err(&e)?
                    .label("controls: 95% range")
                    .legend(|(x, y)| {
                        Rectangle::new(
                            [(x, y - 5), (x + 16, y + 5)],
                            RGBColor(150, 150, 150).mix(0.35).filled(),
                        )
                    });
            } else {
                // A single point: the band as an error bar.
                chart
                    .draw_series(band.iter().map(|&(d, l, h)| {
                        PathElement::new(
                            vec![(d, l), (d, h)],
                            RGBColor(120, 120, 120).stroke_width(6),
                        )
                    }))
                    .map_err(&e)?
                    .label("controls: 95% range")
                    .legend(|(x, y)| {
                        Rectangle::new(
                            [(x, y - 5), (x + 16, y + 5)],
                            RGBColor(150, 150, 150).mix(0.35).filled(),
                        )
                    });
            }
            let means: Vec<(f64, f64)> = panel
                .points
                .iter()
                .filter_map(|p| p.control_mean.map(|m| (p.d, m)))
                .collect();
            let grey = RGBColor(90, 90, 90);
            chart
                .draw_series(DashedLineSeries::new(
                    means.clone(),
                    6,
                    4,
                    grey.stroke_width(2),
                ))
                .map_err(&e)?;
            chart
                .draw_series(means.iter().map(|&p| {
                    EmptyElement::at(p) + marker_at(Marker::Square, (0, 0), grey.stroke_width(2))
                }))
                .map_err(&e)?
                .label("controls: mean")
                .legend(move |(x, y)| {
                    EmptyElement::at((x + 8, y))
                        + marker_at(Marker::Square, (0, 0), grey.stroke_width(2))
                });
            let pts: Vec<(f64, f64)> = panel.points.iter().map(|p| (p.d, p.score)).collect();
            let c = colour(1);
            chart
                .draw_series(LineSeries::new(pts.clone(), c.stroke_width(2)))
                .map_err(&e)?;
            chart
                .draw_series(
                    pts.iter().map(|&p| {
                        EmptyElement::at(p) + marker_at(Marker::Circle, (0, 0), c.filled())
                    }),
                )
                .map_err(&e)?
                .label("set")
                .legend(move |(x, y)| {
                    EmptyElement::at((x + 8, y)) + marker_at(Marker::Circle, (0, 0), c.filled())
                });
            let style =
                TextStyle::from((FONT, 15).into_font()).pos(Pos::new(HPos::Center, VPos::Bottom));
            chart
                .draw_series(
                    panel.points.iter().filter(|p| !p.mark.is_empty()).map(|p| {
                        Text::new(p.mark.clone(), (p.d, p.score + pad * 0.25), style.clone())
                    }),
                )
                .map_err(&e)?;
            chart
                .configure_series_labels()
                .position(legend.clone())
                .background_style(WHITE.mix(0.85))
                .border_style(BLACK)
                .label_font((FONT, 13))
                .draw()
                .map_err(&e)?;
        }
        root.present().map_err(&e)?;
    }
    Ok(Chart {
        id: id.to_string(),
        title: title.to_string(),
        desc: desc.to_string(),
        svg,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn charts_carry_title_and_description() {
        let s = Series {
            label: "ge".into(),
            points: vec![(0.0, 10.0), (1.0, 5.0)],
            dashed: false,
            hollow: false,
        };
        let c = lines("c1", "Sizes <x>", "d", "sentences", &[s], "two & points").unwrap();
        assert!(c.svg.starts_with("<svg"), "{}", &c.svg[..80]);
        assert!(c.svg.trim_end().ends_with("</svg>"));
        assert_eq!(
            (c.id.as_str(), c.title.as_str(), c.desc.as_str()),
            ("c1", "Sizes <x>", "two & points")
        );
    }

    /// A system scoring 100 (and one scoring 0) does not stretch a BLEU axis past 100:
    /// the axis is bounded by the metric's range; without a bound it has head room.
    #[test]
    fn a_perfect_score_keeps_the_axis_within_the_metric() {
        let point = |d: f64, score: f64| ScorePoint {
            d,
            score,
            control_mean: Some(score),
            band: Some((score, score)),
            mark: String::new(),
        };
        let panels = vec![
            Panel {
                system: "reference".into(),
                points: vec![point(0.0, 100.0), point(1.0, 100.0), point(2.0, 100.0)],
            },
            Panel {
                system: "empty".into(),
                points: vec![point(0.0, 0.0), point(1.0, 0.0), point(2.0, 0.0)],
            },
        ];
        let labels = |svg: &str| -> Vec<u32> {
            svg.split("</text>")
                .filter_map(|t| t.rsplit('>').next())
                .filter_map(|t| t.trim().parse().ok())
                .collect()
        };
        let bounded = scores("s", "BLEU", "d", "BLEU", &panels, "", Some(100.0)).unwrap();
        let top = labels(&bounded.svg).into_iter().max().unwrap();
        assert_eq!(top, 100, "the top label is 100");
        let free = scores("s", "COMET", "d", "COMET", &panels, "", None).unwrap();
        let top = labels(&free.svg).into_iter().max().unwrap();
        assert!(top > 100, "unbounded metrics keep their head room: {top}");
    }

    #[test]
    fn histogram_describes_every_bar() {
        let bars = vec![
            Bar {
                label: "0".into(),
                count: 3,
            },
            Bar {
                label: ">0".into(),
                count: 1,
            },
        ];
        let c = histogram("h", "T", "distance", "pairs", &bars, &[(1, "ge1".into())]).unwrap();
        assert_eq!(c.desc, "T. pairs by distance: 0 3, >0 1.");
        assert!(
            c.svg.contains(">\nge1\n</text>"),
            "the threshold label is drawn"
        );
    }
}
