//! The cells of one tab-separated row being read, with where it is, for the errors of the
//! readers of `judged` and `locus` rows: an error names the file, the line and the column.

use std::path::Path;

use crate::error::{Error, Result};

/// The cells of one row being read, and where it is (for errors).
pub(super) struct Cells<'a> {
    /// The cells, in column order.
    pub(super) cells: Vec<&'a str>,
    /// The file the row is in.
    pub(super) path: &'a Path,
    /// Its line (1-based).
    pub(super) line: u64,
}

impl Cells<'_> {
    /// An error in column `what`.
    pub(super) fn bad(&self, what: &str, message: String) -> Error {
        Error::input(self.path, self.line, format!("column `{what}`: {message}"))
    }

    /// The cell in `column` (named `what`) as a whole number.
    pub(super) fn number(&self, column: usize, what: &str) -> Result<u64> {
        self.cells[column].parse().map_err(|_| {
            self.bad(
                what,
                format!(
                    "not a whole number: `{}`",
                    ldd_io::error::quote(self.cells[column], 40)
                ),
            )
        })
    }

    /// The cell in `column` (named `what`) as a whole number that fits 32 bits.
    pub(super) fn small(&self, column: usize, what: &str) -> Result<u32> {
        u32::try_from(self.number(column, what)?).map_err(|_| self.bad(what, "too large".into()))
    }
}
