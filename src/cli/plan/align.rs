//! The plan of `align`.

use std::path::PathBuf;

use ldd_align::GoldOptions;
use ldd_sets::config::Languages;
use ldd_sets::error::Result;
use ldd_sets::pipeline::align::{Direction, ModelType};
use ldd_sets::pipeline::align_corpus::AlignRun;

use super::super::args::align::AlignCmdArgs;
use super::align_options;

/// `align`'s plan.
pub struct AlignPlan {
    /// The corpus, the aligner's options, the outputs and the gold alignments.
    pub run: AlignRun,
    /// How the gold file gives its links, as typed: the first index (0 or 1) and which
    /// side it is (`src-tgt` or `tgt-src`), for the summary.
    pub gold_form: (u8, String),
}

/// `align`'s plan: the aligner's defaults (the HMM, the intersection), progress unless
/// `--quiet`.
pub fn align(args: &AlignCmdArgs) -> Result<AlignPlan> {
    let align = align_options(
        &args.align,
        !args.quiet.quiet,
        (ModelType::DEFAULT, Direction::Intersection),
    );
    let gold = GoldOptions {
        format: args.gold_format,
        one_based: args.gold_base == 1,
        target_first: args.gold_order == "tgt-src",
    };
    Ok(AlignPlan {
        run: AlignRun {
            source: args.src.clone(),
            target: args.tgt.clone(),
            conllu: args.conllu.clone(),
            languages: Languages::new(&args.src_lang, &args.tgt_lang)?,
            align,
            out: args.out.clone().map(std::path::PathBuf::from),
            posteriors: args.posteriors.clone().map(std::path::PathBuf::from),
            gold: args.gold.clone().map(|g: PathBuf| (g, gold)),
        },
        gold_form: (args.gold_base, args.gold_order.clone()),
    })
}
