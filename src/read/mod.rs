//! Stage 1, **read**: the corpus and everything else ldd-sets reads, through `ldd-io`.
//!
//! What enters: file paths (corpus sides, CoNLL-U, id lists, corpus directories).
//! What leaves: corpus lines read in lockstep with their trees' text ([`lockstep`]) and
//! checked to belong together ([`belongs`]), selected lines by id ([`select`]), a sets
//! directory's manifest and ids ([`sets`]), what a report of it shows ([`shown`]), the
//! corpora of a directory ([`discover`]) and the line range of a shard ([`shard`]). Downloading corpora is [`crate::fetch`]'s.

pub mod belongs;
pub mod discover;
pub mod lockstep;
pub mod select;
pub mod sets;
pub mod shard;
pub mod shown;
