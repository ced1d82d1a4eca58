//! The page's "Inputs and settings" section: the input files, parser, rules, reordering,
//! controls and scores the sets were made with, and the recorded command lines.

use std::fmt::Write as _;

use super::esc;
use crate::format::command::shell_line;
use crate::format::manifest::{Manifest, ShardRecord};
use crate::format::options::ModelType;
use crate::format::sets::ControlStatus;
use crate::pipeline::align::Direction;
use crate::pipeline::detect::rules::Order;
use crate::report::scores::metric_label;
use crate::report::views::Views;
use crate::report::Report;
use crate::score::Scores;

/// The aligner model a manifest records, as the settings name it.
fn aligner_model(model: ModelType) -> &'static str {
    match model {
        ModelType::Hmm => "the HMM, both directions trained by agreement",
        ModelType::FastAlign => "fast_align's model",
    }
}

/// The EM iterations of the recorded aligner: the HMM's fixed schedule (IBM Model 1, then
/// the HMM), or fast_align's `-I`.
fn em_iterations(aligner: &crate::format::options::Align) -> String {
    match aligner.model_type {
        ModelType::Hmm => {
            let h = ldd_align::HmmOptions::default();
            format!(
                "{} IBM Model 1 + {} HMM EM iterations",
                h.ibm1_iterations, h.hmm_iterations
            )
        }
        ModelType::FastAlign => format!("{} EM iterations", aligner.iterations),
    }
}

fn file_row(out: &mut String, label: &str, file: &ldd_io::FileInfo) {
    let _ = writeln!(
            out,
            "<tr><th scope=\"row\">{}</th><td><code>{}</code><br>{} lines, {} bytes, SHA-256 <code title=\"{}\">{}…</code></td></tr>",
        label,
        esc(&file.path.display().to_string()),
        file.lines,
        file.bytes,
        esc(&file.sha256),
        esc(file.sha256.get(..12).unwrap_or(&file.sha256))
    );
}

fn condition(condition: &crate::format::options::Condition) -> String {
    let mut parts = Vec::new();
    for (k, v) in [
        ("deprel", &condition.deprel),
        ("not deprel", &condition.not_deprel),
        ("upos", &condition.upos),
        ("not upos", &condition.not_upos),
        ("feats", &condition.feats),
        ("not feats", &condition.not_feats),
        ("lemma", &condition.lemma),
        ("form", &condition.form),
    ] {
        if !v.is_empty() {
            parts.push(format!("{k} ∈ {{{}}}", esc(&v.join(", "))));
        }
    }
    if parts.is_empty() {
        "any word".into()
    } else {
        parts.join("; ")
    }
}

/// The command lines that made the sets, as the manifest recorded them: every shard's,
/// then `merge`'s, for a merged run (empty: not recorded, sets of an older version).
fn sets_commands(report: &Report) -> Vec<&[String]> {
    let m = &report.manifest;
    let mut out: Vec<&[String]> = Vec::new();
    if let Some(ShardRecord::Merged(ms)) = &m.shard {
        out.extend(ms.shards.iter().map(|p| p.command.as_slice()));
    }
    out.push(&m.tool.command);
    out.retain(|c| !c.is_empty());
    out
}

/// The input files, the parser and the corpus.
fn inputs_rows(out: &mut String, report: &Report) {
    let manifest = &report.manifest;
    file_row(out, "Source", &manifest.inputs.source);
    file_row(out, "Target (reference)", &manifest.inputs.target);
    file_row(out, "Source trees (CoNLL-U)", &manifest.inputs.conllu);
    let _ = writeln!(
        out,
        "<tr><th scope=\"row\">Parser</th><td>{}</td></tr>",
        match &report.parse {
            Some(p) => format!(
                "UDPipe model <code>{}</code> (SHA-256 <code title=\"{}\">{}…</code>), parsed by ldd-sets ({})",
                esc(&p.model.display().to_string()),
                esc(&p.model_sha256),
                esc(p.model_sha256.get(..12).unwrap_or(&p.model_sha256)),
                esc(&p.format)
            ),
            None => "none: the trees were given with <code>--conllu</code> (gold trees or another parser's output)".into(),
        }
    );
    let _ = writeln!(
        out,
            "<tr><th scope=\"row\">Corpus</th><td>{} lines ({} with an empty side, never selected), {} source words; {}</td></tr>",
        manifest.corpus.lines,
        manifest.corpus.empty_lines,
        manifest.corpus.source_words,
        esc(&format!("{} → {}", manifest.languages.source(), manifest.languages.target()))
    );
}

