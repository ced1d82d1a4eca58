//! The page's "Annotation" section: the annotators' tally (`report --tally`).

use std::fmt::Write as _;

use super::{ci, esc, f2};
use crate::format::sheet::{AutoAgreement, TallyReport};
use crate::report::Report;

/// `[[w]]` (the dependent, or the words aligned to it) and `{{w}}` (the head) of an
/// annotation sheet's text as marks (read by [`crate::format::sheet::parse_marks`]).
fn sheet_marks(text: &str) -> String {
    use crate::format::sheet::{parse_marks, Mark};
    let mut out = String::new();
    for (mark, t) in parse_marks(text) {
        let _ = match mark {
            None => write!(out, "{}", esc(&t)),
            Some(Mark::Dependent) => {
                write!(out, "<mark class=\"m-d\">{}<sub>dep</sub></mark>", esc(&t))
            }
            Some(Mark::Head) => {
                write!(out, "<mark class=\"m-h\">{}<sub>head</sub></mark>", esc(&t))
            }
        };
    }
    out
}

/// The agreement: raw, Fleiss' κ and Cohen's κ of every pair of annotators.
fn agreement(out: &mut String, tally: &TallyReport) {
    let _ = write!(
        out,
        "<section id=\"annotation\"><h2>Annotation</h2>\n<p>{} sheet, {} annotators, {} items \
         ({} answered by all). Raw agreement {}; Fleiss' κ {}.</p>",
        esc(&tally.kind),
        tally.annotators.len(),
        tally.units,
        tally.answered_by_all,
        f2(tally.agreement.raw),
        f2(tally.agreement.fleiss)
    );
    if tally.agreement.cohen.is_empty() {
        return;
    }
    out.push_str("<ul>");
    let name = |n: usize| {
        tally
            .annotators
            .get(n.wrapping_sub(1))
            .map_or_else(|| n.to_string(), |a| format!("<code>{}</code>", esc(a)))
    };
    for pair in &tally.agreement.cohen {
        let _ = write!(
            out,
            "<li>Cohen's κ of {} and {}: {} ({} items, agreement {})</li>",
            name(pair.first),
            name(pair.second),
            f2(pair.kappa),
            pair.units,
            f2(pair.agreement)
        );
    }
    out.push_str("</ul>");
}

/// The share judged correct per phenomenon, distance and system.
fn groups(out: &mut String, tally: &TallyReport) {
    let what = if tally.kind == "detection" {
        "detection precision: <i>yes</i> among <i>yes</i> and <i>no</i>"
    } else {
        "translation accuracy: <i>yes</i> among <i>yes</i>, <i>partly</i> and <i>no</i>"
    };
    let _ = write!(
        out,
        "<h3>By phenomenon and distance</h3><p>The annotators' majority answer; {what}, with its \
         {:.0}% Wilson interval.</p><div class=\"wide\"><table><thead><tr><th>phenomenon</th>\
         <th class=\"n\">d</th><th>system</th><th class=\"n\">items</th><th class=\"n\">judged</th>\
         <th class=\"n\">share</th></tr></thead><tbody>",
        100.0 * tally.confidence
    );
    for group in &tally.groups {
        let _ = write!(
            out,
            "<tr><td>{}</td><td class=\"n\">{}</td><td>{}</td><td class=\"n\">{}</td>\
             <td class=\"n\">{}</td><td class=\"n\">{}{}</td></tr>",
            esc(&group.phenomenon),
            group.distance,
            esc(group.system.as_deref().unwrap_or("–")),
            group.units,
            group.judged,
            f2(group.share),
            ci(group.ci_low, group.ci_high)
        );
    }
    out.push_str("</tbody></table></div>\n");
}

/// Locus accuracy against the annotators' majority, and the first 30 items they
/// disagree on.
fn automatic(out: &mut String, automatic: &AutoAgreement) {
    let _ = write!(
        out,
        "<h3>Locus accuracy against the annotators</h3><p>On the {} items both judged, locus \
         accuracy and the annotators' majority agree on {} (Cohen's κ {}). Locus accuracy said \
         correct where the annotators said yes {} times and otherwise {} times; incorrect where \
         they said yes {} times and otherwise {} times.</p>",
        automatic.units,
        f2(automatic.accuracy),
        f2(automatic.kappa),
        automatic.table[0][0],
        automatic.table[0][1],
        automatic.table[1][0],
        automatic.table[1][1]
    );
    if automatic.disagreements.is_empty() {
        return;
    }
    out.push_str(
        "<div class=\"wide\"><table><thead><tr><th>item</th><th>system</th>\
        <th>automatic</th><th>people</th><th>source / reference / output</th></tr></thead><tbody>",
    );
    for item in automatic.disagreements.iter().take(30) {
        let _ = write!(
            out,
            "<tr><td>{} {}<br><small>{} d = {}</small></td><td>{}</td><td>{}</td><td>{}</td>\
             <td>{}<br>{}<br>{}</td></tr>",
            esc(&item.item),
            esc(&item.slot),
            esc(&item.phenomenon),
            item.distance,
            esc(&item.system),
            esc(&item.automatic),
            esc(&item.majority),
            sheet_marks(&item.source),
            sheet_marks(&item.reference),
            sheet_marks(&item.output)
        );
    }
    out.push_str("</tbody></table></div>\n");
}

/// The annotators' tally (`report --tally`): agreement, shares per group, locus accuracy
/// against the annotators, and the items where the two disagree.
pub(super) fn annotation(out: &mut String, report: &Report) {
    let Some(tally) = &report.tally else {
        return;
    };
    agreement(out, tally);
    groups(out, tally);
    if let Some(against) = &tally.automatic {
        automatic(out, against);
    }
    out.push_str("</section>\n");
}
