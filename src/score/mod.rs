//! Stage 7, **score**: systems' translations of the whole corpus scored on every set,
//! its controls and the corpus.
//!
//! What enters: a sets directory (its manifest, set and control ids) and hypothesis files.
//! What leaves: a [`ScoreReport`] — per system, metric and set: the score, the controls'
//! mean, sd and the set's rank among them, and per phenomenon the trend over distance —
//! rendered as `scores.json`, `scores.csv` and a table ([`render`]); per-set hypothesis
//! files ([`slice`]); set agreement between two runs ([`compare`]).
//!
//! Per-line sufficient statistics (BLEU and chrF with sacreBLEU defaults; RIBES only when
//! the manifest has a set of kind `reorder`) are computed once per corpus line
//! ([`stats`]), streaming the hypothesis and the reference (the corpus target side) in
//! lockstep, then the whole corpus, every set and every control is scored by summing its
//! lines' statistics. See `docs/evaluation.md`.

pub mod compare;
pub mod render;
pub mod slice;
pub mod stats;

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use ldd_eval::SufficientStats;
use ldd_io::Input;
use serde::Serialize;

use crate::error::{Error, Result};
use crate::read::select::read_ids;
use crate::sample::{ControlStatus, SetControls};
use crate::write::manifest::{resolve, Manifest, MANIFEST};
use crate::write::set::{SetEntry, SetKind};
use stats::{line_stats, LineStats};

/// What `score` scores.
#[derive(Debug, Clone)]
pub struct ScoreOptions {
    /// Output directory of `ldd-sets extract`.
    pub sets: PathBuf,
    /// Systems' translations of the whole corpus.
    pub hyps: Vec<PathBuf>,
    /// Reference [default: the target file recorded in the manifest]; must be the file
    /// extract read (same SHA-256).
    pub reference: Option<PathBuf>,
}

/// A set with its ids and its controls' ids.
#[derive(Debug)]
pub struct Unit {
    /// The set.
    pub set: SetEntry,
    /// Its ids.
    pub ids: Vec<u32>,
    /// Control status (`None`: the manifest has no controls for the set).
    pub status: Option<ControlStatus>,
    /// Control prefix.
    pub prefix: String,
    /// Each control's ids.
    pub controls: Vec<Vec<u32>>,
}

/// A sets directory, loaded: the manifest and every set's and control's ids.
#[derive(Debug)]
pub struct Loaded {
    /// The directory.
    pub dir: PathBuf,
    /// Its manifest file.
    pub manifest_path: PathBuf,
    /// The manifest.
    pub m: Manifest,
    /// Every set, in manifest order.
    pub units: Vec<Unit>,
}

/// Loads a sets directory; every file name in the manifest must stay inside it.
pub fn load(dir: &Path) -> Result<Loaded> {
    let manifest_path = dir.join(MANIFEST);
    let mut m = Manifest::read(dir)?;
    let mut controls: HashMap<(String, String), SetControls> = m
        .controls
        .drain(..)
        .map(|c| ((c.phenomenon.clone(), c.bucket.clone()), c))
        .collect();
    let mut units = Vec::with_capacity(m.sets.len());
    for set in std::mem::take(&mut m.sets) {
        let ids_path = resolve(dir, &set.files.ids)?;
        let ids = read_ids(&ids_path)?;
        check_ids(&ids_path, &ids, m.corpus.lines)?;
        if ids.len() as u64 != set.sentences {
            return Err(Error::Data(format!(
                "{}: has {} ids but {} records {} sentences",
                ldd_io::text::shown(&ids_path),
                ids.len(),
                ldd_io::text::shown(&manifest_path),
                set.sentences
            )));
        }
        let c = controls.remove(&(set.phenomenon.clone(), set.bucket.clone()));
        let mut ctl_ids = Vec::new();
        let (status, prefix) = match c {
            Some(c) => {
                if c.status == ControlStatus::Written {
                    for k in 1..=c.count {
                        let p = resolve(dir, &format!("{}.{k}.ids", c.prefix))?;
                        let ids = read_ids(&p)?;
                        check_ids(&p, &ids, m.corpus.lines)?;
                        ctl_ids.push(ids);
                    }
                }
                (Some(c.status), c.prefix)
            }
            None => (None, String::new()),
        };
        units.push(Unit {
            set,
            ids,
            status,
            prefix,
            controls: ctl_ids,
        });
    }
    Ok(Loaded {
        dir: dir.to_path_buf(),
        manifest_path,
        m,
        units,
    })
}

