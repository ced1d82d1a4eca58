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
pub fn cohen_kappa(first: &[&str], second: &[&str]) -> (Option<f64>, Option<f64>) {
    let n = first.len() as f64;
    if first.is_empty() {
        return (None, None);
    }
    let agree = first.iter().zip(second).filter(|(x, y)| x == y).count() as f64 / n;
    let mut cats: BTreeSet<&str> = first.iter().copied().collect();
    cats.extend(second.iter().copied());
    let share = |v: &[&str], c: &str| v.iter().filter(|x| **x == c).count() as f64 / n;
    let pe: f64 = cats
        .iter()
        .map(|c| share(first, c) * share(second, c))
        .sum();
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
fn read_sheets(options: &TallyOptions) -> Result<(SheetKind, String, Vec<Vec<Answered>>)> {
    let Some(first) = options.sheets.first() else {
        return Err(Error::Config("tally: give at least one sheet".into()));
    };
    let (kind, units) = read_filled(first)?;
    let run = sheet_run(first, &units)?;
    let mut all: Vec<Vec<Answered>> = vec![units];
    let mut sums = vec![ldd_io::sha256_file(first)?.0];
    for (i, p) in options.sheets.iter().enumerate().skip(1) {
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
        let same = |j: usize| {
            ldd_io::output::same_file(&options.sheets[j], p) || (answered && sums[j] == sha)
        };
        if let Some(j) = (0..i).find(|&j| same(j)) {
            return Err(Error::Data(format!(
                "{} and {} are the same sheet (one file, or two identical files): each \
                 annotator's sheet counts once — give every annotator's own file",
                ldd_io::error::shown(&options.sheets[j]),
                ldd_io::error::shown(p)
            )));
        }
        sums.push(sha);
        all.push(units);
    }
    Ok((kind, run, all))
}

/// Refuses a sheet without any answer (`tally` of the sheets as `sheets` wrote them).
fn check_answered(options: &TallyOptions, all: &[Vec<Answered>]) -> Result<()> {
    for (p, units) in options.sheets.iter().zip(all) {
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
fn read_key(path: &std::path::Path, run: &str) -> Result<BTreeMap<(String, String), KeyRow>> {
    let rows: Vec<(KeyRow, u64)> = read_csv(path)?;
    let mut map: BTreeMap<(String, String), KeyRow> = BTreeMap::new();
    let mut systems: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (r, line) in rows {
        let bad = |msg: String| Error::input(path, line, msg);
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
                path,
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

/// Every sheet has the same units as the first, once each (in any order).
fn check_same_units(options: &TallyOptions, all: &[Vec<Answered>]) -> Result<()> {
    let first = &options.sheets[0];
    let base_set: BTreeSet<(String, String)> = unit_keys(&all[0]).into_iter().collect();
    for (path, units) in options.sheets.iter().zip(all) {
        let mut seen = BTreeSet::new();
        for unit in units {
            let key = (unit.item.clone(), unit.slot.clone());
            if !base_set.contains(&key) || !seen.insert(key) {
                return Err(Error::input(
                    path,
                    unit.line,
                    format!(
                        "item {} {}: not an item of {} once",
                        ldd_io::error::escape(&unit.item),
                        ldd_io::error::escape(&unit.slot),
                        ldd_io::error::shown(first)
                    ),
                ));
            }
        }
        if seen.len() != base_set.len() {
            return Err(Error::Data(format!(
                "{}: has {} of the {} items of {}; every annotator's sheet must hold them all",
                ldd_io::error::shown(path),
                seen.len(),
                base_set.len(),
                ldd_io::error::shown(first)
            )));
        }
    }
    Ok(())
}

/// The (item, slot) of every unit of a sheet, in its order.
fn unit_keys(units: &[Answered]) -> Vec<(String, String)> {
    units
        .iter()
        .map(|unit| (unit.item.clone(), unit.slot.clone()))
        .collect()
}

/// Every annotator's answers, found by unit.
struct Answers<'a> {
    sheets: &'a [Vec<Answered>],
    index: Vec<BTreeMap<(String, String), usize>>,
}

impl<'a> Answers<'a> {
    fn new(sheets: &'a [Vec<Answered>]) -> Self {
        let index = sheets
            .iter()
            .map(|units| {
                unit_keys(units)
                    .into_iter()
                    .enumerate()
                    .map(|(position, key)| (key, position))
                    .collect()
            })
            .collect();
        Answers { sheets, index }
    }

    fn annotators(&self) -> usize {
        self.sheets.len()
    }

    /// Annotator `annotator`'s answer to unit `key`.
    fn of(&self, annotator: usize, key: &(String, String)) -> Option<&'a str> {
        self.sheets[annotator][self.index[annotator][key]]
            .answer
            .as_deref()
    }

    /// Every annotator's answer to unit `key`.
    fn all_of(&self, key: &(String, String)) -> Vec<Option<&'a str>> {
        (0..self.annotators())
            .map(|annotator| self.of(annotator, key))
            .collect()
    }
}

/// Agreement between the annotators (Cohen's κ of every pair, raw agreement and Fleiss' κ
/// over the units all answered), and how many units all answered.
fn agreement(base: &[(String, String)], answers: &Answers) -> (Agreement, usize) {
    let annotators = answers.annotators();
    let mut cohen = Vec::new();
    for a in 0..annotators {
        for b in a + 1..annotators {
            let (x, y): (Vec<&str>, Vec<&str>) = base
                .iter()
                .filter_map(|key| Some((answers.of(a, key)?, answers.of(b, key)?)))
                .unzip();
            let (agreement, kappa) = cohen_kappa(&x, &y);
            cohen.push(PairKappa {
                first: a + 1,
                second: b + 1,
                units: x.len(),
                agreement,
                kappa,
            });
        }
    }
    let complete: Vec<Vec<&str>> = base
        .iter()
        .filter_map(|key| {
            answers
                .all_of(key)
                .into_iter()
                .collect::<Option<Vec<&str>>>()
        })
        .collect();
    let raw = (!complete.is_empty()).then(|| {
        complete
            .iter()
            .filter(|unit| unit.iter().all(|answer| *answer == unit[0]))
            .count() as f64
            / complete.len() as f64
    });
    let agreement = Agreement {
        raw,
        cohen,
        fleiss: fleiss_kappa(&complete),
    };
    (agreement, complete.len())
}

/// The units the annotators answered differently.
fn disagreements(base: &[(String, String)], answers: &Answers) -> Vec<Disagreement> {
    base.iter()
        .filter_map(|key| {
            let given = answers.all_of(key);
            let distinct: BTreeSet<&str> = given.iter().flatten().copied().collect();
            (distinct.len() > 1).then(|| Disagreement {
                item: key.0.clone(),
                slot: key.1.clone(),
                answers: given
                    .iter()
                    .map(|answer| answer.unwrap_or("").to_string())
                    .collect(),
            })
        })
        .collect()
}

/// The key (which system each translation unit is), read and checked to hold every unit;
/// refused for detection sheets.
fn key_of(
    options: &TallyOptions,
    kind: SheetKind,
    run: &str,
    base: &[(String, String)],
) -> Result<Option<BTreeMap<(String, String), KeyRow>>> {
    match (&options.key, kind) {
        (Some(path), SheetKind::Translation) => {
            let map = read_key(path, run)?;
            if let Some(key) = base.iter().find(|key| !map.contains_key(key)) {
                return Err(Error::Data(format!(
                    "{}: has no row for item {} {} of the sheets: not their key",
                    ldd_io::error::shown(path),
                    ldd_io::error::escape(&key.0),
                    ldd_io::error::escape(&key.1)
                )));
            }
            Ok(Some(map))
        }
        (Some(_), SheetKind::Detection) => Err(Error::Config(
            "tally --key: the key is for translation sheets; detection sheets have none".into(),
        )),
        (None, _) => Ok(None),
    }
}

/// Whether a majority answer judges the unit (counts towards the share correct).
fn judges(kind: SheetKind, majority: Option<&str>) -> bool {
    match kind {
        SheetKind::Detection => matches!(majority, Some("yes" | "no")),
        SheetKind::Translation => matches!(majority, Some("yes" | "partly" | "no")),
    }
}

/// The group of (phenomenon, distance, system) in `groups`, added empty when new.
fn group_of<'g>(
    groups: &'g mut Vec<TallyGroup>,
    unit: &Answered,
    system: Option<String>,
) -> &'g mut TallyGroup {
    let found = groups.iter().position(|group| {
        group.phenomenon == unit.phenomenon
            && group.distance == unit.distance
            && group.system == system
    });
    let position = found.unwrap_or_else(|| {
        groups.push(TallyGroup {
            phenomenon: unit.phenomenon.clone(),
            distance: unit.distance,
            system,
            units: 0,
            answers: BTreeMap::new(),
            judged: 0,
            correct: 0,
            share: None,
            ci_low: None,
            ci_high: None,
        });
        groups.len() - 1
    });
    &mut groups[position]
}

