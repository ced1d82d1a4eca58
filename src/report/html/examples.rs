//! The page's "Examples" section: a fixed sample of each set's lines with their marks and
//! each system's output.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::{anchor, esc, small_mark};
use crate::format::marked::Piece;
use crate::report::data::SetExamples;
use crate::report::scores::Scores;
use crate::report::views::Views;
use crate::report::Report;

/// Examples shown per set before "show more".
pub const SHOWN: usize = 2;

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
    html: &mut String,
    report: &Report,
    sc: Option<&Scores>,
    ex: &SetExamples,
    range: std::ops::Range<usize>,
) {
    let src_lang = esc(report.manifest.languages.source());
    let tgt_lang = esc(report.manifest.languages.target());
    let _ = write!(html, "<ol start=\"{}\">", range.start + 1);
    for e in &ex.examples[range] {
        let _ = write!(
            html,
            "<li><dl><dt>line</dt><dd>{}</dd><dt>source</dt><dd lang=\"{src_lang}\">{}</dd><dt>reference</dt><dd lang=\"{tgt_lang}\">{}</dd>",
            e.id,
            marked_html(&e.source),
            marked_html(&e.target)
        );
        if let Some(sc) = sc {
            for (sys, out) in sc.systems.iter().zip(&e.outputs) {
                let _ = write!(
                    html,
                    "<dt>{}</dt><dd lang=\"{tgt_lang}\">{}</dd>",
                    esc(&sys.name),
                    out.as_deref().map_or_else(|| "–".into(), esc)
                );
            }
        }
        html.push_str("</dl></li>");
    }
    html.push_str("</ol>");
}

pub(super) fn examples(out: &mut String, report: &Report, views: &Views) {
    out.push_str("<section id=\"examples\"><h2>Examples</h2>\n<p>A fixed sample of each set's lines (the same \
        every time). Source: <mark class=\"m-d\">dependent<sub>dep1</sub></mark> and \
        <mark class=\"m-h\">head<sub>head1</sub></mark> of each qualifying pair (numbered per line); reorder sets: \
        the <mark class=\"m-a\">aligned<sub>aligned1</sub></mark> words farthest apart, in the source and the \
        reference. Then each system's output.</p>\n");
    let mut by_phen: BTreeMap<usize, Vec<&SetExamples>> = BTreeMap::new();
    for ex in &report.examples {
        let k = views
            .sizes
            .phenomena
            .iter()
            .position(|row| row.phenomenon == ex.phenomenon)
            .unwrap_or(0);
        by_phen.entry(k).or_default().push(ex);
    }
    out.push_str("<nav aria-label=\"Sets\"><p>");
    for ex in &report.examples {
        let _ = write!(
            out,
            "<a href=\"#ex-{}-{}\">{}/{}</a> ",
            anchor(&ex.phenomenon),
            anchor(&ex.bucket),
            esc(&ex.phenomenon),
            esc(&ex.bucket)
        );
    }
    out.push_str("</p></nav>\n");
    if report.examples.is_empty() {
        out.push_str(if report.manifest.sets.iter().any(|x| x.sentences > 0) {
            "<p>No examples (<code>--examples 0</code>).</p>\n"
        } else {
            "<p>All sets are empty.</p>\n"
        });
    }
    for (_, sets) in by_phen {
        let _ = writeln!(out, "<h3>{}</h3>", esc(&sets[0].phenomenon));
        for ex in sets {
            let n = ex.examples.len();
            let _ = write!(
                out,
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
            example_items(out, report, report.scores.as_ref(), ex, 0..n.min(SHOWN));
            if n > SHOWN {
                let _ = write!(out, "<details><summary>Show {} more</summary>", n - SHOWN);
                example_items(out, report, report.scores.as_ref(), ex, SHOWN..n);
                out.push_str("</details>");
            }
            out.push_str("</section>\n");
        }
    }
    out.push_str("</section>\n");
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
