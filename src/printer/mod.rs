//! The tables ldd-sets prints on stdout, rendered as text by one module: `extract`'s and
//! `run`'s summaries ([`extract`]) and `score`'s table ([`scores`]).

pub mod extract;
pub mod scores;
