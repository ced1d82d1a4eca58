//! `slice` and `score`: cut a system's translation of the whole corpus by the sets'
//! ids, and score every set and its controls.
//!
//! Both read `SETS/manifest.json` (written by `extract`) and check that the
//! hypothesis has exactly the corpus's line count (else exit code 3, naming the file
//! and both counts).
//!
//! **slice** writes, for a hypothesis `FILE` with name `NAME` (`--name`, default the
//! file name without its last extension, and without `.gz`), the hypothesis lines of
//! every set as `SETS/<phenomenon>/<bucket>.hyp.<NAME>` and of every control as
//! `SETS/<phenomenon>/controls/<bucket>.<k>.hyp.<NAME>`, line-aligned with the set's
//! (control's) `.ids` and reference files. All files are first written into a hidden
//! temporary directory inside `SETS` and moved into place (one `rename` each) only
//! when all are complete; a failure leaves the sets directory as it was. Existing
//! `.hyp.<NAME>` files are replaced; nothing else in `SETS` is touched.
//!
//! **score** computes per-line sufficient statistics (BLEU and chrF with sacreBLEU
//! defaults; RIBES only when the manifest has a set of kind `reorder`) once per corpus
//! line, streaming the hypothesis and the reference (the corpus target side) in
//! lockstep, in parallel chunks, then scores the whole corpus, every set and every
//! control by summing its lines' statistics. See `docs/evaluation.md`.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use clap::Args;
use ldd_eval::{BleuStats, ChrfStats, RibesStats, SufficientStats};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::controls::{read_ids, read_selected, ControlStatus, SetControls};
use crate::corpus::LineReader;
use crate::error::{Error, Result};
use crate::output::MANIFEST;

/// Arguments of `ldd-sets slice`.
#[derive(Debug, Args)]
pub struct SliceArgs {
    /// Output directory of `ldd-sets extract`.
    #[arg(long, value_name = "DIR")]
    pub sets: PathBuf,
    /// A system's translation of the whole corpus, one line per corpus line.
    #[arg(long, value_name = "FILE")]
    pub hyp: PathBuf,
    /// System name used in the file names `<bucket>.hyp.NAME` [default: the --hyp file
    /// name without its last extension (and without .gz)]. Letters, digits, `_ - .`.
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
}

/// Arguments of `ldd-sets score`.
#[derive(Debug, Args)]
pub struct ScoreArgs {
    /// Output directory of `ldd-sets extract`.
    #[arg(long, value_name = "DIR")]
    pub sets: PathBuf,
    /// Systems' translations of the whole corpus (repeat for several systems).
    #[arg(long, value_name = "FILE", required = true)]
    pub hyp: Vec<PathBuf>,
    /// Reference (the corpus target side) [default: the target file recorded in the
    /// manifest]. Must be the file extract read (same SHA-256).
    #[arg(long = "ref", value_name = "FILE")]
    pub reference: Option<PathBuf>,
    /// Directory for scores.csv and scores.json [default: the --sets directory].
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Print nothing but errors.
    #[arg(long, short)]
    pub quiet: bool,
}

// ---------------------------------------------------------------------------------
// Manifest view
// ---------------------------------------------------------------------------------

#[derive(Debug, Deserialize)]
struct FileView {
    path: PathBuf,
    sha256: String,
    lines: u64,
}

#[derive(Debug, Deserialize)]
struct InputsView {
    target: FileView,
}

#[derive(Debug, Deserialize)]
struct CorpusView {
    lines: u64,
}

#[derive(Debug, Deserialize)]
struct FilesView {
    ids: String,
}

#[derive(Debug, Deserialize)]
struct SetView {
    kind: String,
    phenomenon: String,
    bucket: String,
    #[serde(default)]
    min_distance: u32,
    #[serde(default)]
    exact: bool,
    sentences: u64,
    files: FilesView,
}

#[derive(Debug, Deserialize)]
struct ManifestView {
    inputs: InputsView,
    corpus: CorpusView,
    sets: Vec<SetView>,
    #[serde(default)]
    controls: Vec<SetControls>,
}

