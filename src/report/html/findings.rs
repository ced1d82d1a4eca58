//! The page's "Findings" section: per system, first the within-sentence comparison (the
//! sets whose locus words are less often right than comparable words of the same
//! sentences), then per phenomenon and metric the trend over distance net of length with
//! the raw score's trend as context, and the sets that score lower than length-matched
//! sentences, said with the caution that other properties of the sentences differ. Every
//! flag is a Benjamini–Hochberg q-value below [`ALPHA`] (scores written before q-values
//! existed: the unadjusted p-value, said so).

use std::fmt::Write as _;

use super::{anchor, ci, esc, f2, p3};
use crate::format::scores::Trend;
use crate::report::scores::{
    control_q, is_small, mark, metric_label, n_of, within_mark, within_q, Row, ALL_CONTROLS, ALPHA,
    CONTROLS,
};
use crate::report::views::Views;
use crate::view::scores::{ScoreTable, ScoreView};

/// The Findings section.
pub(super) fn findings(out: &mut String, views: &Views) {
    out.push_str("<section id=\"findings\"><h2>Findings</h2>\n");
    let Some(sc) = &views.scores else {
        out.push_str(
            "<p>Not scored yet: the findings appear once <code>ldd-sets score</code> has run \
            (see <a href=\"#scores\">Scores</a>).</p></section>\n",
        );
        return;
    };
    let _ = writeln!(
        out,
        "<p>For every system, first the <strong>within-sentence comparison</strong> (locus accuracy): \
         the sets on which the words at the loci are less often right than comparable words (other \
         words of the same parts of speech) of the same sentences — the signal of the phenomenon \
         itself, since both kinds of word share their sentences. Then per phenomenon and metric the \
         trend over distance <em>net of length</em> (Spearman ρ of set − length-matched controls, or \
         for locus accuracy of the within-sentence difference, against the minimum distance <i>d</i> \
         of the <code>ge</code> sets), the raw score's trend only as context, and the sets that score \
         lower than <em>length-matched sentences</em>: the controls match the set's sentence lengths, \
         not its other properties (topic, vocabulary, structure), so such a difference is not by \
         itself a failure on the phenomenon. Marks: <strong>&lt;</strong> within-sentence flag, \
         <strong>{CONTROLS}</strong> lower than length-matched controls, each at a Benjamini–Hochberg \
         q &lt; {ALPHA} (the false discovery rate over every set test of the system and metric, nested \
         sets counted; the q shown is the adjusted figure); <strong>{ALL_CONTROLS}</strong> (scores \
         without p-values): every control scored higher. ⚠: fewer than 100 of what the score counts \
         (sentences, judged loci or items).</p>"
    );
    for (col, sys) in sc.systems.iter().enumerate() {
        let _ = writeln!(out, "<h3 id=\"findings-{}\">{}</h3>", anchor(sys), esc(sys));
        within_lead(out, views, sc, col);
        trend_table(out, views, sc, col);
    }
    out.push_str("</section>\n");
}

/// The within-sentence comparison of system `col`: its flagged sets, with the locus words'
/// and the comparable words' accuracy, the difference with its interval, q, n and the
/// difference-in-differences against the first system; or that none is flagged.
fn within_lead(out: &mut String, views: &Views, sc: &ScoreView, col: usize) {
    let Some(table) = sc.table(crate::score::locus::KEY) else {
        out.push_str(
            "<p class=\"within\">Within-sentence comparison: not measured (score with \
             <code>--metrics locus</code>).</p>\n",
        );
        return;
    };
    let rows: Vec<&Row> = set_rows(table, views, col).collect();
    let tests = rows.iter().filter(|r| within_q(r).is_some()).count();
    let adjusted = rows.iter().any(|r| within_q(r).is_some_and(|q| q.1));
    let figure = if adjusted {
        "BH q"
    } else {
        "unadjusted p (scores written before q-values)"
    };
    let flagged: Vec<&&Row> = rows.iter().filter(|r| !within_mark(r).is_empty()).collect();
    if flagged.is_empty() {
        let _ = writeln!(
            out,
            "<p class=\"within\">Within-sentence comparison: on none of the {tests} sets tested are \
             the locus words less often right than comparable words of the same sentences \
             ({figure} &lt; {ALPHA}).</p>"
        );
        return;
    }
    let _ = write!(
        out,
        "<p class=\"within\"><strong>&lt; Locus words less often right than comparable words of \
         the same sentences</strong> ({figure} &lt; {ALPHA}, over the {tests} sets tested) on {} \
         set{}:</p><ul class=\"within\">",
        flagged.len(),
        if flagged.len() == 1 { "" } else { "s" }
    );
    let first = sc.systems.first().map_or("", |s| s);
    for r in flagged {
        let Some(b) = &r.baseline else { continue };
        let did = match (col, b.did) {
            (0, _) | (_, None) => String::new(),
            (_, Some(d)) => format!(
                "; against {}: difference-in-differences {d:+.2}{}, p {}",
                esc(first),
                ci(b.did_ci_low, b.did_ci_high),
                p3(b.did_p_value)
            ),
        };
        let _ =
            write!(
            out,
            "<li>{}/{}: locus words {}% right (n {} words) against comparable words {}% (n {}), \
             difference {}{}, {} {}{}{}</li>",
            esc(&r.phenomenon),
            esc(&r.bucket),
            f2(b.word_score),
            b.words,
            f2(b.comparable_score),
            b.comparable,
            b.diff.map_or_else(|| "–".into(), |d| format!("{d:+.2}")),
            ci(b.diff_ci_low, b.diff_ci_high),
            if within_q(r).is_some_and(|q| q.1) { "q" } else { "unadjusted p" },
            p3(within_q(r).map(|q| q.0)),
            did,
            small(b.words)
        );
    }
    out.push_str("</ul>\n");
}

