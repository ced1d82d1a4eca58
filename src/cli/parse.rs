//! The handler of `parse`: the plan, then the library, then the printer.

use ldd_sets::error::Result;
use ldd_sets::pipeline::parse::{find_model, write_parse};
use ldd_sets::pipeline::{prepare_corpus, Trees};

use super::args::parse::ParseArgs;
use super::plan;

pub fn parse(args: ParseArgs) -> Result<()> {
    let p = plan::parse(&args)?;
    let model = find_model(p.pair.as_ref().and_then(|p| p.model.as_ref()), &p.settings)?;
    let prepared = prepare_corpus(&p.source, Trees::Parse(model.clone()), &p.settings, p.shard)?;
    match &p.out {
        Some(out) => write_parse(&prepared.conllu, out, &[&p.source, &model]),
        None => Ok(()),
    }
}