/// A set with its ids and its controls' ids.
#[derive(Debug)]
struct Unit {
    set: SetView,
    ids: Vec<u32>,
    /// Control status (`None`: the manifest has no controls for the set).
    status: Option<ControlStatus>,
    /// Control prefix and each control's ids.
    prefix: String,
    controls: Vec<Vec<u32>>,
}

/// The sets directory, loaded.
#[derive(Debug)]
struct Loaded {
    dir: PathBuf,
    manifest_path: PathBuf,
    m: ManifestView,
    units: Vec<Unit>,
}

fn load(dir: &Path) -> Result<Loaded> {
    let manifest_path = dir.join(MANIFEST);
    let text = fs::read_to_string(&manifest_path).map_err(|e| Error::io(&manifest_path, e))?;
    let mut m: ManifestView = serde_json::from_str(&text).map_err(|e| {
        Error::input(
            &manifest_path,
            e.line() as u64,
            format!("not an ldd-sets manifest: {e}"),
        )
    })?;
    let mut controls: HashMap<(String, String), SetControls> = m
        .controls
        .drain(..)
        .map(|c| ((c.phenomenon.clone(), c.bucket.clone()), c))
        .collect();
    let mut units = Vec::with_capacity(m.sets.len());
    for set in std::mem::take(&mut m.sets) {
        let ids_path = dir.join(&set.files.ids);
        let ids = read_ids(&ids_path)?;
        check_ids(&ids_path, &ids, m.corpus.lines)?;
        if ids.len() as u64 != set.sentences {
            return Err(Error::Data(format!(
                "{}: has {} ids but {} records {} sentences",
                ids_path.display(),
                ids.len(),
                manifest_path.display(),
                set.sentences
            )));
        }
        let c = controls.remove(&(set.phenomenon.clone(), set.bucket.clone()));
        let mut ctl_ids = Vec::new();
        let (status, prefix) = match c {
            Some(c) => {
                if c.status == ControlStatus::Written {
                    for k in 1..=c.count {
                        let p = dir.join(format!("{}.{k}.ids", c.prefix));
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
                path.display()
            )));
        }
    }
    Ok(())
}

/// The system name of a hypothesis file: its file name without `.gz` and without
/// its last extension.
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

fn check_name(name: &str) -> Result<()> {
    let ok = !name.is_empty()
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
    if ok {
        Ok(())
    } else {
        Err(Error::Config(format!(
            "system name `{name}`: use letters, digits, `_`, `-`, `.` (not first); set it with --name"
        )))
    }
}

fn count_error(hyp: &Path, hyp_lines: u64, l: &Loaded) -> Error {
    Error::Data(format!(
        "{}: has {hyp_lines} lines but the corpus has {} lines ({}); the hypothesis \
         must translate the whole corpus, one line per line",
        hyp.display(),
        l.m.corpus.lines,
        l.manifest_path.display()
    ))
}

// ---------------------------------------------------------------------------------
// slice
// ---------------------------------------------------------------------------------

