//! The handler of `permute`: the plan, then the library, then the printer.

use ldd_sets::error::Result;
use ldd_sets::permute::permute_corpus;
use ldd_sets::printer;
use ldd_sets::printer::permute::permute_summary;

use super::args::permute::PermuteArgs;
use super::plan;

pub fn permute(args: PermuteArgs) -> Result<()> {
    let p = plan::permute(&args)?;
    let r = permute_corpus(&p.options)?;
    if !p.quiet {
        printer::out(&permute_summary(&r, &p.options.out));
    }
    Ok(())
}
