//! The handler of `align`: the plan, then the library, then the printer.

use ldd_sets::error::Result;
use ldd_sets::pipeline::align_corpus::align_corpus;
use ldd_sets::printer;

use super::args::align::AlignCmdArgs;
use super::plan;

pub fn align(args: AlignCmdArgs) -> Result<()> {
    let p = plan::align(&args)?;
    let report = align_corpus(&p.run)?;
    let (Some((gold, s)), Some((path, _))) = (report.gold, &p.run.gold) else {
        return Ok(());
    };
    for w in printer::align::gold_warnings(&gold, path) {
        printer::say(&w);
    }
    let (base, order) = &p.gold_form;
    printer::out(&printer::align::gold_summary(
        &gold,
        path,
        (*base, order),
        &p.run.align,
        &s,
    ));
    Ok(())
}
