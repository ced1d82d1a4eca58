//! Stage **write**: everything a run leaves on disk.
//!
//! What enters: the selected lines with their marks ([`set::Entry`]; every lexical set of a
//! run: [`set::SetWriters`]), the sets' ids and the corpus lengths to draw their controls
//! from, the aligned corpus, and the run's description. What leaves: the set files
//! ([`set`]) with their marked lines ([`crate::format::marked`]) and loci ([`locus`]),
//! control files ([`controls`]: each group of sets' controls drawn by
//! [`crate::pipeline::sample`], then their corpus lines read once and written), the reordering sets
//! once the corpus is aligned ([`reorder_sets`]: a second pass over the corpus) with the
//! corpus-wide reordering files ([`reorder_files`]), `summary.csv` and `manifest.json`
//! ([`summary`]: the set-size table of [`crate::view`], the manifest of
//! [`crate::format::manifest`]), and a shard's files and record for `merge` ([`shard`]),
//! all inside a staging directory that becomes OUT only when the run succeeds
//! (`ldd_io::Staging`); `align`'s Pharaoh and posterior files ([`alignments`]); and the
//! figures `check-detection --record` keeps for the registry ([`detection`]). What
//! later commands added to a previous output is kept across a re-run that gives the same
//! sets, or refused ([`later`]).
//!
//! In short (what enters → what leaves): selected lines, marks, controls, alignments → set
//! files (`set`: `SetWriters`, one writer per phenomenon and bucket, a line with its
//! matches written to every set it qualifies for), control files
//! (`controls::draw_controls`: each group of sets' controls drawn by `sample`, then their
//! lines read once and written), the reordering sets once the corpus is aligned
//! (`reorder_sets`: the loci's reference words, the corpus-wide files, the `reorder/geK`
//! sets by a second pass over the corpus, the aligner beside them), a shard's own files and
//! manifest record (`shard`), `manifest.json` and `summary.csv` (in the schemas of
//! `src/format`); the files later commands added to a previous output, kept when the sets
//! are unchanged, else refused without `--replace` (`later`)

pub mod alignments;
pub mod controls;
pub mod detection;
pub mod later;
pub mod locus;
pub mod reorder_files;
pub mod reorder_sets;
pub mod set;
pub mod shard;
pub mod summary;
