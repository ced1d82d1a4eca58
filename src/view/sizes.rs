//! The set-size table: a row per phenomenon with its `ge` and `eq` sets.

use crate::format::sets::{SetEntry, SetKind};

/// The sets of one phenomenon, in the order the manifest lists them.
#[derive(Debug, Clone)]
pub struct SizeRow<'a> {
    /// The phenomenon (a rule's name, or `reorder`).
    pub phenomenon: &'a str,
    /// Lexical (a rule's pairs) or reordering (word alignment).
    pub kind: SetKind,
    /// Its `geK` sets: a pair at distance ≥ K.
    pub ge: Vec<&'a SetEntry>,
    /// Its `eqK` sets: a pair at distance exactly K (lexical phenomena only).
    pub eq: Vec<&'a SetEntry>,
}

impl<'a> SizeRow<'a> {
    /// The set of this phenomenon with this bucket name.
    pub fn set(&self, bucket: &str) -> Option<&'a SetEntry> {
        self.ge
            .iter()
            .chain(&self.eq)
            .find(|s| s.bucket == bucket)
            .copied()
    }

    /// Its `ge` sets (`exact` false) or `eq` sets (`exact` true).
    pub fn sets(&self, exact: bool) -> &[&'a SetEntry] {
        if exact {
            &self.eq
        } else {
            &self.ge
        }
    }
}

/// The set-size table of a run: one [`SizeRow`] per phenomenon, in the order the sets
/// first name them (the rules' order, then `reorder`).
#[derive(Debug, Clone, Default)]
pub struct Sizes<'a> {
    /// The rows, one per phenomenon.
    pub phenomena: Vec<SizeRow<'a>>,
}

impl<'a> Sizes<'a> {
    /// The table of `sets` (a manifest's, or an extraction's before its manifest).
    pub fn of(sets: &'a [SetEntry]) -> Self {
        let mut rows: Vec<SizeRow<'a>> = Vec::new();
        for s in sets {
            let k = match rows.iter().position(|r| r.phenomenon == s.phenomenon) {
                Some(k) => k,
                None => {
                    rows.push(SizeRow {
                        phenomenon: &s.phenomenon,
                        kind: s.kind,
                        ge: Vec::new(),
                        eq: Vec::new(),
                    });
                    rows.len() - 1
                }
            };
            if s.exact {
                rows[k].eq.push(s);
            } else {
                rows[k].ge.push(s);
            }
        }
        Sizes { phenomena: rows }
    }

    /// The row of a phenomenon.
    pub fn row(&self, phenomenon: &str) -> Option<&SizeRow<'a>> {
        self.phenomena.iter().find(|r| r.phenomenon == phenomenon)
    }

    /// The set of a phenomenon with this bucket name.
    pub fn set(&self, phenomenon: &str, bucket: &str) -> Option<&'a SetEntry> {
        self.row(phenomenon)?.set(bucket)
    }

    /// Every set, row by row, `ge` then `eq`.
    pub fn sets(&self) -> impl Iterator<Item = &'a SetEntry> + '_ {
        self.phenomena
            .iter()
            .flat_map(|r| r.ge.iter().chain(&r.eq).copied())
    }
}
