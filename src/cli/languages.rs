//! `languages`: the built-in registry of UDPipe 2.5 models — languages, codes, models and
//! the phenomena that run by default.

use clap::Args;

use ldd_sets::config::registry::{Language, Registry};
use ldd_sets::error::{Error, Result};

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
            print!("{}", detail(reg, lang));
        }
        None => print!("{}", table(reg)),
    }
    Ok(())
}

fn phenomena(p: &[String]) -> String {
    if p.is_empty() {
        "(none: reordering sets only)".to_string()
    } else {
        p.join(", ")
    }
}

/// One row per language, then its other models indented.
fn table(reg: &Registry) -> String {
    let models: usize = reg.languages.iter().map(|l| l.models.len()).sum();
    let mut out = format!(
        "UDPipe 2.5 models ({}, LINDAT handle 11234/1-3131): {} languages, {models} models.\n\
         A pair SRC-TGT without a config parses SRC with its default model (marked *) and runs\n\
         its default phenomena. `ldd-sets languages CODE` shows the evidence for them.\n\n",
        reg.release,
        reg.languages.len()
    );
    out.push_str(&format!(
        "{:<5} {:<6} {:<20} {:<45} model\n",
        "code", "639-3", "language", "default phenomena"
    ));
    for l in &reg.languages {
        let d = l.default_model();
        out.push_str(&format!(
            "{:<5} {:<6} {:<20} {:<45} * {}\n",
            l.code,
            l.iso639_3,
            l.name,
            phenomena(&d.phenomena),
            d.file
        ));
        for m in l.models.iter().filter(|m| !m.default) {
            out.push_str(&format!("{:79}   {}\n", "", m.file));
        }
    }
    out
}

/// Everything the registry says about one language.
fn detail(reg: &Registry, l: &Language) -> String {
    let mut out = format!(
        "{} — code {}, ISO 639-3 {}\ndefault phenomena: {}\n",
        l.name,
        l.code,
        l.iso639_3,
        phenomena(&l.default_model().phenomena)
    );
    if !l.notes.is_empty() {
        out.push_str(&format!("notes: {}\n", l.notes));
    }
    for m in &l.models {
        out.push_str(&format!(
            "\n{}{}\n  url:       {}\n  phenomena: {}\n  evidence:  {} (UD 2.5 treebank statistics)\n  sha256:    {}\n",
            m.file,
            if m.default { " (default)" } else { "" },
            reg.url(&m.file, None),
            phenomena(&m.phenomena),
            m.evidence,
            match (&m.sha256, m.size) {
                (Some(h), Some(n)) => format!("{h} ({n} bytes)"),
                (Some(h), None) => h.clone(),
                _ => "not known: a download must load as a UDPipe model".to_string(),
            }
        ));
    }
    out
}
