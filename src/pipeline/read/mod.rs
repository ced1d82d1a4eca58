//! Stage **read**: the corpus and everything else ldd-sets reads, through `ldd-io`.
//!
//! What enters: file paths (corpus sides, CoNLL-U, id lists, corpus directories).
//! What leaves: corpus lines read in lockstep with their trees' text ([`lockstep`]) and
//! checked to belong together ([`belongs`]), selected lines by id ([`select`]), a sets
//! directory's manifest and ids ([`sets`]), what a report of it shows ([`shown`]), the
//! corpora of a directory ([`discover`]) and the line range of a shard ([`shard`]). Downloading corpora is [`crate::fetch`]'s.
//!
//! In short (what enters → what leaves): file paths → corpus lines in lockstep with their
//! trees' text (`lockstep`: a run's `CorpusFiles`, the whole corpus or a shard's lines), a
//! shard's line range and what it extracts (`shard`: `ShardRun`), lines by id (`select`), a
//! sets directory in one pass (`sets`: the manifest and its SHA-256 — computed there only,
//! for every record that names the sets — then every set's and control's ids, each file
//! read once and checked against its recorded SHA-256 — what `score`, `slice` and `report`
//! start from; the files the manifest names, checked the same way, with typed errors
//! (`error::SetFileError`); a set's locus rows, the words of its trees and the per-line
//! reordering measures), the corpora of a directory, and those a `run` works on with their
//! outputs and the aligner's training files (`discover`: `corpus_jobs`)

pub mod belongs;
pub mod discover;
pub mod lockstep;
pub mod select;
pub mod sets;
pub mod shard;
pub mod shown;
