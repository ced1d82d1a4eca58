//! The plan of `parse`.

use std::path::PathBuf;

use ldd_sets::config::Pair;
use ldd_sets::error::Result;
use ldd_sets::pipeline::parse::ParseSettings;
use ldd_sets::pipeline::read::shard::Shard;

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
pub fn parse(args: &ParseArgs) -> Result<ParsePlan> {
    let quiet = args.quiet.quiet;
    let mut inputs = vec![args.src.as_path()];
    inputs.extend(args.model.model.as_deref());
    if let Some(out) = &args.out {
        ldd_io::output::check_file_output(out, &inputs)?;
    }
    let settings = parse_settings(&args.model, &args.threads, quiet);
    let pair = match &args.pair {
        Some(p) => Some(with_model_source(
            &args.model,
            pair(&args.config, p, quiet)?,
        )?),
        None => None,
    };
    Ok(ParsePlan {
        source: args.src.clone(),
        out: args.out.clone().map(std::path::PathBuf::from),
        settings,
        pair,
        shard: args.shard.shard,
    })
}