/// The majorities set beside locus accuracy's automatic judgements: the 2×2 table
/// (automatic correct/incorrect × majority correct/incorrect) and the units they differ on.
#[derive(Default)]
struct AutomaticCount {
    table: [[u64; 2]; 2],
    disagreements: Vec<AutoDisagreement>,
}

impl AutomaticCount {
    /// Counts one judged unit against the key's automatic judgement (when it gives one).
    fn add(&mut self, unit: &Answered, key_row: &KeyRow, majority: Option<&str>) {
        let automatic = key_row.automatic.as_str();
        if automatic != "correct" && automatic != "incorrect" {
            return;
        }
        let row = usize::from(automatic != "correct");
        let column = usize::from(majority != Some("yes"));
        self.table[row][column] += 1;
        if row != column {
            self.disagreements.push(AutoDisagreement {
                item: unit.item.clone(),
                slot: unit.slot.clone(),
                system: key_row.system.clone(),
                phenomenon: unit.phenomenon.clone(),
                distance: unit.distance,
                automatic: automatic.to_string(),
                majority: majority.unwrap_or_default().to_string(),
                source: unit.texts[0].clone(),
                reference: unit.texts[1].clone(),
                output: unit.texts[2].clone(),
            });
        }
    }

    /// The agreement of the automatic judgements with the majorities.
    fn agreement(self) -> AutoAgreement {
        let table = self.table;
        let units = table[0][0] + table[0][1] + table[1][0] + table[1][1];
        let mut automatic = Vec::new();
        let mut people = Vec::new();
        for (row, counts) in table.iter().enumerate() {
            for (column, &count) in counts.iter().enumerate() {
                for _ in 0..count {
                    automatic.push(if row == 0 { "correct" } else { "incorrect" });
                    people.push(if column == 0 { "correct" } else { "incorrect" });
                }
            }
        }
        let (accuracy, kappa) = cohen_kappa(&automatic, &people);
        AutoAgreement {
            units,
            table,
            accuracy,
            kappa,
            disagreements: self.disagreements,
        }
    }
}