/// Runs `slice`.
pub fn run_slice(args: &SliceArgs) -> Result<()> {
    let name = match &args.name {
        Some(n) => n.clone(),
        None => system_name(&args.hyp),
    };
    check_name(&name)?;
    let l = load(&args.sets)?;
    let mut union: Vec<u32> = l
        .units
        .iter()
        .flat_map(|u| u.ids.iter().chain(u.controls.iter().flatten()).copied())
        .collect();
    union.sort_unstable();
    union.dedup();
    let (lines, n) = read_selected(&args.hyp, &union)?;
    if n != l.m.corpus.lines {
        return Err(count_error(&args.hyp, n, &l));
    }
    let line = |id: &u32| -> &str {
        // Every id is in `union` and the file has all of them (count checked).
        union
            .binary_search(id)
            .ok()
            .and_then(|i| lines.get(i))
            .map_or("", String::as_str)
    };
    let staging = tempfile::Builder::new()
        .prefix(".slice-")
        .tempdir_in(&l.dir)
        .map_err(|e| Error::io(&l.dir, e))?;
    let mut written: Vec<String> = Vec::new();
    let mut write = |rel: String, ids: &[u32]| -> Result<()> {
        let path = staging.path().join(&rel);
        if let Some(d) = path.parent() {
            fs::create_dir_all(d).map_err(|e| Error::io(d, e))?;
        }
        let mut text = String::new();
        for id in ids {
            text.push_str(line(id));
            text.push('\n');
        }
        fs::write(&path, text).map_err(|e| Error::io(&path, e))?;
        written.push(rel);
        Ok(())
    };
    for u in &l.units {
        let stem = u
            .set
            .files
            .ids
            .strip_suffix(".ids")
            .unwrap_or(&u.set.files.ids)
            .to_string();
        write(format!("{stem}.hyp.{name}"), &u.ids)?;
        for (k, ids) in u.controls.iter().enumerate() {
            write(format!("{}.{}.hyp.{name}", u.prefix, k + 1), ids)?;
        }
    }
    for rel in &written {
        let from = staging.path().join(rel);
        let to = l.dir.join(rel);
        if let Some(d) = to.parent() {
            fs::create_dir_all(d).map_err(|e| Error::io(d, e))?;
        }
        fs::rename(&from, &to).map_err(|e| Error::io(&to, e))?;
    }
    Ok(())
}

// ---------------------------------------------------------------------------------
// score
// ---------------------------------------------------------------------------------

/// Per-line statistics of one system.
#[derive(Debug, Default)]
pub struct LineStats {
    /// BLEU statistics per corpus line.
    pub bleu: Vec<BleuStats>,
    /// chrF statistics per corpus line.
    pub chrf: Vec<ChrfStats>,
    /// RIBES statistics per corpus line (empty unless requested).
    pub ribes: Vec<RibesStats>,
}

/// Lines per parallel chunk when computing statistics.
const STAT_CHUNK: usize = 4096;

