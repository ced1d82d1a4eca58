//! The tables ldd-sets prints on stdout, rendered as text by one module: `extract`'s and
//! `run`'s summaries ([`extract`]), `score`'s table ([`scores`]), and what `sheets` and
//! `tally` print ([`judge`]).

pub mod contrast;
pub mod extract;
pub mod judge;
pub mod permute;
pub mod scores;