/// Every unit's majority counted into its (phenomenon, distance, system) group, and, with
/// a key, beside the automatic judgement.
fn count_majorities(
    kind: SheetKind,
    base: &[(String, String)],
    answers: &Answers,
    key: Option<&BTreeMap<(String, String), KeyRow>>,
) -> (Vec<TallyGroup>, AutomaticCount) {
    let mut groups: Vec<TallyGroup> = Vec::new();
    let mut automatic = AutomaticCount::default();
    for (position, unit_key) in base.iter().enumerate() {
        let unit = &answers.sheets[0][position];
        let found = majority(&answers.all_of(unit_key));
        let system = key.map(|key| key[unit_key].system.clone());
        let group = group_of(&mut groups, unit, system);
        group.units += 1;
        let label = found.clone().unwrap_or_else(|| "no majority".into());
        *group.answers.entry(label).or_default() += 1;
        if !judges(kind, found.as_deref()) {
            continue;
        }
        group.judged += 1;
        group.correct += u64::from(found.as_deref() == Some("yes"));
        if let Some(key) = key {
            automatic.add(unit, &key[unit_key], found.as_deref());
        }
    }
    (groups, automatic)
}

/// Groups in the order of the sheets' phenomena, then distance, then system name (the
/// systems in the same order in every cell), each with its share correct and interval.
fn finish_groups(groups: &mut [TallyGroup], confidence: f64) {
    let mut seen: Vec<String> = Vec::new();
    for group in groups.iter() {
        if !seen.contains(&group.phenomenon) {
            seen.push(group.phenomenon.clone());
        }
    }
    let at = |phenomenon: &str| seen.iter().position(|x| x == phenomenon);
    groups.sort_by(|a, b| {
        (at(&a.phenomenon), a.distance, &a.system).cmp(&(at(&b.phenomenon), b.distance, &b.system))
    });
    for group in groups.iter_mut() {
        if group.judged > 0 {
            group.share = Some(100.0 * group.correct as f64 / group.judged as f64);
        }
        if let Some((low, high)) = wilson(group.correct, group.judged, confidence) {
            (group.ci_low, group.ci_high) = (Some(100.0 * low), Some(100.0 * high));
        }
    }
}

