//! The distance tables: the pairs of each lexical phenomenon by dependency distance, and
//! the corpus lines by each reordering measure, binned for a histogram.

use crate::format::manifest::Distances;
use crate::format::reorder::Measure;

/// Lexical distances beyond this are gathered in one `>N` bin.
pub const MAX_BAR_DISTANCE: usize = 30;

/// Integral reordering measures beyond this are gathered in one `>N` bin.
const MAX_MEASURE_BAR: i64 = 60;

/// One bin of a distance table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bar {
    /// The bin's label (a distance, `>30`, or a measure's lower bound such as `0.35`).
    pub label: String,
    /// Pairs or lines in the bin.
    pub count: u64,
}

/// A lexical phenomenon's pairs by dependency distance.
#[derive(Debug, Clone)]
pub struct PairDistances<'a> {
    /// The phenomenon.
    pub phenomenon: &'a str,
    /// One bin per distance up to [`MAX_BAR_DISTANCE`], the rest in one `>N` bin.
    pub bars: Vec<Bar>,
    /// All its pairs.
    pub pairs: u64,
    /// The longest distance of a pair.
    pub longest: usize,
}

/// The table of a phenomenon's recorded distances.
pub fn pair_distances(distances: &Distances) -> PairDistances<'_> {
    PairDistances {
        phenomenon: &distances.phenomenon,
        bars: lexical(distances),
        pairs: distances.total(),
        longest: distances.counts.len().saturating_sub(1),
    }
}

/// The corpus lines by one reordering measure (a line's largest reordering).
#[derive(Debug, Clone)]
pub struct MeasureCounts<'a> {
    /// The measure (`position`, `crossing`, `kendall`, `fuzzy`; `distance` in older runs).
    pub name: &'a str,
    /// The bins: one per integer value (the tail beyond 60 in one bin), or 20 of width 0.05
    /// over [0, 1] for fractional measures.
    pub bars: Vec<Bar>,
    /// The reorder sets' thresholds K on this measure's axis, as (bin, K): the position
    /// measures' integral bins only.
    pub thresholds: Vec<(usize, u32)>,
    /// Lines without a value (no link between words, or an empty line).
    pub undefined: u64,
}

/// The table of a reordering measure, with the reorder sets' `thresholds` marked where the
/// measure is the one they are taken on (`position`, or older runs' `distance`).
pub fn measure_counts<'a>(reorder_measure: &'a Measure, thresholds: &[u32]) -> MeasureCounts<'a> {
    let bars = measure(reorder_measure);
    let marked = reorder_measure.integral
        && ["position", "distance"].contains(&reorder_measure.name.as_str());
    let thresholds = if marked {
        thresholds
            .iter()
            .filter(|&&t| (t as usize) < bars.len())
            .map(|&t| (t as usize, t))
            .collect()
    } else {
        Vec::new()
    };
    MeasureCounts {
        name: &reorder_measure.name,
        bars,
        thresholds,
        undefined: reorder_measure.undefined,
    }
}

/// A lexical phenomenon's pairs by distance: one bin per distance up to
/// [`MAX_BAR_DISTANCE`], the rest in one `>N` bin.
fn lexical(distances: &Distances) -> Vec<Bar> {
    let mut bars: Vec<Bar> = distances
        .counts
        .iter()
        .take(MAX_BAR_DISTANCE + 1)
        .enumerate()
        .map(|(i, &n)| Bar {
            label: i.to_string(),
            count: n,
        })
        .collect();
    let tail: u64 = distances.counts.iter().skip(MAX_BAR_DISTANCE + 1).sum();
    if tail > 0 {
        bars.push(Bar {
            label: format!(">{MAX_BAR_DISTANCE}"),
            count: tail,
        });
    }
    bars
}

/// A reordering measure's lines: one bin per integer value (the tail beyond 60 in one
/// bin), or 20 bins of width 0.05 over [0, 1] for fractional measures.
fn measure(measure: &Measure) -> Vec<Bar> {
    if measure.integral {
        let max = measure
            .counts
            .keys()
            .last()
            .map_or(0, |k| k / 100)
            .clamp(0, MAX_MEASURE_BAR);
        let mut bars: Vec<Bar> = (0..=max)
            .map(|d| Bar {
                label: d.to_string(),
                count: 0,
            })
            .collect();
        let mut tail = 0;
        for (&k, &n) in &measure.counts {
            let d = k / 100;
            if d > max || d > MAX_MEASURE_BAR {
                tail += n;
            } else if d >= 0 {
                bars[d as usize].count += n;
            }
        }
        if tail > 0 {
            bars.push(Bar {
                label: format!(">{MAX_MEASURE_BAR}"),
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
        for (&k, &n) in &measure.counts {
            let i = ((k as f64 / 100.0) / 0.05).floor().clamp(0.0, 19.0) as usize;
            bars[i].count += n;
        }
        bars
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    /// Distances 0..=32: bins 0..=30 as they are, 31 and 32 in `>30`.
    #[test]
    fn lexical_bins_gather_the_tail() {
        let d = Distances {
            phenomenon: "p".into(),
            counts: (0..=32).map(|i| i as u64 + 1).collect(),
        };
        let bars = lexical(&d);
        assert_eq!(bars.len(), 32);
        assert_eq!(
            bars[30],
            Bar {
                label: "30".into(),
                count: 31
            }
        );
        assert_eq!(
            bars[31],
            Bar {
                label: ">30".into(),
                count: 32 + 33
            }
        );
        assert_eq!(bars.iter().map(|b| b.count).sum::<u64>(), d.total());
    }

    /// Integral values bin by integer, beyond 60 in one bin; fractions in 0.05 steps (0.37
    /// in the bin of 0.35; a value on a bin's edge may fall in the bin below, as it did
    /// before this table had its own module).
    #[test]
    fn measures_bin_by_value() {
        let m = Measure {
            name: "position".into(),
            counts: BTreeMap::from([(0, 2), (300, 1), (6100, 4)]),
            integral: true,
            undefined: 0,
        };
        let bars = measure(&m);
        assert_eq!(bars.len(), 62);
        assert_eq!((bars[0].count, bars[3].count), (2, 1));
        assert_eq!(
            bars[61],
            Bar {
                label: ">60".into(),
                count: 4
            }
        );
        let f = Measure {
            name: "kendall".into(),
            counts: BTreeMap::from([(4, 1), (37, 2), (100, 5)]),
            integral: false,
            undefined: 0,
        };
        let bars = measure(&f);
        assert_eq!(bars.len(), 20);
        assert_eq!(bars[0].count, 1);
        assert_eq!(
            bars[7],
            Bar {
                label: "0.35".into(),
                count: 2
            }
        );
        assert_eq!(bars[19].count, 5);
    }
}
