//! The report's tables built once ([`Views`]), what every renderer reads beside the
//! [`Report`].

use super::Report;
use crate::pipeline::detect::reorder::ReorderOptions;
use crate::view::distances::{measure_counts, pair_distances, MeasureCounts, PairDistances};
use crate::view::{ScoreView, Sizes};

/// The report's tables ([`crate::view`]), built once from its records for whichever format
/// renders them.
pub struct Views<'a> {
    /// The set sizes, a row per phenomenon.
    pub sizes: Sizes<'a>,
    /// The score and trend tables, when the sets are scored.
    pub scores: Option<ScoreView<'a>>,
    /// The lexical phenomena's pairs by distance.
    pub distances: Vec<PairDistances<'a>>,
    /// The corpus lines by each reordering measure.
    pub measures: Vec<MeasureCounts<'a>>,
}

impl<'a> Views<'a> {
    /// The tables of `report`.
    pub fn of(report: &'a Report) -> Self {
        let thresholds: Vec<u32> = report
            .manifest
            .reorder
            .as_ref()
            .map(|ro| ReorderOptions::from(&ro.options).thresholds())
            .unwrap_or_default();
        Views {
            sizes: Sizes::of(&report.manifest.sets),
            scores: report.scores.as_ref().map(ScoreView::of),
            distances: report.distances.iter().map(pair_distances).collect(),
            measures: report
                .measures
                .iter()
                .map(|m| measure_counts(m, &thresholds))
                .collect(),
        }
    }
}
