//! The handler of `mqm`: the plan, then the library, then the printer.

use ldd_sets::error::Result;
use ldd_sets::judge::mqm::{export, judge_mqm};
use ldd_sets::judge::{write_export, write_mqm};
use ldd_sets::printer;
use ldd_sets::printer::mqm::{export_summary, reading_notes, render_mqm};

use super::args::mqm::MqmArgs;
use super::args::Common;
use super::plan::{self, MqmPlan};

pub fn mqm(args: MqmArgs) -> Result<()> {
    let inputs = Common::inputs(&args);
    match plan::mqm(&args)? {
        MqmPlan::Export(p) => {
            let e = export(&p.files, p.reference_system.as_deref())?;
            let l = &p.languages;
            write_export(&e, &p.files, &p.dir, (l.source(), l.target()), &inputs)?;
            if !p.quiet {
                for line in reading_notes(&e.left_out, &e.identical, false) {
                    printer::say(&line);
                }
                printer::out(&export_summary(&e, &e.reference_system, &p.dir));
            }
        }
        MqmPlan::Judge(p) => {
            let r = judge_mqm(&p.sets, &p.options)?;
            write_mqm(&r, &p.out, p.items.as_deref(), &inputs)?;
            if !p.quiet {
                for line in reading_notes(&r.left_out, &r.identical, true) {
                    printer::say(&line);
                }
                printer::out(&render_mqm(&r.report, p.wide));
            }
        }
    }
    Ok(())
}
