//! The plan of `corpora`.

use std::path::PathBuf;

use ldd_sets::config::Pair;
use ldd_sets::error::Result;

use super::super::args::corpora::CorporaArgs;
use super::pair;

/// `corpora`'s plan.
pub struct CorporaPlan {
    /// The pair whose corpora are downloaded.
    pub pair: Pair,
    /// Where they go.
    pub dir: PathBuf,
    /// Print nothing but errors.
    pub quiet: bool,
}

/// `corpora`'s plan: the pair's config (or the registry's defaults).
pub fn corpora(args: &CorporaArgs) -> Result<CorporaPlan> {
    Ok(CorporaPlan {
        pair: pair(&args.config, &args.pair, args.quiet.quiet)?,
        dir: args.dir.to_path_buf(),
        quiet: args.quiet.quiet,
    })
}
