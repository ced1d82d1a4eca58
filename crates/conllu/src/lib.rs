//! ldd-conllu: CoNLL-U for ldd-sets, in three parts kept apart like the conllu/udgraph
//! crates keep data model and format apart:
//!
//! - [`model`]: [`Sentence`], a compact UD sentence whose fields borrow from the text, with
//!   its surface tokens and a tree check;
//! - [`reader`]: a streaming block [`Reader`] (plain or gzip, through `ldd-io`) and
//!   [`parse_block`], with file and line in every error;
//! - [`writer`]: lossless [`Sentence::write`], and [`write_merged`], which merges the
//!   sentences a tokenizer found in one corpus line into one tree.
//!
//! Why not the `conllu` crate: version 0.8 reads a multiword-token line such as
//! `26-27 am` as if it were a word (its id field is parsed and then ignored), which shifts
//! every later word and breaks heads and distances; it also drops the line numbers needed
//! for error messages and allocates a graph per sentence. This reader keeps ranges and
//! empty nodes as verbatim extra lines, so reading and writing is lossless, and it borrows
//! every field from the block text.

#![warn(missing_docs)]

pub mod model;
pub mod reader;
pub mod writer;

pub use model::{feature, Extra, Sentence, Token, TreeError, Word};
pub use reader::{check_feats, for_each_sentence, parse_block, Block, Reader, MAX_BLOCK_BYTES};
pub use writer::{field, sanitize, write_merged};