/// Counts the sheets: read → check the units → agreement → key → majorities per group.
pub fn tally_sheets(options: &TallyOptions) -> Result<TallyReport> {
    let (kind, run, all) = read_sheets(options)?;
    check_same_units(options, &all)?;
    check_answered(options, &all)?;
    let base = unit_keys(&all[0]);
    let answers = Answers::new(&all);
    let (agreement, answered_by_all) = agreement(&base, &answers);
    let disagreements = disagreements(&base, &answers);
    let key = key_of(options, kind, &run, &base)?;
    let (mut groups, automatic) = count_majorities(kind, &base, &answers, key.as_ref());
    finish_groups(&mut groups, options.confidence);
    Ok(TallyReport {
        kind: kind.to_string(),
        annotators: options
            .sheets
            .iter()
            .map(|p| p.display().to_string())
            .collect(),
        units: base.len(),
        answered_by_all,
        agreement,
        groups,
        disagreements,
        automatic: key.map(|_| automatic.agreement()),
        confidence: options.confidence,
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

    fn unit(item: &str, phenomenon: &str, distance: u32, answer: Option<&str>) -> Answered {
        Answered {
            texts: ["source".into(), "reference".into(), "output".into()],
            item: item.into(),
            slot: "A".into(),
            phenomenon: phenomenon.into(),
            distance,
            answer: answer.map(str::to_string),
            run: "run".into(),
            line: 2,
        }
    }

    /// Three annotators, three units: a unanimous one, a 2–1 one and one left blank by
    /// the third annotator; only the full ones count as answered by all, and the 2–1 unit
    /// and the blank one (two answers differ) are disagreements.
    #[test]
    fn agreement_and_disagreements_by_unit() {
        let sheets = vec![
            vec![
                unit("1", "p", 1, Some("yes")),
                unit("2", "p", 1, Some("yes")),
                unit("3", "p", 1, Some("no")),
            ],
            vec![
                unit("1", "p", 1, Some("yes")),
                unit("2", "p", 1, Some("no")),
                unit("3", "p", 1, Some("yes")),
            ],
            // The third annotator's sheet in another order.
            vec![
                unit("3", "p", 1, None),
                unit("2", "p", 1, Some("no")),
                unit("1", "p", 1, Some("yes")),
            ],
        ];
        let base = unit_keys(&sheets[0]);
        let answers = Answers::new(&sheets);
        assert_eq!(
            answers.all_of(&base[1]),
            vec![Some("yes"), Some("no"), Some("no")]
        );
        let (agreement, answered_by_all) = agreement(&base, &answers);
        assert_eq!(answered_by_all, 2);
        assert_eq!(agreement.raw, Some(0.5));
        assert_eq!(agreement.cohen.len(), 3);
        assert_eq!(
            agreement.cohen[1].units, 2,
            "annotators 1 and 3 both answered 2 units"
        );
        let items: Vec<String> = disagreements(&base, &answers)
            .into_iter()
            .map(|d| d.item)
            .collect();
        assert_eq!(items, ["2", "3"]);
    }

    /// Groups come in the sheets' order of phenomena (not alphabetical), then distance;
    /// the share is correct / judged, and a group without a judged unit has none.
    #[test]
    fn groups_counted_and_ordered() {
        let sheets = vec![vec![
            unit("1", "zeta", 2, Some("yes")),
            unit("2", "alpha", 1, Some("no")),
            unit("3", "zeta", 1, Some("unsure")),
            unit("4", "zeta", 2, Some("no")),
        ]];
        let base = unit_keys(&sheets[0]);
        let answers = Answers::new(&sheets);
        let (mut groups, automatic) = count_majorities(SheetKind::Detection, &base, &answers, None);
        finish_groups(&mut groups, 0.95);
        let cells: Vec<(&str, u32, u64, u64, u64)> = groups
            .iter()
            .map(|g| {
                (
                    g.phenomenon.as_str(),
                    g.distance,
                    g.units,
                    g.judged,
                    g.correct,
                )
            })
            .collect();
        assert_eq!(
            cells,
            [
                ("zeta", 1, 1, 0, 0),
                ("zeta", 2, 2, 2, 1),
                ("alpha", 1, 1, 1, 0)
            ]
        );
        assert_eq!(groups[0].share, None);
        assert_eq!(groups[1].share, Some(50.0));
        assert_eq!(automatic.table, [[0; 2]; 2]);
        assert!(judges(SheetKind::Translation, Some("partly")));
        assert!(!judges(SheetKind::Detection, Some("partly")));
    }

    /// The automatic judgements against the majorities: rows automatic, columns people;
    /// `unaligned` is not counted, a difference is listed.
    #[test]
    fn automatic_table_by_hand() {
        let key_row = |automatic: &str| KeyRow {
            item: "1".into(),
            slot: "A".into(),
            system: "S".into(),
            automatic: automatic.into(),
            run: "run".into(),
        };
        let unit = unit("1", "p", 1, Some("yes"));
        let mut count = AutomaticCount::default();
        count.add(&unit, &key_row("correct"), Some("yes"));
        count.add(&unit, &key_row("correct"), Some("no"));
        count.add(&unit, &key_row("incorrect"), Some("no"));
        count.add(&unit, &key_row("unaligned"), Some("yes"));
        let agreement = count.agreement();
        assert_eq!(agreement.table, [[1, 1], [0, 1]]);
        assert_eq!(agreement.units, 3);
        assert_eq!(agreement.disagreements.len(), 1);
        assert_eq!(agreement.disagreements[0].majority, "no");
        assert!((agreement.accuracy.unwrap() - 2.0 / 3.0).abs() < 1e-12);
    }
}
