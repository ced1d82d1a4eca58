//! The report's charts, drawn by `plotters` into SVG: every chart has a title, a text
//! alternative listing its data (the page inserts both into the `<svg>` with `role="img"`),
//! axis labels, and tells its series apart by marker shape and line dash as well as colour
//! (Okabe–Ito colours, safe for colour-blind readers), so it reads in black and white.
//!
//! This module holds the chart frame ([`Spec`], [`Chart`], [`draw`]) and the SVG
//! primitives every chart kind shares (colours, markers, axis labels); each kind is drawn
//! by its own module.

mod bars;
mod line;
mod score;

use plotters::prelude::*;

use crate::error::{Error, Result};
pub use bars::{histogram, Bar};
pub use line::{lines, Series};
pub use score::{scores, y_range, Panel, ScorePoint};

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

fn colour(series: usize) -> RGBColor {
    COLOURS[series % COLOURS.len()]
}

fn marker(series: usize) -> Marker {
    MARKERS[series % MARKERS.len()]
}

fn draw_err<E: std::fmt::Display>(title: &str) -> impl Fn(E) -> Error + '_ {
    move |e| Error::Data(format!("drawing chart `{title}`: {e}"))
}

/// A marker element at `centre_px` (pixel coordinates).
fn marker_at<DB: DrawingBackend>(
    shape: Marker,
    centre_px: (i32, i32),
    style: ShapeStyle,
) -> DynElement<'static, DB, (i32, i32)> {
    match shape {
        Marker::Circle => Circle::new(centre_px, 4, style).into_dyn(),
        Marker::Triangle => TriangleMarker::new(centre_px, 5, style).into_dyn(),
        Marker::Square => Rectangle::new(
            [
                (centre_px.0 - 4, centre_px.1 - 4),
                (centre_px.0 + 4, centre_px.1 + 4),
            ],
            style,
        )
        .into_dyn(),
        Marker::Cross => Cross::new(centre_px, 4, style.stroke_width(2)).into_dyn(),
    }
}

fn int_label(value: &f64) -> String {
    if (value - value.round()).abs() < 1e-9 && *value >= 0.0 {
        format!("{:.0}", value)
    } else {
        String::new()
    }
}

/// A y-axis label: whole numbers without decimals.
fn y_label(value: &f64) -> String {
    if (value - value.round()).abs() < 1e-9 {
        format!("{value:.0}")
    } else {
        format!("{value:.1}")
    }
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
        let point = |min_distance: f64, score: f64| ScorePoint {
            min_distance,
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
