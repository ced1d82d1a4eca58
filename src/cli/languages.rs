//! The handler of `languages`: the plan, then the library, then the printer.

use ldd_sets::error::Result;
use ldd_sets::printer;

use super::args::languages::LanguagesArgs;
use super::plan;

pub fn languages(args: LanguagesArgs) -> Result<()> {
    let p = plan::languages(&args)?;
    match p.language {
        Some(lang) => printer::out(&printer::languages::detail(p.registry, lang, &p.measured)),
        None => printer::out(&printer::languages::table(p.registry, &p.measured)),
    }
    Ok(())
}
