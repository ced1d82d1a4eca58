//! The HTML page: one file, no request to anywhere when opened (inline SVG and styles, no
//! script; a Content-Security-Policy of `default-src 'none'` enforces it, and no base URL
//! or form target may be set), readable
//! without JavaScript and in print.
//!
//! This module holds the page's skeleton ([`page`]: head, contents, section order, footer)
//! and the helpers its sections share (`esc`, figures, number formats); each section is
//! rendered by its own module.

mod annotation;
mod distances;
mod examples;
mod findings;
mod mqm;
mod scores;
mod settings;
mod sizes;
mod within;

use std::fmt::Write as _;

use super::chart::{self, Chart, Spec};
use super::scores::SMALL_SET;
use super::views::Views;
use super::Report;
use crate::error::Result;
use annotation::annotation;
use distances::{distance_figures, distances};
use examples::examples;
pub use examples::{marked_html, SHOWN};
use findings::findings;
pub use scores::band;
use scores::{score_figures, scores};
use settings::settings;
use sizes::{size_figures, sizes};

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

/// Writes `value` with two decimals, or "–".
fn f2(value: Option<f64>) -> String {
    value.map_or_else(|| "–".into(), |v| format!("{v:.2}"))
}

/// Writes a p-value, or "–".
fn p3(value: Option<f64>) -> String {
    match value {
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

fn anchor(text: &str) -> String {
    text.chars()
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
fn figure(out: &mut String, chart: &Chart, caption: &str) {
    let _ = writeln!(
        out,
        "<figure>{}<figcaption>{}</figcaption></figure>",
        accessible(chart),
        esc(caption)
    );
}

/// Inserts `role`, `aria-labelledby`, `<title>` and `<desc>` into plotters' `<svg>`.
fn accessible(chart: &Chart) -> String {
    let (svg, id) = (&chart.svg, &chart.id);
    let Some(end) = svg.find('>') else {
        return svg.clone();
    };
    let (open, rest) = svg.split_at(end);
    let open = open.trim_end_matches('/');
    format!(
        "{open} id=\"{id}\" role=\"img\" aria-labelledby=\"{id}-t {id}-d\" class=\"chart\"><title id=\"{id}-t\">{}</title><desc id=\"{id}-d\">{}</desc>{}",
        esc(&chart.title),
        esc(&chart.desc),
        &rest[1..]
    )
}

/// Escapes text for HTML and SVG.
pub(crate) fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
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
pub fn page(
    report: &Report,
    views: &Views,
    items_style: &str,
    items_section: &str,
) -> Result<String> {
    let mut s = String::with_capacity(1 << 20);
    head(&mut s, report, items_style);
    nav(&mut s, report);
    let mut sections = vec![size_figures(views), distance_figures(report, views)];
    sections.extend(score_figures(views));
    let mut drawn = draw(sections)?.into_iter();
    let (size_figs, distance_figs) = (
        drawn.next().unwrap_or_default(),
        drawn.next().unwrap_or_default(),
    );
    let score_figs: Vec<_> = drawn.collect();
    // The findings first, the settings last.
    findings(&mut s, views);
    scores(&mut s, report, views, &score_figs);
    annotation(&mut s, report);
    mqm::section(&mut s, report);
    s.push_str(items_section);
    sizes(&mut s, views, &size_figs);
    distances(&mut s, &distance_figs);
    examples(&mut s, report, views);
    settings(&mut s, report, views);
    s.push_str(
        "</main>\n<footer><p><small>The sets (a corpus's sentences by dependency distance, per \
        phenomenon) and their length-matched controls are described in ldd-sets' \
        docs/evaluation.md, this page in docs/report.md. This page is self-contained: it loads \
        nothing from anywhere.</small></p></footer>\n</body>\n</html>\n",
    );
    Ok(s)
}

/// The page's head (its title, policy and styles), its header (what the sets are, from
/// which corpus) and the notes.
fn head(out: &mut String, report: &Report, items_style: &str) {
    let corpus = &report.corpus;
    let lang = format!(
        "{} → {}",
        report.manifest.languages.source(),
        report.manifest.languages.target()
    );
    let _ = writeln!(
            out,
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"generator\" content=\"ldd-sets {}\">\n<title>LDD challenge sets: {} ({})</title>\n<style>{}{}</style>\n</head>\n<body>",
        esc(&report.manifest.tool.version),
        esc(corpus),
        esc(&lang),
        STYLE,
        items_style
    );
    let _ = writeln!(
            out,
            "<header><h1>LDD challenge sets: {} ({})</h1>\n<p>Long-distance-dependency challenge sets \
         (Choshen &amp; Abend, CoNLL 2019) built by ldd-sets {} from <code>{}</code>: {} corpus lines, \
         {} sets{}.</p></header>",
        esc(corpus),
        esc(&lang),
        esc(&report.manifest.tool.version),
        esc(&report.dir.display().to_string()),
        report.manifest.corpus.lines,
        report.manifest.sets.len(),
        match &report.scores {
            Some(sc) => format!(
                ", scored for {} system{}",
                sc.systems.len(),
                if sc.systems.len() == 1 { "" } else { "s" }
            ),
            None => ", not scored".into(),
        }
    );
    if !report.notes.is_empty() {
        out.push_str("<div class=\"note\" role=\"note\"><strong>Notes</strong><ul>");
        for n in &report.notes {
            let _ = write!(out, "<li>{}</li>", esc(n));
        }
        out.push_str("</ul></div>\n");
    }
}

/// The table of contents: the sections the page has.
fn nav(out: &mut String, report: &Report) {
    out.push_str(
        "<nav aria-label=\"Contents\"><ul><li><a href=\"#findings\">Findings</a></li>\
        <li><a href=\"#scores\">Scores</a></li>",
    );
    if report.tally.is_some() {
        out.push_str("<li><a href=\"#annotation\">Annotation</a></li>");
    }
    if report.mqm.is_some() {
        out.push_str("<li><a href=\"#mqm\">Human judgements (MQM)</a></li>");
    }
    if report.loci.is_some() {
        out.push_str("<li><a href=\"#loci\">Locus items</a></li>");
    }
    out.push_str("<li><a href=\"#sizes\">Set sizes</a></li><li><a href=\"#distances\">Distance distributions</a></li>\
        <li><a href=\"#examples\">Examples</a></li><li><a href=\"#settings\">Inputs and settings</a></li></ul></nav>\n<main>\n");
}

fn small_mark(sentences: u64) -> &'static str {
    if sentences > 0 && sentences < SMALL_SET {
        "<abbr title=\"fewer than 100 sentences: scores on it are noisy\">⚠</abbr>"
    } else {
        ""
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::chart::Series;

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
}
