//! Stage 3, **detect**: where the long-distance dependencies are.
//!
//! What enters: parsed sentences (lexical LDD) and the token sequences of sentence pairs
//! (reordering LDD). What leaves: [`rules::Match`]es — a dependent, its head and the
//! distance between them — for every phenomenon of the [`rules::RuleSet`], and per pair
//! the largest reordering found by word alignment ([`alignment`], [`reorder`]).

pub mod alignment;
pub mod reorder;
pub mod rules;
