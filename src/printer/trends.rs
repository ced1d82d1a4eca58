//! The distance trend table of `score`'s output: per metric, phenomenon and system the
//! trend net of length (when the scores have one) first, then the raw score's Spearman and
//! Pearson, each `-` with its reason.

use crate::printer::grid::{Cell, Col, Grid, Legend};
use crate::score::{Scores, DEFAULT_CONFIDENCE};
use crate::view::ScoreView;

/// What the trend table is printed with: `--wide` (the intervals) and the decimals.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Shape {
    /// Whether the intervals are shown.
    pub wide: bool,
    /// Decimals of every number.
    pub decimals: usize,
}

fn escaped(text: &str) -> String {
    ldd_io::error::escape(text).into_owned()
}

/// The distance trends: per metric, phenomenon and system, the correlation of minimum
/// distance and score over the `ge` sets (with `--wide`, its interval), and the legend.
pub(crate) fn trend_table(scores: &Scores, view: &ScoreView, options: Shape) -> String {
    if view
        .trends
        .iter()
        .all(|t| t.spearman.is_none() && t.pearson.is_none())
    {
        return no_trend(view.trends);
    }
    let conf = scores.significance.confidence.unwrap_or(DEFAULT_CONFIDENCE);
    let level = format!("{}% CI", conf * 100.0);
    // The view's trend table (no join): whether any trend has a trend net of length.
    let mut net = false;
    for t in view.trends {
        net |= t.diff_spearman.is_some();
    }
    let mut g = Grid::default();
    for (h, right) in [
        ("metric", false),
        ("phenomenon", false),
        ("system", false),
        ("points", true),
    ] {
        g.cols.push(Col {
            head: h.into(),
            right,
            sep: " ",
        });
    }
    if net {
        g.cols.push(Col::right(NET, " "));
        if options.wide {
            g.cols.push(Col::right(&level, " "));
        }
    }
    g.cols.push(Col::right("spearman", " "));
    if options.wide {
        g.cols.push(Col::right(&level, " "));
    }
    g.cols.push(Col::right("pearson", " "));
    if options.wide {
        g.cols.push(Col::right(&level, " "));
    }
    for t in view.trends {
        g.body.push(trend_row(scores, view, t, options, net));
    }
    let mut l = Legend::default();
    if net {
        l.add(
            NET,
            "the trend net of length: Spearman of minimum distance and the set's score minus its \
             controls' mean (locus accuracy: Δpos) over the ge sets; read it first",
        );
    }
    l.add(
        "spearman, pearson",
        "correlation of minimum distance and the raw score over the phenomenon's ge sets \
         (context: length changes with distance too)",
    );
    if options.wide {
        l.add(
            &level,
            "bootstrap interval, the ge sets' lines resampled together",
        );
    }
    g.dashes(&mut l);
    format!("Distance trend over ge sets\n{}{}", g.render(), l.render())
}

/// The line that stands for the trend table when no trend has a correlation: how many
/// have fewer than two `ge` sets with a score, how many the same score at every distance.
fn no_trend(trends: &[crate::format::scores::Trend]) -> String {
    let few = trends.iter().filter(|t| t.points.len() < 2).count();
    let mut why = Vec::new();
    if few > 0 {
        why.push(format!("{few} with fewer than two ge sets with a score"));
    }
    if few < trends.len() {
        why.push(format!(
            "{} with the same score at every distance",
            trends.len() - few
        ));
    }
    format!("Distance trend over ge sets: none ({})\n", why.join(", "))
}

/// The header of the trend net of length.
const NET: &str = "net rho";

/// One trend's cells: metric, phenomenon, system, points, with `net` the trend net of
/// length (with `--wide` its interval), Spearman (its interval), Pearson (its interval);
/// each `-` with its reason.
fn trend_row(
    scores: &Scores,
    view: &ScoreView,
    trend: &crate::format::scores::Trend,
    options: Shape,
    net: bool,
) -> Vec<Cell> {
    let share = view.table(&trend.metric).is_some_and(|tab| {
        tab.lines
            .iter()
            .flat_map(|l| l.cells.iter().flatten())
            .any(|x| x.loci.is_some())
    });
    let undefined = if trend.points.len() < 2 {
        "fewer than two ge sets with a score"
    } else {
        "the same score at every distance: no correlation"
    };
    let no_ci = if share {
        "trends of accuracies have no interval (their items are not resampled)"
    } else if trend.spearman.is_none() {
        undefined
    } else {
        "no interval (--paired-bs-n 0, or no resample with a correlation)"
    };
    let d = options.decimals;
    let num = |v: Option<f64>| match v {
        Some(v) => Cell::new(format!("{v:.d$}")),
        None => Cell::dash("-", undefined),
    };
    let ci = |lo: Option<f64>, hi: Option<f64>| match (lo, hi) {
        (Some(a), Some(b)) => Cell::new(format!("[{a:.d$}, {b:.d$}]")),
        _ => Cell::dash("-", no_ci),
    };
    let mut row = vec![
        Cell::new(escaped(scores.label(&trend.metric))),
        Cell::new(escaped(&trend.phenomenon)),
        Cell::new(escaped(&trend.system)),
        Cell::new(trend.points.len().to_string()),
    ];
    if net {
        row.push(match trend.diff_spearman {
            Some(v) => Cell::new(format!("{v:.d$}")),
            None => Cell::dash(
                "-",
                "no trend net of length (no difference, or the same at every distance)",
            ),
        });
        if options.wide {
            row.push(
                match (trend.diff_spearman_ci_low, trend.diff_spearman_ci_high) {
                    (Some(a), Some(b)) => Cell::new(format!("[{a:.d$}, {b:.d$}]")),
                    _ => Cell::dash("-", "no interval of the trend net of length"),
                },
            );
        }
    }
    row.push(num(trend.spearman));
    if options.wide {
        row.push(ci(trend.spearman_ci_low, trend.spearman_ci_high));
    }
    row.push(num(trend.pearson));
    if options.wide {
        row.push(ci(trend.pearson_ci_low, trend.pearson_ci_high));
    }
    row
}
