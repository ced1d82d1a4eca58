//! A new `score` beside an earlier one in the same directory: nothing is replaced
//! silently. What the earlier `scores.json` holds and this run does not compute — systems
//! it does not score, metrics it does not ask for — is kept, merged by system and metric,
//! as sacreBLEU compares systems against one baseline, when the two runs are comparable;
//! otherwise `score` refuses and says what to type (`--replace` discards the earlier
//! scores).
//!
//! Comparable: the same baseline (the first system, by name and SHA-256 of its output),
//! the same resampling and confidence level, the same sets and settings (the signature of
//! every metric of both runs equal: it names the manifest's SHA-256), and a system of both
//! runs of the same output file when its earlier metrics are kept. Every number of a
//! system and metric — scores, intervals, tests against the baseline and against its
//! controls, trends, locus judgements — depends only on that system, the baseline and
//! those settings, so the merged file is the one a single run of all the systems and
//! metrics writes (tested). This run's numbers win where both have them; the earlier
//! systems keep their order, new ones follow; metrics take the order a single run gives
//! them. A system never scored with a metric the others have has no numbers for it (`-`
//! in the table): score it with that metric to add them.

use std::collections::BTreeMap;
use std::path::Path;

use super::{LociFile, Metric, Row, Scores, System, Trend};
use crate::error::{Error, Result};
use crate::format::judged;

/// Largest earlier `scores.json` or `scores.loci.tsv` read.
const MAX_BYTES: u64 = 1 << 30;

/// What becomes of an earlier `scores.json`.
#[derive(Debug, PartialEq, Eq)]
pub enum Earlier {
    /// There is none, or this run computes everything it holds: replaced, nothing lost.
    Superseded,
    /// Merged: these systems and these metrics of it, which this run does not compute,
    /// are kept.
    Merged {
        /// Systems kept.
        systems: Vec<String>,
        /// Metrics kept (their keys).
        metrics: Vec<String>,
    },
    /// Replaced, as `--replace` asked: these systems' scores are gone.
    Replaced(Vec<String>),
}

/// The scores to write into `dir`: `new` (and its locus judgements `new_loci`), merged
/// with the scores of `dir/scores.json` when there are earlier ones ([`Earlier`]);
/// `replace` discards them. Incomparable earlier scores are an error (exit 4) saying how
/// to score all the systems together, or to replace or write elsewhere.
pub fn with_earlier(
    dir: &Path,
    new: Scores,
    new_loci: Option<String>,
    replace: bool,
) -> Result<(Scores, Option<String>, Earlier)> {
    let path = dir.join(crate::layout::SCORES_JSON);
    let Some(old) = read_earlier(&path)? else {
        return Ok((new, new_loci, Earlier::Superseded));
    };
    let kept_systems: Vec<String> = names(&old)
        .into_iter()
        .filter(|n| !names(&new).contains(n))
        .collect();
    let kept_metrics: Vec<String> = keys(&old)
        .into_iter()
        .filter(|k| !keys(&new).contains(k))
        .collect();
    if kept_systems.is_empty() && kept_metrics.is_empty() {
        return Ok((new, new_loci, Earlier::Superseded));
    }
    if replace {
        return Ok((new, new_loci, Earlier::Replaced(names(&old))));
    }
    if let Some(why) = incomparable(&old, &new) {
        return Err(incomparable_error(&path, &old, &why));
    }
    let old_loci = earlier_loci(dir, &path, &old, &new)?;
    let (scores, loci) = merge(&old, new, old_loci.as_deref(), new_loci.as_deref())?;
    Ok((
        scores,
        loci,
        Earlier::Merged {
            systems: kept_systems,
            metrics: kept_metrics,
        },
    ))
}

/// The earlier scores at `path`, with their systems' names checked; `None` when there is
/// no file, or it is not scores (left to the writer, which refuses to replace it).
fn read_earlier(path: &Path) -> Result<Option<Scores>> {
    if !path.is_file() {
        return Ok(None);
    }
    let Ok(old) = ldd_io::read_text(path, MAX_BYTES)
        .map_err(Error::from)
        .and_then(|t| serde_json::from_str::<Scores>(&t).map_err(|e| Error::Data(e.to_string())))
    else {
        return Ok(None);
    };
    // Its systems' names go into the merged files: the one check of names.
    for sys in &old.systems {
        super::check_name(&sys.name).map_err(|e| {
            Error::Data(format!(
                "{}: {e}; score again with --replace",
                ldd_io::error::shown(path)
            ))
        })?;
    }
    Ok(Some(old))
}

