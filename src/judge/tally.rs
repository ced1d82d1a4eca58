//! `tally`: the annotators' sheets (one file per annotator) counted — the majority answer
//! of every item, the share judged correct per phenomenon, distance and system with Wilson
//! intervals, agreement between annotators (raw, Cohen's κ of every pair, Fleiss' κ), the
//! items they disagree on, and how far locus accuracy agrees with their majority.
//!
//! Cohen's κ = (pₒ − pₑ) / (1 − pₑ), pₑ from each annotator's own answer shares; Fleiss' κ
//! over the units all answered, pₑ from the pooled shares (Fleiss 1971). Every answer is
//! its own category (`unsure`, `partly` and `reference lacks it` included).

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use ldd_eval::significance::wilson;

use crate::error::{Error, Result};
use crate::format::sheet::{
    read_csv, read_filled, Agreement, Answered, AutoAgreement, AutoDisagreement, Disagreement,
    KeyRow, PairKappa, SheetKind, TallyGroup, TallyReport, AUTOMATIC,
};

/// What `tally` counts.
#[derive(Debug, Clone)]
pub struct TallyOptions {
    /// The annotators' sheets, one file each, all of one kind and with the same items.
    pub sheets: Vec<PathBuf>,
    /// The key of translation sheets (`<sheets>.key.csv`): per system results and the
    /// agreement with locus accuracy.
    pub key: Option<PathBuf>,
    /// Level of the intervals.
    pub confidence: f64,
}

/// Cohen's κ of two label sequences (same units); `None` when chance agreement is 1.
pub fn cohen_kappa(a: &[&str], b: &[&str]) -> (Option<f64>, Option<f64>) {
    let n = a.len() as f64;
    if a.is_empty() {
        return (None, None);
    }
    let agree = a.iter().zip(b).filter(|(x, y)| x == y).count() as f64 / n;
    let mut cats: BTreeSet<&str> = a.iter().copied().collect();
    cats.extend(b.iter().copied());
    let share = |v: &[&str], c: &str| v.iter().filter(|x| **x == c).count() as f64 / n;
    let pe: f64 = cats.iter().map(|c| share(a, c) * share(b, c)).sum();
    let kappa = (pe < 1.0).then(|| (agree - pe) / (1.0 - pe));
    (Some(agree), kappa)
}

/// Fleiss' κ of `labels[unit][annotator]` (every unit with the same number ≥ 2 of
/// answers); `None` without units or when chance agreement is 1.
pub fn fleiss_kappa(labels: &[Vec<&str>]) -> Option<f64> {
    let m = labels.first()?.len();
    if m < 2 {
        return None;
    }
    let cats: BTreeSet<&str> = labels.iter().flatten().copied().collect();
    let n = labels.len() as f64;
    let mut pooled: BTreeMap<&str, f64> = BTreeMap::new();
    let mut p_bar = 0.0;
    for u in labels {
        let mut counts: BTreeMap<&str, f64> = BTreeMap::new();
        for l in u {
            *counts.entry(l).or_default() += 1.0;
        }
        let sq: f64 = counts.values().map(|c| c * c).sum();
        p_bar += (sq - m as f64) / (m as f64 * (m as f64 - 1.0));
        for (c, k) in counts {
            *pooled.entry(c).or_default() += k;
        }
    }
    p_bar /= n;
    let pe: f64 = cats
        .iter()
        .map(|c| {
            let p = pooled.get(c).copied().unwrap_or(0.0) / (n * m as f64);
            p * p
        })
        .sum();
    (pe < 1.0).then(|| (p_bar - pe) / (1.0 - pe))
}

/// The majority answer of a unit's answers; `None` for a tie or no answer.
fn majority(answers: &[Option<&str>]) -> Option<String> {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for a in answers.iter().flatten() {
        *counts.entry(a).or_default() += 1;
    }
    let max = *counts.values().max()?;
    let top: Vec<&&str> = counts
        .iter()
        .filter(|(_, &c)| c == max)
        .map(|(a, _)| a)
        .collect();
    (top.len() == 1).then(|| top[0].to_string())
}

