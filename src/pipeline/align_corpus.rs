//! `align`: a parallel corpus word-aligned and written in Pharaoh format, and scored
//! against gold alignments (alignment error rate, precision, recall): its pairs read
//! ([`crate::pipeline::align::read_corpus_pairs`]), aligned, written
//! ([`crate::pipeline::write::alignments`]) and scored (`ldd_align`).
//!
//! With a parse, the source tokens are the UD words of its trees and the pairs are built
//! exactly as `extract` builds them, so `align --conllu` output fed to
//! `extract --alignments` gives the same reordering sets as `extract`'s own alignment with
//! the same settings.

use std::path::PathBuf;

use ldd_align::{alignment_error_rate, read_gold, AerScores, Gold, GoldOptions, PairStoreBuilder};

use crate::config::Languages;
use crate::error::{Error, Result};
use crate::pipeline::align::{
    align_stored, read_corpus_pairs, AlignOptions, CorpusSides, ModelType, TooLong,
};
use crate::pipeline::write::alignments::{create_model_dirs, AlignFiles};

/// What `align` aligns.
#[derive(Debug, Clone)]
pub struct AlignRun {
    /// Source side.
    pub source: PathBuf,
    /// Target side.
    pub target: PathBuf,
    /// Parse of the source side: its UD words are the source tokens.
    pub conllu: Option<PathBuf>,
    /// Languages (name the `--align-train` files).
    pub languages: Languages,
    /// The aligner's options.
    pub align: AlignOptions,
    /// The Pharaoh output file (none: alignments are only scored).
    pub out: Option<PathBuf>,
    /// The confidence of every link of `out`, one line per pair (the HMM's only).
    pub posteriors: Option<PathBuf>,
    /// Gold alignments of the corpus to score the alignments against.
    pub gold: Option<(PathBuf, GoldOptions)>,
}

/// What `align` did.
#[derive(Debug)]
pub struct AlignReport {
    /// Sentence pairs aligned.
    pub pairs: usize,
    /// The gold alignments read and the scores against them.
    pub gold: Option<(Gold, AerScores)>,
}

/// Aligns the corpus, writes the alignments (all-or-nothing) and scores them against the
/// gold alignments. Gold token indices refer to the tokens aligned here (with `--conllu`,
/// UD words; else the aligner's tokenizer, or whitespace with `pretokenized`). The corpus
/// is encoded into a temporary store as it is read and its alignments written as they are
/// made: memory holds neither (but the gold, and the alignments it scores).
pub fn align_corpus(run: &AlignRun) -> Result<AlignReport> {
    let mut inputs = vec![run.source.as_path(), run.target.as_path()];
    inputs.extend(run.conllu.as_deref());
    inputs.extend(run.align.train.iter().map(PathBuf::as_path));
    if run.posteriors.is_some() && run.align.model_type != ModelType::Hmm {
        return Err(Error::Config(format!(
            "--posteriors needs --align-model-type hmm: {} has no link posteriors",
            run.align.model_type
        )));
    }
    let (opts, scoring) = (&run.align, run.gold.is_some());
    let mut store = PairStoreBuilder::new()?;
    let mut over = TooLong::default();
    let mut lengths: Vec<(usize, usize)> = Vec::new();
    let sides = (run.source.as_path(), run.target.as_path());
    read_corpus_pairs(sides, run.conllu.as_deref(), opts, |s, t| {
        over.add(s.len(), t.len(), opts.max_tokens);
        if scoring {
            lengths.push((s.len(), t.len()));
        }
        Ok(store.push_pair(s, t)?)
    })?;
    let store = store.finish()?;
    let langs = (run.languages.source(), run.languages.target());
    // Read the gold first: a bad gold file fails before the (long) alignment.
    let gold = match &run.gold {
        Some((path, gopts)) => Some(read_gold(path, gopts, &lengths)?),
        None => None,
    };
    // The outputs are opened once everything is read, just before the (long) alignment.
    create_model_dirs(&run.align)?;
    let mut files = AlignFiles::create(run.out.as_deref(), run.posteriors.as_deref(), &inputs)?;
    let own = CorpusSides {
        source: &run.source,
        target: &run.target,
    };
    let mut alignments = Vec::new();
    // An output error stops the aligner and is reported as itself.
    let mut failed = None;
    let aligned = align_stored(&store, over, opts, langs, Some(own), |_, links, post| {
        if let Err(e) = files.line(links, post) {
            failed = Some(e);
            return Err(ldd_align::AlignError::Options("output failed".into()));
        }
        if scoring {
            alignments.push(links.to_vec());
        }
        Ok(())
    });
    if let Some(e) = failed {
        return Err(e);
    }
    aligned?;
    files.commit()?;
    let gold = match gold {
        Some(g) => {
            let scores = alignment_error_rate(&g.sentences, &alignments)?;
            Some((g, scores))
        }
        None => None,
    };
    Ok(AlignReport {
        pairs: store.len(),
        gold,
    })
}
