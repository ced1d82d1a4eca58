//! The report's section on human judgements from MQM annotations (`mqm.json`, written by
//! `ldd-sets mqm`): how far the locus judgement agrees with the raters, at the word and the
//! locus level, and each system's human and automatic accuracy beside its MQM score.

use std::fmt::Write as _;

use super::esc;
use crate::format::mqm::Agreement;
use crate::report::Report;

fn f3(value: Option<f64>) -> String {
    value.map_or_else(|| "–".into(), |v| format!("{v:.3}"))
}

fn f1(value: Option<f64>) -> String {
    value.map_or_else(|| "–".into(), |v| format!("{v:.1}"))
}

fn row(out: &mut String, name: &str, agreement: &Agreement) {
    let _ = write!(
        out,
        "<tr><td>{name}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>\
         <td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>\
         <td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr>",
        agreement.items,
        f3(agreement.coverage),
        f3(agreement.incorrect_share),
        f3(agreement.rater_error_rate),
        f3(agreement.error_if_incorrect),
        f3(agreement.error_if_correct),
        f3(agreement.mcc),
        f3(agreement.kappa),
        f3(agreement.permutation_p),
        f3(agreement.spearman)
    );
}

/// The section, when the report has `mqm.json`.
pub fn section(out: &mut String, report: &Report) {
    let Some(m) = &report.mqm else {
        return;
    };
    let docs = if m.docs.is_empty() {
        "all documents".to_string()
    } else {
        format!("documents {}", esc(&m.docs.join(", ")))
    };
    let _ = write!(
        out,
        "<section id=\"mqm\"><h2>Human judgements (MQM)</h2>\n<p>{} of {} MQM segments found \
         in the corpus ({docs}); errors of severity {} count. A source word has a rater error \
         when an error span in the output overlaps a token aligned to it, or an omission span \
         in the source overlaps it; a locus when one of its words has. Coverage: the share of \
         items the judgement judges (the others have no reference token or no output token); \
         the rates are over the judged items; p: the permutation test within items \
         ({} shuffles); ρ: Spearman's correlation of the systems' accuracy with their MQM \
         score (docs/evaluation.md, \"Locus judgements against MQM\").</p>\
         <div class=\"wide\"><table><thead><tr><th>level</th><th class=\"n\">items</th>\
         <th class=\"n\">coverage</th><th class=\"n\">judged incorrect</th>\
         <th class=\"n\">rater error</th><th class=\"n\">P(err | incorrect)</th>\
         <th class=\"n\">P(err | correct)</th><th class=\"n\">MCC</th><th class=\"n\">κ</th>\
         <th class=\"n\">p</th><th class=\"n\">ρ</th></tr></thead><tbody>",
        m.segments.used,
        m.segments.segments,
        esc(&m.severities.join(", ")),
        m.words.permutations
    );
    row(out, "content words", &m.words);
    row(out, "loci", &m.loci);
    out.push_str(
        "</tbody></table></div>\n<h3>Per system</h3><div class=\"wide\"><table><thead><tr>\
         <th>system</th><th class=\"n\">MQM</th><th class=\"n\">human locus accuracy</th>\
         <th class=\"n\">locus accuracy</th><th class=\"n\">human word accuracy</th>\
         <th class=\"n\">word accuracy</th></tr></thead><tbody>",
    );
    for x in &m.systems {
        let _ = write!(
            out,
            "<tr><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>\
             <td class=\"n\">{}</td><td class=\"n\">{}</td></tr>",
            esc(&x.system),
            f3(x.mqm),
            f1(x.human_locus_accuracy),
            f1(x.locus_accuracy),
            f1(x.human_word_accuracy),
            f1(x.word_accuracy)
        );
    }
    let _ = write!(
        out,
        "</tbody></table></div>\n<p>{} loci where the judgement and the raters disagree are \
         listed in mqm.disagreements.tsv.</p></section>\n",
        m.disagreements.len()
    );
}