/// The rows of system `col` on the sets the manifest lists, in table order.
fn set_rows<'a>(
    table: &'a ScoreTable<'a>,
    views: &'a Views,
    col: usize,
) -> impl Iterator<Item = &'a Row> + 'a {
    table
        .lines
        .iter()
        .filter(|l| l.key.is_set())
        .filter(move |l| views.sizes.set(l.key.phenomenon, l.key.bucket).is_some())
        .filter_map(move |l| l.cells.get(col).copied().flatten())
}

/// Per phenomenon and metric: the scores at the shortest and longest `ge` set, the trend
/// net of length, the raw trend as context, what the trends say, and the flagged sets.
fn trend_table(out: &mut String, views: &Views, sc: &ScoreView, col: usize) {
    out.push_str(
        "<div class=\"wide\"><table class=\"findings\"><thead><tr><th>phenomenon</th>\
         <th>metric</th><th class=\"n\">shortest</th><th class=\"n\">longest</th>\
         <th class=\"n\">ρ net of length</th><th class=\"n\">ρ of the raw score (context)</th>\
         <th>reading</th><th>flagged sets</th></tr></thead><tbody>",
    );
    for size in &views.sizes.phenomena {
        let p = size.phenomenon;
        for table in &sc.tables {
            let m = table.metric;
            let rows: Vec<&Row> = size
                .ge
                .iter()
                .filter_map(|set| table.set(p, &set.bucket)?.cells[col])
                .filter(|row| row.score.is_some())
                .collect();
            let (Some(first), Some(last)) = (rows.first(), rows.last()) else {
                continue;
            };
            let at = |row: &Row| {
                let (n, what) = n_of(row);
                format!(
                    "{} <small>(d ≥ {}, n {n} {what})</small>{}",
                    f2(row.score),
                    row.min_distance.unwrap_or(0),
                    if is_small(row) { small(1) } else { "" }
                )
            };
            let trend = sc.trend(col, m, p);
            let locus = m == crate::score::locus::KEY;
            let _ = write!(
                out,
                "<tr><td>{}</td><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>\
                 <td class=\"n\">{}</td><td class=\"n\">{}</td><td>{}</td><td>{}</td></tr>",
                esc(p),
                esc(metric_label(m)),
                at(first),
                at(last),
                trend.map_or_else(
                    || "–".into(),
                    |t| {
                        format!(
                            "{}{}{}",
                            f2(t.diff_spearman),
                            ci(t.diff_spearman_ci_low, t.diff_spearman_ci_high),
                            t.diff_spearman_p
                                .map_or_else(String::new, |p| format!(" p {}", p3(Some(p))))
                        )
                    }
                ),
                trend.map_or_else(
                    || "–".into(),
                    |t| {
                        format!(
                            "{}{}",
                            f2(t.spearman),
                            ci(t.spearman_ci_low, t.spearman_ci_high)
                        )
                    }
                ),
                trend.map_or_else(|| "–".into(), |t| reading(t, locus)),
                flagged(table, views, p, col, locus)
            );
        }
    }
    out.push_str("</tbody></table></div>\n");
}

/// What a trend says: net of length where its test (or, without one, its interval) says
/// so — against length-matched sentences, which differ from the set's in more than length,
/// so said; else the raw trend as context only (that the raw score falls only when its own
/// interval is below 0).
fn reading(trend: &Trend, locus: bool) -> String {
    let (against, so) = if locus {
        (
            "against the comparable words of the same sentences".to_string(),
            "so does that of the comparable words of the same sentences",
        )
    } else {
        (
            match trend.diff_spearman_p {
                Some(p) => format!(
                    "against length-matched sentences, p {}; they differ from the set's in \
                     more than length, so this is not by itself a failure on the phenomenon",
                    p3(Some(p))
                ),
                None => "against its length-matched controls".to_string(),
            },
            "so do its length-matched controls",
        )
    };
    let raw_falls = trend.spearman.is_some() && trend.spearman_ci_high.is_some_and(|h| h < 0.0);
    let Some(rho) = trend.diff_spearman else {
        return "no trend net of length in these scores: the raw trend is context, not a finding"
            .into();
    };
    // A test where there is one; else the interval.
    let (falls, rises, judged) = match (
        trend.diff_spearman_p,
        trend.diff_spearman_ci_low,
        trend.diff_spearman_ci_high,
    ) {
        (Some(p), _, _) => (p < ALPHA && rho < 0.0, p < ALPHA && rho > 0.0, true),
        (None, Some(lo), Some(hi)) => (hi < 0.0, lo > 0.0, true),
        _ => (false, false, false),
    };
    if falls {
        format!("falls with distance net of length ({against})")
    } else if rises {
        format!("rises with distance net of length ({against})")
    } else if !judged {
        "ρ net of length without an interval: no claim (its points share words)".into()
    } else if raw_falls {
        format!("the raw score falls with distance, but {so}: no trend net of length")
    } else {
        "no trend net of length".into()
    }
}

