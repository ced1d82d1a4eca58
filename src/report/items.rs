//! The report's item browser: every locus that `score --metrics locus` judged
//! (`scores.loci.tsv`, read by [`super::inputs`]), with its source, reference and every
//! system's output marked, filtered by phenomenon, set and each system's judgement.
//!
//! The page runs no script (its Content-Security-Policy forbids it), so the filters are
//! radio buttons and CSS: for each chosen radio one rule hides the items that lack its
//! class (`:has()`), and a CSS counter counts the items left.

use std::fmt::Write as _;

use super::data::LocusItem;
use super::html::{esc, marked_html};
use super::Report;
use crate::format::judged::{Judged, Judgement};
use crate::format::marked::Piece;

/// The browser's fixed styles.
pub const STYLE: &str = r#"
.browser { counter-reset: shown; display: flex; flex-direction: column; }
.browser .filters { order: 1; } .browser p.count { order: 2; } .browser ol.loci { order: 3; }
.filters fieldset { display: inline-block; vertical-align: top; border: 1px solid #bbb; margin: 0 .5rem .5rem 0; padding: .2rem .6rem .4rem; }
.filters legend { font-size: .85rem; font-weight: bold; }
.filters label { display: inline-block; margin-right: .6rem; font-size: .9rem; white-space: nowrap; }
ol.loci { padding-left: 1.4rem; }
li.locus { counter-increment: shown; margin-bottom: .7rem; }
li.locus .where { font-size: .8rem; color: #444; margin: 0; }
li.locus dl { display: grid; grid-template-columns: max-content 1fr; gap: .1rem .7rem; margin: 0; }
li.locus dt { font-size: .8rem; color: #444; padding-top: .15rem; }
li.locus dd { margin: 0; }
.j { font-size: .75rem; font-weight: bold; padding: 0 .3rem; border-radius: 3px; margin-left: .3rem; }
.j-c { background: #d3f0e3; color: #00553f; }
.j-i { background: #fde0c5; color: #8a3300; }
.j-n, .j-u, .j-d, .j-p { background: #eee; color: #444; }
li.locus .ev { display: block; font-size: .7rem; color: #555; font-family: monospace; }
p.count::before { content: counter(shown) " of " attr(data-total) " loci shown"; font-weight: bold; }
"#;

/// A judgement's class suffix and label.
fn judgement(judgement: Judgement) -> (&'static str, &'static str) {
    match judgement {
        Judgement::Correct => ("c", "correct"),
        Judgement::Incorrect => ("i", "incorrect"),
        Judgement::Differs => ("d", "differs"),
        Judgement::Partial => ("p", "partial"),
        Judgement::Unaligned => ("u", "unaligned"),
        Judgement::NoReference => ("n", "no reference locus"),
    }
}

/// The phenomena and set buckets of the items, in the manifest's order.
fn groups(report: &Report) -> (Vec<String>, Vec<String>) {
    let (mut phenomena, mut buckets): (Vec<String>, Vec<String>) = (Vec::new(), Vec::new());
    for set in &report.manifest.sets {
        if !phenomena.contains(&set.phenomenon) {
            phenomena.push(set.phenomenon.clone());
        }
        if !buckets.contains(&set.bucket) {
            buckets.push(set.bucket.clone());
        }
    }
    (phenomena, buckets)
}

/// The filter rules: one per radio button, hiding the items without its class.
pub fn style(report: &Report) -> String {
    let Some(items) = &report.loci else {
        return String::new();
    };
    let (phenomena, buckets) = groups(report);
    let systems = items.first().map_or(0, |i| i.rows.len());
    let mut s = String::from(STYLE);
    let mut rule = |radio: &str, class: &str| {
        let _ = writeln!(
            s,
            ".browser:has(#{radio}:checked) li.locus:not(.{class}) {{ display: none; }}"
        );
    };
    for k in 0..phenomena.len() {
        rule(&format!("f-p{k}"), &format!("p{k}"));
    }
    for k in 0..buckets.len() {
        rule(&format!("f-b{k}"), &format!("b{k}"));
    }
    for k in 0..systems {
        for j in Judgement::ALL {
            let c = judgement(j).0;
            rule(&format!("f-s{k}-{c}"), &format!("s{k}-{c}"));
        }
    }
    s
}

/// Tokens as pieces, those at the 1-based positions `dep` and `head` marked.
fn pieces(tokens: &[String], dep: &[u32], head: &[u32]) -> Vec<Piece> {
    let mut out = Vec::with_capacity(tokens.len());
    for (i, t) in tokens.iter().enumerate() {
        let k = i as u32 + 1;
        let mut tags = Vec::new();
        if dep.contains(&k) {
            tags.push("d".to_string());
        }
        if head.contains(&k) {
            tags.push("h".to_string());
        }
        if i > 0 {
            out.push(Piece::Text(" ".into()));
        }
        out.push(match tags.is_empty() {
            true => Piece::Text(t.clone()),
            false => Piece::Marked(tags, t.clone()),
        });
    }
    out
}

/// One group of radio buttons: "all" (checked) and one per choice with its count.
fn fieldset(out: &mut String, legend: &str, name: &str, choices: &[(String, String, usize)]) {
    let _ = write!(
        out,
        "<fieldset><legend>{}</legend><label><input type=\"radio\" name=\"{name}\" id=\"{name}-all\" checked> all</label>",
        esc(legend)
    );
    for (id, label, n) in choices {
        let _ = write!(
            out,
            "<label><input type=\"radio\" name=\"{name}\" id=\"{id}\"> {} <small>({n})</small></label>",
            esc(label)
        );
    }
    out.push_str("</fieldset>");
}

/// The section: filters, then every locus.
pub fn section(out: &mut String, report: &Report) {
    let Some(items) = &report.loci else {
        return;
    };
    let (phenomena, buckets) = groups(report);
    let systems: Vec<&str> = items
        .first()
        .map(|i| i.rows.iter().map(|j| j.system.as_str()).collect())
        .unwrap_or_default();
    let _ = write!(
        out,
        "<section id=\"loci\"><h2>Locus items</h2>\n<p>Every locus of the sets, {} in all, as \
         locus accuracy judged it for each system (<code>{}</code>, beside the scores): the \
         source with the <mark class=\"m-d\">dependent<sub>dep</sub></mark> and the \
         <mark class=\"m-h\">head<sub>head</sub></mark>, the reference and each output with \
         the tokens aligned to them. Pick a phenomenon, a set and, per system, a judgement: \
         the list keeps the loci that match every choice. The judgement \
         (<code>locus:4</code>) looks at the output's words at the locus, the relation \
         between them in the output's parse and, for a reordering locus, their order: \
         <b>correct</b> — rendered as the reference renders it (the same word, another form \
         of it, or a likely translation), in its relation and order; <b>incorrect</b> — \
         positive evidence of an error in the dependency: a word omitted, a particle \
         dropped, misplaced or glued, a reflexive dropped or in another person, a \
         reordering locus in the source's order; <b>differs</b> — other words than the \
         reference's, which the tool cannot vouch for (a synonym or an error: not judged); \
         <b>partial</b> — only one of the two words could be judged; <b>unaligned</b> — \
         the output has the word where the aligner cannot place it; <b>no reference \
         locus</b> — the reference renders neither word. Beside each judgement, the \
         evidence: each word's (<code>same</code>, <code>lemma</code>, \
         <code>translation</code>, <code>present</code>, <code>omitted</code>, \
         <code>other</code>, …), then the relation's check or the order \
         (<code>relation:misplaced</code>, <code>order:source</code>, …). Locus accuracy \
         counts the correct and incorrect loci only; read the others beside it \
         (docs/evaluation.md, \"Locus accuracy\"). Files of earlier rules \
         (<code>locus:3</code>) called every other word an error.</p>\n<div \
         class=\"browser\"><form class=\"filters\" aria-label=\"Filter the loci\">",
        items.len(),
        esc(crate::layout::SCORES_LOCI)
    );
    filters(out, items, &phenomena, &buckets, &systems);
    out.push_str("</form>\n<ol class=\"loci\">");
    let langs = (
        esc(report.manifest.languages.source()),
        esc(report.manifest.languages.target()),
    );
    for item in items {
        locus_item(out, item, &phenomena, &buckets, &langs);
    }
    let _ = writeln!(
        out,
        "</ol><p class=\"count\" role=\"status\" data-total=\"{}\"></p></div></section>",
        items.len()
    );
}

/// The filters: a phenomenon, a set, and per system a judgement, each choice with the
/// number of loci it keeps (choices that keep none of the first two left out).
fn filters(
    out: &mut String,
    items: &[LocusItem],
    phenomena: &[String],
    buckets: &[String],
    systems: &[&str],
) {
    let count = |f: &dyn Fn(&LocusItem) -> bool| items.iter().filter(|i| f(i)).count();
    let choices: Vec<(String, String, usize)> = phenomena
        .iter()
        .enumerate()
        .map(|(k, p)| {
            (
                format!("f-p{k}"),
                p.clone(),
                count(&|i| &i.rows[0].phenomenon == p),
            )
        })
        .filter(|c| c.2 > 0)
        .collect();
    fieldset(out, "Phenomenon", "f-p", &choices);
    let choices: Vec<(String, String, usize)> = buckets
        .iter()
        .enumerate()
        .map(|(k, b)| {
            (
                format!("f-b{k}"),
                b.clone(),
                count(&|i| i.rows[0].sets.contains(b)),
            )
        })
        .filter(|c| c.2 > 0)
        .collect();
    fieldset(out, "Set", "f-b", &choices);
    for (k, name) in systems.iter().enumerate() {
        let choices: Vec<(String, String, usize)> = Judgement::ALL
            .into_iter()
            .map(|j| {
                let (c, label) = judgement(j);
                (
                    format!("f-s{k}-{c}"),
                    label.to_string(),
                    count(&|i| i.rows[k].judgement == j),
                )
            })
            .collect();
        fieldset(out, &format!("System {name}"), &format!("f-s{k}"), &choices);
    }
}

/// One locus of the list: its classes (for the filters), where it is, the source and the
/// reference marked, and each system's output marked with its judgement; `langs` are the
/// source and target languages (escaped).
fn locus_item(
    out: &mut String,
    item: &LocusItem,
    phenomena: &[String],
    buckets: &[String],
    (src_lang, tgt_lang): &(String, String),
) {
    let first: &Judged = &item.rows[0];
    let mut class = String::from("locus");
    if let Some(k) = phenomena.iter().position(|p| *p == first.phenomenon) {
        let _ = write!(class, " p{k}");
    }
    for b in &first.sets {
        if let Some(k) = buckets.iter().position(|x| x == b) {
            let _ = write!(class, " b{k}");
        }
    }
    for (k, j) in item.rows.iter().enumerate() {
        let _ = write!(class, " s{k}-{}", judgement(j.judgement).0);
    }
    let head = first.head.as_ref().map(|h| vec![h.id]).unwrap_or_default();
    let _ = write!(
        out,
        "<li class=\"{class}\"><p class=\"where\">{} · line {} · d = {} · sets {}</p><dl>\
         <dt>source</dt><dd lang=\"{src_lang}\">{}</dd><dt>reference</dt><dd lang=\"{tgt_lang}\">{}</dd>",
        esc(&first.phenomenon),
        first.id,
        first.distance,
        esc(&first.sets.join(" ")),
        marked_html(&pieces(&first.source, &[first.dep.id], &head)),
        marked_html(&pieces(&first.reference, &first.ref_dep, &first.ref_head)),
    );
    for j in &item.rows {
        let (c, label) = judgement(j.judgement);
        let evidence = match j.evidence.is_empty() {
            true => String::new(),
            false => format!(" <small class=\"ev\">{}</small>", esc(&j.evidence)),
        };
        let _ = write!(
            out,
            "<dt>{}<span class=\"j j-{c}\">{label}</span>{evidence}</dt><dd lang=\"{tgt_lang}\">{}</dd>",
            esc(&j.system),
            marked_html(&pieces(&j.output, &j.hyp_dep, &j.hyp_head)),
        );
    }
    out.push_str("</dl></li>\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aligned_tokens_are_marked() {
        let t: Vec<String> = "broke out the war".split(' ').map(String::from).collect();
        let html = marked_html(&pieces(&t, &[2], &[1, 2]));
        assert_eq!(
            html,
            "<mark class=\"m-h\">broke<sub>head</sub></mark> <mark class=\"m-d\">out<sub>dep,head</sub></mark> the war"
        );
    }
}
