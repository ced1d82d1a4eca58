//! The HTML page: one file, no request to anywhere when opened (inline SVG and styles, no
//! script; a Content-Security-Policy of `default-src 'none'` enforces it, and no base URL
//! or form target may be set), readable
//! without JavaScript and in print.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::chart::{self, Bar, Chart, Panel, Plot, ScorePoint, Series, Spec};
use super::data::{Measure, SetExamples};
use super::scores::{mark, metric_label, metric_max, Row, Scores, SMALL_SET};
use super::Report;
use crate::detect::alignment::Direction;
use crate::detect::reorder::ReorderOptions;
use crate::detect::rules::Order;
use crate::error::Result;
use crate::format::command::{shell_line, shell_word};
use crate::format::manifest::ShardRecord;
use crate::format::marked::Piece;
use crate::format::options::ModelType;
use crate::format::sets::ControlStatus;
use crate::format::sets::{SetEntry, SetKind};

/// Examples shown per set before "show more".
pub const SHOWN: usize = 2;

/// Lexical distances beyond this are gathered in one `>N` bar.
const MAX_BAR_DISTANCE: usize = 30;

const STYLE: &str = r#"
:root { color-scheme: light; }
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  margin: 0 auto; max-width: 1180px; padding: 0 1.2rem 3rem; color: #111; line-height: 1.45; }
h1 { font-size: 1.6rem; margin: 1.2rem 0 .2rem; }
h2 { font-size: 1.3rem; border-bottom: 2px solid #333; padding-bottom: .15rem; margin-top: 2.2rem; }
h3 { font-size: 1.1rem; margin-top: 1.6rem; }
h4 { font-size: 1rem; margin: 1.2rem 0 .3rem; }
code, .cmd { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .88em; }
.cmd { background: #f4f4f4; border: 1px solid #ccc; padding: .5rem .7rem; white-space: pre-wrap; word-break: break-all; }
table { border-collapse: collapse; margin: .6rem 0; font-size: .9rem; }
th, td { border: 1px solid #bbb; padding: .2rem .45rem; text-align: left; vertical-align: top; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
thead th { background: #eee; }
.wide { overflow-x: auto; }
.grid { display: flex; flex-wrap: wrap; gap: 1rem; }
figure { margin: .4rem 0; }
figcaption { font-size: .85rem; max-width: 520px; color: #333; }
svg.chart { max-width: 100%; height: auto; border: 1px solid #ddd; }
.note { border-left: 4px solid #555; background: #f6f6f6; padding: .4rem .8rem; }
.small { font-style: italic; }
nav ul { padding-left: 1.2rem; columns: 2; }
.ex ol { padding-left: 1.4rem; }
.ex li { margin-bottom: .6rem; }
.ex dl { display: grid; grid-template-columns: max-content 1fr; gap: .1rem .7rem; margin: 0; }
.ex dt { font-size: .8rem; color: #444; padding-top: .15rem; }
.ex dd { margin: 0; }
mark { padding: 0 .12rem; border-radius: 2px; color: #000; }
mark sub { font-size: .65em; font-weight: bold; margin-left: .1em; }
mark.m-d { background: #fde0c5; border-bottom: 2px solid #d55e00; }
mark.m-h { background: #cfe8f7; border-bottom: 2px dashed #0072b2; }
mark.m-a { background: #d3f0e3; border-bottom: 2px dotted #00795a; }
details summary { cursor: pointer; color: #0b4f8a; }
@media print { details { display: block; } details > summary { display: none; } h2 { break-after: avoid; }
  figure, table { break-inside: avoid; } .cmd { white-space: pre-wrap; } }
"#;

/// Writes `x` with two decimals, or "–".
fn f2(x: Option<f64>) -> String {
    x.map_or_else(|| "–".into(), |v| format!("{v:.2}"))
}

/// Writes a p-value, or "–".
fn p3(x: Option<f64>) -> String {
    match x {
        None => "–".into(),
        Some(p) if p < 0.001 => "&lt;0.001".into(),
        Some(p) => format!("{p:.3}"),
    }
}

/// `[lo, hi]`, or "" when either is missing.
fn ci(lo: Option<f64>, hi: Option<f64>) -> String {
    match (lo, hi) {
        (Some(l), Some(h)) => format!(" <span class=\"ci\">[{l:.2}, {h:.2}]</span>"),
        _ => String::new(),
    }
}

/// The `q`-quantile of sorted values (linear interpolation between order statistics).
fn quantile(sorted: &[f64], q: f64) -> Option<f64> {
    if sorted.is_empty() {
        return None;
    }
    let pos = q * (sorted.len() - 1) as f64;
    let (i, frac) = (pos.floor() as usize, pos - pos.floor());
    let next = sorted.get(i + 1).copied().unwrap_or(sorted[i]);
    Some(sorted[i] + (next - sorted[i]) * frac)
}

/// The controls' band of a row: the 2.5% and 97.5% quantiles of the control scores (at
/// least two controls).
pub fn band(r: &Row) -> Option<(f64, f64)> {
    if r.control_scores.len() < 2 {
        return None;
    }
    let mut v = r.control_scores.clone();
    v.sort_by(f64::total_cmp);
    Some((quantile(&v, 0.025)?, quantile(&v, 0.975)?))
}

/// The phenomena of the sets, in manifest order.
fn phenomena(r: &Report) -> Vec<(String, SetKind)> {
    let mut out: Vec<(String, SetKind)> = Vec::new();
    for s in &r.m.sets {
        if !out.iter().any(|(p, _)| *p == s.phenomenon) {
            out.push((s.phenomenon.clone(), s.kind));
        }
    }
    out
}

fn sets_of<'a>(
    r: &'a Report,
    phenomenon: &'a str,
    exact: bool,
) -> impl Iterator<Item = &'a SetEntry> + 'a {
    r.m.sets
        .iter()
        .filter(move |s| s.phenomenon == phenomenon && s.exact == exact)
}

fn anchor(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect()
}

/// A chart with its caption, plain text (escaped here, as every text of the page is by
/// [`esc`]).
fn figure(out: &mut String, c: &Chart, caption: &str) {
    let _ = writeln!(
        out,
        "<figure>{}<figcaption>{}</figcaption></figure>",
        accessible(c),
        esc(caption)
    );
}

/// Inserts `role`, `aria-labelledby`, `<title>` and `<desc>` into plotters' `<svg>`.
fn accessible(c: &Chart) -> String {
    let (svg, id) = (&c.svg, &c.id);
    let Some(end) = svg.find('>') else {
        return svg.clone();
    };
    let (open, rest) = svg.split_at(end);
    let open = open.trim_end_matches('/');
    format!(
        "{open} id=\"{id}\" role=\"img\" aria-labelledby=\"{id}-t {id}-d\" class=\"chart\"><title id=\"{id}-t\">{}</title><desc id=\"{id}-d\">{}</desc>{}",
        esc(&c.title),
        esc(&c.desc),
        &rest[1..]
    )
}

/// Escapes text for HTML and SVG.
pub(crate) fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Draws the figures of every section at once ([`chart::draw`]), each keeping its
/// caption, section by section.
fn draw(sections: Vec<Vec<(Spec, String)>>) -> Result<Vec<Vec<(Chart, String)>>> {
    let mut counts = Vec::with_capacity(sections.len());
    let (mut specs, mut captions) = (Vec::new(), Vec::new());
    for section in sections {
        counts.push(section.len());
        for (spec, caption) in section {
            specs.push(spec);
            captions.push(caption);
        }
    }
    let mut drawn = chart::draw(&specs)?.into_iter().zip(captions);
    Ok(counts
        .into_iter()
        .map(|n| drawn.by_ref().take(n).collect())
        .collect())
}

/// The whole page: every chart is said first, drawn at once, then laid out with the
/// tables and the item browser (its style rules and its section, made by
/// [`super::items`]).
pub fn page(r: &Report, items_style: &str, items_section: &str) -> Result<String> {
    let mut s = String::with_capacity(1 << 20);
    let corpus = &r.corpus;
    let lang = format!("{} → {}", r.m.languages.source(), r.m.languages.target());
    let _ = writeln!(
            s,
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"generator\" content=\"ldd-sets {}\">\n<title>LDD challenge sets: {} ({})</title>\n<style>{}{}</style>\n</head>\n<body>",
        esc(&r.m.tool.version),
        esc(corpus),
        esc(&lang),
        STYLE,
        items_style
    );
    let _ = writeln!(
            s,
            "<header><h1>LDD challenge sets: {} ({})</h1>\n<p>Long-distance-dependency challenge sets \
         (Choshen &amp; Abend, CoNLL 2019) built by ldd-sets {} from <code>{}</code>: {} corpus lines, \
         {} sets{}.</p></header>",
        esc(corpus),
        esc(&lang),
        esc(&r.m.tool.version),
        esc(&r.dir.display().to_string()),
        r.m.corpus.lines,
        r.m.sets.len(),
        match &r.scores {
            Some(sc) => format!(
                ", scored for {} system{}",
                sc.systems.len(),
                if sc.systems.len() == 1 { "" } else { "s" }
            ),
            None => ", not scored".into(),
        }
    );
    if !r.notes.is_empty() {
        s.push_str("<div class=\"note\" role=\"note\"><strong>Notes</strong><ul>");
        for n in &r.notes {
            let _ = write!(s, "<li>{}</li>", esc(n));
        }
        s.push_str("</ul></div>\n");
    }
    s.push_str(
        "<nav aria-label=\"Contents\"><ul><li><a href=\"#findings\">Findings</a></li>\
        <li><a href=\"#scores\">Scores</a></li>",
    );
    if r.tally.is_some() {
        s.push_str("<li><a href=\"#annotation\">Annotation</a></li>");
    }
    if r.mqm.is_some() {
        s.push_str("<li><a href=\"#mqm\">Human judgements (MQM)</a></li>");
    }
    if r.loci.is_some() {
        s.push_str("<li><a href=\"#loci\">Locus items</a></li>");
    }
    s.push_str("<li><a href=\"#sizes\">Set sizes</a></li><li><a href=\"#distances\">Distance distributions</a></li>\
        <li><a href=\"#examples\">Examples</a></li><li><a href=\"#settings\">Inputs and settings</a></li></ul></nav>\n<main>\n");
    let mut sections = vec![size_figures(r), distance_figures(r)];
    sections.extend(score_figures(r));
    let mut drawn = draw(sections)?.into_iter();
    let (size_figs, distance_figs) = (
        drawn.next().unwrap_or_default(),
        drawn.next().unwrap_or_default(),
    );
    let score_figs: Vec<_> = drawn.collect();
    // The findings first, the settings last.
    findings(&mut s, r);
    scores(&mut s, r, &score_figs);
    annotation(&mut s, r);
    super::mqm::section(&mut s, r);
    s.push_str(items_section);
    sizes(&mut s, r, &size_figs);
    distances(&mut s, &distance_figs);
    examples(&mut s, r);
    settings(&mut s, r);
    s.push_str(
        "</main>\n<footer><p><small>The sets (a corpus's sentences by dependency distance, per \
        phenomenon) and their length-matched controls are described in ldd-sets' \
        docs/evaluation.md, this page in docs/report.md. This page is self-contained: it loads \
        nothing from anywhere.</small></p></footer>\n</body>\n</html>\n",
    );
    Ok(s)
}

/// The aligner model a manifest records, as the settings name it.
fn aligner_model(t: ModelType) -> &'static str {
    match t {
        ModelType::Hmm => "the HMM, both directions trained by agreement",
        ModelType::FastAlign => "fast_align's model",
    }
}

/// The EM iterations of the recorded aligner: the HMM's fixed schedule (IBM Model 1, then
/// the HMM), or fast_align's `-I`.
fn em_iterations(a: &crate::format::options::Align) -> String {
    match a.model_type {
        ModelType::Hmm => {
            let h = ldd_align::HmmOptions::default();
            format!(
                "{} IBM Model 1 + {} HMM EM iterations",
                h.ibm1_iterations, h.hmm_iterations
            )
        }
        ModelType::FastAlign => format!("{} EM iterations", a.iterations),
    }
}

/// What changes with distance, per system: for every phenomenon and metric, the score of
/// the shortest and the longest `ge` set with a score, the change, the trend's Spearman ρ
/// with its interval, and the sets significantly worse than their controls.
fn findings(s: &mut String, r: &Report) {
    s.push_str("<section id=\"findings\"><h2>Findings</h2>\n");
    let Some(sc) = &r.scores else {
        s.push_str(
            "<p>Not scored yet: the findings appear once <code>ldd-sets score</code> has run \
            (see <a href=\"#scores\">Scores</a>).</p></section>\n",
        );
        return;
    };
    s.push_str("<p>For every system, how each score changes from the shortest to the longest \
        dependencies (<code>ge</code> sets: distance at least <i>d</i>), with the rank correlation of \
        score and <i>d</i> (negative: worse on longer dependencies; its 95% interval in brackets), \
        and the sets on which the system is significantly worse than on length-matched controls \
        (one-sided p &lt; 0.05).</p>\n");
    let metrics = sc.metric_keys();
    for sys in &sc.systems {
        let _ = write!(
            s,
            "<h3>{}</h3><div class=\"wide\"><table class=\"findings\"><thead><tr><th>phenomenon</th>\
             <th>metric</th><th class=\"n\">shortest</th><th class=\"n\">longest</th>\
             <th class=\"n\">change</th><th class=\"n\">Spearman ρ</th><th>worse than controls</th>\
             </tr></thead><tbody>",
            esc(&sys.name)
        );
        for (p, _) in phenomena(r) {
            for m in &metrics {
                let rows: Vec<&Row> = sets_of(r, &p, false)
                    .filter_map(|set| sc.row(&sys.name, m, &p, &set.bucket))
                    .filter(|row| row.score.is_some())
                    .collect();
                let (Some(first), Some(last)) = (rows.first(), rows.last()) else {
                    continue;
                };
                let at = |row: &Row| {
                    format!(
                        "{} <small>(d ≥ {})</small>",
                        f2(row.score),
                        row.min_distance.unwrap_or(0)
                    )
                };
                let change = match (first.score, last.score) {
                    (Some(a), Some(b)) if rows.len() > 1 => format!("{:+.2}", b - a),
                    _ => "–".into(),
                };
                let trend = sc
                    .trends
                    .iter()
                    .find(|t| t.system == sys.name && &t.metric == m && t.phenomenon == p);
                let worse: Vec<String> = sets_of(r, &p, true)
                    .filter_map(|set| sc.row(&sys.name, m, &p, &set.bucket))
                    .filter(|row| row.control_p_value.is_some_and(|v| v < 0.05))
                    .map(|row| row.bucket.clone())
                    .collect();
                let _ = write!(
                    s,
                    "<tr><td>{}</td><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>\
                     <td class=\"n\">{}</td><td class=\"n\">{}{}</td><td>{}</td></tr>",
                    esc(&p),
                    esc(metric_label(m)),
                    at(first),
                    at(last),
                    change,
                    f2(trend.and_then(|t| t.spearman)),
                    trend.map_or_else(String::new, |t| ci(t.spearman_ci_low, t.spearman_ci_high)),
                    if worse.is_empty() {
                        "–".to_string()
                    } else {
                        esc(&worse.join(", "))
                    }
                );
            }
        }
        s.push_str("</tbody></table></div>\n");
    }
    s.push_str("</section>\n");
}

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
fn annotation(s: &mut String, r: &Report) {
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

fn file_row(s: &mut String, label: &str, f: &ldd_io::FileInfo) {
    let _ = writeln!(
            s,
            "<tr><th scope=\"row\">{}</th><td><code>{}</code><br>{} lines, {} bytes, SHA-256 <code title=\"{}\">{}…</code></td></tr>",
        label,
        esc(&f.path.display().to_string()),
        f.lines,
        f.bytes,
        esc(&f.sha256),
        esc(f.sha256.get(..12).unwrap_or(&f.sha256))
    );
}

fn condition(c: &crate::format::options::Condition) -> String {
    let mut parts = Vec::new();
    for (k, v) in [
        ("deprel", &c.deprel),
        ("not deprel", &c.not_deprel),
        ("upos", &c.upos),
        ("not upos", &c.not_upos),
        ("feats", &c.feats),
        ("not feats", &c.not_feats),
        ("lemma", &c.lemma),
        ("form", &c.form),
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
fn sets_commands(r: &Report) -> Vec<&[String]> {
    let m = &r.m;
    let mut out: Vec<&[String]> = Vec::new();
    if let Some(ShardRecord::Merged(ms)) = &m.shard {
        out.extend(ms.shards.iter().map(|p| p.command.as_slice()));
    }
    out.push(&m.tool.command);
    out.retain(|c| !c.is_empty());
    out
}

fn settings(s: &mut String, r: &Report) {
    let m = &r.m;
    s.push_str("<section id=\"settings\"><h2>Inputs and settings</h2>\n<table>\n");
    file_row(s, "Source", &m.inputs.source);
    file_row(s, "Target (reference)", &m.inputs.target);
    file_row(s, "Source trees (CoNLL-U)", &m.inputs.conllu);
    let _ = writeln!(
        s,
        "<tr><th scope=\"row\">Parser</th><td>{}</td></tr>",
        match &r.parse {
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
            s,
            "<tr><th scope=\"row\">Corpus</th><td>{} lines ({} with an empty side, never selected), {} source words; {}</td></tr>",
        m.corpus.lines,
        m.corpus.empty_lines,
        m.corpus.source_words,
        esc(&format!("{} → {}", m.languages.source(), m.languages.target()))
    );
    let _ = write!(
        s,
        "<tr><th scope=\"row\">Rules</th><td><code>{}</code>; buckets ge0…ge{max} and eq0…eq{max} (distance = words strictly between dependent and head)<table>\
         <thead><tr><th>phenomenon</th><th>dependent</th><th>head</th><th>order</th><th>description</th></tr></thead><tbody>",
        esc(&m.rules.source.display().to_string()),
        max = m.rules.max_distance
    );
    for p in &m.rules.phenomena {
        let order = Order::from(p.order).name();
        let _ = write!(
            s,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            esc(&p.name),
            condition(&p.dependent),
            condition(&p.head),
            esc(order),
            esc(&p.description)
        );
    }
    s.push_str("</tbody></table></td></tr>\n");
    match &m.reorder {
        None => s.push_str("<tr><th scope=\"row\">Reordering</th><td>not built (<code>--no-reorder</code>)</td></tr>\n"),
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
            s,
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
    if let Some(c) = m.controls.first() {
        let short = m
            .controls
            .iter()
            .filter(|c| c.status == ControlStatus::PoolTooSmall)
            .count();
        let _ = writeln!(
            s,
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
        s.push_str("<tr><th scope=\"row\">Controls</th><td>none</td></tr>\n");
    }
    if let Some(sc) = &r.scores {
        let _ = writeln!(
            s,
            "<tr><th scope=\"row\">Scores</th><td><code>{}</code>; reference <code>{}</code>; systems: {}</td></tr>",
            esc(&r.scores_path.as_ref().map(|p| p.display().to_string()).unwrap_or_default()),
            esc(&sc.reference.as_ref().map(|p| p.display().to_string()).unwrap_or_else(|| "–".into())),
            sc.systems
                .iter()
                .enumerate()
                .map(|(i, x)| format!(
                    "{}{} (<code>{}</code>)",
                    esc(&x.name),
                    if i == 0 && sc.systems.len() > 1 { ", the baseline of p-values" } else { "" },
                    esc(&x.path.as_ref().map(|p| p.display().to_string()).unwrap_or_else(|| "–".into()))
                ))
                .collect::<Vec<_>>()
                .join("; ")
        );
        s.push_str("<tr><th scope=\"row\">Signatures</th><td>");
        for key in sc.metric_keys() {
            let _ = write!(
                s,
                "{}: <code>{}</code><br>",
                esc(metric_label(&key)),
                esc(sc.signature(&key).unwrap_or("–"))
            );
        }
        if let Some(set) = &sc.settings {
            let _ = write!(s, "<small>{}</small>", esc(set));
        }
        s.push_str("</td></tr>\n");
        let sig = sc.significance.clone();
        let _ = writeln!(
            s,
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
                    sig.n.map_or_else(|| "–".into(), |n| n.to_string()),
                    sig.seed.map_or_else(|| "–".into(), |n| n.to_string()),
                    sig.confidence
                        .map_or_else(|| "–".into(), |c| format!("{c}"))
                ),
                None => "– (not computed; marks use the set's rank among its controls)".into(),
            }
        );
    }
    s.push_str("</table>\n");
    let sets = sets_commands(r);
    let scores = r.scores.as_ref().map_or(&[][..], |sc| &sc.commands[..]);
    if sets.is_empty() {
        s.push_str(
            "<p>The command that made these sets was not recorded (sets written by an older \
             version of ldd-sets); the settings above are what it ran with.</p>\n",
        );
    }
    s.push_str("<p>The commands, as recorded in <code>manifest.json</code>");
    if r.scores.is_some() {
        s.push_str(" and <code>scores.json</code>");
    }
    s.push_str(" (<code>--threads</code> and <code>--quiet</code> are not recorded):</p>\n<pre class=\"cmd\">");
    for c in sets.into_iter().chain(scores.iter().map(Vec::as_slice)) {
        let _ = writeln!(s, "{}", esc(&shell_line(c)));
    }
    let _ = writeln!(
        s,
        "ldd-sets report --sets {}</pre>\n</section>",
        esc(&shell_word(&r.dir.display().to_string()))
    );
}

fn small_mark(n: u64) -> &'static str {
    if n > 0 && n < SMALL_SET {
        "<abbr title=\"fewer than 100 sentences: scores on it are noisy\">⚠</abbr>"
    } else {
        ""
    }
}

/// The set-size charts, one per phenomenon, with their captions.
fn size_figures(r: &Report) -> Vec<(Spec, String)> {
    let mut figs = Vec::new();
    for (p, kind) in phenomena(r) {
        let ge: Vec<&SetEntry> = sets_of(r, &p, false).collect();
        let eq: Vec<&SetEntry> = sets_of(r, &p, true).collect();
        let mut series = vec![Series {
            label: "≥ d (geK)".into(),
            points: ge
                .iter()
                .map(|x| (f64::from(x.min_distance), x.sentences as f64))
                .collect(),
            dashed: false,
            hollow: false,
        }];
        if !eq.is_empty() {
            series.push(Series {
                label: "= d (eqK)".into(),
                points: eq
                    .iter()
                    .map(|x| (f64::from(x.min_distance), x.sentences as f64))
                    .collect(),
                dashed: true,
                hollow: true,
            });
        }
        let list = |v: &[&SetEntry]| {
            v.iter()
                .map(|x| format!("{} {}", x.bucket, x.sentences))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let desc = format!(
            "Sentences per set of {p}: {}{}.",
            list(&ge),
            if eq.is_empty() {
                String::new()
            } else {
                format!("; {}", list(&eq))
            }
        );
        let x_desc = if kind == SetKind::Reorder {
            "minimum alignment distance d"
        } else {
            "distance d (words between dependent and head)"
        };
        let caption =
            format!("{desc} Solid line, filled markers: geK; dashed line, hollow markers: eqK.");
        figs.push((
            Spec {
                id: format!("size-{}", anchor(&p)),
                title: format!("Set sizes: {p}"),
                x_desc: x_desc.into(),
                y_desc: "sentences".into(),
                plot: Plot::Lines(series, desc),
            },
            caption,
        ));
    }
    figs
}

/// The set sizes: a table per phenomenon, then its charts (`figs`).
fn sizes(s: &mut String, r: &Report, figs: &[(Chart, String)]) {
    s.push_str("<section id=\"sizes\"><h2>Set sizes</h2>\n<p>Sentences per set: <code>geK</code> holds the \
        lines with a pair at distance ≥ K, <code>eqK</code> those with a pair at distance exactly K; reorder \
        sets hold the pairs with an aligned word pair ≥ K positions apart. ⚠ marks sets of fewer than 100 \
        sentences, whose scores are noisy.</p>\n");
    for (p, _) in phenomena(r) {
        let ge: Vec<&SetEntry> = sets_of(r, &p, false).collect();
        let eq: Vec<&SetEntry> = sets_of(r, &p, true).collect();
        let _ = write!(
            s,
            "<h3>{}</h3><div class=\"wide\"><table><thead><tr><th>set</th>",
            esc(&p)
        );
        for x in ge.iter().chain(&eq) {
            let _ = write!(s, "<th class=\"n\">{}</th>", esc(&x.bucket));
        }
        s.push_str("</tr></thead><tbody><tr><th scope=\"row\">sentences</th>");
        for x in ge.iter().chain(&eq) {
            let _ = write!(
                s,
                "<td class=\"n{}\">{}{}</td>",
                if x.sentences < SMALL_SET {
                    " small"
                } else {
                    ""
                },
                x.sentences,
                small_mark(x.sentences)
            );
        }
        s.push_str("</tr><tr><th scope=\"row\">pairs</th>");
        for x in ge.iter().chain(&eq) {
            let _ = write!(s, "<td class=\"n\">{}</td>", x.pairs);
        }
        s.push_str("</tr><tr><th scope=\"row\">mean source words</th>");
        for x in ge.iter().chain(&eq) {
            let _ = write!(s, "<td class=\"n\">{:.1}</td>", x.mean_source_words);
        }
        s.push_str("</tr></tbody></table></div>\n");
    }
    s.push_str("<div class=\"grid\">");
    for (c, caption) in figs {
        figure(s, c, caption);
    }
    s.push_str("</div>\n</section>\n");
}

/// Bars for a reordering measure: one per integer value (the tail beyond 60 in one bar),
/// or 20 bins of width 0.05 over [0, 1] for fractional measures.
fn measure_bars(m: &Measure) -> Vec<Bar> {
    if m.integral {
        let max = m.counts.keys().last().map_or(0, |k| k / 100).clamp(0, 60);
        let mut bars: Vec<Bar> = (0..=max)
            .map(|d| Bar {
                label: d.to_string(),
                count: 0,
            })
            .collect();
        let mut tail = 0;
        for (&k, &n) in &m.counts {
            let d = k / 100;
            if d > max || d > 60 {
                tail += n;
            } else if d >= 0 {
                bars[d as usize].count += n;
            }
        }
        if tail > 0 {
            bars.push(Bar {
                label: ">60".into(),
                count: tail,
            });
        }
        bars
    } else {
        let mut bars: Vec<Bar> = (0..20)
            .map(|i| Bar {
                label: format!("{:.2}", i as f64 * 0.05),
                count: 0,
            })
            .collect();
        for (&k, &n) in &m.counts {
            let i = ((k as f64 / 100.0) / 0.05).floor().clamp(0.0, 19.0) as usize;
            bars[i].count += n;
        }
        bars
    }
}

/// The distance histograms (lexical pairs, then reordering measures) with their captions.
fn distance_figures(r: &Report) -> Vec<(Spec, String)> {
    let mut figs = Vec::new();
    for d in &r.distances {
        let mut bars: Vec<Bar> = d
            .counts
            .iter()
            .take(MAX_BAR_DISTANCE + 1)
            .enumerate()
            .map(|(i, &n)| Bar {
                label: i.to_string(),
                count: n,
            })
            .collect();
        let tail: u64 = d.counts.iter().skip(MAX_BAR_DISTANCE + 1).sum();
        if tail > 0 {
            bars.push(Bar {
                label: format!(">{MAX_BAR_DISTANCE}"),
                count: tail,
            });
        }
        let longest = d.counts.len().saturating_sub(1);
        figs.push((
            Spec {
                id: format!("dist-{}", anchor(&d.phenomenon)),
                title: format!("Dependency distances: {}", d.phenomenon),
                x_desc: "distance (words between dependent and head)".into(),
                y_desc: "pairs".into(),
                plot: Plot::Histogram(bars, vec![(1, "ge1".into())]),
            },
            format!(
                "All {} {} pairs of the corpus (its ge0 set) by distance; the longest is {} words. \
                 The dashed line separates adjacent pairs (distance 0) from ge1, the paper's default challenge set.",
                d.total(),
                d.phenomenon,
                longest
            ),
        ));
    }
    let thresholds: Vec<u32> =
        r.m.reorder
            .as_ref()
            .map(|ro| ReorderOptions::from(&ro.options).thresholds())
            .unwrap_or_default();
    for meas in &r.measures {
        let bars = measure_bars(meas);
        let marks: Vec<(usize, String)> =
            if meas.integral && ["position", "distance"].contains(&meas.name.as_str()) {
                thresholds
                    .iter()
                    .filter(|&&t| (t as usize) < bars.len())
                    .map(|&t| (t as usize, crate::layout::bucket(false, t)))
                    .collect()
            } else {
                Vec::new()
            };
        let caption = format!(
            "Every corpus line by its largest reordering ({} in {}){}; {} line(s) without a value \
                 (no link between words, or an empty line).",
            meas.name,
            r.measures_file.as_deref().unwrap_or_default(),
            if marks.is_empty() {
                ""
            } else {
                "; dashed lines: the reorder set thresholds"
            },
            meas.undefined
        );
        figs.push((
            Spec {
                id: format!("reorder-{}", anchor(&meas.name)),
                title: format!("Reordering measure: {}", meas.name),
                x_desc: meas.name.clone(),
                y_desc: "sentence pairs".into(),
                plot: Plot::Histogram(bars, marks),
            },
            caption,
        ));
    }
    figs
}

/// The distance distributions: the charts `figs`.
fn distances(s: &mut String, figs: &[(Chart, String)]) {
    s.push_str("<section id=\"distances\"><h2>Distance distributions</h2>\n");
    if figs.is_empty() {
        s.push_str("<p>No lexical phenomenon and no reordering sets in this run.</p>\n");
    }
    s.push_str("<div class=\"grid\">");
    for (c, cap) in figs {
        figure(s, c, cap);
    }
    s.push_str("</div>\n</section>\n");
}

/// The score charts: for each metric of the scores, one chart per phenomenon with scores,
/// with its caption.
fn score_figures(r: &Report) -> Vec<Vec<(Spec, String)>> {
    let Some(sc) = &r.scores else {
        return Vec::new();
    };
    let mut figs = Vec::new();
    for (mi, m) in sc.metric_keys().iter().enumerate() {
        let label = metric_label(m);
        let mut metric = Vec::new();
        for (p, kind) in phenomena(r) {
            let panels: Vec<Panel> = sc
                .systems
                .iter()
                .map(|sys| Panel {
                    system: sys.name.clone(),
                    points: sets_of(r, &p, false)
                        .filter_map(|set| sc.row(&sys.name, m, &p, &set.bucket))
                        .filter_map(|row| {
                            Some(ScorePoint {
                                d: f64::from(row.min_distance?),
                                score: row.score?,
                                control_mean: row.control_mean,
                                band: band(row),
                                mark: mark(row).to_string(),
                            })
                        })
                        .collect(),
                })
                .collect();
            if panels.iter().all(|p| p.points.is_empty()) {
                continue;
            }
            let mut desc =
                format!("{label} against minimum distance on the {p} sets (ge buckets). ");
            for panel in &panels {
                let _ = write!(desc, "{}: ", panel.system);
                let pts: Vec<String> = panel
                    .points
                    .iter()
                    .map(|q| {
                        format!(
                            "d {} set {:.2}{} controls {}",
                            q.d,
                            q.score,
                            q.mark,
                            q.control_mean
                                .map_or_else(|| "–".into(), |c| format!("{c:.2}"))
                        )
                    })
                    .collect();
                let _ = write!(desc, "{}. ", pts.join("; "));
            }
            let x_desc = if kind == SetKind::Reorder {
                "minimum alignment distance d"
            } else {
                "minimum distance d"
            };
            let caption = format!(
                "{label} of each system on the {} sets against their minimum distance (the paper's Table 5 as a figure), \
                 with the length-matched controls' mean (dashed) and 95% band (grey).",
                p
            );
            metric.push((
                Spec {
                    id: format!("score-{mi}-{}", anchor(&p)),
                    title: format!("{label} vs distance: {p}"),
                    x_desc: x_desc.into(),
                    y_desc: label.into(),
                    plot: Plot::Scores(panels, desc.trim_end().to_string(), metric_max(m)),
                },
                caption,
            ));
        }
        figs.push(metric);
    }
    figs
}

/// The scores: the whole corpus's, then per metric its charts (`figs`, from
/// [`score_figures`]) and set table, then the trends.
fn scores(s: &mut String, r: &Report, figs: &[Vec<(Chart, String)>]) {
    s.push_str("<section id=\"scores\"><h2>Scores</h2>\n");
    let Some(sc) = &r.scores else {
        let _ = writeln!(
            s,
            "<p class=\"note\">These sets are not scored yet. Translate the whole corpus (<code>{}</code>) \
             with each system, then run <code>ldd-sets score --sets {} --hyp SYSTEM.{}</code> and this report \
             again.</p>\n</section>",
            esc(&r.m.inputs.source.path.display().to_string()),
            esc(&shell_word(&r.dir.display().to_string())),
            esc(r.m.languages.target())
        );
        return;
    };
    let metrics = sc.metric_keys();
    // Corpus scores.
    s.push_str("<h3>Whole corpus</h3><div class=\"wide\"><table><thead><tr><th>system</th>");
    for m in &metrics {
        let _ = write!(
            s,
            "<th class=\"n\">{}</th><th class=\"n\">p vs baseline</th>",
            esc(metric_label(m))
        );
    }
    s.push_str("</tr></thead><tbody>");
    for (i, sys) in sc.systems.iter().enumerate() {
        let _ = write!(s, "<tr><th scope=\"row\">{}</th>", esc(&sys.name));
        for m in &metrics {
            let row = sc.corpus(&sys.name, m);
            let _ = write!(
                s,
                "<td class=\"n\">{}{}</td><td class=\"n\">{}</td>",
                f2(row.and_then(|x| x.score)),
                row.map_or_else(String::new, |x| ci(x.ci_low, x.ci_high)),
                if i == 0 && sc.systems.len() > 1 {
                    "baseline".to_string()
                } else {
                    p3(row.and_then(|x| x.p_value))
                }
            );
        }
        s.push_str("</tr>");
    }
    s.push_str("</tbody></table></div>\n");
    let small: Vec<String> =
        r.m.sets
            .iter()
            .filter(|x| x.sentences > 0 && x.sentences < SMALL_SET)
            .map(|x| format!("{}/{} ({})", x.phenomenon, x.bucket, x.sentences))
            .collect();
    if !small.is_empty() {
        let _ = writeln!(
            s,
            "<p class=\"note\" role=\"note\">⚠ Small sets: {} of {} sets have fewer than {SMALL_SET} sentences, so \
             their scores vary a lot with the sample: {}.</p>",
            small.len(),
            r.m.sets.len(),
            esc(&small.join(", "))
        );
    }
    s.push_str("<p>Marks: <strong>**</strong> / <strong>*</strong> — the system is worse on the set than on its \
        length-matched controls (one-sided p &lt; 0.01 / 0.05); <strong>†</strong> (when scores.json has no \
        p-values) — every control scored higher than the set. Band: the middle 95% of the control scores; \
        dashed line: their mean.</p>\n");
    for (mi, m) in metrics.iter().enumerate() {
        let label = metric_label(m);
        let _ = writeln!(s, "<h3 id=\"metric-{}\">{}</h3>", anchor(m), esc(label));
        if let Some(sig) = sc.signature(m) {
            let _ = writeln!(s, "<p>Signature: <code>{}</code></p>", esc(sig));
        }
        s.push_str("<div class=\"grid\">");
        for (c, caption) in figs.get(mi).into_iter().flatten() {
            figure(s, c, caption);
        }
        s.push_str("</div>\n");
        set_table(s, r, sc, m);
    }
    trend_table(s, sc);
    s.push_str("</section>\n");
}

fn set_table(s: &mut String, r: &Report, sc: &Scores, m: &str) {
    let label = metric_label(m);
    let _ = write!(
        s,
        "<details open><summary>{} on every set, against its controls</summary><div class=\"wide\"><table>\
         <caption>{}: set score [CI], controls mean ± sd, Δ = set − controls [CI], one-sided p (or rank: \
         controls scoring higher / controls), mark</caption><thead><tr><th>set</th><th class=\"n\">n</th>",
        esc(label),
        esc(label)
    );
    for sys in &sc.systems {
        let _ = write!(
            s,
            "<th class=\"n\">{n}</th><th class=\"n\">controls</th><th class=\"n\">Δ</th><th class=\"n\">p / rank</th>",
            n = esc(&sys.name)
        );
    }
    s.push_str("</tr></thead><tbody>");
    for set in &r.m.sets {
        let rows: Vec<Option<&Row>> = sc
            .systems
            .iter()
            .map(|sys| sc.row(&sys.name, m, &set.phenomenon, &set.bucket))
            .collect();
        if rows.iter().all(Option::is_none) {
            continue;
        }
        let _ = write!(
            s,
            "<tr><th scope=\"row\">{}/{}</th><td class=\"n\">{}{}</td>",
            esc(&set.phenomenon),
            esc(&set.bucket),
            set.sentences,
            small_mark(set.sentences)
        );
        for row in rows {
            match row {
                None => s.push_str("<td>–</td><td>–</td><td>–</td><td>–</td>"),
                Some(x) => {
                    let ctl = match (x.control_mean, x.control_sd) {
                        (Some(mn), Some(sd)) => format!("{mn:.2} ± {sd:.2}"),
                        (Some(mn), None) => format!("{mn:.2}"),
                        _ => "–".into(),
                    };
                    let p = match (x.control_p_value, x.rank) {
                        (Some(_), _) => p3(x.control_p_value),
                        (None, Some(k)) => format!("{k}/{}", x.controls),
                        _ => "–".into(),
                    };
                    let _ = write!(
                        s,
                        "<td class=\"n\">{}{}</td><td class=\"n\">{}</td><td class=\"n\">{}{}</td><td class=\"n\">{} <strong>{}</strong></td>",
                        f2(x.score),
                        ci(x.ci_low, x.ci_high),
                        ctl,
                        x.diff().map_or_else(|| "–".into(), |d| format!("{d:+.2}")),
                        ci(x.control_diff_ci_low, x.control_diff_ci_high),
                        p,
                        mark(x)
                    );
                }
            }
        }
        s.push_str("</tr>");
    }
    s.push_str("</tbody></table></div></details>\n");
}

fn trend_table(s: &mut String, sc: &Scores) {
    if sc.trends.is_empty() {
        return;
    }
    s.push_str("<h3>Distance trends</h3><p>Correlation of the minimum distance of the ge sets with the score \
        (negative: the system does worse as dependencies get longer).</p><div class=\"wide\"><table><thead><tr>\
        <th>metric</th><th>phenomenon</th><th>system</th><th class=\"n\">points</th><th class=\"n\">Spearman ρ [CI]</th>\
        <th class=\"n\">Pearson r [CI]</th></tr></thead><tbody>");
    for t in &sc.trends {
        let _ = write!(
            s,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}{}</td><td class=\"n\">{}{}</td></tr>",
            esc(metric_label(&t.metric)),
            esc(&t.phenomenon),
            esc(&t.system),
            t.points.len(),
            f2(t.spearman),
            ci(t.spearman_ci_low, t.spearman_ci_high),
            f2(t.pearson),
            ci(t.pearson_ci_low, t.pearson_ci_high)
        );
    }
    s.push_str("</tbody></table></div>\n");
}

/// A marked line as HTML: marked words in `<mark>` with a visible label (`dep1`, `head1`,
/// `aligned1`), so the marks read without colour.
pub fn marked_html(line: &[Piece]) -> String {
    let mut out = String::new();
    for piece in line {
        match piece {
            Piece::Text(t) => out.push_str(&esc(t)),
            Piece::Marked(tags, word) => {
                let mut labels = Vec::new();
                let mut class = "m-a";
                for t in tags {
                    let (kind, k) = t.split_at(1);
                    let (c, name) = match kind {
                        "d" => ("m-d", "dep"),
                        "h" => ("m-h", "head"),
                        _ => ("m-a", "aligned"),
                    };
                    if labels.is_empty() {
                        class = c;
                    }
                    labels.push(format!("{name}{k}"));
                }
                let _ = write!(
                    out,
                    "<mark class=\"{class}\">{}<sub>{}</sub></mark>",
                    esc(word),
                    esc(&labels.join(","))
                );
            }
        }
    }
    out
}

fn example_items(
    s: &mut String,
    r: &Report,
    sc: Option<&Scores>,
    ex: &SetExamples,
    range: std::ops::Range<usize>,
) {
    let src_lang = esc(r.m.languages.source());
    let tgt_lang = esc(r.m.languages.target());
    let _ = write!(s, "<ol start=\"{}\">", range.start + 1);
    for e in &ex.examples[range] {
        let _ = write!(
            s,
            "<li><dl><dt>line</dt><dd>{}</dd><dt>source</dt><dd lang=\"{src_lang}\">{}</dd><dt>reference</dt><dd lang=\"{tgt_lang}\">{}</dd>",
            e.id,
            marked_html(&e.source),
            marked_html(&e.target)
        );
        if let Some(sc) = sc {
            for (sys, out) in sc.systems.iter().zip(&e.outputs) {
                let _ = write!(
                    s,
                    "<dt>{}</dt><dd lang=\"{tgt_lang}\">{}</dd>",
                    esc(&sys.name),
                    out.as_deref().map_or_else(|| "–".into(), esc)
                );
            }
        }
        s.push_str("</dl></li>");
    }
    s.push_str("</ol>");
}

fn examples(s: &mut String, r: &Report) {
    s.push_str("<section id=\"examples\"><h2>Examples</h2>\n<p>A fixed sample of each set's lines (the same \
        every time). Source: <mark class=\"m-d\">dependent<sub>dep1</sub></mark> and \
        <mark class=\"m-h\">head<sub>head1</sub></mark> of each qualifying pair (numbered per line); reorder sets: \
        the <mark class=\"m-a\">aligned<sub>aligned1</sub></mark> words farthest apart, in the source and the \
        reference. Then each system's output.</p>\n");
    let mut by_phen: BTreeMap<usize, Vec<&SetExamples>> = BTreeMap::new();
    let order = phenomena(r);
    for ex in &r.examples {
        let k = order
            .iter()
            .position(|(p, _)| *p == ex.phenomenon)
            .unwrap_or(0);
        by_phen.entry(k).or_default().push(ex);
    }
    s.push_str("<nav aria-label=\"Sets\"><p>");
    for ex in &r.examples {
        let _ = write!(
            s,
            "<a href=\"#ex-{}-{}\">{}/{}</a> ",
            anchor(&ex.phenomenon),
            anchor(&ex.bucket),
            esc(&ex.phenomenon),
            esc(&ex.bucket)
        );
    }
    s.push_str("</p></nav>\n");
    if r.examples.is_empty() {
        s.push_str(if r.m.sets.iter().any(|x| x.sentences > 0) {
            "<p>No examples (<code>--examples 0</code>).</p>\n"
        } else {
            "<p>All sets are empty.</p>\n"
        });
    }
    for (_, sets) in by_phen {
        let _ = writeln!(s, "<h3>{}</h3>", esc(&sets[0].phenomenon));
        for ex in sets {
            let n = ex.examples.len();
            let _ = write!(
                s,
                "<section class=\"ex\" id=\"ex-{}-{}\"><h4>{}/{} <small>— {} sentence{}{}, {} shown here</small></h4>",
                anchor(&ex.phenomenon),
                anchor(&ex.bucket),
                esc(&ex.phenomenon),
                esc(&ex.bucket),
                ex.sentences,
                if ex.sentences == 1 { "" } else { "s" },
                small_mark(ex.sentences),
                n
            );
            example_items(s, r, r.scores.as_ref(), ex, 0..n.min(SHOWN));
            if n > SHOWN {
                let _ = write!(s, "<details><summary>Show {} more</summary>", n - SHOWN);
                example_items(s, r, r.scores.as_ref(), ex, SHOWN..n);
                s.push_str("</details>");
            }
            s.push_str("</section>\n");
        }
    }
    s.push_str("</section>\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn charts_carry_title_and_description() {
        let s = Series {
            label: "ge".into(),
            points: vec![(0.0, 10.0), (1.0, 5.0)],
            dashed: false,
            hollow: false,
        };
        let c = chart::lines("c1", "Sizes <x>", "d", "sentences", &[s], "two & points").unwrap();
        let mut out = String::new();
        figure(&mut out, &c, "caption");
        assert!(out.starts_with("<figure><svg"), "{}", &out[..80]);
        assert!(out.contains(
            "<title id=\"c1-t\">Sizes &lt;x&gt;</title><desc id=\"c1-d\">two &amp; points</desc>"
        ));
        assert!(out.contains("aria-labelledby=\"c1-t c1-d\""));
        assert!(out.contains("</svg>"));
        assert!(out
            .trim_end()
            .ends_with("<figcaption>caption</figcaption></figure>"));
    }

    #[test]
    fn marked_words_get_labelled_marks() {
        assert_eq!(
            marked_html(&crate::format::marked::parse("a <h1>b&c</h1> <d1><h2>x</h2></d1>")),
            "a <mark class=\"m-h\">b&amp;c<sub>head1</sub></mark> <mark class=\"m-d\">x<sub>dep1,head2</sub></mark>"
        );
        assert_eq!(
            marked_html(&crate::format::marked::parse("<s1>wurde</s1> <x>")),
            "<mark class=\"m-a\">wurde<sub>aligned1</sub></mark> &lt;x&gt;"
        );
    }

    #[test]
    fn quantiles_interpolate() {
        let v = [1.0, 2.0, 3.0, 4.0, 5.0];
        assert_eq!(quantile(&v, 0.0), Some(1.0));
        assert_eq!(quantile(&v, 0.5), Some(3.0));
        assert_eq!(quantile(&v, 1.0), Some(5.0));
        assert!((quantile(&v, 0.025).unwrap() - 1.1).abs() < 1e-12);
        assert_eq!(quantile(&[], 0.5), None);
    }
}
