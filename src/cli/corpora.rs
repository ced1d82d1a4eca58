//! The handler of `corpora`: the plan, then the library, then the printer.

use ldd_sets::error::Result;
use ldd_sets::fetch::fetch_corpora;

use super::args::corpora::CorporaArgs;
use super::plan;

pub fn corpora(args: CorporaArgs) -> Result<()> {
    let p = plan::corpora(&args)?;
    fetch_corpora(&p.pair, &p.dir, p.quiet).map(|_| ())
}
