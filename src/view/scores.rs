//! The score tables: per metric, a line for the corpus and for every set, a cell per
//! system; and the distance trends.

use crate::format::scores::{Row, Scores, Trend};

/// Which corpus or set a line of a [`ScoreTable`] scores.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineKey<'a> {
    /// `corpus` or `set` (scores.json's `scope`).
    pub scope: &'a str,
    /// The set's phenomenon (empty for the corpus).
    pub phenomenon: &'a str,
    /// The set's bucket (empty for the corpus).
    pub bucket: &'a str,
}

impl<'a> LineKey<'a> {
    fn of(row: &'a Row) -> Self {
        LineKey {
            scope: &row.scope,
            phenomenon: &row.phenomenon,
            bucket: &row.bucket,
        }
    }

    /// Whether the line scores a set (not the whole corpus).
    pub fn is_set(&self) -> bool {
        self.scope != "corpus"
    }
}

/// One line of a [`ScoreTable`]: a corpus or set, and each system's row for it.
#[derive(Debug, Clone)]
pub struct ScoreLine<'a> {
    /// What the line scores.
    pub key: LineKey<'a>,
    /// Each system's row, in [`ScoreView::systems`]' order (`None`: not scored).
    pub cells: Vec<Option<&'a Row>>,
}

impl<'a> ScoreLine<'a> {
    /// The first system's row (the baseline's), which sizes the line.
    pub fn first(&self) -> Option<&'a Row> {
        self.cells.first().copied().flatten()
    }
}

/// One metric's table: the lines in the order the scores list them, a cell per system.
#[derive(Debug, Clone)]
pub struct ScoreTable<'a> {
    /// The metric's key (`bleu`, `locus`, a `--seg-scores` name).
    pub metric: &'a str,
    /// The corpus line first, then the sets'.
    pub lines: Vec<ScoreLine<'a>>,
}

impl<'a> ScoreTable<'a> {
    /// The line of a set.
    pub fn set(&self, phenomenon: &str, bucket: &str) -> Option<&ScoreLine<'a>> {
        self.lines
            .iter()
            .find(|l| l.key.is_set() && l.key.phenomenon == phenomenon && l.key.bucket == bucket)
    }

    /// The corpus line.
    pub fn corpus(&self) -> Option<&ScoreLine<'a>> {
        self.lines.iter().find(|l| !l.key.is_set())
    }
}

/// Everything `score` measured, as tables: one [`ScoreTable`] per metric (in the order the
/// rows first name them) and the trends.
#[derive(Debug, Clone)]
pub struct ScoreView<'a> {
    /// The systems scored, the baseline first (every table's columns).
    pub systems: Vec<&'a str>,
    /// One table per metric.
    pub tables: Vec<ScoreTable<'a>>,
    /// The distance trends, one per system × metric × phenomenon.
    pub trends: &'a [Trend],
}

impl<'a> ScoreView<'a> {
    /// The tables of `sc`.
    pub fn of(sc: &'a Scores) -> Self {
        let systems: Vec<&str> = sc.systems.iter().map(|s| s.name.as_str()).collect();
        let mut tables: Vec<ScoreTable<'a>> = Vec::new();
        for r in &sc.rows {
            let t = match tables.iter().position(|t| t.metric == r.metric) {
                Some(t) => t,
                None => {
                    tables.push(ScoreTable {
                        metric: &r.metric,
                        lines: Vec::new(),
                    });
                    tables.len() - 1
                }
            };
            let Some(col) = systems.iter().position(|s| *s == r.system) else {
                continue; // a row of no listed system is in no column
            };
            let key = LineKey::of(r);
            let table = &mut tables[t];
            let line = match table.lines.iter().position(|l| l.key == key) {
                Some(l) => l,
                None => {
                    table.lines.push(ScoreLine {
                        key,
                        cells: vec![None; systems.len()],
                    });
                    table.lines.len() - 1
                }
            };
            let cell = &mut table.lines[line].cells[col];
            if cell.is_none() {
                *cell = Some(r);
            }
        }
        ScoreView {
            systems,
            tables,
            trends: &sc.trends,
        }
    }

    /// The table of a metric.
    pub fn table(&self, metric: &str) -> Option<&ScoreTable<'a>> {
        self.tables.iter().find(|t| t.metric == metric)
    }

    /// The row of system `col` (its index in [`ScoreView::systems`]) for a metric and a
    /// set.
    pub fn set_row(
        &self,
        metric: &str,
        col: usize,
        phenomenon: &str,
        bucket: &str,
    ) -> Option<&'a Row> {
        self.table(metric)?
            .set(phenomenon, bucket)?
            .cells
            .get(col)
            .copied()
            .flatten()
    }

    /// The corpus row of system `col` for a metric.
    pub fn corpus_row(&self, metric: &str, col: usize) -> Option<&'a Row> {
        self.table(metric)?
            .corpus()?
            .cells
            .get(col)
            .copied()
            .flatten()
    }

    /// The trend of system `col` for a metric and a phenomenon.
    pub fn trend(&self, col: usize, metric: &str, phenomenon: &str) -> Option<&'a Trend> {
        let system = *self.systems.get(col)?;
        self.trends
            .iter()
            .find(|t| t.system == system && t.metric == metric && t.phenomenon == phenomenon)
    }

    /// Every row, system by system, metric by metric, line by line: scores.csv's order.
    pub fn by_system(&self) -> impl Iterator<Item = &'a Row> + '_ {
        (0..self.systems.len()).flat_map(move |col| {
            self.tables
                .iter()
                .flat_map(move |t| t.lines.iter().filter_map(move |l| l.cells[col]))
        })
    }
}
