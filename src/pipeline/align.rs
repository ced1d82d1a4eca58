//! `align`: a parallel corpus word-aligned and written in Pharaoh format.
//!
//! With a parse, the source tokens are the UD words of its trees and the pairs are built
//! exactly as `extract` builds them, so `align --conllu` output fed to
//! `extract --alignments` gives the same reordering sets as `extract`'s own alignment with
//! the same settings.

use std::path::PathBuf;

use ldd_align::Corpus;
use ldd_conllu::parse_block;

use crate::detect::align::{align, pair_tokens, push_files, AlignOptions};
use crate::error::Result;
use crate::read::lockstep::{Line, Lockstep};
use crate::read::Languages;

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
    /// The Pharaoh output file.
    pub out: PathBuf,
}

/// Aligns the corpus and writes the alignments (all-or-nothing).
pub fn align_corpus(run: &AlignRun) -> Result<()> {
    run.languages.check()?;
    let mut inputs = vec![run.source.as_path(), run.target.as_path()];
    inputs.extend(run.conllu.as_deref());
    inputs.extend(run.align.train.iter().map(PathBuf::as_path));
    ldd_io::output::refuse_same_file(&run.out, &inputs)?;
    let mut pairs = Corpus::new();
    match &run.conllu {
        Some(conllu) => {
            let mut input = Lockstep::open(&run.source, &run.target, conllu)?;
            let mut line = Line::default();
            while input.next(&mut line)? {
                let tree = parse_block(&line.block, conllu)?;
                let (s, t) = pair_tokens(&tree, &line.source, &line.target, run.align.pretokenized);
                pairs.push_pair(&s, &t);
            }
            input.finish()?;
        }
        None => {
            push_files(&mut pairs, &run.source, &run.target, run.align.pretokenized)?;
        }
    }
    let langs = (run.languages.source.as_str(), run.languages.target.as_str());
    let aligned = align(&pairs, &run.align, langs)?;
    ldd_io::write_file_atomic(&run.out, |w| {
        for a in &aligned.alignments {
            writeln!(w, "{}", ldd_align::pharaoh::format_line(a))?;
        }
        Ok(())
    })
}
