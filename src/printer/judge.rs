//! What `sheets` and `tally` print.

use std::fmt::Write as _;
use std::path::Path;

use ldd_io::error::escape;

use crate::format::sheet::TallyReport;
use crate::judge::sheets::Sheets;

/// The summary of a `sheets` run: what was written where, and the cells short of loci.
pub fn sheets_summary(sheets: &Sheets, out: &Path, key: Option<&Path>) -> String {
    let mut t = String::new();
    let _ = writeln!(
        t,
        "{} detection items{} written to {} (detection.csv{}, form.html)",
        sheets.detection.len(),
        if sheets.translation.is_empty() {
            String::new()
        } else {
            format!(
                ", {} translation items × {} systems",
                sheets.record.translation_items, sheets.record.systems
            )
        },
        ldd_io::error::shown(out),
        if sheets.translation.is_empty() {
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
    for c in &sheets.short {
        let _ = writeln!(t, "fewer loci than asked: {c}");
    }
    if sheets.record.systems > 0 && sheets.record.no_reference > 0 {
        let _ = writeln!(
            t,
            "{} of the {} loci left out of the translation sheet: no reference word is aligned \
             to them, so the reference would show no mark",
            sheets.record.no_reference, sheets.record.detection_items
        );
    }
    t
}

/// The name of annotator `number` (1-based): their sheet's file as given.
fn annotator(report: &TallyReport, number: usize) -> String {
    report
        .annotators
        .get(number.wrapping_sub(1))
        .map_or_else(|| number.to_string(), |a| escape(a).into_owned())
}

fn pct(value: Option<f64>) -> String {
    value.map_or_else(|| "-".into(), |v| format!("{v:.1}"))
}

fn num(value: Option<f64>) -> String {
    value.map_or_else(|| "-".into(), |v| format!("{v:.3}"))
}

/// `tally`'s table of groups (phenomenon, distance, system: units, judged, share and its
/// interval) and the legend of its `-`.
fn tally_groups(report: &TallyReport) -> String {
    let mut t = String::new();
    let _ = writeln!(
        t,
        "{:<16} {:>3} {:<16} {:>6} {:>6} {:>7} {:>15}",
        "phenomenon", "d", "system", "units", "judged", "share", "CI"
    );
    let mut legend = super::grid::Legend::default();
    for g in &report.groups {
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
fn agreement_legend(report: &TallyReport) -> String {
    let a = &report.agreement;
    let kappas = [a.fleiss, a.raw]
        .into_iter()
        .chain(a.cohen.iter().flat_map(|p| [p.kappa, p.agreement]))
        .chain(report.automatic.iter().flat_map(|x| [x.kappa, x.accuracy]));
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
pub fn render_tally(report: &TallyReport, show: usize) -> String {
    let mut t = String::new();
    let what = if report.kind == "detection" {
        "detection precision (yes among yes/no)"
    } else {
        "translation accuracy (yes among yes/partly/no)"
    };
    let _ = writeln!(
        t,
        "{} annotators, {} units ({} answered by all); {what}, majority answer, {:.0}% Wilson interval",
        report.annotators.len(),
        report.units,
        report.answered_by_all,
        100.0 * report.confidence
    );
    t.push_str(&tally_groups(report));
    let a = &report.agreement;
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
            annotator(report, p.first),
            annotator(report, p.second),
            num(p.kappa),
            p.units,
            num(p.agreement)
        );
    }
    if let Some(auto) = &report.automatic {
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
    t.push_str(&agreement_legend(report));
    if !report.disagreements.is_empty() {
        let names: Vec<String> = (1..=report.annotators.len())
            .map(|n| annotator(report, n))
            .collect();
        let n = report.disagreements.len();
        let _ = writeln!(
            t,
            "\n{n} disagreements (answers of {}){}:",
            names.join(" | "),
            match n.min(show) {
                k if k < n => format!("; {k} of {n} shown (--show N; all in tally.json)"),
                _ => String::new(),
            }
        );
        for d in report.disagreements.iter().take(show) {
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