/// The sets of `phenomenon` flagged for system `col` in `table`: for locus accuracy by the
/// within-sentence comparison, else as lower than length-matched sentences, each with its
/// mark, q (or unadjusted p, said) and the small-n ⚠.
fn flagged(table: &ScoreTable, views: &Views, phenomenon: &str, col: usize, locus: bool) -> String {
    let sets: Vec<String> = set_rows(table, views, col)
        .filter(|r| r.phenomenon == phenomenon)
        .filter_map(|r| {
            let (m, q) = if locus {
                (within_mark(r), within_q(r))
            } else {
                (mark(r), control_q(r))
            };
            (!m.is_empty()).then(|| {
                let figure = match q {
                    Some((q, true)) => format!(" (q {})", p3(Some(q))),
                    Some((p, false)) => format!(" (p {}, unadjusted)", p3(Some(p))),
                    None => String::new(),
                };
                format!(
                    "{} <strong>{}</strong>{figure}{}",
                    esc(&r.bucket),
                    esc(m),
                    if is_small(r) { small(1) } else { "" }
                )
            })
        })
        .collect();
    match (sets.is_empty(), locus) {
        (true, _) => "–".into(),
        (false, true) => format!(
            "locus words less often right than comparable words: {}",
            sets.join("; ")
        ),
        (false, false) => format!(
            "lower than length-matched sentences (other sentence properties differ too): {}",
            sets.join("; ")
        ),
    }
}

/// The small-n ⚠ when `n` is below 100 (and above 0).
fn small(n: u64) -> &'static str {
    if n > 0 && n < crate::report::scores::SMALL_SET {
        "<abbr title=\"fewer than 100 of what the score counts: the score is noisy\">⚠</abbr>"
    } else {
        ""
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trend(raw: (f64, f64, f64), net: Option<(f64, f64, f64)>) -> Trend {
        Trend {
            spearman: Some(raw.0),
            spearman_ci_low: Some(raw.1),
            spearman_ci_high: Some(raw.2),
            diff_spearman: net.map(|n| n.0),
            diff_spearman_ci_low: net.map(|n| n.1),
            diff_spearman_ci_high: net.map(|n| n.2),
            ..Trend::default()
        }
    }

    /// Each reading by hand: a claim only where an interval excludes 0.
    #[test]
    fn a_trend_is_read_net_of_length() {
        let net_falls = trend((-0.9, -1.0, -0.5), Some((-0.8, -0.9, -0.2)));
        assert!(reading(&net_falls, false).starts_with("falls with distance net of length"));
        // With a test, the test decides, and the finding is worded as one against
        // length-matched sentences.
        let tested = Trend {
            diff_spearman_p: Some(0.012),
            ..net_falls.clone()
        };
        assert_eq!(
            reading(&tested, false),
            "falls with distance net of length (against length-matched sentences, p 0.012; \
             they differ from the set's in more than length, so this is not by itself a \
             failure on the phenomenon)"
        );
        let untested = Trend {
            diff_spearman_p: Some(0.2),
            ..net_falls.clone()
        };
        assert_eq!(
            reading(&untested, false),
            "the raw score falls with distance, but so do its length-matched controls: no \
             trend net of length"
        );
        let net_rises = trend((0.1, -0.5, 0.6), Some((0.7, 0.2, 0.9)));
        assert!(reading(&net_rises, false).starts_with("rises with distance net of length"));
        // The every-5th-word system on newstest2013: the raw score falls, the net does not.
        let raw_only = trend((-0.94, -1.0, -0.37), Some((-0.2, -0.8, 0.6)));
        assert_eq!(
            reading(&raw_only, false),
            "the raw score falls with distance, but so do its length-matched controls: no \
             trend net of length"
        );
        // A raw ρ below 0 whose interval covers 0 is no fall.
        let neither = trend((-0.26, -0.6, 1.0), Some((-0.26, -0.71, 0.83)));
        assert_eq!(reading(&neither, false), "no trend net of length");
        let old = trend((-0.9, -1.0, -0.5), None);
        assert!(reading(&old, true).contains("the raw trend is context, not a finding"));
    }
}
