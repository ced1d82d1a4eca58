//! The judged loci of `scores.loci.tsv` as the report groups them: one item per locus,
//! one row per system in the order of scores.json's systems. [`super::inputs`] reads the
//! file; this checks and groups its rows.

use std::path::Path;

use super::data::LocusItem;
use super::scores::Scores;
use crate::error::{Error, Result};
use crate::format::judged::Judged;

/// The systems scored with locus accuracy, in order: every system of one `score` run,
/// and of merged runs those with a locus row.
pub(super) fn locus_systems(scores: &Scores) -> Vec<&str> {
    scores
        .systems
        .iter()
        .map(|system| system.name.as_str())
        .filter(|name| {
            scores
                .rows
                .iter()
                .any(|row| row.system == *name && row.metric == crate::score::locus::KEY)
        })
        .collect()
}

/// What makes a row's locus: phenomenon, line, dependent and head.
fn locus_key(row: &Judged) -> (&str, u64, u32, Option<u32>) {
    (
        row.phenomenon.as_str(),
        row.id,
        row.dep.id,
        row.head.as_ref().map(|h| h.id),
    )
}

/// Whether two rows judge the same locus.
fn same_locus(first: &Judged, second: &Judged) -> bool {
    locus_key(first) == locus_key(second)
}

/// The rows of `scores.loci.tsv` grouped per locus, one row per system in the systems'
/// order, refused past `max_rows`.
pub(super) struct LocusGroups<'a> {
    pub(super) path: &'a Path,
    pub(super) systems: &'a [&'a str],
    /// The sets' loci, for the error past `max_rows`.
    pub(super) loci: u64,
    pub(super) max_rows: u64,
    pub(super) rows: u64,
    pub(super) items: Vec<LocusItem>,
}

impl LocusGroups<'_> {
    /// Adds the row at `line`: the system the systems' order expects, of the locus of the
    /// rows before it until every system has its row.
    pub(super) fn add(&mut self, row: Judged, line: u64) -> Result<()> {
        let (path, systems) = (self.path, self.systems);
        self.rows += 1;
        if self.rows > self.max_rows {
            return Err(Error::input(
                path,
                line,
                format!(
                    "more rows than the sets have loci ({}) times systems ({})",
                    self.loci,
                    systems.len()
                ),
            ));
        }
        let k = self.items.last().map_or(systems.len(), |i| i.rows.len());
        let expected = systems.get(k % systems.len().max(1)).copied();
        if expected != Some(row.system.as_str()) {
            return Err(Error::input(
                path,
                line,
                format!(
                    "system `{}` where scores.json's systems give `{}`",
                    ldd_io::error::quote(&row.system, 100),
                    expected.unwrap_or("none")
                ),
            ));
        }
        match self.items.last_mut() {
            Some(item) if k < systems.len() => {
                if !same_locus(&item.rows[0], &row) {
                    return Err(Error::input(path, line, "a locus lacks a system's row"));
                }
                item.rows.push(row);
            }
            _ => self.items.push(LocusItem { rows: vec![row] }),
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Only the systems with a locus-accuracy row are the loci file's systems, in the
    /// systems' order.
    #[test]
    fn locus_systems_in_order() {
        let system = |name: &str| crate::score::System {
            name: name.into(),
            path: None,
            sha256: None,
        };
        let row = |system: &str, metric: &str| crate::score::Row {
            system: system.into(),
            metric: metric.into(),
            ..Default::default()
        };
        let scores = Scores {
            systems: vec![system("b"), system("a"), system("c")],
            rows: vec![
                row("a", crate::score::locus::KEY),
                row("c", "bleu"),
                row("b", crate::score::locus::KEY),
            ],
            ..Default::default()
        };
        assert_eq!(locus_systems(&scores), ["b", "a"]);
    }
}
