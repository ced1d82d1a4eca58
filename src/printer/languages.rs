//! `languages`' output: the registry of UDPipe 2.5 models as a table, or one language in
//! full; and the note when a language pair runs on the registry's defaults.

use crate::config::registry::{Language, Registry};
use crate::config::{Pair, PairSpec};
use crate::format::detection::{Measured, Recorded};

/// A model's default phenomena, or a note that it runs reordering sets only.
fn phenomena(phenomena: &[String]) -> String {
    if phenomena.is_empty() {
        "(none: reordering sets only)".to_string()
    } else {
        phenomena.join(", ")
    }
}

/// A measurement in one line: `de_pud-ud-test.conllu lines 501-1000, german-small.udpipe:
/// reflexive P 0.931 R 0.893, particle P 0.800 R 0.676`.
fn measured_line(measured: &Measured) -> String {
    let num = |x: Option<f64>| x.map_or_else(|| "-".to_string(), |v| format!("{v:.3}"));
    let figures: Vec<String> = measured
        .phenomenon
        .iter()
        .map(|f| {
            format!(
                "{} P {} R {} ({} gold)",
                f.name,
                num(f.precision),
                num(f.recall),
                f.gold
            )
        })
        .collect();
    format!(
        "{} lines {}, {}: {}",
        measured.gold,
        measured.lines,
        measured.model,
        figures.join(", ")
    )
}

/// `languages`' table: one row per language (codes, name, default phenomena, default
/// model), then its other models indented, and the detection measured against gold trees
/// (`check-detection --record`) where it was.
pub fn table(reg: &Registry, measured: &Recorded) -> String {
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
        for m in measured.of_language(&l.code) {
            out.push_str(&format!("      detection vs gold: {}\n", measured_line(m)));
        }
    }
    out.push_str(
        "\ndetection vs gold: precision (P) and recall (R) of the rules on that model's parse,\n\
         against the gold trees (`ldd-sets check-detection`; `languages CODE` and docs/rules.md).\n",
    );
    out
}

/// `languages CODE`: everything the registry says about one language, and the detection
/// measured against its gold trees.
pub fn detail(reg: &Registry, language: &Language, measured: &Recorded) -> String {
    let mut out = format!(
        "{} — code {}, ISO 639-3 {}\ndefault phenomena: {}\n",
        language.name,
        language.code,
        language.iso639_3,
        phenomena(&language.default_model().phenomena)
    );
    if !language.notes.is_empty() {
        out.push_str(&format!("notes: {}\n", language.notes));
    }
    for m in &language.models {
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
    for m in measured.of_language(&language.code) {
        out.push_str(&format!(
            "\ndetection against gold trees (ldd-sets check-detection; docs/rules.md):\n  \
             gold:  {} (SHA-256 {}), lines {}\n  model: {} (SHA-256 {})\n  rules: {}\n",
            m.gold, m.gold_sha256, m.lines, m.model, m.model_sha256, m.rules
        ));
        for f in &m.phenomenon {
            let num = |x: Option<f64>| x.map_or_else(|| "-".to_string(), |v| format!("{v:.3}"));
            out.push_str(&format!(
                "  {:<24} gold {:>4}  found {:>4}  correct {:>4}  precision {}  recall {}\n",
                f.name,
                f.gold,
                f.found,
                f.correct,
                num(f.precision),
                num(f.recall)
            ));
        }
    }
    out
}

/// The note when a pair has no config and runs on the registry's defaults: its model and
/// the names of its corpus files.
pub fn pair_defaults(spec: &PairSpec, pair: &Pair) -> String {
    let model = pair.model.as_ref().map_or_else(
        || "no registry model for the source language".to_string(),
        |m| format!("model {}", m.name),
    );
    format!(
        "ldd-sets: pair {spec}: no config, using the defaults ({model}; corpus files \
         <name>.{}.<lang>[.gz])",
        pair.files
    )
}