fn check_ids(path: &Path, ids: &[u32], lines: u64) -> Result<()> {
    if let Some(&last) = ids.last() {
        if u64::from(last) > lines {
            return Err(Error::Data(format!(
                "{}: line id {last} exceeds the corpus's {lines} lines",
                ldd_io::text::shown(path)
            )));
        }
    }
    Ok(())
}

/// The system name of a hypothesis file: its file name without `.gz` and without its last
/// extension.
pub fn system_name(hyp: &Path) -> String {
    let name = hyp
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name = name.strip_suffix(".gz").unwrap_or(&name);
    match name.rsplit_once('.') {
        Some((stem, _)) if !stem.is_empty() => stem.to_string(),
        _ => name.to_string(),
    }
}

/// Checks a system name for use in file names (`--name`, or derived from the file name).
pub fn check_name(name: &str) -> Result<()> {
    ldd_io::name::check(
        ldd_io::NameKind::File,
        name,
        "system name (set it with --name)",
    )?;
    Ok(())
}

/// The error for a hypothesis whose line count is not the corpus's.
pub fn count_error(hyp: &Path, hyp_lines: u64, l: &Loaded) -> Error {
    Error::Data(format!(
        "{}: has {hyp_lines} lines but the corpus has {} lines ({}); the hypothesis \
         must translate the whole corpus, one line per line",
        ldd_io::text::shown(hyp),
        l.m.corpus.lines,
        ldd_io::text::shown(&l.manifest_path)
    ))
}

/// A metric.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Metric {
    /// sacreBLEU BLEU.
    Bleu,
    /// sacreBLEU chrF.
    Chrf,
    /// RIBES (reorder sets only), reported ×100.
    Ribes,
}

impl Metric {
    /// Name in tables.
    pub fn label(self) -> &'static str {
        match self {
            Metric::Bleu => "BLEU",
            Metric::Chrf => "chrF",
            Metric::Ribes => "RIBES",
        }
    }
    /// Name in CSV and JSON.
    pub fn key(self) -> &'static str {
        match self {
            Metric::Bleu => "bleu",
            Metric::Chrf => "chrf",
            Metric::Ribes => "ribes",
        }
    }
}

/// One score row: a system × metric × (corpus or set).
#[derive(Debug, Clone, Serialize)]
pub struct Row {
    /// System name.
    pub system: String,
    /// Metric.
    pub metric: Metric,
    /// `corpus` (the whole corpus, baseline) or `set`.
    pub scope: &'static str,
    /// Set kind (`lexical`, `reorder`); empty for the corpus.
    pub kind: String,
    /// Phenomenon (empty for the corpus).
    pub phenomenon: String,
    /// Bucket (`corpus` for the corpus).
    pub bucket: String,
    /// Minimum distance of the bucket.
    pub min_distance: Option<u32>,
    /// Whether the bucket is `eq` (exactly).
    pub exact: Option<bool>,
    /// Sentences scored.
    pub sentences: u64,
    /// Score (`None` for an empty set).
    pub score: Option<f64>,
    /// Controls scored.
    pub controls: usize,
    /// Control status from the manifest (`written`, `empty_set`, `pool_too_small`, or
    /// `none`).
    pub control_status: String,
    /// Mean control score.
    pub control_mean: Option<f64>,
    /// Sample SD of control scores.
    pub control_sd: Option<f64>,
    /// Number of controls scoring strictly higher than the set.
    pub rank: Option<usize>,
    /// Number of controls scoring exactly the set's score.
    pub ties: Option<usize>,
    /// Every control's score, in control order (JSON only).
    pub control_scores: Vec<f64>,
}

