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
//! - [`manifest`]: `manifest.json` and `summary.csv`, written by `extract` and `merge`,
//!   read by `score`, `slice`, `compare`, `merge` and `report`.
//! - [`contrast`]: `contrast`'s `items.jsonl` and `contrast.json`.
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

pub mod aligner;
pub mod contrast;
pub mod judged;
pub mod locus;
pub mod manifest;
pub mod marked;
pub mod options;
pub mod permute;
pub mod reorder;
pub mod scores;
pub mod sets;
pub mod sheet;

/// A TSV cell from text: tabs and line breaks as spaces.
pub fn tsv_cell(s: &str) -> String {
    s.replace(['\t', '\n', '\r'], " ")
}

/// Whether `path` holds a record of type `T` (a JSON file an ldd-sets command wrote and
/// recognises its output directory by; read up to 1 MiB).
pub fn is_record<T: serde::de::DeserializeOwned>(path: &std::path::Path) -> bool {
    ldd_io::read_text(path, 1 << 20)
        .ok()
        .and_then(|t| serde_json::from_str::<T>(&t).ok())
        .is_some()
}

/// Calls `f` with every data row of a table read from `r` whose first line must be
/// `header` (`what` names the kind of file in the error), with the row's 1-based line
/// number; `path` names the file in errors.
pub fn for_each_tsv_row(
    r: &mut ldd_io::Input,
    path: &std::path::Path,
    header: &str,
    what: &str,
    mut f: impl FnMut(&str, u64) -> crate::error::Result<()>,
) -> crate::error::Result<()> {
    use crate::error::Error;
    let mut n = 0u64;
    while let Some(line) = r.next_line()? {
        n += 1;
        if n == 1 {
            if line != header {
                return Err(Error::input(path, 1, format!("not the header of {what}")));
            }
            continue;
        }
        f(line, n)?;
    }
    if n == 0 {
        return Err(Error::input(path, 1, "empty file: expected a header row"));
    }
    Ok(())
}