/// The rules of the lexical sets, a row per phenomenon.
fn rules_row(out: &mut String, manifest: &Manifest) {
    let _ = write!(
        out,
        "<tr><th scope=\"row\">Rules</th><td><code>{}</code>; buckets ge0…ge{max} and eq0…eq{max} (distance = words strictly between dependent and head)<table>\
         <thead><tr><th>phenomenon</th><th>dependent</th><th>head</th><th>order</th><th>description</th></tr></thead><tbody>",
        esc(&manifest.rules.source.display().to_string()),
        max = manifest.rules.max_distance
    );
    for p in &manifest.rules.phenomena {
        let order = Order::from(p.order).name();
        let _ = write!(
            out,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            esc(&p.name),
            condition(&p.dependent),
            condition(&p.head),
            esc(order),
            esc(&p.description)
        );
    }
    out.push_str("</tbody></table></td></tr>\n");
}

/// How the reordering sets were built (or that they were not).
fn reordering_row(out: &mut String, manifest: &Manifest) {
    match &manifest.reorder {
        None => out.push_str("<tr><th scope=\"row\">Reordering</th><td>not built (<code>--no-reorder</code>)</td></tr>\n"),
        Some(ro) => {
            let o = &ro.options;
            let how = match (&o.alignments, &o.align.model) {
                (Some(p), _) => format!("alignments read from <code>{}</code>", esc(&p.display().to_string())),
                (None, Some(p)) => format!("built-in aligner, models loaded from <code>{}</code>", esc(&p.display().to_string())),
                (None, None) => format!(
                    "built-in aligner ({}), trained on {} pairs{}",
                    aligner_model(o.align.model_type),
                    ro.trained_pairs,
                    if o.align.train.is_empty() {
                        String::new()
                    } else {
                        format!(
                            " (with {})",
                            o.align.train.iter().map(|t| format!("<code>{}</code>", esc(&t.display().to_string()))).collect::<Vec<_>>().join(", ")
                        )
                    }
                ),
            };
            let _ = writeln!(
        out,
            "<tr><th scope=\"row\">Reordering</th><td>{how}; direction <code>{}</code>, {}; \
                 buckets {}; source tokens: {}; target tokens: {}; {} lines with a link between words</td></tr>",
                Direction::from(o.align.direction).name(),
                em_iterations(&o.align),
                esc(&o.buckets.iter().map(|&b| crate::layout::bucket(false, b)).collect::<Vec<_>>().join(", ")),
                esc(&ro.source_tokens),
                esc(&ro.target_tokens),
                ro.lines_with_links
            );
        }
    }
}

/// The controls: how many per set, the seed and the length tolerance.
fn controls_row(out: &mut String, manifest: &Manifest) {
    if let Some(c) = manifest.controls.first() {
        let short = manifest
            .controls
            .iter()
            .filter(|c| c.status == ControlStatus::PoolTooSmall)
            .count();
        let _ = writeln!(
        out,
            "<tr><th scope=\"row\">Controls</th><td>{} length-matched control corpora per set (seed {}, length within {} word{}{}){}</td></tr>",
            c.count,
            c.seed,
            c.tolerance,
            if c.tolerance == 1 { "" } else { "s" },
            if c.include_set { ", set members allowed" } else { ", set members excluded" },
            if short > 0 {
                format!("; {short} set(s) had too small a pool of same-length sentences")
            } else {
                String::new()
            }
        );
    } else {
        out.push_str("<tr><th scope=\"row\">Controls</th><td>none</td></tr>\n");
    }
}

