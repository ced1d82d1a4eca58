//! On-disk formats: the one schema of each JSON file ldd-sets writes and reads again, used
//! by its writer and by every reader, so that a renamed field is a change here, seen in
//! review, not a silent change of the file.
//!
//! What enters: records built by the stages (`extract` builds a [`manifest::Manifest`],
//! converting its options into [`options`] records; `score` builds a [`scores::Scores`]).
//! What leaves: the same types, serialised; read back leniently — every field that an older
//! version did not write has a `#[serde(default)]`, so old files still read.
//!
//! - [`manifest`]: `manifest.json` and `summary.csv`, written by `extract` and `merge`,
//!   read by `score`, `slice`, `compare`, `merge` and `report`.
//! - [`locus`]: each set's `locus.tsv` (the source words of every locus and the reference
//!   words aligned to them), written by `extract`.
//! - [`marked`]: the marked lines of `.marked` files (words of a pair or link wrapped in
//!   tags), written by `extract`, parsed by `report`.
//! - [`options`]: the manifest's record of the options a run was made with.
//! - [`scores`]: `scores.json`, written by `score`, read by `report`.
//! - [`sets`]: the manifest's record of every set and its controls.
//! - [`sheet`]: annotation sheets and their key (`sheets`), and `tally.json` (`tally`).

pub mod locus;
pub mod manifest;
pub mod marked;
pub mod options;
pub mod scores;
pub mod sets;
pub mod sheet;