/// Computes per-line statistics of `hyp` against `reference`, streaming both in
/// lockstep. Returns the statistics and the number of lines of each file (equal
/// unless they differ in length, in which case statistics are partial).
pub fn line_stats(hyp: &Path, reference: &Path, ribes: bool) -> Result<(LineStats, u64, u64)> {
    let mut h = LineReader::open(hyp)?;
    let mut r = LineReader::open(reference)?;
    let mut out = LineStats::default();
    let mut pairs: Vec<(String, String)> = Vec::with_capacity(STAT_CHUNK);
    loop {
        pairs.clear();
        let mut ended = false;
        while pairs.len() < STAT_CHUNK {
            let hl = h.next_line()?.map(str::to_string);
            let rl = r.next_line()?.map(str::to_string);
            match (hl, rl) {
                (Some(a), Some(b)) => pairs.push((a, b)),
                (None, None) => {
                    ended = true;
                    break;
                }
                _ => {
                    // One file ended first: count both to the end for the error.
                    let hi = h.finish()?.lines;
                    let ri = r.finish()?.lines;
                    return Ok((out, hi, ri));
                }
            }
        }
        let chunk: Vec<(BleuStats, ChrfStats, Option<RibesStats>)> = pairs
            .par_iter()
            .map(|(a, b)| {
                let rs = if ribes {
                    // `from_pair` fails only for a reference without words, which
                    // cannot happen (a blank line is one empty word, as in RIBES.py).
                    Some(RibesStats::from_pair(a, b).unwrap_or_default())
                } else {
                    None
                };
                (BleuStats::from_pair(a, b), ChrfStats::from_pair(a, b), rs)
            })
            .collect();
        for (b, c, rs) in chunk {
            out.bleu.push(b);
            out.chrf.push(c);
            if let Some(rs) = rs {
                out.ribes.push(rs);
            }
        }
        if ended {
            let n = out.bleu.len() as u64;
            return Ok((out, n, n));
        }
    }
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
    fn key(self) -> &'static str {
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
    ldd_eval::score_ids(per_line, ids).map_err(|e| Error::Data(format!("{}: {e}", path.display())))
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
            if metric == Metric::Ribes && u.set.kind != "reorder" {
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
                kind: u.set.kind.clone(),
                phenomenon: u.set.phenomenon.clone(),
                bucket: u.set.bucket.clone(),
                min_distance: Some(u.set.min_distance),
                exact: Some(u.set.exact),
                sentences: u.ids.len() as u64,
                score: set_score,
                controls: control_scores.len(),
                control_status: match u.status {
                    Some(s) => serde_json::to_value(s)
                        .ok()
                        .and_then(|v| v.as_str().map(str::to_string))
                        .unwrap_or_default(),
                    None => "none".into(),
                },
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
pub fn score(args: &ScoreArgs) -> Result<ScoreReport> {
    let l = load(&args.sets)?;
    let reference = match &args.reference {
        Some(r) => r.clone(),
        None => l.m.inputs.target.path.clone(),
    };
    // The reference must be the file extract read.
    let info = LineReader::open(&reference)
        .map_err(|e| match e {
            Error::Io { path, source } if source.kind() == std::io::ErrorKind::NotFound => {
                Error::Io {
                    path,
                    source: std::io::Error::new(
                        source.kind(),
                        format!(
                            "{source} (the reference recorded in {}; pass --ref FILE)",
                            l.manifest_path.display()
                        ),
                    ),
                }
            }
            e => e,
        })?
        .finish()?;
    if info.sha256 != l.m.inputs.target.sha256 || info.lines != l.m.inputs.target.lines {
        return Err(Error::Data(format!(
            "{}: not the target file extract read ({} lines, sha256 {}; {} records {} lines, sha256 {})",
            reference.display(),
            info.lines,
            info.sha256,
            l.manifest_path.display(),
            l.m.inputs.target.lines,
            l.m.inputs.target.sha256
        )));
    }
    let ribes = l.units.iter().any(|u| u.set.kind == "reorder");
    let mut systems: Vec<SystemInfo> = Vec::new();
    let mut rows = Vec::new();
    for hyp in &args.hyp {
        let name = system_name(hyp);
        if systems.iter().any(|s| s.name == name) {
            return Err(Error::Config(format!(
                "{}: two --hyp files have the system name `{name}`; rename one",
                hyp.display()
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

/// Runs `score`: prints the table and writes `scores.csv` and `scores.json`.
pub fn run_score(args: &ScoreArgs) -> Result<()> {
    let report = score(args)?;
    let dir = args.out.clone().unwrap_or_else(|| args.sets.clone());
    fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
    let mut json = serde_json::to_string_pretty(&report)
        .map_err(|e| Error::Data(format!("scores.json: {e}")))?;
    json.push('\n');
    write_atomic(&dir.join("scores.json"), json.as_bytes())?;
    write_atomic(&dir.join("scores.csv"), render_csv(&report).as_bytes())?;
    if !args.quiet {
        print!("{}", render_table(&report));
    }
    Ok(())
}

/// Writes `path` via a temporary file in the same directory and a rename.
fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    crate::output::write_file_atomic(path, |f| f.write_all(bytes).map_err(|e| Error::io(path, e)))
}

fn opt<T: ToString>(v: Option<T>) -> String {
    v.map(|x| x.to_string()).unwrap_or_default()
}

/// `scores.csv`: one row per system × metric × (corpus, set), then one per trend.
pub fn render_csv(r: &ScoreReport) -> String {
    let mut s = String::from(
        "system,metric,scope,kind,phenomenon,bucket,min_distance,exact,sentences,score,\
         controls,control_status,control_mean,control_sd,rank,ties,points,spearman,pearson\n",
    );
    for row in &r.rows {
        let _ = writeln!(
            s,
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},,,",
            csv_field(&row.system),
            row.metric.key(),
            row.scope,
            row.kind,
            csv_field(&row.phenomenon),
            csv_field(&row.bucket),
            opt(row.min_distance),
            opt(row.exact),
            row.sentences,
            opt(row.score),
            row.controls,
            row.control_status,
            opt(row.control_mean),
            opt(row.control_sd),
            opt(row.rank),
            opt(row.ties),
        );
    }
    for t in &r.trends {
        let _ = writeln!(
            s,
            "{},{},trend,,{},ge*,,,,,,,,,,,{},{},{}",
            csv_field(&t.system),
            t.metric.key(),
            csv_field(&t.phenomenon),
            t.points.len(),
            opt(t.spearman),
            opt(t.pearson),
        );
    }
    s
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

fn f2(v: Option<f64>) -> String {
    v.map_or_else(|| "-".into(), |x| format!("{x:.2}"))
}

/// The stdout table: per metric, one row per corpus/set, three cells per system
/// (`score`, `mean±sd` of the controls, `rank/K`); then the distance trends.
pub fn render_table(r: &ScoreReport) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{} corpus lines; reference {}; rank = controls scoring higher than the set, of K",
        r.corpus_lines,
        r.reference.display()
    );
    let metrics: Vec<Metric> = {
        let mut m: Vec<Metric> = r.rows.iter().map(|x| x.metric).collect();
        m.sort();
        m.dedup();
        m
    };
    let label_w = r
        .rows
        .iter()
        .map(|x| x.phenomenon.len() + x.bucket.len() + 1)
        .max()
        .unwrap_or(6)
        .max(6);
    for &metric in &metrics {
        let _ = writeln!(s, "\n{}", metric.label());
        let mut head = format!("{:<label_w$} {:>6}", "set", "n");
        for sys in &r.systems {
            head.push_str(&format!(
                " | {:>7} {:>13} {:>7}",
                sys.name, "ctl mean±sd", "rank"
            ));
        }
        let _ = writeln!(s, "{head}");
        let first = &r.systems[0].name;
        for row in r
            .rows
            .iter()
            .filter(|x| x.metric == metric && &x.system == first)
        {
            let label = if row.scope == "corpus" {
                "corpus".to_string()
            } else {
                format!("{}/{}", row.phenomenon, row.bucket)
            };
            let mut line = format!("{label:<label_w$} {:>6}", row.sentences);
            for sys in &r.systems {
                let x = r.rows.iter().find(|x| {
                    x.system == sys.name
                        && x.metric == metric
                        && x.scope == row.scope
                        && x.phenomenon == row.phenomenon
                        && x.bucket == row.bucket
                });
                let (sc, ctl, rank) = match x {
                    Some(x) => (
                        f2(x.score),
                        match (x.control_mean, x.control_sd) {
                            (Some(m), Some(sd)) => format!("{m:.2}±{sd:.2}"),
                            (Some(m), None) => format!("{m:.2}"),
                            _ => "-".into(),
                        },
                        x.rank
                            .map_or_else(|| "-".into(), |k| format!("{k}/{}", x.controls)),
                    ),
                    None => ("-".into(), "-".into(), "-".into()),
                };
                line.push_str(&format!(" | {sc:>7} {ctl:>13} {rank:>7}"));
            }
            let _ = writeln!(s, "{line}");
        }
    }
    if !r.trends.is_empty() {
        let _ = writeln!(
            s,
            "\nDistance trend over ge sets (correlation of min distance and score)"
        );
        let _ = writeln!(
            s,
            "{:<6} {:<24} {:<16} {:>6} {:>9} {:>9}",
            "metric", "phenomenon", "system", "points", "spearman", "pearson"
        );
        for t in &r.trends {
            let _ = writeln!(
                s,
                "{:<6} {:<24} {:<16} {:>6} {:>9} {:>9}",
                t.metric.label(),
                t.phenomenon,
                t.system,
                t.points.len(),
                f2(t.spearman),
                f2(t.pearson)
            );
        }
    }
    s
}
