//! `languages`: the built-in registry of UDPipe 2.5 models — languages, codes, models and
//! the phenomena that run by default.

use clap::Args;

use ldd_sets::error::Result;
use ldd_sets::printer;

use super::args::Common;
use super::plan;

impl Common for LanguagesArgs {}

#[derive(Args)]
pub struct LanguagesArgs {
    /// Show one language in full (ISO 639-1 or 639-3 code): every model with its URL,
    /// checksum and the treebank statistics behind its default phenomena.
    #[arg(value_name = "CODE")]
    pub code: Option<String>,
}

pub fn languages(a: LanguagesArgs) -> Result<()> {
    let p = plan::languages(&a)?;
    match p.language {
        Some(lang) => printer::out(&printer::languages::detail(p.registry, lang)),
        None => printer::out(&printer::languages::table(p.registry)),
    }
    Ok(())
}
