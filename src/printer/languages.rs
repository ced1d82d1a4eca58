//! `languages`' output: the registry of UDPipe 2.5 models as a table, or one language in
//! full; and the note when a language pair runs on the registry's defaults.

use crate::config::registry::{Language, Registry};
use crate::config::{Pair, PairSpec};

/// A model's default phenomena, or a note that it runs reordering sets only.
fn phenomena(p: &[String]) -> String {
    if p.is_empty() {
        "(none: reordering sets only)".to_string()
    } else {
        p.join(", ")
    }
}

/// `languages`' table: one row per language (codes, name, default phenomena, default
/// model), then its other models indented.
pub fn table(reg: &Registry) -> String {
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

/// `languages CODE`: everything the registry says about one language.
pub fn detail(reg: &Registry, l: &Language) -> String {
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

/// The note when a pair has no config and runs on the registry's defaults: its model and
/// the names of its corpus files.
pub fn pair_defaults(spec: &PairSpec, p: &Pair) -> String {
    let model = p.model.as_ref().map_or_else(
        || "no registry model for the source language".to_string(),
        |m| format!("model {}", m.name),
    );
    format!(
        "ldd-sets: pair {spec}: no config, using the defaults ({model}; corpus files \
         <name>.{}.<lang>[.gz])",
        p.files
    )
}
