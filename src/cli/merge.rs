//! The handler of `merge`: the plan, then the library, then the printer.

use ldd_sets::error::Result;
use ldd_sets::pipeline::merge::merge_shards;
use ldd_sets::printer;

use super::args::merge::MergeArgs;
use super::plan;

pub fn merge(args: MergeArgs) -> Result<()> {
    let p = plan::merge(&args);
    let merged = merge_shards(&p.options)?;
    if p.quiet {
        return Ok(());
    }
    for m in &merged {
        printer::out(&printer::extract::merge_summary(m));
    }
    Ok(())
}
