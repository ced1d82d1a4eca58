//! Stage 1, **read**: the corpus and everything else ldd-sets reads, through `ldd-io`.
//!
//! What enters: file paths (corpus sides, CoNLL-U, id lists, corpus directories, URLs of
//! corpora to download). What leaves: corpus lines read in lockstep with their trees'
//! text ([`lockstep`]), selected lines by id ([`select`]), the corpora of a directory
//! ([`discover`]), downloaded corpora normalised on disk ([`fetch`]), and the
//! [`Languages`] of a corpus.

pub mod discover;
pub mod fetch;
pub mod lockstep;
pub mod select;

use serde::{Deserialize, Serialize};

/// Language codes of a corpus.
#[derive(Debug, Serialize, Deserialize, Clone, PartialEq, Eq)]
pub struct Languages {
    /// Source language (the parsed side).
    pub source: String,
    /// Target language.
    pub target: String,
}
