//! `languages`' arguments (what was typed): the command lists the built-in registry of
//! UDPipe 2.5 models — languages, codes, models and the phenomena that run by default.

use clap::Args;

use super::Common;

impl Common for LanguagesArgs {}

#[derive(Args)]
pub struct LanguagesArgs {
    /// Show one language in full (ISO 639-1 or 639-3 code): every model with its URL,
    /// checksum and the treebank statistics behind its default phenomena.
    #[arg(value_name = "CODE")]
    pub code: Option<String>,
}
