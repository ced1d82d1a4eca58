//! On-disk formats: the one schema of each JSON file ldd-sets writes and reads again, used
//! by its writer and by every reader, so that a renamed field is a change here, seen in
//! review, not a silent change of the file.
//!
//! What enters: records built by the stages (`extract` builds a [`manifest::Manifest`],
//! converting its options into [`options`] records; `score` builds a [`scores::Scores`]).
//! What leaves: the same types, serialised; read back leniently — every field that an older
//! version did not write has a `#[serde(default)]`, so old files still read.
//!
//! - [`aligner`]: the aligner cache's record of an entry (`<key>.json`).
//! - [`command`]: the command line a file records (the parser's inverse, set by the
//!   command line).
//! - [`manifest`]: `manifest.json` and `summary.csv`, written by `extract` and `merge`,
//!   read by `score`, `slice`, `compare`, `merge` and `report`.
//! - `cells`: one tab-separated row's cells as the readers of `judged` and `locus` rows
//!   read them (an error names the file, the line and the column).
//! - [`contrast`]: `contrast`'s `items.jsonl` and `contrast.json`.
//! - [`detection`]: `check-detection`'s JSON (`--json`) and the figures it records for the
//!   registry (`--record`, the built-in `config/detection.toml`, read by `languages`).
//! - [`judged`]: `scores.loci.tsv`, locus accuracy's judgement of every locus per system,
//!   written by `score --metrics locus`, read by `report`.
//! - [`locus`]: each set's `locus.tsv` (the source words of every locus and the reference
//!   words aligned to them), written by `extract`.
//! - [`marked`]: the marked lines of `.marked` files (words of a pair or link wrapped in
//!   tags), written by `extract`, parsed by `report`.
//! - [`options`]: the manifest's record of the options a run was made with.
//! - [`permute`]: `permute.json`, the record of `permute`'s settings and splits.
//! - [`reorder`]: `reorder.tsv`, every line's reordering measures, written by `extract`,
//!   counted by `report`.
//! - [`scores`]: `scores.json`, written by `score`, read by `report`.
//! - [`sets`]: the manifest's record of every set and its controls.
//! - [`sheet`]: annotation sheets and their key (`sheets`), and `tally.json` (`tally`).
//!
//! In short (what enters → what leaves): the one schema of each file ldd-sets writes and
//! reads again, used by its writer and every reader: `manifest.json` (`manifest`, read back
//! with its `format_version` checked; `Manifest::run_settings`: what the shards of one run
//! must agree on, every field of the manifest's records named there as compared or left
//! out; `sets`: each set's files and controls; `options`: records of the rules, reordering,
//! aligner and control options, converted from and to the stage types in the stages),
//! `scores.json` (`scores`), `reorder.tsv` (`reorder`: its header and rows, written by
//! `extract`, its measures counted by `report`), and the marked lines of `.marked` files
//! (`marked`: written by `extract`, parsed by `report`), and the one escaping of text cells
//! that people open in spreadsheets (`to_spreadsheet`, undone by the readers with
//! `from_spreadsheet`). Older files read through serde defaults. Only this module gives a
//! type a serialised form (`tests/architecture.rs`); the manifest's fields are also pinned
//! by `tests/golden/*.manifest-fields`

pub mod aligner;
mod cells;
pub mod command;
pub mod contrast;
pub mod detection;
pub mod judged;
pub mod locus;
pub mod manifest;
pub mod marked;
pub mod mqm;
pub mod options;
pub mod permute;
pub mod reorder;
pub mod scores;
pub mod sets;
pub mod sheet;

/// A TSV cell from text: tabs and line breaks as spaces.
pub fn tsv_cell(text: &str) -> String {
    text.replace(['\t', '\n', '\r'], " ")
}

/// A TSV cell that people open in spreadsheets: [`tsv_cell`], then [`to_spreadsheet`].
pub fn spreadsheet_tsv_cell(text: &str) -> String {
    to_spreadsheet(&tsv_cell(text)).into_owned()
}

/// Whether a spreadsheet reads text starting with `first` as a formula (OWASP's list).
fn formula_start(first: char) -> bool {
    matches!(first, '=' | '+' | '-' | '@' | '\t' | '\r')
}

/// Whether `text` is text a spreadsheet would take for a formula, or such text behind
/// leading `'`s: one `'` more makes either plain text.
fn needs_quote(text: &str) -> bool {
    text.trim_start_matches('\'')
        .chars()
        .next()
        .is_some_and(formula_start)
}

/// A text cell of a CSV or TSV file that people open in spreadsheets (every CSV file,
/// written by [`csv_text`]; `scores.loci.tsv`, `aces.tsv`), made safe to open as
/// OWASP's CSV-injection guidance says: text starting with `=`, `+`, `-`, `@`, a tab or a
/// carriage return gets a leading `'`, so a spreadsheet shows it as text instead of
/// running it as a formula — and so does text of leading `'`s before one of those, so that
/// [`from_spreadsheet`] gives back exactly the text. A number (`-1.5`) stays as it is.
pub fn to_spreadsheet(text: &str) -> std::borrow::Cow<'_, str> {
    if needs_quote(text) && text.parse::<f64>().is_err() {
        format!("'{text}").into()
    } else {
        text.into()
    }
}

