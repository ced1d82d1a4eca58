//! The report drawn in its output format: the HTML page with its item browser, or the
//! LaTeX tables.

use super::views::Views;
use super::{html, items, latex, Report};
use crate::error::Result;

/// Output format of `report`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// One self-contained HTML page.
    Html,
    /// The main tables as LaTeX `tabular`s.
    Latex,
}

impl Format {
    /// The file extension of the format (and the default output name).
    pub fn extension(self) -> &'static str {
        match self {
            Format::Html => "html",
            Format::Latex => "tex",
        }
    }
}

/// Renders the report in the chosen format.
pub fn render(report: &Report, format: Format) -> Result<String> {
    let v = Views::of(report);
    match format {
        Format::Html => {
            let style = items::style(report);
            let mut section = String::new();
            items::section(&mut section, report);
            html::page(report, &v, &style, &section)
        }
        Format::Latex => Ok(latex::tables(report, &v)),
    }
}
