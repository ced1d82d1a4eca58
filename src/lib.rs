//! ldd-sets: long-distance-dependency challenge sets for machine translation.
//!
//! Data flows one way, and so do imports — a stage uses only the stages before it:
//!
//! [`read`](pipeline::read) → [`parse`](pipeline::parse) → [`align`](pipeline::align) →
//! [`detect`](pipeline::detect) → [`bucket`](pipeline::bucket) →
//! [`sample`](pipeline::sample) → [`write`](pipeline::write) → [`merge`](pipeline::merge) →
//! [`locus`] → [`contrast`] → [`score`] → [`judge`] → [`report`]
//!
//! The stages that make the sets, from `read` to `merge`, are the folders of [`pipeline`],
//! whose own files glue them together for `extract`, `run` and `align`. A side path,
//! [`permute`], makes the data of the method's locality-bias experiment from a corpus
//! (read → permute).
//!
//! [`error`] and [`config`] (language pairs, built-in rules) sit below every stage, [`view`]
//! (the set-size, score, trend and distance tables, built once for every format) below all
//! that render them; [`layout`] spells every file name and [`format`](mod@format) every
//! serialised form; [`fetch`] downloads a pair's corpora before anything is read;
//! [`printer`] renders all that the command line prints. Files are opened and written (and
//! progress bars drawn) only through the `ldd-io` crate, CoNLL-U is the `ldd-conllu` crate,
//! UDPipe is `ldd-parse`, the aligner `ldd-align`, the metrics and the control sampler
//! `ldd-eval`. The command line (clap) lives in the binary, not here.

pub mod config;
pub mod contrast;
pub mod error;
pub mod fetch;
pub mod format;
pub mod judge;
pub mod layout;
pub mod locus;
pub mod permute;
pub mod pipeline;
pub mod printer;
pub mod report;
pub mod score;
pub mod view;

pub use error::{Error, Result};