/// Distance trend of one phenomenon: correlation between minimum distance and score
/// over its non-empty `ge` sets.
#[derive(Debug, Clone, Serialize)]
pub struct Trend {
    /// System name.
    pub system: String,
    /// Metric.
    pub metric: Metric,
    /// Phenomenon.
    pub phenomenon: String,
    /// `(min distance, score)` points used.
    pub points: Vec<(u32, f64)>,
    /// Spearman's rho (`None` for fewer than 2 points or constant scores).
    pub spearman: Option<f64>,
    /// Pearson's r (what the paper's Table 5 actually reports).
    pub pearson: Option<f64>,
}

/// A system scored.
#[derive(Debug, Clone, Serialize)]
pub struct SystemInfo {
    /// Name (column header).
    pub name: String,
    /// Hypothesis file.
    pub path: PathBuf,
}

/// The whole result of `score` (also `scores.json`).
#[derive(Debug, Clone, Serialize)]
pub struct ScoreReport {
    /// The sets directory.
    pub sets: PathBuf,
    /// The reference file.
    pub reference: PathBuf,
    /// Corpus lines.
    pub corpus_lines: u64,
    /// Systems, in column order.
    pub systems: Vec<SystemInfo>,
    /// Metric settings.
    pub settings: &'static str,
    /// Score rows: per system, metric, the corpus then every set in manifest order.
    pub rows: Vec<Row>,
    /// Distance trends per system, metric and phenomenon.
    pub trends: Vec<Trend>,
}

const SETTINGS: &str = "BLEU: sacreBLEU 2.x defaults (13a, exp smoothing, order 4, mixed case); \
chrF: sacreBLEU defaults (char order 6, beta 2, no word n-grams); RIBES: RIBES.py 1.03 \
(alpha 0.25, beta 0.10, lowercased), reported x100, reorder sets only; one reference: the \
corpus target side";

fn ids_score<T: SufficientStats>(per_line: &[T], ids: &[u32], path: &Path) -> Result<f64> {
    ldd_eval::score_ids(per_line, ids)
        .map_err(|e| Error::Data(format!("{}: {e}", ldd_io::text::shown(path))))
}

/// Scores the loaded sets for one system.
fn score_system(l: &Loaded, system: &str, st: &LineStats, ribes: bool) -> Result<Vec<Row>> {
    let mut rows = Vec::new();
    let mut metrics = vec![Metric::Bleu, Metric::Chrf];
    if ribes {
        metrics.push(Metric::Ribes);
    }
    for &metric in &metrics {
        let score = |ids: &[u32]| -> Result<f64> {
            match metric {
                Metric::Bleu => ids_score(&st.bleu, ids, &l.dir),
                Metric::Chrf => ids_score(&st.chrf, ids, &l.dir),
                Metric::Ribes => Ok(ids_score(&st.ribes, ids, &l.dir)? * 100.0),
            }
        };
        let all = match metric {
            Metric::Bleu => ldd_eval::sum_all(&st.bleu).score(),
            Metric::Chrf => ldd_eval::sum_all(&st.chrf).score(),
            Metric::Ribes => ldd_eval::sum_all(&st.ribes).score() * 100.0,
        };
        rows.push(Row {
            system: system.to_string(),
            metric,
            scope: "corpus",
            kind: String::new(),
            phenomenon: String::new(),
            bucket: "corpus".into(),
            min_distance: None,
            exact: None,
            sentences: l.m.corpus.lines,
            score: Some(all),
            controls: 0,
            control_status: "none".into(),
            control_mean: None,
            control_sd: None,
            rank: None,
            ties: None,
            control_scores: Vec::new(),
        });
        for u in &l.units {
            if metric == Metric::Ribes && u.set.kind != SetKind::Reorder {
                continue;
            }
            let set_score = if u.ids.is_empty() {
                None
            } else {
                Some(score(&u.ids)?)
            };
            let control_scores: Vec<f64> =
                u.controls.iter().map(|c| score(c)).collect::<Result<_>>()?;
            let summary = set_score.map(|s| ldd_eval::stats::summarize(s, &control_scores));
            let has = !control_scores.is_empty();
            rows.push(Row {
                system: system.to_string(),
                metric,
                scope: "set",
                kind: u.set.kind.name().into(),
                phenomenon: u.set.phenomenon.clone(),
                bucket: u.set.bucket.clone(),
                min_distance: Some(u.set.min_distance),
                exact: Some(u.set.exact),
                sentences: u.ids.len() as u64,
                score: set_score,
                controls: control_scores.len(),
                control_status: u.status.map_or("none", ControlStatus::name).into(),
                control_mean: summary.and_then(|s| s.mean),
                control_sd: summary.and_then(|s| s.sd),
                rank: summary.filter(|_| has).map(|s| s.rank),
                ties: summary.filter(|_| has).map(|s| s.ties),
                control_scores,
            });
        }
    }
    Ok(rows)
}