/// The one writer of the CSV files ldd-sets writes (`scores.csv`, `summary.csv`, the
/// annotation sheets and their key, `tally.csv`, `mqm.csv`): `header`, then each row, every
/// cell made safe for spreadsheets ([`to_spreadsheet`]: a system name `=HYPERLINK(…)` from
/// an old file is shown, never run) and quoted as CSV needs (RFC 4180).
pub fn csv_text<R, C>(header: &[&str], rows: impl IntoIterator<Item = R>) -> String
where
    R: IntoIterator<Item = C>,
    C: AsRef<str>,
{
    // Flexible: a record of another length than the header (which the callers' fixed
    // columns rule out) is written as it is, never dropped.
    let mut w = csv::WriterBuilder::new()
        .flexible(true)
        .from_writer(Vec::new());
    let _ = w.write_record(header);
    for row in rows {
        let cells: Vec<String> = row
            .into_iter()
            .map(|c| to_spreadsheet(c.as_ref()).into_owned())
            .collect();
        let _ = w.write_record(&cells);
    }
    let bytes = w.into_inner().unwrap_or_default();
    String::from_utf8(bytes).unwrap_or_default()
}

/// [`csv_text`] of rows of a serialisable type (each row's fields in their order).
pub fn csv_of<T: serde::Serialize>(header: &[&str], rows: &[T]) -> csv::Result<String> {
    let mut plain = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(Vec::new());
    for r in rows {
        plain.serialize(r)?;
    }
    let plain = plain.into_inner().map_err(|e| e.into_error())?;
    let records: Vec<csv::StringRecord> = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(plain.as_slice())
        .records()
        .collect::<csv::Result<_>>()?;
    Ok(csv_text(header, records.iter().map(|r| r.iter())))
}

/// The text of a cell written by [`to_spreadsheet`]: its leading `'` removed where that
/// added one (the one place every reader of those files undoes it).
pub fn from_spreadsheet(text: &str) -> std::borrow::Cow<'_, str> {
    match text.strip_prefix('\'') {
        Some(rest) if needs_quote(rest) => rest.into(),
        _ => text.into(),
    }
}

/// Whether `path` holds a record of type `T` (a JSON file an ldd-sets command wrote and
/// recognises its output directory by; read up to 1 MiB).
pub fn is_record<T: serde::de::DeserializeOwned>(path: &std::path::Path) -> bool {
    ldd_io::read_text(path, 1 << 20)
        .ok()
        .and_then(|t| serde_json::from_str::<T>(&t).ok())
        .is_some()
}

/// Calls `each` with every data row of a table read from `input` whose first line must be
/// `header` (`what` names the kind of file in the error), with the row's 1-based line
/// number; `path` names the file in errors.
pub fn for_each_tsv_row(
    input: &mut ldd_io::Input,
    path: &std::path::Path,
    header: &str,
    what: &str,
    each: impl FnMut(&str, u64) -> crate::error::Result<()>,
) -> crate::error::Result<()> {
    for_each_tsv_row_of(input, path, &[header], what, each)
}

/// [`for_each_tsv_row`] for a table with several versions: its first line must be one of
/// `headers`.
pub fn for_each_tsv_row_of(
    input: &mut ldd_io::Input,
    path: &std::path::Path,
    headers: &[&str],
    what: &str,
    mut each: impl FnMut(&str, u64) -> crate::error::Result<()>,
) -> crate::error::Result<()> {
    use crate::error::Error;
    let mut n = 0u64;
    while let Some(line) = input.next_line()? {
        n += 1;
        if n == 1 {
            if !headers.contains(&line) {
                return Err(Error::input(path, 1, format!("not the header of {what}")));
            }
            continue;
        }
        each(line, n)?;
    }
    if n == 0 {
        return Err(Error::input(path, 1, "empty file: expected a header row"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spreadsheet_cells_quote_formulas_and_read_back_exactly() {
        for (text, cell) in [
            ("=1+2", "'=1+2"),
            ("+cmd", "'+cmd"),
            ("- Komm !", "'- Komm !"),
            ("@SUM(A1)", "'@SUM(A1)"),
            ("\tx", "'\tx"),
            ("'=x", "''=x"),
            ("''@x", "'''@x"),
            ("-1.5", "-1.5"),
            ("+3", "+3"),
            ("'tis", "'tis"),
            ("'", "'"),
            ("plain", "plain"),
            ("", ""),
        ] {
            assert_eq!(to_spreadsheet(text), cell, "{text:?}");
            assert_eq!(from_spreadsheet(cell), text, "{cell:?}");
        }
        // A spreadsheet that drops the `'` on saving: the same text.
        assert_eq!(from_spreadsheet("=1+2"), "=1+2");
    }

    #[test]
    fn the_csv_writer_quotes_fields_and_formulas() {
        let rows = [
            ["=HYPERLINK(\"x\")", "-1.5", "a,b"],
            ["@SUM(A1)", "", "x\ny"],
        ];
        assert_eq!(
            csv_text(&["a", "b", "c"], rows),
            "a,b,c\n\"'=HYPERLINK(\"\"x\"\")\",-1.5,\"a,b\"\n'@SUM(A1),,\"x\ny\"\n"
        );
        let none: [[&str; 1]; 0] = [];
        assert_eq!(csv_text(&["a"], none), "a\n");
    }
}
