//! What ldd-sets prints, rendered as text by one module (the commands only print it):
//! `extract`'s, `run`'s and `merge`'s summaries ([`extract`]), `score`'s and `compare`'s
//! tables ([`scores`]), `align --gold`'s scores ([`align`]), what `sheets` and `tally`
//! print ([`judge`]), `contrast`'s and `permute`'s summaries ([`contrast`], [`permute`]),
//! and the registry of models ([`languages`]).

pub mod align;
pub mod contrast;
pub mod extract;
pub mod judge;
pub mod languages;
pub mod mqm;
pub mod permute;
pub mod scores;
