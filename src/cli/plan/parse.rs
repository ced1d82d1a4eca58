//! The plan of `parse`.

use std::path::PathBuf;

use ldd_sets::config::Pair;
use ldd_sets::error::Result;
use ldd_sets::parse::ParseSettings;
use ldd_sets::read::shard::Shard;

use super::super::args::parse::ParseArgs;
use super::{pair, parse_settings, with_model_source};

/// `parse`'s plan.
pub struct ParsePlan {
    /// Source side of the corpus.
    pub source: PathBuf,
    /// Where the CoNLL-U goes (`None`: only cached).
    pub out: Option<PathBuf>,
    /// Model lookup, parse cache, threads, quiet.
    pub settings: ParseSettings,
    /// The pair naming the model, its download source filled in (`None`: no `--pair`).
    pub pair: Option<Pair>,
    /// Only this shard of the corpus.
    pub shard: Option<Shard>,
}

/// `parse`'s plan; an output that is one of the inputs is refused before any parse.
pub fn parse(a: &ParseArgs) -> Result<ParsePlan> {
    let quiet = a.quiet.quiet;
    let mut inputs = vec![a.src.as_path()];
    inputs.extend(a.model.model.as_deref());
    if let Some(out) = &a.out {
        ldd_io::output::check_file_output(out, &inputs)?;
    }
    let settings = parse_settings(&a.model, &a.threads, quiet);
    let pair = match &a.pair {
        Some(p) => Some(with_model_source(&a.model, pair(&a.config, p, quiet)?)?),
        None => None,
    };
    Ok(ParsePlan {
        source: a.src.clone(),
        out: a.out.clone(),
        settings,
        pair,
        shard: a.shard.shard,
    })
}
