//! The plan of `languages`.

use ldd_sets::config::registry::{Language, Registry};
use ldd_sets::error::{Error, Result};
use ldd_sets::format::detection::Recorded;

use super::super::args::languages::LanguagesArgs;

/// `languages`'s plan.
pub struct LanguagesPlan {
    /// The built-in registry.
    pub registry: &'static Registry,
    /// The one language shown in full (`None`: the table of all).
    pub language: Option<&'static Language>,
    /// Detection measured against gold trees (`config/detection.toml`, built in).
    pub measured: Recorded,
}

/// `languages`'s plan: a code the registry does not know is refused.
pub fn languages(args: &LanguagesArgs) -> Result<LanguagesPlan> {
    let registry = Registry::builtin()?;
    let language = match &args.code {
        Some(code) => Some(registry.language(code).ok_or_else(|| {
            Error::Config(format!(
                "no language `{}` in the UDPipe 2.5 registry (`ldd-sets languages` lists them)",
                ldd_io::error::escape(code)
            ))
        })?),
        None => None,
    };
    Ok(LanguagesPlan {
        registry,
        language,
        measured: Recorded::builtin()?,
    })
}
