//! The page's "Annotation" section: the annotators' tally (`report --tally`).

use std::fmt::Write as _;

use super::{ci, esc, f2};
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

/// The annotators' tally (`report --tally`): agreement, shares per group, locus accuracy
/// against the annotators, and the items where the two disagree.
pub(super) fn annotation(s: &mut String, r: &Report) {
    let Some(t) = &r.tally else {
        return;
    };
    let _ = write!(
        s,
        "<section id=\"annotation\"><h2>Annotation</h2>\n<p>{} sheet, {} annotators, {} items \
         ({} answered by all). Raw agreement {}; Fleiss' κ {}.</p>",
        esc(&t.kind),
        t.annotators.len(),
        t.units,
        t.answered_by_all,
        f2(t.agreement.raw),
        f2(t.agreement.fleiss)
    );
    if !t.agreement.cohen.is_empty() {
        s.push_str("<ul>");
        let name = |n: usize| {
            t.annotators
                .get(n.wrapping_sub(1))
                .map_or_else(|| n.to_string(), |a| format!("<code>{}</code>", esc(a)))
        };
        for p in &t.agreement.cohen {
            let _ = write!(
                s,
                "<li>Cohen's κ of {} and {}: {} ({} items, agreement {})</li>",
                name(p.a),
                name(p.b),
                f2(p.kappa),
                p.units,
                f2(p.agreement)
            );
        }
        s.push_str("</ul>");
    }
    let what = if t.kind == "detection" {
        "detection precision: <i>yes</i> among <i>yes</i> and <i>no</i>"
    } else {
        "translation accuracy: <i>yes</i> among <i>yes</i>, <i>partly</i> and <i>no</i>"
    };
    let _ = write!(
        s,
        "<h3>By phenomenon and distance</h3><p>The annotators' majority answer; {what}, with its \
         {:.0}% Wilson interval.</p><div class=\"wide\"><table><thead><tr><th>phenomenon</th>\
         <th class=\"n\">d</th><th>system</th><th class=\"n\">items</th><th class=\"n\">judged</th>\
         <th class=\"n\">share</th></tr></thead><tbody>",
        100.0 * t.confidence
    );
    for g in &t.groups {
        let _ = write!(
            s,
            "<tr><td>{}</td><td class=\"n\">{}</td><td>{}</td><td class=\"n\">{}</td>\
             <td class=\"n\">{}</td><td class=\"n\">{}{}</td></tr>",
            esc(&g.phenomenon),
            g.distance,
            esc(g.system.as_deref().unwrap_or("–")),
            g.units,
            g.judged,
            f2(g.share),
            ci(g.ci_low, g.ci_high)
        );
    }
    s.push_str("</tbody></table></div>\n");
    if let Some(a) = &t.automatic {
        let _ = write!(
            s,
            "<h3>Locus accuracy against the annotators</h3><p>On the {} items both judged, locus \
             accuracy and the annotators' majority agree on {} (Cohen's κ {}). Locus accuracy said \
             correct where the annotators said yes {} times and otherwise {} times; incorrect where \
             they said yes {} times and otherwise {} times.</p>",
            a.units,
            f2(a.accuracy),
            f2(a.kappa),
            a.table[0][0],
            a.table[0][1],
            a.table[1][0],
            a.table[1][1]
        );
        if !a.disagreements.is_empty() {
            s.push_str("<div class=\"wide\"><table><thead><tr><th>item</th><th>system</th>\
                <th>automatic</th><th>people</th><th>source / reference / output</th></tr></thead><tbody>");
            for d in a.disagreements.iter().take(30) {
                let _ = write!(
                    s,
                    "<tr><td>{} {}<br><small>{} d = {}</small></td><td>{}</td><td>{}</td><td>{}</td>\
                     <td>{}<br>{}<br>{}</td></tr>",
                    esc(&d.item),
                    esc(&d.slot),
                    esc(&d.phenomenon),
                    d.distance,
                    esc(&d.system),
                    esc(&d.automatic),
                    esc(&d.majority),
                    sheet_marks(&d.source),
                    sheet_marks(&d.reference),
                    sheet_marks(&d.output)
                );
            }
            s.push_str("</tbody></table></div>\n");
        }
    }
    s.push_str("</section>\n");
}