/// The scores file, its systems, the metrics' signatures and the significance test.
fn scores_rows(out: &mut String, report: &Report, scores: &Scores, views: &Views) {
    let _ = writeln!(
        out,
        "<tr><th scope=\"row\">Scores</th><td><code>{}</code>; reference <code>{}</code>; systems: {}</td></tr>",
        esc(&report.scores_path.as_ref().map(|p| p.display().to_string()).unwrap_or_default()),
        esc(&scores.reference.as_ref().map(|p| p.display().to_string()).unwrap_or_else(|| "–".into())),
        scores.systems
            .iter()
            .enumerate()
            .map(|(i, x)| format!(
                "{}{} (<code>{}</code>)",
                esc(&x.name),
                if i == 0 && scores.systems.len() > 1 { ", the baseline of p-values" } else { "" },
                esc(&x.path.as_ref().map(|p| p.display().to_string()).unwrap_or_else(|| "–".into()))
            ))
            .collect::<Vec<_>>()
            .join("; ")
    );
    out.push_str("<tr><th scope=\"row\">Signatures</th><td>");
    for t in views.scores.iter().flat_map(|v| &v.tables) {
        let _ = write!(
            out,
            "{}: <code>{}</code><br>",
            esc(metric_label(t.metric)),
            esc(scores.signature(t.metric).unwrap_or("–"))
        );
    }
    if let Some(set) = &scores.settings {
        let _ = write!(out, "<small>{}</small>", esc(set));
    }
    out.push_str("</td></tr>\n");
    let sig = scores.significance.clone();
    let _ = writeln!(
        out,
        "<tr><th scope=\"row\">Significance</th><td>{}</td></tr>",
        match sig.method.as_deref() {
            Some(meth) => format!(
                "{} ({}), {} resamples, seed {}, confidence {}",
                esc(meth),
                if meth == "bs" {
                    "paired bootstrap resampling"
                } else {
                    "approximate randomisation"
                },
                sig.resamples.map_or_else(|| "–".into(), |n| n.to_string()),
                sig.seed.map_or_else(|| "–".into(), |n| n.to_string()),
                sig.confidence
                    .map_or_else(|| "–".into(), |c| format!("{c}"))
            ),
            None => "– (not computed; marks use the set's rank among its controls)".into(),
        }
    );
}

/// The commands that made the sets and the scores, and the `report` command.
fn commands(out: &mut String, report: &Report) {
    let sets = sets_commands(report);
    let scores = report
        .scores
        .as_ref()
        .map_or(&[][..], |sc| &sc.commands[..]);
    if sets.is_empty() {
        out.push_str(
            "<p>The command that made these sets was not recorded (sets written by an older \
             version of ldd-sets); the settings above are what it ran with.</p>\n",
        );
    }
    out.push_str("<p>The commands, as recorded in <code>manifest.json</code>");
    if report.scores.is_some() {
        out.push_str(" and <code>scores.json</code>");
    }
    out.push_str(" (<code>--out</code>, <code>--threads</code> and <code>--quiet</code> change nothing in them and are not recorded: add <code>--out DIR</code> to run one again):</p>\n<pre class=\"cmd\">");
    for c in sets.into_iter().chain(scores.iter().map(Vec::as_slice)) {
        let _ = writeln!(out, "{}", esc(&shell_line(c)));
    }
    let _ = writeln!(
        out,
        "ldd-sets report --sets {}</pre>\n</section>",
        esc(&ldd_io::shell::path(&report.dir))
    );
}

/// The inputs and settings the sets were made with, then the commands that made them.
pub(super) fn settings(out: &mut String, report: &Report, views: &Views) {
    out.push_str("<section id=\"settings\"><h2>Inputs and settings</h2>\n<table>\n");
    inputs_rows(out, report);
    rules_row(out, &report.manifest);
    reordering_row(out, &report.manifest);
    controls_row(out, &report.manifest);
    if let Some(scores) = &report.scores {
        scores_rows(out, report, scores, views);
    }
    out.push_str("</table>\n");
    commands(out, report);
}