/// Trends over the `ge` sets of each phenomenon.
fn trends(rows: &[Row]) -> Vec<Trend> {
    let mut groups: BTreeMap<(String, Metric, String), Vec<(u32, f64)>> = BTreeMap::new();
    let mut order: Vec<(String, Metric, String)> = Vec::new();
    for r in rows {
        if r.scope != "set" || r.exact != Some(false) {
            continue;
        }
        let key = (r.system.clone(), r.metric, r.phenomenon.clone());
        if !groups.contains_key(&key) {
            order.push(key.clone());
        }
        let pts = groups.entry(key).or_default();
        if let (Some(d), Some(s)) = (r.min_distance, r.score) {
            pts.push((d, s));
        }
    }
    order
        .into_iter()
        .map(|key| {
            let points = groups.remove(&key).unwrap_or_default();
            let x: Vec<f64> = points.iter().map(|p| f64::from(p.0)).collect();
            let y: Vec<f64> = points.iter().map(|p| p.1).collect();
            Trend {
                system: key.0,
                metric: key.1,
                phenomenon: key.2,
                spearman: ldd_eval::stats::spearman(&x, &y),
                pearson: ldd_eval::stats::pearson(&x, &y),
                points,
            }
        })
        .collect()
}

/// Scores every set, its controls and the corpus for each system (no output files).
pub fn score(args: &ScoreOptions) -> Result<ScoreReport> {
    let l = load(&args.sets)?;
    let reference = match &args.reference {
        Some(r) => r.clone(),
        None => l.m.inputs.target.path.clone(),
    };
    // The reference must be the file extract read.
    let info = Input::open(&reference)
        .map_err(|e| match e {
            ldd_io::Error::Io { path, source } if source.kind() == std::io::ErrorKind::NotFound => {
                Error::Io {
                    path,
                    source: std::io::Error::new(
                        source.kind(),
                        format!(
                            "{source} (the reference recorded in {}; pass --ref FILE)",
                            ldd_io::text::shown(&l.manifest_path)
                        ),
                    ),
                }
            }
            e => e.into(),
        })?
        .finish()?;
    if info.sha256 != l.m.inputs.target.sha256 || info.lines != l.m.inputs.target.lines {
        return Err(Error::Data(format!(
            "{}: not the target file extract read ({} lines, sha256 {}; {} records {} lines, sha256 {})",
            ldd_io::text::shown(&reference),
            info.lines,
            info.sha256,
            ldd_io::text::shown(&l.manifest_path),
            l.m.inputs.target.lines,
            l.m.inputs.target.sha256
        )));
    }
    let ribes = l.units.iter().any(|u| u.set.kind == SetKind::Reorder);
    let mut systems: Vec<SystemInfo> = Vec::new();
    let mut rows = Vec::new();
    for hyp in &args.hyps {
        let name = system_name(hyp);
        if systems.iter().any(|s| s.name == name) {
            return Err(Error::Config(format!(
                "{}: two --hyp files have the system name `{}`; rename one",
                ldd_io::text::shown(hyp),
                ldd_io::text::escape(&name)
            )));
        }
        let (st, hn, _) = line_stats(hyp, &reference, ribes)?;
        if hn != l.m.corpus.lines {
            return Err(count_error(hyp, hn, &l));
        }
        rows.extend(score_system(&l, &name, &st, ribes)?);
        systems.push(SystemInfo {
            name,
            path: hyp.clone(),
        });
    }
    let trends = trends(&rows);
    Ok(ScoreReport {
        sets: l.dir.clone(),
        reference,
        corpus_lines: l.m.corpus.lines,
        systems,
        settings: SETTINGS,
        rows,
        trends,
    })
}
