//! Stage 9, **report**: one self-contained HTML page (or LaTeX tables) about a sets
//! directory and, when it has been scored, its scores.
//!
//! What enters: a sets directory (`manifest.json`, the set files, the per-line reordering
//! file) and, when present, `scores.json` with the systems' output files it names.
//! What leaves: `report.html` — inputs and settings, set sizes, distance distributions,
//! scores against distance with the controls' band, set-vs-controls tables with
//! significance marks, and an examples browser — every chart inline SVG drawn by
//! `plotters` ([`chart`]), styles inline, no script, font or image from elsewhere
//! ([`html`]); or, with `--format latex`, the main tables as LaTeX `tabular`s
//! ([`latex`]). The output is written all-or-nothing and is byte-identical for the same
//! inputs.
//!
//! The scores are read leniently ([`scores`]): fields that older versions of `score` did
//! not write (confidence intervals, p-values, signatures) are shown as "–".

pub mod chart;
pub mod data;
pub mod html;
pub mod items;
pub mod latex;
pub mod mqm;
pub mod render;
pub mod scores;

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::format::manifest::Manifest;
use crate::format::sheet::TallyReport;
use crate::read::sets::Loaded;
use data::{Distances, Measure, SetExamples};
pub use render::{render, Format};
use scores::Scores;

/// What `report` reads and writes (the CLI glues the steps: [`out_path`],
/// [`crate::read::sets::load`], [`gather`], [`render()`], then writes all-or-nothing).
#[derive(Debug, Clone)]
pub struct ReportOptions {
    /// Output directory of `ldd-sets extract`.
    pub sets: PathBuf,
    /// Output file [default: `SETS/report.html` or `SETS/report.tex`].
    pub out: Option<PathBuf>,
    /// Scores [default: `SETS/scores.json` when it exists].
    pub scores: Option<PathBuf>,
    /// Output format.
    pub format: Format,
    /// Example lines sampled per set.
    pub examples: usize,
    /// The annotators' tally (`tally.json`), shown when given.
    pub tally: Option<PathBuf>,
    /// Human judgements from MQM annotations [default: `SETS/mqm.json` when it exists].
    pub mqm: Option<PathBuf>,
}

/// Default number of example lines per set (the first [`html::SHOWN`] are shown, the
/// rest behind "show more").
pub const DEFAULT_EXAMPLES: usize = 10;

/// Everything the report shows, gathered.
#[derive(Debug)]
pub struct Report {
    /// The sets directory.
    pub dir: PathBuf,
    /// Its manifest.
    pub m: Manifest,
    /// The corpus's file name, as titles name it.
    pub corpus: String,
    /// The scores, if any.
    pub scores: Option<Scores>,
    /// Where they were read from.
    pub scores_path: Option<PathBuf>,
    /// Lexical pairs by distance.
    pub distances: Vec<Distances>,
    /// The file name of the per-line reordering file read, if any.
    pub measures_file: Option<String>,
    /// Reordering measures.
    pub measures: Vec<Measure>,
    /// Example lines per set.
    pub examples: Vec<SetExamples>,
    /// Warnings shown at the top of the report (e.g. a system's output file missing).
    pub notes: Vec<String>,
    /// The parse cache's record of the trees, when `extract` parsed the source itself
    /// (it names the UDPipe model).
    pub parse: Option<ldd_parse::CacheManifest>,
    /// The annotators' tally, when given.
    pub tally: Option<TallyReport>,
    /// Human judgements from MQM annotations (`mqm.json`), when made for these sets.
    pub mqm: Option<crate::format::mqm::MqmReport>,
    /// Every locus judged by `score --metrics locus`, when the scores name its file.
    pub loci: Option<Vec<data::LocusItem>>,
}