/// The run id of a sheet's rows (all the same), checked.
fn sheet_run(path: &std::path::Path, units: &[Answered]) -> Result<String> {
    let run = units.first().map(|u| u.run.clone()).unwrap_or_default();
    if let Some(u) = units.iter().find(|u| u.run != run) {
        return Err(Error::input(
            path,
            u.line,
            format!(
                "run `{}`, but the rows before have run `{}`: rows of two `sheets` runs mixed \
                 in one sheet",
                ldd_io::error::quote(&u.run, 40),
                ldd_io::error::quote(&run, 40)
            ),
        ));
    }
    Ok(run)
}

/// The sheets, each read once and checked: one kind, one `sheets` run, each file given
/// once (no file twice, no two identical files: one annotator counted twice).
fn read_sheets(o: &TallyOptions) -> Result<(SheetKind, String, Vec<Vec<Answered>>)> {
    let Some(first) = o.sheets.first() else {
        return Err(Error::Config("tally: give at least one sheet".into()));
    };
    let (kind, units) = read_filled(first)?;
    let run = sheet_run(first, &units)?;
    let mut all: Vec<Vec<Answered>> = vec![units];
    let mut sums = vec![ldd_io::sha256_file(first)?.0];
    for (i, p) in o.sheets.iter().enumerate().skip(1) {
        let (k, units) = read_filled(p)?;
        if k != kind {
            return Err(Error::Config(format!(
                "{}: a {k} sheet among {kind} sheets; tally one kind at a time",
                ldd_io::error::shown(p),
            )));
        }
        let r = sheet_run(p, &units)?;
        if r != run {
            return Err(Error::Data(format!(
                "{} and {} come from different `sheets` runs (run `{}` and `{}`); tally the \
                 sheets of one run, with its key",
                ldd_io::error::shown(first),
                ldd_io::error::shown(p),
                ldd_io::error::quote(&run, 40),
                ldd_io::error::quote(&r, 40)
            )));
        }
        // (Identical unfilled copies are left to the unfilled sheets' own error.)
        let sha = ldd_io::sha256_file(p)?.0;
        let answered = units.iter().any(|u| u.answer.is_some());
        let same =
            |j: usize| ldd_io::output::same_file(&o.sheets[j], p) || (answered && sums[j] == sha);
        if let Some(j) = (0..i).find(|&j| same(j)) {
            return Err(Error::Data(format!(
                "{} and {} are the same sheet (one file, or two identical files): each \
                 annotator's sheet counts once — give every annotator's own file",
                ldd_io::error::shown(&o.sheets[j]),
                ldd_io::error::shown(p)
            )));
        }
        sums.push(sha);
        all.push(units);
    }
    Ok((kind, run, all))
}

/// Refuses a sheet without any answer (`tally` of the sheets as `sheets` wrote them).
fn check_answered(o: &TallyOptions, all: &[Vec<Answered>]) -> Result<()> {
    for (p, units) in o.sheets.iter().zip(all) {
        if units.iter().all(|u| u.answer.is_none()) {
            return Err(Error::input(
                p,
                0,
                format!(
                    "no answer in any of its {} rows: the sheet as `sheets` wrote it? Fill in \
                     the `answer` column (or use form.html) and save it, then tally",
                    units.len()
                ),
            ));
        }
    }
    Ok(())
}