/// The refusal of earlier scores that cannot be merged (`why`), saying what to type.
fn incomparable_error(path: &Path, old: &Scores, why: &str) -> Error {
    Error::Config(format!(
        "{}: holds earlier scores (systems {}; metrics {}) that this run would replace, \
         and they cannot be merged with this run's: {why}. Score every system in one run \
         (the first --hyp is the baseline of the paired tests: --hyp {}), or pass \
         --replace to replace them, or --out DIR to write elsewhere",
        ldd_io::error::shown(path),
        names(old).join(", "),
        keys(old).join(", "),
        baseline_advice(old),
    ))
}

/// The earlier baseline as `--hyp` takes it back, then ` ...`: `NAME=FILE`, one shell
/// word that reads back as the same system and file ([`ldd_io::shell::system`]); its
/// output read from standard input (`-`) is said to be read there again.
fn baseline_advice(old: &Scores) -> String {
    let Some(base) = old.systems.first() else {
        return "BASELINE ...".into();
    };
    match base.path.as_deref() {
        None => format!("{}=FILE ...", ldd_io::shell::word(&base.name)),
        Some(file) if file.as_os_str() == "-" => format!(
            "{} ..., its output on standard input",
            ldd_io::shell::system(Some(&base.name), file)
        ),
        Some(file) => format!("{} ...", ldd_io::shell::system(Some(&base.name), file)),
    }
}

/// The earlier locus judgements, when a kept cell needs them: the file the earlier
/// `scores.json` (at `path`) names, inside `dir` and unchanged since (its SHA-256).
fn earlier_loci(dir: &Path, path: &Path, old: &Scores, new: &Scores) -> Result<Option<String>> {
    let needed = names(old)
        .iter()
        .any(|n| cell_from_old(old, new, n, super::locus::KEY));
    let (Some(f), true) = (&old.loci, needed) else {
        return Ok(None);
    };
    let p = ldd_io::confined(dir, &f.file).map_err(|_| {
        Error::Data(format!(
            "{}: names the locus file {}, outside its directory",
            ldd_io::error::shown(path),
            ldd_io::error::quote(&f.file, 60)
        ))
    })?;
    let text = ldd_io::read_text(&p, MAX_BYTES)?;
    if ldd_io::sha256_bytes(text.as_bytes()) != f.sha256 {
        return Err(Error::Data(format!(
            "{}: changed since {} was written; its judgements cannot be kept (pass \
             --replace, or score every system again)",
            ldd_io::error::shown(&p),
            ldd_io::error::shown(path)
        )));
    }
    Ok(Some(text))
}

fn names(scores: &Scores) -> Vec<String> {
    scores.systems.iter().map(|x| x.name.clone()).collect()
}

fn keys(scores: &Scores) -> Vec<String> {
    scores.metrics.iter().map(|m| m.key.clone()).collect()
}

/// Whether the numbers of `system` on `metric` come from the earlier scores: this run
/// does not compute them.
fn cell_from_old(old: &Scores, new: &Scores, system: &str, metric: &str) -> bool {
    let computed = names(new).iter().any(|n| n == system) && keys(new).iter().any(|k| k == metric);
    !computed && keys(old).iter().any(|k| k == metric)
}

/// How `scores` tested sets against their controls: as recorded, else (scores written
/// before the record) a bootstrap of the set's own lines when a row has such a test;
/// `None` when no row has one.
fn controls_test(scores: &Scores) -> Option<&str> {
    match &scores.significance.controls_test {
        Some(t) => Some(t.as_str()),
        None => scores
            .rows
            .iter()
            .any(|r| r.control_p_value.is_some())
            .then_some("a bootstrap of the set's own lines"),
    }
}