/// Reads everything the report shows about a loaded sets directory: the scores
/// (`scores`, or `SETS/scores.json` when it exists), the distances, the reordering
/// measures, `per_set` example lines a set with each system's output, the parse record,
/// the annotators' `tally` when given, and the MQM judgements (`mqm`, or `SETS/mqm.json`
/// when it exists; shown only when made for these sets).
pub fn gather(
    l: Loaded,
    scores: Option<&Path>,
    per_set: usize,
    tally: Option<&Path>,
    mqm: Option<&Path>,
) -> Result<Report> {
    let corpus = file_name(&l.m.inputs.source.path);
    let scores_path = match scores {
        Some(p) => Some(p.to_path_buf()),
        None => Some(l.dir.join(crate::layout::SCORES_JSON)).filter(|p| p.is_file()),
    };
    let scores = match &scores_path {
        Some(p) => Some(scores::read(p, &l.m)?),
        None => None,
    };
    let tally = tally.map(crate::format::sheet::read_tally).transpose()?;
    let mut notes = Vec::new();
    let mqm = match mqm {
        Some(p) => Some(p.to_path_buf()),
        None => Some(l.dir.join(crate::layout::MQM_JSON)).filter(|p| p.is_file()),
    };
    let mqm = match mqm {
        Some(p) => {
            let r = crate::format::mqm::read_report(&p)?;
            let sha = ldd_io::sha256_file(&l.manifest_path)?.0;
            if r.manifest_sha256 == sha {
                Some(r)
            } else {
                notes.push(format!(
                    "{} was made for other sets (another manifest): not shown; run `ldd-sets \
                     mqm` on these sets again",
                    p.display()
                ));
                None
            }
        }
        None => None,
    };
    let (measures_path, measures) = crate::read::sets::reorder_measures(&l)?.unzip();
    let parse = data::parse_record(&l.m);
    let distances = data::lexical_distances(&l.m, &mut notes);
    let examples = data::examples(&l, scores.as_ref(), per_set, &mut notes)?;
    let loci = match (&scores_path, &scores) {
        (Some(p), Some(sc)) => data::loci(p, sc, &l.m, &mut notes)?,
        _ => None,
    };
    Ok(Report {
        corpus,
        measures_file: measures_path.as_deref().map(file_name),
        dir: l.dir,
        m: l.m,
        scores,
        scores_path,
        distances,
        measures: measures.unwrap_or_default(),
        examples,
        notes,
        parse,
        tally,
        mqm,
        loci,
    })
}

/// The output path: `--out`, which must end in the format's extension (so a report is
/// never written over a set file or the manifest), or `SETS/report.<ext>`.
pub fn out_path(opts: &ReportOptions) -> Result<PathBuf> {
    let ext = opts.format.extension();
    let Some(out) = &opts.out else {
        return Ok(crate::layout::report_file(&opts.sets, ext));
    };
    let ok = out.extension().is_some_and(|e| {
        e.eq_ignore_ascii_case(ext) || (ext == "html" && e.eq_ignore_ascii_case("htm"))
    });
    if !ok || out.file_name().is_none() {
        return Err(Error::Config(format!(
            "--out {}: the file name must end in .{ext} for --format {}",
            ldd_io::error::shown(out),
            if ext == "tex" { "latex" } else { "html" }
        )));
    }
    if out.is_dir() {
        return Err(Error::Config(format!(
            "--out {}: is a directory; give a file name",
            ldd_io::error::shown(out)
        )));
    }
    if out.symlink_metadata().is_ok() && !written_by_us(out, opts.format) {
        return Err(Error::Config(format!(
            "--out {}: exists and is not a report written by ldd-sets; refusing to replace \
             it — choose another --out",
            ldd_io::error::shown(out)
        )));
    }
    Ok(out.clone())
}

/// Whether an existing file is an earlier `ldd-sets report` output of this format: an
/// HTML page whose head names ldd-sets as its generator, or LaTeX tables whose first line
/// is ldd-sets' comment. Only such files are replaced.
fn written_by_us(p: &Path, format: Format) -> bool {
    use std::io::Read as _;
    let Ok(meta) = p.symlink_metadata() else {
        return false;
    };
    if !meta.file_type().is_file() {
        return false;
    }
    let mut head = Vec::new();
    let Ok(f) = ldd_io::fs::open_raw(p) else {
        return false;
    };
    if f.take(4096).read_to_end(&mut head).is_err() {
        return false;
    }
    let head = String::from_utf8_lossy(&head);
    match format {
        Format::Html => head.contains("<meta name=\"generator\" content=\"ldd-sets "),
        Format::Latex => head.starts_with("% ldd-sets "),
    }
}

/// The file name of a path for display (the whole path if it has none).
fn file_name(p: &Path) -> String {
    p.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| p.display().to_string())
}