/// The key of translation sheets of run `run`, checked: of the same run, every (item,
/// slot) once, every item with each system once (the same systems in every item), and
/// automatic judgements that locus accuracy gives.
fn read_key(p: &std::path::Path, run: &str) -> Result<BTreeMap<(String, String), KeyRow>> {
    let rows: Vec<(KeyRow, u64)> = read_csv(p)?;
    let mut map: BTreeMap<(String, String), KeyRow> = BTreeMap::new();
    let mut systems: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (r, line) in rows {
        let bad = |msg: String| Error::input(p, line, msg);
        if r.run != run {
            return Err(bad(format!(
                "run `{}`, but the sheets are of run `{}`: the key of another `sheets` run",
                ldd_io::error::quote(&r.run, 40),
                ldd_io::error::quote(run, 40)
            )));
        }
        if !AUTOMATIC.contains(&r.automatic.as_str()) {
            return Err(bad(format!(
                "automatic `{}` is not one of {}",
                ldd_io::error::quote(&r.automatic, 40),
                AUTOMATIC.join(", ")
            )));
        }
        if !systems
            .entry(r.item.clone())
            .or_default()
            .insert(r.system.clone())
        {
            return Err(bad(format!(
                "item {}: system `{}` twice",
                ldd_io::error::escape(&r.item),
                ldd_io::error::quote(&r.system, 100)
            )));
        }
        let k = (r.item.clone(), r.slot.clone());
        if map.insert(k, r.clone()).is_some() {
            return Err(bad(format!(
                "item {} {}: a second row",
                ldd_io::error::escape(&r.item),
                ldd_io::error::escape(&r.slot)
            )));
        }
    }
    let mut sets = systems.values();
    if let Some(first) = sets.next() {
        if let Some(other) = sets.find(|s| *s != first) {
            return Err(Error::input(
                p,
                0,
                format!(
                    "its items do not all have the same systems ({} and {}): not a key \
                     `sheets` wrote",
                    ldd_io::error::quote(
                        &first.iter().cloned().collect::<Vec<_>>().join(", "),
                        200
                    ),
                    ldd_io::error::quote(
                        &other.iter().cloned().collect::<Vec<_>>().join(", "),
                        200
                    )
                ),
            ));
        }
    }
    Ok(map)
}

