//! The handler of `contrast`: the plan, then the library, then the printer.

use ldd_sets::contrast::contrast_sets;
use ldd_sets::error::Result;
use ldd_sets::pipeline::read::sets::load;
use ldd_sets::printer;
use ldd_sets::printer::contrast::contrast_summary;

use super::args::contrast::ContrastArgs;
use super::plan;

pub fn contrast(args: ContrastArgs) -> Result<()> {
    let p = plan::contrast(&args)?;
    let quiet = p.quiet;
    let l = load(&p.sets)?;
    let o = p.options(&l)?;
    let r = contrast_sets(&l, &o)?;
    if !quiet {
        printer::out(&contrast_summary(&r, &o.out));
    }
    Ok(())
}
