//! Stage 3, **detect**: where the long-distance dependencies are.
//!
//! What enters: parsed sentences (lexical LDD; [`mod@line`] parses and checks each corpus
//! line's tree) and the token sequences of sentence pairs (reordering LDD). What leaves:
//! [`rules::Match`]es — a dependent, its head and the distance between them — for every
//! phenomenon of the [`rules::RuleSet`], and per pair the largest reordering found by word
//! alignment (the alignments are [`crate::align`]'s; the measures [`reorder`]'s). Which
//! rules run is resolved once, for every command ([`select`]).

pub mod line;
pub mod locus;
pub mod reorder;
pub mod rules;
pub mod select;