/// Counts the sheets.
pub fn tally(o: &TallyOptions) -> Result<TallyReport> {
    let (kind, run, all) = read_sheets(o)?;
    let first = &o.sheets[0];
    // Every sheet has the same units, once each (in any order).
    let keys = |u: &[Answered]| -> Vec<(String, String)> {
        u.iter().map(|x| (x.item.clone(), x.slot.clone())).collect()
    };
    let base = keys(&all[0]);
    let base_set: BTreeSet<(String, String)> = base.iter().cloned().collect();
    for (p, units) in o.sheets.iter().zip(&all) {
        let mut seen = BTreeSet::new();
        for u in units {
            let k = (u.item.clone(), u.slot.clone());
            if !base_set.contains(&k) || !seen.insert(k) {
                return Err(Error::input(
                    p,
                    u.line,
                    format!(
                        "item {} {}: not an item of {} once",
                        ldd_io::error::escape(&u.item),
                        ldd_io::error::escape(&u.slot),
                        ldd_io::error::shown(first)
                    ),
                ));
            }
        }
        if seen.len() != base_set.len() {
            return Err(Error::Data(format!(
                "{}: has {} of the {} items of {}; every annotator's sheet must hold them all",
                ldd_io::error::shown(p),
                seen.len(),
                base_set.len(),
                ldd_io::error::shown(first)
            )));
        }
    }
    check_answered(o, &all)?;
    let index: Vec<BTreeMap<(String, String), usize>> = all
        .iter()
        .map(|u| {
            keys(u)
                .into_iter()
                .enumerate()
                .map(|(i, k)| (k, i))
                .collect()
        })
        .collect();
    let answer =
        |a: usize, k: &(String, String)| -> Option<&str> { all[a][index[a][k]].answer.as_deref() };
    let m = all.len();

    // Agreement.
    let mut cohen = Vec::new();
    for a in 0..m {
        for b in a + 1..m {
            let (x, y): (Vec<&str>, Vec<&str>) = base
                .iter()
                .filter_map(|k| Some((answer(a, k)?, answer(b, k)?)))
                .unzip();
            let (agreement, kappa) = cohen_kappa(&x, &y);
            cohen.push(PairKappa {
                a: a + 1,
                b: b + 1,
                units: x.len(),
                agreement,
                kappa,
            });
        }
    }
    let complete: Vec<Vec<&str>> = base
        .iter()
        .filter_map(|k| (0..m).map(|a| answer(a, k)).collect::<Option<Vec<&str>>>())
        .collect();
    let raw = (!complete.is_empty()).then(|| {
        complete
            .iter()
            .filter(|u| u.iter().all(|x| *x == u[0]))
            .count() as f64
            / complete.len() as f64
    });
    let agreement = Agreement {
        raw,
        cohen,
        fleiss: fleiss_kappa(&complete),
    };
    let disagreements = base
        .iter()
        .filter_map(|k| {
            let answers: Vec<Option<&str>> = (0..m).map(|a| answer(a, k)).collect();
            let given: BTreeSet<&str> = answers.iter().flatten().copied().collect();
            (given.len() > 1).then(|| Disagreement {
                item: k.0.clone(),
                slot: k.1.clone(),
                answers: answers
                    .iter()
                    .map(|a| a.unwrap_or("").to_string())
                    .collect(),
            })
        })
        .collect();

    // The key: which system each translation unit is.
    let key: Option<BTreeMap<(String, String), KeyRow>> = match (&o.key, kind) {
        (Some(p), SheetKind::Translation) => {
            let map = read_key(p, &run)?;
            if let Some(k) = base.iter().find(|k| !map.contains_key(k)) {
                return Err(Error::Data(format!(
                    "{}: has no row for item {} {} of the sheets: not their key",
                    ldd_io::error::shown(p),
                    ldd_io::error::escape(&k.0),
                    ldd_io::error::escape(&k.1)
                )));
            }
            Some(map)
        }
        (Some(_), SheetKind::Detection) => {
            return Err(Error::Config(
                "tally --key: the key is for translation sheets; detection sheets have none".into(),
            ))
        }
        (None, _) => None,
    };

    // Majorities, per group.
    let mut groups: Vec<TallyGroup> = Vec::new();
    let mut auto_table = [[0u64; 2]; 2];
    let mut auto_disagree = Vec::new();
    for (i, k) in base.iter().enumerate() {
        let u = &all[0][i];
        let answers: Vec<Option<&str>> = (0..m).map(|a| answer(a, k)).collect();
        let maj = majority(&answers);
        let system = key.as_ref().map(|key| key[k].system.clone());
        let g = match groups.iter().position(|g| {
            g.phenomenon == u.phenomenon && g.distance == u.distance && g.system == system
        }) {
            Some(g) => g,
            None => {
                groups.push(TallyGroup {
                    phenomenon: u.phenomenon.clone(),
                    distance: u.distance,
                    system: system.clone(),
                    units: 0,
                    answers: BTreeMap::new(),
                    judged: 0,
                    correct: 0,
                    share: None,
                    ci_low: None,
                    ci_high: None,
                });
                groups.len() - 1
            }
        };
        let g = &mut groups[g];
        g.units += 1;
        let label = maj.clone().unwrap_or_else(|| "no majority".into());
        *g.answers.entry(label).or_default() += 1;
        let judges = match kind {
            SheetKind::Detection => matches!(maj.as_deref(), Some("yes" | "no")),
            SheetKind::Translation => matches!(maj.as_deref(), Some("yes" | "partly" | "no")),
        };
        if judges {
            g.judged += 1;
            g.correct += u64::from(maj.as_deref() == Some("yes"));
        }
        if let (Some(key), true) = (&key, judges) {
            let auto = key[k].automatic.as_str();
            if auto == "correct" || auto == "incorrect" {
                let r = usize::from(auto != "correct");
                let c = usize::from(maj.as_deref() != Some("yes"));
                auto_table[r][c] += 1;
                if r != c {
                    auto_disagree.push(AutoDisagreement {
                        item: u.item.clone(),
                        slot: u.slot.clone(),
                        system: key[k].system.clone(),
                        phenomenon: u.phenomenon.clone(),
                        distance: u.distance,
                        automatic: auto.to_string(),
                        majority: maj.clone().unwrap_or_default(),
                        source: u.texts[0].clone(),
                        reference: u.texts[1].clone(),
                        output: u.texts[2].clone(),
                    });
                }
            }
        }
    }
    // Groups in the order of the sheets' phenomena, then distance, then system name: the
    // systems in the same order in every cell.
    let mut seen: Vec<String> = Vec::new();
    for g in &groups {
        if !seen.contains(&g.phenomenon) {
            seen.push(g.phenomenon.clone());
        }
    }
    groups.sort_by(|a, b| {
        let at = |p: &str| seen.iter().position(|x| x == p);
        (at(&a.phenomenon), a.distance, &a.system).cmp(&(at(&b.phenomenon), b.distance, &b.system))
    });
    for g in &mut groups {
        if g.judged > 0 {
            g.share = Some(100.0 * g.correct as f64 / g.judged as f64);
        }
        if let Some((lo, hi)) = wilson(g.correct, g.judged, o.confidence) {
            (g.ci_low, g.ci_high) = (Some(100.0 * lo), Some(100.0 * hi));
        }
    }
    let automatic = key.as_ref().map(|_| {
        let t = auto_table;
        let units = t[0][0] + t[0][1] + t[1][0] + t[1][1];
        let mut auto = Vec::new();
        let mut people = Vec::new();
        for (r, row) in t.iter().enumerate() {
            for (c, &n) in row.iter().enumerate() {
                for _ in 0..n {
                    auto.push(if r == 0 { "correct" } else { "incorrect" });
                    people.push(if c == 0 { "correct" } else { "incorrect" });
                }
            }
        }
        let (accuracy, kappa) = cohen_kappa(&auto, &people);
        AutoAgreement {
            units,
            table: t,
            accuracy,
            kappa,
            disagreements: std::mem::take(&mut auto_disagree),
        }
    });
    Ok(TallyReport {
        kind: kind.to_string(),
        annotators: o.sheets.iter().map(|p| p.display().to_string()).collect(),
        units: base.len(),
        answered_by_all: complete.len(),
        agreement,
        groups,
        disagreements,
        automatic,
        confidence: o.confidence,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hand-computed: two annotators, 10 units, yes/no. They agree on 7 (po = 0.7); A says
    /// yes 6 times, B 5 times: pe = 0.6·0.5 + 0.4·0.5 = 0.5; κ = 0.2 / 0.5 = 0.4.
    #[test]
    fn cohen_by_hand() {
        let a = ["y", "y", "y", "y", "y", "y", "n", "n", "n", "n"];
        let b = ["y", "y", "y", "y", "n", "n", "y", "n", "n", "n"];
        let (po, k) = cohen_kappa(&a, &b);
        assert!((po.unwrap() - 0.7).abs() < 1e-12);
        assert!((k.unwrap() - 0.4).abs() < 1e-12, "{k:?}");
        assert_eq!(cohen_kappa(&["y", "y"], &["y", "y"]), (Some(1.0), None));
    }

    /// Hand-computed (Fleiss 1971's formula): 3 annotators, 4 units: (y,y,y), (y,y,n),
    /// (n,n,n), (y,n,n). P_i = 1, 1/3, 1, 1/3 → P̄ = 2/3; p_y = 6/12, p_n = 6/12 → pe = 1/2;
    /// κ = (2/3 − 1/2) / (1/2) = 1/3.
    #[test]
    fn fleiss_by_hand() {
        let l: Vec<Vec<&str>> = vec![
            vec!["y", "y", "y"],
            vec!["y", "y", "n"],
            vec!["n", "n", "n"],
            vec!["y", "n", "n"],
        ];
        assert!((fleiss_kappa(&l).unwrap() - 1.0 / 3.0).abs() < 1e-12);
        assert_eq!(majority(&[Some("y"), Some("n")]), None);
        assert_eq!(
            majority(&[Some("y"), Some("n"), Some("y")]),
            Some("y".into())
        );
    }
}
