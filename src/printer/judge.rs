//! What `sheets` and `tally` print.

use std::fmt::Write as _;
use std::path::Path;

use ldd_io::error::escape;

use crate::format::sheet::TallyReport;
use crate::judge::sheets::Sheets;

/// The summary of a `sheets` run: what was written where, and the cells short of loci.
pub fn sheets_summary(s: &Sheets, out: &Path, key: Option<&Path>) -> String {
    let mut t = String::new();
    let _ = writeln!(
        t,
        "{} detection items{} written to {} (detection.csv{}, form.html)",
        s.detection.len(),
        if s.translation.is_empty() {
            String::new()
        } else {
            format!(
                ", {} translation items × {} systems",
                s.record.translation_items, s.record.systems
            )
        },
        ldd_io::error::shown(out),
        if s.translation.is_empty() {
            ""
        } else {
            ", translation.csv"
        }
    );
    if let Some(k) = key {
        let _ = writeln!(
            t,
            "key (which output is which system; keep it from the annotators): {}",
            ldd_io::error::shown(k)
        );
    }
    for c in &s.short {
        let _ = writeln!(t, "fewer loci than asked: {c}");
    }
    if s.record.systems > 0 && s.record.no_reference > 0 {
        let _ = writeln!(
            t,
            "{} of the {} loci left out of the translation sheet: no reference word is aligned \
             to them, so the reference would show no mark",
            s.record.no_reference, s.record.detection_items
        );
    }
    t
}

/// The name of annotator `n` (1-based): their sheet's file as given.
fn annotator(r: &TallyReport, n: usize) -> String {
    r.annotators
        .get(n.wrapping_sub(1))
        .map_or_else(|| n.to_string(), |a| escape(a).into_owned())
}

fn pct(x: Option<f64>) -> String {
    x.map_or_else(|| "-".into(), |v| format!("{v:.1}"))
}

fn num(x: Option<f64>) -> String {
    x.map_or_else(|| "-".into(), |v| format!("{v:.3}"))
}

/// `tally`'s table of groups (phenomenon, distance, system: units, judged, share and its
/// interval) and the legend of its `-`.
fn tally_groups(r: &TallyReport) -> String {
    let mut t = String::new();
    let _ = writeln!(
        t,
        "{:<16} {:>3} {:<16} {:>6} {:>6} {:>7} {:>15}",
        "phenomenon", "d", "system", "units", "judged", "share", "CI"
    );
    let mut legend = super::grid::Legend::default();
    for g in &r.groups {
        if g.system.is_none() {
            legend.dash("detection items have no system");
        }
        if g.share.is_none() {
            legend.dash("no unit judged (every answer unanswered, unsure or `reference lacks it`)");
        }
        let _ = writeln!(
            t,
            "{:<16} {:>3} {:<16} {:>6} {:>6} {:>7} {:>15}",
            escape(&g.phenomenon),
            g.distance,
            escape(g.system.as_deref().unwrap_or("-")),
            g.units,
            g.judged,
            pct(g.share),
            match (g.ci_low, g.ci_high) {
                (Some(lo), Some(hi)) => format!("[{}, {}]", pct(Some(lo)), pct(Some(hi))),
                _ => "-".into(),
            }
        );
    }
    t.push_str(&legend.render());
    t
}

/// Why an agreement figure shows `-`, when one does.
fn agreement_legend(r: &TallyReport) -> String {
    let a = &r.agreement;
    let kappas = [a.fleiss, a.raw]
        .into_iter()
        .chain(a.cohen.iter().flat_map(|p| [p.kappa, p.agreement]))
        .chain(r.automatic.iter().flat_map(|x| [x.kappa, x.accuracy]));
    let mut l = super::grid::Legend::default();
    if kappas.into_iter().any(|k| k.is_none()) {
        l.dash(
            "undefined: no unit answered by those annotators, or every answer the same (no \
             agreement beyond chance to measure)",
        );
    }
    l.render()
}

/// `tally`'s table: groups, agreement, automatic agreement, the first `show`
/// disagreements.
pub fn render_tally(r: &TallyReport, show: usize) -> String {
    let mut t = String::new();
    let what = if r.kind == "detection" {
        "detection precision (yes among yes/no)"
    } else {
        "translation accuracy (yes among yes/partly/no)"
    };
    let _ = writeln!(
        t,
        "{} annotators, {} units ({} answered by all); {what}, majority answer, {:.0}% Wilson interval",
        r.annotators.len(),
        r.units,
        r.answered_by_all,
        100.0 * r.confidence
    );
    t.push_str(&tally_groups(r));
    let a = &r.agreement;
    let _ = writeln!(
        t,
        "\nagreement: raw {}  Fleiss' kappa {}",
        num(a.raw),
        num(a.fleiss)
    );
    for p in &a.cohen {
        let _ = writeln!(
            t,
            "  Cohen's kappa, {} and {}: {} ({} units, agreement {})",
            annotator(r, p.first),
            annotator(r, p.second),
            num(p.kappa),
            p.units,
            num(p.agreement)
        );
    }
    if let Some(auto) = &r.automatic {
        let _ = writeln!(
            t,
            "locus accuracy against the majority: agreement {}, Cohen's kappa {} on {} units \
             (auto correct: {} yes / {} not; auto incorrect: {} yes / {} not)",
            num(auto.accuracy),
            num(auto.kappa),
            auto.units,
            auto.table[0][0],
            auto.table[0][1],
            auto.table[1][0],
            auto.table[1][1]
        );
    }
    t.push_str(&agreement_legend(r));
    if !r.disagreements.is_empty() {
        let names: Vec<String> = (1..=r.annotators.len()).map(|n| annotator(r, n)).collect();
        let n = r.disagreements.len();
        let _ = writeln!(
            t,
            "\n{n} disagreements (answers of {}){}:",
            names.join(" | "),
            match n.min(show) {
                k if k < n => format!("; {k} of {n} shown (--show N; all in tally.json)"),
                _ => String::new(),
            }
        );
        for d in r.disagreements.iter().take(show) {
            let _ = writeln!(
                t,
                "  {} {}: {}",
                escape(&d.item),
                escape(&d.slot),
                escape(&d.answers.join(" | "))
            );
        }
    }
    t
}
