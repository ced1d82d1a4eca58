//! The handler of `report`: the plan, then the library, then the printer.

use ldd_sets::error::Result;
use ldd_sets::pipeline::read::sets::load;
use ldd_sets::printer;
use ldd_sets::report::{gather, render};

use super::args::outputs;
use super::args::report::ReportArgs;
use super::plan;

/// Names the output, loads the sets, gathers, renders and writes the report
/// all-or-nothing.
pub fn report(args: ReportArgs) -> Result<()> {
    let p = plan::report(&args)?;
    // The default page in the sets directory goes through the guard an --out does.
    ldd_io::Output::new(&p.out, &outputs::REPORT).check(false, &[])?;
    let opts = &p.options;
    let r = gather(
        load(&opts.sets)?,
        opts.scores.as_deref(),
        opts.examples,
        opts.tally.as_deref(),
        opts.mqm.as_deref(),
        &opts.outputs,
    )?;
    if let (Some(mqm), None, false) = (&opts.mqm, &r.mqm, p.quiet) {
        // Given, read, and made for other sets: the page says so; so does the terminal.
        printer::say(&printer::mqm::other_sets_warning(mqm));
    }
    let text = render(&r, opts.format)?;
    ldd_io::fs::create_parent(&p.out)?;
    ldd_io::write_bytes_atomic(&p.out, text.as_bytes())?;
    if !p.quiet {
        printer::out(&printer::written("report", &p.out));
    }
    Ok(())
}