/// Why `old` and `new` cannot be merged, or `None` when they can.
fn incomparable(old: &Scores, new: &Scores) -> Option<String> {
    match (old.systems.first(), new.systems.first()) {
        (Some(a), Some(b)) if a.name == b.name && a.sha256 == b.sha256 => {}
        (Some(a), _) => {
            return Some(format!(
                "their baseline, the system every other is tested against, is {}, and this \
                 run's first --hyp is not that file",
                a.name
            ))
        }
        _ => return Some("they have no baseline".into()),
    }
    // A run of the baseline alone has no paired test: only its resampling must agree.
    let sig = |s: &Scores, test: bool| {
        let g = &s.significance;
        let t = test.then(|| (g.method.clone(), g.resamples));
        (t, g.seed, g.confidence.map(f64::to_bits), g.bootstrap)
    };
    let test = new.significance.method.is_some() && old.significance.method.is_some();
    if sig(old, test) != sig(new, test) {
        return Some(
            "they were resampled or tested otherwise (seed, resamples, test or confidence level)"
                .into(),
        );
    }
    if let (Some(o), Some(n)) = (controls_test(old), controls_test(new)) {
        if o != n {
            return Some(format!(
                "their sets were tested against their controls otherwise ({o}; this run: {n})"
            ));
        }
    }
    let manifest = |s: &Scores| -> Vec<String> {
        s.signatures
            .values()
            .filter_map(|v| {
                v.split('|')
                    .find(|f| f.starts_with("manifest:"))
                    .map(str::to_string)
            })
            .collect()
    };
    let (om, nm) = (manifest(old), manifest(new));
    if om.iter().chain(&nm).any(|m| Some(m) != nm.first()) || old.reference != new.reference {
        return Some("they are of other sets or another reference".into());
    }
    for (k, v) in &new.signatures {
        if old.signatures.get(k).is_some_and(|o| o != v) {
            return Some(format!(
                "their {k} was computed with other settings (the signatures differ)"
            ));
        }
    }
    for s in &new.systems {
        if let Some(o) = old.systems.iter().find(|o| o.name == s.name) {
            let kept = keys(old).iter().any(|k| !keys(new).contains(k));
            if kept && o.sha256 != s.sha256 {
                return Some(format!(
                    "their {} is another output file than this run's, and its other metrics \
                     cannot be kept",
                    s.name
                ));
            }
        }
    }
    None
}

/// Where a single run puts metric `key`: the registry's first, in its order, then
/// segment-level metrics, contrastive accuracy and locus accuracy.
fn metric_rank(key: &str) -> usize {
    if let Some(i) = ldd_eval::METRICS.iter().position(|d| d.key == key) {
        i
    } else if key == super::locus::KEY {
        3000
    } else if key == super::contrastive::KEY
        || key.starts_with(&format!("{}-", super::contrastive::KEY))
    {
        2000
    } else {
        1000
    }
}

/// `old` and `new` merged by system and metric (see the module's documentation), with
/// their locus judgements.
fn merge(
    old: &Scores,
    new: Scores,
    old_loci: Option<&str>,
    new_loci: Option<&str>,
) -> Result<(Scores, Option<String>)> {
    let systems = merged_systems(old, &new);
    let metrics = merged_metrics(old, &new);
    let (rows, trends) = merged_cells(old, &new, &systems, &metrics);
    let names: Vec<&str> = systems.iter().map(|s| s.name.as_str()).collect();
    let from_new = |s: &str| !cell_from_old(old, &new, s, super::locus::KEY);
    let loci_text = match (old_loci, new_loci) {
        (Some(o), Some(n)) => Some(merge_loci(o, n, &names, &from_new)?),
        (Some(o), None) => Some(o.to_string()),
        (None, n) => n.map(str::to_string),
    };
    let file = new
        .loci
        .as_ref()
        .or(old.loci.as_ref())
        .map(|f| f.file.clone());
    let loci = match (file, &loci_text) {
        (Some(file), Some(text)) => Some(LociFile {
            file,
            sha256: ldd_io::sha256_bytes(text.as_bytes()),
            rows: text.lines().count().saturating_sub(1) as u64,
        }),
        _ => None,
    };
    let signatures = metrics
        .iter()
        .map(|m| (m.key.clone(), m.signature.clone()))
        .collect();
    let mut significance = match new.significance.method {
        Some(_) => new.significance.clone(),
        None => old.significance.clone(),
    };
    // The one test of both (they agree where both have one).
    significance.controls_test = new
        .significance
        .controls_test
        .clone()
        .or_else(|| old.significance.controls_test.clone());
    let commands = old.commands.iter().chain(&new.commands).cloned().collect();
    Ok((
        Scores {
            systems,
            metrics,
            signatures,
            significance,
            rows,
            trends,
            loci,
            commands,
            ..new
        },
        loci_text,
    ))
}

