//! The reordering sets, once the corpus is aligned ([`write_reorder`]): the reference words
//! aligned to the loci of the lexical sets, the corpus-wide reordering files
//! ([`super::reorder_files`]), the `reorder/geK` sets of the chosen measure — written by a
//! second pass over the corpus, since a line's membership is known only once every line is
//! aligned — and the aligner beside them, so that every later command aligns with it.

use std::path::Path;

use ldd_align::{Corpus, Reordering};
use ldd_conllu::parse_block;

use super::locus::add_reference;
use super::reorder_files::write_corpus_files;
use super::set::{Entry, SetWriter};
use crate::error::Result;
use crate::format::marked::mark_links;
use crate::format::options::{ReorderFiles, ReorderInfo};
use crate::format::sets::{SetEntry, SetFiles, SetKind};
use crate::layout;
use crate::pipeline::align::cache::{AlignerSummary, Obtained};
use crate::pipeline::align::Aligned;
use crate::pipeline::bucket::Bucket;
use crate::pipeline::detect::locus::{self, AlignedLine};
use crate::pipeline::detect::reorder::{self, AlignedPairs, ReorderOptions};
use crate::pipeline::read::lockstep::{CorpusFiles, Line};

/// A corpus once aligned.
pub struct AlignedCorpus<'a> {
    /// Its files (read again for the reorder sets' lines).
    pub corpus: &'a CorpusFiles,
    /// Source and target language.
    pub langs: (&'a str, &'a str),
    /// Source words and target tokens: `pairs[k]` of the k-th line read.
    pub pairs: &'a Corpus,
    /// Their alignments.
    pub aligned: &'a Aligned,
    /// The reordering of every line, measured from them ([`reorder::measure`]).
    pub measures: &'a [Reordering],
    /// Source length in words of every line read (0 for empty lines).
    pub lengths: &'a [u32],
}

/// Writes the reordering sets under `root` once the lines read from `corpus` (in `langs`;
/// `pairs[k]` the tokens of the k-th line read, `lengths` their source lengths) are
/// aligned: `aligned` holds the reordering options, what [`reorder::align_pairs`]
/// returned and the lines' reordering measured from it (`None`: no reordering sets). Adds them to `written`; returns their record
/// and the aligner obtained for this corpus alone (`None` when `run` gave one).
pub fn write_aligned(
    root: &Path,
    aligned: Option<(&ReorderOptions, AlignedPairs, Vec<Reordering>)>,
    corpus: &CorpusFiles,
    langs: (&str, &str),
    pairs: &Corpus,
    lengths: &[u32],
    written: &mut Vec<SetEntry>,
) -> Result<(Option<ReorderInfo>, Option<AlignerSummary>)> {
    let Some((r, (aligned, obtained), measures)) = aligned else {
        return Ok((None, None));
    };
    let c = AlignedCorpus {
        corpus,
        langs,
        pairs,
        aligned: &aligned,
        measures: &measures,
        lengths,
    };
    let info = write_reorder(root, r, &c, obtained.as_deref(), written)?;
    let own = obtained.filter(|_| r.trained.is_none());
    Ok((Some(info), own.map(|a| a.summary())))
}

/// Writes under `root` what the reordering sets of `options` leave once `aligned_corpus` is
/// aligned: the reference words aligned to the loci of the lexical `sets` (already
/// written), the corpus-wide reordering files, the reorder sets (appended to `sets`) and
/// the `aligner`, when this run obtained one. Returns the manifest's record of them.
pub fn write_reorder(
    root: &Path,
    options: &ReorderOptions,
    aligned_corpus: &AlignedCorpus<'_>,
    aligner: Option<&Obtained>,
    sets: &mut Vec<SetEntry>,
) -> Result<ReorderInfo> {
    let first = aligned_corpus.corpus.first_line();
    let post = aligned_corpus.aligned.posteriors.as_deref();
    for set in sets.iter() {
        if let Some(rel) = &set.files.locus {
            add_reference(
                root,
                rel,
                first,
                aligned_corpus.pairs,
                &aligned_corpus.aligned.alignments,
                post,
            )?;
        }
    }
    let (rsets, mut info) = reorder_sets(root, options, aligned_corpus)?;
    sets.extend(rsets);
    // The aligner travels with the sets: every later command aligns with it.
    if let Some(a) = aligner {
        let prefix = layout::reorder_aligner();
        a.place(&root.join(&prefix))?;
        info.files.model = Some(prefix);
    }
    Ok(info)
}

