//! `languages`: the built-in registry of UDPipe 2.5 models — languages, codes, models and
//! the phenomena that run by default.

use clap::Args;

use ldd_sets::config::registry::Registry;
use ldd_sets::error::{Error, Result};
use ldd_sets::printer;

use super::args::Common;

impl Common for LanguagesArgs {}

#[derive(Args)]
pub struct LanguagesArgs {
    /// Show one language in full (ISO 639-1 or 639-3 code): every model with its URL,
    /// checksum and the treebank statistics behind its default phenomena.
    #[arg(value_name = "CODE")]
    code: Option<String>,
}

pub fn languages(a: LanguagesArgs) -> Result<()> {
    let reg = Registry::builtin()?;
    match a.code {
        Some(code) => {
            let lang = reg.language(&code).ok_or_else(|| {
                Error::Config(format!(
                    "no language `{}` in the UDPipe 2.5 registry (`ldd-sets languages` lists them)",
                    ldd_io::error::escape(&code)
                ))
            })?;
            printer::out(&printer::languages::detail(reg, lang));
        }
        None => printer::out(&printer::languages::table(reg)),
    }
    Ok(())
}