/// The earlier run's systems in their order (this run's record where it scored one
/// again), then this run's new ones.
fn merged_systems(old: &Scores, new: &Scores) -> Vec<System> {
    let mut systems = Vec::new();
    for s in &old.systems {
        let again = new.systems.iter().find(|n| n.name == s.name);
        systems.push(again.unwrap_or(s).clone());
    }
    for s in &new.systems {
        if !systems.iter().any(|x| x.name == s.name) {
            systems.push(s.clone());
        }
    }
    systems
}

/// Both runs' metrics (this run's record where both have one), in a single run's order.
fn merged_metrics(old: &Scores, new: &Scores) -> Vec<Metric> {
    let mut metrics: Vec<Metric> = old.metrics.clone();
    for m in &new.metrics {
        match metrics.iter_mut().find(|x| x.key == m.key) {
            Some(x) => *x = m.clone(),
            None => metrics.push(m.clone()),
        }
    }
    // A stable sort: segment-level metrics keep the earlier run's order, then this one's.
    metrics.sort_by_key(|m| metric_rank(&m.key));
    metrics
}

/// The rows and trends of every system and metric, each cell from the run it comes from.
fn merged_cells(
    old: &Scores,
    new: &Scores,
    systems: &[System],
    metrics: &[Metric],
) -> (Vec<Row>, Vec<Trend>) {
    let mut rows = Vec::new();
    let mut trends = Vec::new();
    for s in systems {
        for m in metrics {
            let src = if cell_from_old(old, new, &s.name, &m.key) {
                old
            } else {
                new
            };
            let cell = |system: &str, metric: &str| system == s.name && metric == m.key;
            rows.extend(
                src.rows
                    .iter()
                    .filter(|r| cell(&r.system, &r.metric))
                    .cloned(),
            );
            trends.extend(
                src.trends
                    .iter()
                    .filter(|t| cell(&t.system, &t.metric))
                    .cloned(),
            );
        }
    }
    (rows, trends)
}

/// The rows of two `scores.loci.tsv` texts merged: per locus (in the files' common order),
/// one row per system of `systems`, from the new text when `from_new` says so.
fn merge_loci(
    old: &str,
    new: &str,
    systems: &[&str],
    from_new: &dyn Fn(&str) -> bool,
) -> Result<String> {
    /// Rows by locus (the columns before `system`), in order, each locus's rows by system.
    type Loci<'a> = Vec<(String, BTreeMap<&'a str, &'a str>)>;
    fn read(text: &str) -> Result<Loci<'_>> {
        let mut out: Loci = Vec::new();
        for line in text.lines().skip(1) {
            let cells: Vec<&str> = line.splitn(10, '\t').collect();
            if cells.len() < 10 {
                return Err(Error::Data(format!(
                    "{}: a row without a system",
                    crate::layout::SCORES_LOCI
                )));
            }
            let key = cells[..8].join("\t");
            if out.last().is_none_or(|(k, _)| *k != key) {
                out.push((key, BTreeMap::new()));
            }
            if let Some((_, rows)) = out.last_mut() {
                rows.insert(cells[8], line);
            }
        }
        Ok(out)
    }
    let (o, n) = (read(old)?, read(new)?);
    if o.len() != n.len() || o.iter().zip(&n).any(|(a, b)| a.0 != b.0) {
        return Err(Error::Data(format!(
            "{}: the earlier judgements are of other loci than this run's; pass --replace",
            crate::layout::SCORES_LOCI
        )));
    }
    let mut out = String::from(judged::HEADER);
    out.push('\n');
    for ((_, a), (_, b)) in o.iter().zip(&n) {
        for s in systems {
            let src = if from_new(s) { b } else { a };
            if let Some(row) = src.get(s) {
                out.push_str(row);
                out.push('\n');
            }
        }
    }
    Ok(out)
}