/// Writes the corpus-wide files of the measured lines of `aligned_corpus` and then the
/// reorder sets of the chosen measure by a second pass over the inputs.
fn reorder_sets(
    root: &Path,
    options: &ReorderOptions,
    aligned_corpus: &AlignedCorpus<'_>,
) -> Result<(Vec<SetEntry>, ReorderInfo)> {
    let &AlignedCorpus {
        corpus,
        langs,
        pairs,
        aligned,
        measures,
        lengths,
    } = aligned_corpus;
    let (alignments, posteriors) = (&aligned.alignments, &aligned.posteriors);
    let files = ReorderFiles {
        posteriors: posteriors.is_some().then(layout::reorder_posteriors),
        ..ReorderFiles::standard()
    };
    let first = corpus.first_line();
    let post = posteriors.as_deref();
    write_corpus_files(root, &files, first, pairs, alignments, post, measures)?;

    let thresholds = options.thresholds();
    let mut writers = set_writers(root, &thresholds, langs)?;
    let mut input = corpus.open()?;
    let mut line = Line::default();
    let mut k = 0usize;
    while input.next(&mut line)? {
        let m = measures.get(k);
        let nonempty = lengths.get(k).is_some_and(|&l| l > 0);
        let member = options.membership(m.filter(|_| nonempty), &thresholds);
        if let (Some(m), true) = (m, member.contains(&true)) {
            let tree = parse_block(&line.block, &corpus.conllu)?;
            let text = tree.to_conllu();
            let links = options.marked_links(m);
            let id = first + k as u64;
            let loci = AlignedLine::new(pairs, k, alignments, post)
                .map(|a| locus::reorder(id, options.locus_distance(m), &links, &a))
                .unwrap_or_default();
            let (marked, marked_t) = mark_links(
                &tree.owned_tokens(),
                tree.len(),
                &pairs.tgt_tokens(k),
                &links,
            );
            for (w, _) in writers.iter_mut().zip(&member).filter(|(_, &m)| m) {
                w.write(&Entry {
                    id,
                    source: &line.source,
                    target: &line.target,
                    conllu: &text,
                    marked: &marked,
                    marked_target: Some(&marked_t),
                    pairs: 1,
                    loci: &loci,
                    words: u64::from(lengths[k]),
                })?;
            }
        }
        k += 1;
    }
    let mut sets = Vec::new();
    for (b, w) in thresholds.iter().zip(writers) {
        sets.push(w.finish(SetKind::Reorder, reorder::NAME, Bucket::AtLeast(*b))?);
    }
    Ok((sets, reorder_info(options, aligned, measures, files)))
}

/// The record of the reordering sets built with `options` from the lines `aligned` and
/// their `measures`, written to `files`.
fn reorder_info(
    options: &ReorderOptions,
    aligned: &Aligned,
    measures: &[Reordering],
    files: ReorderFiles,
) -> ReorderInfo {
    ReorderInfo {
        options: options.into(),
        source_tokens: "UD words of the source tree".into(),
        target_tokens: if options.align.pretokenized {
            "whitespace".into()
        } else {
            "ldd-align tokenizer".into()
        },
        trained_pairs: aligned.trained_pairs,
        too_long: aligned.too_long,
        lines_with_links: measures.iter().filter(|m| m.word_links > 0).count() as u64,
        sizes: options.sizes(measures),
        files,
    }
}

/// A writer of each reorder set `reorder/geK` (K in `thresholds`), with its marked target
/// side.
fn set_writers(root: &Path, thresholds: &[u32], langs: (&str, &str)) -> Result<Vec<SetWriter>> {
    let mut writers = Vec::new();
    for b in thresholds {
        let bucket = layout::bucket(false, *b);
        let mut f = SetFiles::new(reorder::NAME, &bucket, langs.0, langs.1);
        f.marked_target = Some(layout::set_file(
            reorder::NAME,
            &bucket,
            &layout::marked(langs.1),
        ));
        writers.push(SetWriter::create(root, f)?);
    }
    Ok(writers)
}
