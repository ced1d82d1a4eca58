//! ldd-sets: long-distance-dependency challenge sets for machine translation.
//!
//! Data flows one way, and so do imports — a stage uses only the stages before it:
//!
//! [`read`] → [`parse`] → [`align`] → [`detect`] → [`bucket`] → [`sample`] →
//! [`write`](mod@write) → [`merge`](mod@merge) → [`contrast`] → [`locus`] → [`score`] →
//! [`judge`] → [`report`]
//!
//! A side path, [`permute`], makes the data of the method's locality-bias experiment from a
//! corpus (read → permute).
//!
//! [`config`] (language pairs, built-in rules), [`error`] and [`progress`] (the one style of
//! every progress bar) sit below every stage, [`view`] (the set-size, score, trend and
//! distance tables, built once for every format) below all that render them;
//! [`layout`] spells every file name and [`format`](mod@format) every serialised form; [`fetch`]
//! downloads a pair's corpora before anything is read; [`printer`] renders all that the
//! command line prints; [`pipeline`] glues the stages together for `extract`, `run` and
//! `align`;
//! [`merge`](mod@merge) joins the outputs of a sharded run's shards into the output of the
//! whole corpus. Files are opened and written only through the `ldd-io` crate, CoNLL-U is
//! the `ldd-conllu` crate, UDPipe is `ldd-parse`, the aligner `ldd-align`, the metrics and
//! the control sampler `ldd-eval`.
//! The command line (clap) lives in the binary, not here.

pub mod align;
pub mod bucket;
pub mod config;
pub mod contrast;
pub mod detect;
pub mod error;
pub mod fetch;
pub mod format;
pub mod judge;
pub mod layout;
pub mod locus;
pub mod merge;
pub mod parse;
pub mod permute;
pub mod pipeline;
pub mod printer;
pub mod progress;
pub mod read;
pub mod report;
pub mod sample;
pub mod score;
pub mod view;
pub mod write;

pub use error::{Error, Result};
