//! Built-in word aligner for ldd-sets: fast_align's model (Dyer, Chahuneau & Smith, 2013,
//! "A Simple, Fast, and Effective Reparameterization of IBM Model 2") as `fast_align -d -o -v`
//! runs it — diagonal-favouring alignment prior with optimised tension, variational-Bayes
//! lexical M-step, null word — plus `atools`-compatible symmetrisation, Pharaoh I/O, alignment
//! agreement metrics, gold alignments and the alignment error rate, and per-sentence
//! reordering measures.
//!
//! ```
//! use ldd_align::{tokenize, Corpus, Model, TrainOptions};
//! let mut corpus = Corpus::new();
//! corpus.push_pair(&["das", "Haus"], &tokenize("the house"));
//! corpus.push_pair(&["das", "Buch"], &tokenize("the book"));
//! let model = Model::train(&corpus, &TrainOptions::default()).unwrap();
//! let alignments = model.align(&corpus);
//! assert_eq!(alignments.len(), 2);
//! ```

#![warn(missing_docs)]

mod binfmt;
mod corpus;
mod diag;
mod error;
pub mod gold;
mod hmm;
mod index;
mod measures;
mod metrics;
mod model;
pub mod pharaoh;
mod punct_table;
mod symmetrize;
mod table;
mod tokenize;

pub use corpus::{Corpus, Vocab};
pub use error::{AlignError, Result};
pub use gold::{read_gold, Gold, GoldFormat, GoldOptions, GoldSentence, OutsideLink};
pub use hmm::{
    train_and_align_hmm, train_and_align_hmm_joint, HmmAlignment, HmmModel, HmmOptions,
    JointAlignment,
};
pub use measures::{
    is_alpha_token, is_word, paper_position, permutation, word_links, Crossing, Ratio, ReorderHit,
    Reordering,
};
pub use metrics::{alignment_error_rate, precision_recall_f1, AerScores, Prf};
pub use model::{Model, TrainOptions, MAX_LONG_CELLS, UNSEEN_PROB};
pub use punct_table::UNICODE_VERSION as TOKENIZER_UNICODE_VERSION;
pub use symmetrize::{symmetrize, Method};
pub use tokenize::{is_punct_or_symbol, tokenize};

/// One alignment link: `(source index, target index)`, 0-based (Pharaoh `i-j`).
pub type Link = (usize, usize);

/// The links of one sentence pair.
pub type Alignment = Vec<Link>;
