//! Built-in word aligner for ldd-sets: fast_align's model (Dyer, Chahuneau & Smith, 2013,
//! "A Simple, Fast, and Effective Reparameterization of IBM Model 2") as `fast_align -d -o -v`
//! runs it — diagonal-favouring alignment prior with optimised tension, variational-Bayes
//! lexical M-step, null word — plus `atools`-compatible symmetrisation, Pharaoh I/O, alignment
//! agreement metrics, gold alignments and the alignment error rate, and per-sentence
//! reordering measures.
//!
//! One aligner type, [`Aligner`]: the HMM by agreement (the default) or fast_align's model,
//! as an [`AlignerSpec`] says; it trains on an in-memory [`Corpus`] or on a [`PairStore`]
//! (pairs encoded on disk and streamed once per pass), aligns in any [`Direction`], saves
//! and loads, and reports its progress as [`Event`]s.
//!
//! ```
//! use ldd_align::{tokenize, Aligner, AlignerSpec, Corpus, Direction, HmmOptions, SILENT};
//! let mut corpus = Corpus::new();
//! corpus.push_pair(&["das", "Haus"], &tokenize("the house"));
//! corpus.push_pair(&["das", "Buch"], &tokenize("the book"));
//! let spec = AlignerSpec::Hmm(HmmOptions::default());
//! let aligner = Aligner::train(&corpus, &spec, SILENT).unwrap();
//! let aligned = aligner.align(&corpus, Direction::Intersection, SILENT).unwrap();
//! assert_eq!(aligned.links.len(), 2);
//! ```

#![warn(missing_docs)]

mod aligner;
mod binfmt;
mod corpus;
mod diag;
mod error;
pub mod gold;
mod hmm;
mod index;
mod lexicon;
mod measures;
mod memory;
mod metrics;
mod model;
pub mod pharaoh;
mod punct_table;
mod store;
mod symmetrize;
mod table;
mod tokenize;

pub use aligner::{
    Aligned, Aligner, AlignerSpec, Direction, Event, ModelFile, Report, Stage, SILENT,
};
pub use binfmt::is_model_file;
pub use corpus::{Corpus, Vocab};
pub use error::{AlignError, Result};
pub use gold::{read_gold, Gold, GoldFormat, GoldOptions, GoldSentence, OutsideLink};
pub use hmm::{HmmOptions, DEFAULT_PRUNE};
pub use measures::{
    is_alpha_token, is_word, paper_position, permutation, word_links, Crossing, Ratio, ReorderHit,
    Reordering,
};
pub use memory::return_freed_memory;
pub use metrics::{alignment_error_rate, precision_recall_f1, AerScores, Prf};
pub use model::{Model, TrainOptions, MAX_LONG_CELLS};
pub use punct_table::UNICODE_VERSION as TOKENIZER_UNICODE_VERSION;
pub use store::{PairStore, PairStoreBuilder, Pairs};
pub use symmetrize::{symmetrize, Method};
pub use table::UNSEEN_PROB;
pub use tokenize::{is_punct_or_symbol, line_tokens, tokenize};

/// One alignment link: `(source index, target index)`, 0-based (Pharaoh `i-j`).
pub type Link = (usize, usize);

/// The links of one sentence pair.
pub type Alignment = Vec<Link>;
