//! The handlers of `sheets` and `tally`: the plan, then the library, then the printer.

use std::path::{Path, PathBuf};

use ldd_sets::error::Result;
use ldd_sets::judge::sheets::build;
use ldd_sets::judge::tally::tally_sheets;
use ldd_sets::judge::{write_tally, SheetsOutput};
use ldd_sets::printer;
use ldd_sets::printer::judge::{render_tally, sheets_summary};
use ldd_sets::score::load;

use super::args::judge::{SheetsArgs, TallyArgs};
use super::args::Common;
use super::plan;

pub fn sheets(args: SheetsArgs) -> Result<()> {
    let p = plan::sheets(&args)?;
    // The outputs are claimed and checked before any work.
    let mut inputs: Vec<&Path> = p.options.hyps.iter().map(PathBuf::as_path).collect();
    inputs.retain(|p| !ldd_io::is_stdin(p));
    inputs.push(&p.sets);
    let output = SheetsOutput::new(&p.out, &p.key, &inputs)?;
    let l = load(&p.sets)?;
    let s = build(&l, &p.options)?;
    output.write(&s)?;
    if !p.quiet {
        printer::out(&sheets_summary(
            &s,
            &p.out,
            (!s.key.is_empty()).then_some(p.key.as_path()),
        ));
    }
    Ok(())
}

pub fn tally(args: TallyArgs) -> Result<()> {
    let p = plan::tally(&args)?;
    let r = tally_sheets(&p.options)?;
    if let Some(dir) = &p.out {
        let inputs = Common::inputs(&args);
        write_tally(&r, dir, &inputs)?;
    }
    if !p.quiet {
        printer::out(&render_tally(&r, p.show));
    }
    Ok(())
}
