//! Stage **detect**: where the long-distance dependencies are.
//!
//! What enters: parsed sentences (lexical LDD; [`mod@line`] parses and checks each corpus
//! line's tree) and the token sequences of sentence pairs (reordering LDD). What leaves:
//! [`rules::Match`]es — a dependent, its head and the distance between them — for every
//! phenomenon of the [`rules::RuleSet`], and per pair the largest reordering found by word
//! alignment (the alignments are [`crate::pipeline::align`]'s; the measures [`reorder`]'s). Which
//! rules run is resolved once, for every command ([`select`]); rules are data ([`rules`]),
//! matched by [`matcher`]. [`check`] measures detection on a parser's trees against gold
//! trees (`check-detection`).
//!
//! In short (what enters → what leaves): which rules run, resolved once for `extract`,
//! `run` and `parse` (`select`: the rules file, the pair's phenomena, the registry's
//! defaults); a corpus line → its tree parsed, checked against the line, and its rule
//! matches (`line::detect_line`); a corpus → every line detected, a chunk of lines at a
//! time in parallel and handed on in corpus order, with the corpus's statistics, pairs by
//! distance, source lengths and aligner tokens (`line::detect_lines`); trees → rule matches
//! (`rules`: the rule language, data; `matcher`: patterns tried in order, the parser's head
//! or the one a pattern's repair finds); a gold treebank and the parse of its text → per
//! phenomenon the instances of both trees, precision, recall and F1 with intervals, misses
//! and false hits (`check`, `check-detection`); alignments (`crate::pipeline::align`;
//! `reorder::align_pairs` aligns a run's corpus, or reads its `--alignments`) → per-line
//! reordering measures and the measure that builds the sets (`reorder`)

pub mod check;
pub mod line;
pub mod locus;
pub mod matcher;
pub mod reorder;
pub mod rules;
pub mod select;
