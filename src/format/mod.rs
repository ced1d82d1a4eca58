//! On-disk formats: the one schema of each JSON file ldd-sets writes and reads again, used
//! by its writer and by every reader, so that a renamed field is a change here, seen in
//! review, not a silent change of the file.
//!
//! What enters: values built by the stages (`score` builds a [`scores::Scores`]). What
//! leaves: the same types, serialised; read back leniently — every field that an older
//! version did not write has a `#[serde(default)]`, so old files still read.
//!
//! - [`scores`]: `scores.json`, written by `score`, read by `report`.

pub mod scores;
